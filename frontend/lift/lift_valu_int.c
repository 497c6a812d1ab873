/* VALU integer operations: 16-, 32- and 64-bit arithmetic, logic, shifts,
 * bit fields, carries (the carry-out mask is a ballot of the lanes' carries
 * ANDed with EXEC, so inactive lanes write 0), v_cndmask (the lane's bit of
 * the mask), min/max/med3, the 24-bit multiplies and v_mad_u64_u32 /
 * v_mad_i64_i32, the byte SADs and v_lerp_u8. Semantics as in the RDNA2 ISA's pseudocode; shift amounts
 * use the low 4/5/6 bits. Integer clamp (saturation) is honoured by the
 * add/sub forms that have it and refused elsewhere. */
#include "lift_valu_internal.h"

#include <string.h>

enum iop {
    I_MOV, I_ADD, I_SUB, I_SUBREV, I_AND, I_OR, I_XOR, I_XNOR, I_NOT, I_SHL, I_LSHR, I_ASHR,
    I_MUL_LO, I_MUL_HI_U, I_MUL_HI_I, I_MUL_U24, I_MUL_HI_U24, I_MUL_I24, I_MUL_HI_I24,
    I_MIN_U, I_MIN_I, I_MAX_U, I_MAX_I, I_BFM, I_BCNT, I_BFREV, I_FFBH_U, I_FFBL, I_FFBH_I,
    I_ADD3, I_XAD, I_LSHL_ADD, I_ADD_LSHL, I_LSHL_OR, I_AND_OR, I_OR3, I_XOR3, I_BFE_U, I_BFE_I,
    I_BFI, I_ALIGNBIT, I_ALIGNBYTE, I_PERM, I_MAD_U24, I_MAD_I24, I_MIN3_U, I_MIN3_I, I_MAX3_U,
    I_MAX3_I, I_MED3_U, I_MED3_I, I_MAD_U16, I_MAD_I16, I_CNDMASK,
    I_ADD_CO, I_SUB_CO, I_SUBREV_CO, I_ADD_CI, I_SUB_CI, I_SUBREV_CI, I_MAD_U64, I_MAD_I64,
    I_SHL64, I_LSHR64, I_ASHR64, I_ADD_I, I_SUB_I, I_SAD_U8, I_SAD_HI_U8, I_SAD_U16, I_LERP_U8
};

