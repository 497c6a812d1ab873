/* lower/: the wave model's internal interface (docs/wave-model.md, D956).
 *
 * One host invocation runs one guest wave. A wl_wv holds a lowering in
 * progress: the lanes model's wl_lower_ctx (reused with k = 1 for its uniformity
 * analysis, its launch-state and memory helpers), the lane loops built so far
 * and the per-value bookkeeping of the phases in wave.c. */
#ifndef WL_WAVE_INTERNAL_H
#define WL_WAVE_INTERNAL_H

#include "ir/ptrmap.h"
#include "lower/context.h"


/* lanes a lane loop in a guest loop runs an iteration at -O2 (wave/lane_loops.c;
 * a build may set 1: no unrolling, for measurements) */
#ifndef WL_WV_LANE_UNROLL
#define WL_WV_LANE_UNROLL 4
#endif
/* ... where its body costs at most this (wave/lane_loops.c body_cost) */
#define WL_WV_UNROLL_MAX_COST 512
#define WL_WV_FMA64_COST 400

typedef struct wl_wv {
    wl_lower_ctx L;                    /* k = 1: L.p is set to the lane of the loop being lowered */
    uint32_t lane_scratch;      /* a lane's private segment, bytes rounded up to words */
    uint32_t guest_scratch;     /* the program's private segment size per lane */

    /* lane loops: loop i is the single block bb[i] (until the helpers are
     * inlined) whose first instruction is the lane phi lane[i] */
    LLVMBasicBlockRef *bb;
    LLVMValueRef *lane;
    size_t nloops, caploops;
    wl_ptrmap loop_of;          /* block -> loop index */

    /* cross-lane reads (wl.shuffle, wl.readfirstlane) of a varying source,
     * lowered once the sources have their lane arrays */
    LLVMValueRef *xl;
    size_t nxl, capxl;

    /* uniform cross-lane reads of a VGPR loaded in the same block, with no
     * store to it before them there: they read the VGPR's lane array
     * directly (dxl[i] the call, dxa[i] the VGPR's alloca), between loops */
    LLVMValueRef *dxl, *dxa;
    size_t ndxl, capdxl;

    uint32_t private_limit;     /* private arrays an invocation may hold (wave/device_arrays.c) */
    unsigned lane_unroll;       /* lanes an iteration of a lane loop in a guest loop: WL_WV_LANE_UNROLL
                                 * where the host limits loop iterations, else 1 */

    wl_ptrmap xsrc;             /* varying sources of cross-lane reads (they keep an array) */
    wl_ptrmap remat;            /* value -> 1 + the size of its recomputation, 0: none */
    wl_ptrmap copies;           /* the recomputed copies (wave/lane_arrays.c) */
    wl_ptrmap spill;            /* varying value -> index into spills */
    LLVMValueRef *spills;       /* the [W x T] lane arrays of values crossing loops */
    size_t nspills, capspills;
} wl_wv;

/* prepare.c: step 1 of the model, around the wave-IR passes of the
 * pipeline's table (lower/pipeline.c): begin (uniformity, the VGPRs'
 * accesses marked volatile so promotion leaves them in memory), settle (the
 * marks cleared, inactive writes and dead queries dropped), end (the
 * uniformity map afresh) */
wl_status wl_wv_prepare_begin(wl_wv *V);
int wl_wv_prepare_settle(wl_wv *V);
wl_status wl_wv_prepare_end(wl_wv *V);

/* wave/lane_bits.c: a lane's bit of a mask as a per-lane value (a ballot's
 * condition in the ballot's own block), else @wl.lane_active. Returns the
 * number of reads rewritten. */
unsigned wl_wv_fold_lane_bits(wl_lower_ctx *L);

/* wave/lane_loops.c: splits every block into uniform parts and lane loops (D956's
 * runs), lowers the ballots into their loop, records the cross-lane reads. */
wl_status wl_wv_build_loops(wl_wv *V);

/* wave/lane_arrays.c: lane arrays for the varying allocas and for the values used
 * outside their loop; the cross-lane reads through them. */
wl_status wl_wv_lane_arrays(wl_wv *V);

/* wave/device_arrays.c: where the private arrays would take more than limit
 * bytes an invocation, the least used lane arrays in the wave's device
 * segment (L->lane_array_bytes) until the rest fits. */
wl_status wl_wv_device_arrays(wl_wv *V, uint32_t limit);

/* the loop index of a block, -1 when it is no lane loop */
static inline long wl_wv_loop(const wl_wv *V, LLVMBasicBlockRef bb) { return wl_ptrmap_get(&V->loop_of, bb); }

#endif
