/* VALU operations of their own kind: the masked SAD, v_sad_u32, the quad
 * SADs (v_qsad_pk_u16_u8, v_mqsad_pk_u16_u8, v_mqsad_u32_u8), the cube
 * map helpers, the f16 dot products into f32, and M0-relative VGPR
 * indexing (v_movrels/v_movreld/v_movrelsd/v_movrelsd_2). Semantics from
 * the RDNA ISA's pseudocode, above each routine. */
#include "lift_valu_internal.h"
#include "ir/wave_ir.h"

#include <string.h>

/* |x - y| of two unsigned i32 values. */
static LLVMValueRef absdiff(wl_vx *c, LLVMValueRef x, LLVMValueRef y)
{
    LLVMBuilderRef b = c->b;
    return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, x, y, ""), LLVMBuildSub(b, x, y, ""),
                           LLVMBuildSub(b, y, x, ""), "");
}

/* V_MSAD_U8: D.u32 = S2.u32 + sum over bytes i of (S1.u8[i] == 0 ? 0 :
 * |S0.u8[i] - S1.u8[i]|): the reference S1 masks its zero bytes.
 * V_SAD_U32: D.u32 = |S0.u32 - S1.u32| + S2.u32. Both modulo 2^32; clamp
 * (saturation) is refused. */
/* acc + the (masked) byte SAD of x against the reference y (i32). */
static LLVMValueRef sad4(wl_vx *c, LLVMValueRef x0, LLVMValueRef y0, LLVMValueRef r, bool masked)
{
    wl_lifter *L = c->L;
    LLVMBuilderRef b = c->b;
    for (unsigned i = 0; i < 4; i++) {
        LLVMValueRef sh = wl_l_i32c(L, 8 * i), m = wl_l_i32c(L, 0xff);
        LLVMValueRef x = LLVMBuildAnd(b, LLVMBuildLShr(b, x0, sh, ""), m, "");
        LLVMValueRef y = LLVMBuildAnd(b, LLVMBuildLShr(b, y0, sh, ""), m, "");
        LLVMValueRef d = absdiff(c, x, y);
        if (masked)
            d = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, y, wl_l_i32c(L, 0), ""), wl_l_i32c(L, 0), d, "");
        r = LLVMBuildAdd(b, r, d, "");
    }
    return r;
}

static wl_status lift_sad(wl_vx *c, bool masked)
{
    wl_lifter *L = c->L;
    LLVMBuilderRef b = c->b;
    if (c->in->f.v.clamp)
        return wl_l_refuse(L, "clamp (saturation) on a SAD not lifted");
    LLVMValueRef s0 = wl_vx_src(c, 0, VT_I32), s1 = wl_vx_src(c, 1, VT_I32), r = wl_vx_src(c, 2, VT_I32);
    if (!masked)
        return wl_vx_put(c, LLVMBuildAdd(b, r, absdiff(c, s0, s1), ""), VT_I32);
    return wl_vx_put(c, sad4(c, s0, s1, r, true), VT_I32);
}

/* The quad SADs: four byte SADs of S1 (32 bits, the reference) against the
 * dwords of S0 (64 bits) starting at bytes 0, 1, 2, 3:
 *   V_QSAD_PK_U16_U8:  D.u16[i] = 16'B(v_sad_u8(S0[8i+31 : 8i], S1, S2.u16[i]))
 *   V_MQSAD_PK_U16_U8: the same with v_msad_u8 (D, S2: 64 bits)
 *   V_MQSAD_U32_U8:    D.u32[i] = v_msad_u8(S0[8i+31 : 8i], S1, S2.u32[i])
 *                      (D, S2: 128 bits; S2 must be registers)
 * clamp is refused. */
