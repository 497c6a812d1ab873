/* wl_opt_fold_prepare (passes.h): the wave IR's lane and launch queries
 * marked as reading no memory, and @wl.launch_exec() as its constant where
 * the workgroup is whole waves; with the helpers the other folds share. */
#include <string.h>

#include "pass.h"
#include "passes.h"
#include "lower/context.h"
#include "ir/wave_ir.h"

/* the lane and launch queries: no memory, no side effects */
static const char *const pure_names[] = {
    "wl.lane_id",      "wl.thread_id",    "wl.lane_active", "wl.ballot",   "wl.shuffle",
    "wl.readfirstlane", "wl.user_sgpr",   "wl.workgroup_id", "wl.wave_id", "wl.launch_exec",
    "wl.scratch_wave_offset",
};

void wl_opt_add_attr(LLVMContextRef ctx, LLVMValueRef f, const char *name, uint64_t val)
{
    unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
    if (kind)
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, kind, val));
}

int wl_fold_is_call(LLVMValueRef v, const char *name)
{
    size_t len;
    const char *n = wl_lc_callee(v, &len);
    return n && len == strlen(name) && !memcmp(n, name, len);
}

LLVMValueRef wl_opt_the_wave(LLVMModuleRef m)
{
    LLVMValueRef fn = LLVMGetNamedFunction(m, WL_WIR_FUNCTION);
    return fn && !LLVMIsDeclaration(fn) ? fn : NULL;
}

static void fold_prepare(LLVMModuleRef m, const wl_lower_options *opt)
{
    wl_wir_info wi;
    LLVMValueRef fn = m ? wl_opt_the_wave(m) : NULL;
    if (!fn || !opt || wl_wir_program_info(m, &wi) != 0)
        return;
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        size_t len;
        const char *n = LLVMGetValueName2(f, &len);
        if (!LLVMIsDeclaration(f))
            continue;
        for (size_t i = 0; i < sizeof pure_names / sizeof pure_names[0]; i++)
            if (wl_lc_prefix(n, len, pure_names[i])) {
                wl_opt_add_attr(ctx, f, "memory", 0); /* memory(none) */
                wl_opt_add_attr(ctx, f, "nounwind", 0);
                wl_opt_add_attr(ctx, f, "willreturn", 0);
                wl_opt_add_attr(ctx, f, "nosync", 0);
                break;
            }
    }
    /* launch EXEC: every wave full, or the only wave's lanes */
    uint64_t total = 1;
    for (int d = 0; d < 3; d++)
        total *= opt->local_size[d] ? opt->local_size[d] : 1;
    unsigned W = wi.wave_size;
    uint64_t full = W == 64 ? ~0ull : 0xffffffffull, exec;
    if (total % W == 0)
        exec = full;
    else if (total < W)
        exec = (1ull << total) - 1;
    else
        return;
    LLVMValueRef le = LLVMGetNamedFunction(m, "wl.launch_exec");
    if (!le)
        return;
    LLVMValueRef c = LLVMConstInt(LLVMInt64TypeInContext(ctx), exec, 0);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef I = LLVMGetFirstInstruction(bb);
        while (I) {
            LLVMValueRef next = LLVMGetNextInstruction(I);
            if (LLVMIsACallInst(I) && LLVMGetCalledValue(I) == le) {
                LLVMReplaceAllUsesWith(I, c);
                LLVMInstructionEraseFromParent(I);
            }
            I = next;
        }
    }
}

/* the pass (passes.h): always one change (the queries' attributes) */
int wl_opt_fold_prepare(wl_pass_ctx *P, unsigned arg)
{
    (void)arg;
    if (!wl_opt_the_wave(P->m))
        return 0;
    fold_prepare(P->m, P->lo);
    return 1;
}
