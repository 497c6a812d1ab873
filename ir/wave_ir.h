/* The wave IR's shared vocabulary (docs/wave-ir.md): escape kinds, the
 * launch constants the lifter bakes in, and reading the module's
 * !wl.program record. Used by the lifter (frontend/) and the lowering
 * (lower/). */
#ifndef WL_WAVE_IR_H
#define WL_WAVE_IR_H

#include <stdint.h>

#include <llvm-c/Types.h>

/* The one defined function of a wave-IR module. */
#define WL_WIR_FUNCTION "wl.wave"
/* Named metadata: !wl.program = !{!{i32 W, i32 LDS, i32 SCRATCH, i32 USER_SGPRS}} */
#define WL_WIR_PROGRAM_MD "wl.program"
/* Metadata kind on VGPR allocas. */
#define WL_WIR_VGPR_MD "wl.vgpr"

/* Kinds of @wl.escape(i32 kind, i32 guest_offset, i1 active) (D950). */
enum wl_escape_kind {
    WL_ESC_NONE = 0,
    WL_ESC_ADDRESS = 1,       /* an address outside the guest mapping */
    WL_ESC_MERGE_ROUNDS = 2,  /* a sub-word store merge ran out of rounds (D977) */
    WL_ESC_LOOP_BUDGET = 3,   /* the loop budget ran out (D949) */
    WL_ESC_UNALIGNED64 = 4,   /* a 64-bit LDS atomic at a 4- but not 8-byte aligned address */
    WL_ESC_INSTRUCTION = 5,   /* an instruction translated as an escape */
    WL_ESC_APERTURE = 6       /* a flat access into the LDS or private aperture not handled */
};

/* The apertures src_shared_base / src_private_base (and _limit) read, as
 * 64-bit values (amdkfd's gfx9+ layout: LDS at 1 << 48, scratch at 2 << 48;
 * the 32-bit reads give the high dword). A flat address whose high dword
 * equals WL_APERTURE_SHARED_HI is in the LDS, WL_APERTURE_PRIVATE_HI in the
 * private segment. */
#define WL_APERTURE_SHARED_HI 0x00010000u
#define WL_APERTURE_PRIVATE_HI 0x00020000u

/* The private segment buffer V# a launch gives the program (the user SGPRs
 * of AMDHSA's private segment buffer, s[0:3]): a swizzled V# whose
 * base[47:32] is WL_PRIVATE_VSHARP_BASE_HI. The lifter (lift_mem_buf.c)
 * turns a buffer access through a swizzled V# with that base into a scratch
 * access at the lane's offset (base[31:0] + soffset) / W + offset (+ stride *
 * index): base + soffset is in the wave's interleaved space, as LLVM's stack
 * pointer is; any other swizzled V# records WL_ESC_INSTRUCTION. Words: */
#define WL_PRIVATE_VSHARP_BASE_HI 0xffffu
#define WL_PRIVATE_VSHARP_W0 0x00000000u
#define WL_PRIVATE_VSHARP_W1 (0x80000000u | WL_PRIVATE_VSHARP_BASE_HI) /* swizzle_enable */
#define WL_PRIVATE_VSHARP_W2 0xffffffffu                                /* num_records */
#define WL_PRIVATE_VSHARP_W3 0x30800000u /* add_tid_enable, oob_select 3 */

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
