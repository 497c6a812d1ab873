/* Calls lifted inline (frontend/lift/lift_calls.c, docs/wave-ir.md "Calls"),
 * executed: programs assembled by llvm-mc-19 (gfx1010, wave64) are lifted,
 * verified, JIT-compiled by LLVM's MCJIT (the wl.* functions are C
 * callbacks over one scalar memory) and run, at O0 and after LLVM's
 * default<O2>; every stored value is compared with a C model of the
 * program written here from the ISA's definitions of the instructions.
 *
 *   calls: nested calls (f calls g), two call sites of f, a second call
 *     through an address kept in s[34:35] across the first call, a tail call
 *     (t ends with s_setpc_b64 to g, g returns to t's caller), and a call
 *     through an address stored to memory and loaded back (a target the
 *     tracker cannot know: every target some call reaches is a candidate);
 *     with a corrupted return address in g the first return escapes and
 *     nothing more is stored. Run as it is (callees are a large share of
 *     the code: one copy a function, 3 copies, blocks b<offset>.c<n>) and
 *     after 120 s_nop in the kernel (a copy per call site, 9 copies).
 *   recursion: r calls itself (return addresses pushed to memory): one
 *     copy of r whose return goes to either call site. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <llvm-c/Core.h>
#include <llvm-c/ExecutionEngine.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "support.h"
#include "wlt_jit.h"
#include "ir/wave_ir.h"
#include "wavelift/lift.h"

#define MEM_ADDR 0x100000ull /* s[0:1]: inputs at +0, s[2:3]: outputs at +0x1000 */
#define MEM_WORDS 2048
#define CODE_ADDR 0x7000000ull

static struct {
    uint32_t mem[MEM_WORDS];
    unsigned bad_access, escapes;
} M;

static uint32_t cb_user_sgpr(uint32_t n)
{
    uint64_t out = MEM_ADDR + 0x1000;
    uint32_t v[4] = {(uint32_t)MEM_ADDR, (uint32_t)(MEM_ADDR >> 32), (uint32_t)out, (uint32_t)(out >> 32)};
    return n < 4 ? v[n] : 0;
}
static uint32_t cb_zero32(uint32_t d) { (void)d; return 0; }
static uint32_t cb_zero0(void) { return 0; }
static uint64_t cb_launch_exec(void) { return ~0ull; }
static bool cb_lane_active(uint64_t exec) { return exec & 1; }
static void cb_escape(uint32_t kind, uint32_t off, bool active) { (void)kind; (void)off; M.escapes += active; }
static uint32_t *word(uint64_t a)
{
    if (a >= MEM_ADDR && a < MEM_ADDR + sizeof M.mem && !(a & 3))
        return &M.mem[(a - MEM_ADDR) / 4];
    M.bad_access++;
    return NULL;
}
static uint32_t cb_sload(uint64_t a)
{
    uint32_t *p = word(a);
    return p ? *p : 0xdeadbeef;
}
static void cb_sstore(uint64_t a, uint32_t v)
{
    uint32_t *p = word(a);
    if (p)
        *p = v;
}

static const wlt_jit_cb callbacks[] = {
    {"wl.user_sgpr", (void *)cb_user_sgpr},   {"wl.workgroup_id", (void *)cb_zero32},
    {"wl.thread_id", (void *)cb_zero32},      {"wl.wave_id", (void *)cb_zero0},
    {"wl.launch_exec", (void *)cb_launch_exec}, {"wl.lane_active", (void *)cb_lane_active},
    {"wl.escape", (void *)cb_escape},         {"wl.sload.b32", (void *)cb_sload},
    {"wl.sstore.b32", (void *)cb_sstore},
};

static uint8_t *assemble(const char *text, size_t *size)
{
    uint8_t *b = wlt_assemble(text, "gfx1010", 64, size, NULL); /* support.c: llvm-mc-19, .text */
    assert_non_null(b);
    return b;
}

typedef struct jit {
    LLVMContextRef ctx;
    LLVMExecutionEngineRef ee;
    void (*fn)(void);
    unsigned copies; /* distinct callee copies among the lifted blocks */
} jit;

/* Lifts (counting the callee copies: blocks named b<offset>.c<n>),
 * verifies, optionally optimizes, JIT-compiles. */
