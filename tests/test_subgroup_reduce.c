/* llvm-passes/subgroup_reduce.c: shuffle chains read at one lane that are
 * a whole subgroup's integer reduction become one spv.subgroup.<op>; any
 * other chain stays. The chains are written here as the lanes model lowers
 * ACO's wave32 reductions (quad_perm [1,0,3,2] and [2,3,0,1] as
 * (p & 28) | (lut >> 2(p & 3)) & 3, row_half_mirror p ^ 7, row_mirror
 * p ^ 15, v_permlanex16 (p & 16) ^ 16, v_readlane 31), and varied; which
 * ones are reductions is worked out here by hand (each lane's x0 reaching
 * lane c once, or at least once for idempotent operations). The pass
 * reads a tree as the subgroup's, so k does not matter; a tree of two
 * values (lane clones mixed) is not one reduction. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>

#include "llvm-passes/pass.h"
#include "llvm-passes/passes.h"
#include "support.h"
#include "wlt_jit.h"

/* the indices of ACO's five steps, from p = %p */
static const char idx_aco[] =
    "  %q2 = shl i32 %p, 1\n  %q6 = and i32 %q2, 6\n  %l1 = lshr i32 177, %q6\n  %l1m = and i32 %l1, 3\n"
    "  %hi = and i32 %p, 28\n  %i1 = or disjoint i32 %hi, %l1m\n  %l2 = lshr i32 78, %q6\n  %l2m = and i32 %l2, 3\n"
    "  %i2 = or disjoint i32 %hi, %l2m\n  %p31 = and i32 %p, 31\n  %i3 = xor i32 %p31, 7\n  %i4 = xor i32 %p31, 15\n"
    "  %r16 = and i32 %p, 16\n  %i5 = xor i32 %r16, 16\n";

/* steps OP over x0 with indices i1..iN, result read at lane LANE */
static char *chain(const char *op, const char *type, const char *const *idx, int n, int lane, const char *x0)
{
    wlt_text t = {0};
    wlt_textf(&t, "define %s @f(%s %%in, i32 %%ld) {\n  %%p = call i32 @spv.subgroup_local_invocation_id()\n%s"
                  "  %%x0 = %s\n",
              type, type, idx_aco, x0);
    for (int k = 0; k < n; k++)
        wlt_textf(&t, "  %%s%d = call %s @spv.subgroup.shuffle.%s(%s %%x%d, i32 %s)\n  %%x%d = %s %s %%s%d, %%x%d\n", k,
                  type, type, type, k, idx[k], k + 1, op, type, k, k);
    wlt_textf(&t, "  %%r = call %s @spv.subgroup.shuffle.%s(%s %%x%d, i32 %d)\n  ret %s %%r\n}\n", type, type, type, n,
              lane, type);
    wlt_textf(&t, "declare i32 @spv.subgroup_local_invocation_id()\ndeclare %s @spv.subgroup.shuffle.%s(%s, i32)\n",
              type, type, type);
    return t.s;
}

/* the pass at S = 32, k = 1; returns the calls left: reductions, shuffles */
static void run(const char *ir, unsigned S, unsigned k, int *reduces, int *shuffles)
{
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = wlt_parse_ir(ctx, ir, strlen(ir), "sr");
    char err[512] = "";
    wl_pass_ctx P;
    wl_pass_ctx_init(&P, m, NULL, err, sizeof err);
    P.subgroup_size = S;
    P.li.lanes_per_invocation = k;
    assert_true(wl_opt_subgroup_reduce(&P, 0) >= 0);
    char *msg = NULL;
    if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg))
        fail_msg("after subgroup-reduce: %s", msg);
    LLVMDisposeMessage(msg);
    *reduces = *shuffles = 0;
    LLVMValueRef f = LLVMGetNamedFunction(m, "f");
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I)) {
            if (!LLVMIsACallInst(I))
                continue;
            size_t n;
            const char *name = LLVMGetValueName2(LLVMGetCalledValue(I), &n);
            *shuffles += n > 20 && !strncmp(name, "spv.subgroup.shuffle", 20);
            *reduces += !strncmp(name, "spv.subgroup.", 13) && strncmp(name, "spv.subgroup.shuffle", 20) &&
                        strncmp(name, "spv.subgroup_", 13);
        }
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
}

