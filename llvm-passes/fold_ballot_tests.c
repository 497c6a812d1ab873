/* wl_opt_fold_ballot_tests (passes.h): EXEC tests of ands of ballots as
 * one ballot, which the lanes model lowers as one subgroup any. */
#include <string.h>

#include "pass.h"
#include "passes.h"
#include "lower/context.h"
#include "ir/wave_ir.h"

static int is_ballot(LLVMValueRef v) { return wl_fold_is_call(v, "wl.ballot"); }

/* v: an and-tree of ballots, every node read once (by its parent), and
 * of constants whose low W bits are all ones (a ballot has no other bits:
 * wave32's masks are and'ed with 0xffffffff): the ballots' conditions
 * appended to cs, the first ballot in *first; 0 where v is not such a tree */
static int ballot_tree(LLVMValueRef v, LLVMValueRef *cs, unsigned *n, LLVMValueRef *first, unsigned depth,
                       unsigned W)
{
    if (LLVMIsAConstantInt(v) && depth) {
        uint64_t low = W >= 64 ? ~0ull : (1ull << W) - 1;
        return (LLVMConstIntGetZExtValue(v) & low) == low;
    }
    LLVMUseRef u = LLVMGetFirstUse(v);
    if (!u || LLVMGetNextUse(u) || depth > 4)
        return 0;
    if (is_ballot(v)) {
        if (*n == 8)
            return 0;
        if (!*n)
            *first = v;
        cs[(*n)++] = LLVMGetOperand(v, 0);
        return 1;
    }
    return wl_fold_is_op(v, LLVMAnd) && ballot_tree(LLVMGetOperand(v, 0), cs, n, first, depth + 1, W) &&
           ballot_tree(LLVMGetOperand(v, 1), cs, n, first, depth + 1, W);
}

static void erase_tree(LLVMValueRef v)
{
    if (!LLVMIsAInstruction(v) || LLVMGetFirstUse(v))
        return;
    LLVMValueRef a = wl_fold_is_op(v, LLVMAnd) ? LLVMGetOperand(v, 0) : NULL;
    LLVMValueRef b = a ? LLVMGetOperand(v, 1) : NULL;
    LLVMInstructionEraseFromParent(v);
    if (a) {
        erase_tree(a);
        if (b != a)
            erase_tree(b);
    }
}

static unsigned fold_ballot_tests(LLVMModuleRef m, unsigned W)
{
    unsigned n = 0;
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    if (!b)
        return 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
                if (!LLVMIsAICmpInst(i))
                    continue;
                int side = LLVMIsAConstantInt(LLVMGetOperand(i, 0)) != NULL; /* x's operand index */
                LLVMValueRef x = LLVMGetOperand(i, side), first = NULL;
                LLVMValueRef cs[8];
                unsigned nc = 0;
                if (!wl_fold_zero_test(i, x) || !wl_fold_is_op(x, LLVMAnd) || !ballot_tree(x, cs, &nc, &first, 0, W) ||
                    !nc)
                    continue;
                /* before the tree's root, which every leaf's condition dominates */
                LLVMPositionBuilderBefore(b, x);
                LLVMValueRef c = cs[0];
                for (unsigned k = 1; k < nc; k++)
                    c = LLVMBuildAnd(b, c, cs[k], "");
                LLVMValueRef callee = LLVMGetCalledValue(first);
                LLVMValueRef nb = LLVMBuildCall2(b, LLVMGlobalGetValueType(callee), callee, &c, 1, "ballot.all");
                LLVMSetOperand(i, (unsigned)side, nb);
                erase_tree(x);
                n++;
            }
    LLVMDisposeBuilder(b);
    return n;
}

/* the pass (passes.h): arg is W, 0: the module's !wl.program's */
int wl_opt_fold_ballot_tests(wl_pass_ctx *P, unsigned arg)
{
    wl_wir_info wi;
    if (!arg && wl_wir_program_info(P->m, &wi) != 0)
        return 0;
    return (int)fold_ballot_tests(P->m, arg ? arg : wi.wave_size);
}
