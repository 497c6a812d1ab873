/* llvm-passes/fold_flushes.c: a denormal flush of a value already flushed.
 *
 * A wave-IR function, one lane's view, with the lifter's flush selects
 * (bits & EXP == 0 ? bits & SIGN : bits) on raw values, on flushed ones
 * and on values derived from both, is run by LLVM's MCJIT before and after
 * wl_opt_fold_flushes on the same inputs, among them denormals of both
 * widths, zeros of both signs, NaNs and random bits. The oracle is LLVM's
 * execution of the unfolded IR: the outputs must be equal. Which flushes go
 * is counted here by hand from the IR below, not taken from the pass:
 *   removed (8): f2 (flush of f1), g (InstCombine's form: the sign of the
 *     raw value), n (through bitcast, fneg, bitcast), t (the loop's
 *     accumulator: a phi of 0 and a flush), sh (a shuffle of f1), sk
 *     (a select of f1 and a constant normal), w2 (64-bit, flush of w1),
 *     mx (maxnum of two flushed floats);
 *   kept (7): f1, fb and w1 (raw loads), ad (an fadd's result: arithmetic
 *     makes denormals), accn (the fadd in the loop), sr (a select with a
 *     raw value), dc (a select with the constant 1, a denormal). */
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

#define OUT_WORDS 16

/* FL(x, name): the lifter's 32-bit flush of %x as %name */
#define FL(x, n)                                                                                                       \
    "  %" n ".e = and i32 %" x ", 2139095040\n  %" n ".z = icmp eq i32 %" n ".e, 0\n  %" n ".s = and i32 %" x       \
    ", -2147483648\n  %" n " = select i1 %" n ".z, i32 %" n ".s, i32 %" x "\n"
#define ST(v, k) "  %o" #k " = getelementptr i32, ptr @out, i32 " #k "\n  store i32 %" v ", ptr %o" #k "\n"

static const char ir[] =
    "@in = global [6 x i32] zeroinitializer\n"
    "@out = global [16 x i32] zeroinitializer\n"
    "declare float @llvm.maxnum.f32(float, float)\n"
    "define i32 @wl.shuffle.i32(i32 %v, i32 %l) {\n  ret i32 %v\n}\n"
    "define void @wl.wave() {\n"
    "entry:\n"
    "  %a = load i32, ptr @in\n"
    "  %pb = getelementptr i32, ptr @in, i32 1\n  %b = load i32, ptr %pb\n"
    "  %pc = getelementptr i32, ptr @in, i32 2\n  %c = load i32, ptr %pc\n"
    "  %pd = getelementptr i32, ptr @in, i32 3\n  %d = load i32, ptr %pd\n"
    "  %pw = getelementptr i32, ptr @in, i32 4\n  %w = load i64, ptr %pw\n"
    FL("a", "f1") FL("f1", "f2") ST("f2", 0)
    /* InstCombine's flush of a flush: the sign taken from the raw value */
    "  %g.e = and i32 %f1, 2139095040\n  %g.z = icmp eq i32 %g.e, 0\n  %g = select i1 %g.z, i32 %f1.s, i32 %f1\n"
    ST("g", 1)
    "  %nf = bitcast i32 %f1 to float\n  %nn = fneg float %nf\n  %ni = bitcast float %nn to i32\n" FL("ni", "n")
    ST("n", 2)
    FL("b", "fb") "  %bf = bitcast i32 %fb to float\n  %sum = fadd float %nf, %bf\n  %si = bitcast float %sum to i32\n"
    FL("si", "ad") ST("ad", 3)
    "  %sh0 = call i32 @wl.shuffle.i32(i32 %f1, i32 3)\n" FL("sh0", "sh") ST("sh", 4)
    "  %c1 = and i32 %c, 1\n  %p = icmp ne i32 %c1, 0\n"
    "  %sk0 = select i1 %p, i32 %f1, i32 1065353216\n" FL("sk0", "sk") ST("sk", 5)
    "  %sr0 = select i1 %p, i32 %f1, i32 %b\n" FL("sr0", "sr") ST("sr", 6)
    "  %dc0 = select i1 %p, i32 %f1, i32 1\n" FL("dc0", "dc") ST("dc", 7)
    "  %mx0 = call float @llvm.maxnum.f32(float %nf, float %bf)\n  %mxi = bitcast float %mx0 to i32\n" FL("mxi", "mx")
    ST("mx", 8)
    /* 64-bit: w1 = flush(w), w2 = flush(w1) */
    "  %w1.e = and i64 %w, 9218868437227405312\n  %w1.z = icmp eq i64 %w1.e, 0\n"
    "  %w1.s = and i64 %w, -9223372036854775808\n  %w1 = select i1 %w1.z, i64 %w1.s, i64 %w\n"
    "  %w2.e = and i64 %w1, 9218868437227405312\n  %w2.z = icmp eq i64 %w2.e, 0\n"
    "  %w2.s = and i64 %w1, -9223372036854775808\n  %w2 = select i1 %w2.z, i64 %w2.s, i64 %w1\n"
    "  %w2lo = trunc i64 %w2 to i32\n  %w2s = lshr i64 %w2, 32\n  %w2hi = trunc i64 %w2s to i32\n"
    ST("w2lo", 9) ST("w2hi", 10)
    /* a loop: acc = flush(acc + b), flushed again at the top of each trip */
    "  %trips = and i32 %d, 7\n  br label %loop\n"
    "loop:\n  %i = phi i32 [0, %entry], [%i1, %loop]\n  %acc = phi i32 [0, %entry], [%accn, %loop]\n"
    FL("acc", "t") "  %tf = bitcast i32 %t to float\n  %an = fadd float %tf, %bf\n  %ai = bitcast float %an to i32\n"
    FL("ai", "accn") "  %i1 = add i32 %i, 1\n  %more = icmp ult i32 %i1, %trips\n  br i1 %more, label %loop, label %done\n"
    "done:\n" ST("accn", 11) ST("t", 12)
    "  ret void\n"
    "}\n";

