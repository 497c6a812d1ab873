/* VALU lifting: dispatch, source modifiers, destination writes.
 *
 * wl_lift_valu takes one decoded VOP1/VOP2/VOPC/VOP3/VOP3P instruction (any
 * of the e32, e64, SDWA, DPP16, DPP8 encodings) and hands it to the family
 * that knows its mnemonic (lift_valu_int.c, _float.c, _cvt.c, _cmp.c,
 * _lane.c, _pk.c). Each family reads sources and writes results through the
 * helpers here, so the encodings' modifiers are handled once:
 *
 *   - VOP3 abs/neg, SDWA and DPP neg/abs: on the raw bits (fabs/fneg);
 *   - VOP3 op_sel (16-bit operations): bit i takes the high half of src i,
 *     bit 3 writes the high half of the destination;
 *   - SDWA src_sel (byte/word, zero- or sign-extended by `sext`) and
 *     dst_sel/dst_unused (pad with zeros, sign-extend, preserve);
 *   - DPP16/DPP8 src0 fetched from its source lane (lift_valu_lane.c), with
 *     row_mask/bank_mask/bound_ctrl as a write predicate;
 *   - clamp on float results: to [0, 1], NaN to 0 with DX10_CLAMP (kept
 *     without it); integer clamp is saturation, done by the operations
 *     that have it;
 *   - omod (*2, *4, /2) on float results where the result's precision
 *     flushes output denormals (the hardware ignores it where they are
 *     kept); it turns -0 into +0;
 *   - the float mode (lift_mode.c): float sources read through wl_vx_src
 *     have denormals flushed to a signed zero where the mode flushes input
 *     denormals of their precision, float results written through
 *     wl_vx_put where it flushes output denormals; moves, bit operations
 *     and v_cmp_class read raw bits and never flush. A rounding mode other
 *     than nearest even is refused for the float operations of its
 *     precision.
 *
 * 16-bit results on gfx10 keep the other half of the VGPR (all 16-bit VALU
 * instructions preserve the high bits on gfx10, unlike gfx8/9).
 *
 * The host executes IEEE arithmetic with denormals; transcendental
 * approximations (v_rcp, v_rsq, v_sqrt, v_exp, v_log, v_sin, v_cos) are
 * computed by the host's operations (correctly rounded or the host's ULPs,
 * never the AMD hardware's own ULP errors). */
#include "lift_valu_internal.h"
#include "frontend/isa/valu_internal.h"

#include <string.h>

LLVMTypeRef wl_vx_ty(wl_vx *c, wl_vt t)
{
    wl_lifter *L = c->L;
    switch (t) {
    case VT_I16: return L->i16;
    case VT_I32: return L->i32;
    case VT_I64: return L->i64;
    case VT_F16: return L->f16;
    case VT_F32: return L->f32;
    default: return L->f64;
    }
}

unsigned wl_vx_bits(wl_vt t)
{
    return (t == VT_I16 || t == VT_F16) ? 16 : (t == VT_I64 || t == VT_F64) ? 64 : 32;
}

LLVMTypeRef wl_vx_ity(wl_vx *c, wl_vt t)
{
    unsigned n = wl_vx_bits(t);
    return n == 16 ? c->L->i16 : n == 64 ? c->L->i64 : c->L->i32;
}

static bool is_float(wl_vt t) { return t == VT_F16 || t == VT_F32 || t == VT_F64; }

LLVMValueRef wl_vx_const(wl_vx *c, wl_vt t, uint64_t bits)
{
    LLVMValueRef k = LLVMConstInt(wl_vx_ity(c, t), bits, 0);
    return is_float(t) ? LLVMConstBitCast(k, wl_vx_ty(c, t)) : k;
}

LLVMValueRef wl_vx_fconst(wl_vx *c, wl_vt t, double v)
{
    return LLVMConstReal(wl_vx_ty(c, t), v);
}

LLVMValueRef wl_vx_lane(wl_vx *c)
{
    if (!c->lane)
        c->lane = wl_l_call(c->L, "wl.lane_id", c->L->i32, NULL, 0);
    return c->lane;
}

