/* VALU conversions (v_cvt_*) and v_frexp_exp. Float to integer conversions
 * truncate and saturate like the hardware: NaN gives 0, values beyond the
 * range give the range's end (LLVM's fptosi/fptoui alone would be poison).
 * Float narrowing rounds to nearest even (the default mode); v_cvt_pkrtz
 * rounds toward zero. Integer to float conversions are exact or rounded to
 * nearest even. The packing conversions (v_cvt_pknorm_*, v_cvt_pk_u8_f32,
 * v_cvt_off_f32_i4) are in lift_pack_cvt below. */
#include "lift_valu_internal.h"

#include <string.h>

/* Saturating float -> integer of `bits` (32 or 16), signed or not. */
static LLVMValueRef f2i_sat(wl_vx *c, LLVMValueRef x, bool sg, unsigned bits)
{
    LLVMBuilderRef b = c->b;
    LLVMTypeRef ft = LLVMTypeOf(x);
    LLVMTypeRef it = bits == 16 ? c->L->i16 : c->L->i32;
    double lo = sg ? -(double)(1ull << (bits - 1)) : 0.0;
    double hi = sg ? (double)(1ull << (bits - 1)) : (double)(1ull << bits);
    uint64_t imax = sg ? (1ull << (bits - 1)) - 1 : (1ull << bits) - 1;
    uint64_t imin = sg ? (1ull << (bits - 1)) : 0;
    /* Clamp first so the conversion is always defined. */
    LLVMValueRef t = wl_vx_intr1(c, "llvm.trunc", x);
    LLVMValueRef ok = LLVMBuildAnd(b, LLVMBuildFCmp(b, LLVMRealOGE, t, LLVMConstReal(ft, lo), ""),
                                   LLVMBuildFCmp(b, LLVMRealOLT, t, LLVMConstReal(ft, hi), ""), "");
    LLVMValueRef safe = LLVMBuildSelect(b, ok, t, LLVMConstReal(ft, 0.0), "");
    LLVMValueRef v = sg ? LLVMBuildFPToSI(b, safe, it, "") : LLVMBuildFPToUI(b, safe, it, "");
    LLVMValueRef big = LLVMBuildFCmp(b, LLVMRealOGE, t, LLVMConstReal(ft, hi), "");
    LLVMValueRef small = LLVMBuildFCmp(b, LLVMRealOLT, t, LLVMConstReal(ft, lo), "");
    v = LLVMBuildSelect(b, big, LLVMConstInt(it, imax, 0), v, "");
    v = LLVMBuildSelect(b, small, LLVMConstInt(it, imin, 0), v, "");
    return v; /* NaN: not ok, not big, not small: 0 */
}

/* f32 -> f16 rounding toward zero. */
static LLVMValueRef f32_to_f16_rtz(wl_vx *c, LLVMValueRef x)
{
    wl_lifter *L = c->L;
    LLVMBuilderRef b = c->b;
    LLVMValueRef h = LLVMBuildFPTrunc(b, x, L->f16, "");
    LLVMValueRef back = LLVMBuildFPExt(b, h, L->f32, "");
    LLVMValueRef over = LLVMBuildFCmp(b, LLVMRealOGT, wl_vx_intr1(c, "llvm.fabs", back),
                                      wl_vx_intr1(c, "llvm.fabs", x), "");
    LLVMValueRef hb = LLVMBuildBitCast(b, h, L->i16, "");
    LLVMValueRef dec = LLVMBuildSub(b, hb, LLVMConstInt(L->i16, 1, 0), "");
    return LLVMBuildSelect(b, over, dec, hb, "");
}

static bool is(const char *a, const char *b) { return strcmp(a, b) == 0; }

/* f32 -> 16-bit normalized integer, the ISA's f32_to_snorm/f32_to_unorm:
 * NaN gives 0; x is clamped to [-1, 1] (snorm) or [0, 1] (unorm), scaled
 * by 32767 or 65535 and rounded to nearest even. The product is exact in
 * f64 (24 + 16 bits), so it is rounded once. Returns an i32 holding the
 * 16 bits. */
