/* llvm-passes/version_align.c: windows of device accesses of unknown
 * alignment, branched once on their addresses (docs/backend.md "Unaligned
 * device memory").
 *
 * A hand-written host-IR function reads a dword, a dword and a qword at
 * a, a + 4, a + 8 (one load window, the sum between them depending on the
 * loads), chases a pointer it loaded (a second window: its address needs
 * the first's loads) and stores at b, b + 4 and c + 2 (one store window).
 * After the pass, every block the pass named va.fast / va.slow gets a call
 * that records which ran; MCJIT runs the function at every alignment of
 * a, b and c (x86 reads any address either way, so the bytes alone could
 * not tell the paths apart). Checked against C written here from the
 * accesses' little-endian bytes:
 *   - every byte the function writes, and the bytes around it untouched;
 *   - the path each window took: fast exactly where all its addresses are
 *     4-aligned (a % 4 == 0; b % 4 == 0 and c % 4 == 2), slow otherwise;
 *   - the pass's count of windows (3), the module verifying after it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>

#include "support.h"
#include "wlt_jit.h"
#include "llvm-passes/passes.h"

static const char IR[] =
    "define void @f(i64 %a, i64 %b, i64 %c) {\n"
    "entry:\n"
    "  %p0 = inttoptr i64 %a to ptr addrspace(1)\n"
    "  %x0 = load i32, ptr addrspace(1) %p0, align 1\n"
    "  %a4 = add i64 %a, 4\n"
    "  %p1 = inttoptr i64 %a4 to ptr addrspace(1)\n"
    "  %x1 = load i32, ptr addrspace(1) %p1, align 1\n"
    "  %s = add i32 %x0, %x1\n"
    "  %a8 = add i64 %a, 8\n"
    "  %p2 = inttoptr i64 %a8 to ptr addrspace(1)\n"
    "  %x2 = load i64, ptr addrspace(1) %p2, align 2\n"
    "  %a16 = add i64 %a, 16\n"
    "  %p3 = inttoptr i64 %a16 to ptr addrspace(1)\n"
    "  %ptr = load i64, ptr addrspace(1) %p3, align 1\n"
    "  %pp = inttoptr i64 %ptr to ptr addrspace(1)\n"
    "  %y = load i32, ptr addrspace(1) %pp, align 1\n"
    "  %t = trunc i64 %x2 to i32\n"
    "  %u = xor i32 %s, %t\n"
    "  %v = add i32 %u, %y\n"
    "  %q0 = inttoptr i64 %b to ptr addrspace(1)\n"
    "  store i32 %v, ptr addrspace(1) %q0, align 1\n"
    "  %b4 = add i64 %b, 4\n"
    "  %q1 = inttoptr i64 %b4 to ptr addrspace(1)\n"
    "  store i64 %x2, ptr addrspace(1) %q1, align 1\n"
    "  %c2 = add i64 %c, 2\n"
    "  %q2 = inttoptr i64 %c2 to ptr addrspace(1)\n"
    "  store i32 %x1, ptr addrspace(1) %q2, align 2\n"
    "  ret void\n"
    "}\n";

/* the paths taken, in order: 'F' fast, 'S' slow */
static char taken[8];
static unsigned ntaken;

static void hit(int32_t fast)
{
    if (ntaken < sizeof taken - 1)
        taken[ntaken++] = fast ? 'F' : 'S';
}

/* a call to @hit(fast) at the top of every va.fast / va.slow block */
static unsigned instrument(LLVMModuleRef m)
{
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(ctx), &i32, 1, 0);
    LLVMValueRef h = LLVMAddFunction(m, "hit", fty);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    unsigned n = 0;
    LLVMValueRef f = LLVMGetNamedFunction(m, "f");
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
        const char *name = LLVMGetBasicBlockName(bb);
        int fast = !strncmp(name, "va.fast", 7), slow = !strncmp(name, "va.slow", 7);
        if (!fast && !slow)
            continue;
        LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(bb));
        LLVMValueRef arg = LLVMConstInt(i32, (unsigned)fast, 0);
        LLVMBuildCall2(b, fty, h, &arg, 1, "");
        n++;
    }
    LLVMDisposeBuilder(b);
    return n;
}

