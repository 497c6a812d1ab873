/* VALU float operations on f16, f32, f64: add/sub/subrev/mul, fma (fmac,
 * fmaak, fmamk), min/max (IEEE mode: llvm.minnum/maxnum, a quiet NaN loses
 * to a number, a signaling NaN gives a quiet NaN), min3/max3/med3 (the ISA's NaN rule: any NaN gives min3),
 * (wl_vx_fminmax: sNaN quieted, +0 > -0), ldexp and frexp_mant (exact:
 * lift_valu_scale.c), the roundings, fract, rcp/rsq/sqrt/exp/log/sin/cos,
 * v_mul_legacy_f32. Transcendentals are the host's: rcp and rsq as IEEE
 * divisions (correctly rounded, where the hardware's v_rcp_f32 has 1 ULP),
 * sqrt as llvm.sqrt, exp/log as llvm.exp2/log2 for f16 and computed in f64
 * for f32 (lift_valu_transc.c), sin/cos of x * 2pi (the
 * hardware takes revolutions). The legacy multiply-adds: see mad() below.
 * The division helpers are in lift_valu_div.c. */
#include "lift_valu_internal.h"

#include <string.h>

enum fop {
    F_ADD, F_SUB, F_SUBREV, F_MUL, F_MIN, F_MAX, F_FMA, F_FMAC, F_MIN3, F_MAX3, F_MED3,
    F_LDEXP, F_TRUNC, F_CEIL, F_FLOOR, F_RNDNE, F_FRACT, F_FREXP_MANT, F_RCP, F_RSQ, F_SQRT,
    F_EXP, F_LOG, F_SIN, F_COS, F_MUL_LEGACY, F_MAD, F_MAC, F_MAD_LEGACY, F_MAC_LEGACY,
    F_FMA_LEGACY, F_FMAC_LEGACY
};

static const struct {
    const char *base; /* without the type suffix */
    uint8_t op;
    uint8_t types; /* bit 0 f16, bit 1 f32, bit 2 f64 */
} fops[] = {
    {"v_add", F_ADD, 7}, {"v_sub", F_SUB, 3}, {"v_subrev", F_SUBREV, 3}, {"v_mul", F_MUL, 7},
    {"v_min", F_MIN, 7}, {"v_max", F_MAX, 7}, {"v_fma", F_FMA, 7}, {"v_fmac", F_FMAC, 3},
    {"v_fmaak", F_FMA, 3}, {"v_fmamk", F_FMA, 3}, {"v_min3", F_MIN3, 3}, {"v_max3", F_MAX3, 3},
    {"v_med3", F_MED3, 3}, {"v_ldexp", F_LDEXP, 7}, {"v_trunc", F_TRUNC, 7},
    {"v_ceil", F_CEIL, 7}, {"v_floor", F_FLOOR, 7}, {"v_rndne", F_RNDNE, 7},
    {"v_fract", F_FRACT, 7}, {"v_frexp_mant", F_FREXP_MANT, 7}, {"v_rcp", F_RCP, 7},
    {"v_rcp_iflag", F_RCP, 2}, {"v_rsq", F_RSQ, 7}, {"v_sqrt", F_SQRT, 7}, {"v_exp", F_EXP, 3},
    {"v_log", F_LOG, 3}, {"v_sin", F_SIN, 3}, {"v_cos", F_COS, 3},
    {"v_mul_legacy", F_MUL_LEGACY, 2}, {"v_mad", F_MAD, 2}, {"v_madak", F_MAD, 2},
    {"v_madmk", F_MAD, 2}, {"v_mac", F_MAC, 2}, {"v_mad_legacy", F_MAD_LEGACY, 2},
    {"v_mac_legacy", F_MAC_LEGACY, 2}, {"v_fma_legacy", F_FMA_LEGACY, 2},
    {"v_fmac_legacy", F_FMAC_LEGACY, 2},
};

static LLVMValueRef fmin2(wl_vx *c, LLVMValueRef a, LLVMValueRef b, bool max)
{
    return wl_vx_fminmax(c, a, b, max);
}

/* v_med3_f*: any NaN -> min3; else the ISA's pick: the max of the two
 * operands left when the first one equal to max3 is taken out (S0, S1, S2
 * in order). Computed on numbers only, as where it is taken no operand is
 * a NaN: max3 is only compared (==, so the sign of a zero is not needed and
 * maxnum is enough), and the pair is chosen before the one max that must
 * order +0 above -0. */
