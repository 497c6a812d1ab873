/* wavelift: lifting a gfx10 program to the wave IR (docs/wave-ir.md). */
#ifndef WAVELIFT_LIFT_H
#define WAVELIFT_LIFT_H

#include "wavelift/api.h"

#include <stddef.h>
#include <stdint.h>

#include <llvm-c/Types.h>

#include "wavelift/codeobj.h"
#include "wavelift/decode.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Everything the lifter needs to know about one program and its launch. */
typedef struct wl_lift_program {
    const uint8_t *code;      /* the program's bytes: its entry and every function it calls */
    size_t size;
    size_t entry;             /* byte offset of the entry point in code (a multiple of 4) */
    uint64_t address;         /* guest address of code[0] (for s_getpc and messages) */
    wl_target target;
    unsigned wave_size;       /* 32 or 64 */
    /* Launch state, as the kernel descriptor enables it (radv-abi.md, AMDHSA). */
    unsigned user_sgpr_count;
    /* s[0:3] hold the private segment buffer V# (AMDHSA's first user SGPRs):
     * the lifter sets them to the constant WL_PRIVATE_VSHARP_W0..3 of
     * ir/wave_ir.h (what every launch gives), so that buffer accesses
     * through it fold to scratch accesses. 0: read them from the launch. */
    int private_segment_buffer;
    int enable_workgroup_id[3];
    int enable_workgroup_info;
    /* Waves in the work-group (ceil(group size / wave size), 1..63): the
     * count bits of the workgroup-info SGPR. 0: unknown, and a program
     * enabling that SGPR is refused. */
    unsigned workgroup_waves;
    int enable_private_segment_wave_offset;
    unsigned vgpr_workitem_ids; /* 1, 2 or 3 thread-id VGPRs (v0..v2) */
    uint32_t lds_bytes;       /* group segment (static + dynamic) */
    uint32_t scratch_bytes;   /* private segment per lane */
    /* The float mode at launch (compute_pgm_rsrc1). When float_mode_known
     * is 0 the lifter assumes round to nearest even, denormals kept for
     * every width, IEEE mode and DX10 clamp on (what clang-19 sets). */
    int float_mode_known;
    unsigned float_round_mode_32, float_round_mode_16_64;   /* 0: nearest even */
    unsigned float_denorm_mode_32, float_denorm_mode_16_64; /* 3: keep in and out */
    int dx10_clamp, ieee_mode;
} wl_lift_program;

/* Fills a wl_lift_program from a code object's kernel. */
WL_API wl_status wl_lift_program_from_kernel(const wl_codeobj *co, const wl_kernel *k,
                                      wl_lift_program *p, char *err, size_t errcap);

/* Lifts the program into a new module in `ctx` (one function @wl.wave).
 * An instruction the lifter does not translate gives WL_ERR_UNSUPPORTED and
 * a message naming its mnemonic and offset; nothing is ever skipped. */
WL_API wl_status wl_lift(LLVMContextRef ctx, const wl_lift_program *p,
                  LLVMModuleRef *out, char *err, size_t errcap);

/* Checks the wave IR rules of docs/wave-ir.md. */
WL_API wl_status wl_wir_verify(LLVMModuleRef m, char *err, size_t errcap);

#ifdef __cplusplus
}
#endif
#endif
