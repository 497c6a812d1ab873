/* llvm-passes/fold_pair64.c: a register pair read as one i64.
 *
 * The host IR below builds i64 values from 32-bit halves in the shapes the
 * rule names, stores each to @out, and is run by LLVM's MCJIT before and
 * after wl_opt_fold_pair64 on the same random halves: the words stored must be
 * equal (the oracle is LLVM's execution of the unrewritten IR). The
 * module defines spv.construct._2_x_i32_ itself (the backend's intrinsic,
 * here a plain function that the pass finds and calls), so the rewritten
 * function runs too. Which ors go is counted by hand from the IR and the
 * rule (only where the shift and the high zext have no other reader):
 *   rewritten: p1 (or (shl (zext hi), 32), zext lo)), p2 (the or's
 *              operands the other way round), p3 (the low zext also
 *              stored: it stays for that reader);
 *   kept:      p4 (the shift also stored), p5 (a shift by 31), p6 (the
 *              high half an i16), p7 (the high zext also stored). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/ExecutionEngine.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Target.h>

#include "wlt_jit.h"
#include "llvm-passes/passes.h"
#include "support.h"

#define OUT_WORDS 10

static const char ir[] =
    "@in = global [4 x i32] zeroinitializer\n"
    "@out = global [10 x i64] zeroinitializer\n"
    "define <2 x i32> @spv.construct._2_x_i32_(i32 %a, i32 %b) {\n"
    "  %v0 = insertelement <2 x i32> undef, i32 %a, i32 0\n"
    "  %v1 = insertelement <2 x i32> %v0, i32 %b, i32 1\n  ret <2 x i32> %v1\n}\n"
    "define void @f() {\n"
    "entry:\n"
    "  %a = load i32, ptr @in\n"
    "  %pb = getelementptr i32, ptr @in, i32 1\n  %b = load i32, ptr %pb\n"
    "  %pc = getelementptr i32, ptr @in, i32 2\n  %c = load i32, ptr %pc\n"
    "  %pd = getelementptr i32, ptr @in, i32 3\n  %d = load i32, ptr %pd\n"
    /* p1: lo a, hi b */
    "  %l1 = zext i32 %a to i64\n  %h1 = zext i32 %b to i64\n  %s1 = shl i64 %h1, 32\n"
    "  %p1 = or i64 %s1, %l1\n"
    /* p2: lo c, hi d, the or the other way round */
    "  %l2 = zext i32 %c to i64\n  %h2 = zext i32 %d to i64\n  %s2 = shl i64 %h2, 32\n"
    "  %p2 = or i64 %l2, %s2\n"
    /* p3: lo b, hi c, the low zext read again */
    "  %l3 = zext i32 %b to i64\n  %h3 = zext i32 %c to i64\n  %s3 = shl i64 %h3, 32\n"
    "  %p3 = or i64 %s3, %l3\n"
    /* p4: lo d, hi a, the shift read again */
    "  %l4 = zext i32 %d to i64\n  %h4 = zext i32 %a to i64\n  %s4 = shl i64 %h4, 32\n"
    "  %p4 = or i64 %s4, %l4\n"
    /* p5: a shift by 31 (not a pair) */
    "  %l5 = zext i32 %a to i64\n  %h5 = zext i32 %d to i64\n  %s5 = shl i64 %h5, 31\n"
    "  %p5 = or i64 %s5, %l5\n"
    /* p6: the high half an i16 */
    "  %t6 = trunc i32 %c to i16\n  %l6 = zext i32 %b to i64\n  %h6 = zext i16 %t6 to i64\n"
    "  %s6 = shl i64 %h6, 32\n  %p6 = or i64 %s6, %l6\n"
    /* p7: lo c, hi a, the high zext read again */
    "  %l7 = zext i32 %c to i64\n  %h7 = zext i32 %a to i64\n  %s7 = shl i64 %h7, 32\n"
    "  %p7 = or i64 %s7, %l7\n"
    "  store i64 %p1, ptr @out\n"
    "  %o2 = getelementptr i64, ptr @out, i32 1\n  store i64 %p2, ptr %o2\n"
    "  %o3 = getelementptr i64, ptr @out, i32 2\n  store i64 %p3, ptr %o3\n"
    "  %o4 = getelementptr i64, ptr @out, i32 3\n  store i64 %p4, ptr %o4\n"
    "  %o5 = getelementptr i64, ptr @out, i32 4\n  store i64 %p5, ptr %o5\n"
    "  %o6 = getelementptr i64, ptr @out, i32 5\n  store i64 %p6, ptr %o6\n"
    "  %o7 = getelementptr i64, ptr @out, i32 6\n  store i64 %p7, ptr %o7\n"
    "  %o8 = getelementptr i64, ptr @out, i32 7\n  store i64 %l3, ptr %o8\n"
    "  %o9 = getelementptr i64, ptr @out, i32 8\n  store i64 %s4, ptr %o9\n"
    "  %o10 = getelementptr i64, ptr @out, i32 9\n  store i64 %h7, ptr %o10\n"
    "  ret void\n"
    "}\n";

