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
 *              high half an i16), p7 (the high zext also stored).
 * selects_sink: a pair written under a mask and read whole
 * (join(select(c, lo x, a), select(c, hi x, b)) -> select(c, x, join(a, b))),
 * the same way: q1 (i64), q2 (two masks in turn: the rule twice, the inner
 * join x' itself), q3 (<2 x i64> of lane clones, the arms the other way
 * round) rewritten; q4 (a select also stored), q5 (two conditions) kept. */
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

/* the backend's intrinsic the pass calls, as a plain function of the module */
#define CONSTRUCT2                                                                                                   \
    "define <2 x i32> @spv.construct._2_x_i32_(i32 %a, i32 %b) {\n"                                                   \
    "  %v0 = insertelement <2 x i32> undef, i32 %a, i32 0\n"                                                          \
    "  %v1 = insertelement <2 x i32> %v0, i32 %b, i32 1\n  ret <2 x i32> %v1\n}\n"

static const char ir[] =
    "@in = global [4 x i32] zeroinitializer\n"
    "@out = global [10 x i64] zeroinitializer\n"
    CONSTRUCT2
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

static const char ir_sel[] =
    "@in = global [8 x i32] zeroinitializer\n"
    "@out = global [8 x i64] zeroinitializer\n"
    CONSTRUCT2
    "define void @f() {\n"
    "entry:\n"
    "  %a = load i32, ptr @in\n"
    "  %pb = getelementptr i32, ptr @in, i32 1\n  %b = load i32, ptr %pb\n"
    "  %pc = getelementptr i32, ptr @in, i32 2\n  %c = load i32, ptr %pc\n"
    "  %pd = getelementptr i32, ptr @in, i32 3\n  %d = load i32, ptr %pd\n"
    "  %pm = getelementptr i32, ptr @in, i32 4\n  %m = load i32, ptr %pm\n"
    "  %px = getelementptr i32, ptr @in, i32 5\n  %xl = load i32, ptr %px\n"
    "  %py = getelementptr i32, ptr @in, i32 6\n  %xh = load i32, ptr %py\n"
    "  %m1 = and i32 %m, 1\n  %c1 = icmp ne i32 %m1, 0\n"
    "  %m2 = and i32 %m, 2\n  %c2 = icmp ne i32 %m2, 0\n"
    /* x = (xh:xl), its halves */
    "  %zl = zext i32 %xl to i64\n  %zh = zext i32 %xh to i64\n  %sh = shl i64 %zh, 32\n  %x = or i64 %sh, %zl\n"
    "  %x.r = lshr i64 %x, 32\n  %x.lo = trunc i64 %x to i32\n  %x.hi = trunc i64 %x.r to i32\n"
    /* q1: under c1 from (b:a) */
    "  %s1l = select i1 %c1, i32 %x.lo, i32 %a\n  %s1h = select i1 %c1, i32 %x.hi, i32 %b\n"
    "  %q1l = zext i32 %s1l to i64\n  %q1z = zext i32 %s1h to i64\n  %q1s = shl i64 %q1z, 32\n  %q1 = or i64 %q1s, %q1l\n"
    /* q2: y = x * 3 under c2 from (d:c), then q1's pair of y under c1 from that */
    "  %y = mul i64 %x, 3\n  %y.r = lshr i64 %y, 32\n  %y.lo = trunc i64 %y to i32\n  %y.hi = trunc i64 %y.r to i32\n"
    "  %s2l = select i1 %c2, i32 %y.lo, i32 %c\n  %s2h = select i1 %c2, i32 %y.hi, i32 %d\n"
    "  %s3l = select i1 %c1, i32 %x.lo, i32 %s2l\n  %s3h = select i1 %c1, i32 %x.hi, i32 %s2h\n"
    "  %q2l = zext i32 %s3l to i64\n  %q2z = zext i32 %s3h to i64\n  %q2s = shl i64 %q2z, 32\n  %q2 = or i64 %q2l, %q2s\n"
    /* q3: two lane clones (x, y) under (c1, c2), the old pair in the true arm */
    "  %v0 = insertelement <2 x i64> undef, i64 %x, i32 0\n  %v = insertelement <2 x i64> %v0, i64 %y, i32 1\n"
    "  %w0 = insertelement <2 x i1> undef, i1 %c1, i32 0\n  %w = insertelement <2 x i1> %w0, i1 %c2, i32 1\n"
    "  %o0 = insertelement <2 x i32> undef, i32 %a, i32 0\n  %ol = insertelement <2 x i32> %o0, i32 %c, i32 1\n"
    "  %o1 = insertelement <2 x i32> undef, i32 %b, i32 0\n  %oh = insertelement <2 x i32> %o1, i32 %d, i32 1\n"
    "  %v.r = lshr <2 x i64> %v, <i64 32, i64 32>\n  %v.lo = trunc <2 x i64> %v to <2 x i32>\n"
    "  %v.hi = trunc <2 x i64> %v.r to <2 x i32>\n"
    "  %s4l = select <2 x i1> %w, <2 x i32> %ol, <2 x i32> %v.lo\n  %s4h = select <2 x i1> %w, <2 x i32> %oh, <2 x i32> %v.hi\n"
    "  %q3l = zext <2 x i32> %s4l to <2 x i64>\n  %q3z = zext <2 x i32> %s4h to <2 x i64>\n"
    "  %q3s = shl <2 x i64> %q3z, <i64 32, i64 32>\n  %q3 = or <2 x i64> %q3s, %q3l\n"
    "  %q3a = extractelement <2 x i64> %q3, i32 0\n  %q3b = extractelement <2 x i64> %q3, i32 1\n"
    /* q4: the low select also stored */
    "  %s5l = select i1 %c2, i32 %x.lo, i32 %b\n  %s5h = select i1 %c2, i32 %x.hi, i32 %a\n"
    "  %q4l = zext i32 %s5l to i64\n  %q4z = zext i32 %s5h to i64\n  %q4s = shl i64 %q4z, 32\n  %q4 = or i64 %q4s, %q4l\n"
    "  %q4x = zext i32 %s5l to i64\n"
    /* q5: the halves under two conditions */
    "  %s6l = select i1 %c1, i32 %x.lo, i32 %d\n  %s6h = select i1 %c2, i32 %x.hi, i32 %c\n"
    "  %q5l = zext i32 %s6l to i64\n  %q5z = zext i32 %s6h to i64\n  %q5s = shl i64 %q5z, 32\n  %q5 = or i64 %q5s, %q5l\n"
    "  store i64 %q1, ptr @out\n"
    "  %o2 = getelementptr i64, ptr @out, i32 1\n  store i64 %q2, ptr %o2\n"
    "  %o3 = getelementptr i64, ptr @out, i32 2\n  store i64 %q3a, ptr %o3\n"
    "  %o4 = getelementptr i64, ptr @out, i32 3\n  store i64 %q3b, ptr %o4\n"
    "  %o5 = getelementptr i64, ptr @out, i32 4\n  store i64 %q4, ptr %o5\n"
    "  %o6 = getelementptr i64, ptr @out, i32 5\n  store i64 %q4x, ptr %o6\n"
    "  %o7 = getelementptr i64, ptr @out, i32 6\n  store i64 %q5, ptr %o7\n"
    "  ret void\n"
    "}\n";

