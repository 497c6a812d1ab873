/* llvm-passes/fold_masked_selects.c: writes under EXEC whose old value no lane reads.
 *
 * A wave-IR function, one lane's view, with the memory calls defined in the
 * module itself (a store logs its address and value where `active` holds:
 * what the hardware would write), is run by LLVM's MCJIT before and after
 * wl_opt_fold_masked_selects on the same inputs; every predicate combination
 * and random values. The oracle is LLVM's execution of the unfolded IR:
 * the logs must be equal. Which selects go is the rule's, counted here by
 * hand from the IR below (each case says), not taken from the pass:
 *   bypassed: lo, cyx, hi (a 64-bit address from halves written under p1,
 *             only read by stores under p1 or narrower), vB (written under p1 & p2, stored under a
 *             commuted copy), x and y (x is y's old value, y stored under
 *             p1), vH (stored under p2; its other use a phi nobody reads);
 *   kept:     vC (written under p1 & p2, stored under p1 alone), vE (read
 *             by a lane-crossing call), vF (stored under true), vG (a phi
 *             that is read). */
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

#define LOG_SLOTS 24 /* @out: 22 log words, then the count */

static const char ir[] =
    "@in = global [4 x i32] zeroinitializer\n"
    "@out = global [24 x i64] zeroinitializer\n"
    "define void @wl.store.global.b32(i64 %a, i32 %v, i1 %act) {\n"
    "entry:\n  br i1 %act, label %w, label %r\n"
    "w:\n  %np = getelementptr i64, ptr @out, i32 23\n  %n = load i64, ptr %np\n"
    "  %p = getelementptr i64, ptr @out, i64 %n\n  store i64 %a, ptr %p\n"
    "  %n1 = add i64 %n, 1\n  %p1 = getelementptr i64, ptr @out, i64 %n1\n"
    "  %v64 = zext i32 %v to i64\n  store i64 %v64, ptr %p1\n"
    "  %n2 = add i64 %n, 2\n  store i64 %n2, ptr %np\n  br label %r\n"
    "r:\n  ret void\n}\n"
    "define i32 @wl.shuffle.i32(i32 %v, i32 %l) {\n  %r = xor i32 %v, %l\n  ret i32 %r\n}\n"
    "define void @wl.wave() {\n"
    "entry:\n"
    "  %a = load i32, ptr @in\n"
    "  %pb = getelementptr i32, ptr @in, i32 1\n  %b = load i32, ptr %pb\n"
    "  %pc = getelementptr i32, ptr @in, i32 2\n  %c = load i32, ptr %pc\n"
    "  %pd = getelementptr i32, ptr @in, i32 3\n  %d = load i32, ptr %pd\n"
    "  %c1 = and i32 %c, 1\n  %p1 = icmp ne i32 %c1, 0\n"
    "  %c2 = and i32 %c, 2\n  %p2 = icmp ne i32 %c2, 0\n"
    /* v_add_co_u32 lo, a, b; v_add_co_ci_u32 hi, c, 0, vcc under p1 */
    "  %a64 = zext i32 %a to i64\n  %b64 = zext i32 %b to i64\n"
    "  %L = add i64 %a64, %b64\n  %cy = icmp ugt i64 %L, 4294967295\n"
    "  %lo0 = trunc i64 %L to i32\n  %lo = select i1 %p1, i32 %lo0, i32 %a\n"
    "  %cyx = and i1 %cy, %p1\n  %ci = zext i1 %cyx to i32\n"
    "  %hi0 = add i32 %c, %ci\n  %hi = select i1 %p1, i32 %hi0, i32 %b\n"
    "  %zl = zext i32 %lo to i64\n  %zh = zext i32 %hi to i64\n  %sh = shl i64 %zh, 32\n"
    "  %A = or i64 %zl, %sh\n"
    "  call void @wl.store.global.b32(i64 %A, i32 %a, i1 %p1)\n"
    /* B: under p1 & p2, stored under p2 & p1 */
    "  %q = and i1 %p1, %p2\n  %vB0 = mul i32 %a, 3\n  %vB = select i1 %q, i32 %vB0, i32 %c\n"
    "  %q2 = and i1 %p2, %p1\n  call void @wl.store.global.b32(i64 %A, i32 %vB, i1 %q2)\n"
    /* C: under p1 & p2, stored under p1: lanes with p1 and not p2 read the old value */
    "  %vC0 = add i32 %b, 7\n  %vC = select i1 %q, i32 %vC0, i32 %a\n"
    "  call void @wl.store.global.b32(i64 %A, i32 %vC, i1 %p1)\n"
    /* D: x overwritten under p1 before its store under p1 */
    "  %x = select i1 %p1, i32 %b, i32 %c\n  %y = select i1 %p1, i32 %a, i32 %x\n"
    "  call void @wl.store.global.b32(i64 %A, i32 %y, i1 %p1)\n"
    /* E: read by another lane */
    "  %vE0 = xor i32 %a, %b\n  %vE = select i1 %p2, i32 %vE0, i32 %c\n"
    "  %sE = call i32 @wl.shuffle.i32(i32 %vE, i32 5)\n"
    "  %B = zext i32 %d to i64\n"
    "  call void @wl.store.global.b32(i64 %B, i32 %sE, i1 %p2)\n"
    /* F: stored in every lane */
    "  %vF = select i1 %p2, i32 %b, i32 %a\n"
    "  call void @wl.store.global.b32(i64 %B, i32 %vF, i1 true)\n"
    /* G: through a phi that is read; H: a phi nobody reads */
    "  %vG = select i1 %p1, i32 %c, i32 %b\n"
    "  %vH = select i1 %p2, i32 %a, i32 %b\n"
    "  call void @wl.store.global.b32(i64 %B, i32 %vH, i1 %p2)\n"
    "  %d1 = and i32 %d, 1\n  %ub = icmp ne i32 %d1, 0\n  br i1 %ub, label %t, label %j\n"
    "t:\n  br label %j\n"
    "j:\n  %ph = phi i32 [%vG, %t], [%a, %entry]\n  %dead = phi i32 [%vH, %t], [0, %entry]\n"
    "  call void @wl.store.global.b32(i64 %B, i32 %ph, i1 true)\n"
    "  ret void\n"
    "}\n";

