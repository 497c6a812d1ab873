/* VALU division helpers: v_div_scale_f32/f64, v_div_fmas_f32/f64,
 * v_div_fixup_f16/f32/f64, and v_trig_preop_f64 (2/pi for the sin/cos
 * range reduction). They are the steps of the compilers' IEEE
 * division macro (LLVM's SIISelLowering lowerFDIV32/lowerFDIV64):
 *
 *   ds      = v_div_scale(d, d, n)          scaled denominator
 *   ns, vcc = v_div_scale(n, d, n)          scaled numerator, post-scale flag
 *   r       = v_rcp(ds), two Newton steps (fma), m = ns * r,
 *   e       = fma(-ds, m, ns)
 *   q       = v_div_fmas(e, r, m)           fma, post-scaled when vcc
 *   res     = v_div_fixup(q, d, n)          IEEE special cases
 *
 * Semantics from AMD's RDNA ISA pseudocode (V_DIV_SCALE/FMAS/FIXUP), with
 * the corrections known from hardware (as the emulators checked against it
 * apply them) and one that keeps the macro consistent:
 *
 * v_div_scale(S0, S1 = d, S2 = n), per type: K = 64, T = 96, tiny = 23
 * (f32); K = 128, T = 768, tiny = 53 (f64); exponent() is the biased
 * exponent field; D0 = S0 unless a case says otherwise; VCC = 0 unless set:
 *   n == 0 or d == 0:                 D0 = NaN
 *   exponent(n) - exponent(d) >= T:   VCC = 1; D0 = ldexp(S0, K) if S0 == d
 *   d is subnormal:                   D0 = ldexp(S0, K)
 *   1/d and n/d subnormal (f64 only; 1/(double)f32 never is):
 *                                     VCC = 1; D0 = ldexp(S0, -K) if S0 == d
 *                                     (the document's +K would overflow d;
 *                                     -K scales the quotient up, which the
 *                                     fmas rule below undoes)
 *   1/d subnormal:                    D0 = ldexp(S0, -K)
 *   n/d subnormal:                    VCC = 1; D0 = ldexp(S0, K) if S0 == n
 *   exponent(n) <= tiny:              D0 = ldexp(S0, K)
 * v_div_fmas(S0, S1, S2): fma(S0, S1, S2), times 2^K when VCC's lane bit is
 *   set and exponent(S2) > bias (S2 >= 2: the quotient was scaled down),
 *   2^-K when set otherwise (the document's fixed 2^32 / 2^64 is wrong; the
 *   direction follows S2, the unscaled-quotient estimate). The scaling here
 *   rounds twice when the result is subnormal (the hardware scales the
 *   exponent before rounding).
 * v_div_fixup(S0 = q, S1 = d, S2 = n): sign = sign(d) ^ sign(n);
 *   n NaN: quiet(n); d NaN: quiet(d); 0/0 or inf/inf: the negative quiet
 *   NaN; d == 0 or n infinite: signed infinity; d infinite or n == 0:
 *   signed zero; (f32/f64) exponent(n) - exponent(d) < -150 / -1075:
 *   signed zero (underflow); q NaN (the macro overflowed): signed
 *   infinity; else |q| with the sign.
 * v_trig_preop_f64(S0, S1) (the ISA: "Look Up 2/PI (S0.d) with segment
 * select S1.u[4:0]", rounding toward zero):
 *   shift = S1[4:0] * 53; if exponent(S0) > 1077: shift += exponent(S0) - 1077
 *   result = the 53 bits of 2/pi after fraction bit `shift` (bits 1..1201
 *            of the table "2/PI[1200:0]", zero after it), as an integer
 *   scale = -53 - shift; if exponent(S0) >= 1968: scale += 128
 *   D0 = ldexp(double(result), scale)
 * The table: frontend/isa/tables/two_over_pi.inc (scripts/gen_two_over_pi.py). */
#include "lift_valu_internal.h"

#include <string.h>

typedef struct dpar {
    wl_vt t;
    unsigned w, mb;
    int bias, emax, K, T, tiny, under;
} dpar;

static const dpar P16 = {VT_F16, 16, 10, 15, 31, 0, 0, 0, 0};
static const dpar P32 = {VT_F32, 32, 23, 127, 255, 64, 96, 23, -150};
static const dpar P64 = {VT_F64, 64, 52, 1023, 2047, 128, 768, 53, -1075};

static LLVMValueRef ic(wl_vx *c, const dpar *p, uint64_t v) { return LLVMConstInt(wl_vx_ity(c, p->t), v, 0); }
static LLVMValueRef bits(wl_vx *c, const dpar *p, LLVMValueRef x)
{
    return LLVMBuildBitCast(c->b, x, wl_vx_ity(c, p->t), "");
}
static LLVMValueRef fromb(wl_vx *c, const dpar *p, LLVMValueRef x)
{
    return LLVMBuildBitCast(c->b, x, wl_vx_ty(c, p->t), "");
}