static LLVMValueRef f_to_norm16(wl_vx *c, LLVMValueRef x, bool sg)
{
    wl_lifter *L = c->L;
    LLVMBuilderRef b = c->b;
    LLVMValueRef d = LLVMBuildFPExt(b, x, L->f64, "");
    LLVMValueRef lo = LLVMConstReal(L->f64, sg ? -1.0 : 0.0), one = LLVMConstReal(L->f64, 1.0);
    d = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, d, one, ""), one, d, "");
    d = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, d, lo, ""), lo, d, "");
    d = LLVMBuildSelect(b, wl_vx_isnan(c, d), LLVMConstReal(L->f64, 0.0), d, "");
    d = LLVMBuildFMul(b, d, LLVMConstReal(L->f64, sg ? 32767.0 : 65535.0), "");
    d = wl_vx_intr1(c, "llvm.roundeven", d);
    LLVMValueRef i = LLVMBuildFPToSI(b, d, L->i32, "");
    return LLVMBuildAnd(b, i, wl_l_i32c(L, 0xffff), "");
}

/* V_CVT_PKNORM_I16_F32 / _U16_F32 / _I16_F16 / _U16_F16:
 *   D.u16[0] = f_to_snorm/unorm(S0), D.u16[1] = f_to_snorm/unorm(S1)
 * (f16 sources widened exactly to f32; op_sel picks their halves).
 * V_CVT_NORM_I16_F16 / _U16_F16: D.u16 = f16_to_snorm/unorm(S0), a 16-bit
 * result (the other half of D kept).
 * V_CVT_PK_U8_F32: the byte S1[1:0] of S2 replaced by f32_to_u8(S0) (NaN
 * 0, rounded to nearest even, clamped to [0, 255]):
 *   D = (S2 & ~(0xff << 8 * S1[1:0])) | (u8 << 8 * S1[1:0])
 * V_CVT_OFF_F32_I4: D.f32 = signed S0[3:0] / 16 (-0.5 .. 0.4375). */
static int lift_pack_cvt(wl_vx *c, const char *name)
{
    wl_lifter *L = c->L;
    LLVMBuilderRef b = c->b;
    if (strncmp(name, "v_cvt_pknorm_", 13) == 0) {
        bool sg = name[13] == 'i';
        wl_vt st = wl_lv_ends(name, "_f16") ? VT_F16 : VT_F32;
        LLVMValueRef r = wl_l_i32c(L, 0);
        for (unsigned i = 0; i < 2; i++) {
            LLVMValueRef x = wl_vx_src(c, i, st);
            if (st == VT_F16)
                x = LLVMBuildFPExt(b, x, L->f32, "");
            r = LLVMBuildOr(b, r, LLVMBuildShl(b, f_to_norm16(c, x, sg), wl_l_i32c(L, 16 * i), ""), "");
        }
        return wl_vx_put(c, r, VT_I32);
    }
    if (is(name, "v_cvt_norm_i16_f16") || is(name, "v_cvt_norm_u16_f16")) {
        LLVMValueRef x = LLVMBuildFPExt(b, wl_vx_src(c, 0, VT_F16), L->f32, "");
        return wl_vx_put(c, LLVMBuildTrunc(b, f_to_norm16(c, x, name[11] == 'i'), L->i16, ""), VT_I16);
    }
    if (is(name, "v_cvt_pk_u8_f32")) {
        LLVMValueRef x = LLVMBuildFPExt(b, wl_vx_src(c, 0, VT_F32), L->f64, "");
        LLVMValueRef sh = LLVMBuildShl(b, LLVMBuildAnd(b, wl_vx_src(c, 1, VT_I32), wl_l_i32c(L, 3), ""),
                                       wl_l_i32c(L, 3), "");
        LLVMValueRef hi = LLVMConstReal(L->f64, 255.0), zero = LLVMConstReal(L->f64, 0.0);
        x = wl_vx_intr1(c, "llvm.roundeven", x);
        x = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, x, hi, ""), hi, x, "");
        x = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, x, zero, ""), x, zero, ""); /* NaN: 0 */
        LLVMValueRef u8 = LLVMBuildShl(b, LLVMBuildFPToUI(b, x, L->i32, ""), sh, "");
        LLVMValueRef keep = LLVMBuildNot(b, LLVMBuildShl(b, wl_l_i32c(L, 0xff), sh, ""), "");
        return wl_vx_put(c, LLVMBuildOr(b, LLVMBuildAnd(b, wl_vx_src(c, 2, VT_I32), keep, ""), u8, ""), VT_I32);
    }
    if (is(name, "v_cvt_off_f32_i4")) {
        LLVMValueRef n = LLVMBuildAShr(b, LLVMBuildShl(b, wl_vx_src(c, 0, VT_I32), wl_l_i32c(L, 28), ""),
                                       wl_l_i32c(L, 28), "");
        LLVMValueRef f = LLVMBuildFMul(b, LLVMBuildSIToFP(b, n, L->f32, ""), LLVMConstReal(L->f32, 0.0625), "");
        return wl_vx_put(c, f, VT_F32);
    }
    return -1;
}

