/* The lanes model (D973, generalized; docs/lanes.md): k = W / S lanes an
 * invocation. The invocation at place p of subgroup sid holds the wave's
 * lanes p + j*S, j = 0..k-1.
 *
 *  1. uniformity (context.c) marks the varying values;
 *  2. every varying instruction (VGPR allocas included) gets clones 1..k-1
 *     right after it, clone j's varying operands replaced by their clone j;
 *  3. every wl.* call (each clone of a varying one) is replaced: launch
 *     state and lane operations in plain IR and spv.* calls (launch.c),
 *     memory through helper functions (memory.c) that are inlined at the end;
 *  4. @wl.wave becomes @main, in the host IR profile. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "scalar_mem.h"

LLVMValueRef wl_lc_decl(wl_lower_ctx *L, const char *name, LLVMTypeRef fty)
{
    LLVMValueRef f = LLVMGetNamedFunction(L->m, name);
    if (!f)
        f = LLVMAddFunction(L->m, name, fty);
    return f;
}

LLVMValueRef wl_lc_call(wl_lower_ctx *L, const char *name, LLVMTypeRef ret, LLVMValueRef *args, unsigned n)
{
    LLVMTypeRef pt[8];
    for (unsigned i = 0; i < n && i < 8; i++)
        pt[i] = LLVMTypeOf(args[i]);
    LLVMTypeRef fty = LLVMFunctionType(ret, pt, n, 0);
    LLVMValueRef f = wl_lc_decl(L, name, fty);
    return LLVMBuildCall2(L->b, fty, f, args, n, "");
}

wl_status wl_lc_replace(wl_lower_ctx *L, LLVMValueRef orig, unsigned j, LLVMValueRef c, LLVMValueRef v)
{
    if (L->ndead == L->capdead) {
        size_t nc = L->capdead ? L->capdead * 2 : 256;
        LLVMValueRef *nd = realloc(L->dead, nc * sizeof *nd);
        if (!nd)
            return wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
        L->dead = nd;
        L->capdead = nc;
    }
    long idx = wl_lc_find(L, orig);
    if (v) {
        LLVMReplaceAllUsesWith(c, v);
        if (idx >= 0) {
            wl_lc_clones(L, idx)[j] = v;
            if (j == 0)
                wl_lc_alias(L, v, idx);
        }
    }
    L->dead[L->ndead++] = c;
    return WL_OK;
}

/* step 2: clones 1..k-1 of each varying instruction, then their operands */
static wl_status clone_varying(wl_lower_ctx *L)
{
    size_t n = L->nvar;
    for (size_t i = 0; i < n; i++) {
        LLVMValueRef I = wl_lc_clones(L, (long)i)[0];
        LLVMValueRef prev = I;
        size_t nl;
        const char *nm = LLVMGetValueName2(I, &nl);
        for (unsigned j = 1; j < L->k; j++) {
            LLVMValueRef c = LLVMInstructionClone(I);
            LLVMValueRef next = LLVMGetNextInstruction(prev);
            LLVMPositionBuilder(L->b, LLVMGetInstructionParent(prev), next);
            char name[96] = "";
            if (nl && LLVMTypeOf(I) != L->t_void)
                snprintf(name, sizeof name, "%.*s.%u", (int)(nl > 80 ? 80 : nl), nm, j);
            LLVMInsertIntoBuilderWithName(L->b, c, name);
            wl_lc_clones(L, (long)i)[j] = c;
            prev = c;
        }
    }
    for (size_t i = 0; i < n; i++)
        for (unsigned j = 1; j < L->k; j++) {
            LLVMValueRef c = wl_lc_clones(L, (long)i)[j];
            int no = LLVMGetNumOperands(c);
            for (int o = 0; o < no; o++) {
                LLVMValueRef v = LLVMGetOperand(c, (unsigned)o);
                long vi = wl_lc_find(L, v);
                if (vi >= 0)
                    LLVMSetOperand(c, (unsigned)o, wl_lc_clones(L, vi)[j]);
            }
        }
    return WL_OK;
}