static void jit_make(jit *j, const uint8_t *code, size_t size, int o2)
{
    wl_lift_program p;
    memset(&p, 0, sizeof p);
    p.code = code;
    p.size = size;
    p.address = CODE_ADDR;
    p.target = WL_GFX1010;
    p.wave_size = 64;
    p.user_sgpr_count = 4;
    p.enable_workgroup_id[0] = 1;
    p.vgpr_workitem_ids = 1;
    char err[1024];
    LLVMModuleRef m;
    j->ctx = LLVMContextCreate();
    wl_status st = wl_lift(j->ctx, &p, &m, err, sizeof err);
    if (st != WL_OK)
        fprintf(stderr, "lift: %s\n", err);
    assert_int_equal(st, WL_OK);
    assert_int_equal(wl_wir_verify(m, err, sizeof err), WL_OK);
    uint8_t seen[4096] = {0};
    j->copies = 0;
    LLVMValueRef f = LLVMGetNamedFunction(m, WL_WIR_FUNCTION);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
        const char *n = LLVMGetBasicBlockName(bb);
        const char *c = n[0] == 'b' ? strstr(n, ".c") : NULL;
        unsigned k = c ? (unsigned)strtoul(c + 2, NULL, 10) : 0;
        if (k && k < sizeof seen && !seen[k]) {
            seen[k] = 1;
            j->copies++;
        }
    }
    j->fn = wlt_jit_compile(m, o2, callbacks, sizeof callbacks / sizeof callbacks[0], WL_WIR_FUNCTION, &j->ee);
}

static void jit_free(jit *j)
{
    LLVMDisposeExecutionEngine(j->ee);
    LLVMContextDispose(j->ctx);
}

#define OUT(i) M.mem[0x1000 / 4 + (i)]

/* ---------------------------------------------------------------- inline */

static const char inline_program[] =
    "s_load_dword s4, s[0:1], 0x0\n"
    "s_load_dword s5, s[0:1], 0x4\n"      /* added to g's return address: 0, or a corruption */
    "s_waitcnt lgkmcnt(0)\n"
    "s_getpc_b64 s[34:35]\n"
    ".Lp1:\n"
    "s_add_u32 s34, s34, f-.Lp1\n"
    "s_addc_u32 s35, s35, 0\n"
    "s_swappc_b64 s[30:31], s[34:35]\n"   /* s4 = f(s4) */
    "s_store_dword s4, s[2:3], 0x0\n"
    "s_swappc_b64 s[30:31], s[34:35]\n"   /* the address kept across the call */
    "s_store_dword s4, s[2:3], 0x4\n"
    "s_getpc_b64 s[36:37]\n"
    ".Lp2:\n"
    "s_add_u32 s36, s36, t-.Lp2\n"
    "s_addc_u32 s37, s37, 0\n"
    "s_swappc_b64 s[30:31], s[36:37]\n"   /* t: +7, then a tail call of g */
    "s_store_dword s4, s[2:3], 0x8\n"
    "s_store_dwordx2 s[34:35], s[2:3], 0x40\n"
    "s_waitcnt lgkmcnt(0)\n"
    "s_load_dwordx2 s[38:39], s[2:3], 0x40\n"
    "s_waitcnt lgkmcnt(0)\n"
    "s_swappc_b64 s[30:31], s[38:39]\n"   /* f through memory */
    "s_store_dword s4, s[2:3], 0xc\n"
    "s_endpgm\n"
    "f:\n"                                /* s4 = g(s4 * 3 + 1) + 5 */
    "s_mov_b64 s[40:41], s[30:31]\n"
    "s_mul_i32 s4, s4, 3\n"
    "s_add_u32 s4, s4, 1\n"
    "s_getpc_b64 s[42:43]\n"
    ".Lp3:\n"
    "s_add_u32 s42, s42, g-.Lp3\n"
    "s_addc_u32 s43, s43, 0\n"
    "s_swappc_b64 s[30:31], s[42:43]\n"
    "s_add_u32 s4, s4, 5\n"
    "s_mov_b64 s[30:31], s[40:41]\n"
    "s_setpc_b64 s[30:31]\n"
    "g:\n"                                /* s4 ^= 0x55 */
    "s_xor_b32 s4, s4, 0x55\n"
    "s_add_u32 s30, s30, s5\n"
    "s_setpc_b64 s[30:31]\n"
    "t:\n"
    "s_add_u32 s4, s4, 7\n"
    "s_getpc_b64 s[44:45]\n"
    ".Lp4:\n"
    "s_add_u32 s44, s44, g-.Lp4\n"
    "s_addc_u32 s45, s45, -1\n"             /* g lies before: the high word of a negative offset */
    "s_setpc_b64 s[44:45]\n";

static uint32_t ref_f(uint32_t x) { return ((x * 3u + 1u) ^ 0x55u) + 5u; }

/* The program alone (callees are a large share: one copy a function), or
 * after 120 s_nop in the kernel (copies per call site cost little). */
