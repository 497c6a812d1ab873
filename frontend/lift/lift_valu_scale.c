/* Exact power-of-two scaling for the VALU lifter: ldexp and frexp on f16,
 * f32, f64, built from bit operations and multiplications by exact powers
 * of two, so the result does not depend on the host's Ldexp/Frexp (Vulkan
 * lets those ignore subnormals, and lavapipe's Frexp does: the f32 division
 * macro v_frexp_mant/v_frexp_exp/v_rcp/v_ldexp then went wrong by powers of
 * two for subnormal operands and results).
 *
 * ldexp(x, n) (musl's scalbn; f16 goes through f32 with n clamped to
 *   [-64, 64], where the product is exact and the narrowing rounds once): while n is beyond the normal exponent range,
 *   multiply by 2^emaxn (n > emaxn) or 2^(eminn + p) (n < eminn; p the
 *   precision, so the intermediate stays exact), at most twice, then clamp
 *   n to [eminn, emaxn] and multiply by 2^n built from its bits. Only the
 *   last multiplication rounds (once, to nearest even, subnormals kept):
 *   the correctly rounded ldexp. NaN gives a quiet NaN, inf and 0 themselves.
 * frexp(x): 0, inf, NaN give mantissa x + x (quiet NaN) and exponent 0; a
 *   subnormal x is first multiplied by 2^(p+1) (exact); then the mantissa
 *   is x with its exponent field set to bias - 1 (|m| in [0.5, 1)) and the
 *   exponent is the field - (bias - 1) (- (p + 1) for a subnormal).
 * Both need the host to keep subnormal inputs and outputs of a
 * multiplication (docs/lift-valu.md, "Float mode assumed"). */
#include "lift_valu_internal.h"

typedef struct sfmt {
    unsigned w, mb; /* width, fraction bits */
    int bias, emax; /* exponent bias, all-ones exponent field */
} sfmt;

static sfmt fmt_of(wl_vt t)
{
    return t == VT_F16 ? (sfmt){16, 10, 15, 31} : t == VT_F32 ? (sfmt){32, 23, 127, 255} : (sfmt){64, 52, 1023, 2047};
}

/* 2^k as a constant of type t; k in the normal range */
static LLVMValueRef pow2(wl_vx *c, wl_vt t, int k)
{
    sfmt f = fmt_of(t);
    return wl_vx_const(c, t, (uint64_t)(k + f.bias) << f.mb);
}

static LLVMValueRef i32c(wl_vx *c, int v) { return wl_l_i32c(c->L, (uint32_t)v); }

LLVMValueRef wl_vx_ldexp(wl_vx *c, wl_vt t, LLVMValueRef x, LLVMValueRef n)
{
    LLVMBuilderRef b = c->b;
    if (t == VT_F16) {
        /* in f32, where every f16 value times 2^n, |n| <= 64, is exact: the
         * narrowing is the one rounding */
        LLVMValueRef lim = i32c(c, 64);
        n = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, n, lim, ""), lim, n, "");
        n = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, n, i32c(c, -64), ""), i32c(c, -64), n, "");
        LLVMValueRef r = wl_vx_ldexp(c, VT_F32, LLVMBuildFPExt(b, x, c->L->f32, ""), n);
        return LLVMBuildFPTrunc(b, r, wl_vx_ty(c, VT_F16), "");
    }
    sfmt f = fmt_of(t);
    int hi = f.bias, lo = 1 - f.bias, down = lo + (int)f.mb + 1;
    for (int k = 0; k < 2; k++) {
        LLVMValueRef big = LLVMBuildICmp(b, LLVMIntSGT, n, i32c(c, hi), "");
        LLVMValueRef small = LLVMBuildICmp(b, LLVMIntSLT, n, i32c(c, lo), "");
        LLVMValueRef m = LLVMBuildSelect(b, big, pow2(c, t, hi),
                                         LLVMBuildSelect(b, small, pow2(c, t, down), wl_vx_fconst(c, t, 1.0), ""), "");
        LLVMValueRef d = LLVMBuildSelect(b, big, i32c(c, -hi), LLVMBuildSelect(b, small, i32c(c, -down), i32c(c, 0), ""), "");
        x = LLVMBuildFMul(b, x, m, "");
        n = LLVMBuildAdd(b, n, d, "");
    }
    n = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, n, i32c(c, hi), ""), i32c(c, hi), n, "");
    n = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, n, i32c(c, lo), ""), i32c(c, lo), n, "");
    LLVMTypeRef it = wl_vx_ity(c, t);
    LLVMValueRef e = LLVMBuildAdd(b, n, i32c(c, f.bias), "");
    e = f.w == 64 ? LLVMBuildZExt(b, e, it, "") : f.w == 16 ? LLVMBuildTrunc(b, e, it, "") : e;
    LLVMValueRef s = LLVMBuildBitCast(b, LLVMBuildShl(b, e, LLVMConstInt(it, f.mb, 0), ""), wl_vx_ty(c, t), "");
    return LLVMBuildFMul(b, x, s, "");
}