/* instructions of @f with opcode op (calls: to spv.construct) */
static unsigned count_op(LLVMModuleRef m, LLVMOpcode op)
{
    unsigned n = 0;
    LLVMValueRef f = LLVMGetNamedFunction(m, "f");
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
            n += LLVMGetInstructionOpcode(i) == op;
    return n;
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static void pairs_match(void **state)
{
    (void)state;
    wlt_jit_init();
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef ref = wlt_parse_ir(ctx, ir, sizeof ir - 1, "pair64"),
                  folded = wlt_parse_ir(ctx, ir, sizeof ir - 1, "pair64");
    unsigned ors = count_op(folded, LLVMOr), zexts = count_op(folded, LLVMZExt);
    int n = wlt_run_pass(wl_opt_fold_pair64, folded, 0);
    char *msg = NULL;
    if (LLVMVerifyModule(folded, LLVMReturnStatusAction, &msg))
        fail_msg("rewritten module does not verify: %s", msg ? msg : "?");
    LLVMDisposeMessage(msg);
    unsigned ors_after = count_op(folded, LLVMOr), calls = count_op(folded, LLVMCall),
             zexts_after = count_op(folded, LLVMZExt);
    printf("fold_pair64: %d pairs rewritten; ors %u -> %u, zexts %u -> %u, %u constructs\n", n, ors, ors_after, zexts,
           zexts_after, calls);
    assert_int_equal(n, 3);                 /* p1, p2, p3 */
    assert_int_equal(ors_after, ors - 3);   /* p4 .. p7 stay */
    assert_int_equal(calls, 3);
    assert_int_equal(zexts_after, zexts - 5); /* both zexts of p1 and p2, the high one of p3 */
    wlt_jit_pair jp;
    LLVMExecutionEngineRef ea, eb;
    jp.f[0] = wlt_jit_start(ref, "f", &ea, &jp.in[0], &jp.out[0]);
    jp.f[1] = wlt_jit_start(folded, "f", &eb, &jp.in[1], &jp.out[1]);
    unsigned bad = 0, runs = 0;
    for (unsigned r = 0; r < 4096; r++) {
        uint32_t v[4];
        for (int i = 0; i < 4; i++)
            v[i] = wlt_xorshift(&rng);
        if (r < 16) /* the edges: all zero and all ones halves */
            for (int i = 0; i < 4; i++)
                v[i] = r >> i & 1 ? 0xffffffffu : 0;
        runs++;
        if (!wlt_jit_same(&jp, v, sizeof v, OUT_WORDS * sizeof(uint64_t)) && bad++ < 5)
            printf("MISMATCH %08x %08x %08x %08x\n", v[0], v[1], v[2], v[3]);
    }
    /* the reference itself: p1 is (b:a) */
    uint32_t v[4] = {0x89abcdefu, 0x01234567u, 0, 0};
    wlt_jit_same(&jp, v, sizeof v, OUT_WORDS * sizeof(uint64_t));
    assert_true(((uint64_t *)jp.out[0])[0] == 0x0123456789abcdefull);
    printf("%u input sets, %u match\n", runs, runs - bad);
    assert_int_equal(bad, 0);
    LLVMDisposeExecutionEngine(ea); /* owns the modules */
    LLVMDisposeExecutionEngine(eb);
    LLVMContextDispose(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(pairs_match)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
