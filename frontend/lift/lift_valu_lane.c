/* VALU lane-crossing: DPP16 and DPP8 source fetches, v_readlane_b32,
 * v_readfirstlane_b32, v_writelane_b32, v_mbcnt_lo/hi_u32_b32, v_swap_b32,
 * v_permlane16_b32, v_permlanex16_b32. Other lanes are read only through
 * @wl.shuffle.i32 (docs/wave-ir.md), EXEC bits of other lanes from the
 * uniform EXEC mask.
 *
 * DPP16 (dpp_ctrl): quad_perm 0x000-0x0ff, row_shl 0x101-0x10f, row_shr
 * 0x111-0x11f, row_ror 0x121-0x12f, row_mirror 0x140, row_half_mirror 0x141,
 * row_share 0x150-0x15f, row_xmask 0x160-0x16f (rows of 16 lanes). A source
 * lane outside the row (row_shl/shr), or inactive without fi, is invalid:
 * with bound_ctrl the lane reads 0, without it the lane is not written.
 * Lanes whose row (row_mask) or bank (bank_mask, lane bits 3:2) is masked
 * off are not written.
 * DPP8: lane i of each group of 8 reads lane sel[i]; an inactive source
 * lane reads 0 unless fi. */
#include "lift_valu_internal.h"

#include <string.h>

static LLVMValueRef shuffle(wl_vx *c, LLVMValueRef v, LLVMValueRef lane)
{
    LLVMValueRef args[2] = {v, lane};
    return wl_l_call(c->L, "wl.shuffle.i32", c->L->i32, args, 2);
}

static LLVMValueRef and1(wl_vx *c, LLVMValueRef a, LLVMValueRef b)
{
    return a ? LLVMBuildAnd(c->b, a, b, "") : b;
}

wl_status wl_lv_dpp_fetch(wl_vx *c)
{
    wl_lifter *L = c->L;
    LLVMBuilderRef b = c->b;
    const wl_inst *in = c->in;
    const wl_valu_fields *v = &in->f.v;
    if (in->src[0].kind != WL_OPND_VGPR)
        return wl_l_refuse(L, "DPP source is not a VGPR");
    LLVMValueRef lane = wl_vx_lane(c);
    LLVMValueRef val = wl_l_get_v32(L, in->src[0].index);
    LLVMValueRef exec = wl_l_exec(L);
    LLVMValueRef src, valid = NULL;
#define K(x) wl_l_i32c(L, (x))
    if (in->venc == WL_VENC_DPP8) {
        /* sel of lane i: bits 3i+2..3i of the 24-bit selector (constant). */
        LLVMValueRef i3 = LLVMBuildMul(b, LLVMBuildAnd(b, lane, K(7), ""), K(3), "");
        LLVMValueRef sel = LLVMBuildAnd(b, LLVMBuildLShr(b, K(v->dpp8_sel & 0xffffffu), i3, ""), K(7), "");
        src = LLVMBuildOr(b, LLVMBuildAnd(b, lane, K(~7u), ""), sel, "");
        LLVMValueRef x = shuffle(c, val, src);
        if (!v->fi)
            x = LLVMBuildSelect(b, wl_vx_lane_bit(c, exec, src), x, K(0), "");
        c->dpp0 = x;
        return WL_OK;
    }
    unsigned ctrl = v->dpp_ctrl;
    LLVMValueRef rowbase = LLVMBuildAnd(b, lane, K(~15u), "");
    LLVMValueRef inrow = LLVMBuildAnd(b, lane, K(15), "");
    if (ctrl <= 0xff) {
        LLVMValueRef q2 = LLVMBuildMul(b, LLVMBuildAnd(b, lane, K(3), ""), K(2), "");
        LLVMValueRef sel = LLVMBuildAnd(b, LLVMBuildLShr(b, K(ctrl), q2, ""), K(3), "");
        src = LLVMBuildOr(b, LLVMBuildAnd(b, lane, K(~3u), ""), sel, "");
    } else if (ctrl >= 0x101 && ctrl <= 0x10f) {
        unsigned n = ctrl & 15;
        src = LLVMBuildAdd(b, lane, K(n), "");
        valid = LLVMBuildICmp(b, LLVMIntULT, LLVMBuildAdd(b, inrow, K(n), ""), K(16), "");
    } else if (ctrl >= 0x111 && ctrl <= 0x11f) {
        unsigned n = ctrl & 15;
        src = LLVMBuildSub(b, lane, K(n), "");
        valid = LLVMBuildICmp(b, LLVMIntUGE, inrow, K(n), "");
    } else if (ctrl >= 0x121 && ctrl <= 0x12f) {
        unsigned n = ctrl & 15;
        src = LLVMBuildOr(b, rowbase, LLVMBuildAnd(b, LLVMBuildSub(b, inrow, K(n), ""), K(15), ""), "");
    } else if (ctrl == 0x140) {
        src = LLVMBuildOr(b, rowbase, LLVMBuildSub(b, K(15), inrow, ""), "");
    } else if (ctrl == 0x141) {
        src = LLVMBuildOr(b, LLVMBuildAnd(b, lane, K(~7u), ""),
                          LLVMBuildSub(b, K(7), LLVMBuildAnd(b, lane, K(7), ""), ""), "");
    } else if (ctrl >= 0x150 && ctrl <= 0x15f) {
        src = LLVMBuildOr(b, rowbase, K(ctrl & 15), "");
    } else if (ctrl >= 0x160 && ctrl <= 0x16f) {
        src = LLVMBuildOr(b, rowbase, LLVMBuildXor(b, inrow, K(ctrl & 15), ""), "");
    } else {
        return wl_l_refuse(L, "DPP control not supported on gfx10");
    }
    src = LLVMBuildAnd(b, src, K(L->wave - 1), "");
    LLVMValueRef x = shuffle(c, val, src);
    if (!v->fi)
        valid = and1(c, valid, wl_vx_lane_bit(c, exec, src));
    LLVMValueRef wp = NULL;
    if (valid) {
        if (v->bound_ctrl)
            x = LLVMBuildSelect(b, valid, x, K(0), "");
        else
            wp = valid;
    }
    if ((v->row_mask & 0xf) != 0xf) {
        LLVMValueRef row = LLVMBuildAnd(b, LLVMBuildLShr(b, lane, K(4), ""), K(3), "");
        LLVMValueRef ok = LLVMBuildTrunc(b, LLVMBuildLShr(b, K(v->row_mask), row, ""), L->i1, "");
        wp = and1(c, wp, ok);
    }
    if ((v->bank_mask & 0xf) != 0xf) {
        LLVMValueRef bank = LLVMBuildAnd(b, LLVMBuildLShr(b, lane, K(2), ""), K(3), "");
        LLVMValueRef ok = LLVMBuildTrunc(b, LLVMBuildLShr(b, K(v->bank_mask), bank, ""), L->i1, "");
        wp = and1(c, wp, ok);
    }
#undef K
    c->dpp0 = x;
    c->wpred = wp;
    return WL_OK;
}

