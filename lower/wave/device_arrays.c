/* The wave model's lane arrays in device memory (docs/wave-model.md,
 * "Private memory").
 *
 * Requires: wave/lane_arrays.c done (every lane array an alloca [W x T] at
 * the entry, reached only through `getelementptr i8, ptr %arr, i32 %off`
 * whose users are loads and stores of T).
 * Leaves: where the invocation's private arrays (the lane arrays and the
 * private scratch array) would take more than the limit, the least used
 * lane arrays (accesses a byte) moved to the end of the wave's scratch
 * segment (lower/memory/scratch.c, L->lane_array_bytes) until the rest
 * fits, their accesses through @wl.scratch.segment(), which
 * wl_lc_scratch_finish computes.
 *
 * Why: a device compiler has a bound on an invocation's private memory.
 * NVIDIA's (driver 580) refuses a pipeline whose private arrays reach about
 * 16 KiB with VK_ERROR_UNKNOWN (docs/nvidia.md), and a wave64 program's
 * lane arrays are 256 or 512 bytes a register or value. */
#include <stdlib.h>

#include <llvm-c/Target.h>

#include "wave_internal.h"

typedef struct arr_info {
    LLVMValueRef a;
    uint64_t bytes;
    size_t uses; /* loads and stores through it */
} arr_info;

/* least used a byte first; the larger first among equals (fewer moves) */
static int by_heat(const void *x, const void *y)
{
    const arr_info *p = x, *q = y;
    /* uses_p / bytes_p < uses_q / bytes_q, exactly (uses < 2^32, bytes < 2^16) */
    uint64_t l = (uint64_t)p->uses * q->bytes, r = (uint64_t)q->uses * p->bytes;
    if (l != r)
        return l < r ? -1 : 1;
    return p->bytes != q->bytes ? (p->bytes > q->bytes ? -1 : 1) : 0;
}

/* the array's accesses, or -1 when it has a use this pass does not move */
static long count_uses(LLVMValueRef a)
{
    long n = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(a); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef g = LLVMGetUser(u);
        if (!LLVMIsAGetElementPtrInst(g) || LLVMGetOperand(g, 0) != a || LLVMGetNumOperands(g) != 2)
            return -1;
        for (LLVMUseRef v = LLVMGetFirstUse(g); v; v = LLVMGetNextUse(v)) {
            LLVMValueRef x = LLVMGetUser(v);
            if (!LLVMIsALoadInst(x) && !(LLVMIsAStoreInst(x) && LLVMGetOperand(x, 1) == g && LLVMGetOperand(x, 0) != g))
                return -1;
            n++;
        }
    }
    return n;
}

/* every access of the alloca a through base (a pointer into the segment) */
static wl_status move_array(wl_lower_ctx *L, LLVMValueRef a, LLVMValueRef base)
{
    for (LLVMUseRef u; (u = LLVMGetFirstUse(a));) {
        LLVMValueRef g = LLVMGetUser(u);
        LLVMPositionBuilderBefore(L->b, g);
        LLVMValueRef off = LLVMGetOperand(g, 1);
        LLVMValueRef ng = LLVMBuildGEP2(L->b, L->i8, base, &off, 1, "");
        for (LLVMUseRef v; (v = LLVMGetFirstUse(g));) {
            LLVMValueRef x = LLVMGetUser(v);
            LLVMPositionBuilderBefore(L->b, x);
            if (LLVMIsALoadInst(x)) {
                LLVMValueRef nl = LLVMBuildLoad2(L->b, LLVMTypeOf(x), ng, "");
                LLVMSetAlignment(nl, LLVMGetAlignment(x));
                LLVMReplaceAllUsesWith(x, nl);
                long idx = wl_lc_find(L, x);
                if (idx >= 0 && !wl_lc_alias(L, nl, idx))
                    return wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
            } else {
                LLVMValueRef ns = LLVMBuildStore(L->b, LLVMGetOperand(x, 0), ng);
                LLVMSetAlignment(ns, LLVMGetAlignment(x));
            }
            wl_lc_forget(L, x);
            LLVMInstructionEraseFromParent(x);
        }
        wl_lc_forget(L, g);
        LLVMInstructionEraseFromParent(g);
    }
    wl_lc_forget(L, a);
    LLVMInstructionEraseFromParent(a);
    return WL_OK;
}

