/* VOP3P: packed 16-bit operations (v_pk_*), v_fma_mix*, and the integer
 * dot products (VOP3P v_dot* and VOP2 v_dot*c).
 *
 * v_pk_*: the low result takes half op_sel[i] of source i, the high result
 * half op_sel_hi[i]; neg_lo/neg_hi negate float sources per half. Every
 * source is a 32-bit value whose halves are selected: a literal its 32
 * bits; an integer inline constant (-16..64) sign-extended to 32 bits; a
 * float inline constant the f16 value in the low half and 0 in the high
 * half for the f16 operations, the f32 value for the integer ones (LLVM's
 * getInlineEncodingV216, Mesa ACO's constantValue16: docs/lift-valu.md).
 * v_fma_mix*: source i is f16 (half op_sel[i]) when op_sel_hi[i] is set,
 * else f32; neg_lo is neg and neg_hi abs; computed as one f32 fma. A
 * constant in an f16 source is read as in v_pk_*_f16 (its high half 0, or
 * 0xffff for a negative integer); in an f32 source as an f32 (verified
 * only for 0 and the float constants but 1/(2 pi): their value is the same
 * whether the hardware supplies f32 bits or an f16 widened).
 * Float sources and results are flushed per the f16 / f32 denormal modes.
 * Integer dots: sums of products of the lanes' fields plus src2, modulo
 * 2^32, or saturated with clamp. */
#include "lift_valu_internal.h"

#include <string.h>

enum pop { P_ADD, P_SUB, P_MUL, P_FMA, P_MIN, P_MAX, P_SHL, P_LSHR, P_ASHR, P_MAD, P_ADDI, P_SUBI };

static const struct {
    const char *n;
    uint8_t op;
    bool fl, sg;
} pops[] = {
    {"v_pk_add_f16", P_ADD, true, false},   {"v_pk_mul_f16", P_MUL, true, false},
    {"v_pk_fma_f16", P_FMA, true, false},   {"v_pk_min_f16", P_MIN, true, false},
    {"v_pk_max_f16", P_MAX, true, false},   {"v_pk_add_u16", P_ADD, false, false},
    {"v_pk_add_i16", P_ADDI, false, true},  {"v_pk_sub_u16", P_SUB, false, false},
    {"v_pk_sub_i16", P_SUBI, false, true},  {"v_pk_mul_lo_u16", P_MUL, false, false},
    {"v_pk_min_u16", P_MIN, false, false},  {"v_pk_min_i16", P_MIN, false, true},
    {"v_pk_max_u16", P_MAX, false, false},  {"v_pk_max_i16", P_MAX, false, true},
    {"v_pk_lshlrev_b16", P_SHL, false, false}, {"v_pk_lshrrev_b16", P_LSHR, false, false},
    {"v_pk_ashrrev_i16", P_ASHR, false, true}, {"v_pk_mad_u16", P_MAD, false, false},
    {"v_pk_mad_i16", P_MAD, false, true},
};

/* Source i of a packed operation as its 32 bits (wl_l_src32: V2F16 gives
 * a float inline constant's f16 bits, V2B16 its f32 bits). */
static LLVMValueRef pk_src(wl_vx *c, unsigned i, bool fl)
{
    return wl_l_src32(c->L, &c->in->src[i], fl ? WL_IMM_V2F16 : WL_IMM_V2B16);
}

/* Half h (0 low, 1 high) of a raw i32 as i16. */
static LLVMValueRef half(wl_vx *c, LLVMValueRef v, unsigned h)
{
    if (h)
        v = LLVMBuildLShr(c->b, v, wl_l_i32c(c->L, 16), "");
    return LLVMBuildTrunc(c->b, v, c->L->i16, "");
}

