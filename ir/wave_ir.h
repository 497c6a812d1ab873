/* The wave IR's shared vocabulary (docs/wave-ir.md): escape kinds, the
 * launch constants the lifter bakes in, and reading the module's
 * !wl.program record. Used by the lifter (frontend/) and the lowering
 * (lower/). */
#ifndef WL_WAVE_IR_H
#define WL_WAVE_IR_H

#include <stdint.h>

#include <llvm-c/Types.h>

#include "wavelift/abi.h" /* escape kinds, apertures, the private V# */

/* The one defined function of a wave-IR module. */
#define WL_WIR_FUNCTION "wl.wave"
/* Named metadata: !wl.program = !{!{i32 W, i32 LDS, i32 SCRATCH, i32 USER_SGPRS}} */
#define WL_WIR_PROGRAM_MD "wl.program"
/* Named metadata: !wl.guest_instructions = !{!{i32 N}}, the guest
 * instructions lifted (the entry's and those of every function it calls);
 * informational (wl_translate_info.guest_instructions) */
#define WL_WIR_GUEST_MD "wl.guest_instructions"
/* Named metadata !wl.fma_f32_ftz = !{}: every f32 fma of the program is a
 * whole v_fma_f32 whose operands and result its float mode flushes
 * (frontend/lift/lift_valu_float.c), so a host Fma exact but for flushing
 * subnormal operands and results (WL_FMA_F32_FTZ) computes them exactly. */
#define WL_WIR_FMA_FTZ_MD "wl.fma_f32_ftz"
/* Metadata kind on VGPR allocas. */
#define WL_WIR_VGPR_MD "wl.vgpr"



typedef struct wl_wir_info {
    unsigned wave_size;          /* 32 or 64 */
    uint32_t lds_bytes;
    uint32_t scratch_bytes;      /* per lane */
    unsigned user_sgprs;
} wl_wir_info;

/* Reads !wl.program back; returns 0 on success, -1 when the module has none
 * or it is malformed. */
int wl_wir_program_info(LLVMModuleRef m, wl_wir_info *info);

#endif