static LLVMValueRef fmed3(wl_vx *c, LLVMValueRef a, LLVMValueRef b, LLVMValueRef d)
{
    LLVMBuilderRef bd = c->b;
    LLVMValueRef anynan = LLVMBuildOr(bd, wl_vx_isnan(c, a),
                                      LLVMBuildOr(bd, wl_vx_isnan(c, b), wl_vx_isnan(c, d), ""), "");
    LLVMValueRef mn3 = fmin2(c, fmin2(c, a, b, false), d, false);
    LLVMValueRef mx3 = wl_vx_intr2(c, "llvm.maxnum", wl_vx_intr2(c, "llvm.maxnum", a, b), d);
    LLVMValueRef is_a = LLVMBuildFCmp(bd, LLVMRealOEQ, mx3, a, "");
    LLVMValueRef is_ab = LLVMBuildOr(bd, is_a, LLVMBuildFCmp(bd, LLVMRealOEQ, mx3, b, ""), "");
    /* out a: max(b, d); out b: max(a, d); else max(a, b) */
    LLVMValueRef x = LLVMBuildSelect(bd, is_a, b, a, ""), y = LLVMBuildSelect(bd, is_ab, d, b, "");
    return LLVMBuildSelect(bd, anynan, mn3, wl_vx_fminmax_num(c, x, y, true), "");
}

/* The accumulator of the mac forms: the destination VGPR (an f32). */
static LLVMValueRef acc_of(wl_vx *c)
{
    wl_lifter *L = c->L;
    return LLVMBuildBitCast(c->b, wl_l_get_v32(L, c->in->dst[0].index), L->f32, "");
}

/* The f32 multiply-adds that are not v_fma_f32 (gfx1010: v_mad_f32,
 * v_mac_f32, v_madak_f32, v_madmk_f32, v_mad_legacy_f32, v_mac_legacy_f32;
 * gfx1030: v_fma_legacy_f32, v_fmac_legacy_f32):
 *   mad:        D = S0 * S1 + S2, the product rounded, then the sum
 *   mad_legacy: the same with DX9's rule: 0 * anything (inf, NaN) = +0
 *   fma_legacy: D = S0 * S1 + S2 fused, 0 * anything = +0 (so the result
 *               is +0 + S2)
 * (mac: S2 is D; madak: S2 a literal; madmk: S1 a literal, in the
 * decoder's source order). The mad forms do not support denormals (LLVM
 * selects them only where f32 denormals are flushed): their inputs, the
 * product and the result are flushed to zeros of their sign whatever the
 * mode. The fma_legacy forms follow the mode like v_fma_f32. */
static LLVMValueRef mad(wl_vx *c, unsigned op, LLVMValueRef a, LLVMValueRef s1, LLVMValueRef s2)
{
    LLVMBuilderRef b = c->b;
    LLVMValueRef zero = wl_vx_fconst(c, VT_F32, 0);
    bool legacy = op == F_MAD_LEGACY || op == F_MAC_LEGACY || op == F_FMA_LEGACY || op == F_FMAC_LEGACY;
    bool fused = op == F_FMA_LEGACY || op == F_FMAC_LEGACY;
    if (!fused) {
        a = wl_vx_flush(c, VT_F32, a);
        s1 = wl_vx_flush(c, VT_F32, s1);
        s2 = wl_vx_flush(c, VT_F32, s2);
    }
    LLVMValueRef r;
    if (fused) {
        LLVMValueRef args[3] = {a, s1, s2};
        LLVMTypeRef ty = c->L->f32;
        r = wl_vx_intr(c, "llvm.fma", &ty, 1, args, 3);
    } else {
        LLVMValueRef p = LLVMBuildFMul(b, a, s1, "");
        r = LLVMBuildFAdd(b, wl_vx_flush(c, VT_F32, p), s2, "");
    }
    if (legacy) {
        LLVMValueRef z = LLVMBuildOr(b, LLVMBuildFCmp(b, LLVMRealOEQ, a, zero, ""),
                                     LLVMBuildFCmp(b, LLVMRealOEQ, s1, zero, ""), "");
        r = LLVMBuildSelect(b, z, LLVMBuildFAdd(b, zero, s2, ""), r, "");
    }
    return fused ? r : wl_vx_flush(c, VT_F32, r);
}