static LLVMValueRef pk_one(wl_vx *c, unsigned op, bool fl, bool sg, LLVMValueRef *s)
{
    LLVMBuilderRef b = c->b;
    wl_lifter *L = c->L;
    if (fl) {
        switch (op) {
        case P_ADD: return LLVMBuildFAdd(b, s[0], s[1], "");
        case P_MUL: return LLVMBuildFMul(b, s[0], s[1], "");
        case P_MIN: return wl_vx_fminmax(c, s[0], s[1], false);
        case P_MAX: return wl_vx_fminmax(c, s[0], s[1], true);
        default: return wl_vx_fma16(c, s[0], s[1], s[2]); /* rounded once */
        }
    }
    LLVMValueRef m = LLVMBuildAnd(b, s[0], LLVMConstInt(L->i16, 15, 0), "");
    switch (op) {
    case P_ADD: case P_ADDI: return LLVMBuildAdd(b, s[0], s[1], "");
    case P_SUB: case P_SUBI: return LLVMBuildSub(b, s[0], s[1], "");
    case P_MUL: return LLVMBuildMul(b, s[0], s[1], "");
    case P_MAD: return LLVMBuildAdd(b, LLVMBuildMul(b, s[0], s[1], ""), s[2], "");
    case P_MIN: return wl_vx_intr2(c, sg ? "llvm.smin" : "llvm.umin", s[0], s[1]);
    case P_MAX: return wl_vx_intr2(c, sg ? "llvm.smax" : "llvm.umax", s[0], s[1]);
    case P_SHL: return LLVMBuildShl(b, s[1], m, "");
    case P_LSHR: return LLVMBuildLShr(b, s[1], m, "");
    default: return LLVMBuildAShr(b, s[1], m, "");
    }
}

static wl_status pk_op(wl_vx *c, unsigned k)
{
    wl_lifter *L = c->L;
    LLVMBuilderRef b = c->b;
    const wl_inst *in = c->in;
    const wl_valu_fields *v = &in->f.v;
    bool fl = pops[k].fl;
    if (v->clamp && !fl)
        return wl_l_refuse(L, "integer clamp on a packed operation not lifted");
    if (!fl && (v->neg_lo || v->neg_hi))
        return wl_l_refuse(L, "neg on an integer packed operation");
    LLVMValueRef raw[3];
    for (unsigned i = 0; i < in->nsrc && i < 3; i++)
        raw[i] = pk_src(c, i, fl);
    LLVMValueRef res = wl_l_i32c(L, 0);
    for (unsigned h = 0; h < 2; h++) {
        LLVMValueRef s[3];
        for (unsigned i = 0; i < in->nsrc && i < 3; i++) {
            unsigned sel = h ? (v->op_sel_hi >> i) & 1 : (v->op_sel >> i) & 1;
            LLVMValueRef x = half(c, raw[i], sel);
            if (fl && (((h ? v->neg_hi : v->neg_lo) >> i) & 1))
                x = LLVMBuildXor(b, x, LLVMConstInt(L->i16, 0x8000, 0), "");
            s[i] = fl ? wl_vx_flush_in(c, VT_F16, LLVMBuildBitCast(b, x, L->f16, "")) : x;
        }
        LLVMValueRef r = pk_one(c, pops[k].op, fl, pops[k].sg, s);
        if (fl) {
            r = wl_vx_flush_out(c, VT_F16, r);
            if (v->clamp)
                r = wl_vx_clamp01(c, r);
            r = LLVMBuildBitCast(b, r, L->i16, "");
        }
        r = LLVMBuildShl(b, LLVMBuildZExt(b, r, L->i32, ""), wl_l_i32c(L, 16 * h), "");
        res = LLVMBuildOr(b, res, r, "");
    }
    return wl_vx_put(c, res, VT_I32);
}

