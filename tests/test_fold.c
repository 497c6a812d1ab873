/* The wave-IR folds of the -O2 pipeline (llvm-passes/fold_add64.c,
 * llvm-passes/fold_pair_phis.c, docs/lanes.md "Optimization"), executed: a function
 * written as the lifter writes a 64-bit add from 32-bit halves (carry-out
 * compare, carry-in add, `select i1 true` writes) and register pairs
 * through phis (halves of one i64, a 64-bit add's halves, constants, a loop
 * that keeps the pair, a base plus a 64-bit shifted index, which becomes one
 * 64-bit add) is run by LLVM's MCJIT before and after the folds on
 * the same inputs (random and carry edges). The oracle is LLVM's own
 * execution of the unfolded IR; the folds must have rewritten something
 * (counts printed) and change no output. */
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

static const char ir[] =
    "@in = global [8 x i32] zeroinitializer\n"
    "@out = global [6 x i64] zeroinitializer\n"
    "define void @wl.wave() {\n"
    "entry:\n"
    "  %a = load i32, ptr @in\n"
    "  %pb = getelementptr i32, ptr @in, i32 1\n  %b = load i32, ptr %pb\n"
    "  %pc = getelementptr i32, ptr @in, i32 2\n  %c = load i32, ptr %pc\n"
    "  %pd = getelementptr i32, ptr @in, i32 3\n  %d = load i32, ptr %pd\n"
    "  %ps = getelementptr i32, ptr @in, i32 4\n  %sel = load i32, ptr %ps\n"
    "  %pn = getelementptr i32, ptr @in, i32 5\n  %n = load i32, ptr %pn\n"
    /* v_add_co_u32 lo, a, b ; v_add_co_ci_u32 hi, c, d, carry */
    "  %a64 = zext i32 %a to i64\n  %b64 = zext i32 %b to i64\n"
    "  %L = add i64 %a64, %b64\n  %cy = icmp ugt i64 %L, 4294967295\n"
    "  %lo0 = trunc i64 %L to i32\n  %lo = select i1 true, i32 %lo0, i32 %a\n"
    "  %c64 = zext i32 %c to i64\n  %d64 = zext i32 %d to i64\n  %cd = add i64 %c64, %d64\n"
    "  %ci = zext i1 %cy to i64\n  %H = add i64 %cd, %ci\n  %hi = trunc i64 %H to i32\n"
    "  %zl = zext i32 %lo to i64\n  %zh = zext i32 %hi to i64\n  %sh = shl i64 %zh, 32\n"
    "  %R = or i64 %zl, %sh\n  store i64 %R, ptr @out\n"
    /* base c:a plus an index d shifted as 64 bits (v_lshlrev_b64 of d:0,
     * the halves of one i64), then base b:a plus d << 3 from 32-bit
     * halves (shl, lshr 29): both sums of register pairs that fold to one
     * 64-bit add (fold_add64.c pair64) */
    "  %q564 = zext i32 %d to i64\n  %qs5 = shl i64 %q564, 2\n  %ql5 = trunc i64 %qs5 to i32\n"
    "  %qsh5 = lshr i64 %qs5, 32\n  %qh5 = trunc i64 %qsh5 to i32\n"
    "  %ql564 = zext i32 %ql5 to i64\n  %L5 = add i64 %a64, %ql564\n  %cy5 = icmp ugt i64 %L5, 4294967295\n"
    "  %lo5 = trunc i64 %L5 to i32\n  %qh564 = zext i32 %qh5 to i64\n  %cd5 = add i64 %c64, %qh564\n"
    "  %ci5 = zext i1 %cy5 to i64\n  %H5 = add i64 %cd5, %ci5\n  %hi5 = trunc i64 %H5 to i32\n"
    "  %zl5 = zext i32 %lo5 to i64\n  %zh5 = zext i32 %hi5 to i64\n  %sh5 = shl i64 %zh5, 32\n"
    "  %R5 = or i64 %zl5, %sh5\n  %o4 = getelementptr i64, ptr @out, i32 4\n  store i64 %R5, ptr %o4\n"
    "  %yl = shl i32 %d, 3\n  %yh = lshr i32 %d, 29\n  %yl64 = zext i32 %yl to i64\n"
    "  %L6 = add i64 %b64, %yl64\n  %cy6 = icmp ugt i64 %L6, 4294967295\n  %lo6 = trunc i64 %L6 to i32\n"
    "  %yh64 = zext i32 %yh to i64\n  %cd6 = add i64 %yh64, %a64\n  %ci6 = zext i1 %cy6 to i64\n"
    "  %H6 = add i64 %cd6, %ci6\n  %hi6 = trunc i64 %H6 to i32\n"
    "  %zl6 = zext i32 %lo6 to i64\n  %zh6 = zext i32 %hi6 to i64\n  %sh6 = shl i64 %zh6, 32\n"
    "  %R6 = or i64 %zl6, %sh6\n  %o5 = getelementptr i64, ptr @out, i32 5\n  store i64 %R6, ptr %o5\n"
    "  %s1 = and i32 %sel, 1\n  %t = icmp ne i32 %s1, 0\n  br i1 %t, label %p1, label %p2\n"
    "p1:\n  %X = add i64 %R, 81985529216486895\n  %xl = trunc i64 %X to i32\n"
    "  %xs = lshr i64 %X, 32\n  %xh = trunc i64 %xs to i32\n  br label %j\n"
    "p2:\n  br label %j\n"
    "j:\n  %plo = phi i32 [%xl, %p1], [%lo, %p2]\n  %phi = phi i32 [%xh, %p1], [%hi, %p2]\n"
    "  %ql = zext i32 %plo to i64\n  %qh = zext i32 %phi to i64\n  %qs = shl i64 %qh, 32\n"
    "  %R2 = or i64 %ql, %qs\n  %o1 = getelementptr i64, ptr @out, i32 1\n  store i64 %R2, ptr %o1\n"
    "  br label %loop\n"
    /* a loop carrying a pair: a pointer advanced by a 64-bit add of halves,
     * and a pair the loop leaves alone */
    "loop:\n  %i = phi i32 [0, %j], [%i1, %loop]\n"
    "  %vl = phi i32 [%plo, %j], [%nl, %loop]\n  %vh = phi i32 [%phi, %j], [%nh, %loop]\n"
    "  %kl = phi i32 [7, %j], [%kl, %loop]\n  %kh = phi i32 [4294967295, %j], [%kh, %loop]\n"
    "  %vl64 = zext i32 %vl to i64\n  %st64 = zext i32 %b to i64\n  %S = add i64 %vl64, %st64\n"
    "  %scy = icmp ugt i64 %S, 4294967295\n  %nl = trunc i64 %S to i32\n"
    "  %vh64 = zext i32 %vh to i64\n  %sci = zext i1 %scy to i64\n  %SH = add i64 %vh64, %sci\n"
    "  %nh = trunc i64 %SH to i32\n"
    "  %i1 = add i32 %i, 1\n  %more = icmp ult i32 %i1, %n\n  br i1 %more, label %loop, label %done\n"
    "done:\n  %dl = zext i32 %nl to i64\n  %dh = zext i32 %nh to i64\n  %dhs = shl i64 %dh, 32\n"
    "  %R3 = or i64 %dl, %dhs\n  %o2 = getelementptr i64, ptr @out, i32 2\n  store i64 %R3, ptr %o2\n"
    "  %el = zext i32 %kl to i64\n  %eh = zext i32 %kh to i64\n  %ehs = shl i64 %eh, 32\n"
    "  %R4 = or i64 %el, %ehs\n  %o3 = getelementptr i64, ptr @out, i32 3\n  store i64 %R4, ptr %o3\n"
    "  ret void\n}\n"
    "!wl.program = !{!0}\n!0 = !{i32 64, i32 0, i32 0, i32 6}\n";

