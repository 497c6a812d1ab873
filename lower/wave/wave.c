/* The wave model (D956; docs/wave-model.md): one host invocation runs one
 * guest wave of W lanes; a guest workgroup of N waves is a host workgroup
 * of N invocations (LocalSize N, 1, 1). No subgroup operation is used.
 *
 *  1. uniformity (lower/context.c) marks the varying values;
 *     the uniform registers become SSA values, the lane-bit and cleaning
 *     folds run (wave/prepare.c, wave/lane_bits.c), uniformity is computed again;
 *  2. runs of lane work become loops over the lanes (wave/lane_loops.c); scalar
 *     work runs once, between them;
 *  3. VGPRs become [W x i32] arrays, values crossing loops lane arrays of
 *     their own, cross-lane reads reads of those arrays (wave/lane_arrays.c);
 *  4. the remaining wl.* calls: launch state and memory through the lanes
 *     model's code (launch.c, memory.c) with k = 1, its lane the loop's
 *     lane, its subgroup id the invocation's index (the wave id); scalar
 *     stores are plain stores (the invocation is the wave: exact, D880);
 *     scratch is one private array of W lane segments;
 *  5. the helpers are inlined, @wl.wave becomes @main ("no-builtins", so
 *     that LLVM makes no memset of a lane loop). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lower/scalar_mem.h"
#include "lower/models.h"
#include "wave_internal.h"

/* ---- step 4: the remaining wl.* calls -------------------------------------- */

static unsigned access_bytes(const char *name, size_t len)
{
    if (len > 3 && !memcmp(name + len - 3, ".b8", 3))
        return 1;
    if (len > 4 && !memcmp(name + len - 4, ".b16", 4))
        return 2;
    if (len > 4 && !memcmp(name + len - 4, ".b64", 4))
        return 8;
    return 4;
}

/* A scratch access of lane `lane`: its own segment of the wave's array
 * (lane * lane_scratch bytes on); the range check is the lane's segment. */
static void scratch_operands(wl_wv *V, LLVMValueRef c, LLVMValueRef lane, unsigned size)
{
    wl_lower_ctx *L = &V->L;
    unsigned na = (unsigned)LLVMGetNumOperands(c) - 1;
    LLVMValueRef a = LLVMGetOperand(c, 0), act = LLVMGetOperand(c, na - 1);
    LLVMPositionBuilderBefore(L->b, c);
    LLVMValueRef inr = V->guest_scratch >= size
                           ? LLVMBuildICmp(L->b, LLVMIntULE, a, LLVMConstInt(L->i32, V->guest_scratch - size, 0), "")
                           : LLVMConstInt(L->i1, 0, 0);
    LLVMValueRef base = LLVMBuildMul(L->b, lane, LLVMConstInt(L->i32, V->lane_scratch, 0), "");
    LLVMSetOperand(c, 0, LLVMBuildAdd(L->b, a, base, "scratch"));
    LLVMSetOperand(c, na - 1, LLVMBuildAnd(L->b, act, inr, ""));
}

