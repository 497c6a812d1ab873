/* Buffer data formats (gfx10's unified FORMAT field of MTBUF instructions
 * and of the V#, word 3 bits [18:12]) and their conversions, for the format
 * loads and stores of lift_mem_buf.c.
 *
 * Modelled formats: 8, 8_8, 8_8_8_8 and 16, 16_16, 16_16_16_16 as UNORM,
 * SNORM, USCALED, SSCALED, UINT, SINT (16 also FLOAT); 32, 32_32, 32_32_32,
 * 32_32_32_32 as UINT, SINT, FLOAT; the packed formats 10_11_11 and
 * 11_11_10 (UNORM..SINT, FLOAT) and 10_10_10_2, 2_10_10_10 (UNORM..SINT):
 * one 32-bit word, the names listing the components from the most
 * significant bits down (x is in the low bits; widths and shifts in
 * pk_width/pk_shift). The invalid and reserved numbers are not.
 *
 * A loaded component of n bits becomes a 32-bit value (the ISA's numeric
 * formats):
 *   UNORM  f32(u) / (2^n - 1)             SNORM  max(f32(s) / (2^(n-1) - 1), -1)
 *   USCALED f32(u)   SSCALED f32(s)        UINT u  SINT s (sign-extended)
 *   FLOAT  16: the f16 widened to f32 (exact); 32: the bits; 11 and 10
 *          (unsigned, e5 m6 / e5 m5): the f16 of that exponent and
 *          mantissa, widened
 * (divisions in f32, correctly rounded). A stored component is the
 * register's 32 bits converted (the ISA's conversions):
 *   32-bit formats  the bits
 *   16 FLOAT        the f32 rounded to f16, nearest even
 *   UNORM           NaN 0; clamp(f32, 0, 1) * (2^n - 1), nearest even
 *   SNORM           NaN 0; clamp(f32, -1, 1) * (2^(n-1) - 1), nearest even
 *   USCALED         NaN 0; the f32 rounded to an integer (nearest even),
 *                   clamped to [0, 2^n - 1]
 *   SSCALED         NaN 0; likewise, clamped to [-2^(n-1), 2^(n-1) - 1]
 *   UINT, SINT below 32 bits: the low n bits, for a value the component
 *                   holds (wl_bfmt_int_fits; whether the hardware clamps or
 *                   wraps the others is not documented: the caller escapes)
 * (the products are exact in f64, so each is rounded once), its low n
 * bits written. Stores to the packed FLOAT formats are not modelled (the
 * rounding to 10/11-bit floats and their negative and NaN cases are not
 * documented).
 *
 * The d16 forms carry 16-bit values in the VGPR halves ("16'B(Convert
 * From/ToFormat(...))" in the ISA), modelled where that narrowing or
 * widening has one reading:
 *   loads:  8-bit formats (UNORM/SNORM: the f32 value rounded to f16, which
 *           equals the exact value rounded to f16 for all 256 inputs;
 *           USCALED/SSCALED: exact in f16; UINT/SINT: zero/sign-extended to
 *           16 bits), and 16 FLOAT/UINT/SINT (the 16 bits); an absent
 *           component reads 0, w 1 (f16 1.0 for the float formats)
 *   stores: 16 FLOAT/UINT/SINT (the 16 bits), the 8- and 16-bit UNORM,
 *           SNORM, USCALED, SSCALED (the f16 widened exactly to f32, then
 *           converted as above) and 32 FLOAT (the f16 widened)
 * Others (16-bit UNORM/SNORM/SCALED loads: f32-then-f16 and exact rounding
 * differ for 2 of the 65536 values; 32-bit integer formats) are not.
 *
 * An entry packs a format into a byte: bits [1:0] the component size (1: 8,
 * 2: 16, 3: 32 bits; 0: not modelled), [3:2] components - 1, [6:4] the
 * numeric format (WL_NF_*); bit 7 marks a packed format, whose bits [1:0]
 * are then its layout (0: 10_11_11, 1: 11_11_10, 2: 10_10_10_2, 3:
 * 2_10_10_10) and whose component size reads as 32 (the word). */