void wl_vx_frexp(wl_vx *c, wl_vt t, LLVMValueRef x, LLVMValueRef *mant, LLVMValueRef *exp)
{
    LLVMBuilderRef b = c->b;
    sfmt f = fmt_of(t);
    LLVMTypeRef it = wl_vx_ity(c, t), ft = wl_vx_ty(c, t);
    uint64_t emask = (uint64_t)f.emax << f.mb;
    LLVMValueRef xb = LLVMBuildBitCast(b, x, it, "");
    LLVMValueRef ef = LLVMBuildAnd(b, xb, LLVMConstInt(it, emask, 0), "");
    LLVMValueRef ax = LLVMBuildAnd(b, xb, LLVMConstInt(it, (1ull << (f.w - 1)) - 1, 0), "");
    LLVMValueRef zero = LLVMBuildICmp(b, LLVMIntEQ, ax, LLVMConstInt(it, 0, 0), "");
    LLVMValueRef special = LLVMBuildOr(b, zero, LLVMBuildICmp(b, LLVMIntEQ, ef, LLVMConstInt(it, emask, 0), ""), "");
    LLVMValueRef sub = LLVMBuildAnd(b, LLVMBuildNot(b, zero, ""),
                                    LLVMBuildICmp(b, LLVMIntEQ, ef, LLVMConstInt(it, 0, 0), ""), "");
    LLVMValueRef y = LLVMBuildSelect(b, sub, LLVMBuildFMul(b, x, pow2(c, t, (int)f.mb + 1), ""), x, "");
    LLVMValueRef yb = LLVMBuildBitCast(b, y, it, "");
    LLVMValueRef ye = LLVMBuildLShr(b, LLVMBuildAnd(b, yb, LLVMConstInt(it, emask, 0), ""), LLVMConstInt(it, f.mb, 0), "");
    ye = f.w == 64 ? LLVMBuildTrunc(b, ye, c->L->i32, "") : f.w == 16 ? LLVMBuildZExt(b, ye, c->L->i32, "") : ye;
    LLVMValueRef e = LLVMBuildSub(b, ye, i32c(c, f.bias - 1), "");
    e = LLVMBuildSub(b, e, LLVMBuildSelect(b, sub, i32c(c, (int)f.mb + 1), i32c(c, 0), ""), "");
    LLVMValueRef mb = LLVMBuildOr(b, LLVMBuildAnd(b, yb, LLVMConstInt(it, ~emask, 0), ""),
                                  LLVMConstInt(it, (uint64_t)(f.bias - 1) << f.mb, 0), "");
    LLVMValueRef m = LLVMBuildBitCast(b, mb, ft, "");
    *mant = LLVMBuildSelect(b, special, LLVMBuildFAdd(b, x, x, ""), m, "");
    *exp = LLVMBuildSelect(b, special, i32c(c, 0), e, "");
}

/* fma of three f16 values, rounded once: the f64 fma (here the f64 sum of
 * the exact product and c) is exact whenever the
 * f16 result is finite (the product has 22 bits, and the terms span at
 * most 2^17 .. 2^-48, where a lost low part only ever acts as a sticky
 * bit), then f64 -> f32 rounds to odd (RNE, one step toward zero where it
 * grew, the last bit set where inexact: f32's 24 bits keep the f16 rounding
 * decision) and f32 -> f16 rounds to nearest even. llvm.fma.f16 itself is
 * often done in f32 and rounded twice (x86, lavapipe). */
LLVMValueRef wl_vx_fma16(wl_vx *c, LLVMValueRef a, LLVMValueRef b2, LLVMValueRef d)
{
    LLVMBuilderRef b = c->b;
    wl_lifter *L = c->L;
    LLVMTypeRef f64 = L->f64;
    /* a*b has at most 22 bits: exact in f64, so the f64 fma is the f64 sum
     * of the product and c (fused or not, contracted or not: the same
     * value), without the exact f64 fma routine */
    LLVMValueRef p = LLVMBuildFMul(b, LLVMBuildFPExt(b, a, f64, ""), LLVMBuildFPExt(b, b2, f64, ""), "");
    LLVMValueRef r = LLVMBuildFAdd(b, p, LLVMBuildFPExt(b, d, f64, ""), "");
    LLVMValueRef s = LLVMBuildFPTrunc(b, r, L->f32, "");
    LLVMValueRef back = LLVMBuildFPExt(b, s, f64, "");
    LLVMValueRef grew = LLVMBuildFCmp(b, LLVMRealOGT, wl_vx_intr1(c, "llvm.fabs", back), wl_vx_intr1(c, "llvm.fabs", r), "");
    LLVMValueRef inexact = LLVMBuildFCmp(b, LLVMRealONE, back, r, "");
    LLVMValueRef sb = LLVMBuildBitCast(b, s, L->i32, "");
    sb = LLVMBuildSelect(b, grew, LLVMBuildSub(b, sb, wl_l_i32c(L, 1), ""), sb, "");
    sb = LLVMBuildSelect(b, inexact, LLVMBuildOr(b, sb, wl_l_i32c(L, 1), ""), sb, "");
    /* NaN: the f32 NaN itself (not inexact: ONE is false) */
    return LLVMBuildFPTrunc(b, LLVMBuildBitCast(b, sb, L->f32, ""), L->f16, "");
}