static LLVMModuleRef parse(LLVMContextRef ctx) { return wlt_parse_ir(ctx, ir, sizeof ir - 1, "fold_flushes"); }

static unsigned count_flush_selects(LLVMModuleRef m)
{
    unsigned n = 0;
    LLVMValueRef f = LLVMGetNamedFunction(m, "wl.wave");
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
            n += LLVMIsASelectInst(i) && LLVMIsAICmpInst(LLVMGetOperand(i, 0)) && LLVMGetFirstUse(i);
    return n;
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void) { return wlt_xorshift(&rng); }

/* bits worth trying: denormals, zeros, the least normal, NaNs, random */
static uint32_t pick32(unsigned k)
{
    static const uint32_t special[] = {0x00000001u, 0x807fffffu, 0x00000000u, 0x80000000u, 0x00800000u,
                                       0x80800000u, 0x7fc00000u, 0x7f800001u, 0x3f800000u, 0x00400000u, 0x00800001u, 0x80800002u};
    return k % 3 ? special[rnd() % (sizeof special / sizeof special[0])] : rnd();
}

static void flushes_match(void **state)
{
    (void)state;
    wlt_jit_init();
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef ref = parse(ctx), folded = parse(ctx);
    unsigned before = count_flush_selects(folded);
    int n = wlt_run_pass(wl_opt_fold_flushes, folded, 0);
    unsigned after = count_flush_selects(folded);
    char *msg = NULL;
    if (LLVMVerifyModule(folded, LLVMReturnStatusAction, &msg))
        fail_msg("folded module does not verify: %s", msg ? msg : "?");
    LLVMDisposeMessage(msg);
    printf("fold_flushes: %d removed (flush selects %u -> %u)\n", n, before, after);
    assert_int_equal(before, 15 + 3); /* the 15 flushes and the selects sk0, sr0, dc0 */
    assert_int_equal(n, 8);
    assert_int_equal(after, before - 8);
    wlt_jit_pair jp;
    LLVMExecutionEngineRef ea, eb;
    jp.f[0] = wlt_jit_start(ref, "wl.wave", &ea, &jp.in[0], &jp.out[0]);
    jp.f[1] = wlt_jit_start(folded, "wl.wave", &eb, &jp.in[1], &jp.out[1]);
    unsigned bad = 0, runs = 0;
    for (unsigned r = 0; r < 8192; r++) {
        uint32_t v[6] = {pick32(r), pick32(r + 1), rnd(), rnd(), 0, 0};
        uint64_t w = r & 1 ? (uint64_t)rnd() << 32 | rnd() : (r & 2 ? 1ull : 0x800fffffffffffffull);
        memcpy(&v[4], &w, 8);
        runs++;
        if (!wlt_jit_same(&jp, v, sizeof v, OUT_WORDS * 4) && bad++ < 5)
            printf("MISMATCH a=%08x b=%08x c=%08x d=%08x w=%016llx\n", v[0], v[1], v[2], v[3],
                   (unsigned long long)w);
    }
    printf("%u input sets, %u match\n", runs, runs - bad);
    assert_int_equal(bad, 0);
    LLVMDisposeExecutionEngine(ea);
    LLVMDisposeExecutionEngine(eb);
    LLVMContextDispose(ctx);
}

/* The NaN tests (fold_nan_tests): `fcmp uno`/`ord` of values that cannot
 * be NaN. Counted by hand: folded (7) u (an integer converted), s (u + 1),
 * mx (maxnum of a raw load and u), sh (a shuffle of mx's bits), eqa (the
 * min/max equal-operands select), acc (a loop's maxnum accumulator from
 * u), ord (fcmp ord of s and u); kept (3): m (s * s: s may be infinite),
 * l (a raw load), p2 (a phi of a raw load). */
