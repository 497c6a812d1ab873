/* The wave model's steps as passes of the pipeline's table (lower/pipeline.c;
 * the shape of llvm-passes/pass.h). The lanes model is one step,
 * wl_lower_lanes (wavelift/lower.h); the wave model is four, with the
 * wave-IR passes between them (docs/wave-model.md, step 1):
 *
 *   wave-begin       the lowering's state in P->model: the program's
 *                    checks, uniformity, the VGPRs' accesses marked
 *                    volatile (so that promote_registers leaves them)
 *   wave-lane-bits   a lane's bit of a mask as a per-lane value (needs the
 *                    uniformity of wave-begin)
 *   wave-settle      the marks cleared, inactive writes and dead queries
 *                    dropped; before the dead-store pass at -O2
 *   wave-lower       uniformity afresh, lane loops, lane arrays, launch
 *                    state and memory, the helpers inlined; fills P->li
 *
 * wl_wave_free releases P->model on every path. */
#ifndef WL_LOWER_MODELS_H
#define WL_LOWER_MODELS_H

#include "llvm-passes/pass.h"

int wl_wave_begin(wl_pass_ctx *P, unsigned arg);
int wl_wave_fold_lane_bits(wl_pass_ctx *P, unsigned arg);
int wl_wave_settle(wl_pass_ctx *P, unsigned arg);
int wl_wave_lower(wl_pass_ctx *P, unsigned arg);
void wl_wave_free(wl_pass_ctx *P);

#endif