static uint64_t le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static void put(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void versioned_windows(void **state)
{
    (void)state;
    wlt_jit_init();
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = wlt_parse_ir(ctx, IR, sizeof IR - 1, "va");
    int n = wlt_run_pass(wl_opt_version_align, m, 0);
    assert_int_equal(n, 3); /* loads at a; the chased load; the stores */
    char *msg = NULL;
    if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg))
        fail_msg("after version_align: %s", msg);
    LLVMDisposeMessage(msg);
    assert_int_equal(instrument(m), 6);
    LLVMExecutionEngineRef ee;
    wlt_jit_cb cbs[] = {{"hit", (void *)hit}};
    void (*f)(uint64_t, uint64_t, uint64_t) =
        (void (*)(uint64_t, uint64_t, uint64_t))wlt_jit_compile(m, 0, cbs, 1, "f", &ee);

    static _Alignas(16) uint8_t in[64];
    static uint8_t out[64], out2[32], want[64], want2[32];
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    unsigned runs = 0;
    for (unsigned ma = 0; ma < 4; ma++)
        for (unsigned mb = 0; mb < 4; mb++)
            for (unsigned mc = 0; mc < 4; mc++) {
                for (unsigned i = 0; i < sizeof in; i++)
                    in[i] = (uint8_t)wlt_xorshift(&seed);
                /* the chased pointer: in + 40 + (ma ^ mb) */
                uint8_t *chased = in + 40 + (ma ^ mb);
                put(in + ma + 16, (uint64_t)(uintptr_t)chased, 8);
                memset(out, 0xee, sizeof out);
                memset(out2, 0xee, sizeof out2);
                memcpy(want, out, sizeof want);
                memcpy(want2, out2, sizeof want2);
                const uint8_t *a = in + ma;
                uint32_t x0 = (uint32_t)le(a, 4), x1 = (uint32_t)le(a + 4, 4);
                uint64_t x2 = le(a + 8, 8);
                uint32_t y = (uint32_t)le(chased, 4);
                uint32_t v = ((x0 + x1) ^ (uint32_t)x2) + y;
                put(want + 8 + mb, v, 4);
                put(want + 8 + mb + 4, x2, 8);
                put(want2 + 8 + mc + 2, x1, 4);
                ntaken = 0;
                memset(taken, 0, sizeof taken);
                f((uint64_t)(uintptr_t)a, (uint64_t)(uintptr_t)(out + 8 + mb), (uint64_t)(uintptr_t)(out2 + 8 + mc));
                /* in is 8-aligned (static, 64 bytes): the misalignments are ma, mb, mc */
                assert_int_equal((uintptr_t)in % 8, 0);
                char want_path[4] = {ma == 0 ? 'F' : 'S', ((uintptr_t)chased % 4 == 0) ? 'F' : 'S',
                                     (mb == 0 && (mc + 2) % 4 == 0) ? 'F' : 'S', 0};
                if (strcmp(taken, want_path))
                    fail_msg("a %% 4 = %u, b %% 4 = %u, c %% 4 = %u: paths %s, want %s", ma, mb, mc, taken,
                             want_path);
                if (memcmp(out, want, sizeof out) || memcmp(out2, want2, sizeof out2))
                    fail_msg("a %% 4 = %u, b %% 4 = %u, c %% 4 = %u: the bytes written differ", ma, mb, mc);
                runs++;
            }
    assert_int_equal(runs, 64);
    LLVMDisposeExecutionEngine(ee);
    LLVMContextDispose(ctx);
}

/* a window ends at a store between loads, and at a call that is not a
 * pure builtin: each side is its own window */
static void windows_end(void **state)
{
    (void)state;
    static const char ir[] = "declare void @g()\n"
                             "define void @f(i64 %a, i64 %b) {\n"
                             "entry:\n"
                             "  %p0 = inttoptr i64 %a to ptr addrspace(1)\n"
                             "  %x0 = load i32, ptr addrspace(1) %p0, align 1\n"
                             "  %q0 = inttoptr i64 %b to ptr addrspace(1)\n"
                             "  store i32 %x0, ptr addrspace(1) %q0, align 1\n"
                             "  %x1 = load i32, ptr addrspace(1) %p0, align 1\n"
                             "  call void @g()\n"
                             "  %x2 = load i32, ptr addrspace(1) %p0, align 1\n"
                             "  %s = add i32 %x1, %x2\n"
                             "  %q4 = inttoptr i64 %b to ptr addrspace(4)\n"
                             "  store i32 %s, ptr addrspace(4) %q4, align 1\n"
                             "  %x3 = load i32, ptr addrspace(1) %p0, align 4\n"
                             "  store i32 %x3, ptr addrspace(1) %q0, align 4\n"
                             "  ret void\n"
                             "}\n";
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = wlt_parse_ir(ctx, ir, sizeof ir - 1, "va2");
    /* x0; the store; x1; x2 (the addrspace(4) store and the aligned
     * accesses are not versioned) */
    assert_int_equal(wlt_run_pass(wl_opt_version_align, m, 0), 4);
    char *msg = NULL;
    if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg))
        fail_msg("after version_align: %s", msg);
    LLVMDisposeMessage(msg);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
}

/* Runs of four i32 loads at one base and consecutive offsets (in any
 * order in the window) become one <4 x i32> access on each path and one
 * phi: here a + 12, a, a + 8, a + 4 (a run), a + 16 (alone) and c, c + 4
 * (two: no run). MCJIT runs it at every alignment of a and c; each value
 * stored (at align 4, not versioned) is checked against the bytes read in
 * C, and the module holds one <4 x i32> load (the fast path) and one call
 * of the <4 x i32> routine (the slow path). */
