/* Buffer data formats for the format loads and stores (lift_mem_fmt.c). */
#ifndef WL_LIFT_MEM_FMT_H
#define WL_LIFT_MEM_FMT_H

#include "lift_internal.h"

#include <stdbool.h>

/* Numeric formats. */
enum { WL_NF_UNORM, WL_NF_SNORM, WL_NF_USCALED, WL_NF_SSCALED, WL_NF_UINT, WL_NF_SINT, WL_NF_FLOAT };

typedef struct wl_bfmt {
    unsigned entry;   /* the packed byte (0: not modelled) */
    unsigned bits;    /* component size: 8, 16, 32 (0: not modelled) */
    unsigned comps;   /* 1..4 */
    unsigned nfmt;    /* WL_NF_* */
} wl_bfmt;

/* A format known at translation (MTBUF); false when not modelled. */
bool wl_bfmt_const(unsigned fmt, wl_bfmt *f);
/* Whether stores to f are modelled (32-bit formats, 16 FLOAT, the 8- and
 * 16-bit UNORM, SNORM, USCALED, SSCALED), at translation and at run time
 * (i1 from the entry's fields). */
bool wl_bfmt_storable(const wl_bfmt *f);
LLVMValueRef wl_bfmt_storable_v(wl_lifter *L, LLVMValueRef bits, LLVMValueRef nfmt);
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
LLVMValueRef wl_bfmt_d16_ok_v(wl_lifter *L, LLVMValueRef bits, LLVMValueRef nfmt, bool store);
LLVMValueRef wl_bfmt_to16(wl_lifter *L, LLVMValueRef v32, LLVMValueRef raw, LLVMValueRef bits, LLVMValueRef nfmt);
LLVMValueRef wl_bfmt_one16(wl_lifter *L, LLVMValueRef nfmt);
LLVMValueRef wl_bfmt_from16(wl_lifter *L, LLVMValueRef h, LLVMValueRef bits, LLVMValueRef nfmt);

#endif