static const struct iop_entry {
    const char *name;
    uint8_t op, t;
} iops[] = {
    {"v_mov_b32", I_MOV, VT_I32},
    {"v_add_nc_u32", I_ADD, VT_I32}, {"v_sub_nc_u32", I_SUB, VT_I32},
    {"v_subrev_nc_u32", I_SUBREV, VT_I32}, {"v_add_nc_i32", I_ADD_I, VT_I32},
    {"v_sub_nc_i32", I_SUB_I, VT_I32}, {"v_add_nc_u16", I_ADD, VT_I16},
    {"v_sub_nc_u16", I_SUB, VT_I16}, {"v_add_nc_i16", I_ADD_I, VT_I16},
    {"v_sub_nc_i16", I_SUB_I, VT_I16}, {"v_mul_lo_u16", I_MUL_LO, VT_I16},
    {"v_and_b32", I_AND, VT_I32}, {"v_or_b32", I_OR, VT_I32}, {"v_xor_b32", I_XOR, VT_I32},
    {"v_xnor_b32", I_XNOR, VT_I32}, {"v_not_b32", I_NOT, VT_I32},
    {"v_lshlrev_b32", I_SHL, VT_I32}, {"v_lshrrev_b32", I_LSHR, VT_I32},
    {"v_ashrrev_i32", I_ASHR, VT_I32}, {"v_lshlrev_b16", I_SHL, VT_I16},
    {"v_lshrrev_b16", I_LSHR, VT_I16}, {"v_ashrrev_i16", I_ASHR, VT_I16},
    {"v_lshlrev_b64", I_SHL64, VT_I64}, {"v_lshrrev_b64", I_LSHR64, VT_I64},
    {"v_ashrrev_i64", I_ASHR64, VT_I64},
    {"v_mul_lo_u32", I_MUL_LO, VT_I32}, {"v_mul_lo_i32", I_MUL_LO, VT_I32}, {"v_mul_hi_u32", I_MUL_HI_U, VT_I32},
    {"v_mul_hi_i32", I_MUL_HI_I, VT_I32}, {"v_mul_u32_u24", I_MUL_U24, VT_I32},
    {"v_mul_hi_u32_u24", I_MUL_HI_U24, VT_I32}, {"v_mul_i32_i24", I_MUL_I24, VT_I32},
    {"v_mul_hi_i32_i24", I_MUL_HI_I24, VT_I32},
    {"v_min_u32", I_MIN_U, VT_I32}, {"v_min_i32", I_MIN_I, VT_I32},
    {"v_max_u32", I_MAX_U, VT_I32}, {"v_max_i32", I_MAX_I, VT_I32},
    {"v_min_u16", I_MIN_U, VT_I16}, {"v_min_i16", I_MIN_I, VT_I16},
    {"v_max_u16", I_MAX_U, VT_I16}, {"v_max_i16", I_MAX_I, VT_I16},
    {"v_bfm_b32", I_BFM, VT_I32}, {"v_bcnt_u32_b32", I_BCNT, VT_I32},
    {"v_bfrev_b32", I_BFREV, VT_I32}, {"v_ffbh_u32", I_FFBH_U, VT_I32},
    {"v_ffbl_b32", I_FFBL, VT_I32}, {"v_ffbh_i32", I_FFBH_I, VT_I32},
    {"v_add3_u32", I_ADD3, VT_I32}, {"v_xad_u32", I_XAD, VT_I32},
    {"v_lshl_add_u32", I_LSHL_ADD, VT_I32}, {"v_add_lshl_u32", I_ADD_LSHL, VT_I32},
    {"v_lshl_or_b32", I_LSHL_OR, VT_I32}, {"v_and_or_b32", I_AND_OR, VT_I32},
    {"v_or3_b32", I_OR3, VT_I32}, {"v_xor3_b32", I_XOR3, VT_I32},
    {"v_bfe_u32", I_BFE_U, VT_I32}, {"v_bfe_i32", I_BFE_I, VT_I32}, {"v_bfi_b32", I_BFI, VT_I32},
    {"v_alignbit_b32", I_ALIGNBIT, VT_I32}, {"v_alignbyte_b32", I_ALIGNBYTE, VT_I32},
    {"v_perm_b32", I_PERM, VT_I32}, {"v_mad_u32_u24", I_MAD_U24, VT_I32},
    {"v_mad_i32_i24", I_MAD_I24, VT_I32},
    {"v_min3_u32", I_MIN3_U, VT_I32}, {"v_min3_i32", I_MIN3_I, VT_I32},
    {"v_max3_u32", I_MAX3_U, VT_I32}, {"v_max3_i32", I_MAX3_I, VT_I32},
    {"v_med3_u32", I_MED3_U, VT_I32}, {"v_med3_i32", I_MED3_I, VT_I32},
    {"v_min3_u16", I_MIN3_U, VT_I16}, {"v_min3_i16", I_MIN3_I, VT_I16},
    {"v_max3_u16", I_MAX3_U, VT_I16}, {"v_max3_i16", I_MAX3_I, VT_I16},
    {"v_med3_u16", I_MED3_U, VT_I16}, {"v_med3_i16", I_MED3_I, VT_I16},
    {"v_mad_u16", I_MAD_U16, VT_I16}, {"v_mad_i16", I_MAD_I16, VT_I16},
    {"v_cndmask_b32", I_CNDMASK, VT_I32},
    {"v_add_co_u32", I_ADD_CO, VT_I32}, {"v_sub_co_u32", I_SUB_CO, VT_I32},
    {"v_subrev_co_u32", I_SUBREV_CO, VT_I32}, {"v_add_co_ci_u32", I_ADD_CI, VT_I32},
    {"v_sub_co_ci_u32", I_SUB_CI, VT_I32}, {"v_subrev_co_ci_u32", I_SUBREV_CI, VT_I32},
    {"v_mad_u64_u32", I_MAD_U64, VT_I64}, {"v_mad_i64_i32", I_MAD_I64, VT_I64},
    {"v_sad_u8", I_SAD_U8, VT_I32}, {"v_sad_hi_u8", I_SAD_HI_U8, VT_I32},
    {"v_sad_u16", I_SAD_U16, VT_I32}, {"v_lerp_u8", I_LERP_U8, VT_I32},
};