LLVMValueRef wl_vx_lane_bit(wl_vx *c, LLVMValueRef mask64, LLVMValueRef lane)
{
    wl_lifter *L = c->L;
    LLVMValueRef sh = LLVMBuildZExt(c->b, LLVMBuildAnd(c->b, lane, wl_l_i32c(L, 63), ""), L->i64, "");
    return LLVMBuildTrunc(c->b, LLVMBuildLShr(c->b, mask64, sh, ""), L->i1, "");
}

LLVMValueRef wl_vx_ballot_exec(wl_vx *c, LLVMValueRef p)
{
    wl_lifter *L = c->L;
    LLVMValueRef m = wl_l_call(L, "wl.ballot", L->i64, &p, 1);
    return LLVMBuildAnd(c->b, m, wl_l_exec(L), "");
}

LLVMValueRef wl_vx_mask_src(wl_vx *c, unsigned i)
{
    wl_lifter *L = c->L;
    const wl_operand *o = &c->in->src[i];
    if (o->kind == WL_OPND_SGPR || o->kind == WL_OPND_SPECIAL || o->kind == WL_OPND_TTMP) {
        if (o->kind == WL_OPND_SPECIAL && o->index > WL_SRC_EXEC_HI)
            return LLVMBuildZExt(c->b, wl_l_src32(L, o, WL_IMM_B32), L->i64, "");
        return wl_l_get_mask(L, o);
    }
    if (L->wave == 64)
        return wl_l_src64(L, o, WL_IMM_B64);
    return LLVMBuildZExt(c->b, wl_l_src32(L, o, WL_IMM_B32), L->i64, "");
}

LLVMValueRef wl_vx_intr(wl_vx *c, const char *name, LLVMTypeRef *tys, unsigned ntys,
                        LLVMValueRef *args, unsigned nargs)
{
    if (!strcmp(name, "llvm.fma") && ntys == 1 && LLVMGetTypeKind(tys[0]) == LLVMFloatTypeKind) {
        if (c->fma_flushed)
            c->L->fma32_flushed++;
        else
            c->L->fma32_other++;
        c->fma_flushed = false;
    }
    return wl_l_intrin(c->L, name, tys, ntys, args, nargs);
}

LLVMValueRef wl_vx_intr1(wl_vx *c, const char *name, LLVMValueRef a)
{
    LLVMTypeRef t = LLVMTypeOf(a);
    return wl_vx_intr(c, name, &t, 1, &a, 1);
}

LLVMValueRef wl_vx_intr2(wl_vx *c, const char *name, LLVMValueRef a, LLVMValueRef b)
{
    LLVMTypeRef t = LLVMTypeOf(a);
    LLVMValueRef args[2] = {a, b};
    return wl_vx_intr(c, name, &t, 1, args, 2);
}

LLVMValueRef wl_vx_isnan(wl_vx *c, LLVMValueRef x)
{
    return LLVMBuildFCmp(c->b, LLVMRealUNO, x, x, "");
}

/* clamp: to [0, 1]; NaN gives 0 with DX10_CLAMP, itself without. */
LLVMValueRef wl_vx_clamp01(wl_vx *c, LLVMValueRef x)
{
    LLVMTypeRef t = LLVMTypeOf(x);
    LLVMValueRef zero = LLVMConstReal(t, 0.0), one = LLVMConstReal(t, 1.0);
    LLVMValueRef hi = LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOLT, x, one, ""), x, one, "");
    LLVMValueRef r = LLVMBuildSelect(c->b, LLVMBuildFCmp(c->b, LLVMRealOGT, x, zero, ""), hi, zero, "");
    if (!(wl_l_mode(c->L) & WL_MODE_DX10_CLAMP))
        r = LLVMBuildSelect(c->b, wl_vx_isnan(c, x), x, r, "");
    return r;
}

unsigned wl_vx_denorm_mode(wl_vx *c, wl_vt t)
{
    uint32_t m = wl_l_mode(c->L);
    return t == VT_F32 ? (m >> 4) & 3 : (m >> 6) & 3;
}

/* A denormal (exponent field 0) becomes a zero of its sign; x is a float
 * of type t or its raw bits. */