static wl_status lift_qsad(wl_vx *c, bool masked, bool u32)
{
    wl_lifter *L = c->L;
    LLVMBuilderRef b = c->b;
    const wl_inst *in = c->in;
    if (in->f.v.clamp)
        return wl_l_refuse(L, "clamp (saturation) on a SAD not lifted");
    if (in->ndst < 1 || in->dst[0].kind != WL_OPND_VGPR)
        return wl_l_refuse(L, "destination is not a VGPR");
    LLVMValueRef s0 = wl_vx_src(c, 0, VT_I64), s1 = wl_vx_src(c, 1, VT_I32);
    if (!u32) {
        LLVMValueRef s2 = wl_vx_src(c, 2, VT_I64), d = wl_l_i64c(L, 0);
        for (unsigned i = 0; i < 4; i++) {
            LLVMValueRef x = LLVMBuildTrunc(b, LLVMBuildLShr(b, s0, wl_l_i64c(L, 8 * i), ""), L->i32, "");
            LLVMValueRef acc = LLVMBuildTrunc(b, LLVMBuildLShr(b, s2, wl_l_i64c(L, 16 * i), ""), L->i32, "");
            acc = LLVMBuildAnd(b, acc, wl_l_i32c(L, 0xffff), "");
            LLVMValueRef r = LLVMBuildAnd(b, sad4(c, x, s1, acc, masked), wl_l_i32c(L, 0xffff), "");
            d = LLVMBuildOr(b, d, LLVMBuildShl(b, LLVMBuildZExt(b, r, L->i64, ""), wl_l_i64c(L, 16 * i), ""), "");
        }
        return wl_vx_put(c, d, VT_I64);
    }
    const wl_operand *o2 = &in->src[2];
    if (o2->kind != WL_OPND_VGPR && o2->kind != WL_OPND_SGPR)
        return wl_l_refuse(L, "a 128-bit accumulator that is not in registers");
    LLVMValueRef r[4];
    for (unsigned i = 0; i < 4; i++) {
        wl_operand k = *o2;
        k.index = (uint16_t)(o2->index + i);
        k.nregs = 1;
        LLVMValueRef x = LLVMBuildTrunc(b, LLVMBuildLShr(b, s0, wl_l_i64c(L, 8 * i), ""), L->i32, "");
        r[i] = sad4(c, x, s1, wl_l_src32(L, &k, WL_IMM_B32), true);
    }
    LLVMValueRef act = wl_l_active(L);
    for (unsigned i = 0; i < 4; i++)
        wl_l_set_v32_if(L, in->dst[0].index + i, r[i], act);
    return WL_OK;
}

/* The cube map helpers; (S0, S1, S2) = (x, y, z). The major axis:
 *   z if |z| >= |x| and |z| >= |y|, else y if |y| >= |x|, else x
 * (ordered compares: a NaN makes the test false).
 *   V_CUBEID_F32: z: z < 0 ? 5 : 4; y: y < 0 ? 3 : 2; x: x < 0 ? 1 : 0
 *   V_CUBESC_F32: z: z < 0 ? -x : x; y: x;          x: x < 0 ? z : -z
 *   V_CUBETC_F32: z: -y;             y: y < 0 ? -z : z; x: -y
 *   V_CUBEMA_F32: 2 * the major axis' coordinate (z, y or x). */