static void run_calls(int padded)
{
    size_t size;
    char *text = malloc(sizeof inline_program + 120 * 8);
    assert_non_null(text);
    text[0] = '\0';
    for (int i = 0; padded && i < 120; i++)
        strcat(text, "s_nop 0\n");
    strcat(text, inline_program);
    uint8_t *code = assemble(text, &size);
    free(text);
    unsigned runs = 0, copies = 0;
    for (int o2 = 0; o2 < 2; o2++) {
        jit j;
        jit_make(&j, code, size, o2);
        copies = j.copies;
        if (padded)
            assert_true(j.copies >= 6); /* f twice, t, g in each f, a copy per candidate of the lost call */
        else
            assert_int_equal(j.copies, 3); /* f, g, t (t's tail call runs g's code in t's copy) */
        for (uint32_t n = 0; n < 20; n++) {
            memset(M.mem, 0xcc, sizeof M.mem);
            M.mem[0] = n * 7919u + 3;
            M.mem[1] = (n % 5 == 4) ? 8 : 0;
            M.bad_access = M.escapes = 0;
            j.fn();
            assert_int_equal(M.bad_access, 0);
            if (M.mem[1]) {
                assert_int_equal(M.escapes, 1);
                assert_int_equal(OUT(0), 0xccccccccu);
            } else {
                uint32_t a = ref_f(M.mem[0]), b = ref_f(a), c = (b + 7u) ^ 0x55u, d = ref_f(c);
                assert_int_equal(M.escapes, 0);
                assert_int_equal(OUT(0), a);
                assert_int_equal(OUT(1), b);
                assert_int_equal(OUT(2), c);
                assert_int_equal(OUT(3), d);
            }
            runs++;
        }
        jit_free(&j);
    }
    printf("calls %s: %u runs match the C model (%u callee copies: nested, kept address, tail call, "
           "call through memory; a corrupted return escapes)\n", padded ? "per call site" : "per function",
           runs, copies);
    free(code);
}

static void calls_per_site(void **state)
{
    (void)state;
    run_calls(1);
}

static void calls_per_function(void **state)
{
    (void)state;
    run_calls(0);
}

/* ------------------------------------------------------------- recursion */

static const char recursive_program[] =
    "s_load_dword s4, s[0:1], 0x0\n"      /* n >= 1 */
    "s_mov_b32 s6, 0\n"
    "s_mov_b32 s7, 0x100\n"               /* a stack in the output area */
    "s_waitcnt lgkmcnt(0)\n"
    "s_getpc_b64 s[8:9]\n"
    ".Lq0:\n"
    "s_add_u32 s8, s8, r-.Lq0\n"
    "s_addc_u32 s9, s9, 0\n"
    "s_swappc_b64 s[30:31], s[8:9]\n"
    "s_store_dword s6, s[2:3], 0x0\n"
    "s_endpgm\n"
    "r:\n"                                /* acc += n; if (--n) { r(); acc *= 3; } */
    "s_store_dwordx2 s[30:31], s[2:3], s7\n"
    "s_add_u32 s7, s7, 8\n"
    "s_add_u32 s6, s6, s4\n"
    "s_sub_u32 s4, s4, 1\n"
    "s_cmp_eq_u32 s4, 0\n"
    "s_cbranch_scc1 .Lret\n"
    "s_getpc_b64 s[8:9]\n"
    ".Lq1:\n"
    "s_add_u32 s8, s8, r-.Lq1\n"
    "s_addc_u32 s9, s9, -1\n"
    "s_swappc_b64 s[30:31], s[8:9]\n"
    "s_mul_i32 s6, s6, 3\n"
    ".Lret:\n"
    "s_sub_u32 s7, s7, 8\n"
    "s_waitcnt lgkmcnt(0)\n"
    "s_load_dwordx2 s[30:31], s[2:3], s7\n"
    "s_waitcnt lgkmcnt(0)\n"
    "s_setpc_b64 s[30:31]\n";

static uint32_t ref_r(uint32_t *acc, uint32_t *n)
{
    *acc += *n;
    if (--*n) {
        ref_r(acc, n);
        *acc *= 3u;
    }
    return *acc;
}

static void recursion(void **state)
{
    (void)state;
    size_t size;
    uint8_t *code = assemble(recursive_program, &size);
    unsigned runs = 0;
    for (int o2 = 0; o2 < 2; o2++) {
        jit j;
        jit_make(&j, code, size, o2);
        assert_int_equal(j.copies, 1); /* one copy of r, returns to both call sites */
        for (uint32_t n = 1; n <= 12; n++) {
            memset(M.mem, 0, sizeof M.mem);
            M.mem[0] = n;
            M.bad_access = M.escapes = 0;
            j.fn();
            uint32_t acc = 0, k = n;
            assert_int_equal(M.bad_access, 0);
            assert_int_equal(M.escapes, 0);
            assert_int_equal(OUT(0), ref_r(&acc, &k));
            runs++;
        }
        jit_free(&j);
    }
    printf("calls recursive: %u runs match the C model (one copy of r)\n", runs);
    free(code);
}

int main(void)
{
    LLVMLinkInMCJIT();
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(calls_per_site),
        cmocka_unit_test(calls_per_function),
        cmocka_unit_test(recursion),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