static wl_status lower_call(wl_wv *V, LLVMValueRef c, const char *name, size_t len)
{
    wl_lower_ctx *L = &V->L;
    long li = wl_wv_loop(V, LLVMGetInstructionParent(c));
    /* the lanes model's code reads the lane as L->p (k = 1, S = W) */
    L->p = li >= 0 ? V->lane[li] : LLVMConstInt(L->i32, 0, 0);
    /* scalar stores and atomics: the invocation is the wave, performed
     * once (D880), through the guest mapping (scalar_mem.c) */
    wl_status sst = wl_lc_lower_scalar_mem(L, c, name, len, 1);
    if (sst != WL_ERR_NOT_FOUND)
        return sst;
    int varying_fam = wl_lc_prefix(name, len, "wl.lane_id") || wl_lc_prefix(name, len, "wl.thread_id") ||
                      wl_lc_prefix(name, len, "wl.lane_active") || wl_lc_prefix(name, len, "wl.load.") ||
                      wl_lc_prefix(name, len, "wl.store.") || wl_lc_prefix(name, len, "wl.atomic.") ||
                      wl_lc_prefix(name, len, "wl.escape");
    if (varying_fam && li < 0)
        return wl_lc_fail(L, WL_ERR_INVALID, c, "wave model: internal: lane work outside the lane loops");
    if (wl_lc_prefix(name, len, "wl.ballot") || wl_lc_prefix(name, len, "wl.shuffle") ||
        wl_lc_prefix(name, len, "wl.readfirstlane")) {
        /* a uniform source (a varying one was lowered with the lane arrays):
         * the same in every lane */
        LLVMValueRef v = LLVMGetOperand(c, 0);
        if (wl_lc_find(L, v) >= 0 || wl_lc_prefix(name, len, "wl.ballot"))
            return wl_lc_fail(L, WL_ERR_INVALID, c, "wave model: internal: a cross-lane call left");
        return wl_lc_replace(L, c, 0, c, v);
    }
    if (strstr(name, ".scratch.") && !L->scratch_buffer)
        scratch_operands(V, c, L->p, access_bytes(name, len));
    wl_status st = wl_lc_lower_lane_call(L, c, name, len);
    if (st == WL_ERR_NOT_FOUND) {
        int lds = strstr(name, ".lds.") != NULL;
        st = wl_lc_lower_mem_call(L, c, name, len);
        if (!st && lds) {
            /* the lanes model orders a wave's LDS accesses by a subgroup
             * barrier after each; here the wave is one invocation, whose
             * own accesses are in order: drop it (it would also sit in a
             * loop, where a barrier must not be) */
            LLVMValueRef prev = LLVMGetPreviousInstruction(c);
            size_t bl;
            const char *bn = prev ? wl_lc_callee(prev, &bl) : NULL;
            if (bn && wl_lc_prefix(bn, bl, "spv.barrier.subgroup"))
                LLVMInstructionEraseFromParent(prev);
        }
    }
    if (st == WL_ERR_NOT_FOUND)
        st = wl_lc_fail(L, WL_ERR_UNSUPPORTED, NULL, "wave model: @%.*s is not a wave IR function", (int)len, name);
    return st;
}

static wl_status lower_calls(wl_wv *V)
{
    wl_lower_ctx *L = &V->L;
    size_t n = 0, cap = 256;
    LLVMValueRef *calls = malloc(cap * sizeof *calls);
    if (!calls)
        return wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(L->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I)) {
            size_t len;
            const char *nm = wl_lc_callee(I, &len);
            if (!nm || !wl_lc_prefix(nm, len, "wl.") || LLVMGetIntrinsicID(LLVMGetCalledValue(I)))
                continue;
            /* the device segment of lane arrays (wave/device_arrays.c):
             * wl_lc_finish computes it */
            if (len == 18 && memcmp(nm, "wl.scratch.segment", 18) == 0)
                continue;
            if (n == cap) {
                LLVMValueRef *nc = realloc(calls, 2 * cap * sizeof *nc);
                if (!nc) {
                    free(calls);
                    return wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
                }
                calls = nc;
                cap *= 2;
            }
            calls[n++] = I;
        }
    wl_status st = WL_OK;
    for (size_t i = 0; i < n && !st; i++) {
        size_t len;
        const char *nm = wl_lc_callee(calls[i], &len);
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(len < 127 ? len : 127), nm);
        st = lower_call(V, calls[i], name, strlen(name));
    }
    free(calls);
    for (size_t i = 0; i < L->ndead; i++) {
        wl_lc_forget(L, L->dead[i]);
        LLVMInstructionEraseFromParent(L->dead[i]);
    }
    L->ndead = 0;
    return st;
}

/* ---- the pass ----------------------------------------------------------------- */

/* Invocations past the group's waves return at once. None exists on a
 * conforming device, but lavapipe (Mesa 22.3) runs a group smaller than its
 * SIMD width in one batch whose idle lanes still count in a divergent loop's
 * exit: a guest loop whose exit depends on the wave (its EXEC, its data)
 * then left the next lane loops running one lane (found with waves of 64 in
 * groups of 2 and 4 waves; groups of 1 and of 8 ran right). Returning at
 * once takes them out of every later decision. The new entry holds the
 * allocas and the invocation's index. */
static wl_status phantom_guard(wl_wv *V)
{
    wl_lower_ctx *L = &V->L;
    LLVMBasicBlockRef old = LLVMGetEntryBasicBlock(L->fn);
    LLVMBasicBlockRef entry = LLVMInsertBasicBlockInContext(L->ctx, old, "wave.entry");
    LLVMBasicBlockRef gone = LLVMAppendBasicBlockInContext(L->ctx, L->fn, "wave.phantom");
    LLVMPositionBuilderAtEnd(L->b, entry);
    for (LLVMValueRef I = LLVMGetFirstInstruction(old), next; I; I = next) {
        next = LLVMGetNextInstruction(I);
        if (LLVMIsAAllocaInst(I) || I == L->sid) {
            LLVMInstructionRemoveFromParent(I);
            LLVMInsertIntoBuilder(L->b, I);
        }
    }
    LLVMValueRef past = LLVMBuildICmp(L->b, LLVMIntUGE, L->sid, LLVMConstInt(L->i32, L->waves, 0), "phantom");
    LLVMBuildCondBr(L->b, past, gone, old);
    LLVMPositionBuilderAtEnd(L->b, gone);
    LLVMBuildRetVoid(L->b);
    return WL_OK;
}

