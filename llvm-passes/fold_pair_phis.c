/* 64-bit values in register pairs through phis (fold.h: wl_opt_fold_pair_phis).
 *
 * After register promotion (promote_registers.c) a 64-bit value the guest keeps in
 * two 32-bit registers (EXEC saved by s_and_saveexec_b64 in wave64, a
 * pointer in a VGPR pair) that lives across blocks is two i32 phis, and
 * every 64-bit read of it rebuilds zext(lo) | zext(hi) << 32 in the block
 * that reads it, so InstCombine cannot see through the split. Here two i32
 * phis of one block are merged into one i64 phi P when, on every incoming
 * edge, their values are the halves of one i64:
 *   trunc X, trunc(X >> 32)        the halves of X (selects on constants
 *                                  looked through)
 *   two constants                  (hi << 32) | lo
 *   two undefs                     undef
 *   a 64-bit add's halves          wl_fold_add64_pair, built at the end of
 *                                  the predecessor
 *   a merged pair of phis          its i64 phi (the pair itself included:
 *                                  a loop that leaves the register alone)
 * The last makes it a fixed point: pairs are assumed mergeable and dropped
 * while one of their edges is not. The old phis become trunc P and
 * trunc(P >> 32) after the block's phis. Exact: P equals the pair on every
 * path. */
#include <stdlib.h>
#include <string.h>

#include "pass.h"
#include "passes.h"
#include "ir/wave_ir.h"

typedef struct pair {
    LLVMValueRef lo, hi, P;
    int valid;
} pair;

typedef struct pairs {
    pair *v;
    size_t n, cap;
    LLVMTypeRef i32, i64;
} pairs;

static LLVMValueRef strip(LLVMValueRef v)
{
    for (int i = 0; i < 8 && wl_fold_is_op(v, LLVMSelect); i++) {
        LLVMValueRef c = LLVMGetOperand(v, 0);
        if (!LLVMIsAConstantInt(c))
            break;
        v = LLVMGetOperand(v, LLVMConstIntGetZExtValue(c) ? 1 : 2);
    }
    return v;
}

/* X when v is trunc X to i32 (X an i64) */
static LLVMValueRef low_of(LLVMValueRef v)
{
    v = strip(v);
    if (!wl_fold_is_op(v, LLVMTrunc) || wl_fold_width(v) != 32 || wl_fold_width(LLVMGetOperand(v, 0)) != 64)
        return NULL;
    return LLVMGetOperand(v, 0);
}

/* X when v is trunc(X >> 32) to i32 */
static LLVMValueRef high_of(LLVMValueRef v)
{
    LLVMValueRef s = low_of(v);
    if (!wl_fold_is_op(s, LLVMLShr))
        return NULL;
    LLVMValueRef c = LLVMGetOperand(s, 1);
    if (!LLVMIsAConstantInt(c) || LLVMConstIntGetZExtValue(c) != 32)
        return NULL;
    return LLVMGetOperand(s, 0);
}

static LLVMValueRef incoming_for(LLVMValueRef phi, LLVMBasicBlockRef bb)
{
    unsigned n = LLVMCountIncoming(phi);
    for (unsigned i = 0; i < n; i++)
        if (LLVMGetIncomingBlock(phi, i) == bb)
            return LLVMGetIncomingValue(phi, i);
    return NULL;
}

static long pair_of(const pairs *S, LLVMValueRef phi, int as_lo)
{
    for (size_t i = 0; i < S->n; i++)
        if ((as_lo ? S->v[i].lo : S->v[i].hi) == phi)
            return (long)i;
    return -1;
}

enum { K_NONE, K_HALVES, K_CONST, K_UNDEF, K_ADD, K_PAIR };

/* How the edge's values (a, b) form one i64; *q the pair for K_PAIR */
static int edge_kind(const pairs *S, LLVMValueRef a, LLVMValueRef b, long *q)
{
    LLVMValueRef x = low_of(a);
    if (x && high_of(b) == x)
        return K_HALVES;
    if (LLVMIsAConstantInt(a) && LLVMIsAConstantInt(b))
        return K_CONST;
    if (LLVMIsUndef(a) && LLVMIsUndef(b))
        return K_UNDEF;
    if (LLVMIsAPHINode(a) && LLVMIsAPHINode(b)) {
        long i = pair_of(S, a, 1);
        if (i >= 0 && S->v[i].valid && S->v[i].hi == b) {
            *q = i;
            return K_PAIR;
        }
        return K_NONE;
    }
    if (wl_fold_add64_pair(NULL, a, b))
        return K_ADD;
    return K_NONE;
}

static int push(pairs *S, LLVMValueRef lo, LLVMValueRef hi)
{
    if (S->n == S->cap) {
        size_t nc = S->cap ? 2 * S->cap : 32;
        pair *nv = realloc(S->v, nc * sizeof *nv);
        if (!nv)
            return -1;
        S->v = nv;
        S->cap = nc;
    }
    S->v[S->n++] = (pair){lo, hi, NULL, 1};
    return 0;
}

/* candidate pairs of one block: lo's first edge where its value is a low
 * half (trunc X) names the pair: hi is the phi whose value on that edge is
 * X's high half, or the high half of a 64-bit add whose low half lo's is */