static wl_status fma_mix(wl_vx *c, const char *name)
{
    wl_lifter *L = c->L;
    LLVMBuilderRef b = c->b;
    const wl_inst *in = c->in;
    const wl_valu_fields *v = &in->f.v;
    LLVMValueRef s[3];
    for (unsigned i = 0; i < 3; i++) {
        LLVMValueRef raw, x;
        bool f16 = (v->op_sel_hi >> i) & 1;
        raw = wl_l_src32(L, &in->src[i], f16 ? WL_IMM_V2F16 : WL_IMM_F32);
        if (f16)
            x = LLVMBuildFPExt(b, wl_vx_flush_in(c, VT_F16, LLVMBuildBitCast(b, half(c, raw, (v->op_sel >> i) & 1), L->f16, "")), L->f32, "");
        else
            x = wl_vx_flush_in(c, VT_F32, LLVMBuildBitCast(b, raw, L->f32, ""));
        if ((v->neg_hi >> i) & 1)
            x = wl_vx_intr1(c, "llvm.fabs", x);
        if ((v->neg_lo >> i) & 1)
            x = LLVMBuildFNeg(b, x, "");
        s[i] = x;
    }
    LLVMTypeRef t = L->f32;
    LLVMValueRef r = wl_vx_intr(c, "llvm.fma", &t, 1, s, 3);
    if (strcmp(name, "v_fma_mix_f32") == 0) {
        r = wl_vx_flush_out(c, VT_F32, r);
        if (v->clamp)
            r = wl_vx_clamp01(c, r);
        return wl_vx_put(c, LLVMBuildBitCast(b, r, L->i32, ""), VT_I32);
    }
    LLVMValueRef h = wl_vx_flush_out(c, VT_F16, LLVMBuildFPTrunc(b, r, L->f16, ""));
    if (v->clamp)
        h = wl_vx_clamp01(c, h);
    LLVMValueRef hb = LLVMBuildZExt(b, LLVMBuildBitCast(b, h, L->i16, ""), L->i32, "");
    const wl_operand *d = &in->dst[0];
    if (d->kind != WL_OPND_VGPR)
        return wl_l_refuse(L, "destination is not a VGPR");
    LLVMValueRef old = wl_l_get_v32(L, d->index), nv;
    if (strcmp(name, "v_fma_mixhi_f16") == 0)
        nv = LLVMBuildOr(b, LLVMBuildAnd(b, old, wl_l_i32c(L, 0xffff), ""),
                         LLVMBuildShl(b, hb, wl_l_i32c(L, 16), ""), "");
    else
        nv = LLVMBuildOr(b, LLVMBuildAnd(b, old, wl_l_i32c(L, 0xffff0000u), ""), hb, "");
    wl_l_set_v32(L, d->index, nv);
    return WL_OK;
}

/* Integer dot products: n fields of `bits` bits of src0 and src1, plus
 * src2 (or the destination for the VOP2 "c" forms); clamp saturates the
 * exact sum to the 32-bit range of the result's signedness. */
static wl_status idot(wl_vx *c, unsigned n, unsigned bits, bool sg, bool acc_dst)
{
    wl_lifter *L = c->L;
    LLVMBuilderRef b = c->b;
    const wl_inst *in = c->in;
    if (in->format == WL_FMT_VOP3P && (in->f.v.op_sel || in->f.v.neg_lo || in->f.v.neg_hi))
        return wl_l_refuse(L, "op_sel/neg on a dot product not lifted");
    LLVMValueRef a = wl_vx_src(c, 0, VT_I32), s1 = wl_vx_src(c, 1, VT_I32), acc;
    if (acc_dst) {
        if (in->dst[0].kind != WL_OPND_VGPR)
            return wl_l_refuse(L, "destination is not a VGPR");
        acc = wl_l_get_v32(L, in->dst[0].index);
    } else {
        acc = wl_vx_src(c, 2, VT_I32);
    }
    acc = sg ? LLVMBuildSExt(b, acc, L->i64, "") : LLVMBuildZExt(b, acc, L->i64, "");
    for (unsigned i = 0; i < n; i++) {
        /* field i by shifts in i32 (no i4: outside the host IR profile at -O0) */
        LLVMValueRef x, y;
        if (sg) {
            LLVMValueRef up = wl_l_i32c(L, 32 - (i + 1) * bits), down = wl_l_i32c(L, 32 - bits);
            x = LLVMBuildAShr(b, LLVMBuildShl(b, a, up, ""), down, "");
            y = LLVMBuildAShr(b, LLVMBuildShl(b, s1, up, ""), down, "");
        } else {
            LLVMValueRef sh = wl_l_i32c(L, i * bits), m = wl_l_i32c(L, (1u << bits) - 1);
            x = LLVMBuildAnd(b, LLVMBuildLShr(b, a, sh, ""), m, "");
            y = LLVMBuildAnd(b, LLVMBuildLShr(b, s1, sh, ""), m, "");
        }
        x = sg ? LLVMBuildSExt(b, x, L->i64, "") : LLVMBuildZExt(b, x, L->i64, "");
        y = sg ? LLVMBuildSExt(b, y, L->i64, "") : LLVMBuildZExt(b, y, L->i64, "");
        acc = LLVMBuildAdd(b, acc, LLVMBuildMul(b, x, y, ""), "");
    }
    if (in->f.v.clamp) {
        if (sg)
            acc = wl_vx_intr2(c, "llvm.smax", wl_vx_intr2(c, "llvm.smin", acc, wl_l_i64c(L, 0x7fffffff)),
                              wl_l_i64c(L, 0xffffffff80000000ull));
        else
            acc = wl_vx_intr2(c, "llvm.umin", acc, wl_l_i64c(L, 0xffffffffu));
    }
    return wl_vx_put(c, LLVMBuildTrunc(b, acc, L->i32, ""), VT_I32);
}