/* Sum of |a.f - b.f| over the unsigned fields of `bits` bits. */
static LLVMValueRef sad(wl_vx *c, LLVMValueRef a, LLVMValueRef b, unsigned bits)
{
    LLVMBuilderRef bd = c->b;
    wl_lifter *L = c->L;
    LLVMValueRef sum = wl_l_i32c(L, 0), m = wl_l_i32c(L, (1u << bits) - 1);
    for (unsigned i = 0; i < 32; i += bits) {
        LLVMValueRef x = LLVMBuildAnd(bd, LLVMBuildLShr(bd, a, wl_l_i32c(L, i), ""), m, "");
        LLVMValueRef y = LLVMBuildAnd(bd, LLVMBuildLShr(bd, b, wl_l_i32c(L, i), ""), m, "");
        LLVMValueRef d = LLVMBuildSub(bd, wl_vx_intr2(c, "llvm.umax", x, y), wl_vx_intr2(c, "llvm.umin", x, y), "");
        sum = LLVMBuildAdd(bd, sum, d, "");
    }
    return sum;
}

static LLVMValueRef shamt(wl_vx *c, LLVMValueRef a, LLVMTypeRef t, unsigned bits)
{
    LLVMValueRef m = LLVMBuildAnd(c->b, a, LLVMConstInt(LLVMTypeOf(a), bits - 1, 0), "");
    if (LLVMTypeOf(a) != t)
        m = LLVMBuildZExt(c->b, m, t, "");
    return m;
}

static LLVMValueRef imin(wl_vx *c, LLVMValueRef a, LLVMValueRef b, bool sgn, bool max)
{
    return wl_vx_intr2(c, max ? (sgn ? "llvm.smax" : "llvm.umax") : (sgn ? "llvm.smin" : "llvm.umin"),
                       a, b);
}

/* Signed or unsigned 24-bit field as i64. */
static LLVMValueRef ext24(wl_vx *c, LLVMValueRef a, bool sgn)
{
    wl_lifter *L = c->L;
    /* Shifts rather than an i24 type: at -O0 the value reaches the
     * backend as written, and i24 is outside the host IR profile. */
    LLVMValueRef w = LLVMBuildZExt(c->b, a, L->i64, "");
    LLVMValueRef up = LLVMBuildShl(c->b, w, wl_l_i64c(L, 40), "");
    return sgn ? LLVMBuildAShr(c->b, up, wl_l_i64c(L, 40), "") : LLVMBuildLShr(c->b, up, wl_l_i64c(L, 40), "");
}

static LLVMValueRef hi32(wl_vx *c, LLVMValueRef v64)
{
    return LLVMBuildTrunc(c->b, LLVMBuildLShr(c->b, v64, wl_l_i64c(c->L, 32), ""), c->L->i32, "");
}