#include "lift_mem_fmt.h"
#include "lift_mem_internal.h"

static uint8_t entry_of(unsigned fmt)
{
    /* {first format, size code, components, numeric formats in order} */
    static const struct { uint8_t first, code, comps, n, nf[7]; } runs[] = {
        {1, 1, 1, 6, {0, 1, 2, 3, 4, 5}},          /* 8_* */
        {7, 2, 1, 7, {0, 1, 2, 3, 4, 5, 6}},       /* 16_* */
        {14, 1, 2, 6, {0, 1, 2, 3, 4, 5}},         /* 8_8_* */
        {20, 3, 1, 3, {4, 5, 6}},                  /* 32_* */
        {23, 2, 2, 7, {0, 1, 2, 3, 4, 5, 6}},      /* 16_16_* */
        {56, 1, 4, 6, {0, 1, 2, 3, 4, 5}},         /* 8_8_8_8_* */
        {62, 3, 2, 3, {4, 5, 6}},                  /* 32_32_* */
        {65, 2, 4, 7, {0, 1, 2, 3, 4, 5, 6}},      /* 16_16_16_16_* */
        {72, 3, 3, 3, {4, 5, 6}},                  /* 32_32_32_* */
        {75, 3, 4, 3, {4, 5, 6}},                  /* 32_32_32_32_* */
    };
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++)
        if (fmt >= runs[r].first && fmt < runs[r].first + runs[r].n)
            return (uint8_t)(runs[r].code | (runs[r].comps - 1u) << 2 | runs[r].nf[fmt - runs[r].first] << 4);
    /* the packed formats: {first, layout, components, numeric formats} */
    static const struct { uint8_t first, lay, comps, n; } packed[] = {
        {30, 0, 3, 7}, /* 10_11_11_UNORM .. _FLOAT */
        {37, 1, 3, 7}, /* 11_11_10_* */
        {44, 2, 4, 6}, /* 10_10_10_2_UNORM .. _SINT */
        {50, 3, 4, 6}, /* 2_10_10_10_* */
    };
    for (size_t r = 0; r < sizeof packed / sizeof packed[0]; r++)
        if (fmt >= packed[r].first && fmt < packed[r].first + packed[r].n)
            return (uint8_t)(0x80u | packed[r].lay | (packed[r].comps - 1u) << 2 | (fmt - packed[r].first) << 4);
    return 0;
}

bool wl_bfmt_const(unsigned fmt, wl_bfmt *f)
{
    uint8_t e = entry_of(fmt & 0x7f);
    f->entry = e;
    f->packed = (e & 0x80) ? (e & 3) + 1u : 0;
    f->bits = !e ? 0 : f->packed ? 32 : 4u << (e & 3);
    f->comps = ((e >> 2) & 3) + 1u;
    f->nfmt = (e >> 4) & 7;
    return e != 0;
}

bool wl_bfmt_storable(const wl_bfmt *f)
{
    return f->bits && !(f->packed && f->nfmt == WL_NF_FLOAT);
}

LLVMValueRef wl_bfmt_storable_v(wl_lifter *L, LLVMValueRef pk, LLVMValueRef nfmt)
{
    LLVMBuilderRef b = L->b;
    LLVMValueRef flt = LLVMBuildICmp(b, LLVMIntEQ, nfmt, wl_l_i32c(L, WL_NF_FLOAT), "");
    return LLVMBuildNot(b, LLVMBuildAnd(b, pk, flt, ""), "");
}

/* The packed layouts (component widths and shifts, x first). */
static const uint8_t pk_width[4][4] = {{11, 11, 10, 0}, {10, 11, 11, 0}, {2, 10, 10, 10}, {10, 10, 10, 2}};
static const uint8_t pk_shift[4][4] = {{0, 11, 22, 0}, {0, 10, 21, 0}, {0, 2, 12, 22}, {0, 10, 20, 30}};

