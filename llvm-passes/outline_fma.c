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
#include <stdio.h>
#include <string.h>

#include "passes.h"
#include "wavelift/backend.h" /* WL_FMA_F32, WL_FMA_F64 */

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