static LLVMModuleRef parse(LLVMContextRef ctx) { return wlt_parse_ir(ctx, ir, sizeof ir - 1, "fold_masked"); }

static unsigned count_selects(LLVMModuleRef m, const char *fn)
{
    unsigned n = 0;
    LLVMValueRef f = LLVMGetNamedFunction(m, fn);
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
            n += LLVMIsASelectInst(i) && LLVMGetFirstUse(i) != NULL;
    return n;
}

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint32_t rnd(void) { return wlt_xorshift(&rng); }

static void masked_selects_match(void **state)
{
    (void)state;
    wlt_jit_init();
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef ref = parse(ctx), folded = parse(ctx);
    unsigned before = count_selects(folded, "wl.wave");
    unsigned n = (unsigned)wlt_run_pass(wl_opt_fold_masked_selects, folded, 0);
    unsigned after = count_selects(folded, "wl.wave");
    char *msg = NULL;
    if (LLVMVerifyModule(folded, LLVMReturnStatusAction, &msg))
        fail_msg("folded module does not verify: %s", msg ? msg : "?");
    LLVMDisposeMessage(msg);
    /* lo, hi, vB, x, y, vH selects and the and i1 cyx (header comment) */
    printf("fold_masked: %u bypassed (selects read %u -> %u)\n", n, before, after);
    assert_int_equal(before, 10);
    assert_int_equal(n, 7);
    assert_int_equal(after, 4); /* vC, vE, vF, vG */
    wlt_jit_pair jp;
    LLVMExecutionEngineRef ea, eb;
    jp.f[0] = wlt_jit_start(ref, "wl.wave", &ea, &jp.in[0], &jp.out[0]);
    jp.f[1] = wlt_jit_start(folded, "wl.wave", &eb, &jp.in[1], &jp.out[1]);
    unsigned runs = 0, bad = 0, stores = 0;
    for (unsigned r = 0; r < 4096; r++) {
        uint32_t v[4] = {rnd(), rnd(), (rnd() & ~3u) | (r & 3), r & 4 ? 1 : 0};
        if (r & 8)
            v[1] = 0xffffffffu - v[0] + (r & 16 ? 1 : 0); /* a carry out of the low half, or just not */
        int same = wlt_jit_same(&jp, v, sizeof v, LOG_SLOTS * sizeof(uint64_t));
        runs++;
        stores += (unsigned)((uint64_t *)jp.out[0])[23] / 2;
        if (!same && bad++ < 5)
            printf("MISMATCH a=%08x b=%08x c=%08x d=%u\n", v[0], v[1], v[2], v[3]);
    }
    printf("%u input sets, %u match, %u stores logged\n", runs, runs - bad, stores);
    assert_int_equal(bad, 0);
    assert_true(stores > runs * 3); /* the stores under predicates did happen */
    LLVMDisposeExecutionEngine(ea); /* owns the modules */
    LLVMDisposeExecutionEngine(eb);
    LLVMContextDispose(ctx);
}

/* wl_opt_fold_ballot_tests: EXEC tests of ands of ballots. One lane's view
 * again, @wl.ballot defined as that lane's bit (a one-lane wave): the
 * rewrite's zero tests must give what the ands of ballots gave, and the
 * counts are the rule's, read off the IR: t1 (two ballots), t2 (three and
 * wave32's 0xffffffff) rewritten; t3 (a ballot also stored) and t4 (a
 * constant clearing bits a lane may have) kept. */
