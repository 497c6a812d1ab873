/* The memory family of the lifter (DS, GLOBAL, FLAT, SCRATCH, MUBUF, MTBUF, MIMG):
 * the helpers the per-format files share (lift_mem.c) and their entry
 * points. Every access becomes a wl.* memory call of docs/wave-ir.md with
 * `active` = the lane's EXEC bit (and, for buffers, the V# range check).
 *
 * Wide accesses (64..128 bits) are split into 32-bit pieces at consecutive
 * addresses: the hardware needs only 4-byte alignment for them, and a piece
 * keeps the lowering free to use word views. */
#ifndef WL_LIFT_MEM_INTERNAL_H
#define WL_LIFT_MEM_INTERNAL_H

#include "lift_internal.h"
#include "frontend/isa/mem_internal.h"

/* Where an access goes: its wl.* name part and its address type. */
typedef enum wl_space {
    WL_SPACE_GLOBAL = 0, /* i64 guest virtual address */
    WL_SPACE_LDS,        /* i32 byte offset in the workgroup's LDS */
    WL_SPACE_SCRATCH     /* i32 byte offset in the lane's private segment */
} wl_space;

/* The shape of a load or store named by its mnemonic's suffix. */
typedef struct wl_xfer {
    uint8_t bits;   /* 8, 16 or 32 (per piece) */
    uint8_t dwords; /* 32-bit pieces (bits == 32), else 1 */
    uint8_t sign;   /* loads of 8/16 bits: sign-extend */
    uint8_t d16;    /* 0: whole VGPR, 1: low half (keep high), 2: high half (keep low) */
} wl_xfer;

/* Atomic operations, in the names of the wl.atomic.* calls. */
typedef enum wl_atop {
    WL_AT_NONE = 0,
    WL_AT_SWAP, WL_AT_ADD, WL_AT_SUB, WL_AT_SMIN, WL_AT_UMIN, WL_AT_SMAX, WL_AT_UMAX,
    WL_AT_AND, WL_AT_OR, WL_AT_XOR, WL_AT_INC, WL_AT_DEC, WL_AT_FMIN, WL_AT_FMAX,
    WL_AT_FADD, WL_AT_CMPSWAP
} wl_atop;

/* Load suffixes ("ubyte", "dwordx2", "short_d16_hi", ...; DS: "u8", "b64",
 * "i8_d16_hi", ...) and store suffixes ("byte", "short_d16_hi", "dword";
 * DS: "b8", "b16_d16_hi", "b96", ...); false when the suffix is unknown. */
bool wl_lm_load_suffix(const char *s, wl_xfer *x);
bool wl_lm_store_suffix(const char *s, wl_xfer *x);
/* "add", "smin", "cmpswap", ... (the FLAT/MUBUF names); WL_AT_NONE if unknown. */
wl_atop wl_lm_atop(const char *s);
const char *wl_lm_atop_name(wl_atop op);

/* addr + off in the address's own type (i32 or i64). */
LLVMValueRef wl_lm_addr_add(wl_lifter *L, LLVMValueRef addr, int64_t off);

/* wl.load.SPACE.bN: i32 (N = 8, 16 zero-extended, 32). */
LLVMValueRef wl_lm_load(wl_lifter *L, wl_space sp, unsigned bits, LLVMValueRef addr,
                        LLVMValueRef active);
void wl_lm_store(wl_lifter *L, wl_space sp, unsigned bits, LLVMValueRef addr,
                 LLVMValueRef val, LLVMValueRef active);
/* wl.atomic.SPACE.OP.bN (N = 32: i32 value, 64: i64); returns the old value. */
LLVMValueRef wl_lm_atomic(wl_lifter *L, wl_space sp, wl_atop op, unsigned bits,
                          LLVMValueRef addr, LLVMValueRef val, LLVMValueRef active);
LLVMValueRef wl_lm_cmpswap(wl_lifter *L, wl_space sp, unsigned bits, LLVMValueRef addr,
                           LLVMValueRef cmp, LLVMValueRef nv, LLVMValueRef active);

/* One loaded piece (as wl_lm_load returned it) made into the VGPR's new
 * value: sign extension, d16 merging with the old value. */
LLVMValueRef wl_lm_load_value(wl_lifter *L, const wl_xfer *x, LLVMValueRef raw, unsigned vdst);
/* The value a store of shape x writes from VGPR v (d16_hi: the high half). */
LLVMValueRef wl_lm_store_value(wl_lifter *L, const wl_xfer *x, unsigned v);

/* Bits [sh, sh + popcount(mask)) of the i32 w (a descriptor field). */
LLVMValueRef wl_lm_field(wl_lifter *L, LLVMValueRef w, unsigned sh, uint32_t mask);
/* wl.escape WL_ESC_INSTRUCTION at the instruction's offset for the lanes where p holds. */
void wl_lm_escape_if(wl_lifter *L, const wl_inst *in, LLVMValueRef p);

/* i1: bit `lane` (i32, varying or not) of the i64 mask. */
LLVMValueRef wl_lm_mask_bit(wl_lifter *L, LLVMValueRef mask, LLVMValueRef lane);

/* The formats' entry points. */
wl_status wl_lift_mem_ds(wl_lifter *L, const wl_inst *in);
wl_status wl_lift_mem_flat(wl_lifter *L, const wl_inst *in);   /* FLAT, GLOBAL, SCRATCH */
wl_status wl_lift_mem_buf(wl_lifter *L, const wl_inst *in);    /* MUBUF, MTBUF */
wl_status wl_lift_mem_img(wl_lifter *L, const wl_inst *in);    /* MIMG (lift_mem_img.c) */

#endif