static wl_status lift_cube(wl_vx *c, char which)
{
    LLVMBuilderRef b = c->b;
    LLVMValueRef x = wl_vx_src(c, 0, VT_F32), y = wl_vx_src(c, 1, VT_F32), z = wl_vx_src(c, 2, VT_F32);
    LLVMValueRef ax = wl_vx_intr1(c, "llvm.fabs", x), ay = wl_vx_intr1(c, "llvm.fabs", y);
    LLVMValueRef az = wl_vx_intr1(c, "llvm.fabs", z);
    LLVMValueRef zmaj = LLVMBuildAnd(b, LLVMBuildFCmp(b, LLVMRealOGE, az, ax, ""),
                                     LLVMBuildFCmp(b, LLVMRealOGE, az, ay, ""), "");
    LLVMValueRef ymaj = LLVMBuildFCmp(b, LLVMRealOGE, ay, ax, "");
    LLVMValueRef zero = wl_vx_fconst(c, VT_F32, 0.0);
    LLVMValueRef xn = LLVMBuildFCmp(b, LLVMRealOLT, x, zero, "");
    LLVMValueRef yn = LLVMBuildFCmp(b, LLVMRealOLT, y, zero, "");
    LLVMValueRef zn = LLVMBuildFCmp(b, LLVMRealOLT, z, zero, "");
#define SEL(p, t, f) LLVMBuildSelect(b, (p), (t), (f), "")
#define K(v) wl_vx_fconst(c, VT_F32, (v))
    LLVMValueRef nx = LLVMBuildFNeg(b, x, ""), ny = LLVMBuildFNeg(b, y, ""), nz = LLVMBuildFNeg(b, z, "");
    LLVMValueRef r;
    switch (which) {
    case 'i':
        r = SEL(zmaj, SEL(zn, K(5.0), K(4.0)), SEL(ymaj, SEL(yn, K(3.0), K(2.0)), SEL(xn, K(1.0), K(0.0))));
        break;
    case 's': r = SEL(zmaj, SEL(zn, nx, x), SEL(ymaj, x, SEL(xn, z, nz))); break;
    case 't': r = SEL(zmaj, ny, SEL(ymaj, SEL(yn, nz, z), ny)); break;
    default: r = LLVMBuildFMul(b, SEL(zmaj, z, SEL(ymaj, y, x)), K(2.0), ""); break;
    }
#undef SEL
#undef K
    return wl_vx_put(c, r, VT_F32);
}

/* V_DOT2_F32_F16 (VOP3P) and V_DOT2C_F32_F16 (VOP2, accumulating into D):
 *   tmp = S2.f32 (D for the c form); tmp += S0.f16[0] * S1.f16[0];
 *   tmp += S0.f16[1] * S1.f16[1]; D.f32 = tmp
 * read as two f32 fused multiply-adds in that order (the f16 products are
 * exact in f32). VOP3P: neg_lo/neg_hi negate the halves of S0 and S1;
 * op_sel other than [0,0,0] / op_sel_hi other than [1,1,1] and a negated
 * S2 are refused. A constant in S0/S1 is the 32-bit value of a packed f16
 * source (a float inline constant: f16 low, 0 high), in S2 an f32 one. f16 inputs follow the f16 denormal mode, S2 and the
 * result the f32 one; clamp to [0, 1]. */
static wl_status lift_fdot2(wl_vx *c, bool acc_dst)
{
    wl_lifter *L = c->L;
    LLVMBuilderRef b = c->b;
    const wl_inst *in = c->in;
    const wl_valu_fields *v = &in->f.v;
    bool p3 = in->format == WL_FMT_VOP3P;
    if (p3 && ((v->op_sel & 7) != 0 || (v->op_sel_hi & 7) != 7 || ((v->neg_lo | v->neg_hi) & 4)))
        return wl_l_refuse(L, "op_sel or a negated accumulator on v_dot2_f32_f16 not lifted");
    LLVMValueRef acc;
    if (acc_dst) {
        if (in->dst[0].kind != WL_OPND_VGPR)
            return wl_l_refuse(L, "destination is not a VGPR");
        acc = LLVMBuildBitCast(b, wl_l_get_v32(L, in->dst[0].index), L->f32, "");
    } else {
        acc = LLVMBuildBitCast(b, wl_l_src32(L, &in->src[2], WL_IMM_F32), L->f32, "");
    }
    acc = wl_vx_flush_in(c, VT_F32, acc);
    LLVMValueRef raw[2];
    for (unsigned i = 0; i < 2; i++) {
        if (!p3 && (in->src[i].abs || in->src[i].neg))
            return wl_l_refuse(L, "abs/neg on a packed f16 source not lifted");
        /* a constant as in v_pk_*_f16 (docs/lift-valu.md); DPP/SDWA through wl_vx_srci */
        bool konst = in->src[i].kind == WL_OPND_INLINE || in->src[i].kind == WL_OPND_LITERAL;
        raw[i] = p3 || konst ? wl_l_src32(L, &in->src[i], WL_IMM_V2F16) : wl_vx_srci(c, i, VT_I32);
    }
    LLVMTypeRef t = L->f32;
    for (unsigned h = 0; h < 2; h++) {
        LLVMValueRef f[2];
        for (unsigned i = 0; i < 2; i++) {
            LLVMValueRef x = LLVMBuildTrunc(b, h ? LLVMBuildLShr(b, raw[i], wl_l_i32c(L, 16), "") : raw[i],
                                            L->i16, "");
            if (p3 && (((h ? v->neg_hi : v->neg_lo) >> i) & 1))
                x = LLVMBuildXor(b, x, LLVMConstInt(L->i16, 0x8000, 0), "");
            x = wl_vx_flush_in(c, VT_F16, LLVMBuildBitCast(b, x, L->f16, ""));
            f[i] = LLVMBuildFPExt(b, x, t, "");
        }
        LLVMValueRef args[3] = {f[0], f[1], acc};
        acc = wl_vx_intr(c, "llvm.fma", &t, 1, args, 3);
    }
    return wl_vx_put(c, acc, VT_F32);
}