static LLVMValueRef flush_denorm(wl_vx *c, wl_vt t, LLVMValueRef x)
{
    LLVMBuilderRef b = c->b;
    bool isf = LLVMGetTypeKind(LLVMTypeOf(x)) != LLVMIntegerTypeKind;
    LLVMTypeRef it = wl_vx_ity(c, t);
    unsigned bits = wl_vx_bits(t), mb = bits == 16 ? 10 : bits == 32 ? 23 : 52;
    uint64_t expm = ((1ull << (bits - 1 - mb)) - 1) << mb, sign = 1ull << (bits - 1);
    LLVMValueRef xi = isf ? LLVMBuildBitCast(b, x, it, "") : x;
    LLVMValueRef den = LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildAnd(b, xi, LLVMConstInt(it, expm, 0), ""),
                                     LLVMConstInt(it, 0, 0), "");
    LLVMValueRef r = LLVMBuildSelect(b, den, LLVMBuildAnd(b, xi, LLVMConstInt(it, sign, 0), ""), xi, "");
    return isf ? LLVMBuildBitCast(b, r, wl_vx_ty(c, t), "") : r;
}

LLVMValueRef wl_vx_flush(wl_vx *c, wl_vt t, LLVMValueRef x)
{
    return flush_denorm(c, t, x);
}

LLVMValueRef wl_vx_flush_in(wl_vx *c, wl_vt t, LLVMValueRef x)
{
    return (wl_vx_denorm_mode(c, t) & 1) ? x : flush_denorm(c, t, x);
}

LLVMValueRef wl_vx_flush_out(wl_vx *c, wl_vt t, LLVMValueRef x)
{
    return (wl_vx_denorm_mode(c, t) & 2) ? x : flush_denorm(c, t, x);
}

/* v_min/v_max: in IEEE mode a signaling NaN operand gives it quieted (the
 * first operand's first), a quiet NaN loses to a number, +0 > -0. LLVM's
 * minnum/maxnum leave the last two open: equal operands are resolved on the
 * bits (and for max, or for min), signaling NaNs explicitly. Without IEEE
 * mode (the ISA's pseudocode): S0 NaN (quiet or signaling) gives S1 as it
 * is, else S1 NaN gives S0; nothing is quieted. */
/* The min/max of two numbers (no NaN among them): minnum/maxnum, and of
 * equal operands (+0 and -0) the bits and-ed for max, or-ed for min; *ai
 * and *bi get the operands' bits as integers. */
static LLVMValueRef fminmax_num(wl_vx *c, LLVMValueRef a, LLVMValueRef b, bool max, LLVMValueRef *ai,
                                LLVMValueRef *bi)
{
    LLVMBuilderRef bd = c->b;
    LLVMTypeRef ft = LLVMTypeOf(a);
    unsigned bits = LLVMGetTypeKind(ft) == LLVMHalfTypeKind ? 16 : LLVMGetTypeKind(ft) == LLVMFloatTypeKind ? 32 : 64;
    LLVMTypeRef it = LLVMIntTypeInContext(c->L->ctx, bits);
    LLVMValueRef r = wl_vx_intr2(c, max ? "llvm.maxnum" : "llvm.minnum", a, b);
    *ai = LLVMBuildBitCast(bd, a, it, ""), *bi = LLVMBuildBitCast(bd, b, it, "");
    LLVMValueRef eqv = max ? LLVMBuildAnd(bd, *ai, *bi, "") : LLVMBuildOr(bd, *ai, *bi, "");
    return LLVMBuildSelect(bd, LLVMBuildFCmp(bd, LLVMRealOEQ, a, b, ""), LLVMBuildBitCast(bd, eqv, ft, ""), r, "");
}

LLVMValueRef wl_vx_fminmax_num(wl_vx *c, LLVMValueRef a, LLVMValueRef b, bool max)
{
    LLVMValueRef ai, bi;
    return fminmax_num(c, a, b, max, &ai, &bi);
}

