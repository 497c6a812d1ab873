/* llvm.fma.*: a correctly rounded fused multiply-add on every device.
 *
 * GLSL.std.450 Fma is not required to be fused by Vulkan (its precision is
 * "inherited from OpFMul followed by OpFAdd"; VK_KHR_shader_fma exists for
 * exactly that reason), and lavapipe rounds a*b and then +c. So unless
 * wl_emit_options.fused_fma_native says the device's Fma is fused, the
 * emitter computes it exactly:
 *   f32 and f16: through the wider format (f64, f32) with an error-free sum
 *     rounded to odd (fma_widened below; a dozen wide operations; f32 fma
 *     therefore needs Float64).
 *   f64: on the integer bits (fused_core below; generic in the format's
 *     widths), so no float mode of the device (denormal flushing, rounding
 *     mode, contraction) can change the result:
 *
 *   special: any of a, b, c infinite or NaN: the result is c when a, b are
 *            finite (c infinite: the exact product is finite), else the
 *            native a*b + c (every such result is an infinity or a NaN,
 *            no rounding happens). The NaN's payload is the device's.
 *   a or b zero: the result is c exactly when c is not a zero, else a zero
 *            whose sign is negative only when both a*b and c are (RNE).
 *   otherwise, with x = m * 2^(e - bias - M) (m with the implicit bit, e the
 *   exponent field, 1 for subnormals):
 *     P = ma * mb exactly (at most 106 bits) in a 128-bit pair of u64s,
 *     P and mc are shifted so their top bit is bit 126 (one bit of headroom
 *     for the carry), the operand of smaller magnitude (exponent, then
 *     value) is shifted right by the exponent difference with every bit
 *     shifted out ORed into bit 0 (sticky), then added or subtracted
 *     (different signs) from the larger; the sign is the larger's, an exact
 *     zero is +0. The sum is normalized (top bit 127), folded to 64 bits
 *     (low 64 bits ORed into bit 0), and rounded to nearest even at the
 *     format's precision, the shift growing below the normal range
 *     (subnormals, and zero below half the smallest subnormal); the
 *     biased exponent is added as (be - 1) << M so a rounding carry moves
 *     into the exponent; be >= the all-ones exponent, or a carry into it,
 *     gives infinity.
 *   Why one sticky bit is enough: both operands have at most 106
 *   significant bits starting at bit 126, so a shift by 0 or 1 loses
 *   nothing and the subtraction is exact; with a shift >= 2 the difference
 *   loses at most one leading bit, leaving >= 125 bits, far more than the
 *   M + 2 that rounding looks at above the sticky bit (the usual
 *   guard/round/sticky argument).
 *
 * f16 and f32 vectors are computed as vectors (the same operations, one
 * instruction for all elements); f64 vectors element by element. llvm.fmuladd stays GLSL Fma:
 * LangRef leaves it unspecified whether it rounds between the multiply and
 * the add. */
#include "be.h"

typedef struct fx {
    wl_em *e;
    uint32_t u64, u32, i32, bt;
} fx;

typedef struct u128 {
    uint32_t h, l;
} u128;

static uint32_t c64(fx *f, uint64_t v) { return wl_c_int(f->e, 64, v); }
static uint32_t ci(fx *f, int32_t v) { return wl_c_int(f->e, 32, (uint32_t)v); }
static uint32_t sel(fx *f, uint32_t ty, uint32_t c, uint32_t a, uint32_t b)
{
    return OP(f->e, SpvOpSelect, ty, c, a, b);
}
static uint32_t band(fx *f, uint32_t a, uint32_t b) { return OP(f->e, SpvOpLogicalAnd, f->bt, a, b); }
static uint32_t bor(fx *f, uint32_t a, uint32_t b) { return OP(f->e, SpvOpLogicalOr, f->bt, a, b); }
static uint32_t bnot(fx *f, uint32_t a) { return OP(f->e, SpvOpLogicalNot, f->bt, a); }
static uint32_t eq64(fx *f, uint32_t a, uint32_t b) { return OP(f->e, SpvOpIEqual, f->bt, a, b); }
static uint32_t nz64(fx *f, uint32_t a) { return OP(f->e, SpvOpINotEqual, f->bt, a, c64(f, 0)); }
static uint32_t or64(fx *f, uint32_t a, uint32_t b) { return OP(f->e, SpvOpBitwiseOr, f->u64, a, b); }
static uint32_t and64(fx *f, uint32_t a, uint32_t b) { return OP(f->e, SpvOpBitwiseAnd, f->u64, a, b); }

