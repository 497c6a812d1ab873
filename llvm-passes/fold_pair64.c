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
 * rewrite always saves words; the low zext may stay for its other readers. */
#include <stdio.h>
#include <string.h>

#include "pass.h"
#include "passes.h"
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
    int n = fold_pair64(P->m);
    return n < 0 ? wl_pass_fail(P, WL_ERR_NOMEM, "register pairs as vectors: out of memory") : n;
}
