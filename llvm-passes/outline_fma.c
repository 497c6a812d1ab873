/* wl_opt_outline_fma (passes.h): every llvm.fma of a width whose Fma the
 * host does not fuse as a call of one function.
 *
 * Where the host's Fma is not known to be fused, the backend computes an
 * fma exactly (backend/fma.c): a double one on the integer bits, about
 * 1,800 SPIR-V words each, times the lane clones, so a double-precision
 * kernel of a few hundred fma grew to millions of words (past SPIR-V's id
 * bound at k >= 4); a float or half one through the wider format, 27
 * instructions (about 120 words) each, most of a libm-heavy kernel's words.
 * Called instead, the routine is emitted once (one SPIR-V function per type:
 * float, <2 x float>, double, <2 x double>, ...) and each use costs a call
 * (7 words). The
 * function is noinline, so no LLVM pass puts the body back; it runs after
 * the last LLVM pass of the table anyway. Exact as before: the same routine,
 * called. arg: the fewest uses of a type worth a function (below it the
 * routine stays inline). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes.h"
#include "wavelift/backend.h" /* WL_FMA_F32, WL_FMA_F64, WL_FMA_F32_NORMAL */

/* the function standing for `intr` (llvm.fma.<T>) */
static LLVMValueRef routine_of(LLVMModuleRef m, LLVMValueRef intr)
{
    LLVMTypeRef fty = LLVMGlobalGetValueType(intr);
    size_t len;
    const char *iname = LLVMGetValueName2(intr, &len);
    char name[96];
    snprintf(name, sizeof name, "wl_fma_exact%.*s", (int)(len > 8 ? len - 8 : 0), iname + 8); /* .f32, .v2f64 */
    LLVMValueRef f = LLVMGetNamedFunction(m, name);
    if (f)
        return f;
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    f = LLVMAddFunction(m, name, fty);
    LLVMSetLinkage(f, LLVMInternalLinkage);
    wl_opt_add_attr(ctx, f, "noinline", 0);
    wl_opt_add_attr(ctx, f, "nounwind", 0);
    wl_opt_add_attr(ctx, f, "willreturn", 0);
    wl_opt_add_attr(ctx, f, "nosync", 0);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, f, "entry"));
    LLVMValueRef args[3] = {LLVMGetParam(f, 0), LLVMGetParam(f, 1), LLVMGetParam(f, 2)};
    LLVMValueRef r = LLVMBuildCall2(b, fty, intr, args, 3, "fma");
    LLVMBuildRet(b, r);
    LLVMDisposeBuilder(b);
    return f;
}

/* The fused_fma flag under which an fma of type t (or of vectors of it) is
 * the device's Fma: WL_FMA_F64, WL_FMA_F32, none for halves (the backend
 * always computes a half fma exactly, backend/intrin.c) */
static unsigned width_flag(LLVMTypeRef t)
{
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
        t = LLVMGetElementType(t);
    LLVMTypeKind k = LLVMGetTypeKind(t);
    return k == LLVMDoubleTypeKind ? WL_FMA_F64 : k == LLVMFloatTypeKind ? WL_FMA_F32 : 0;
}

static int outline_fma(LLVMModuleRef m, unsigned min_uses, unsigned fused)
{
    int changed = 0;
    for (LLVMValueRef intr = LLVMGetFirstFunction(m); intr; intr = LLVMGetNextFunction(intr)) {
        size_t len;
        const char *n = LLVMGetValueName2(intr, &len);
        if (len < 9 || strncmp(n, "llvm.fma.", 9) != 0)
            continue;
        if (fused & width_flag(LLVMGetReturnType(LLVMGlobalGetValueType(intr))))
            continue; /* the device's Fma: one instruction, nothing to share */
        unsigned uses = 0;
        for (LLVMUseRef u = LLVMGetFirstUse(intr); u; u = LLVMGetNextUse(u))
            uses++;
        if (uses < (min_uses ? min_uses : 1))
            continue;
        LLVMValueRef f = routine_of(m, intr);
        LLVMTypeRef fty = LLVMGlobalGetValueType(intr);
        LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
        for (LLVMUseRef u = LLVMGetFirstUse(intr), next; u; u = next) {
            next = LLVMGetNextUse(u);
            LLVMValueRef call = LLVMGetUser(u);
            if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != intr ||
                LLVMGetInstructionParent(call) == LLVMGetEntryBasicBlock(f))
                continue;
            LLVMValueRef args[3] = {LLVMGetOperand(call, 0), LLVMGetOperand(call, 1), LLVMGetOperand(call, 2)};
            LLVMPositionBuilderBefore(b, call);
            LLVMValueRef nc = LLVMBuildCall2(b, fty, f, args, 3, "");
            LLVMReplaceAllUsesWith(call, nc);
            LLVMInstructionEraseFromParent(call);
            changed++;
        }
        LLVMDisposeBuilder(b);
    }
    return changed;
}

/* the pass (passes.h) */
int wl_opt_outline_fma(wl_pass_ctx *P, unsigned arg)
{
    return outline_fma(P->m, arg, (unsigned)P->fused_fma);
}