/* x << s and x >> s for any u32 s: 0 when s >= 64 */
static uint32_t shl(fx *f, uint32_t x, uint32_t s)
{
    uint32_t r = OP(f->e, SpvOpShiftLeftLogical, f->u64, x, OP(f->e, SpvOpBitwiseAnd, f->u32, s, ci(f, 63)));
    return sel(f, f->u64, OP(f->e, SpvOpULessThan, f->bt, s, ci(f, 64)), r, c64(f, 0));
}
static uint32_t shr(fx *f, uint32_t x, uint32_t s)
{
    uint32_t r = OP(f->e, SpvOpShiftRightLogical, f->u64, x, OP(f->e, SpvOpBitwiseAnd, f->u32, s, ci(f, 63)));
    return sel(f, f->u64, OP(f->e, SpvOpULessThan, f->bt, s, ci(f, 64)), r, c64(f, 0));
}
static uint32_t sub32(fx *f, uint32_t a, uint32_t b) { return OP(f->e, SpvOpISub, f->u32, a, b); }
static uint32_t add32(fx *f, uint32_t a, uint32_t b) { return OP(f->e, SpvOpIAdd, f->u32, a, b); }

/* leading zeros of a u32 (32 for 0): 31 - FindUMsb (-1 for 0) */
static uint32_t clz32(fx *f, uint32_t x)
{
    return sub32(f, ci(f, 31), wl_glsl(f->e, f->u32, GLSLFindUMsb, WL_OPS(x)));
}
static uint32_t clz64(fx *f, uint32_t x)
{
    uint32_t lo = OP(f->e, SpvOpUConvert, f->u32, x);
    uint32_t hi = OP(f->e, SpvOpUConvert, f->u32, OP(f->e, SpvOpShiftRightLogical, f->u64, x, ci(f, 32)));
    uint32_t hz = OP(f->e, SpvOpIEqual, f->bt, hi, ci(f, 0));
    return sel(f, f->u32, hz, add32(f, ci(f, 32), clz32(f, lo)), clz32(f, hi));
}
static uint32_t clz128(fx *f, u128 x)
{
    return sel(f, f->u32, eq64(f, x.h, c64(f, 0)), add32(f, ci(f, 64), clz64(f, x.l)), clz64(f, x.h));
}

/* x << s, s in [0, 127] */
static u128 shl128(fx *f, u128 x, uint32_t s)
{
    u128 r;
    uint32_t s64 = sub32(f, s, ci(f, 64)), i64 = sub32(f, ci(f, 64), s);
    r.h = or64(f, or64(f, shl(f, x.h, s), shr(f, x.l, i64)), shl(f, x.l, s64));
    r.l = shl(f, x.l, s);
    return r;
}
/* x >> s for any s, the bits shifted out ORed into bit 0 */
static u128 shr128_sticky(fx *f, u128 x, uint32_t s)
{
    u128 r;
    uint32_t s64 = sub32(f, s, ci(f, 64)), i64 = sub32(f, ci(f, 64), s);
    r.h = shr(f, x.h, s);
    r.l = or64(f, or64(f, shr(f, x.l, s), shl(f, x.h, i64)), shr(f, x.h, s64));
    u128 back = shl128(f, r, OP(f->e, SpvOpBitwiseAnd, f->u32, s, ci(f, 127)));
    uint32_t exact = band(f, eq64(f, back.h, x.h), eq64(f, back.l, x.l));
    /* s >= 128: back is not x >> s << s; nothing is left unless x was 0 */
    uint32_t big = OP(f->e, SpvOpUGreaterThanEqual, f->bt, s, ci(f, 128));
    exact = sel(f, f->bt, big, band(f, bnot(f, nz64(f, x.h)), bnot(f, nz64(f, x.l))), exact);
    r.l = or64(f, r.l, sel(f, f->u64, exact, c64(f, 0), c64(f, 1)));
    return r;
}
static u128 sel128(fx *f, uint32_t c, u128 a, u128 b)
{
    u128 r = {sel(f, f->u64, c, a.h, b.h), sel(f, f->u64, c, a.l, b.l)};
    return r;
}
static u128 add128(fx *f, u128 a, u128 b)
{
    u128 r;
    r.l = OP(f->e, SpvOpIAdd, f->u64, a.l, b.l);
    uint32_t carry = sel(f, f->u64, OP(f->e, SpvOpULessThan, f->bt, r.l, a.l), c64(f, 1), c64(f, 0));
    r.h = OP(f->e, SpvOpIAdd, f->u64, OP(f->e, SpvOpIAdd, f->u64, a.h, b.h), carry);
    return r;
}
static u128 sub128(fx *f, u128 a, u128 b)
{
    u128 r;
    r.l = OP(f->e, SpvOpISub, f->u64, a.l, b.l);
    uint32_t borrow = sel(f, f->u64, OP(f->e, SpvOpULessThan, f->bt, a.l, b.l), c64(f, 1), c64(f, 0));
    r.h = OP(f->e, SpvOpISub, f->u64, OP(f->e, SpvOpISub, f->u64, a.h, b.h), borrow);
    return r;
}
static uint32_t ugt128(fx *f, u128 a, u128 b)
{
    uint32_t hgt = OP(f->e, SpvOpUGreaterThan, f->bt, a.h, b.h);
    return bor(f, hgt, band(f, eq64(f, a.h, b.h), OP(f->e, SpvOpUGreaterThan, f->bt, a.l, b.l)));
}

