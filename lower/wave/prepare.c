/* The wave model's preparation of the wave IR (docs/wave-model.md, step 1).
 *
 * Requires: @wl.wave as the lifter (and the loop budget) left it.
 * Leaves: the uniform registers (SGPRs, EXEC, VCC, SCC: every alloca no
 * varying value is stored to) in SSA form, uniform phis where blocks meet;
 * the VGPRs (and any alloca a varying value reaches) still allocas, which
 * wave/lane_arrays.c makes lane arrays. Then, as the lanes model does before its
 * lowering (fold.h): the launch EXEC a constant where every wave is full,
 * and a lane's bit of a mask rewritten into per-lane values, above all
 * "lane l's bit of ballot(c)" into c: a carry-in (v_addc after v_add_co)
 * or a v_cndmask on a compare then reads its own lane's condition and no
 * longer the whole mask, so the run it sits in goes on (wave/lane_loops.c). The
 * uniformity map of V->L is computed afresh at the end.
 *
 * The VGPRs stay in memory: promoted, a register a lane loop writes and
 * another reads would be a varying phi (one value a lane), which the model
 * has no place for; as an array over the lanes it is one. */
#include <stdlib.h>
#include <string.h>

#include "llvm-passes/passes.h"
#include "wave_internal.h"

/* the uniformity map, emptied (the values it names are about to change) */
static void forget_uniformity(wl_lower_ctx *L)
{
    free(L->keys);
    free(L->vals);
    free(L->clones);
    L->keys = NULL;
    L->vals = NULL;
    L->clones = NULL;
    L->cap = L->nkeys = 0;
    L->nvar = L->capvar = 0;
}

/* Sets (on = 1) or clears the volatile flag of every load and store of a
 * varying alloca: promote_registers.c leaves an alloca with a volatile access alone. */
static void mark_varying(wl_lower_ctx *L, int on)
{
    LLVMBasicBlockRef e = LLVMGetEntryBasicBlock(L->fn);
    for (LLVMValueRef A = LLVMGetFirstInstruction(e); A; A = LLVMGetNextInstruction(A)) {
        if (!LLVMIsAAllocaInst(A) || wl_lc_find(L, A) < 0)
            continue;
        for (LLVMUseRef u = LLVMGetFirstUse(A); u; u = LLVMGetNextUse(u)) {
            LLVMValueRef U = LLVMGetUser(u);
            if (LLVMIsALoadInst(U) || LLVMIsAStoreInst(U))
                LLVMSetVolatile(U, on);
        }
    }
}

/* a call whose only effect is its value (the wl.* queries) */
static int pure_call(LLVMValueRef I)
{
    static const char *const pure[] = {"wl.lane_id",      "wl.thread_id",   "wl.lane_active",  "wl.ballot",
                                       "wl.shuffle",      "wl.readfirstlane", "wl.user_sgpr", "wl.workgroup_id",
                                       "wl.wave_id",      "wl.launch_exec", "wl.scratch_wave_offset"};
    size_t len;
    const char *n = wl_lc_callee(I, &len);
    if (!n)
        return 0;
    for (size_t i = 0; i < sizeof pure / sizeof pure[0]; i++)
        if (wl_lc_prefix(n, len, pure[i]))
            return 1;
    return 0;
}

/* A per-lane memory access or escape whose `active` is the constant false
 * performs nothing and reads 0 (docs/wave-ir.md): it goes. The cleaning
 * makes such accesses of a buffer access's other path (a scratch V# is
 * known once its SGPRs are SSA: its global store is then never made), and
 * each would end a run. */
static void drop_inactive(wl_lower_ctx *L)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(L->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb), next; I; I = next) {
            next = LLVMGetNextInstruction(I);
            size_t len;
            const char *n = wl_lc_callee(I, &len);
            if (!n || !(wl_lc_prefix(n, len, "wl.load.") || wl_lc_prefix(n, len, "wl.store.") ||
                        wl_lc_prefix(n, len, "wl.atomic.") || wl_lc_prefix(n, len, "wl.escape")))
                continue;
            int na = LLVMGetNumArgOperands(I);
            LLVMValueRef act = na > 0 ? LLVMGetOperand(I, (unsigned)na - 1) : NULL;
            if (!act || !LLVMIsAConstantInt(act) || LLVMTypeOf(act) != L->i1 || LLVMConstIntGetZExtValue(act))
                continue;
            LLVMTypeRef t = LLVMTypeOf(I);
            if (LLVMGetTypeKind(t) != LLVMVoidTypeKind)
                LLVMReplaceAllUsesWith(I, LLVMConstNull(t));
            LLVMInstructionEraseFromParent(I);
        }
}

/* Deletes what the folds left unused (the shifts and ors of masks, their
 * loads), block by block from the end, until nothing more goes. */
static void sweep(wl_lower_ctx *L)
{
    int changed = 1;
    while (changed) {
        changed = 0;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(L->fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef I = LLVMGetLastInstruction(bb), prev; I; I = prev) {
                prev = LLVMGetPreviousInstruction(I);
                if (LLVMGetFirstUse(I) || LLVMIsATerminatorInst(I) || LLVMIsAStoreInst(I) ||
                    LLVMIsAAllocaInst(I))
                    continue;
                if (LLVMIsACallInst(I) ? !pure_call(I)
                                       : LLVMIsALoadInst(I) ? LLVMGetVolatile(I)
                                                            : LLVMIsAAtomicRMWInst(I) || LLVMIsAAtomicCmpXchgInst(I) ||
                                                                  LLVMIsAFenceInst(I))
                    continue;
                LLVMInstructionEraseFromParent(I);
                changed = 1;
            }
    }
}

/* Step 1a (the pipeline's wave-begin): uniformity, and the varying
 * allocas' accesses marked volatile. The VGPRs' accesses stay volatile
 * through the wave-IR passes too: forwarded from a store in one lane loop
 * to a use in another, a VGPR's value would need a lane array of its own
 * besides the VGPR's; promote_registers leaves such an alloca alone. */
wl_status wl_wv_prepare_begin(wl_wv *V)
{
    wl_lower_ctx *L = &V->L;
    wl_status st = wl_lc_uniformity(L);
    if (!st)
        mark_varying(L, 1);
    return st;
}

/* Step 1b (wave-settle), after the wave-IR passes: the marks cleared, the
 * writes of inactive lanes and the dead queries dropped. */
int wl_wv_prepare_settle(wl_wv *V)
{
    wl_lower_ctx *L = &V->L;
    mark_varying(L, 0);
    drop_inactive(L);
    sweep(L);
    return 1;
}

/* Step 1c (the start of wave-lower), after the dead-store pass at -O2
 * (stores to a VGPR that every path overwrites before reading it, the
 * lifter's zeroing at entry, each of which would be a store in a lane
 * loop): the uniformity map computed afresh. */
wl_status wl_wv_prepare_end(wl_wv *V)
{
    wl_lower_ctx *L = &V->L;
    forget_uniformity(L);
    return wl_lc_uniformity(L);
}