/* One byte of v_perm_b32: selector s (i32, 0..255) over data = {a, b}. */
static LLVMValueRef perm_byte(wl_vx *c, LLVMValueRef data, LLVMValueRef s)
{
    wl_lifter *L = c->L;
    LLVMBuilderRef b = c->b;
    LLVMValueRef s64 = LLVMBuildZExt(b, s, L->i64, "");
    LLVMValueRef byte = LLVMBuildAnd(b, LLVMBuildLShr(b, data, LLVMBuildMul(b, LLVMBuildAnd(b, s64, wl_l_i64c(L, 7), ""), wl_l_i64c(L, 8), ""), ""), wl_l_i64c(L, 0xff), "");
    /* 8..11: bits 15, 31, 47, 63 replicated. */
    LLVMValueRef bitpos = LLVMBuildAdd(b, LLVMBuildMul(b, LLVMBuildSub(b, s64, wl_l_i64c(L, 8), ""), wl_l_i64c(L, 16), ""), wl_l_i64c(L, 15), "");
    bitpos = LLVMBuildAnd(b, bitpos, wl_l_i64c(L, 63), "");
    LLVMValueRef sign = LLVMBuildAnd(b, LLVMBuildLShr(b, data, bitpos, ""), wl_l_i64c(L, 1), "");
    sign = LLVMBuildMul(b, sign, wl_l_i64c(L, 0xff), "");
    LLVMValueRef r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, s, wl_l_i32c(L, 8), ""), byte, sign, "");
    r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, s, wl_l_i32c(L, 12), ""), wl_l_i64c(L, 0), r, "");
    r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGE, s, wl_l_i32c(L, 13), ""), wl_l_i64c(L, 0xff), r, "");
    return LLVMBuildTrunc(b, r, L->i32, "");
}

static LLVMValueRef med3(wl_vx *c, LLVMValueRef a, LLVMValueRef b, LLVMValueRef d, bool sgn)
{
    LLVMValueRef lo = imin(c, a, b, sgn, false), hi = imin(c, a, b, sgn, true);
    return imin(c, lo, imin(c, hi, d, sgn, false), sgn, true);
}

/* Carry forms: result and carry-out mask to dst[1]. */
static wl_status carry_op(wl_vx *c, unsigned op)
{
    wl_lifter *L = c->L;
    LLVMBuilderRef b = c->b;
    if (c->in->f.v.clamp)
        return wl_l_refuse(L, "integer clamp on a carry operation not lifted");
    if (c->in->ndst < 2)
        return wl_l_refuse(L, "carry destination missing");
    LLVMValueRef a = wl_vx_src(c, 0, VT_I32), s1 = wl_vx_src(c, 1, VT_I32);
    if (op == I_SUBREV_CO || op == I_SUBREV_CI) {
        LLVMValueRef t = a;
        a = s1;
        s1 = t;
    }
    LLVMValueRef ci = wl_l_i64c(L, 0);
    if (op == I_ADD_CI || op == I_SUB_CI || op == I_SUBREV_CI) {
        if (c->in->nsrc < 3)
            return wl_l_refuse(L, "carry-in source missing");
        ci = LLVMBuildZExt(b, wl_vx_lane_bit(c, wl_vx_mask_src(c, 2), wl_vx_lane(c)), L->i64, "");
    }
    LLVMValueRef a64 = LLVMBuildZExt(b, a, L->i64, ""), b64 = LLVMBuildZExt(b, s1, L->i64, "");
    LLVMValueRef r64, carry;
    if (op == I_ADD_CO || op == I_ADD_CI) {
        r64 = LLVMBuildAdd(b, LLVMBuildAdd(b, a64, b64, ""), ci, "");
        carry = LLVMBuildICmp(b, LLVMIntUGT, r64, wl_l_i64c(L, 0xffffffffu), "");
    } else {
        LLVMValueRef sub = LLVMBuildAdd(b, b64, ci, "");
        r64 = LLVMBuildSub(b, a64, sub, "");
        carry = LLVMBuildICmp(b, LLVMIntUGT, sub, a64, "");
    }
    LLVMValueRef mask = wl_vx_ballot_exec(c, carry);
    wl_status st = wl_vx_put(c, LLVMBuildTrunc(b, r64, L->i32, ""), VT_I32);
    wl_vx_put_mask(c, 1, mask);
    return st;
}

