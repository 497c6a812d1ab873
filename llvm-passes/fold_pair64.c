/* A register pair read as one i64, after the host passes (passes.h).
 *
 * The lowered IR reads a 64-bit value held in two 32-bit registers as
 *   or (shl (zext hi to i64), 32), (zext lo to i64)
 * which the backend writes as two OpUConvert, a shift and an or (18 SPIR-V
 * words). The same value is the pair as a <2 x i32> (lo, hi) bitcast to
 * i64: OpCompositeConstruct and OpBitcast (9 words). Both LLVM (no data
 * layout: little-endian) and SPIR-V (OpBitcast: a vector's lowest-numbered
 * component maps to the low bits) put element 0 in the low half. Only
 * where the shift and the high zext have no other reader, so that the
 * rewrite always saves words; the low zext may stay for its other readers.
 *
 * Before that, a pair written under a mask and read as one value (scalar or
 * the lane clones' vectors):
 *   join(select(c, lo(x), a), select(c, hi(x), b))  ->  select(c, x, join(a, b))
 * with lo(x) = trunc x, hi(x) = trunc (lshr x, 32), join(l, h) = or (shl
 * (zext h), 32), (zext l), both selects read by the join only (the arms may
 * be the other way round). join(a, b) is x' where a, b are lo(x'), hi(x'),
 * a constant where both are, and else the rule again: a register pair
 * written under masks in turn (a double result's halves kept per lane,
 * docs/lanes.md) becomes a chain of 64-bit selects, one where there were
 * two selects, two truncs, a shift and a join. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pass.h"
#include "passes.h"

static int one_use(LLVMValueRef v)
{
    LLVMUseRef u = LLVMGetFirstUse(v);
    return u && !LLVMGetNextUse(u);
}

/* v = zext i32 x to i64: x; else NULL */
static LLVMValueRef zext32(LLVMValueRef v, LLVMTypeRef i32)
{
    if (!wl_fold_is_op(v, LLVMZExt))
        return NULL;
    LLVMValueRef x = LLVMGetOperand(v, 0);
    return LLVMTypeOf(x) == i32 ? x : NULL;
}

/* v = shl (zext i32 x to i64), 32 with both single-use: x; else NULL */
static LLVMValueRef high_half(LLVMValueRef v, LLVMTypeRef i32)
{
    if (!wl_fold_is_op(v, LLVMShl) || !one_use(v))
        return NULL;
    LLVMValueRef s = LLVMGetOperand(v, 1);
    if (!LLVMIsAConstantInt(s) || LLVMConstIntGetZExtValue(s) != 32)
        return NULL;
    LLVMValueRef z = LLVMGetOperand(v, 0);
    return one_use(z) ? zext32(z, i32) : NULL;
}

static LLVMValueRef construct2(LLVMModuleRef m, LLVMBuilderRef b, LLVMTypeRef i32, LLVMValueRef lo, LLVMValueRef hi)
{
    static const char name[] = "spv.construct._2_x_i32_";
    LLVMTypeRef v2 = LLVMVectorType(i32, 2);
    LLVMTypeRef ps[2] = {i32, i32};
    LLVMTypeRef ft = LLVMFunctionType(v2, ps, 2, 0);
    LLVMValueRef f = LLVMGetNamedFunction(m, name);
    if (!f)
        f = LLVMAddFunction(m, name, ft);
    LLVMValueRef xs[2] = {lo, hi};
    return LLVMBuildCall2(b, ft, f, xs, 2, "pair");
}

/* c is the integer (or vector of integers) k in every element */
static int splat_is(LLVMValueRef c, uint64_t k)
{
    if (LLVMIsAConstantInt(c))
        return LLVMConstIntGetZExtValue(c) == k;
    if (!LLVMIsAConstantDataVector(c) && !LLVMIsAConstantVector(c))
        return 0;
    unsigned n = LLVMGetVectorSize(LLVMTypeOf(c));
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef e = LLVMGetAggregateElement(c, i);
        if (!e || !LLVMIsAConstantInt(e) || LLVMConstIntGetZExtValue(e) != k)
            return 0;
    }
    return 1;
}