void wl_bfmt_packed(wl_lifter *L, LLVMValueRef entry, LLVMValueRef *pk, LLVMValueRef *lay)
{
    LLVMBuilderRef b = L->b;
    *pk = LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, entry, wl_l_i32c(L, 0x80), ""), wl_l_i32c(L, 0), "");
    *lay = LLVMBuildAnd(b, entry, wl_l_i32c(L, 3), "");
}

void wl_bfmt_packed_field(wl_lifter *L, LLVMValueRef lay, unsigned c, LLVMValueRef *width, LLVMValueRef *shift)
{
    LLVMBuilderRef b = L->b;
    LLVMValueRef w = wl_l_i32c(L, pk_width[0][c]), s = wl_l_i32c(L, pk_shift[0][c]);
    for (unsigned k = 1; k < 4; k++) {
        LLVMValueRef is = LLVMBuildICmp(b, LLVMIntEQ, lay, wl_l_i32c(L, k), "");
        w = LLVMBuildSelect(b, is, wl_l_i32c(L, pk_width[k][c]), w, "");
        s = LLVMBuildSelect(b, is, wl_l_i32c(L, pk_shift[k][c]), s, "");
    }
    *width = w;
    *shift = s;
}

LLVMValueRef wl_bfmt_int_fits(wl_lifter *L, LLVMValueRef v, LLVMValueRef bits, LLVMValueRef nfmt)
{
    LLVMBuilderRef b = L->b;
    LLVMValueRef n31 = LLVMBuildAnd(b, bits, wl_l_i32c(L, 31), "");
    LLVMValueRef umax = LLVMBuildSub(b, LLVMBuildShl(b, wl_l_i32c(L, 1), n31, ""), wl_l_i32c(L, 1), "");
    LLVMValueRef ufit = LLVMBuildICmp(b, LLVMIntULE, v, umax, "");
    LLVMValueRef sh = LLVMBuildSub(b, wl_l_i32c(L, 32), bits, "");
    LLVMValueRef sfit = LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildAShr(b, LLVMBuildShl(b, v, sh, ""), sh, ""), v, "");
    LLVMValueRef w32 = LLVMBuildICmp(b, LLVMIntEQ, bits, wl_l_i32c(L, 32), "");
    LLVMValueRef u = LLVMBuildICmp(b, LLVMIntEQ, nfmt, wl_l_i32c(L, WL_NF_UINT), "");
    LLVMValueRef si = LLVMBuildICmp(b, LLVMIntEQ, nfmt, wl_l_i32c(L, WL_NF_SINT), "");
    LLVMValueRef bad = LLVMBuildOr(b, LLVMBuildAnd(b, u, LLVMBuildNot(b, ufit, ""), ""),
                                   LLVMBuildAnd(b, si, LLVMBuildNot(b, sfit, ""), ""), "");
    return LLVMBuildOr(b, w32, LLVMBuildNot(b, bad, ""), "");
}

/* The entry of a run-time format (i32, 0..127): the 128 entries as 16
 * i64 words, the word chosen by a select chain, the byte by a shift. */
LLVMValueRef wl_bfmt_entry(wl_lifter *L, LLVMValueRef fmt)
{
    LLVMBuilderRef b = L->b;
    LLVMValueRef hi = LLVMBuildLShr(b, fmt, wl_l_i32c(L, 3), "");
    LLVMValueRef word = wl_l_i64c(L, 0);
    for (unsigned w = 0; w < 16; w++) {
        uint64_t v = 0;
        for (unsigned k = 0; k < 8; k++)
            v |= (uint64_t)entry_of(w * 8 + k) << (8 * k);
        if (v)
            word = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, hi, wl_l_i32c(L, w), ""), wl_l_i64c(L, v),
                                   word, "");
    }
    LLVMValueRef sh = LLVMBuildZExt(b, LLVMBuildShl(b, LLVMBuildAnd(b, fmt, wl_l_i32c(L, 7), ""),
                                                    wl_l_i32c(L, 3), ""), L->i64, "");
    LLVMValueRef e = LLVMBuildTrunc(b, LLVMBuildLShr(b, word, sh, ""), L->i32, "");
    return LLVMBuildAnd(b, e, wl_l_i32c(L, 0xff), "");
}