/* One operand's fields, from its bits widened to u64. */
typedef struct fparts {
    uint32_t sign;   /* bool */
    uint32_t exp;    /* i32: the exponent field, 1 for subnormals and zeros */
    uint32_t mant;   /* u64: with the implicit bit */
    uint32_t finite; /* bool */
    uint32_t zero;   /* bool */
} fparts;

static fparts split(fx *f, uint32_t x, unsigned w, unsigned mbits, unsigned ebits)
{
    fparts p;
    uint64_t fmask = (1ull << mbits) - 1, emask = (1ull << ebits) - 1;
    p.sign = nz64(f, shr(f, x, ci(f, (int32_t)w - 1)));
    uint32_t fld = and64(f, shr(f, x, ci(f, (int32_t)mbits)), c64(f, emask));
    uint32_t frac = and64(f, x, c64(f, fmask));
    uint32_t fz = eq64(f, fld, c64(f, 0));
    p.finite = OP(f->e, SpvOpINotEqual, f->bt, fld, c64(f, emask));
    p.zero = band(f, fz, eq64(f, frac, c64(f, 0)));
    p.exp = sel(f, f->i32, fz, ci(f, 1), OP(f->e, SpvOpUConvert, f->u32, fld));
    p.mant = sel(f, f->u64, fz, frac, or64(f, frac, c64(f, 1ull << mbits)));
    return p;
}