/* M0-relative VGPR indexing (the index is uniform: M0 and the operands'
 * register numbers):
 *   V_MOVRELS_B32:    D = VGPR[S0.addr + M0]
 *   V_MOVRELD_B32:    VGPR[D.addr + M0] = S0
 *   V_MOVRELSD_B32:   VGPR[D.addr + M0] = VGPR[S0.addr + M0]
 *   V_MOVRELSD_2_B32: VGPR[D.addr + M0[25:16]] = VGPR[S0.addr + M0[9:0]]
 *   V_SWAPREL_B32:    VGPR[D.addr + M0[25:16]] and VGPR[S0.addr + M0[9:0]]
 *                     exchange their values
 * in the lanes of EXEC (the sums modulo 2^32). Lifted as select chains
 * over the VGPRs the program names (v0 up to the highest register any of its
 * instructions or its launch names: L->vgpr_top). An index past them reads 0
 * or writes nothing and records an escape (WL_ESC_INSTRUCTION): such a
 * register is one no instruction reads or writes by name, whose contents
 * (within the wave's allocation: what an earlier wave left) or existence
 * (past it) the lifter does not know. SDWA, DPP and VOP3 modifiers are
 * refused. */
static LLVMValueRef rel_index(wl_vx *c, unsigned base, unsigned lo, unsigned bits)
{
    LLVMValueRef m0 = wl_l_get_s32(c->L, WL_SRC_M0);
    if (bits < 32)
        m0 = LLVMBuildAnd(c->b, LLVMBuildLShr(c->b, m0, wl_l_i32c(c->L, lo), ""),
                          wl_l_i32c(c->L, (1u << bits) - 1), "");
    return LLVMBuildAdd(c->b, m0, wl_l_i32c(c->L, base), "");
}

static void rel_escape(wl_vx *c, LLVMValueRef idx)
{
    wl_lifter *L = c->L;
    LLVMValueRef oob = LLVMBuildICmp(c->b, LLVMIntUGE, idx, wl_l_i32c(L, L->vgpr_top), "");
    LLVMValueRef args[3] = {wl_l_i32c(L, WL_ESC_INSTRUCTION), wl_l_i32c(L, (uint32_t)c->in->offset), oob};
    wl_l_call(L, "wl.escape", L->t_void, args, 3);
}

/* VGPR[idx] (0 past L->vgpr_top), and VGPR[idx] = v in the lanes of EXEC. */
static LLVMValueRef rel_read(wl_vx *c, LLVMValueRef idx)
{
    LLVMValueRef val = wl_l_i32c(c->L, 0);
    for (unsigned r = 0; r < c->L->vgpr_top; r++)
        val = LLVMBuildSelect(c->b, LLVMBuildICmp(c->b, LLVMIntEQ, idx, wl_l_i32c(c->L, r), ""),
                              wl_l_get_v32(c->L, r), val, "");
    return val;
}