void wl_bfmt_fields(wl_lifter *L, LLVMValueRef entry, LLVMValueRef *bits, LLVMValueRef *comps,
                    LLVMValueRef *nfmt)
{
    LLVMBuilderRef b = L->b;
    LLVMValueRef code = LLVMBuildAnd(b, entry, wl_l_i32c(L, 3), "");
    LLVMValueRef pk = LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, entry, wl_l_i32c(L, 0x80), ""), wl_l_i32c(L, 0), "");
    *bits = LLVMBuildSelect(b, pk, wl_l_i32c(L, 32), LLVMBuildShl(b, wl_l_i32c(L, 4), code, ""), "");
    *comps = LLVMBuildAdd(b, LLVMBuildAnd(b, LLVMBuildLShr(b, entry, wl_l_i32c(L, 2), ""), wl_l_i32c(L, 3), ""),
                          wl_l_i32c(L, 1), "");
    *nfmt = LLVMBuildAnd(b, LLVMBuildLShr(b, entry, wl_l_i32c(L, 4), ""), wl_l_i32c(L, 7), "");
}

static LLVMValueRef is_nf(wl_lifter *L, LLVMValueRef nfmt, unsigned k)
{
    return LLVMBuildICmp(L->b, LLVMIntEQ, nfmt, wl_l_i32c(L, k), "");
}

static LLVMValueRef fbits(wl_lifter *L, LLVMValueRef f)
{
    return LLVMBuildBitCast(L->b, f, L->i32, "");
}

/* One component: raw (i32, the n low bits loaded, zero-extended), n = bits. */
LLVMValueRef wl_bfmt_to32(wl_lifter *L, LLVMValueRef raw, LLVMValueRef bits, LLVMValueRef nfmt)
{
    LLVMBuilderRef b = L->b;
    LLVMValueRef sh = LLVMBuildSub(b, wl_l_i32c(L, 32), bits, "");
    LLVMValueRef s = LLVMBuildAShr(b, LLVMBuildShl(b, raw, sh, ""), sh, ""); /* n = 32: shifts by 0 */
    /* 2^n - 1 and 2^(n-1) - 1 (n = 8 or 16 where used) */
    LLVMValueRef n31 = LLVMBuildAnd(b, bits, wl_l_i32c(L, 31), ""); /* no shift by 32 */
    LLVMValueRef umax = LLVMBuildSub(b, LLVMBuildShl(b, wl_l_i32c(L, 1), n31, ""), wl_l_i32c(L, 1), "");
    LLVMValueRef smax = LLVMBuildLShr(b, umax, wl_l_i32c(L, 1), "");
    LLVMValueRef uf = LLVMBuildUIToFP(b, raw, L->f32, ""), sf = LLVMBuildSIToFP(b, s, L->f32, "");
    LLVMValueRef unorm = LLVMBuildFDiv(b, uf, LLVMBuildUIToFP(b, umax, L->f32, ""), "");
    LLVMValueRef sn = LLVMBuildFDiv(b, sf, LLVMBuildUIToFP(b, smax, L->f32, ""), "");
    LLVMValueRef m1 = LLVMConstReal(L->f32, -1.0);
    LLVMValueRef snorm = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, sn, m1, ""), m1, sn, "");
    /* FLOAT of 16 bits, and the unsigned 11-bit (e5 m6) and 10-bit (e5 m5)
     * floats as the f16 of the same value (sign 0, the mantissa shifted up) */
    LLVMValueRef hsh = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, bits, wl_l_i32c(L, 11), ""), wl_l_i32c(L, 4),
                                       LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, bits, wl_l_i32c(L, 10), ""),
                                                       wl_l_i32c(L, 5), wl_l_i32c(L, 0), ""), "");
    LLVMValueRef h = LLVMBuildBitCast(b, LLVMBuildTrunc(b, LLVMBuildShl(b, raw, hsh, ""), L->i16, ""), L->f16, "");
    LLVMValueRef flt = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, bits, wl_l_i32c(L, 32), ""), raw,
                                       fbits(L, LLVMBuildFPExt(b, h, L->f32, "")), "");
    LLVMValueRef r = flt;
    r = LLVMBuildSelect(b, is_nf(L, nfmt, WL_NF_SINT), s, r, "");
    r = LLVMBuildSelect(b, is_nf(L, nfmt, WL_NF_UINT), raw, r, "");
    r = LLVMBuildSelect(b, is_nf(L, nfmt, WL_NF_SSCALED), fbits(L, sf), r, "");
    r = LLVMBuildSelect(b, is_nf(L, nfmt, WL_NF_USCALED), fbits(L, uf), r, "");
    r = LLVMBuildSelect(b, is_nf(L, nfmt, WL_NF_SNORM), fbits(L, snorm), r, "");
    r = LLVMBuildSelect(b, is_nf(L, nfmt, WL_NF_UNORM), fbits(L, unorm), r, "");
    return r;
}