/* steps 1c to 5 */
static wl_status lower(wl_wv *V)
{
    wl_lower_ctx *L = &V->L;
    wl_status st = wl_wv_prepare_end(V);
    if (!st)
        st = wl_wv_build_loops(V);
    if (!st)
        st = wl_wv_lane_arrays(V);
    if (!st)
        st = wl_wv_device_arrays(V, V->private_limit);
    if (st)
        return st;
    /* the wave's index in its group: the invocation's */
    LLVMBasicBlockRef e = LLVMGetEntryBasicBlock(L->fn);
    LLVMValueRef first = LLVMGetFirstInstruction(e);
    while (first && LLVMIsAAllocaInst(first))
        first = LLVMGetNextInstruction(first);
    LLVMPositionBuilderBefore(L->b, first);
    LLVMValueRef zero = LLVMConstInt(L->i32, 0, 0);
    L->sid = wl_lc_call(L, "spv.local_invocation_id", L->i32, &zero, 1);
    /* private scratch: the helpers see one lane segment per lane of the
     * wave (device memory: the lane is the helpers' argument) */
    if (!L->scratch_buffer)
        L->scratch_bytes = V->lane_scratch * L->W;
    st = wl_lc_link_helpers(L);
    if (!st)
        st = lower_calls(V);
    if (!st)
        st = wl_lc_finish(L);
    /* no subgroup operation is left (none may be: a host subgroup holds
     * several waves) */
    for (LLVMValueRef f = LLVMGetFirstFunction(L->m); f && !st; f = LLVMGetNextFunction(f)) {
        size_t len;
        const char *n = LLVMGetValueName2(f, &len);
        if ((wl_lc_prefix(n, len, "spv.subgroup") || wl_lc_prefix(n, len, "spv.barrier.subgroup")) &&
            LLVMGetFirstUse(f))
            st = wl_lc_fail(L, WL_ERR_INVALID, NULL, "wave model: internal: @%.*s is called", (int)len, n);
    }
    if (!st)
        st = phantom_guard(V);
    if (!st)
        LLVMAddAttributeAtIndex(L->fn, LLVMAttributeFunctionIndex,
                                   LLVMCreateStringAttribute(L->ctx, "no-builtins", 11, "", 0));
    return st;
}

/* The lowering's state, its checks and its types (the start of step 1). */
static wl_status setup(wl_wv *V, LLVMModuleRef m, const wl_lower_options *opt, char *err, size_t errcap)
{
    wl_lower_ctx *L = &V->L;
    L->err = err;
    L->errcap = errcap;
    if (errcap)
        err[0] = 0;
    if (!m || !opt)
        return wl_lc_fail(L, WL_ERR_USAGE, NULL, "wave model: no module or options");
    L->m = m;
    L->ctx = LLVMGetModuleContext(m);
    L->fn = LLVMGetNamedFunction(m, "wl.wave");
    if (!L->fn || LLVMIsDeclaration(L->fn))
        return wl_lc_fail(L, WL_ERR_INVALID, NULL, "wave model: the module has no @wl.wave");
    if (!wl_lc_read_program(L))
        return wl_lc_fail(L, WL_ERR_INVALID, NULL, "wave model: no valid !wl.program metadata");
    L->S = L->W; /* the lanes model's code with k = 1: lane p of "subgroup" sid */
    L->k = 1;
    L->merge_stores = opt->force_merge_stores;
    L->atomic64_lock = opt->force_atomic64_lock;
    L->helper_calls = opt->helper_calls;
    L->mapping_pages = opt->mapping_pages;
    wl_lc_lds_options(L, opt); /* device-memory LDS, LDS lock (lower/memory/lds.c; helper lds) */
    L->wave_model = 1;
    if (wl_lc_scratch_options(L, opt)) /* device-memory scratch (lower/memory/scratch.c) */
        return WL_ERR_UNSUPPORTED;
    while ((1u << L->log2S) < L->S)
        L->log2S++;
    V->private_limit = opt->private_limit ? opt->private_limit : WL_PRIVATE_LIMIT_DEFAULT;
    V->lane_unroll = opt->loop_iteration_limit ? WL_WV_LANE_UNROLL : 1; /* wave/lane_loops.c no_unroll */
    V->guest_scratch = L->scratch_bytes;
    V->lane_scratch = ((L->scratch_bytes + 3) / 4) * 4;
    if ((uint64_t)V->lane_scratch * L->W > 0x10000000u)
        return wl_lc_fail(L, WL_ERR_UNSUPPORTED, NULL, "wave model: %u scratch bytes a lane", L->scratch_bytes);
    uint64_t total = 1;
    for (int d = 0; d < 3; d++) {
        L->local[d] = opt->local_size[d] ? opt->local_size[d] : 1;
        total *= L->local[d];
    }
    if (total > 1024)
        return wl_lc_fail(L, WL_ERR_UNSUPPORTED, NULL, "wave model: a workgroup of %llu work-items",
                          (unsigned long long)total);
    L->waves = (unsigned)((total + L->W - 1) / L->W);
    L->t_void = LLVMVoidTypeInContext(L->ctx);
    L->i1 = LLVMInt1TypeInContext(L->ctx);
    L->i8 = LLVMInt8TypeInContext(L->ctx);
    L->i32 = LLVMInt32TypeInContext(L->ctx);
    L->i64 = LLVMInt64TypeInContext(L->ctx);
    L->v4i32 = LLVMVectorType(L->i32, 4);
    L->ptr0 = LLVMPointerTypeInContext(L->ctx, 0);
    L->b = LLVMCreateBuilderInContext(L->ctx);
    return WL_OK;
}