static unsigned scalar_bits(LLVMTypeRef t)
{
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
        t = LLVMGetElementType(t);
    return LLVMGetTypeKind(t) == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(t) : 0;
}

/* v = or (shl (zext h), 32), (zext l) of 32-bit halves into 64 bits: 1 and
 * *l, *h; the zexts and the shift read by the join only when `only` */
static int is_join(LLVMValueRef v, LLVMValueRef *l, LLVMValueRef *h, int only)
{
    if (!wl_fold_is_op(v, LLVMOr) || scalar_bits(LLVMTypeOf(v)) != 64)
        return 0;
    for (int s = 0; s < 2; s++) {
        LLVMValueRef sh = LLVMGetOperand(v, (unsigned)s), zl = LLVMGetOperand(v, (unsigned)!s);
        if (!wl_fold_is_op(sh, LLVMShl) || !splat_is(LLVMGetOperand(sh, 1), 32) || !wl_fold_is_op(zl, LLVMZExt))
            continue;
        LLVMValueRef zh = LLVMGetOperand(sh, 0);
        if (!wl_fold_is_op(zh, LLVMZExt))
            continue;
        *l = LLVMGetOperand(zl, 0);
        *h = LLVMGetOperand(zh, 0);
        if (scalar_bits(LLVMTypeOf(*l)) != 32 || scalar_bits(LLVMTypeOf(*h)) != 32)
            continue;
        if (only && !(one_use(sh) && one_use(zh) && one_use(zl)))
            continue;
        return 1;
    }
    return 0;
}

/* v = trunc x (lo) or trunc (lshr x, 32) (hi) of a 64-bit x: x; else NULL */
static LLVMValueRef half_of(LLVMValueRef v, int hi)
{
    if (!wl_fold_is_op(v, LLVMTrunc))
        return NULL;
    LLVMValueRef x = LLVMGetOperand(v, 0);
    if (hi) {
        if (!wl_fold_is_op(x, LLVMLShr) || !splat_is(LLVMGetOperand(x, 1), 32))
            return NULL;
        x = LLVMGetOperand(x, 0);
    }
    return scalar_bits(LLVMTypeOf(x)) == 64 ? x : NULL;
}

/* join(l, h) before the builder's place: x where l, h are x's halves */
static LLVMValueRef make_join(LLVMBuilderRef b, LLVMTypeRef t64, LLVMValueRef l, LLVMValueRef h)
{
    LLVMValueRef x = half_of(l, 0);
    if (x && x == half_of(h, 1) && LLVMTypeOf(x) == t64)
        return x;
    LLVMValueRef zh = LLVMBuildZExt(b, h, t64, ""), zl = LLVMBuildZExt(b, l, t64, "");
    return LLVMBuildOr(b, LLVMBuildShl(b, zh, wl_fold_splat(t64, 32), ""), zl, "pair");
}

/* v and what only it read, where unread (not a join but v itself: the
 * pass holds the joins it will visit) */
static void erase_dead(LLVMValueRef v, int depth)
{
    if (!v || !LLVMIsAInstruction(v) || LLVMGetFirstUse(v) || depth > 4 || LLVMIsAPHINode(v) || LLVMIsACallInst(v) ||
        LLVMIsALoadInst(v) || LLVMIsAStoreInst(v) || LLVMIsATerminatorInst(v) ||
        (depth && wl_fold_is_op(v, LLVMOr)))
        return;
    unsigned n = (unsigned)LLVMGetNumOperands(v);
    LLVMValueRef ops[4] = {0};
    for (unsigned i = 0; i < n && i < 4; i++)
        ops[i] = LLVMGetOperand(v, i);
    LLVMInstructionEraseFromParent(v);
    for (unsigned i = 0; i < n && i < 4; i++)
        erase_dead(ops[i], depth + 1);
}