/* The value 1 in a numeric format: 1 for UINT/SINT, 1.0f otherwise. */
LLVMValueRef wl_bfmt_one(wl_lifter *L, LLVMValueRef nfmt)
{
    LLVMValueRef i = LLVMBuildOr(L->b, is_nf(L, nfmt, WL_NF_UINT), is_nf(L, nfmt, WL_NF_SINT), "");
    return LLVMBuildSelect(L->b, i, wl_l_i32c(L, 1), wl_l_i32c(L, 0x3f800000u), "");
}

/* A 32-bit register value stored as one component of a storable format
 * (i32: the component in its low `bits` bits), as in the file comment. */
LLVMValueRef wl_bfmt_from32(wl_lifter *L, LLVMValueRef v, LLVMValueRef bits, LLVMValueRef nfmt)
{
    LLVMBuilderRef b = L->b;
    LLVMValueRef f = LLVMBuildBitCast(b, v, L->f32, "");
    LLVMValueRef h = LLVMBuildFPTrunc(b, f, L->f16, "");
    LLVMValueRef hb = LLVMBuildZExt(b, LLVMBuildBitCast(b, h, L->i16, ""), L->i32, "");
    LLVMValueRef r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, bits, wl_l_i32c(L, 16), ""), hb, v, "");
    /* the converting formats: 2^n - 1 and 2^(n-1) - 1 (n = 8 or 16 here) */
    LLVMValueRef n31 = LLVMBuildAnd(b, bits, wl_l_i32c(L, 31), "");
    LLVMValueRef umax = LLVMBuildSub(b, LLVMBuildShl(b, wl_l_i32c(L, 1), n31, ""), wl_l_i32c(L, 1), "");
    LLVMValueRef smax = LLVMBuildLShr(b, umax, wl_l_i32c(L, 1), "");
    LLVMValueRef du = LLVMBuildUIToFP(b, umax, L->f64, ""), ds = LLVMBuildUIToFP(b, smax, L->f64, "");
    LLVMValueRef one = LLVMConstReal(L->f64, 1.0), zero = LLVMConstReal(L->f64, 0.0);
    LLVMValueRef un = is_nf(L, nfmt, WL_NF_UNORM), sn = is_nf(L, nfmt, WL_NF_SNORM);
    LLVMValueRef us = is_nf(L, nfmt, WL_NF_USCALED);
    LLVMValueRef lo = LLVMBuildSelect(b, LLVMBuildOr(b, un, us, ""), zero,
                                      LLVMBuildSelect(b, sn, LLVMConstReal(L->f64, -1.0),
                                                      LLVMBuildFNeg(b, LLVMBuildFAdd(b, ds, one, ""), ""), ""), "");
    LLVMValueRef hi = LLVMBuildSelect(b, LLVMBuildOr(b, un, sn, ""), one, LLVMBuildSelect(b, us, du, ds, ""), "");
    LLVMValueRef scale = LLVMBuildSelect(b, un, du, LLVMBuildSelect(b, sn, ds, one, ""), "");
    LLVMValueRef d = LLVMBuildFPExt(b, f, L->f64, "");
    d = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, d, hi, ""), hi, d, "");
    d = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, d, lo, ""), lo, d, "");
    d = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealUNO, d, d, ""), zero, d, "");
    LLVMTypeRef f64 = L->f64;
    LLVMValueRef prod = LLVMBuildFMul(b, d, scale, "");
    d = wl_l_intrin(L, "llvm.roundeven", &f64, 1, &prod, 1);
    LLVMValueRef c = LLVMBuildAnd(b, LLVMBuildFPToSI(b, d, L->i32, ""), umax, "");
    LLVMValueRef narrow = LLVMBuildICmp(b, LLVMIntNE, bits, wl_l_i32c(L, 32), "");
    LLVMValueRef conv = LLVMBuildICmp(b, LLVMIntULE, nfmt, wl_l_i32c(L, WL_NF_SSCALED), "");
    conv = LLVMBuildAnd(b, conv, narrow, "");
    /* UINT/SINT below 32 bits: the low bits (wl_bfmt_int_fits says where that is the value) */
    LLVMValueRef isint = LLVMBuildOr(b, is_nf(L, nfmt, WL_NF_UINT), is_nf(L, nfmt, WL_NF_SINT), "");
    r = LLVMBuildSelect(b, LLVMBuildAnd(b, isint, narrow, ""), LLVMBuildAnd(b, v, umax, ""), r, "");
    return LLVMBuildSelect(b, conv, c, r, "");
}