/* V_PK_FMAC_F16 (VOP2): D.f16[h] = fma(S0.f16[h], S1.f16[h], D.f16[h]) for
 * both halves h, each rounded once; f16 denormals as the mode says. S0 is
 * read as pk_src reads it (a float inline constant: f16 low, 0 high). */
static wl_status pk_fmac(wl_vx *c)
{
    wl_lifter *L = c->L;
    LLVMBuilderRef b = c->b;
    const wl_operand *d = &c->in->dst[0];
    if (c->in->ndst < 1 || d->kind != WL_OPND_VGPR)
        return wl_l_refuse(L, "destination is not a VGPR");
    LLVMValueRef s[3] = {pk_src(c, 0, true), pk_src(c, 1, true), wl_l_get_v32(L, d->index)};
    LLVMValueRef res = wl_l_i32c(L, 0);
    for (unsigned h = 0; h < 2; h++) {
        LLVMValueRef x[3];
        for (unsigned i = 0; i < 3; i++)
            x[i] = wl_vx_flush_in(c, VT_F16, LLVMBuildBitCast(b, half(c, s[i], h), L->f16, ""));
        LLVMValueRef r = wl_vx_flush_out(c, VT_F16, wl_vx_fma16(c, x[0], x[1], x[2]));
        if (c->in->f.v.clamp)
            r = wl_vx_clamp01(c, r);
        r = LLVMBuildZExt(b, LLVMBuildBitCast(b, r, L->i16, ""), L->i32, "");
        res = LLVMBuildOr(b, res, LLVMBuildShl(b, r, wl_l_i32c(L, 16 * h), ""), "");
    }
    return wl_vx_put(c, res, VT_I32);
}

int wl_lv_pk(wl_vx *c, const char *name)
{
    if (strcmp(name, "v_pk_fmac_f16") == 0)
        return pk_fmac(c);
    for (unsigned k = 0; k < sizeof pops / sizeof pops[0]; k++)
        if (strcmp(pops[k].n, name) == 0)
            return pk_op(c, k);
    if (strncmp(name, "v_fma_mix", 9) == 0)
        return fma_mix(c, name);
    static const struct { const char *n; uint8_t cnt, bits; bool sg, accd; } dots[] = {
        {"v_dot2_i32_i16", 2, 16, true, false}, {"v_dot2_u32_u16", 2, 16, false, false},
        {"v_dot4_i32_i8", 4, 8, true, false},   {"v_dot4_u32_u8", 4, 8, false, false},
        {"v_dot8_i32_i4", 8, 4, true, false},   {"v_dot8_u32_u4", 8, 4, false, false},
        {"v_dot4c_i32_i8", 4, 8, true, true},
    };
    for (unsigned k = 0; k < sizeof dots / sizeof dots[0]; k++)
        if (strcmp(dots[k].n, name) == 0)
            return idot(c, dots[k].cnt, dots[k].bits, dots[k].sg, dots[k].accd);
    if (strncmp(name, "v_pk_", 5) == 0 || strncmp(name, "v_dot", 5) == 0)
        return wl_l_refuse(c->L, "packed operation not lifted yet");
    return -1;
}