/* ---- fma-host-first --------------------------------------------------------
 * Where the host's float Fma is fused and exact for normal operands and
 * results but not below (WL_FMA_F32_NORMAL: NVIDIA's flushes subnormal
 * operands and results, detecting tininess before rounding), each float
 * llvm.fma becomes that Fma, checked:
 *
 *     h = @spv.fma.host(a, b, c)           ; GLSL.std.450 Fma
 *     if (h is not a finite normal nonzero || a, b or c is subnormal)
 *         h = llvm.fma(a, b, c)            ; the exact routine (outline-fma)
 *
 * Exact: with no subnormal operand, the host's fused result is the
 * correctly rounded one wherever that is a finite normal number (the probe
 * holds it to fused results on cancellation, the product's rounding error
 * and a product past the range, wl_rt_probe_fma); a result that is zero,
 * subnormal, infinite or NaN, or was flushed to zero, takes the routine.
 * An operand known to hold no denormal (a constant, a flush:
 * wl_fold_no_denormal) is not tested. Vectors (the lane vectorizer's
 * <2 x float>) take the routine as a whole where any element must.
 * Runs after the last LLVM pass (nothing may speculate the routine's call
 * out of its branch), before outline-fma. */

/* x's magnitude bits (the float's bits without the sign) */
static LLVMValueRef magnitude(LLVMBuilderRef b, LLVMTypeRef it, LLVMValueRef x)
{
    return LLVMBuildAnd(b, LLVMBuildBitCast(b, x, it, ""), wl_fold_splat(it, 0x7fffffffu), "");
}

/* an i1 (or <n x i1>): x is subnormal */
static LLVMValueRef is_subnormal(LLVMBuilderRef b, LLVMTypeRef it, LLVMValueRef x)
{
    LLVMValueRef m1 = LLVMBuildSub(b, magnitude(b, it, x), wl_fold_splat(it, 1), "");
    return LLVMBuildICmp(b, LLVMIntULT, m1, wl_fold_splat(it, 0x7fffffu), "");
}

/* the vector of i1 reduced to one (any set) */
static LLVMValueRef any_of(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef v)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    if (LLVMGetTypeKind(t) != LLVMVectorTypeKind)
        return v;
    char name[64];
    snprintf(name, sizeof name, "llvm.vector.reduce.or.v%ui1", LLVMGetVectorSize(t));
    LLVMTypeRef i1 = LLVMInt1TypeInContext(LLVMGetModuleContext(m));
    LLVMTypeRef fty = LLVMFunctionType(i1, &t, 1, 0);
    LLVMValueRef f = LLVMGetNamedFunction(m, name);
    if (!f)
        f = LLVMAddFunction(m, name, fty);
    return LLVMBuildCall2(b, fty, f, &v, 1, "any");
}

static LLVMValueRef host_fma_of(LLVMModuleRef m, LLVMValueRef intr)
{
    size_t len;
    const char *iname = LLVMGetValueName2(intr, &len);
    char name[96];
    snprintf(name, sizeof name, "spv.fma.host%.*s", (int)(len > 8 ? len - 8 : 0), iname + 8);
    LLVMValueRef f = LLVMGetNamedFunction(m, name);
    if (!f) {
        f = LLVMAddFunction(m, name, LLVMGlobalGetValueType(intr));
        wl_opt_add_attr(LLVMGetModuleContext(m), f, "nounwind", 0);
        wl_opt_add_attr(LLVMGetModuleContext(m), f, "willreturn", 0);
    }
    return f;
}