static void rel_write(wl_vx *c, LLVMValueRef idx, LLVMValueRef v)
{
    LLVMValueRef act = wl_l_active(c->L);
    for (unsigned r = 0; r < c->L->vgpr_top; r++) {
        LLVMValueRef hit = LLVMBuildICmp(c->b, LLVMIntEQ, idx, wl_l_i32c(c->L, r), "");
        wl_l_set_v32_if(c->L, r, v, LLVMBuildAnd(c->b, act, hit, ""));
    }
}

static wl_status lift_movrel(wl_vx *c, const char *name)
{
    wl_lifter *L = c->L;
    const wl_inst *in = c->in;
    const wl_operand *d = &in->dst[0], *s = &in->src[0];
    if (in->venc == WL_VENC_SDWA || in->venc == WL_VENC_DPP16 || in->venc == WL_VENC_DPP8 ||
        in->f.v.clamp || s->abs || s->neg)
        return wl_l_refuse(L, "SDWA, DPP or modifiers on M0-relative indexing not lifted");
    bool rs = strcmp(name, "v_movreld_b32") != 0, rd = strcmp(name, "v_movrels_b32") != 0;
    bool swap = strcmp(name, "v_swaprel_b32") == 0;
    bool two = swap || strcmp(name, "v_movrelsd_2_b32") == 0;
    if (d->kind != WL_OPND_VGPR || (rs && s->kind != WL_OPND_VGPR))
        return wl_l_refuse(L, "an indexed operand is not a VGPR");
    LLVMValueRef val, si = NULL;
    if (rs) {
        si = two ? rel_index(c, s->index, 0, 10) : rel_index(c, s->index, 0, 32);
        rel_escape(c, si);
        val = rel_read(c, si);
    } else {
        val = wl_l_src32(L, s, WL_IMM_B32);
    }
    if (!rd)
        return wl_vx_put(c, val, VT_I32);
    LLVMValueRef di = two ? rel_index(c, d->index, 16, 10) : rel_index(c, d->index, 0, 32);
    rel_escape(c, di);
    LLVMValueRef old = swap ? rel_read(c, di) : NULL;
    rel_write(c, di, val);
    if (swap)
        rel_write(c, si, old);
    return WL_OK;
}

/* Small operations of their own:
 *   V_MAD_U32_U16: D.u32 = S0.u16 * S1.u16 + S2.u32 (op_sel picks the halves)
 *   V_MAD_I32_I16: D.i32 = S0.i16 * S1.i16 + S2.i32
 *   V_PACK_B32_F16: D = {S1.f16, S0.f16} (S0 low; op_sel picks the halves,
 *                   abs/neg on the halves' sign bits; a float operation:
 *                   denormals flushed as the f16 mode says)
 *   V_SAT_PK_U8_I16: D.u16 = {sat8(S0.i16[1]), sat8(S0.i16[0])}, a 16-bit
 *                   result (the high half of D kept), sat8 clamping to [0, 255]
 *   V_NOP, V_PIPEFLUSH, V_CLREXCP: nothing (no exception state is modelled)
 * clamp (saturation) on the mads is refused. */