static LLVMValueRef is_bits(wl_lifter *L, LLVMValueRef bits, unsigned n)
{
    return LLVMBuildICmp(L->b, LLVMIntEQ, bits, wl_l_i32c(L, n), "");
}

bool wl_bfmt_d16_ok(const wl_bfmt *f, bool store)
{
    if (f->packed)
        return false;
    bool raw16 = f->bits == 16 && (f->nfmt == WL_NF_FLOAT || f->nfmt == WL_NF_UINT || f->nfmt == WL_NF_SINT);
    if (!store)
        return raw16 || f->bits == 8;
    return raw16 || ((f->bits == 8 || f->bits == 16) && f->nfmt <= WL_NF_SSCALED) ||
           (f->bits == 32 && f->nfmt == WL_NF_FLOAT);
}

LLVMValueRef wl_bfmt_d16_ok_v(wl_lifter *L, LLVMValueRef bits, LLVMValueRef nfmt, LLVMValueRef pk, bool store)
{
    LLVMBuilderRef b = L->b;
    LLVMValueRef raw16 = LLVMBuildAnd(b, is_bits(L, bits, 16),
                                      LLVMBuildOr(b, is_nf(L, nfmt, WL_NF_FLOAT),
                                                  LLVMBuildOr(b, is_nf(L, nfmt, WL_NF_UINT),
                                                              is_nf(L, nfmt, WL_NF_SINT), ""), ""), "");
    LLVMValueRef unpk = LLVMBuildNot(b, pk, "");
    if (!store)
        return LLVMBuildAnd(b, unpk, LLVMBuildOr(b, raw16, is_bits(L, bits, 8), ""), "");
    LLVMValueRef conv = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntULE, nfmt, wl_l_i32c(L, WL_NF_SSCALED), ""),
                                     LLVMBuildNot(b, is_bits(L, bits, 32), ""), "");
    LLVMValueRef f32 = LLVMBuildAnd(b, is_bits(L, bits, 32), is_nf(L, nfmt, WL_NF_FLOAT), "");
    return LLVMBuildAnd(b, unpk, LLVMBuildOr(b, LLVMBuildOr(b, raw16, conv, ""), f32, ""), "");
}