/* The fused result's bits (u64) for finite a, b, c with a*b != 0. */
static uint32_t fused_core(fx *f, fparts a, fparts b, fparts c, unsigned mbits, unsigned ebits)
{
    wl_em *e = f->e;
    int32_t bias = (1 << (ebits - 1)) - 1, emax = (1 << ebits) - 1;
    uint32_t i32 = f->i32;
    uint32_t pm = OP(e, SpvOpUMulExtended, wl_ty_struct2(e, f->u64, f->u64), a.mant, b.mant);
    u128 P = {OP(e, SpvOpCompositeExtract, f->u64, pm, 1), OP(e, SpvOpCompositeExtract, f->u64, pm, 0)};
    u128 C = {c64(f, 0), c.mant};
    /* value(P) = P * 2^EP, value(C) = C * 2^EC */
    uint32_t EP = OP(e, SpvOpISub, i32, OP(e, SpvOpIAdd, i32, a.exp, b.exp), ci(f, 2 * (bias + (int32_t)mbits)));
    uint32_t EC = OP(e, SpvOpISub, i32, c.exp, ci(f, bias + (int32_t)mbits));
    /* top bit to bit 126 (C may be 0: its shift is then meaningless) */
    uint32_t sP = sub32(f, clz128(f, P), ci(f, 1));
    uint32_t sC = OP(e, SpvOpBitwiseAnd, f->u32, sub32(f, clz128(f, C), ci(f, 1)), ci(f, 127));
    u128 X = shl128(f, P, sP), Y = shl128(f, C, sC);
    uint32_t EX = OP(e, SpvOpISub, i32, EP, sP), EY = OP(e, SpvOpISub, i32, EC, sC);
    /* c the larger in magnitude */
    uint32_t cbig = band(f, bnot(f, c.zero),
                         bor(f, OP(e, SpvOpSGreaterThan, f->bt, EY, EX),
                             band(f, OP(e, SpvOpIEqual, f->bt, EY, EX), ugt128(f, Y, X))));
    u128 zero = {c64(f, 0), c64(f, 0)};
    u128 big = sel128(f, cbig, Y, X);
    u128 small = sel128(f, cbig, X, sel128(f, c.zero, zero, Y));
    uint32_t Eb = sel(f, i32, cbig, EY, EX), Es = sel(f, i32, cbig, EX, EY);
    uint32_t d = wl_glsl(e, i32, GLSLSClamp, WL_OPS(OP(e, SpvOpISub, i32, Eb, Es), ci(f, 0), ci(f, 200)));
    small = shr128_sticky(f, small, d);
    uint32_t psign = OP(e, SpvOpLogicalNotEqual, f->bt, a.sign, b.sign);
    uint32_t sub = OP(e, SpvOpLogicalNotEqual, f->bt, psign, c.sign);
    u128 R = sel128(f, sub, sub128(f, big, small), add128(f, big, small));
    uint32_t sign = sel(f, f->bt, cbig, c.sign, psign);
    uint32_t rzero = band(f, eq64(f, R.h, c64(f, 0)), eq64(f, R.l, c64(f, 0)));
    /* normalize: top bit 127; value = R * 2^(Eb - n), exponent 127 + Eb - n */
    uint32_t n = OP(e, SpvOpBitwiseAnd, f->u32, clz128(f, R), ci(f, 127));
    R = shl128(f, R, n);
    uint32_t R64 = or64(f, R.h, sel(f, f->u64, nz64(f, R.l), c64(f, 1), c64(f, 0)));
    uint32_t be = OP(e, SpvOpIAdd, i32, OP(e, SpvOpISub, i32, Eb, n), ci(f, 127 + bias));
    /* kept bits: R64 >> shift; shift grows below the normal range */
    uint32_t normal = OP(e, SpvOpSGreaterThanEqual, f->bt, be, ci(f, 1));
    uint32_t base = ci(f, 63 - (int32_t)mbits);
    uint32_t extra = wl_glsl(e, i32, GLSLSClamp, WL_OPS(OP(e, SpvOpISub, i32, ci(f, 1), be), ci(f, 0), ci(f, 100)));
    uint32_t shift = sel(f, i32, normal, base, OP(e, SpvOpIAdd, i32, base, extra));
    uint32_t s = wl_glsl(e, i32, GLSLSMin, WL_OPS(shift, ci(f, 64)));
    uint32_t m = shr(f, R64, s);
    uint32_t rem = OP(e, SpvOpISub, f->u64, R64, shl(f, m, s));
    uint32_t half = shl(f, c64(f, 1), sub32(f, s, ci(f, 1)));
    uint32_t odd = nz64(f, and64(f, m, c64(f, 1)));
    uint32_t up = bor(f, OP(e, SpvOpUGreaterThan, f->bt, rem, half), band(f, eq64(f, rem, half), odd));
    up = band(f, up, OP(e, SpvOpSLessThanEqual, f->bt, shift, ci(f, 64)));
    uint32_t ebase = sel(f, i32, normal, OP(e, SpvOpISub, i32, be, ci(f, 1)), ci(f, 0));
    uint32_t mag = OP(e, SpvOpShiftLeftLogical, f->u64, OP(e, SpvOpUConvert, f->u64,
                      wl_glsl(e, i32, GLSLSMin, WL_OPS(ebase, ci(f, emax)))), ci(f, (int32_t)mbits));
    mag = OP(e, SpvOpIAdd, f->u64, OP(e, SpvOpIAdd, f->u64, mag, m), sel(f, f->u64, up, c64(f, 1), c64(f, 0)));
    uint32_t inf = c64(f, (uint64_t)emax << mbits);
    uint32_t ovf = bor(f, OP(e, SpvOpSGreaterThanEqual, f->bt, be, ci(f, emax)), OP(e, SpvOpUGreaterThanEqual, f->bt, mag, inf));
    mag = sel(f, f->u64, ovf, inf, mag);
    uint32_t bits = or64(f, mag, sel(f, f->u64, sign, c64(f, 1ull << (mbits + ebits)), c64(f, 0)));
    return sel(f, f->u64, rzero, c64(f, 0), bits);
}