/* The raw scalar encoding of a scalar destination operand, or -1. */
static int sdst_enc(const wl_operand *o)
{
    if (o->kind == WL_OPND_SGPR && o->index <= WL_SRC_SGPR_MAX)
        return o->index;
    if (o->kind == WL_OPND_SPECIAL && o->index <= WL_SRC_EXEC_HI && o->index >= WL_SRC_VCC_LO &&
        !(o->index >= WL_SRC_TTMP0 && o->index < WL_SRC_TTMP0 + 16))
        return o->index;
    return -1;
}

/* v_permlane16/v_permlanex16 vdst, src0, s1, s2 op_sel:[fi,bc]: lane i of a
 * row reads lane sel(i) of the same row (x16: of the other row of its half),
 * sel(i) = nibble i of {s2, s1}; an inactive source lane without fi gives 0
 * with bc and leaves the lane unwritten without it. */
static wl_status permlane(wl_vx *c, bool x16)
{
    wl_lifter *L = c->L;
    LLVMBuilderRef b = c->b;
    const wl_inst *in = c->in;
    if (in->src[0].kind != WL_OPND_VGPR || in->dst[0].kind != WL_OPND_VGPR)
        return wl_l_refuse(L, "permlane operands not supported");
    bool fi = in->f.v.op_sel & 1, bc = (in->f.v.op_sel >> 1) & 1;
    LLVMValueRef lane = wl_vx_lane(c);
    LLVMValueRef s1 = wl_l_src32(L, &in->src[1], WL_IMM_B32);
    LLVMValueRef s2 = wl_l_src32(L, &in->src[2], WL_IMM_B32);
    LLVMValueRef sel64 = LLVMBuildOr(b, LLVMBuildShl(b, LLVMBuildZExt(b, s2, L->i64, ""), wl_l_i64c(L, 32), ""),
                                     LLVMBuildZExt(b, s1, L->i64, ""), "");
    LLVMValueRef i4 = LLVMBuildZExt(b, LLVMBuildMul(b, LLVMBuildAnd(b, lane, wl_l_i32c(L, 15), ""), wl_l_i32c(L, 4), ""), L->i64, "");
    LLVMValueRef sel = LLVMBuildTrunc(b, LLVMBuildAnd(b, LLVMBuildLShr(b, sel64, i4, ""), wl_l_i64c(L, 15), ""), L->i32, "");
    LLVMValueRef row = LLVMBuildAnd(b, lane, wl_l_i32c(L, ~15u), "");
    if (x16)
        row = LLVMBuildXor(b, row, wl_l_i32c(L, 16), "");
    LLVMValueRef src = LLVMBuildAnd(b, LLVMBuildOr(b, row, sel, ""), wl_l_i32c(L, L->wave - 1), "");
    LLVMValueRef x = shuffle(c, wl_l_get_v32(L, in->src[0].index), src);
    if (!fi) {
        LLVMValueRef ok = wl_vx_lane_bit(c, wl_l_exec(L), src);
        if (bc)
            x = LLVMBuildSelect(b, ok, x, wl_l_i32c(L, 0), "");
        else
            c->wpred = ok;
    }
    return wl_vx_put(c, x, VT_I32);
}

