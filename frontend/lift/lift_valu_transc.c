/* v_log_f32 and v_exp_f32 computed in f64 from adds and multiplies, so the
 * result does not depend on the host's Log2/Exp2 (Vulkan allows Log2 an
 * absolute error of 2^-21 near 1, which lavapipe uses: OpenCL log(x) near 1
 * was then 20-40 ulp off).
 *
 * log2(x), x an f32 (subnormals too): x = m * 2^e (exact frexp in f64,
 *   lift_valu_scale.c), m in [sqrt(1/2), sqrt(2)); s = (m - 1) / (m + 1),
 *   |s| <= 0.1716; ln(m) = 2 (s + s^3/3 + ... + s^17/17) (truncation below
 *   s^19/19 * 2 < 2^-50 relative), log2(x) = e + ln(m) / ln 2. The f64
 *   rounding errors are below 2^-48 relative, so the f32 result is within
 *   0.5 ulp + 2^-24 ulp: correctly rounded unless the exact value lies
 *   that close to a midpoint (the hardware's own is 1 ulp). x < 0 or -inf:
 *   NaN; +-0: -inf; +inf: +inf; NaN: quiet NaN. Exact powers of two give
 *   their exponent exactly.
 * exp2(x): x clamped to [-200, 200] (the f32 result is 0 or inf beyond),
 *   n = rint(x), f = x - n in [-1/2, 1/2] (exact), 2^f = sum_{k<=12}
 *   (f ln2)^k / k! (truncation < 2^-52 relative), times 2^n built from its
 *   bits (exact in f64), one rounding to f32 (subnormal results rounded
 *   once). Within 0.5 ulp + 2^-24 ulp like log2. NaN: quiet NaN; -inf: 0;
 *   +inf: inf. */
#include "lift_valu_internal.h"

#define LN2 0.6931471805599453094

static LLVMValueRef dc(wl_vx *c, double v) { return LLVMConstReal(c->L->f64, v); }

LLVMValueRef wl_vx_log2_f32(wl_vx *c, LLVMValueRef x)
{
    LLVMBuilderRef b = c->b;
    wl_lifter *L = c->L;
    LLVMValueRef xd = LLVMBuildFPExt(b, x, L->f64, ""), m, e;
    wl_vx_frexp(c, VT_F64, xd, &m, &e); /* m in [0.5, 1) for finite non-zero x */
    LLVMValueRef lo = LLVMBuildFCmp(b, LLVMRealOLT, wl_vx_intr1(c, "llvm.fabs", m), dc(c, 0.70710678118654752440), "");
    m = LLVMBuildSelect(b, lo, LLVMBuildFMul(b, m, dc(c, 2.0), ""), m, "");
    e = LLVMBuildSub(b, e, LLVMBuildZExt(b, lo, L->i32, ""), "");
    LLVMValueRef s = LLVMBuildFDiv(b, LLVMBuildFSub(b, m, dc(c, 1.0), ""), LLVMBuildFAdd(b, m, dc(c, 1.0), ""), "");
    LLVMValueRef s2 = LLVMBuildFMul(b, s, s, "");
    LLVMValueRef p = dc(c, 1.0 / 17);
    for (int k = 15; k >= 1; k -= 2)
        p = LLVMBuildFAdd(b, LLVMBuildFMul(b, p, s2, ""), dc(c, 1.0 / k), "");
    /* ln(m) / ln2 = s * p * (2 / ln2) */
    LLVMValueRef l = LLVMBuildFMul(b, LLVMBuildFMul(b, s, p, ""), dc(c, 2.0 / LN2), "");
    LLVMValueRef r = LLVMBuildFAdd(b, LLVMBuildSIToFP(b, e, L->f64, ""), l, "");
    LLVMValueRef rf = LLVMBuildFPTrunc(b, r, L->f32, "");
    /* the special cases, from the last to the first */
    LLVMValueRef zero = wl_vx_fconst(c, VT_F32, 0.0);
    LLVMValueRef inf = wl_vx_const(c, VT_F32, 0x7f800000u), ninf = wl_vx_const(c, VT_F32, 0xff800000u);
    LLVMValueRef nan = wl_vx_const(c, VT_F32, 0x7fc00000u);
    rf = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOEQ, x, inf, ""), inf, rf, "");
    rf = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, x, zero, ""), nan, rf, "");
    rf = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOEQ, x, zero, ""), ninf, rf, "");
    return LLVMBuildSelect(b, wl_vx_isnan(c, x), LLVMBuildFAdd(b, x, x, ""), rf, "");
}

LLVMValueRef wl_vx_exp2_f32(wl_vx *c, LLVMValueRef x)
{
    LLVMBuilderRef b = c->b;
    wl_lifter *L = c->L;
    LLVMValueRef xd = LLVMBuildFPExt(b, x, L->f64, "");
    xd = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, xd, dc(c, 200.0), ""), dc(c, 200.0), xd, "");
    xd = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, xd, dc(c, -200.0), ""), dc(c, -200.0), xd, "");
    LLVMValueRef nan = wl_vx_isnan(c, x);
    xd = LLVMBuildSelect(b, nan, dc(c, 0.0), xd, ""); /* keeps the conversion below defined */
    LLVMValueRef nd = wl_vx_intr1(c, "llvm.roundeven", xd);
    LLVMValueRef f = LLVMBuildFMul(b, LLVMBuildFSub(b, xd, nd, ""), dc(c, LN2), "");
    double fact = 1.0;
    for (int k = 2; k <= 12; k++)
        fact *= k;
    LLVMValueRef p = dc(c, 1.0 / fact);
    for (int k = 11; k >= 0; k--) {
        fact /= (k + 1);
        p = LLVMBuildFAdd(b, LLVMBuildFMul(b, p, f, ""), dc(c, 1.0 / fact), "");
    }
    LLVMValueRef n = LLVMBuildFPToSI(b, nd, L->i32, "");
    LLVMValueRef pb = LLVMBuildShl(b, LLVMBuildZExt(b, LLVMBuildAdd(b, n, wl_l_i32c(L, 1023), ""), L->i64, ""),
                                   wl_l_i64c(L, 52), "");
    LLVMValueRef r = LLVMBuildFMul(b, p, LLVMBuildBitCast(b, pb, L->f64, ""), "");
    LLVMValueRef rf = LLVMBuildFPTrunc(b, r, L->f32, "");
    return LLVMBuildSelect(b, nan, LLVMBuildFAdd(b, x, x, ""), rf, "");
}
