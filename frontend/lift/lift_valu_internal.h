/* The VALU lifter's internal interface (lift_valu*.c): the per-instruction
 * context, source reads with the encodings' modifiers (VOP3 abs/neg/op_sel,
 * SDWA selects, DPP lane fetches) and destination writes (clamp, SDWA
 * dst_sel, 16-bit halves, the DPP write predicate, EXEC). Not installed.
 *
 * Conventions: a source is read as raw bits of its width (i16, i32, i64);
 * abs/neg are applied to those bits (abs clears, neg flips the sign bit,
 * exactly what fabs/fneg do), so float operations bitcast afterwards. */
#ifndef WL_LIFT_VALU_INTERNAL_H
#define WL_LIFT_VALU_INTERNAL_H

#include "lift_internal.h"

#include <stdbool.h>

/* Value types of VALU operands. */
typedef enum wl_vt { VT_I16, VT_I32, VT_I64, VT_F16, VT_F32, VT_F64 } wl_vt;

typedef struct wl_vx {
    wl_lifter *L;
    const wl_inst *in;
    LLVMBuilderRef b;
    LLVMValueRef lane;   /* @wl.lane_id(), made on first use */
    LLVMValueRef wpred;  /* DPP: extra per-lane write predicate (NULL: none) */
    LLVMValueRef dpp0;   /* DPP: the fetched src0 (raw i32) */
    bool omod_done;      /* wl_vx_put applied (or ignored) omod */
    bool fma_flushed;    /* the next llvm.fma.f32 is a whole v_fma_f32 in a flushing mode */
} wl_vx;

/* MODE register bits (lift_mode.c). */
#define WL_MODE_DX10_CLAMP (1u << 8)
#define WL_MODE_IEEE (1u << 9)

/* Types and constants. */
LLVMTypeRef wl_vx_ty(wl_vx *c, wl_vt t);         /* the LLVM type (iN or float) */
LLVMTypeRef wl_vx_ity(wl_vx *c, wl_vt t);        /* the integer type of the same width */
unsigned wl_vx_bits(wl_vt t);
LLVMValueRef wl_vx_const(wl_vx *c, wl_vt t, uint64_t bits); /* from raw bits */
LLVMValueRef wl_vx_fconst(wl_vx *c, wl_vt t, double v);

/* Lane helpers (varying). */
LLVMValueRef wl_vx_lane(wl_vx *c);
/* Bit `lane` of an i64 mask (i1). */
LLVMValueRef wl_vx_lane_bit(wl_vx *c, LLVMValueRef mask64, LLVMValueRef lane);
/* Mask of the lanes whose p is true, ANDed with EXEC (i64). */
LLVMValueRef wl_vx_ballot_exec(wl_vx *c, LLVMValueRef p);
/* A lane-mask source operand (SGPR pair, vcc, constant) as i64. */
LLVMValueRef wl_vx_mask_src(wl_vx *c, unsigned i);
/* An intrinsic call: llvm.NAME overloaded on `ty`. */
LLVMValueRef wl_vx_intr(wl_vx *c, const char *name, LLVMTypeRef *tys, unsigned ntys,
                        LLVMValueRef *args, unsigned nargs);
LLVMValueRef wl_vx_intr1(wl_vx *c, const char *name, LLVMValueRef a);
LLVMValueRef wl_vx_intr2(wl_vx *c, const char *name, LLVMValueRef a, LLVMValueRef b);

/* Source i as type t, modifiers applied (floats come back as LLVM floats). */
LLVMValueRef wl_vx_src(wl_vx *c, unsigned i, wl_vt t);
/* Source i as raw bits of t's width (integers, or float bits), modifiers applied. */
LLVMValueRef wl_vx_srci(wl_vx *c, unsigned i, wl_vt t);
/* Writes `v` (of type t) to dst[0] under EXEC (and the DPP predicate), with
 * float clamp for float t, 16-bit halves, SDWA dst_sel. */
wl_status wl_vx_put(wl_vx *c, LLVMValueRef v, wl_vt t);
/* Writes a lane mask (i64, already ANDed with EXEC) to dst operand d. */
void wl_vx_put_mask(wl_vx *c, unsigned d, LLVMValueRef mask64);

/* Float helpers. */
LLVMValueRef wl_vx_isnan(wl_vx *c, LLVMValueRef x);
LLVMValueRef wl_vx_clamp01(wl_vx *c, LLVMValueRef x);   /* honours DX10_CLAMP */
/* The MODE denorm field of t's precision (bit 0: inputs kept, bit 1:
 * outputs kept), and a float (or its bits) of type t with a denormal
 * flushed to a signed zero where that field flushes inputs / outputs. */
unsigned wl_vx_denorm_mode(wl_vx *c, wl_vt t);
LLVMValueRef wl_vx_flush_in(wl_vx *c, wl_vt t, LLVMValueRef x);
LLVMValueRef wl_vx_flush_out(wl_vx *c, wl_vt t, LLVMValueRef x);
/* The same flush whatever the mode (the mad forms, which have no denormals). */
LLVMValueRef wl_vx_flush(wl_vx *c, wl_vt t, LLVMValueRef x);
/* Float v_min and v_max with the hardware's IEEE-mode rules. */
LLVMValueRef wl_vx_fminmax(wl_vx *c, LLVMValueRef a, LLVMValueRef b, bool max);
/* the same for operands that are not NaN (its number-only part) */
LLVMValueRef wl_vx_fminmax_num(wl_vx *c, LLVMValueRef a, LLVMValueRef b, bool max);
/* Exact ldexp (n an i32) and frexp (exponent i32) of a float of type t,
 * independent of the host's Ldexp/Frexp (lift_valu_scale.c). */
LLVMValueRef wl_vx_ldexp(wl_vx *c, wl_vt t, LLVMValueRef x, LLVMValueRef n);
void wl_vx_frexp(wl_vx *c, wl_vt t, LLVMValueRef x, LLVMValueRef *mant, LLVMValueRef *exp);
/* fma of three f16 (LLVM half) values, rounded once (lift_valu_scale.c). */
LLVMValueRef wl_vx_fma16(wl_vx *c, LLVMValueRef a, LLVMValueRef b, LLVMValueRef d);
/* log2 and exp2 of an f32, computed in f64 (lift_valu_transc.c). */
LLVMValueRef wl_vx_log2_f32(wl_vx *c, LLVMValueRef x);
LLVMValueRef wl_vx_exp2_f32(wl_vx *c, LLVMValueRef x);

/* The families: return WL_OK / WL_ERR_UNSUPPORTED (refused by name), or
 * -1 when `name` is not theirs. */
int wl_lv_int(wl_vx *c, const char *name);
int wl_lv_float(wl_vx *c, const char *name);
int wl_lv_div(wl_vx *c, const char *name);   /* lift_valu_div.c */
int wl_lv_cvt(wl_vx *c, const char *name);
int wl_lv_cmp(wl_vx *c, const char *name);
int wl_lv_lane(wl_vx *c, const char *name);
int wl_lv_pk(wl_vx *c, const char *name);
int wl_lv_misc(wl_vx *c, const char *name);  /* lift_valu_misc.c: msad, cube, f16 dots, movrel */
/* DPP16/DPP8: fetches src0 across lanes and sets c->dpp0 and c->wpred. */
wl_status wl_lv_dpp_fetch(wl_vx *c);

/* Name helpers: the type suffix of a mnemonic ("_f32" ...), -1 if none. */
int wl_lv_suffix_type(const char *name);
bool wl_lv_ends(const char *name, const char *suffix);

#endif