static wl_status mad64(wl_vx *c, bool sgn)
{
    wl_lifter *L = c->L;
    LLVMBuilderRef b = c->b;
    if (c->in->f.v.clamp)
        return wl_l_refuse(L, "clamp on v_mad_u64_u32/v_mad_i64_i32 not lifted");
    LLVMValueRef a = wl_vx_src(c, 0, VT_I32), s1 = wl_vx_src(c, 1, VT_I32);
    LLVMValueRef s2 = wl_vx_src(c, 2, VT_I64);
    LLVMValueRef a64 = sgn ? LLVMBuildSExt(b, a, L->i64, "") : LLVMBuildZExt(b, a, L->i64, "");
    LLVMValueRef b64 = sgn ? LLVMBuildSExt(b, s1, L->i64, "") : LLVMBuildZExt(b, s1, L->i64, "");
    LLVMValueRef prod = LLVMBuildMul(b, a64, b64, "");
    LLVMTypeRef t = L->i64;
    LLVMValueRef args[2] = {prod, s2};
    LLVMValueRef r = wl_vx_intr(c, sgn ? "llvm.sadd.with.overflow" : "llvm.uadd.with.overflow",
                                &t, 1, args, 2);
    LLVMValueRef sum = LLVMBuildExtractValue(b, r, 0, "");
    LLVMValueRef ov = LLVMBuildExtractValue(b, r, 1, "");
    LLVMValueRef mask = wl_vx_ballot_exec(c, ov);
    wl_status st = wl_vx_put(c, sum, VT_I64);
    if (c->in->ndst >= 2)
        wl_vx_put_mask(c, 1, mask);
    return st;
}

static LLVMValueRef bfe(wl_vx *c, LLVMValueRef a, LLVMValueRef off, LLVMValueRef w, bool sgn)
{
    wl_lifter *L = c->L;
    LLVMBuilderRef b = c->b;
    off = LLVMBuildAnd(b, off, wl_l_i32c(L, 31), "");
    w = LLVMBuildAnd(b, w, wl_l_i32c(L, 31), "");
    /* Shift the field to the top, then back down (w = 0 gives 0). */
    LLVMValueRef x = sgn ? LLVMBuildAShr(b, a, off, "") : LLVMBuildLShr(b, a, off, "");
    LLVMValueRef up = LLVMBuildSub(b, wl_l_i32c(L, 32), w, "");
    LLVMValueRef upc = LLVMBuildAnd(b, up, wl_l_i32c(L, 31), "");
    LLVMValueRef t = LLVMBuildShl(b, x, upc, "");
    t = sgn ? LLVMBuildAShr(b, t, upc, "") : LLVMBuildLShr(b, t, upc, "");
    /* off + w >= 32: the result is a shifted right by off (arithmetically
     * for i32), which this gives as well. */
    return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, w, wl_l_i32c(L, 0), ""), wl_l_i32c(L, 0), t, "");
}