/* call (of llvm.fma.<float type>) as the checked host Fma */
static void host_first(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef call, LLVMValueRef intr)
{
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMTypeRef t = LLVMTypeOf(call), fty = LLVMGlobalGetValueType(intr);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    LLVMTypeRef it = LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMVectorType(i32, LLVMGetVectorSize(t)) : i32;
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(call);
    /* tail: the call and what follows it. LLVM's replacement of a block
     * moves both the branches to it and its successors' phis; the phis
     * must name tail (it ends as bb did), the branches bb again. */
    LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(ctx, LLVMGetBasicBlockParent(bb), "fma.exact");
    LLVMBasicBlockRef tail = LLVMAppendBasicBlockInContext(ctx, LLVMGetBasicBlockParent(bb), "fma.join");
    LLVMMoveBasicBlockAfter(tail, bb);
    LLVMMoveBasicBlockAfter(slow, bb);
    LLVMValueRef bv = LLVMBasicBlockAsValue(bb), tv = LLVMBasicBlockAsValue(tail);
    LLVMReplaceAllUsesWith(bv, tv);
    for (LLVMUseRef u = LLVMGetFirstUse(tv), next; u; u = next) {
        next = LLVMGetNextUse(u);
        LLVMValueRef user = LLVMGetUser(u);
        for (int k = 0, no = LLVMGetNumOperands(user); k < no; k++)
            if (LLVMGetOperand(user, (unsigned)k) == tv)
                LLVMSetOperand(user, (unsigned)k, bv);
    }
    /* a loop of one block (the wave model's lane loops): its own phis
     * still name bb for the back edge, which now leaves tail */
    for (LLVMValueRef p = LLVMGetFirstInstruction(bb), pn; p && LLVMIsAPHINode(p); p = pn) {
        pn = LLVMGetNextInstruction(p);
        unsigned n = LLVMCountIncoming(p), self = 0;
        for (unsigned k = 0; k < n; k++)
            self |= LLVMGetIncomingBlock(p, k) == bb;
        if (!self)
            continue;
        LLVMPositionBuilderBefore(b, p);
        LLVMValueRef np = LLVMBuildPhi(b, LLVMTypeOf(p), "");
        for (unsigned k = 0; k < n; k++) {
            LLVMValueRef v = LLVMGetIncomingValue(p, k);
            LLVMBasicBlockRef from = LLVMGetIncomingBlock(p, k);
            if (from == bb)
                from = tail;
            LLVMAddIncoming(np, &v, &from, 1);
        }
        LLVMReplaceAllUsesWith(p, np);
        LLVMInstructionEraseFromParent(p);
    }
    LLVMPositionBuilderAtEnd(b, tail);
    for (LLVMValueRef i = call; i;) {
        LLVMValueRef next = LLVMGetNextInstruction(i);
        LLVMInstructionRemoveFromParent(i);
        LLVMInsertIntoBuilder(b, i);
        i = next;
    }
    LLVMPositionBuilderAtEnd(b, bb);
    LLVMValueRef args[3] = {LLVMGetOperand(call, 0), LLVMGetOperand(call, 1), LLVMGetOperand(call, 2)};
    LLVMValueRef hf = host_fma_of(m, intr);
    LLVMValueRef h = LLVMBuildCall2(b, fty, hf, args, 3, "fma.host");
    LLVMValueRef mh = LLVMBuildSub(b, magnitude(b, it, h), wl_fold_splat(it, 0x00800000u), "");
    LLVMValueRef bad = LLVMBuildICmp(b, LLVMIntUGE, mh, wl_fold_splat(it, 0x7f000000u), ""); /* not finite normal */
    for (int k = 0; k < 3; k++)
        if (!wl_fold_no_denormal(args[k]))
            bad = LLVMBuildOr(b, bad, is_subnormal(b, it, args[k]), "");
    LLVMBuildCondBr(b, any_of(m, b, bad), slow, tail);
    LLVMPositionBuilderAtEnd(b, slow);
    LLVMValueRef e = LLVMBuildCall2(b, fty, intr, args, 3, "fma.exact");
    LLVMBuildBr(b, tail);
    LLVMPositionBuilderBefore(b, call);
    LLVMValueRef phi = LLVMBuildPhi(b, t, "fma");
    LLVMValueRef vals[2] = {h, e};
    LLVMBasicBlockRef from[2] = {bb, slow};
    LLVMAddIncoming(phi, vals, from, 2);
    LLVMReplaceAllUsesWith(call, phi);
    LLVMInstructionEraseFromParent(call);
}

static int fma_host_first(LLVMModuleRef m)
{
    int changed = 0;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    for (LLVMValueRef intr = LLVMGetFirstFunction(m); intr && changed >= 0; intr = LLVMGetNextFunction(intr)) {
        size_t len;
        const char *n = LLVMGetValueName2(intr, &len);
        if (len < 9 || strncmp(n, "llvm.fma.", 9) != 0 ||
            width_flag(LLVMGetReturnType(LLVMGlobalGetValueType(intr))) != WL_FMA_F32)
            continue;
        /* the calls first: each rewrite adds a call of intr (the routine's) */
        size_t nc = 0, k = 0;
        for (LLVMUseRef u = LLVMGetFirstUse(intr); u; u = LLVMGetNextUse(u))
            nc++;
        LLVMValueRef *calls = malloc((nc ? nc : 1) * sizeof *calls);
        if (!calls) {
            changed = -1;
            break;
        }
        for (LLVMUseRef u = LLVMGetFirstUse(intr); u; u = LLVMGetNextUse(u))
            if (LLVMIsACallInst(LLVMGetUser(u)) && LLVMGetCalledValue(LLVMGetUser(u)) == intr)
                calls[k++] = LLVMGetUser(u);
        for (size_t i = 0; i < k; i++)
            host_first(m, b, calls[i], intr);
        changed += (int)k;
        free(calls);
    }
    LLVMDisposeBuilder(b);
    return changed;
}

/* the pass (passes.h) */
int wl_opt_fma_host_first(wl_pass_ctx *P, unsigned arg)
{
    (void)arg;
    if (!(P->fused_fma & WL_FMA_F32_NORMAL) || (P->fused_fma & WL_FMA_F32))
        return 0;
    int n = fma_host_first(P->m);
    return n < 0 ? wl_pass_fail(P, WL_ERR_NOMEM, "fma-host-first: out of memory") : n;
}