/* An arithmetic instruction the driver may not contract or reassociate. */
static uint32_t exact_op(wl_em *e, uint32_t opc, uint32_t ty, uint32_t x, uint32_t y)
{
    uint32_t r = OP(e, opc, ty, x, y);
    INS(e, &e->decor, SpvOpDecorate, r, SpvDecNoContraction);
    return r;
}

/* f32 through f64 (f16 through f32): w-bit a, b, c widened to the wide
 * format (W bits, P >= 2p + 2 bits of precision: 53 for p = 24, 24 for
 * p = 11) make p = a*b exactly (2p <= P bits, no underflow or overflow:
 * the wide exponent range covers the products); s = RN(p + c) and its
 * error e = (p + c) - s exactly (TwoSum: Knuth; Boldo and Melquiond,
 * "Emulation of FMA and correctly-rounded sums: proved algorithms using
 * rounding to odd", IEEE TC 57(4), 2008: all operands are multiples of the
 * smallest product's unit, so e is representable and nothing is subnormal
 * in the wide format); s is then rounded to odd (when e != 0 and s's last
 * bit is 0, s moves one unit towards e, which is where p + c lies), and
 * RN to the narrow format of RO_P(x) is RN(x) when P >= p + 2 (same
 * paper). Every wide operation is NoContraction, so the driver can
 * neither fuse nor reassociate them. Infinities and NaNs: e is NaN (or the
 * sum is not finite), so s stays, which is the IEEE result of a*b + c with
 * an exact a*b. Signed zeros: s = p + c gives IEEE's sign of an exact sum;
 * an exact cancellation gives e = 0 and +0. The narrowing OpFConvert is
 * correctly rounded (Vulkan's precision of conversions), ties to even. */
static uint32_t fma_widened(wl_em *e, unsigned w, unsigned n, uint32_t a, uint32_t b, uint32_t c)
{
    unsigned W = w * 2;
    uint32_t ft = wl_ty_float(e, w), wt = wl_ty_float(e, W), it = wl_ty_int(e, W), bt = wl_ty_bool(e);
    uint32_t one = wl_c_int(e, W, 1), zero = wl_c_int(e, W, 0), fzero = wl_c_float(e, W, 0.0);
    uint32_t inf = wl_c_fbits(e, W, W == 64 ? 0x7ff0000000000000ull : 0x7f800000u);
    if (n) { /* a vector: the same operations on vectors, constants splat */
        ft = wl_ty_vec(e, ft, n), wt = wl_ty_vec(e, wt, n), it = wl_ty_vec(e, it, n), bt = wl_ty_vec(e, bt, n);
        one = wl_c_splat(e, it, n, one), zero = wl_c_splat(e, it, n, zero);
        fzero = wl_c_splat(e, wt, n, fzero), inf = wl_c_splat(e, wt, n, inf);
    }
    uint32_t A = OP(e, SpvOpFConvert, wt, a), B = OP(e, SpvOpFConvert, wt, b), C = OP(e, SpvOpFConvert, wt, c);
    uint32_t p = exact_op(e, SpvOpFMul, wt, A, B);
    uint32_t s = exact_op(e, SpvOpFAdd, wt, p, C);
    uint32_t bb = exact_op(e, SpvOpFSub, wt, s, p);
    uint32_t err = exact_op(e, SpvOpFAdd, wt, exact_op(e, SpvOpFSub, wt, p, exact_op(e, SpvOpFSub, wt, s, bb)),
                            exact_op(e, SpvOpFSub, wt, C, bb));
    uint32_t sb = OP(e, SpvOpBitcast, it, s), eb = OP(e, SpvOpBitcast, it, err);
    uint32_t even = OP(e, SpvOpIEqual, bt, OP(e, SpvOpBitwiseAnd, it, sb, one), zero);
    uint32_t inexact = OP(e, SpvOpFOrdNotEqual, bt, err, fzero);
    uint32_t finite = OP(e, SpvOpFOrdLessThan, bt, wl_glsl(e, wt, GLSLFAbs, WL_OPS(s)), inf);
    uint32_t adjust = OP(e, SpvOpLogicalAnd, bt, OP(e, SpvOpLogicalAnd, bt, even, inexact), finite);
    /* same signs: away from zero (+1), else towards zero (-1) */
    uint32_t same = OP(e, SpvOpSGreaterThanEqual, bt, OP(e, SpvOpBitwiseXor, it, sb, eb), zero);
    uint32_t moved = OP(e, SpvOpSelect, it, same, OP(e, SpvOpIAdd, it, sb, one), OP(e, SpvOpISub, it, sb, one));
    uint32_t odd = OP(e, SpvOpBitcast, wt, OP(e, SpvOpSelect, it, adjust, moved, sb));
    return OP(e, SpvOpFConvert, ft, odd);
}