static const char nan_ir[] =
    "@in = global [4 x i32] zeroinitializer\n"
    "@out = global [12 x i32] zeroinitializer\n"
    "declare float @llvm.maxnum.f32(float, float)\n"
    "define i32 @wl.shuffle.i32(i32 %v, i32 %l) {\n  ret i32 %v\n}\n"
    "define void @wl.wave() {\n"
    "entry:\n"
    "  %c = load i32, ptr @in\n"
    "  %pl = getelementptr i32, ptr @in, i32 1\n  %l = load float, ptr %pl\n"
    "  %pd = getelementptr i32, ptr @in, i32 2\n  %d = load i32, ptr %pd\n"
    "  %u = uitofp i32 %c to float\n"
    "  %s = fadd float %u, 1.000000e+00\n"
    "  %m = fmul float %s, %s\n"
    "  %mx = call float @llvm.maxnum.f32(float %l, float %u)\n"
    "  %mxi = bitcast float %mx to i32\n  %shi = call i32 @wl.shuffle.i32(i32 %mxi, i32 1)\n"
    "  %sh = bitcast i32 %shi to float\n"
    "  %eq = fcmp oeq float %l, %u\n  %li = bitcast float %l to i32\n  %ui = bitcast float %u to i32\n"
    "  %ab = and i32 %li, %ui\n  %abf = bitcast i32 %ab to float\n"
    "  %eqa = select i1 %eq, float %abf, float %mx\n"
    "  %trips = and i32 %d, 7\n  br label %loop\n"
    "loop:\n  %i = phi i32 [0, %entry], [%i1, %loop]\n"
    "  %acc = phi float [%u, %entry], [%accn, %loop]\n  %p2 = phi float [%l, %entry], [%u, %loop]\n"
    "  %accn = call float @llvm.maxnum.f32(float %acc, float %l)\n"
    "  %i1 = add i32 %i, 1\n  %more = icmp ult i32 %i1, %trips\n  br i1 %more, label %loop, label %done\n"
    "done:\n"
#define NT(x, k)                                                                                                       \
    "  %t" #k " = fcmp uno float %" x ", 0.000000e+00\n  %z" #k " = zext i1 %t" #k " to i32\n  %q" #k                 \
    " = getelementptr i32, ptr @out, i32 " #k "\n  store i32 %z" #k ", ptr %q" #k "\n"
    NT("u", 0) NT("s", 1) NT("m", 2) NT("l", 3) NT("mx", 4) NT("sh", 5) NT("eqa", 6) NT("acc", 7) NT("p2", 8)
    "  %o9 = fcmp ord float %s, %u\n  %z9 = zext i1 %o9 to i32\n"
    "  %q9 = getelementptr i32, ptr @out, i32 9\n  store i32 %z9, ptr %q9\n"
    "  ret void\n"
    "}\n";

static unsigned count_nan_tests(LLVMModuleRef m)
{
    unsigned n = 0;
    LLVMValueRef f = LLVMGetNamedFunction(m, "wl.wave");
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
            n += LLVMIsAFCmpInst(i) && (LLVMGetFCmpPredicate(i) == LLVMRealUNO || LLVMGetFCmpPredicate(i) == LLVMRealORD);
    return n;
}

static void nan_tests_match(void **state)
{
    (void)state;
    wlt_jit_init();
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef ref = wlt_parse_ir(ctx, nan_ir, sizeof nan_ir - 1, "nan_ref");
    LLVMModuleRef folded = wlt_parse_ir(ctx, nan_ir, sizeof nan_ir - 1, "nan_folded");
    unsigned before = count_nan_tests(folded);
    int n = wlt_run_pass(wl_opt_fold_flushes, folded, 0);
    unsigned after = count_nan_tests(folded);
    char *msg = NULL;
    if (LLVMVerifyModule(folded, LLVMReturnStatusAction, &msg))
        fail_msg("folded module does not verify: %s", msg ? msg : "?");
    LLVMDisposeMessage(msg);
    printf("NaN tests: %d folded (%u -> %u)\n", n, before, after);
    assert_int_equal(before, 10);
    assert_int_equal(n, 7);
    assert_int_equal(after, 3);
    wlt_jit_pair jp;
    LLVMExecutionEngineRef ea, eb;
    jp.f[0] = wlt_jit_start(ref, "wl.wave", &ea, &jp.in[0], &jp.out[0]);
    jp.f[1] = wlt_jit_start(folded, "wl.wave", &eb, &jp.in[1], &jp.out[1]);
    unsigned bad = 0, runs = 0, nans = 0;
    for (unsigned r = 0; r < 4096; r++) {
        uint32_t v[4] = {rnd(), pick32(r), rnd(), 0};
        if (r & 1)
            v[0] = 0xffffffffu; /* the largest u: s and m stay finite in float */
        runs++;
        if (!wlt_jit_same(&jp, v, sizeof v, 12 * 4) && bad++ < 5)
            printf("MISMATCH c=%08x l=%08x d=%08x\n", v[0], v[1], v[2]);
        nans += ((uint32_t *)jp.out[0])[3];
    }
    printf("%u input sets, %u match, %u with a NaN load\n", runs, runs - bad, nans);
    assert_int_equal(bad, 0);
    assert_true(nans > 100); /* NaNs were among the inputs */
    LLVMDisposeExecutionEngine(ea);
    LLVMDisposeExecutionEngine(eb);
    LLVMContextDispose(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(flushes_match), cmocka_unit_test(nan_tests_match)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