static int lift_small(wl_vx *c, const char *name)
{
    wl_lifter *L = c->L;
    LLVMBuilderRef b = c->b;
    if (strcmp(name, "v_nop") == 0 || strcmp(name, "v_pipeflush") == 0 || strcmp(name, "v_clrexcp") == 0)
        return WL_OK;
    bool mu = strcmp(name, "v_mad_u32_u16") == 0, mi = strcmp(name, "v_mad_i32_i16") == 0;
    if (mu || mi) {
        if (c->in->f.v.clamp)
            return wl_l_refuse(L, "clamp (saturation) on a 16-bit mad not lifted");
        LLVMValueRef x = wl_vx_src(c, 0, VT_I16), y = wl_vx_src(c, 1, VT_I16);
        x = mi ? LLVMBuildSExt(b, x, L->i32, "") : LLVMBuildZExt(b, x, L->i32, "");
        y = mi ? LLVMBuildSExt(b, y, L->i32, "") : LLVMBuildZExt(b, y, L->i32, "");
        return wl_vx_put(c, LLVMBuildAdd(b, LLVMBuildMul(b, x, y, ""), wl_vx_src(c, 2, VT_I32), ""), VT_I32);
    }
    if (strcmp(name, "v_pack_b32_f16") == 0) {
        LLVMValueRef r = wl_l_i32c(L, 0);
        for (unsigned i = 0; i < 2; i++) {
            LLVMValueRef h = wl_vx_flush_out(c, VT_F16, wl_vx_src(c, i, VT_F16));
            h = LLVMBuildZExt(b, LLVMBuildBitCast(b, h, L->i16, ""), L->i32, "");
            r = LLVMBuildOr(b, r, LLVMBuildShl(b, h, wl_l_i32c(L, 16 * i), ""), "");
        }
        return wl_vx_put(c, r, VT_I32);
    }
    if (strcmp(name, "v_sat_pk_u8_i16") == 0) {
        LLVMValueRef s = wl_vx_src(c, 0, VT_I32), r = wl_l_i32c(L, 0);
        for (unsigned i = 0; i < 2; i++) {
            LLVMValueRef h = LLVMBuildAShr(b, LLVMBuildShl(b, s, wl_l_i32c(L, 16 - 16 * i), ""), wl_l_i32c(L, 16), "");
            h = wl_vx_intr2(c, "llvm.smax", wl_vx_intr2(c, "llvm.smin", h, wl_l_i32c(L, 255)), wl_l_i32c(L, 0));
            r = LLVMBuildOr(b, r, LLVMBuildShl(b, h, wl_l_i32c(L, 8 * i), ""), "");
        }
        return wl_vx_put(c, LLVMBuildTrunc(b, r, L->i16, ""), VT_I16);
    }
    return -1;
}

int wl_lv_misc(wl_vx *c, const char *name)
{
    int sm = lift_small(c, name);
    if (sm >= 0)
        return sm;
    if (strcmp(name, "v_msad_u8") == 0)
        return lift_sad(c, true);
    if (strcmp(name, "v_sad_u32") == 0)
        return lift_sad(c, false);
    if (strcmp(name, "v_qsad_pk_u16_u8") == 0)
        return lift_qsad(c, false, false);
    if (strcmp(name, "v_mqsad_pk_u16_u8") == 0)
        return lift_qsad(c, true, false);
    if (strcmp(name, "v_mqsad_u32_u8") == 0)
        return lift_qsad(c, true, true);
    if (strncmp(name, "v_cube", 6) == 0 && wl_lv_ends(name, "_f32") && strlen(name) == 12) {
        static const char *const n[4] = {"v_cubeid_f32", "v_cubesc_f32", "v_cubetc_f32", "v_cubema_f32"};
        for (unsigned i = 0; i < 4; i++)
            if (strcmp(name, n[i]) == 0)
                return lift_cube(c, "istm"[i]);
        return -1;
    }
    if (strcmp(name, "v_dot2_f32_f16") == 0)
        return lift_fdot2(c, false);
    if (strcmp(name, "v_dot2c_f32_f16") == 0)
        return lift_fdot2(c, true);
    if (strcmp(name, "v_movrels_b32") == 0 || strcmp(name, "v_movreld_b32") == 0 ||
        strcmp(name, "v_movrelsd_b32") == 0 || strcmp(name, "v_movrelsd_2_b32") == 0 ||
        strcmp(name, "v_swaprel_b32") == 0)
        return lift_movrel(c, name);
    return -1;
}