static void runs_of_four(void **state)
{
    (void)state;
    static const char ir[] =
        "define void @f(i64 %a, i64 %c, ptr %o) {\n"
        "entry:\n"
        "  %a12 = add i64 %a, 12\n  %p3 = inttoptr i64 %a12 to ptr addrspace(1)\n"
        "  %x3 = load i32, ptr addrspace(1) %p3, align 1\n"
        "  %p0 = inttoptr i64 %a to ptr addrspace(1)\n  %x0 = load i32, ptr addrspace(1) %p0, align 1\n"
        "  %a8 = add i64 %a, 8\n  %p2 = inttoptr i64 %a8 to ptr addrspace(1)\n"
        "  %x2 = load i32, ptr addrspace(1) %p2, align 1\n"
        "  %a4 = add i64 %a, 4\n  %p1 = inttoptr i64 %a4 to ptr addrspace(1)\n"
        "  %x1 = load i32, ptr addrspace(1) %p1, align 1\n"
        "  %a16 = add i64 %a, 16\n  %p4 = inttoptr i64 %a16 to ptr addrspace(1)\n"
        "  %x4 = load i32, ptr addrspace(1) %p4, align 1\n"
        "  %q0 = inttoptr i64 %c to ptr addrspace(1)\n  %y0 = load i32, ptr addrspace(1) %q0, align 1\n"
        "  %c4 = add i64 %c, 4\n  %q1 = inttoptr i64 %c4 to ptr addrspace(1)\n"
        "  %y1 = load i32, ptr addrspace(1) %q1, align 1\n"
        "  store i32 %x0, ptr %o, align 4\n"
        "  %o1 = getelementptr i32, ptr %o, i32 1\n  store i32 %x1, ptr %o1, align 4\n"
        "  %o2 = getelementptr i32, ptr %o, i32 2\n  store i32 %x2, ptr %o2, align 4\n"
        "  %o3 = getelementptr i32, ptr %o, i32 3\n  store i32 %x3, ptr %o3, align 4\n"
        "  %o4 = getelementptr i32, ptr %o, i32 4\n  store i32 %x4, ptr %o4, align 4\n"
        "  %o5 = getelementptr i32, ptr %o, i32 5\n  store i32 %y0, ptr %o5, align 4\n"
        "  %o6 = getelementptr i32, ptr %o, i32 6\n  store i32 %y1, ptr %o6, align 4\n"
        "  ret void\n"
        "}\n";
    wlt_jit_init();
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = wlt_parse_ir(ctx, ir, sizeof ir - 1, "va4");
    assert_int_equal(wlt_run_pass(wl_opt_version_align, m, 0), 1); /* one window: the loads */
    char *msg = NULL;
    if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg))
        fail_msg("after version_align: %s", msg);
    LLVMDisposeMessage(msg);
    unsigned v4_loads = 0, v4_calls = 0, scalar_calls = 0;
    LLVMValueRef f = LLVMGetNamedFunction(m, "f");
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            int vec = LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMVectorTypeKind;
            v4_loads += LLVMIsALoadInst(i) && vec;
            v4_calls += LLVMIsACallInst(i) && vec;
            scalar_calls += LLVMIsACallInst(i) && !vec;
        }
    printf("runs_of_four: %u <4 x i32> loads, %u <4 x i32> calls, %u scalar calls\n", v4_loads, v4_calls,
           scalar_calls);
    assert_int_equal(v4_loads, 1);
    assert_int_equal(v4_calls, 1);
    assert_int_equal(scalar_calls, 3); /* a + 16, c, c + 4 */
    LLVMExecutionEngineRef ee;
    void (*fn)(uint64_t, uint64_t, uint32_t *) =
        (void (*)(uint64_t, uint64_t, uint32_t *))wlt_jit_compile(m, 0, NULL, 0, "f", &ee);
    static _Alignas(16) uint8_t in[64];
    uint64_t seed = 0x2545f4914f6cdd1dull;
    for (unsigned ma = 0; ma < 4; ma++)
        for (unsigned mc = 0; mc < 4; mc++) {
            for (unsigned i = 0; i < sizeof in; i++)
                in[i] = (uint8_t)wlt_xorshift(&seed);
            uint32_t out[8] = {0}, want[8] = {0};
            const uint8_t *a = in + ma, *c = in + 32 + mc;
            for (unsigned k = 0; k < 5; k++)
                want[k] = (uint32_t)le(a + 4 * k, 4);
            want[5] = (uint32_t)le(c, 4);
            want[6] = (uint32_t)le(c + 4, 4);
            fn((uint64_t)(uintptr_t)a, (uint64_t)(uintptr_t)c, out);
            if (memcmp(out, want, sizeof out))
                fail_msg("a %% 4 = %u, c %% 4 = %u: the values loaded differ", ma, mc);
        }
    LLVMDisposeExecutionEngine(ee);
    LLVMContextDispose(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(versioned_windows),
        cmocka_unit_test(windows_end),
        cmocka_unit_test(runs_of_four),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