/* the biased exponent field as i32 */
static LLVMValueRef expo(wl_vx *c, const dpar *p, LLVMValueRef x)
{
    LLVMBuilderRef b = c->b;
    LLVMValueRef e = LLVMBuildAnd(b, LLVMBuildLShr(b, bits(c, p, x), ic(c, p, p->mb), ""), ic(c, p, p->emax), "");
    if (p->w == 64)
        return LLVMBuildTrunc(b, e, c->L->i32, "");
    return p->w == 16 ? LLVMBuildZExt(b, e, c->L->i32, "") : e;
}

/* x is subnormal (not zero) */
static LLVMValueRef subnormal(wl_vx *c, const dpar *p, LLVMValueRef x)
{
    LLVMBuilderRef b = c->b;
    LLVMValueRef ax = LLVMBuildAnd(b, bits(c, p, x), ic(c, p, (1ull << (p->w - 1)) - 1), "");
    return LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntNE, ax, ic(c, p, 0), ""),
                        LLVMBuildICmp(b, LLVMIntULT, ax, ic(c, p, 1ull << p->mb), ""), "");
}

static LLVMValueRef ldexpk(wl_vx *c, const dpar *p, LLVMValueRef x, LLVMValueRef k)
{
    return wl_vx_ldexp(c, p->t, x, k); /* exact, lift_valu_scale.c */
}

static LLVMValueRef feq(wl_vx *c, LLVMValueRef a, LLVMValueRef b2)
{
    return LLVMBuildFCmp(c->b, LLVMRealOEQ, a, b2, "");
}

static wl_status div_scale(wl_vx *c, const dpar *p)
{
    wl_lifter *L = c->L;
    LLVMBuilderRef b = c->b;
    if (c->in->ndst < 2)
        return wl_l_refuse(L, "v_div_scale without its VCC destination");
    LLVMValueRef s0 = wl_vx_src(c, 0, p->t), d = wl_vx_src(c, 1, p->t), n = wl_vx_src(c, 2, p->t);
    LLVMValueRef zero = wl_vx_fconst(c, p->t, 0.0);
    LLVMValueRef up = ldexpk(c, p, s0, wl_l_i32c(L, (uint32_t)p->K));
    LLVMValueRef down = ldexpk(c, p, s0, wl_l_i32c(L, (uint32_t)-p->K));
    LLVMValueRef isz = LLVMBuildOr(b, feq(c, n, zero), feq(c, d, zero), "");
    LLVMValueRef en = expo(c, p, n), ed = expo(c, p, d);
    LLVMValueRef c1 = LLVMBuildICmp(b, LLVMIntSGE, LLVMBuildSub(b, en, ed, ""), wl_l_i32c(L, (uint32_t)p->T), "");
    LLVMValueRef c2 = subnormal(c, p, d);
    LLVMValueRef qden = subnormal(c, p, LLVMBuildFDiv(b, n, d, ""));
    LLVMValueRef rden = p->w == 64 ? subnormal(c, p, LLVMBuildFDiv(b, wl_vx_fconst(c, p->t, 1.0), d, ""))
                                   : LLVMConstInt(L->i1, 0, 0);
    LLVMValueRef c3 = LLVMBuildAnd(b, rden, qden, "");
    LLVMValueRef c6 = LLVMBuildICmp(b, LLVMIntSLE, en, wl_l_i32c(L, (uint32_t)p->tiny), "");
    LLVMValueRef s0d = feq(c, s0, d), s0n = feq(c, s0, n);
    /* from the last case to the first */
    LLVMValueRef r = LLVMBuildSelect(b, c6, up, s0, "");
    r = LLVMBuildSelect(b, qden, LLVMBuildSelect(b, s0n, up, s0, ""), r, "");
    r = LLVMBuildSelect(b, rden, down, r, "");
    r = LLVMBuildSelect(b, c3, LLVMBuildSelect(b, s0d, down, s0, ""), r, "");
    r = LLVMBuildSelect(b, c2, up, r, "");
    r = LLVMBuildSelect(b, c1, LLVMBuildSelect(b, s0d, up, s0, ""), r, "");
    r = LLVMBuildSelect(b, isz, fromb(c, p, ic(c, p, p->w == 64 ? 0x7ff8000000000000ull : 0x7fc00000u)), r, "");
    /* VCC: !zero && (c1 || (!c2 && (c3 || (!rden && qden)))) */
    LLVMValueRef v = LLVMBuildOr(b, c3, LLVMBuildAnd(b, LLVMBuildNot(b, rden, ""), qden, ""), "");
    v = LLVMBuildOr(b, c1, LLVMBuildAnd(b, LLVMBuildNot(b, c2, ""), v, ""), "");
    v = LLVMBuildAnd(b, LLVMBuildNot(b, isz, ""), v, "");
    LLVMValueRef mask = wl_vx_ballot_exec(c, v);
    wl_status st = wl_vx_put(c, r, p->t);
    wl_vx_put_mask(c, 1, mask);
    return st;
}