static LLVMValueRef is_int(wl_lifter *L, LLVMValueRef nfmt)
{
    return LLVMBuildOr(L->b, is_nf(L, nfmt, WL_NF_UINT), is_nf(L, nfmt, WL_NF_SINT), "");
}

LLVMValueRef wl_bfmt_to16(wl_lifter *L, LLVMValueRef v32, LLVMValueRef raw, LLVMValueRef bits, LLVMValueRef nfmt)
{
    LLVMBuilderRef b = L->b;
    LLVMValueRef h = LLVMBuildFPTrunc(b, LLVMBuildBitCast(b, v32, L->f32, ""), L->f16, "");
    LLVMValueRef r = LLVMBuildZExt(b, LLVMBuildBitCast(b, h, L->i16, ""), L->i32, "");
    LLVMValueRef raw16 = LLVMBuildAnd(b, is_bits(L, bits, 16), is_nf(L, nfmt, WL_NF_FLOAT), "");
    r = LLVMBuildSelect(b, raw16, raw, r, "");
    r = LLVMBuildSelect(b, is_int(L, nfmt), v32, r, "");
    return LLVMBuildAnd(b, r, wl_l_i32c(L, 0xffff), "");
}

LLVMValueRef wl_bfmt_one16(wl_lifter *L, LLVMValueRef nfmt)
{
    return LLVMBuildSelect(L->b, is_int(L, nfmt), wl_l_i32c(L, 1), wl_l_i32c(L, 0x3c00), "");
}

LLVMValueRef wl_bfmt_from16(wl_lifter *L, LLVMValueRef h, LLVMValueRef bits, LLVMValueRef nfmt)
{
    LLVMBuilderRef b = L->b;
    LLVMValueRef x = LLVMBuildBitCast(b, LLVMBuildTrunc(b, h, L->i16, ""), L->f16, "");
    LLVMValueRef w = LLVMBuildBitCast(b, LLVMBuildFPExt(b, x, L->f32, ""), L->i32, "");
    LLVMValueRef conv = wl_bfmt_from32(L, w, bits, nfmt);
    LLVMValueRef raw16 = LLVMBuildAnd(b, is_bits(L, bits, 16),
                                      LLVMBuildOr(b, is_nf(L, nfmt, WL_NF_FLOAT), is_int(L, nfmt), ""), "");
    return LLVMBuildSelect(b, raw16, LLVMBuildAnd(b, h, wl_l_i32c(L, 0xffff), ""), conv, "");
}

LLVMValueRef wl_bfmt_dst_sel(wl_lifter *L, LLVMValueRef w3, unsigned c, LLVMValueRef one, LLVMValueRef const comp[4],
                             LLVMValueRef *reserved)
{
    LLVMBuilderRef b = L->b;
    LLVMValueRef sel = wl_lm_field(L, w3, 3 * c, 7);
    LLVMValueRef r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, sel, wl_l_i32c(L, 1), ""), one, wl_l_i32c(L, 0), "");
    for (unsigned k = 0; k < 4; k++)
        r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, sel, wl_l_i32c(L, 4 + k), ""), comp[k], r, "");
    LLVMValueRef rsv = LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntEQ, sel, wl_l_i32c(L, 2), ""),
                                   LLVMBuildICmp(b, LLVMIntEQ, sel, wl_l_i32c(L, 3), ""), "");
    *reserved = LLVMBuildOr(b, *reserved, rsv, "");
    return r;
}