static const char ballot_ir[] =
    "@in = global [4 x i32] zeroinitializer\n"
    "@out = global [4 x i64] zeroinitializer\n"
    "define i64 @wl.ballot(i1 %c) {\n  %r = zext i1 %c to i64\n  ret i64 %r\n}\n"
    "define void @wl.wave() {\n"
    "entry:\n"
    "  %a = load i32, ptr @in\n"
    "  %a1 = and i32 %a, 1\n  %p = icmp ne i32 %a1, 0\n"
    "  %a2 = and i32 %a, 2\n  %q = icmp ne i32 %a2, 0\n"
    "  %a4 = and i32 %a, 4\n  %r = icmp ne i32 %a4, 0\n"
    "  %b1 = call i64 @wl.ballot(i1 %p)\n  %b2 = call i64 @wl.ballot(i1 %q)\n"
    "  %m1 = and i64 %b1, %b2\n  %t1 = icmp eq i64 %m1, 0\n"
    "  %b3 = call i64 @wl.ballot(i1 %p)\n  %b4 = call i64 @wl.ballot(i1 %q)\n  %b5 = call i64 @wl.ballot(i1 %r)\n"
    "  %m2 = and i64 %b3, %b4\n  %m3 = and i64 %m2, %b5\n  %m4 = and i64 %m3, 4294967295\n"
    "  %t2 = icmp ne i64 %m4, 0\n"
    "  %b6 = call i64 @wl.ballot(i1 %q)\n  %b7 = call i64 @wl.ballot(i1 %r)\n"
    "  %m5 = and i64 %b6, %b7\n  %t3 = icmp ne i64 %m5, 0\n"
    "  %o3 = getelementptr i64, ptr @out, i32 3\n  store i64 %b6, ptr %o3\n"
    "  %b8 = call i64 @wl.ballot(i1 %r)\n  %m6 = and i64 %b8, 2\n  %t4 = icmp eq i64 %m6, 0\n"
    "  %z1 = zext i1 %t1 to i64\n  %z2 = zext i1 %t2 to i64\n  %z3 = zext i1 %t3 to i64\n"
    "  %z4 = zext i1 %t4 to i64\n"
    "  %s2 = shl i64 %z2, 1\n  %s3 = shl i64 %z3, 2\n  %s4 = shl i64 %z4, 3\n"
    "  %o12 = or i64 %z1, %s2\n  %o34 = or i64 %s3, %s4\n  %all = or i64 %o12, %o34\n"
    "  store i64 %all, ptr @out\n  ret void\n}\n";

static unsigned count_calls(LLVMModuleRef m, const char *fn, const char *callee)
{
    unsigned n = 0;
    LLVMValueRef f = LLVMGetNamedFunction(m, fn);
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
            LLVMValueRef c = LLVMIsACallInst(i) ? LLVMGetCalledValue(i) : NULL;
            size_t len;
            const char *nm = c ? LLVMGetValueName2(c, &len) : NULL;
            n += nm && len == strlen(callee) && !memcmp(nm, callee, len);
        }
    return n;
}

static void ballot_tests_match(void **state)
{
    (void)state;
    wlt_jit_init();
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef mods[2];
    for (int i = 0; i < 2; i++)
        mods[i] = wlt_parse_ir(ctx, ballot_ir, sizeof ballot_ir - 1, "ballots");
    unsigned before = count_calls(mods[1], "wl.wave", "wl.ballot");
    unsigned n = (unsigned)wlt_run_pass(wl_opt_fold_ballot_tests, mods[1], 32);
    unsigned after = count_calls(mods[1], "wl.wave", "wl.ballot");
    char *msg = NULL;
    if (LLVMVerifyModule(mods[1], LLVMReturnStatusAction, &msg))
        fail_msg("folded module does not verify: %s", msg ? msg : "?");
    LLVMDisposeMessage(msg);
    printf("ballot tests: %u rewritten, ballots %u -> %u\n", n, before, after);
    assert_int_equal(n, 2);
    assert_int_equal(before, 8);
    assert_int_equal(after, 5); /* t1: 2 -> 1, t2: 3 -> 1, b6, b7, b8 kept */
    wlt_jit_pair jp;
    LLVMExecutionEngineRef ee[2];
    for (int i = 0; i < 2; i++)
        jp.f[i] = wlt_jit_start(mods[i], "wl.wave", &ee[i], &jp.in[i], &jp.out[i]);
    unsigned bad = 0;
    for (uint32_t a = 0; a < 8; a++)
        bad += !wlt_jit_same(&jp, &a, sizeof a, 4 * sizeof(uint64_t));
    printf("8 predicate combinations, %u differ\n", bad);
    assert_int_equal(bad, 0);
    LLVMDisposeExecutionEngine(ee[0]);
    LLVMDisposeExecutionEngine(ee[1]);
    LLVMContextDispose(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(masked_selects_match), cmocka_unit_test(ballot_tests_match)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