static wl_status div_fmas(wl_vx *c, const dpar *p)
{
    wl_lifter *L = c->L;
    LLVMBuilderRef b = c->b;
    LLVMTypeRef ty = wl_vx_ty(c, p->t);
    LLVMValueRef args[3] = {wl_vx_src(c, 0, p->t), wl_vx_src(c, 1, p->t), wl_vx_src(c, 2, p->t)};
    LLVMValueRef f = wl_vx_intr(c, "llvm.fma", &ty, 1, args, 3);
    LLVMValueRef big = LLVMBuildICmp(b, LLVMIntSGT, expo(c, p, args[2]), wl_l_i32c(L, (uint32_t)p->bias), "");
    LLVMValueRef k = LLVMBuildSelect(b, big, wl_l_i32c(L, (uint32_t)p->K), wl_l_i32c(L, (uint32_t)-p->K), "");
    LLVMValueRef vcc = wl_vx_lane_bit(c, wl_l_vcc(L), wl_vx_lane(c));
    return wl_vx_put(c, LLVMBuildSelect(b, vcc, ldexpk(c, p, f, k), f, ""), p->t);
}

static wl_status div_fixup(wl_vx *c, const dpar *p)
{
    wl_lifter *L = c->L;
    LLVMBuilderRef b = c->b;
    LLVMValueRef q = wl_vx_src(c, 0, p->t), d = wl_vx_src(c, 1, p->t), n = wl_vx_src(c, 2, p->t);
    uint64_t sbit = 1ull << (p->w - 1), qbit = 1ull << (p->mb - 1), inf = (uint64_t)p->emax << p->mb;
    LLVMValueRef sign = LLVMBuildAnd(b, LLVMBuildXor(b, bits(c, p, d), bits(c, p, n), ""), ic(c, p, sbit), "");
    LLVMValueRef zero = wl_vx_fconst(c, p->t, 0.0), infv = fromb(c, p, ic(c, p, inf));
    LLVMValueRef sinf = fromb(c, p, LLVMBuildOr(b, sign, ic(c, p, inf), ""));
    LLVMValueRef szero = fromb(c, p, sign);
    LLVMValueRef dz = feq(c, d, zero), nz = feq(c, n, zero);
    LLVMValueRef di = feq(c, wl_vx_intr1(c, "llvm.fabs", d), infv), ni = feq(c, wl_vx_intr1(c, "llvm.fabs", n), infv);
    LLVMValueRef aq = LLVMBuildAnd(b, bits(c, p, q), ic(c, p, sbit - 1), "");
    LLVMValueRef r = fromb(c, p, LLVMBuildOr(b, aq, sign, ""));
    r = LLVMBuildSelect(b, wl_vx_isnan(c, q), sinf, r, "");
    if (p->under) {
        LLVMValueRef de = LLVMBuildSub(b, expo(c, p, n), expo(c, p, d), "");
        r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, de, wl_l_i32c(L, (uint32_t)p->under), ""), szero, r, "");
    }
    r = LLVMBuildSelect(b, LLVMBuildOr(b, di, nz, ""), szero, r, "");
    r = LLVMBuildSelect(b, LLVMBuildOr(b, dz, ni, ""), sinf, r, "");
    LLVMValueRef dnan = fromb(c, p, ic(c, p, sbit | inf | qbit));
    r = LLVMBuildSelect(b, LLVMBuildOr(b, LLVMBuildAnd(b, dz, nz, ""), LLVMBuildAnd(b, di, ni, ""), ""), dnan, r, "");
    LLVMValueRef quiet_d = fromb(c, p, LLVMBuildOr(b, bits(c, p, d), ic(c, p, qbit), ""));
    LLVMValueRef quiet_n = fromb(c, p, LLVMBuildOr(b, bits(c, p, n), ic(c, p, qbit), ""));
    r = LLVMBuildSelect(b, wl_vx_isnan(c, d), quiet_d, r, "");
    r = LLVMBuildSelect(b, wl_vx_isnan(c, n), quiet_n, r, "");
    return wl_vx_put(c, r, p->t);
}

static const uint64_t two_over_pi[19] = {
#include "frontend/isa/tables/two_over_pi.inc"
};