/* A v_fma_f32 (fmac, fmaak, fmamk) whose operands are flushed (wl_vx_src)
 * and whose fused result is the instruction's, flushed by wl_vx_put: the
 * f32 denormal mode flushes both, no omod or clamp between. */
static bool whole_flushed_fma(wl_vx *c, wl_vt t)
{
    return t == VT_F32 && wl_vx_denorm_mode(c, VT_F32) == 0 && !c->in->f.v.omod && !c->in->f.v.clamp &&
           c->in->venc != WL_VENC_SDWA;
}

int wl_lv_float(wl_vx *c, const char *name)
{
    int ti = wl_lv_suffix_type(name);
    if (ti != VT_F16 && ti != VT_F32 && ti != VT_F64)
        return -1;
    wl_vt t = (wl_vt)ti;
    size_t blen = strlen(name) - 4;
    size_t k;
    for (k = 0; k < sizeof fops / sizeof fops[0]; k++)
        if (strlen(fops[k].base) == blen && strncmp(fops[k].base, name, blen) == 0)
            break;
    wl_lifter *L = c->L;
    if (k == sizeof fops / sizeof fops[0]) {
        int d = wl_lv_div(c, name); /* the division helpers (lift_valu_div.c) */
        if (d >= 0)
            return d;
        if (strncmp(name, "v_div_", 6) == 0 || strncmp(name, "v_mad_", 6) == 0 ||
            strncmp(name, "v_mac_", 6) == 0 || strncmp(name, "v_madak", 7) == 0 ||
            strncmp(name, "v_madmk", 7) == 0)
            return wl_l_refuse(L, "float operation not lifted yet");
        return -1;
    }
    unsigned tbit = t == VT_F16 ? 1 : t == VT_F32 ? 2 : 4;
    if (!(fops[k].types & tbit))
        return -1;
    LLVMBuilderRef b = c->b;
    LLVMTypeRef ty = LLVMTypeOf(wl_vx_fconst(c, t, 0));
    unsigned op = fops[k].op;
    LLVMValueRef a = wl_vx_src(c, 0, t), r;
    switch (op) {
    case F_ADD: r = LLVMBuildFAdd(b, a, wl_vx_src(c, 1, t), ""); break;
    case F_SUB: r = LLVMBuildFSub(b, a, wl_vx_src(c, 1, t), ""); break;
    case F_SUBREV: r = LLVMBuildFSub(b, wl_vx_src(c, 1, t), a, ""); break;
    case F_MUL: r = LLVMBuildFMul(b, a, wl_vx_src(c, 1, t), ""); break;
    case F_MUL_LEGACY: {
        LLVMValueRef s1 = wl_vx_src(c, 1, t);
        LLVMValueRef z = LLVMBuildOr(b, LLVMBuildFCmp(b, LLVMRealOEQ, a, wl_vx_fconst(c, t, 0), ""),
                                     LLVMBuildFCmp(b, LLVMRealOEQ, s1, wl_vx_fconst(c, t, 0), ""), "");
        r = LLVMBuildSelect(b, z, wl_vx_fconst(c, t, 0), LLVMBuildFMul(b, a, s1, ""), "");
        break;
    }
    case F_MAD:
    case F_MAD_LEGACY:
    case F_FMA_LEGACY:
        r = mad(c, op, a, wl_vx_src(c, 1, t), wl_vx_src(c, 2, t));
        break;
    case F_MAC:
    case F_MAC_LEGACY:
    case F_FMAC_LEGACY: {
        if (c->in->dst[0].kind != WL_OPND_VGPR)
            return wl_l_refuse(L, "destination is not a VGPR");
        LLVMValueRef acc = acc_of(c);
        if (op == F_FMAC_LEGACY)
            acc = wl_vx_flush_in(c, VT_F32, acc);
        r = mad(c, op, a, wl_vx_src(c, 1, t), acc);
        break;
    }
    case F_MIN: r = fmin2(c, a, wl_vx_src(c, 1, t), false); break;
    case F_MAX: r = fmin2(c, a, wl_vx_src(c, 1, t), true); break;
    case F_FMA: {
        LLVMValueRef args[3] = {a, wl_vx_src(c, 1, t), wl_vx_src(c, 2, t)};
        c->fma_flushed = whole_flushed_fma(c, t);
        r = t == VT_F16 ? wl_vx_fma16(c, args[0], args[1], args[2]) : wl_vx_intr(c, "llvm.fma", &ty, 1, args, 3);
        break;
    }
    case F_FMAC: {
        const wl_operand *d = &c->in->dst[0];
        if (d->kind != WL_OPND_VGPR)
            return wl_l_refuse(L, "destination is not a VGPR");
        LLVMValueRef acc = wl_l_get_v32(L, d->index);
        if (t == VT_F16)
            acc = LLVMBuildTrunc(b, acc, L->i16, "");
        acc = wl_vx_flush_in(c, t, LLVMBuildBitCast(b, acc, ty, ""));
        LLVMValueRef args[3] = {a, wl_vx_src(c, 1, t), acc};
        c->fma_flushed = whole_flushed_fma(c, t);
        r = t == VT_F16 ? wl_vx_fma16(c, args[0], args[1], args[2]) : wl_vx_intr(c, "llvm.fma", &ty, 1, args, 3);
        break;
    }
    case F_MIN3: r = fmin2(c, fmin2(c, a, wl_vx_src(c, 1, t), false), wl_vx_src(c, 2, t), false); break;
    case F_MAX3: r = fmin2(c, fmin2(c, a, wl_vx_src(c, 1, t), true), wl_vx_src(c, 2, t), true); break;
    case F_MED3: r = fmed3(c, a, wl_vx_src(c, 1, t), wl_vx_src(c, 2, t)); break;
    case F_LDEXP: {
        LLVMValueRef e = t == VT_F16 ? LLVMBuildSExt(b, wl_vx_src(c, 1, VT_I16), L->i32, "")
                                     : wl_vx_src(c, 1, VT_I32);
        r = wl_vx_ldexp(c, t, a, e);
        break;
    }
    case F_TRUNC: r = wl_vx_intr1(c, "llvm.trunc", a); break;
    case F_CEIL: r = wl_vx_intr1(c, "llvm.ceil", a); break;
    case F_FLOOR: r = wl_vx_intr1(c, "llvm.floor", a); break;
    case F_RNDNE: r = wl_vx_intr1(c, "llvm.roundeven", a); break;
    case F_FRACT: {
        /* x - floor(x), at most the largest value below 1; NaN and inf give NaN. */
        static const uint64_t below1[3] = {0x3bff, 0x3f7fffff, 0x3fefffffffffffffull};
        LLVMValueRef f = LLVMBuildFSub(b, a, wl_vx_intr1(c, "llvm.floor", a), "");
        LLVMValueRef lim = wl_vx_const(c, t, below1[t == VT_F16 ? 0 : t == VT_F32 ? 1 : 2]);
        LLVMValueRef m = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, f, lim, ""), f, lim, "");
        r = LLVMBuildSelect(b, wl_vx_isnan(c, f), f, m, "");
        break;
    }
    case F_FREXP_MANT: {
        LLVMValueRef ex;
        wl_vx_frexp(c, t, a, &r, &ex);
        break;
    }
    case F_RCP: r = LLVMBuildFDiv(b, wl_vx_fconst(c, t, 1.0), a, ""); break;
    case F_RSQ: r = LLVMBuildFDiv(b, wl_vx_fconst(c, t, 1.0), wl_vx_intr1(c, "llvm.sqrt", a), ""); break;
    case F_SQRT: r = wl_vx_intr1(c, "llvm.sqrt", a); break;
    case F_EXP: r = t == VT_F32 ? wl_vx_exp2_f32(c, a) : wl_vx_intr1(c, "llvm.exp2", a); break;
    case F_LOG: r = t == VT_F32 ? wl_vx_log2_f32(c, a) : wl_vx_intr1(c, "llvm.log2", a); break;
    case F_SIN:
    case F_COS: {
        LLVMValueRef x = LLVMBuildFMul(b, a, wl_vx_fconst(c, t, 6.283185307179586), "");
        r = wl_vx_intr1(c, op == F_SIN ? "llvm.sin" : "llvm.cos", x);
        break;
    }
    default:
        return wl_l_refuse(L, "float operation not lifted");
    }
    return wl_vx_put(c, r, t);
}