static int find_pairs(pairs *S, LLVMBasicBlockRef bb)
{
    for (LLVMValueRef lo = LLVMGetFirstInstruction(bb); lo && LLVMIsAPHINode(lo); lo = LLVMGetNextInstruction(lo)) {
        if (LLVMTypeOf(lo) != S->i32 || pair_of(S, lo, 1) >= 0 || pair_of(S, lo, 0) >= 0)
            continue;
        unsigned n = LLVMCountIncoming(lo);
        for (unsigned i = 0; i < n; i++) {
            LLVMValueRef a = LLVMGetIncomingValue(lo, i), x = low_of(a);
            if (!x)
                continue;
            LLVMBasicBlockRef from = LLVMGetIncomingBlock(lo, i);
            LLVMValueRef hi = NULL;
            for (LLVMValueRef h = LLVMGetFirstInstruction(bb); h && LLVMIsAPHINode(h); h = LLVMGetNextInstruction(h)) {
                if (h == lo || LLVMTypeOf(h) != S->i32 || pair_of(S, h, 1) >= 0 || pair_of(S, h, 0) >= 0)
                    continue;
                LLVMValueRef b = incoming_for(h, from);
                if (b && (high_of(b) == x || wl_fold_add64_pair(NULL, a, b))) {
                    hi = h;
                    break;
                }
            }
            if (hi) {
                if (push(S, lo, hi))
                    return -1;
                break;
            }
        }
    }
    return 0;
}

/* the i64 on lo's incoming edge i (built at the end of its block when needed) */
static LLVMValueRef edge_value(pairs *S, LLVMBuilderRef b, pair *p, unsigned i)
{
    LLVMBasicBlockRef from = LLVMGetIncomingBlock(p->lo, i);
    for (unsigned j = 0; j < i; j++) /* a block listed twice: one value */
        if (LLVMGetIncomingBlock(p->lo, j) == from)
            return LLVMGetIncomingValue(p->P, j);
    LLVMValueRef a = LLVMGetIncomingValue(p->lo, i), c = incoming_for(p->hi, from);
    long q = -1;
    switch (edge_kind(S, a, c, &q)) {
    case K_HALVES:
        return low_of(a);
    case K_CONST:
        return LLVMConstInt(S->i64, (LLVMConstIntGetZExtValue(c) << 32) | LLVMConstIntGetZExtValue(a), 0);
    case K_UNDEF:
        return LLVMGetUndef(S->i64);
    case K_PAIR:
        return S->v[q].P;
    case K_ADD:
        LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(from));
        return wl_fold_add64_pair(b, a, c);
    default:
        return NULL;
    }
}

static int fold_pair_phis(LLVMModuleRef m)
{
    LLVMValueRef fn = m ? LLVMGetNamedFunction(m, WL_WIR_FUNCTION) : NULL;
    if (!fn || LLVMIsDeclaration(fn))
        return 0;
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    pairs S = {NULL, 0, 0, LLVMInt32TypeInContext(ctx), LLVMInt64TypeInContext(ctx)};
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        if (find_pairs(&S, bb)) {
            free(S.v);
            return -1;
        }
    /* drop pairs with an edge that is not one i64, to a fixed point */
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t k = 0; k < S.n; k++) {
            pair *p = &S.v[k];
            unsigned n = LLVMCountIncoming(p->lo);
            for (unsigned i = 0; p->valid && i < n; i++) {
                LLVMBasicBlockRef from = LLVMGetIncomingBlock(p->lo, i);
                LLVMValueRef c = incoming_for(p->hi, from);
                long q = -1;
                if (!c || edge_kind(&S, LLVMGetIncomingValue(p->lo, i), c, &q) == K_NONE) {
                    p->valid = 0;
                    changed = 1;
                }
            }
        }
    }
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    int merged = 0;
    for (size_t k = 0; k < S.n; k++)
        if (S.v[k].valid) {
            LLVMPositionBuilderBefore(b, S.v[k].lo);
            S.v[k].P = LLVMBuildPhi(b, S.i64, "");
        }
    for (size_t k = 0; k < S.n; k++) {
        pair *p = &S.v[k];
        if (!p->valid)
            continue;
        unsigned n = LLVMCountIncoming(p->lo);
        for (unsigned i = 0; i < n; i++) {
            LLVMValueRef x = edge_value(&S, b, p, i);
            LLVMBasicBlockRef from = LLVMGetIncomingBlock(p->lo, i);
            LLVMAddIncoming(p->P, &x, &from, 1);
        }
    }
    for (size_t k = 0; k < S.n; k++) {
        pair *p = &S.v[k];
        if (!p->valid)
            continue;
        LLVMBasicBlockRef bb = LLVMGetInstructionParent(p->lo);
        LLVMValueRef at = LLVMGetFirstInstruction(bb);
        while (at && LLVMIsAPHINode(at))
            at = LLVMGetNextInstruction(at);
        LLVMPositionBuilderBefore(b, at);
        LLVMValueRef tl = LLVMBuildTrunc(b, p->P, S.i32, "");
        LLVMValueRef th = LLVMBuildTrunc(b, LLVMBuildLShr(b, p->P, LLVMConstInt(S.i64, 32, 0), ""), S.i32, "");
        LLVMReplaceAllUsesWith(p->lo, tl);
        LLVMReplaceAllUsesWith(p->hi, th);
        merged++;
    }
    for (size_t k = 0; k < S.n; k++)
        if (S.v[k].valid) {
            LLVMInstructionEraseFromParent(S.v[k].lo);
            LLVMInstructionEraseFromParent(S.v[k].hi);
        }
    LLVMDisposeBuilder(b);
    free(S.v);
    return merged;
}

/* the pass (passes.h) */
int wl_opt_fold_pair_phis(wl_pass_ctx *P, unsigned arg)
{
    (void)arg;
    int n = fold_pair_phis(P->m);
    return n < 0 ? wl_pass_fail(P, WL_ERR_NOMEM, "register pairs: out of memory") : n;
}