/* word j of the table (0 past its end), j an i32 */
static LLVMValueRef table_word(wl_vx *c, LLVMValueRef j)
{
    wl_lifter *L = c->L;
    LLVMValueRef r = wl_l_i64c(L, 0);
    for (unsigned k = 0; k < 19; k++)
        r = LLVMBuildSelect(c->b, LLVMBuildICmp(c->b, LLVMIntEQ, j, wl_l_i32c(L, k), ""),
                            wl_l_i64c(L, two_over_pi[k]), r, "");
    return r;
}

/* x << s, x >> s for s in [0, 64] (64 gives 0) */
static LLVMValueRef shl64(wl_vx *c, LLVMValueRef x, LLVMValueRef s)
{
    LLVMBuilderRef b = c->b;
    LLVMValueRef s64 = LLVMBuildZExt(b, s, c->L->i64, "");
    LLVMValueRef big = LLVMBuildICmp(b, LLVMIntUGE, s, wl_l_i32c(c->L, 64), "");
    LLVMValueRef r = LLVMBuildShl(b, x, LLVMBuildAnd(b, s64, wl_l_i64c(c->L, 63), ""), "");
    return LLVMBuildSelect(b, big, wl_l_i64c(c->L, 0), r, "");
}
static LLVMValueRef shr64(wl_vx *c, LLVMValueRef x, LLVMValueRef s)
{
    LLVMBuilderRef b = c->b;
    LLVMValueRef s64 = LLVMBuildZExt(b, s, c->L->i64, "");
    LLVMValueRef big = LLVMBuildICmp(b, LLVMIntUGE, s, wl_l_i32c(c->L, 64), "");
    LLVMValueRef r = LLVMBuildLShr(b, x, LLVMBuildAnd(b, s64, wl_l_i64c(c->L, 63), ""), "");
    return LLVMBuildSelect(b, big, wl_l_i64c(c->L, 0), r, "");
}

static wl_status trig_preop(wl_vx *c)
{
    wl_lifter *L = c->L;
    LLVMBuilderRef b = c->b;
    LLVMValueRef x = wl_vx_src(c, 0, VT_F64), seg = wl_vx_src(c, 1, VT_I32);
    LLVMValueRef ex = expo(c, &P64, x);
    LLVMValueRef shift = LLVMBuildMul(b, LLVMBuildAnd(b, seg, wl_l_i32c(L, 31), ""), wl_l_i32c(L, 53), "");
    LLVMValueRef big = LLVMBuildICmp(b, LLVMIntSGT, ex, wl_l_i32c(L, 1077), "");
    shift = LLVMBuildAdd(b, shift, LLVMBuildSelect(b, big, LLVMBuildSub(b, ex, wl_l_i32c(L, 1077), ""),
                                                   wl_l_i32c(L, 0), ""), "");
    /* bits shift+1 .. shift+64: word j = shift / 64 shifted left by r, with
     * the next word's top bits */
    LLVMValueRef j = LLVMBuildLShr(b, shift, wl_l_i32c(L, 6), "");
    LLVMValueRef r = LLVMBuildAnd(b, shift, wl_l_i32c(L, 63), "");
    LLVMValueRef hi = shl64(c, table_word(c, j), r);
    LLVMValueRef lo = shr64(c, table_word(c, LLVMBuildAdd(b, j, wl_l_i32c(L, 1), "")),
                            LLVMBuildSub(b, wl_l_i32c(L, 64), r, ""));
    LLVMValueRef bits53 = LLVMBuildLShr(b, LLVMBuildOr(b, hi, lo, ""), wl_l_i64c(L, 11), "");
    LLVMValueRef val = LLVMBuildUIToFP(b, bits53, L->f64, "");
    LLVMValueRef scale = LLVMBuildSub(b, wl_l_i32c(L, (uint32_t)-53), shift, "");
    LLVMValueRef huge = LLVMBuildICmp(b, LLVMIntSGE, ex, wl_l_i32c(L, 1968), "");
    scale = LLVMBuildAdd(b, scale, LLVMBuildSelect(b, huge, wl_l_i32c(L, 128), wl_l_i32c(L, 0), ""), "");
    return wl_vx_put(c, ldexpk(c, &P64, val, scale), VT_F64);
}

int wl_lv_div(wl_vx *c, const char *name)
{
    if (strcmp(name, "v_trig_preop_f64") == 0)
        return trig_preop(c);
    if (strncmp(name, "v_div_", 6) != 0)
        return -1;
    int t = wl_lv_suffix_type(name);
    const dpar *p = t == VT_F16 ? &P16 : t == VT_F32 ? &P32 : t == VT_F64 ? &P64 : NULL;
    if (!p)
        return -1;
    if (strncmp(name, "v_div_scale_", 12) == 0 && p->K)
        return div_scale(c, p);
    if (strncmp(name, "v_div_fmas_", 11) == 0 && p->K)
        return div_fmas(c, p);
    if (strncmp(name, "v_div_fixup_", 12) == 0)
        return div_fixup(c, p);
    return -1;
}