wl_status wl_wv_device_arrays(wl_wv *V, uint32_t limit)
{
    wl_lower_ctx *L = &V->L;
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(L->m);
    LLVMBasicBlockRef e = LLVMGetEntryBasicBlock(L->fn);
    /* the private scratch array (scratch.c: a wave's lane segments and the
     * spare words) stays where it is, but takes its part of the limit */
    uint64_t total = L->scratch_buffer || !V->lane_scratch
                         ? 0
                         : WL_SCRATCH_SEGMENT_BYTES((uint64_t)V->lane_scratch * L->W, 1);
    size_t n = 0, cap = 0;
    arr_info *as = NULL;
    for (LLVMValueRef I = LLVMGetFirstInstruction(e); I; I = LLVMGetNextInstruction(I)) {
        if (!LLVMIsAAllocaInst(I))
            continue;
        LLVMTypeRef t = LLVMGetAllocatedType(I);
        uint64_t bytes = LLVMABISizeOfType(td, t);
        int lanes = LLVMGetTypeKind(t) == LLVMArrayTypeKind && LLVMGetArrayLength2(t) == L->W;
        long uses = lanes ? count_uses(I) : -1;
        if (uses == 0) /* a lane array never accessed: LLVM drops it */
            continue;
        total += bytes;
        /* 32- and 64-bit units only: device memory needs no 8/16-bit
         * storage feature for them */
        uint64_t unit = lanes ? LLVMABISizeOfType(td, LLVMGetElementType(t)) : 0;
        if ((unit != 4 && unit != 8) || uses < 0)
            continue;
        if (n == cap) {
            size_t nc = cap ? 2 * cap : 64;
            arr_info *na = realloc(as, nc * sizeof *na);
            if (!na) {
                free(as);
                return wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
            }
            as = na;
            cap = nc;
        }
        as[n++] = (arr_info){I, bytes, (size_t)uses};
    }
    if (total <= limit || !n) {
        free(as);
        return WL_OK;
    }
    qsort(as, n, sizeof *as, by_heat);
    /* the arrays after the scratch's lane segments, each 8-byte aligned
     * (their sizes are multiples of 8: W * 4 or W * 8) */
    uint64_t at = L->scratch_buffer ? WL_SCRATCH_SEGMENT_BYTES(L->scratch_bytes, L->W) : 0;
    uint64_t start = at;
    size_t moved = 0;
    while (moved < n && total > limit) {
        total -= as[moved].bytes;
        moved++;
    }
    LLVMValueRef first = LLVMGetFirstInstruction(e);
    while (first && LLVMIsAAllocaInst(first))
        first = LLVMGetNextInstruction(first);
    LLVMPositionBuilderBefore(L->b, first);
    LLVMTypeRef p1 = LLVMPointerTypeInContext(L->ctx, 1);
    LLVMValueRef segf = LLVMGetNamedFunction(L->m, "wl.scratch.segment");
    if (!segf)
        segf = LLVMAddFunction(L->m, "wl.scratch.segment", LLVMFunctionType(p1, NULL, 0, 0));
    LLVMValueRef seg = LLVMBuildCall2(L->b, LLVMGlobalGetValueType(segf), segf, NULL, 0, "lane.arrays");
    wl_status st = WL_OK;
    for (size_t i = 0; i < moved && !st; i++) {
        LLVMPositionBuilderBefore(L->b, first); /* after seg and the bases before */
        LLVMValueRef off = LLVMConstInt(L->i32, at, 0);
        LLVMValueRef base = LLVMBuildGEP2(L->b, L->i8, seg, &off, 1, "");
        st = move_array(L, as[i].a, base);
        at += (as[i].bytes + 7) & ~(uint64_t)7;
    }
    free(as);
    /* the segment stays a multiple of 256 bytes (W = 64 lanes of words) */
    L->lane_array_bytes = (uint32_t)(((at - start) + 255) & ~(uint64_t)255);
    if (!st && wl_lc_segment_bytes(L) > 0x7fffffffu)
        st = wl_lc_fail(L, WL_ERR_UNSUPPORTED, NULL, "wave model: %llu bytes of lane arrays in device memory",
                        (unsigned long long)(at - start));
    return st;
}