static void chains(void **state)
{
    (void)state;
    static const char *const aco[] = {"%i1", "%i2", "%i3", "%i4", "%i5"};
    static const char *const four[] = {"%i1", "%i2", "%i3", "%i4"};         /* lanes 16 apart never meet */
    static const char *const twice[] = {"%i1", "%i1", "%i2", "%i3", "%i4", "%i5"}; /* p^1 twice: 2 of each */
    static const char *const loaded[] = {"%i1", "%i2", "%i3", "%i4", "%ld"}; /* an index not of p */
    static const struct {
        const char *what, *op, *type;
        const char *const *idx;
        int n, lane;
        unsigned k;
        int reduced;
    } cases[] = {
        {"ACO's add, read at 31", "add", "i32", aco, 5, 31, 1, 1},
        {"ACO's add, read at 0", "add", "i32", aco, 5, 0, 1, 1},
        {"mul", "mul", "i32", aco, 5, 31, 1, 1},
        {"xor", "xor", "i32", aco, 5, 7, 1, 1},
        {"umax", "call i32 @llvm.umax.i32(", "i32", aco, 5, 31, 1, 1},
        {"four steps: half the subgroup", "add", "i32", four, 4, 31, 1, 0},
        {"p^1 twice, add: lanes counted twice", "add", "i32", twice, 6, 31, 1, 0},
        {"p^1 twice, or: still each lane", "or", "i32", twice, 6, 31, 1, 1},
        {"an index loaded", "add", "i32", loaded, 5, 31, 1, 0},
        {"k = 2 (the tree is the subgroup's, whatever k)", "add", "i32", aco, 5, 31, 2, 1},
        {"64-bit add", "add", "i64", aco, 5, 31, 1, 1},
    };
    int good = 0, n = (int)(sizeof cases / sizeof cases[0]);
    for (int i = 0; i < n; i++) {
        /* llvm.umax is a call: "call i32 @llvm.umax.i32(i32 %sK, %xK)" */
        char *ir;
        if (cases[i].op[0] == 'c') {
            wlt_text t = {0};
            wlt_textf(&t, "define i32 @f(i32 %%in, i32 %%ld) {\n  %%p = call i32 @spv.subgroup_local_invocation_id()\n%s"
                          "  %%x0 = or i32 %%in, 0\n",
                      idx_aco);
            for (int k2 = 0; k2 < cases[i].n; k2++)
                wlt_textf(&t, "  %%s%d = call i32 @spv.subgroup.shuffle.i32(i32 %%x%d, i32 %s)\n"
                              "  %%x%d = call i32 @llvm.umax.i32(i32 %%s%d, i32 %%x%d)\n",
                          k2, k2, cases[i].idx[k2], k2 + 1, k2, k2);
            wlt_textf(&t, "  %%r = call i32 @spv.subgroup.shuffle.i32(i32 %%x%d, i32 %d)\n  ret i32 %%r\n}\n"
                          "declare i32 @spv.subgroup_local_invocation_id()\ndeclare i32 @spv.subgroup.shuffle.i32(i32, i32)\n"
                          "declare i32 @llvm.umax.i32(i32, i32)\n",
                      cases[i].n, cases[i].lane);
            ir = t.s;
        } else {
            ir = chain(cases[i].op, cases[i].type, cases[i].idx, cases[i].n, cases[i].lane,
                       !strcmp(cases[i].type, "i64") ? "or i64 %in, 0" : "or i32 %in, 0");
        }
        int red = 0, sh = 0;
        run(ir, 32, cases[i].k, &red, &sh);
        /* replaced: one reduction, no shuffle left; else no reduction, every shuffle kept */
        int ok = cases[i].reduced ? red == 1 && sh == 0 : red == 0 && sh == cases[i].n + 1;
        printf("%-44s %d reductions, %d shuffles%s\n", cases[i].what, red, sh, ok ? "" : "  WRONG");
        good += ok;
        free(ir);
    }
    assert_int_equal(good, n);
    /* two values reduced in one tree (lane clones mixed: k lanes an
     * invocation, a row spread over two of them): not one reduction */
    static const char two[] =
        "define i32 @f(i32 %in, i32 %in2) {\n  %p = call i32 @spv.subgroup_local_invocation_id()\n"
        "  %a = or i32 %in, 0\n  %b = or i32 %in2, 0\n  %i = xor i32 %p, 1\n"
        "  %s = call i32 @spv.subgroup.shuffle.i32(i32 %b, i32 %i)\n  %x = add i32 %s, %a\n"
        "  %r = call i32 @spv.subgroup.shuffle.i32(i32 %x, i32 0)\n  ret i32 %r\n}\n"
        "declare i32 @spv.subgroup_local_invocation_id()\ndeclare i32 @spv.subgroup.shuffle.i32(i32, i32)\n";
    int red = 0, sh = 0;
    run(two, 4, 1, &red, &sh);
    printf("%-44s %d reductions, %d shuffles\n", "two values in one tree", red, sh);
    assert_int_equal(red, 0);
    assert_int_equal(sh, 2);
}

/* Scans as ACO builds them for wave32 (row_shr 1, 2, 4, 8 within rows of
 * 16 under a lane condition, then lane 15 added to the upper row): at
 * every lane p the lanes 0..p (inclusive); shifted by one first, 0..p-1
 * (exclusive). The steps' values are used at every lane. */
