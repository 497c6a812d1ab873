/* Buffer data formats for the format loads and stores (lift_mem_fmt.c). */
#ifndef WL_LIFT_MEM_FMT_H
#define WL_LIFT_MEM_FMT_H

#include "lift_internal.h"

#include <stdbool.h>

/* Numeric formats. */
enum { WL_NF_UNORM, WL_NF_SNORM, WL_NF_USCALED, WL_NF_SSCALED, WL_NF_UINT, WL_NF_SINT, WL_NF_FLOAT };

typedef struct wl_bfmt {
    unsigned entry;   /* the packed byte (0: not modelled) */
    unsigned packed;  /* 0, or 1 + the layout of a packed format (10_11_11, 11_11_10, 10_10_10_2, 2_10_10_10) */
    unsigned bits;    /* component size: 8, 16, 32; a packed format: 32, its word (0: not modelled) */
    unsigned comps;   /* 1..4 */
    unsigned nfmt;    /* WL_NF_* */
} wl_bfmt;

/* A format known at translation (MTBUF); false when not modelled. */
bool wl_bfmt_const(unsigned fmt, wl_bfmt *f);
/* Whether stores to f are modelled (all but the packed FLOAT formats), at
 * translation and at run time (pk: the entry is a packed format). */
bool wl_bfmt_storable(const wl_bfmt *f);
LLVMValueRef wl_bfmt_storable_v(wl_lifter *L, LLVMValueRef pk, LLVMValueRef nfmt);
/* A run-time entry's packed flag (i1) and layout (i32 0..3), and component
 * c's width and shift in the 32-bit word of a layout. */
void wl_bfmt_packed(wl_lifter *L, LLVMValueRef entry, LLVMValueRef *pk, LLVMValueRef *lay);
void wl_bfmt_packed_field(wl_lifter *L, LLVMValueRef lay, unsigned c, LLVMValueRef *width, LLVMValueRef *shift);
/* i1: register value v is a value of the component (bits wide, below 32: UINT
 * 0..2^n-1, SINT -2^(n-1)..2^(n-1)-1; always true for other formats). */
LLVMValueRef wl_bfmt_int_fits(wl_lifter *L, LLVMValueRef v, LLVMValueRef bits, LLVMValueRef nfmt);
/* The packed entry of a run-time format (i32 0..127; 0: not modelled),
 * and its fields as i32 values. */
LLVMValueRef wl_bfmt_entry(wl_lifter *L, LLVMValueRef fmt);
void wl_bfmt_fields(wl_lifter *L, LLVMValueRef entry, LLVMValueRef *bits, LLVMValueRef *comps,
                    LLVMValueRef *nfmt);
/* A loaded component (raw: its bits zero-extended) as the 32-bit value. */
LLVMValueRef wl_bfmt_to32(wl_lifter *L, LLVMValueRef raw, LLVMValueRef bits, LLVMValueRef nfmt);
/* 1 in the numeric format (1 or 1.0f). */
LLVMValueRef wl_bfmt_one(wl_lifter *L, LLVMValueRef nfmt);
/* A register value as a stored component of a storable format. */
LLVMValueRef wl_bfmt_from32(wl_lifter *L, LLVMValueRef v, LLVMValueRef bits, LLVMValueRef nfmt);
/* The d16 forms (lift_mem_fmt.c): whether a format is modelled for them
 * (at translation, at run time); a loaded component as its 16 bits (v32:
 * the 32-bit value, raw: the bits loaded), 1 in 16 bits, and a 16-bit
 * register value (the low bits of h) as a stored component. */
bool wl_bfmt_d16_ok(const wl_bfmt *f, bool store);
LLVMValueRef wl_bfmt_d16_ok_v(wl_lifter *L, LLVMValueRef bits, LLVMValueRef nfmt, LLVMValueRef pk, bool store);
LLVMValueRef wl_bfmt_to16(wl_lifter *L, LLVMValueRef v32, LLVMValueRef raw, LLVMValueRef bits, LLVMValueRef nfmt);
LLVMValueRef wl_bfmt_one16(wl_lifter *L, LLVMValueRef nfmt);
LLVMValueRef wl_bfmt_from16(wl_lifter *L, LLVMValueRef h, LLVMValueRef bits, LLVMValueRef nfmt);

/* Component c (0..3) of a format load after the descriptor's DST_SEL
 * (bits 3c+2:3c of w3, a V#'s or a T#'s word 3): 0 zero, 1 `one`, 4..7
 * comp[0..3]; the reserved selects 2 and 3 give 0 and OR true into
 * *reserved. */
LLVMValueRef wl_bfmt_dst_sel(wl_lifter *L, LLVMValueRef w3, unsigned c, LLVMValueRef one, LLVMValueRef const comp[4],
                             LLVMValueRef *reserved);

#endif