static wl_status lower(wl_lower_ctx *L)
{
    wl_status st = wl_lc_uniformity(L);
    if (st)
        return st;
    /* the wl.* calls, in program order, before cloning */
    size_t ncalls = 0, capcalls = 64;
    LLVMValueRef *calls = malloc(capcalls * sizeof *calls);
    if (!calls)
        return wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(L->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I)) {
            size_t len;
            const char *n = wl_lc_callee(I, &len);
            if (!n)
                continue;
            if (wl_lc_prefix(n, len, "spv.") || (wl_lc_prefix(n, len, "wl.") && LLVMGetIntrinsicID(LLVMGetCalledValue(I)) == 0)) {
                if (!wl_lc_prefix(n, len, "wl.")) {
                    free(calls);
                    return wl_lc_fail(L, WL_ERR_UNSUPPORTED, I, "lanes model: spv.* calls are not wave IR");
                }
                if (ncalls == capcalls) {
                    LLVMValueRef *nc = realloc(calls, 2 * capcalls * sizeof *nc);
                    if (!nc) {
                        free(calls);
                        return wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
                    }
                    calls = nc;
                    capcalls *= 2;
                }
                calls[ncalls++] = I;
            }
        }
    st = wl_lc_lds_order_plan(L) ? WL_OK : wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
    if (!st)
        st = clone_varying(L);
    if (!st)
        st = wl_lc_launch_setup(L);
    if (!st)
        st = wl_lc_link_helpers(L);
    if (!st && !wl_lc_spans_begin(L))
        st = wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
    for (size_t i = 0; i < ncalls && !st; i++) {
        size_t len;
        const char *n = wl_lc_callee(calls[i], &len);
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(len < 127 ? len : 127), n);
        st = wl_lc_lower_scalar_mem(L, calls[i], name, strlen(name), 0);
        if (st == WL_ERR_NOT_FOUND)
            st = wl_lc_lower_lane_call(L, calls[i], name, strlen(name));
        if (st == WL_ERR_NOT_FOUND)
            st = wl_lc_lower_mem_call(L, calls[i], name, strlen(name));
        if (st == WL_ERR_NOT_FOUND)
            st = wl_lc_fail(L, WL_ERR_UNSUPPORTED, NULL, "lanes model: @%s is not a wave IR function", name);
    }
    free(calls);
    wl_lc_spans_end(L);
    for (size_t i = 0; i < L->ndead; i++) {
        wl_lc_forget(L, L->dead[i]);
        LLVMInstructionEraseFromParent(L->dead[i]);
    }
    L->ndead = 0;
    if (!st)
        st = wl_lc_finish(L);
    return st;
}

wl_status wl_lower_lanes(LLVMModuleRef m, const wl_lower_options *opt, wl_lower_info *info, char *err,
                         size_t errcap)
{
    wl_lower_ctx L;
    memset(&L, 0, sizeof L);
    L.err = err;
    L.errcap = errcap;
    if (errcap)
        err[0] = 0;
    if (!m || !opt)
        return wl_lc_fail(&L, WL_ERR_USAGE, NULL, "wl_lower_lanes: no module or options");
    L.m = m;
    L.ctx = LLVMGetModuleContext(m);
    L.fn = LLVMGetNamedFunction(m, "wl.wave");
    if (!L.fn || LLVMIsDeclaration(L.fn))
        return wl_lc_fail(&L, WL_ERR_INVALID, NULL, "lanes model: the module has no @wl.wave");
    if (!wl_lc_read_program(&L))
        return wl_lc_fail(&L, WL_ERR_INVALID, NULL, "lanes model: no valid !wl.program metadata");
    L.S = opt->subgroup_size;
    if (L.S < 1 || L.S > L.W || (L.S & (L.S - 1)))
        return wl_lc_fail(&L, WL_ERR_UNSUPPORTED, NULL, "lanes model: subgroup size %u cannot carry a wave of %u",
                          opt->subgroup_size, L.W);
    L.k = L.W / L.S;
    L.merge_stores = opt->force_merge_stores;
    L.atomic64_lock = opt->force_atomic64_lock;
    L.helper_calls = opt->helper_calls;
    L.mapping_pages = opt->mapping_pages;
    wl_lc_lds_options(&L, opt); /* lower/memory/lds.c */
    if (wl_lc_scratch_options(&L, opt)) /* lower/memory/scratch.c */
        return WL_ERR_UNSUPPORTED;
    while ((1u << L.log2S) < L.S)
        L.log2S++;
    uint64_t total = 1;
    for (int d = 0; d < 3; d++) {
        L.local[d] = opt->local_size[d] ? opt->local_size[d] : 1;
        total *= L.local[d];
    }
    if (total > 1024)
        return wl_lc_fail(&L, WL_ERR_UNSUPPORTED, NULL, "lanes model: a workgroup of %llu work-items",
                          (unsigned long long)total);
    L.waves = (unsigned)((total + L.W - 1) / L.W);
    L.t_void = LLVMVoidTypeInContext(L.ctx);
    L.i1 = LLVMInt1TypeInContext(L.ctx);
    L.i8 = LLVMInt8TypeInContext(L.ctx);
    L.i32 = LLVMInt32TypeInContext(L.ctx);
    L.i64 = LLVMInt64TypeInContext(L.ctx);
    L.v4i32 = LLVMVectorType(L.i32, 4);
    L.ptr0 = LLVMPointerTypeInContext(L.ctx, 0);
    L.b = LLVMCreateBuilderInContext(L.ctx);
    wl_status st = lower(&L);
    LLVMDisposeBuilder(L.b);
    free(L.keys);
    free(L.vals);
    free(L.clones);
    free(L.dead);
    wl_ptrmap_free(&L.lds_barrier_after);
    if (st)
        return st;
    if (info) {
        memset(info, 0, sizeof *info);
        info->lanes_per_invocation = L.k;
        info->waves_per_group = L.waves;
        info->host_local_size[0] = L.waves * L.S;
        info->host_local_size[1] = 1;
        info->host_local_size[2] = 1;
        info->scratch_bytes_per_invocation = wl_lc_scratch_invocation_bytes(&L);
    }
    return WL_OK;
}