int wl_lv_lane(wl_vx *c, const char *name)
{
    wl_lifter *L = c->L;
    LLVMBuilderRef b = c->b;
    const wl_inst *in = c->in;
    if (strcmp(name, "v_readlane_b32") == 0 || strcmp(name, "v_readfirstlane_b32") == 0) {
        int d = sdst_enc(&in->dst[0]);
        if (d < 0)
            return wl_l_refuse(L, "scalar destination not supported");
        if (in->src[0].kind != WL_OPND_VGPR && strcmp(name, "v_readfirstlane_b32") != 0)
            return wl_l_refuse(L, "source is not a VGPR");
        if (name[6] != 'f' && in->src[1].kind == WL_OPND_VGPR)
            return wl_l_refuse(L, "lane select is a VGPR (the hardware takes an SGPR or a constant)");
        LLVMValueRef v = wl_l_src32(L, &in->src[0], WL_IMM_B32), r;
        if (name[6] == 'f') {
            LLVMValueRef args[2] = {v, wl_l_exec(L)};
            r = wl_l_call(L, "wl.readfirstlane.i32", L->i32, args, 2);
        } else {
            LLVMValueRef ln = LLVMBuildAnd(b, wl_l_src32(L, &in->src[1], WL_IMM_B32),
                                           wl_l_i32c(L, L->wave - 1), "");
            r = shuffle(c, v, ln);
        }
        wl_l_set_s32(L, (unsigned)d, r);
        return WL_OK;
    }
    if (strcmp(name, "v_writelane_b32") == 0) {
        if (in->dst[0].kind != WL_OPND_VGPR)
            return wl_l_refuse(L, "destination is not a VGPR");
        if (in->src[0].kind == WL_OPND_VGPR || in->src[1].kind == WL_OPND_VGPR)
            return wl_l_refuse(L, "a VGPR source (the hardware takes an SGPR or a constant)");
        LLVMValueRef v = wl_l_src32(L, &in->src[0], WL_IMM_B32);
        LLVMValueRef ln = LLVMBuildAnd(b, wl_l_src32(L, &in->src[1], WL_IMM_B32),
                                       wl_l_i32c(L, L->wave - 1), "");
        /* Written whatever EXEC says. */
        wl_l_set_v32_if(L, in->dst[0].index, v, LLVMBuildICmp(b, LLVMIntEQ, wl_vx_lane(c), ln, ""));
        return WL_OK;
    }
    if (strcmp(name, "v_mbcnt_lo_u32_b32") == 0 || strcmp(name, "v_mbcnt_hi_u32_b32") == 0) {
        bool hi = name[8] == 'h';
        if (in->f.v.clamp)
            return wl_l_refuse(L, "clamp on v_mbcnt not lifted");
        LLVMValueRef m = wl_vx_src(c, 0, VT_I32), acc = wl_vx_src(c, 1, VT_I32);
        /* Bits of the 64-bit thread mask below this lane; lo takes bits
         * 31..0 of it, hi bits 63..32. */
        LLVMValueRef below = LLVMBuildSub(b, LLVMBuildShl(b, wl_l_i64c(L, 1),
                                                          LLVMBuildZExt(b, wl_vx_lane(c), L->i64, ""), ""),
                                          wl_l_i64c(L, 1), "");
        if (hi)
            below = LLVMBuildLShr(b, below, wl_l_i64c(L, 32), "");
        LLVMValueRef tm = LLVMBuildTrunc(b, below, L->i32, "");
        LLVMValueRef r = LLVMBuildAdd(b, wl_vx_intr1(c, "llvm.ctpop", LLVMBuildAnd(b, m, tm, "")), acc, "");
        return wl_vx_put(c, r, VT_I32);
    }
    if (strcmp(name, "v_permlane16_b32") == 0)
        return permlane(c, false);
    if (strcmp(name, "v_permlanex16_b32") == 0)
        return permlane(c, true);
    if (strcmp(name, "v_swap_b32") == 0) {
        if (in->dst[0].kind != WL_OPND_VGPR || in->src[0].kind != WL_OPND_VGPR)
            return wl_l_refuse(L, "v_swap_b32 operands are not VGPRs");
        LLVMValueRef x = wl_l_get_v32(L, in->dst[0].index), y = wl_l_get_v32(L, in->src[0].index);
        LLVMValueRef act = wl_l_active(L);
        wl_l_set_v32_if(L, in->dst[0].index, y, act);
        wl_l_set_v32_if(L, in->src[0].index, x, act);
        return WL_OK;
    }
    return -1;
}