int wl_lv_int(wl_vx *c, const char *name)
{
    const struct iop_entry *e = NULL;
    for (size_t i = 0; i < sizeof iops / sizeof iops[0]; i++)
        if (strcmp(iops[i].name, name) == 0) {
            e = &iops[i];
            break;
        }
    if (!e)
        return -1;
    wl_lifter *L = c->L;
    LLVMBuilderRef b = c->b;
    wl_vt t = (wl_vt)e->t;
    unsigned bits = wl_vx_bits(t);
    unsigned op = e->op;
    bool clamp = c->in->f.v.clamp;
    if (clamp && op != I_ADD && op != I_SUB && op != I_SUBREV && op != I_ADD_I && op != I_SUB_I &&
        op != I_ADD_CO && op != I_SUB_CO && op != I_SUBREV_CO)
        return wl_l_refuse(L, "integer clamp not lifted for this operation");
    switch (op) {
    case I_ADD_CO: case I_SUB_CO: case I_SUBREV_CO: case I_ADD_CI: case I_SUB_CI: case I_SUBREV_CI:
        return carry_op(c, op);
    case I_MAD_U64: case I_MAD_I64:
        return mad64(c, op == I_MAD_I64);
    case I_SHL64: case I_LSHR64: case I_ASHR64: {
        LLVMValueRef s = shamt(c, wl_vx_src(c, 0, VT_I32), L->i64, 64);
        LLVMValueRef v = wl_vx_src(c, 1, VT_I64);
        LLVMValueRef r = op == I_SHL64 ? LLVMBuildShl(b, v, s, "")
                         : op == I_LSHR64 ? LLVMBuildLShr(b, v, s, "") : LLVMBuildAShr(b, v, s, "");
        return wl_vx_put(c, r, VT_I64);
    }
    default:
        break;
    }
    unsigned n = c->in->nsrc;
    if (op == I_CNDMASK) {
        LLVMValueRef a = wl_vx_srci(c, 0, VT_I32), s1 = wl_vx_srci(c, 1, VT_I32);
        if (n < 3)
            return wl_l_refuse(L, "mask source missing");
        LLVMValueRef p = wl_vx_lane_bit(c, wl_vx_mask_src(c, 2), wl_vx_lane(c));
        return wl_vx_put(c, LLVMBuildSelect(b, p, s1, a, ""), VT_I32);
    }
    LLVMValueRef s[3] = {NULL, NULL, NULL};
    for (unsigned i = 0; i < n && i < 3; i++)
        s[i] = wl_vx_src(c, i, t);
    for (unsigned i = 0; i < 3; i++)
        if (!s[i])
            s[i] = LLVMConstNull(wl_vx_ty(c, t));
    LLVMValueRef a = s[0], s1 = s[1], s2 = s[2], r;
    LLVMTypeRef ty = wl_vx_ty(c, t);
    switch (op) {
    case I_MOV: r = a; break;
    case I_ADD: r = clamp ? wl_vx_intr2(c, "llvm.uadd.sat", a, s1) : LLVMBuildAdd(b, a, s1, ""); break;
    case I_SUB: r = clamp ? wl_vx_intr2(c, "llvm.usub.sat", a, s1) : LLVMBuildSub(b, a, s1, ""); break;
    case I_SUBREV: r = clamp ? wl_vx_intr2(c, "llvm.usub.sat", s1, a) : LLVMBuildSub(b, s1, a, ""); break;
    case I_ADD_I: r = clamp ? wl_vx_intr2(c, "llvm.sadd.sat", a, s1) : LLVMBuildAdd(b, a, s1, ""); break;
    case I_SUB_I: r = clamp ? wl_vx_intr2(c, "llvm.ssub.sat", a, s1) : LLVMBuildSub(b, a, s1, ""); break;
    case I_AND: r = LLVMBuildAnd(b, a, s1, ""); break;
    case I_OR: r = LLVMBuildOr(b, a, s1, ""); break;
    case I_XOR: r = LLVMBuildXor(b, a, s1, ""); break;
    case I_XNOR: r = LLVMBuildNot(b, LLVMBuildXor(b, a, s1, ""), ""); break;
    case I_NOT: r = LLVMBuildNot(b, a, ""); break;
    case I_SHL: r = LLVMBuildShl(b, s1, shamt(c, a, ty, bits), ""); break;
    case I_LSHR: r = LLVMBuildLShr(b, s1, shamt(c, a, ty, bits), ""); break;
    case I_ASHR: r = LLVMBuildAShr(b, s1, shamt(c, a, ty, bits), ""); break;
    case I_MUL_LO: r = LLVMBuildMul(b, a, s1, ""); break;
    case I_MUL_HI_U:
    case I_MUL_HI_I: {
        bool sg = op == I_MUL_HI_I;
        LLVMValueRef x = sg ? LLVMBuildSExt(b, a, L->i64, "") : LLVMBuildZExt(b, a, L->i64, "");
        LLVMValueRef y = sg ? LLVMBuildSExt(b, s1, L->i64, "") : LLVMBuildZExt(b, s1, L->i64, "");
        r = hi32(c, LLVMBuildMul(b, x, y, ""));
        break;
    }
    case I_MUL_U24: case I_MUL_I24: case I_MUL_HI_U24: case I_MUL_HI_I24: {
        bool sg = op == I_MUL_I24 || op == I_MUL_HI_I24;
        LLVMValueRef p = LLVMBuildMul(b, ext24(c, a, sg), ext24(c, s1, sg), "");
        r = (op == I_MUL_HI_U24 || op == I_MUL_HI_I24) ? hi32(c, p) : LLVMBuildTrunc(b, p, L->i32, "");
        break;
    }
    case I_MAD_U24: case I_MAD_I24: {
        bool sg = op == I_MAD_I24;
        LLVMValueRef p = LLVMBuildMul(b, ext24(c, a, sg), ext24(c, s1, sg), "");
        r = LLVMBuildAdd(b, LLVMBuildTrunc(b, p, L->i32, ""), s2, "");
        break;
    }
    case I_MAD_U16: case I_MAD_I16:
        r = LLVMBuildAdd(b, LLVMBuildMul(b, a, s1, ""), s2, "");
        break;
    case I_MIN_U: r = imin(c, a, s1, false, false); break;
    case I_MIN_I: r = imin(c, a, s1, true, false); break;
    case I_MAX_U: r = imin(c, a, s1, false, true); break;
    case I_MAX_I: r = imin(c, a, s1, true, true); break;
    case I_MIN3_U: case I_MIN3_I: case I_MAX3_U: case I_MAX3_I: {
        bool sg = op == I_MIN3_I || op == I_MAX3_I, mx = op == I_MAX3_U || op == I_MAX3_I;
        r = imin(c, imin(c, a, s1, sg, mx), s2, sg, mx);
        break;
    }
    case I_MED3_U: r = med3(c, a, s1, s2, false); break;
    case I_MED3_I: r = med3(c, a, s1, s2, true); break;
    case I_BFM: {
        LLVMValueRef w = shamt(c, a, ty, 32), o = shamt(c, s1, ty, 32);
        LLVMValueRef m = LLVMBuildSub(b, LLVMBuildShl(b, wl_l_i32c(L, 1), w, ""), wl_l_i32c(L, 1), "");
        r = LLVMBuildShl(b, m, o, "");
        break;
    }
    case I_BCNT: r = LLVMBuildAdd(b, wl_vx_intr1(c, "llvm.ctpop", a), s1, ""); break;
    case I_BFREV: r = wl_vx_intr1(c, "llvm.bitreverse", a); break;
    case I_FFBH_U:
    case I_FFBL: {
        LLVMValueRef args[2] = {a, LLVMConstInt(L->i1, 0, 0)};
        LLVMTypeRef tt = L->i32;
        r = wl_vx_intr(c, op == I_FFBH_U ? "llvm.ctlz" : "llvm.cttz", &tt, 1, args, 2);
        r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, a, wl_l_i32c(L, 0), ""),
                            wl_l_i32c(L, 0xffffffffu), r, "");
        break;
    }
    case I_FFBH_I: {
        /* Leading bits equal to the sign, not counting it; 0 and -1 give -1. */
        LLVMValueRef x = LLVMBuildXor(b, a, LLVMBuildAShr(b, a, wl_l_i32c(L, 31), ""), "");
        LLVMValueRef args[2] = {x, LLVMConstInt(L->i1, 0, 0)};
        LLVMTypeRef tt = L->i32;
        r = LLVMBuildSub(b, wl_vx_intr(c, "llvm.ctlz", &tt, 1, args, 2), wl_l_i32c(L, 1), "");
        r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, x, wl_l_i32c(L, 0), ""),
                            wl_l_i32c(L, 0xffffffffu), r, "");
        break;
    }
    case I_ADD3: r = LLVMBuildAdd(b, LLVMBuildAdd(b, a, s1, ""), s2, ""); break;
    case I_XAD: r = LLVMBuildAdd(b, LLVMBuildXor(b, a, s1, ""), s2, ""); break;
    case I_LSHL_ADD: r = LLVMBuildAdd(b, LLVMBuildShl(b, a, shamt(c, s1, ty, 32), ""), s2, ""); break;
    case I_ADD_LSHL: r = LLVMBuildShl(b, LLVMBuildAdd(b, a, s1, ""), shamt(c, s2, ty, 32), ""); break;
    case I_LSHL_OR: r = LLVMBuildOr(b, LLVMBuildShl(b, a, shamt(c, s1, ty, 32), ""), s2, ""); break;
    case I_AND_OR: r = LLVMBuildOr(b, LLVMBuildAnd(b, a, s1, ""), s2, ""); break;
    case I_OR3: r = LLVMBuildOr(b, LLVMBuildOr(b, a, s1, ""), s2, ""); break;
    case I_XOR3: r = LLVMBuildXor(b, LLVMBuildXor(b, a, s1, ""), s2, ""); break;
    case I_BFE_U: r = bfe(c, a, s1, s2, false); break;
    case I_BFE_I: r = bfe(c, a, s1, s2, true); break;
    case I_BFI:
        r = LLVMBuildOr(b, LLVMBuildAnd(b, a, s1, ""), LLVMBuildAnd(b, LLVMBuildNot(b, a, ""), s2, ""), "");
        break;
    case I_ALIGNBIT: case I_ALIGNBYTE: {
        LLVMValueRef d = LLVMBuildOr(b, LLVMBuildShl(b, LLVMBuildZExt(b, a, L->i64, ""), wl_l_i64c(L, 32), ""),
                                     LLVMBuildZExt(b, s1, L->i64, ""), "");
        LLVMValueRef sh = op == I_ALIGNBIT ? LLVMBuildAnd(b, s2, wl_l_i32c(L, 31), "")
                                           : LLVMBuildMul(b, LLVMBuildAnd(b, s2, wl_l_i32c(L, 3), ""), wl_l_i32c(L, 8), "");
        r = LLVMBuildTrunc(b, LLVMBuildLShr(b, d, LLVMBuildZExt(b, sh, L->i64, ""), ""), L->i32, "");
        break;
    }
    case I_PERM: {
        LLVMValueRef d = LLVMBuildOr(b, LLVMBuildShl(b, LLVMBuildZExt(b, a, L->i64, ""), wl_l_i64c(L, 32), ""),
                                     LLVMBuildZExt(b, s1, L->i64, ""), "");
        r = wl_l_i32c(L, 0);
        for (unsigned i = 0; i < 4; i++) {
            LLVMValueRef sel = LLVMBuildAnd(b, LLVMBuildLShr(b, s2, wl_l_i32c(L, 8 * i), ""), wl_l_i32c(L, 0xff), "");
            r = LLVMBuildOr(b, r, LLVMBuildShl(b, perm_byte(c, d, sel), wl_l_i32c(L, 8 * i), ""), "");
        }
        break;
    }
    case I_SAD_U8: r = LLVMBuildAdd(b, sad(c, a, s1, 8), s2, ""); break;
    case I_SAD_HI_U8: r = LLVMBuildAdd(b, LLVMBuildShl(b, sad(c, a, s1, 8), wl_l_i32c(L, 16), ""), s2, ""); break;
    case I_SAD_U16: r = LLVMBuildAdd(b, sad(c, a, s1, 16), s2, ""); break;
    case I_LERP_U8: {
        /* per byte: (a + b + bit 0 of c's byte) >> 1 */
        r = wl_l_i32c(L, 0);
        for (unsigned i = 0; i < 32; i += 8) {
            LLVMValueRef k = wl_l_i32c(L, i);
            LLVMValueRef x = LLVMBuildAnd(b, LLVMBuildLShr(b, a, k, ""), wl_l_i32c(L, 0xff), "");
            LLVMValueRef y = LLVMBuildAnd(b, LLVMBuildLShr(b, s1, k, ""), wl_l_i32c(L, 0xff), "");
            LLVMValueRef z = LLVMBuildAnd(b, LLVMBuildLShr(b, s2, k, ""), wl_l_i32c(L, 1), "");
            LLVMValueRef sum = LLVMBuildLShr(b, LLVMBuildAdd(b, LLVMBuildAdd(b, x, y, ""), z, ""), wl_l_i32c(L, 1), "");
            r = LLVMBuildOr(b, r, LLVMBuildShl(b, sum, k, ""), "");
        }
        break;
    }
    default:
        return wl_l_refuse(L, "integer operation not lifted");
    }
    return wl_vx_put(c, r, t);
}