LLVMValueRef wl_vx_fminmax(wl_vx *c, LLVMValueRef a, LLVMValueRef b, bool max)
{
    LLVMBuilderRef bd = c->b;
    LLVMTypeRef ft = LLVMTypeOf(a);
    LLVMValueRef ai, bi;
    LLVMValueRef r = fminmax_num(c, a, b, max, &ai, &bi);
    LLVMTypeRef it = LLVMTypeOf(ai);
    unsigned bits = LLVMGetIntTypeWidth(it);
    unsigned mb = bits == 16 ? 10 : bits == 32 ? 23 : 52;
    uint64_t expm = ((1ull << (bits - 1 - mb)) - 1) << mb, qb = 1ull << (mb - 1);
    uint64_t absm = expm | ((1ull << mb) - 1); /* exponent and mantissa: all but the sign */
    if (!(wl_l_mode(c->L) & WL_MODE_IEEE)) {
        /* a NaN operand (signaling or not) decides the result here, so
         * nothing is quieted (ACO's compute shaders run so) */
        r = LLVMBuildSelect(bd, wl_vx_isnan(c, b), a, r, "");
        return LLVMBuildSelect(bd, wl_vx_isnan(c, a), b, r, "");
    }
    LLVMValueRef x[2] = {bi, ai};
    for (int i = 0; i < 2; i++) {
        /* a signaling NaN's magnitude bits lie in [expm + 1, expm + qb - 1]:
         * one subtraction and one unsigned compare */
        LLVMValueRef mag = LLVMBuildAnd(bd, x[i], LLVMConstInt(it, absm, 0), "");
        LLVMValueRef sn = LLVMBuildICmp(bd, LLVMIntULT, LLVMBuildSub(bd, mag, LLVMConstInt(it, expm + 1, 0), ""),
                                        LLVMConstInt(it, qb - 1, 0), "");
        LLVMValueRef quiet = LLVMBuildBitCast(bd, LLVMBuildOr(bd, x[i], LLVMConstInt(it, qb, 0), ""), ft, "");
        r = LLVMBuildSelect(bd, sn, quiet, r, "");
    }
    return r;
}

static wl_imm_type imm_type(wl_vt t)
{
    switch (t) {
    case VT_I16: return WL_IMM_B16;
    case VT_F16: return WL_IMM_F16;
    case VT_I64: return WL_IMM_B64;
    case VT_F64: return WL_IMM_F64;
    case VT_F32: return WL_IMM_F32;
    default: return WL_IMM_B32;
    }
}

/* SDWA source select: sel 0..3 byte, 4..5 word, 6 dword; sext or zext. */
static LLVMValueRef sdwa_sel(wl_vx *c, LLVMValueRef v, unsigned sel, bool sext)
{
    if (sel >= 6)
        return v;
    wl_lifter *L = c->L;
    unsigned width = sel < 4 ? 8 : 16, shift = sel < 4 ? sel * 8 : (sel - 4) * 16;
    LLVMValueRef x = LLVMBuildLShr(c->b, v, wl_l_i32c(L, shift), "");
    x = LLVMBuildTrunc(c->b, x, width == 8 ? L->i8 : L->i16, "");
    return sext ? LLVMBuildSExt(c->b, x, L->i32, "") : LLVMBuildZExt(c->b, x, L->i32, "");
}

static bool uses_vop3_opsel(const wl_inst *in)
{
    return in->format == WL_FMT_VOP3 || in->venc == WL_VENC_E64;
}

LLVMValueRef wl_vx_srci(wl_vx *c, unsigned i, wl_vt t)
{
    wl_lifter *L = c->L;
    const wl_inst *in = c->in;
    const wl_operand *o = &in->src[i];
    unsigned bits = wl_vx_bits(t);
    LLVMValueRef v;
    if (bits == 64) {
        v = wl_l_src64(L, o, imm_type(t));
    } else {
        bool dpp = in->venc == WL_VENC_DPP16 || in->venc == WL_VENC_DPP8;
        if (i == 0 && dpp && c->dpp0)
            v = c->dpp0;
        else
            v = wl_l_src32(L, o, imm_type(t));
        if (in->venc == WL_VENC_SDWA && i < 2)
            v = sdwa_sel(c, v, i == 0 ? in->f.v.src0_sel : in->f.v.src1_sel, o->sext);
        if (bits == 16) {
            if (uses_vop3_opsel(in) && ((in->f.v.op_sel >> i) & 1))
                v = LLVMBuildLShr(c->b, v, wl_l_i32c(L, 16), "");
            v = LLVMBuildTrunc(c->b, v, L->i16, "");
        }
    }
    LLVMTypeRef it = wl_vx_ity(c, t);
    uint64_t sign = 1ull << (bits - 1);
    if (o->abs)
        v = LLVMBuildAnd(c->b, v, LLVMConstInt(it, ~sign, 0), "");
    if (o->neg)
        v = LLVMBuildXor(c->b, v, LLVMConstInt(it, sign, 0), "");
    return v;
}