/* the select rule on join j; the new join it made (to try again), or NULL */
static LLVMValueRef sink_select(LLVMBuilderRef b, LLVMValueRef j, int *changed)
{
    LLVMValueRef L, H;
    if (!is_join(j, &L, &H, 1) || !LLVMIsASelectInst(L) || !LLVMIsASelectInst(H) || !one_use(L) || !one_use(H))
        return NULL;
    LLVMValueRef c = LLVMGetOperand(L, 0);
    if (LLVMGetOperand(H, 0) != c)
        return NULL;
    for (int arm = 1; arm <= 2; arm++) {
        LLVMValueRef x = half_of(LLVMGetOperand(L, (unsigned)arm), 0);
        if (!x || x != half_of(LLVMGetOperand(H, (unsigned)arm), 1) || LLVMTypeOf(x) != LLVMTypeOf(j))
            continue;
        LLVMValueRef a = LLVMGetOperand(L, (unsigned)(3 - arm)), bb = LLVMGetOperand(H, (unsigned)(3 - arm));
        LLVMPositionBuilderBefore(b, j);
        LLVMValueRef other = make_join(b, LLVMTypeOf(j), a, bb);
        LLVMValueRef r = arm == 1 ? LLVMBuildSelect(b, c, x, other, "") : LLVMBuildSelect(b, c, other, x, "");
        LLVMReplaceAllUsesWith(j, r);
        erase_dead(j, 0);
        *changed = 1;
        return other;
    }
    return NULL;
}

static int sink_selects(LLVMModuleRef m)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    if (!b)
        return -1;
    int n = 0;
    size_t cap = 0, nj = 0;
    LLVMValueRef *js = NULL;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
                LLVMValueRef l, h;
                if (!is_join(i, &l, &h, 1) || !LLVMIsASelectInst(l))
                    continue;
                if (nj == cap) {
                    LLVMValueRef *nv = realloc(js, (cap = cap ? 2 * cap : 256) * sizeof *nv);
                    if (!nv) {
                        free(js);
                        LLVMDisposeBuilder(b);
                        return -1;
                    }
                    js = nv;
                }
                js[nj++] = i;
            }
    for (size_t k = 0; k < nj; k++) {
        int changed = 0;
        for (LLVMValueRef j = js[k]; j;)
            j = sink_select(b, j, &changed);
        n += changed;
    }
    free(js);
    LLVMDisposeBuilder(b);
    return n;
}

static int fold_pair64(LLVMModuleRef m)
{
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx), i64 = LLVMInt64TypeInContext(ctx);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    if (!b)
        return -1;
    int n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
                next = LLVMGetNextInstruction(i);
                if (!wl_fold_is_op(i, LLVMOr) || LLVMTypeOf(i) != i64)
                    continue;
                LLVMValueRef lo = NULL, hi = NULL;
                for (int s = 0; s < 2 && !hi; s++) {
                    hi = high_half(LLVMGetOperand(i, s), i32);
                    lo = hi ? zext32(LLVMGetOperand(i, !s), i32) : NULL;
                    if (!lo)
                        hi = NULL;
                }
                if (!hi)
                    continue;
                LLVMPositionBuilderBefore(b, i);
                LLVMValueRef v = LLVMBuildBitCast(b, construct2(m, b, i32, lo, hi), i64, "");
                LLVMValueRef shl = LLVMGetOperand(i, 0), low = LLVMGetOperand(i, 1);
                if (!wl_fold_is_op(shl, LLVMShl)) {
                    LLVMValueRef t = shl;
                    shl = low, low = t;
                }
                LLVMReplaceAllUsesWith(i, v);
                LLVMInstructionEraseFromParent(i);
                LLVMValueRef zh = LLVMGetOperand(shl, 0);
                LLVMInstructionEraseFromParent(shl);
                LLVMInstructionEraseFromParent(zh);
                if (!LLVMGetFirstUse(low))
                    LLVMInstructionEraseFromParent(low);
                n++;
            }
    LLVMDisposeBuilder(b);
    return n;
}

/* the pass (passes.h) */
int wl_opt_fold_pair64(wl_pass_ctx *P, unsigned arg)
{
    (void)arg;
    int k = sink_selects(P->m);
    int n = k < 0 ? k : fold_pair64(P->m);
    if (n >= 0)
        n += k;
    return n < 0 ? wl_pass_fail(P, WL_ERR_NOMEM, "register pairs as vectors: out of memory") : n;
}