typedef struct jit {
    LLVMExecutionEngineRef ee;
    uint32_t *in;
    uint64_t *out;
    void (*fn)(void);
} jit;

static LLVMModuleRef parse(LLVMContextRef ctx) { return wlt_parse_ir(ctx, ir, sizeof ir - 1, "fold"); }

static void start(jit *J, LLVMModuleRef m)
{
    void *in, *out;
    J->fn = wlt_jit_start(m, "wl.wave", &J->ee, &in, &out);
    J->in = in;
    J->out = out;
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void) { return wlt_xorshift(&rng); }

static void folds_match(void **state)
{
    (void)state;
    wlt_jit_init();
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef ref = parse(ctx), folded = parse(ctx);
    int pairs = wlt_run_pass(wl_opt_fold_pair_phis, folded, 0);
    unsigned adds = (unsigned)wlt_run_pass(wl_opt_fold_add64, folded, 0);
    char *msg = NULL;
    if (LLVMVerifyModule(folded, LLVMReturnStatusAction, &msg))
        fail_msg("folded module does not verify: %s", msg ? msg : "?");
    LLVMDisposeMessage(msg);
    /* the pairs: (plo, phi) at j and (vl, vh) in the loop (kl, kh has no
     * edge naming it a pair: left alone); the adds: R, R3, R5, R6 */
    printf("folds: %d register pairs merged, %u 64-bit adds\n", pairs, adds);
    assert_true(pairs >= 2);
    assert_true(adds >= 4);
    jit A, B;
    start(&A, ref);
    start(&B, folded);
    static const uint32_t edge[] = {0, 1, 0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu};
    unsigned runs = 0, bad = 0;
    for (unsigned r = 0; r < 4000; r++) {
        uint32_t v[6];
        for (int i = 0; i < 4; i++)
            v[i] = r < 1296 ? edge[(r / (i == 0 ? 1 : i == 1 ? 6 : i == 2 ? 36 : 216)) % 6] : rnd();
        v[4] = r & 1 ? rnd() | 1 : rnd() & ~1u;
        v[5] = rnd() % 5;
        memcpy(A.in, v, sizeof v);
        memcpy(B.in, v, sizeof v);
        A.fn();
        B.fn();
        runs++;
        if (memcmp(A.out, B.out, 6 * sizeof(uint64_t))) {
            if (bad++ < 5)
                printf("MISMATCH a=%08x b=%08x c=%08x d=%08x sel=%u n=%u: %016llx %016llx %016llx %016llx vs "
                       "%016llx %016llx %016llx %016llx\n",
                       v[0], v[1], v[2], v[3], v[4] & 1, v[5], (unsigned long long)A.out[0],
                       (unsigned long long)A.out[1], (unsigned long long)A.out[2], (unsigned long long)A.out[3],
                       (unsigned long long)B.out[0], (unsigned long long)B.out[1], (unsigned long long)B.out[2],
                       (unsigned long long)B.out[3]);
        }
    }
    printf("%u input sets, %u match\n", runs, runs - bad);
    assert_int_equal(bad, 0);
    LLVMDisposeExecutionEngine(A.ee); /* owns the modules */
    LLVMDisposeExecutionEngine(B.ee);
    LLVMContextDispose(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(folds_match)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