static void selects_sink(void **state)
{
    (void)state;
    wlt_jit_init();
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef ref = wlt_parse_ir(ctx, ir_sel, sizeof ir_sel - 1, "sel64"),
                  folded = wlt_parse_ir(ctx, ir_sel, sizeof ir_sel - 1, "sel64");
    unsigned sels = count_op(folded, LLVMSelect);
    int n = wlt_run_pass(wl_opt_fold_pair64, folded, 0);
    char *msg = NULL;
    if (LLVMVerifyModule(folded, LLVMReturnStatusAction, &msg))
        fail_msg("rewritten module does not verify: %s", msg ? msg : "?");
    LLVMDisposeMessage(msg);
    unsigned sels_after = count_op(folded, LLVMSelect);
    printf("selects: %u -> %u, %d rewrites\n", sels, sels_after, n);
    /* q1: 2 -> 1; q2: 4 -> 2; q3: 2 -> 1; q4 and q5 keep their 4 */
    assert_int_equal(sels_after, sels - 4);
    wlt_jit_pair jp;
    LLVMExecutionEngineRef ea, eb;
    jp.f[0] = wlt_jit_start(ref, "f", &ea, &jp.in[0], &jp.out[0]);
    jp.f[1] = wlt_jit_start(folded, "f", &eb, &jp.in[1], &jp.out[1]);
    unsigned bad = 0;
    for (unsigned r = 0; r < 4096; r++) {
        uint32_t v[8];
        for (int i = 0; i < 8; i++)
            v[i] = wlt_xorshift(&rng);
        v[4] = r & 3; /* every mask */
        if (!wlt_jit_same(&jp, v, sizeof v, 7 * sizeof(uint64_t)) && bad++ < 5)
            printf("MISMATCH mask %u\n", v[4]);
    }
    /* the reference: q1 under c1 is x */
    uint32_t v[8] = {1, 2, 3, 4, 1, 0x89abcdefu, 0x01234567u, 0};
    wlt_jit_same(&jp, v, sizeof v, 7 * sizeof(uint64_t));
    assert_true(((uint64_t *)jp.out[0])[0] == 0x0123456789abcdefull);
    assert_int_equal(bad, 0);
    LLVMDisposeExecutionEngine(ea);
    LLVMDisposeExecutionEngine(eb);
    LLVMContextDispose(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(pairs_match), cmocka_unit_test(selects_sink)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