/* fma of scalars a, b, c of float width w: f16 and f32 through the wider
 * format, f64 on the integer bits */
static uint32_t fma_scalar(wl_em *e, unsigned w, uint32_t a, uint32_t b, uint32_t c)
{
    if (w != 64)
        return fma_widened(e, w, 0, a, b, c);
    fx f = {e, wl_ty_int(e, 64), wl_ty_int(e, 32), wl_ty_int(e, 32), wl_ty_bool(e)};
    unsigned mbits = w == 64 ? 52 : w == 32 ? 23 : 10, ebits = w == 64 ? 11 : w == 32 ? 8 : 5;
    uint32_t ft = wl_ty_float(e, w), it = wl_ty_int(e, w);
    uint32_t ab[3] = {a, b, c};
    fparts p[3];
    uint32_t wide[3];
    for (int i = 0; i < 3; i++) {
        uint32_t x = OP(e, SpvOpBitcast, it, ab[i]);
        wide[i] = w == 64 ? x : OP(e, SpvOpUConvert, f.u64, x);
        p[i] = split(&f, wide[i], w, mbits, ebits);
    }
    uint32_t core = fused_core(&f, p[0], p[1], p[2], mbits, ebits);
    /* a or b zero: c, or a zero signed by RNE */
    uint32_t pzero = bor(&f, p[0].zero, p[1].zero);
    uint32_t psign = OP(e, SpvOpLogicalNotEqual, f.bt, p[0].sign, p[1].sign);
    uint32_t negz = band(&f, psign, p[2].sign);
    uint32_t zres = sel(&f, f.u64, p[2].zero, sel(&f, f.u64, negz, c64(&f, 1ull << (w - 1)), c64(&f, 0)), wide[2]);
    uint32_t bits = sel(&f, f.u64, pzero, zres, core);
    uint32_t r = OP(e, SpvOpBitcast, ft, w == 64 ? bits : OP(e, SpvOpUConvert, it, bits));
    /* an infinity or a NaN among the operands */
    uint32_t abfin = band(&f, p[0].finite, p[1].finite);
    uint32_t allfin = band(&f, abfin, p[2].finite);
    uint32_t native = OP(e, SpvOpFAdd, ft, OP(e, SpvOpFMul, ft, a, b), c);
    uint32_t special = sel(&f, ft, abfin, c, native);
    return sel(&f, ft, allfin, r, special);
}

uint32_t wl_fma_exact(wl_em *e, LLVMTypeRef t, uint32_t a, uint32_t b, uint32_t c)
{
    unsigned w = wl_scalar_bits(t), n = wl_vec_len(t);
    if (!n)
        return fma_scalar(e, w, a, b, c);
    if (w != 64)
        return fma_widened(e, w, n, a, b, c);
    uint32_t et = wl_ty_float(e, w), parts[16];
    if (n > 16)
        return wl_refuse(e, e->cur, "fma on a vector of more than 16 elements"), 0;
    for (unsigned i = 0; i < n; i++)
        parts[i] = fma_scalar(e, w, OP(e, SpvOpCompositeExtract, et, a, i), OP(e, SpvOpCompositeExtract, et, b, i),
                              OP(e, SpvOpCompositeExtract, et, c, i));
    return wl_op(e, SpvOpCompositeConstruct, wl_ty_llvm(e, t), (int)n, parts);
}