LLVMValueRef wl_vx_src(wl_vx *c, unsigned i, wl_vt t)
{
    LLVMValueRef v = wl_vx_srci(c, i, t);
    if (!is_float(t))
        return v;
    return LLVMBuildBitCast(c->b, wl_vx_flush_in(c, t, v), wl_vx_ty(c, t), "");
}

/* omod (VOP3 OMOD 1: *2, 2: *4, 3: /2) on a float result: applied where
 * the result's precision flushes output denormals, ignored where they are
 * kept (the ISA); the hardware's omod gives +0 for -0. With output
 * denormals flushed and IEEE mode on, LLVM's documentation says the
 * hardware ignores omod where the ISA says it applies: refused. */
static wl_status apply_omod(wl_vx *c, LLVMValueRef *v, wl_vt t)
{
    unsigned om = c->in->f.v.omod;
    c->omod_done = true;
    if (wl_vx_denorm_mode(c, t) & 2)
        return WL_OK;
    if (wl_l_mode(c->L) & WL_MODE_IEEE)
        return wl_l_refuse(c->L, "output modifier (omod) with IEEE mode on and output denormals "
                                 "flushed (the hardware's behaviour is not known)");
    LLVMBuilderRef b = c->b;
    LLVMValueRef r = LLVMBuildFMul(b, *v, wl_vx_fconst(c, t, om == 1 ? 2.0 : om == 2 ? 4.0 : 0.5), "");
    LLVMValueRef z = LLVMBuildFCmp(b, LLVMRealOEQ, r, wl_vx_fconst(c, t, 0.0), "");
    *v = LLVMBuildSelect(b, z, wl_vx_fconst(c, t, 0.0), r, "");
    return WL_OK;
}

static LLVMValueRef write_pred(wl_vx *c)
{
    LLVMValueRef act = wl_l_active(c->L);
    return c->wpred ? LLVMBuildAnd(c->b, act, c->wpred, "") : act;
}

/* SDWA destination: the low bits of the result placed at dst_sel, the rest
 * zero (UNUSED_PAD), sign-extended (UNUSED_SEXT) or kept (UNUSED_PRESERVE). */
static LLVMValueRef sdwa_dst(wl_vx *c, LLVMValueRef v, unsigned vreg)
{
    wl_lifter *L = c->L;
    unsigned sel = c->in->f.v.dst_sel, unused = c->in->f.v.dst_unused;
    if (sel >= 6)
        return v;
    unsigned width = sel < 4 ? 8 : 16, shift = sel < 4 ? sel * 8 : (sel - 4) * 16;
    uint32_t field = (width == 8 ? 0xffu : 0xffffu) << shift;
    LLVMValueRef x = LLVMBuildTrunc(c->b, v, width == 8 ? L->i8 : L->i16, "");
    if (unused == 1)
        x = LLVMBuildSExt(c->b, x, L->i32, "");
    else
        x = LLVMBuildZExt(c->b, x, L->i32, "");
    x = LLVMBuildShl(c->b, x, wl_l_i32c(L, shift), "");
    if (unused == 2) {
        LLVMValueRef old = wl_l_get_v32(L, vreg);
        old = LLVMBuildAnd(c->b, old, wl_l_i32c(L, ~field), "");
        x = LLVMBuildOr(c->b, old, x, "");
    }
    return x;
}