static void release(wl_wv *V)
{
    wl_lower_ctx *L = &V->L;
    if (L->b)
        LLVMDisposeBuilder(L->b);
    free(L->keys);
    free(L->vals);
    free(L->clones);
    free(L->dead);
    free(V->bb);
    free(V->lane);
    free(V->xl);
    free(V->dxl);
    free(V->dxa);
    free(V->spills);
    wl_ptrmap_free(&V->loop_of);
    wl_ptrmap_free(&V->spill);
    wl_ptrmap_free(&V->xsrc);
    wl_ptrmap_free(&V->remat);
    wl_ptrmap_free(&V->copies);
}

/* ---- the model's steps in the pipeline's table (lower/models.h) --------------- */

int wl_wave_begin(wl_pass_ctx *P, unsigned arg)
{
    (void)arg;
    wl_wv *V = calloc(1, sizeof *V);
    if (!V)
        return wl_pass_fail(P, WL_ERR_NOMEM, "wave model: out of memory");
    P->model = V;
    wl_status st = setup(V, P->m, P->lo, P->err, P->errcap);
    if (!st)
        st = wl_wv_prepare_begin(V);
    return st ? wl_pass_fail(P, st, NULL) : 1;
}

int wl_wave_fold_lane_bits(wl_pass_ctx *P, unsigned arg)
{
    (void)arg;
    return (int)wl_wv_fold_lane_bits(&((wl_wv *)P->model)->L);
}

int wl_wave_settle(wl_pass_ctx *P, unsigned arg)
{
    (void)arg;
    return wl_wv_prepare_settle(P->model);
}

int wl_wave_lower(wl_pass_ctx *P, unsigned arg)
{
    (void)arg;
    wl_wv *V = P->model;
    wl_lower_ctx *L = &V->L;
    wl_lower_info *info = &P->li;
    wl_status st = lower(V);
    if (st)
        return wl_pass_fail(P, st, NULL);
    {
        memset(info, 0, sizeof *info);
        info->lanes_per_invocation = L->W;
        info->waves_per_group = L->waves;
        /* never one invocation: lavapipe folds a workgroup of one
         * invocation's LocalInvocationId to 0, in its idle SIMD lanes too,
         * and the phantom guard would let those run (phantom_guard) */
        info->host_local_size[0] = L->waves < 2 ? 2 : L->waves;
        info->host_local_size[1] = 1;
        info->host_local_size[2] = 1;
        /* private scratch is the invocation's array; device memory a wave's
         * segment an invocation */
        info->scratch_bytes_per_invocation = wl_lc_scratch_invocation_bytes(L);
        info->lane_loops = (unsigned)V->nloops;
        info->lane_array_bytes = L->lane_array_bytes;
    }
    return 1;
}

void wl_wave_free(wl_pass_ctx *P)
{
    if (P->model) {
        release(P->model);
        free(P->model);
        P->model = NULL;
    }
}