static char *scan(const char *op, int exclusive, int skip, int select_outside)
{
    wlt_text t = {0};
    wlt_textf(&t, "define i32 @f(i32 %%in) {\n  %%p = call i32 @spv.subgroup_local_invocation_id()\n"
                  "  %%x = or i32 %%in, 0\n  %%q = and i32 %%p, 15\n");
    if (exclusive)
        wlt_textf(&t, "  %%sh0i = add i32 %%p, 31\n  %%sh0m = and i32 %%sh0i, 31\n"
                      "  %%sh0 = call i32 @spv.subgroup.shuffle.i32(i32 %%x, i32 %%sh0m)\n  %%z0 = icmp eq i32 %%p, 0\n"
                      "  %%x0 = select i1 %%z0, i32 %s, i32 %%sh0\n",
                  !strcmp(op, "add") ? "0" : "-1");
    else
        wlt_textf(&t, "  %%x0 = or i32 %%x, 0\n");
    static const int dist[4] = {1, 2, 4, 8};
    int k = 0;
    for (int j = 0; j < 4; j++) {
        if (j == skip)
            continue;
        wlt_textf(&t, "  %%i%d = add i32 %%p, %d\n  %%m%d = and i32 %%i%d, 31\n  %%c%d = icmp uge i32 %%q, %d\n"
                      "  %%s%d = call i32 @spv.subgroup.shuffle.i32(i32 %%x%d, i32 %%m%d)\n",
                  j, 32 - dist[j], j, j, j, dist[j], j, k, j);
        if (select_outside)
            wlt_textf(&t, "  %%o%d = call i32 @llvm.%s.i32(i32 %%s%d, i32 %%x%d)\n  %%x%d = select i1 %%c%d, i32 %%o%d, i32 %%x%d\n",
                      j, op, j, k, k + 1, j, j, k);
        else
            wlt_textf(&t, "  %%v%d = select i1 %%c%d, i32 %%s%d, i32 0\n  %%x%d = %s i32 %%x%d, %%v%d\n", j, j, j, k + 1, op, k,
                      j);
        k++;
    }
    /* the upper row gets lane 15 */
    wlt_textf(&t, "  %%r16 = and i32 %%p, 16\n  %%l15 = xor i32 %%r16, 31\n  %%up = icmp uge i32 %%p, 16\n"
                  "  %%st = call i32 @spv.subgroup.shuffle.i32(i32 %%x%d, i32 %%l15)\n",
              k);
    if (select_outside)
        wlt_textf(&t, "  %%ot = call i32 @llvm.%s.i32(i32 %%x%d, i32 %%st)\n  %%y = select i1 %%up, i32 %%ot, i32 %%x%d\n", op, k, k);
    else
        wlt_textf(&t, "  %%vt = select i1 %%up, i32 %%st, i32 0\n  %%y = %s i32 %%x%d, %%vt\n", op, k);
    wlt_textf(&t, "  %%use = mul i32 %%y, 3\n  ret i32 %%use\n}\n"
                  "declare i32 @spv.subgroup_local_invocation_id()\ndeclare i32 @spv.subgroup.shuffle.i32(i32, i32)\n"
                  "declare i32 @llvm.umin.i32(i32, i32)\n");
    return t.s;
}

static void scans(void **state)
{
    (void)state;
    static const struct {
        const char *what, *op;
        int exclusive, skip, outside, replaced;
        unsigned k;
    } cases[] = {
        {"inclusive add", "add", 0, -1, 0, 1, 1},
        {"exclusive add (shifted by one first)", "add", 1, -1, 0, 1, 1},
        {"inclusive add without the 4-step", "add", 0, 2, 0, 0, 1},
        {"inclusive umin, the step under a select", "umin", 0, -1, 1, 1, 1},
        {"exclusive umin", "umin", 1, -1, 1, 1, 1},
        {"inclusive add at k = 2", "add", 0, -1, 0, 1, 2},
    };
    int good = 0, n = (int)(sizeof cases / sizeof cases[0]);
    for (int i = 0; i < n; i++) {
        char *ir = scan(cases[i].op, cases[i].exclusive, cases[i].skip, cases[i].outside);
        int red = 0, sh = 0;
        run(ir, 32, cases[i].k, &red, &sh);
        int steps = 4 - (cases[i].skip >= 0) + 1 + cases[i].exclusive;
        int ok = cases[i].replaced ? red == 1 && sh == 0 : red == 0 && sh == steps;
        printf("%-44s %d scans, %d shuffles%s\n", cases[i].what, red, sh, ok ? "" : "  WRONG");
        good += ok;
        free(ir);
    }
    assert_int_equal(good, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(chains), cmocka_unit_test(scans)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