wl_status wl_vx_put(wl_vx *c, LLVMValueRef v, wl_vt t)
{
    wl_lifter *L = c->L;
    const wl_inst *in = c->in;
    const wl_operand *d = &in->dst[0];
    if (in->ndst < 1 || d->kind != WL_OPND_VGPR)
        return wl_l_refuse(L, "destination is not a VGPR");
    if (is_float(t) && in->format != WL_FMT_VOP3P && in->f.v.omod) {
        wl_status st = apply_omod(c, &v, t);
        if (st != WL_OK)
            return st;
    }
    if (is_float(t))
        v = wl_vx_flush_out(c, t, v);
    if (is_float(t) && in->f.v.clamp)
        v = wl_vx_clamp01(c, v);
    if (is_float(t))
        v = LLVMBuildBitCast(c->b, v, wl_vx_ity(c, t), "");
    unsigned bits = wl_vx_bits(t);
    if (bits == 64) {
        LLVMValueRef p = write_pred(c);
        wl_l_set_v32_if(L, d->index, LLVMBuildTrunc(c->b, v, L->i32, ""), p);
        wl_l_set_v32_if(L, d->index + 1u,
                        LLVMBuildTrunc(c->b, LLVMBuildLShr(c->b, v, wl_l_i64c(L, 32), ""), L->i32, ""),
                        p);
        return WL_OK;
    }
    if (bits == 16) {
        LLVMValueRef x = LLVMBuildZExt(c->b, v, L->i32, "");
        if (in->venc == WL_VENC_SDWA) {
            v = x;
        } else {
            bool hi = uses_vop3_opsel(in) && ((in->f.v.op_sel >> 3) & 1);
            LLVMValueRef old = wl_l_get_v32(L, d->index);
            if (hi) {
                old = LLVMBuildAnd(c->b, old, wl_l_i32c(L, 0xffffu), "");
                x = LLVMBuildShl(c->b, x, wl_l_i32c(L, 16), "");
            } else {
                old = LLVMBuildAnd(c->b, old, wl_l_i32c(L, 0xffff0000u), "");
            }
            v = LLVMBuildOr(c->b, old, x, "");
        }
    }
    if (in->venc == WL_VENC_SDWA)
        v = sdwa_dst(c, v, d->index);
    wl_l_set_v32_if(L, d->index, v, write_pred(c));
    return WL_OK;
}

void wl_vx_put_mask(wl_vx *c, unsigned d, LLVMValueRef mask64)
{
    const wl_operand *o = &c->in->dst[d];
    if (o->kind == WL_OPND_SPECIAL && o->index == WL_SRC_NULL)
        return;
    wl_l_set_mask(c->L, o, mask64);
}

bool wl_lv_ends(const char *name, const char *suffix)
{
    size_t n = strlen(name), s = strlen(suffix);
    return n >= s && strcmp(name + n - s, suffix) == 0;
}

int wl_lv_suffix_type(const char *name)
{
    static const struct { const char *s; wl_vt t; } sfx[] = {
        {"_f16", VT_F16}, {"_f32", VT_F32}, {"_f64", VT_F64}, {"_u16", VT_I16}, {"_i16", VT_I16},
        {"_b16", VT_I16}, {"_u32", VT_I32}, {"_i32", VT_I32}, {"_b32", VT_I32}, {"_u64", VT_I64},
        {"_i64", VT_I64}, {"_b64", VT_I64},
    };
    for (size_t i = 0; i < sizeof sfx / sizeof sfx[0]; i++)
        if (wl_lv_ends(name, sfx[i].s))
            return (int)sfx[i].t;
    return -1;
}

wl_status wl_lift_valu(wl_lifter *L, const wl_inst *in)
{
    wl_vx c = {.L = L, .in = in, .b = L->b};
    const char *name = in->name ? in->name : "";
    uint32_t mode = wl_l_mode(L);
    if (((mode & 3) && strstr(name, "_f32")) || ((mode & 0xc) && (strstr(name, "_f16") || strstr(name, "_f64"))))
        return wl_l_refuse(L, "a float operation under a rounding mode other than "
                              "round-to-nearest-even (MODE round bits)");
    if (in->venc == WL_VENC_DPP16 || in->venc == WL_VENC_DPP8) {
        wl_status st = wl_lv_dpp_fetch(&c);
        if (st != WL_OK)
            return st;
    }
    int (*fam[])(wl_vx *, const char *) = {wl_lv_misc, wl_lv_lane, wl_lv_cmp, wl_lv_cvt,
                                           wl_lv_int,  wl_lv_float, wl_lv_pk};
    for (size_t i = 0; i < sizeof fam / sizeof fam[0]; i++) {
        int r = fam[i](&c, name);
        if (r == WL_OK && in->format != WL_FMT_VOP3P && in->f.v.omod && !c.omod_done)
            return wl_l_refuse(L, "output modifier (omod) on an operation without a float result");
        if (r >= 0)
            return (wl_status)r;
    }
    if (strncmp(name, "v_interp_", 9) == 0)
        return wl_l_refuse(L, "pixel-shader attribute interpolation (parameter data in LDS that only the "
                              "graphics pipeline sets up) is not a compute operation");
    if (strcmp(name, "v_mullit_f32") == 0)
        return wl_l_refuse(L, "v_mullit_f32, a legacy lighting operation, is not defined by the ISA text");
    return wl_l_refuse(L, "VALU operation not lifted yet");
}