int wl_lv_cvt(wl_vx *c, const char *name)
{
    wl_lifter *L = c->L;
    LLVMBuilderRef b = c->b;
    if (strncmp(name, "v_frexp_exp_", 12) == 0) {
        wl_vt st = is(name, "v_frexp_exp_i16_f16") ? VT_F16
                   : is(name, "v_frexp_exp_i32_f64") ? VT_F64 : VT_F32;
        LLVMValueRef a = wl_vx_src(c, 0, st);
        LLVMValueRef m, e; /* inf and NaN: 0 (lift_valu_scale.c) */
        wl_vx_frexp(c, st, a, &m, &e);
        if (st == VT_F16)
            return wl_vx_put(c, LLVMBuildTrunc(b, e, L->i16, ""), VT_I16);
        return wl_vx_put(c, e, VT_I32);
    }
    if (strncmp(name, "v_cvt_", 6) != 0)
        return -1;
    if (!c->in->f.v.clamp) {
        int r = lift_pack_cvt(c, name);
        if (r >= 0)
            return r;
    }
    if (c->in->f.v.clamp && !(is(name, "v_cvt_f32_f64") || is(name, "v_cvt_f64_f32") ||
                              is(name, "v_cvt_f16_f32") || is(name, "v_cvt_f32_f16") ||
                              strncmp(name, "v_cvt_f32_i", 11) == 0 || strncmp(name, "v_cvt_f32_u", 11) == 0 ||
                              strncmp(name, "v_cvt_f64_", 10) == 0))
        return wl_l_refuse(L, "clamp on this conversion not lifted");
    /* float <- integer */
    static const struct { const char *n; wl_vt d, s; bool sg; } i2f[] = {
        {"v_cvt_f32_i32", VT_F32, VT_I32, true},  {"v_cvt_f32_u32", VT_F32, VT_I32, false},
        {"v_cvt_f64_i32", VT_F64, VT_I32, true},  {"v_cvt_f64_u32", VT_F64, VT_I32, false},
        {"v_cvt_f16_i16", VT_F16, VT_I16, true},  {"v_cvt_f16_u16", VT_F16, VT_I16, false},
    };
    for (size_t i = 0; i < sizeof i2f / sizeof i2f[0]; i++)
        if (is(name, i2f[i].n)) {
            LLVMValueRef a = wl_vx_src(c, 0, i2f[i].s);
            LLVMTypeRef ft = LLVMTypeOf(wl_vx_fconst(c, i2f[i].d, 0));
            LLVMValueRef r = i2f[i].sg ? LLVMBuildSIToFP(b, a, ft, "") : LLVMBuildUIToFP(b, a, ft, "");
            return wl_vx_put(c, r, i2f[i].d);
        }
    static const struct { const char *n; wl_vt d, s; bool sg; } f2i[] = {
        {"v_cvt_i32_f32", VT_I32, VT_F32, true},  {"v_cvt_u32_f32", VT_I32, VT_F32, false},
        {"v_cvt_i32_f64", VT_I32, VT_F64, true},  {"v_cvt_u32_f64", VT_I32, VT_F64, false},
        {"v_cvt_i16_f16", VT_I16, VT_F16, true},  {"v_cvt_u16_f16", VT_I16, VT_F16, false},
    };
    for (size_t i = 0; i < sizeof f2i / sizeof f2i[0]; i++)
        if (is(name, f2i[i].n)) {
            LLVMValueRef a = wl_vx_src(c, 0, f2i[i].s);
            return wl_vx_put(c, f2i_sat(c, a, f2i[i].sg, wl_vx_bits(f2i[i].d)), f2i[i].d);
        }
    static const struct { const char *n; wl_vt d, s; } f2f[] = {
        {"v_cvt_f32_f64", VT_F32, VT_F64}, {"v_cvt_f64_f32", VT_F64, VT_F32},
        {"v_cvt_f16_f32", VT_F16, VT_F32}, {"v_cvt_f32_f16", VT_F32, VT_F16},
    };
    for (size_t i = 0; i < sizeof f2f / sizeof f2f[0]; i++)
        if (is(name, f2f[i].n)) {
            LLVMValueRef a = wl_vx_src(c, 0, f2f[i].s);
            LLVMTypeRef ft = LLVMTypeOf(wl_vx_fconst(c, f2f[i].d, 0));
            LLVMValueRef r = wl_vx_bits(f2f[i].d) > wl_vx_bits(f2f[i].s) ? LLVMBuildFPExt(b, a, ft, "")
                                                                        : LLVMBuildFPTrunc(b, a, ft, "");
            return wl_vx_put(c, r, f2f[i].d);
        }
    if (strncmp(name, "v_cvt_f32_ubyte", 15) == 0 && name[15] >= '0' && name[15] <= '3' && !name[16]) {
        LLVMValueRef a = wl_vx_src(c, 0, VT_I32);
        LLVMValueRef x = LLVMBuildAnd(b, LLVMBuildLShr(b, a, wl_l_i32c(L, 8u * (unsigned)(name[15] - '0')), ""),
                                      wl_l_i32c(L, 0xff), "");
        return wl_vx_put(c, LLVMBuildUIToFP(b, x, L->f32, ""), VT_F32);
    }
    if (is(name, "v_cvt_flr_i32_f32") || is(name, "v_cvt_rpi_i32_f32")) {
        LLVMValueRef a = wl_vx_src(c, 0, VT_F32);
        if (name[6] == 'r')
            a = LLVMBuildFAdd(b, a, LLVMConstReal(L->f32, 0.5), "");
        a = wl_vx_intr1(c, "llvm.floor", a);
        return wl_vx_put(c, f2i_sat(c, a, true, 32), VT_I32);
    }
    if (is(name, "v_cvt_pkrtz_f16_f32")) {
        /* the halves are f16 results: flushed per the f16 denormal mode */
        LLVMValueRef lo = wl_vx_flush_out(c, VT_F16, f32_to_f16_rtz(c, wl_vx_src(c, 0, VT_F32)));
        LLVMValueRef hi = wl_vx_flush_out(c, VT_F16, f32_to_f16_rtz(c, wl_vx_src(c, 1, VT_F32)));
        LLVMValueRef r = LLVMBuildOr(b, LLVMBuildZExt(b, lo, L->i32, ""),
                                     LLVMBuildShl(b, LLVMBuildZExt(b, hi, L->i32, ""), wl_l_i32c(L, 16), ""), "");
        return wl_vx_put(c, r, VT_I32);
    }
    if (is(name, "v_cvt_pk_u16_u32") || is(name, "v_cvt_pk_i16_i32")) {
        bool sg = name[9] == 'i';
        LLVMValueRef r = wl_l_i32c(L, 0);
        for (unsigned i = 0; i < 2; i++) {
            LLVMValueRef x = wl_vx_src(c, i, VT_I32);
            if (sg)
                x = wl_vx_intr2(c, "llvm.smax", wl_vx_intr2(c, "llvm.smin", x, wl_l_i32c(L, 0x7fff)),
                                wl_l_i32c(L, 0xffff8000u));
            else
                x = wl_vx_intr2(c, "llvm.umin", x, wl_l_i32c(L, 0xffff));
            x = LLVMBuildAnd(b, x, wl_l_i32c(L, 0xffff), "");
            r = LLVMBuildOr(b, r, LLVMBuildShl(b, x, wl_l_i32c(L, 16 * i), ""), "");
        }
        return wl_vx_put(c, r, VT_I32);
    }
    return wl_l_refuse(L, "conversion not lifted yet");
}
