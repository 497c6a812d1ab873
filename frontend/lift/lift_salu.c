/* Lifting the scalar ALU: SOP2, SOPK, SOP1, SOPC and SOPP (branches,
 * s_endpgm and s_getpc are lift.c's). Semantics from the RDNA ISA manuals'
 * pseudo-code; SCC as they define it. Scalar values are uniform: plain IR on
 * the SGPR allocas.
 *
 * A table maps each mnemonic to an operation kind and argument; the code
 * below implements each kind once for 32 and 64 bits.
 *
 * Modes: s_round_mode, s_denorm_mode and s_setreg of MODE with a constant
 * change the mode the lifter tracks (lift_mode.c; the VALU honours it);
 * s_getreg of MODE reads it; other hardware registers are refused. s_setreg of FLAT_SCR_LO/HI (the kernel
 * prologue setting the wave's scratch base) is a no-op: the wave IR
 * addresses scratch by byte offset in the lane's private segment, so the
 * base is the lowering's business. s_sendmsg: every message is refused (none
 * of gfx10's messages is a no-op for a compute wave; MSG_DEALLOC_VGPRS is
 * gfx11's). */
#include "lift_internal.h"
#include "ir/wave_ir.h"

#include <string.h>

enum salu_kind {
    K_NOP = 1, K_REFUSE, K_BARRIER, K_LOGIC, K_SHIFT, K_ADDSUB, K_MINMAX, K_CSELECT,
    K_BFM, K_MUL, K_MULHI, K_BFE, K_ABSDIFF, K_LSHLADD, K_PACK, K_MOVK, K_CMOVK, K_CMPK,
    K_ADDK, K_MULK, K_GETREG, K_SETREG, K_SETREG_IMM, K_MOV, K_CMOV, K_NOT, K_WQM, K_BREV,
    K_BCNT, K_FF, K_FLBIT, K_FLBIT_I, K_SEXT, K_BITSET, K_SAVEEXEC, K_WREXEC, K_QUADMASK,
    K_MOVRELS, K_MOVRELD, K_ABS, K_BITREPL, K_CMP, K_BITCMP, K_ROUND_MODE, K_DENORM_MODE,
    K_SENDMSG
};

enum { L_AND, L_OR, L_XOR, L_ANDN2, L_ORN2, L_NAND, L_NOR, L_XNOR, L_ANDN1, L_ORN1 };
enum { A_ADD_U, A_SUB_U, A_ADD_I, A_SUB_I, A_ADDC, A_SUBB };

typedef struct salu_op {
    const char *name;
    uint8_t kind;
    uint8_t w64;  /* operates on 64-bit values */
    int16_t arg;  /* per kind: logic op, add/sub op, predicate, shift N, ... */
} salu_op;

#define P_EQ LLVMIntEQ
#define P_NE LLVMIntNE
/* the twelve 32-bit compares of SOPC (s_cmp_*) and SOPK (s_cmpk_*) */
#define CMP_OPS(pre, kind)                                                                        \
    {pre "_eq_i32", kind, 0, LLVMIntEQ}, {pre "_lg_i32", kind, 0, LLVMIntNE},                     \
    {pre "_gt_i32", kind, 0, LLVMIntSGT}, {pre "_ge_i32", kind, 0, LLVMIntSGE},                   \
    {pre "_lt_i32", kind, 0, LLVMIntSLT}, {pre "_le_i32", kind, 0, LLVMIntSLE},                   \
    {pre "_eq_u32", kind, 0, LLVMIntEQ}, {pre "_lg_u32", kind, 0, LLVMIntNE},                     \
    {pre "_gt_u32", kind, 0, LLVMIntUGT}, {pre "_ge_u32", kind, 0, LLVMIntUGE},                   \
    {pre "_lt_u32", kind, 0, LLVMIntULT}, {pre "_le_u32", kind, 0, LLVMIntULE}
/* an operation's _b32 and _b64 forms */
#define B32_64(stem, kind, arg) {"s_" stem "_b32", kind, 0, arg}, {"s_" stem "_b64", kind, 1, arg}
#define EXEC_OP(stem, kind, l) {"s_" stem "_b64", kind, 1, l}, {"s_" stem "_b32", kind, 0, l}

static const salu_op salu_ops[] = {
    /* SOP2 */
    {"s_add_u32", K_ADDSUB, 0, A_ADD_U}, {"s_sub_u32", K_ADDSUB, 0, A_SUB_U},
    {"s_add_i32", K_ADDSUB, 0, A_ADD_I}, {"s_sub_i32", K_ADDSUB, 0, A_SUB_I},
    {"s_addc_u32", K_ADDSUB, 0, A_ADDC}, {"s_subb_u32", K_ADDSUB, 0, A_SUBB},
    {"s_min_i32", K_MINMAX, 0, LLVMIntSLT}, {"s_min_u32", K_MINMAX, 0, LLVMIntULT},
    {"s_max_i32", K_MINMAX, 0, LLVMIntSGT}, {"s_max_u32", K_MINMAX, 0, LLVMIntUGT},
    B32_64("cselect", K_CSELECT, 0), B32_64("and", K_LOGIC, L_AND),
    B32_64("or", K_LOGIC, L_OR), B32_64("xor", K_LOGIC, L_XOR),
    B32_64("andn2", K_LOGIC, L_ANDN2), B32_64("orn2", K_LOGIC, L_ORN2),
    B32_64("nand", K_LOGIC, L_NAND), B32_64("nor", K_LOGIC, L_NOR),
    B32_64("xnor", K_LOGIC, L_XNOR), B32_64("lshl", K_SHIFT, LLVMShl),
    B32_64("lshr", K_SHIFT, LLVMLShr),
    {"s_ashr_i32", K_SHIFT, 0, LLVMAShr}, {"s_ashr_i64", K_SHIFT, 1, LLVMAShr},
    B32_64("bfm", K_BFM, 0),
    {"s_mul_i32", K_MUL, 0, 0},
    {"s_bfe_u32", K_BFE, 0, 0}, {"s_bfe_i32", K_BFE, 0, 1},
    {"s_bfe_u64", K_BFE, 1, 0}, {"s_bfe_i64", K_BFE, 1, 1},
    {"s_absdiff_i32", K_ABSDIFF, 0, 0},
    {"s_lshl1_add_u32", K_LSHLADD, 0, 1}, {"s_lshl2_add_u32", K_LSHLADD, 0, 2},
    {"s_lshl3_add_u32", K_LSHLADD, 0, 3}, {"s_lshl4_add_u32", K_LSHLADD, 0, 4},
    {"s_pack_ll_b32_b16", K_PACK, 0, 0}, {"s_pack_lh_b32_b16", K_PACK, 0, 1},
    {"s_pack_hh_b32_b16", K_PACK, 0, 2},
    {"s_mul_hi_u32", K_MULHI, 0, 0}, {"s_mul_hi_i32", K_MULHI, 0, 1},
    /* SOPK */
    {"s_movk_i32", K_MOVK, 0, 0}, {"s_version", K_NOP, 0, 0}, {"s_cmovk_i32", K_CMOVK, 0, 0},
    CMP_OPS("s_cmpk", K_CMPK),
    {"s_addk_i32", K_ADDK, 0, 0}, {"s_mulk_i32", K_MULK, 0, 0},
    {"s_getreg_b32", K_GETREG, 0, 0}, {"s_setreg_b32", K_SETREG, 0, 0},
    {"s_setreg_imm32_b32", K_SETREG_IMM, 0, 0},
    {"s_waitcnt_vscnt", K_NOP, 0, 0}, {"s_waitcnt_vmcnt", K_NOP, 0, 0},
    {"s_waitcnt_expcnt", K_NOP, 0, 0}, {"s_waitcnt_lgkmcnt", K_NOP, 0, 0},
    /* SOP1 */
    B32_64("mov", K_MOV, 0), B32_64("cmov", K_CMOV, 0),
    B32_64("not", K_NOT, 0), B32_64("wqm", K_WQM, 0),
    B32_64("brev", K_BREV, 0), B32_64("bcnt0_i32", K_BCNT, 0),
    B32_64("bcnt1_i32", K_BCNT, 1), B32_64("ff0_i32", K_FF, 0),
    B32_64("ff1_i32", K_FF, 1), B32_64("flbit_i32", K_FLBIT, 0),
    {"s_flbit_i32", K_FLBIT_I, 0, 0}, {"s_flbit_i32_i64", K_FLBIT_I, 1, 0},
    {"s_sext_i32_i8", K_SEXT, 0, 8}, {"s_sext_i32_i16", K_SEXT, 0, 16},
    B32_64("bitset0", K_BITSET, 0), B32_64("bitset1", K_BITSET, 1),
    /* the saveexec and wrexec forms: _b64 on the EXEC pair, _b32 on exec_lo */
    EXEC_OP("and_saveexec", K_SAVEEXEC, L_AND), EXEC_OP("or_saveexec", K_SAVEEXEC, L_OR),
    EXEC_OP("xor_saveexec", K_SAVEEXEC, L_XOR), EXEC_OP("andn2_saveexec", K_SAVEEXEC, L_ANDN2),
    EXEC_OP("orn2_saveexec", K_SAVEEXEC, L_ORN2), EXEC_OP("nand_saveexec", K_SAVEEXEC, L_NAND),
    EXEC_OP("nor_saveexec", K_SAVEEXEC, L_NOR), EXEC_OP("xnor_saveexec", K_SAVEEXEC, L_XNOR),
    EXEC_OP("andn1_saveexec", K_SAVEEXEC, L_ANDN1), EXEC_OP("orn1_saveexec", K_SAVEEXEC, L_ORN1),
    EXEC_OP("andn1_wrexec", K_WREXEC, L_ANDN1), EXEC_OP("andn2_wrexec", K_WREXEC, L_ANDN2),
    B32_64("quadmask", K_QUADMASK, 0), B32_64("movrels", K_MOVRELS, 0),
    B32_64("movreld", K_MOVRELD, 0),
    {"s_abs_i32", K_ABS, 0, 0}, {"s_bitreplicate_b64_b32", K_BITREPL, 1, 0},
    /* SOPC */
    CMP_OPS("s_cmp", K_CMP),
    {"s_cmp_eq_u64", K_CMP, 1, LLVMIntEQ}, {"s_cmp_lg_u64", K_CMP, 1, LLVMIntNE},
    {"s_bitcmp0_b32", K_BITCMP, 0, 0}, {"s_bitcmp1_b32", K_BITCMP, 0, 1},
    {"s_bitcmp0_b64", K_BITCMP, 1, 0}, {"s_bitcmp1_b64", K_BITCMP, 1, 1},
    /* SOPP */
    {"s_nop", K_NOP, 0, 0}, {"s_wakeup", K_NOP, 0, 0}, {"s_waitcnt", K_NOP, 0, 0},
    {"s_sleep", K_NOP, 0, 0}, {"s_setprio", K_NOP, 0, 0}, {"s_icache_inv", K_NOP, 0, 0},
    {"s_incperflevel", K_NOP, 0, 0}, {"s_decperflevel", K_NOP, 0, 0},
    {"s_ttracedata", K_NOP, 0, 0}, {"s_ttracedata_imm", K_NOP, 0, 0},
    {"s_inst_prefetch", K_NOP, 0, 0}, {"s_clause", K_NOP, 0, 0}, {"s_wait_idle", K_NOP, 0, 0},
    {"s_waitcnt_depctr", K_NOP, 0, 0}, {"s_barrier", K_BARRIER, 0, 0},
    {"s_round_mode", K_ROUND_MODE, 0, 0}, {"s_denorm_mode", K_DENORM_MODE, 0, 0},
    {"s_sendmsg", K_SENDMSG, 0, 0}, {"s_sendmsghalt", K_SENDMSG, 0, 0},
};

static const salu_op *find_op(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < sizeof salu_ops / sizeof salu_ops[0]; i++)
        if (strcmp(salu_ops[i].name, name) == 0)
            return &salu_ops[i];
    return NULL;
}

/* Operand access by width. A 32-bit literal in a 64-bit operand is
 * zero-extended, except in the signed operands (s_ashr_i64, s_bfe_i64,
 * s_flbit_i32_i64), where the hardware sign-extends it (LLVM's
 * SIInstrInfo::isOperandLegal explains the rule). */
static LLVMValueRef src(wl_lifter *L, const wl_inst *in, unsigned i, int w64)
{
    const wl_operand *o = &in->src[i];
    if (w64 && o->kind == WL_OPND_LITERAL && in->name && strstr(in->name, "_i64"))
        return wl_l_i64c(L, (uint64_t)(int64_t)(int32_t)o->value);
    return w64 ? wl_l_src64(L, o, WL_IMM_B64) : wl_l_src32(L, o, WL_IMM_B32);
}

/* The raw encoding of a scalar destination or register source, or -1. */
static int enc_of(wl_lifter *L, const wl_operand *o)
{
    if (o->kind == WL_OPND_SGPR)
        return o->index;
    if (o->kind == WL_OPND_SPECIAL && (o->index <= WL_SRC_EXEC_HI))
        return o->index;
    wl_l_refuse(L, o->kind == WL_OPND_TTMP ? "ttmp registers are not available to compute programs"
                                           : "scalar operand not supported");
    return -1;
}

static void dst(wl_lifter *L, const wl_inst *in, LLVMValueRef v, int w64)
{
    int e = enc_of(L, &in->dst[0]);
    if (e < 0)
        return;
    if (w64)
        wl_l_set_s64(L, (unsigned)e, v);
    else
        wl_l_set_s32(L, (unsigned)e, v);
}

static LLVMValueRef cint(LLVMTypeRef t, uint64_t v) { return LLVMConstInt(t, v, 0); }

static void scc_nz(wl_lifter *L, LLVMValueRef v)
{
    wl_l_set_scc(L, LLVMBuildICmp(L->b, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), ""));
}

static LLVMValueRef logic(wl_lifter *L, int op, LLVMValueRef a, LLVMValueRef b)
{
    LLVMBuilderRef B = L->b;
    switch (op) {
    case L_AND: return LLVMBuildAnd(B, a, b, "");
    case L_OR: return LLVMBuildOr(B, a, b, "");
    case L_XOR: return LLVMBuildXor(B, a, b, "");
    case L_ANDN2: return LLVMBuildAnd(B, a, LLVMBuildNot(B, b, ""), "");
    case L_ORN2: return LLVMBuildOr(B, a, LLVMBuildNot(B, b, ""), "");
    case L_NAND: return LLVMBuildNot(B, LLVMBuildAnd(B, a, b, ""), "");
    case L_NOR: return LLVMBuildNot(B, LLVMBuildOr(B, a, b, ""), "");
    case L_XNOR: return LLVMBuildNot(B, LLVMBuildXor(B, a, b, ""), "");
    case L_ANDN1: return LLVMBuildAnd(B, LLVMBuildNot(B, a, ""), b, "");
    default: return LLVMBuildOr(B, LLVMBuildNot(B, a, ""), b, ""); /* L_ORN1 */
    }
}

static LLVMValueRef intrin(wl_lifter *L, const char *name, LLVMTypeRef t, LLVMValueRef *args,
                           unsigned n)
{
    return wl_l_intrin(L, name, &t, 1, args, n);
}

static LLVMValueRef ctpop(wl_lifter *L, LLVMValueRef v)
{
    return intrin(L, "llvm.ctpop", LLVMTypeOf(v), &v, 1);
}

/* cttz/ctlz with zero defined (gives the width). */
static LLVMValueRef ctz(wl_lifter *L, const char *name, LLVMValueRef v)
{
    LLVMValueRef a[2] = {v, LLVMConstInt(L->i1, 0, 0)};
    return intrin(L, name, LLVMTypeOf(v), a, 2);
}

static LLVMValueRef to32(wl_lifter *L, LLVMValueRef v)
{
    return LLVMTypeOf(v) == L->i32 ? v : LLVMBuildTrunc(L->b, v, L->i32, "");
}

/* -1 where v == 0, else f (an i32). */
static LLVMValueRef minus1_if(wl_lifter *L, LLVMValueRef cond, LLVMValueRef f)
{
    return LLVMBuildSelect(L->b, cond, wl_l_i32c(L, 0xffffffffu), f, "");
}

static void lift_addsub(wl_lifter *L, const wl_inst *in, int op)
{
    LLVMBuilderRef B = L->b;
    LLVMValueRef a = src(L, in, 0, 0), b = src(L, in, 1, 0), r, c;
    LLVMValueRef a64 = LLVMBuildZExt(B, a, L->i64, ""), b64 = LLVMBuildZExt(B, b, L->i64, "");
    switch (op) {
    case A_ADD_U:
    case A_ADDC: {
        LLVMValueRef s = LLVMBuildAdd(B, a64, b64, "");
        if (op == A_ADDC)
            s = LLVMBuildAdd(B, s, LLVMBuildZExt(B, wl_l_get_scc(L), L->i64, ""), "");
        r = to32(L, s);
        c = LLVMBuildICmp(B, LLVMIntUGT, s, wl_l_i64c(L, 0xffffffffu), "");
        break;
    }
    case A_SUB_U:
    case A_SUBB: {
        LLVMValueRef s = b64;
        if (op == A_SUBB)
            s = LLVMBuildAdd(B, s, LLVMBuildZExt(B, wl_l_get_scc(L), L->i64, ""), "");
        r = LLVMBuildSub(B, a, to32(L, s), "");
        c = LLVMBuildICmp(B, LLVMIntUGT, s, a64, ""); /* borrow */
        break;
    }
    default: { /* signed: SCC = overflow (operand signs equal, result sign differs) */
        int add = op == A_ADD_I;
        r = add ? LLVMBuildAdd(B, a, b, "") : LLVMBuildSub(B, a, b, "");
        LLVMValueRef x = add ? LLVMBuildAnd(B, LLVMBuildXor(B, a, r, ""), LLVMBuildXor(B, b, r, ""), "")
                             : LLVMBuildAnd(B, LLVMBuildXor(B, a, b, ""), LLVMBuildXor(B, a, r, ""), "");
        c = LLVMBuildICmp(B, LLVMIntSLT, x, wl_l_i32c(L, 0), "");
        break;
    }
    }
    dst(L, in, r, 0);
    wl_l_set_scc(L, c);
}

/* s_bfe: offset S1[4:0] (64-bit: [5:0]), width S1[22:16]; a width past the
 * operand's size extracts to its top. */
static void lift_bfe(wl_lifter *L, const wl_inst *in, int w64, int sgn)
{
    LLVMBuilderRef B = L->b;
    LLVMTypeRef t = w64 ? L->i64 : L->i32;
    unsigned bits = w64 ? 64 : 32;
    LLVMValueRef v = src(L, in, 0, w64), s1 = src(L, in, 1, 0);
    LLVMValueRef off = LLVMBuildAnd(B, s1, wl_l_i32c(L, bits - 1), "");
    LLVMValueRef wid = LLVMBuildAnd(B, LLVMBuildLShr(B, s1, wl_l_i32c(L, 16), ""), wl_l_i32c(L, 0x7f), "");
    wid = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntUGT, wid, wl_l_i32c(L, bits), ""), wl_l_i32c(L, bits), wid, "");
    if (w64) {
        off = LLVMBuildZExt(B, off, t, "");
        wid = LLVMBuildZExt(B, wid, t, "");
    }
    LLVMValueRef sh = sgn ? LLVMBuildAShr(B, v, off, "") : LLVMBuildLShr(B, v, off, "");
    /* Keep `wid` low bits: shift left by (bits - wid) then back (0 < wid). */
    LLVMValueRef lsh = LLVMBuildSub(B, cint(t, bits), wid, "");
    LLVMValueRef wz = LLVMBuildICmp(B, LLVMIntEQ, wid, LLVMConstNull(t), "");
    LLVMValueRef safe = LLVMBuildSelect(B, wz, LLVMConstNull(t), lsh, "");
    LLVMValueRef up = LLVMBuildShl(B, sh, safe, "");
    LLVMValueRef r = sgn ? LLVMBuildAShr(B, up, safe, "") : LLVMBuildLShr(B, up, safe, "");
    r = LLVMBuildSelect(B, wz, LLVMConstNull(t), r, "");
    dst(L, in, r, w64);
    scc_nz(L, r);
}

/* s_quadmask: bit i of D = any bit of S0[4i+3:4i]. */
static LLVMValueRef quadmask(wl_lifter *L, LLVMValueRef v, unsigned bits)
{
    LLVMBuilderRef B = L->b;
    LLVMTypeRef t = LLVMTypeOf(v);
    LLVMValueRef r = LLVMConstNull(t);
    for (unsigned i = 0; i < bits / 4; i++) {
        LLVMValueRef q = LLVMBuildAnd(B, LLVMBuildLShr(B, v, cint(t, 4 * i), ""), cint(t, 0xf), "");
        LLVMValueRef nz = LLVMBuildZExt(B, LLVMBuildICmp(B, LLVMIntNE, q, LLVMConstNull(t), ""), t, "");
        r = LLVMBuildOr(B, r, LLVMBuildShl(B, nz, cint(t, i), ""), "");
    }
    return r;
}

/* s_wqm: every 4-bit group with a bit set becomes 0xf. */
static LLVMValueRef wqm(wl_lifter *L, LLVMValueRef v)
{
    LLVMBuilderRef B = L->b;
    LLVMTypeRef t = LLVMTypeOf(v);
    uint64_t ones = t == L->i64 ? 0x1111111111111111ull : 0x11111111ull;
    LLVMValueRef x = LLVMBuildOr(B, v, LLVMBuildLShr(B, v, cint(t, 1), ""), "");
    x = LLVMBuildOr(B, x, LLVMBuildLShr(B, x, cint(t, 2), ""), "");
    x = LLVMBuildAnd(B, x, cint(t, ones), "");
    return LLVMBuildMul(B, x, cint(t, 0xf), "");
}

/* s_bitreplicate_b64_b32: D[2i] = D[2i+1] = S0[i]. */
static LLVMValueRef bitrepl(wl_lifter *L, LLVMValueRef v32)
{
    static const uint64_t m[5] = {0x0000ffff0000ffffull, 0x00ff00ff00ff00ffull, 0x0f0f0f0f0f0f0f0full,
                                  0x3333333333333333ull, 0x5555555555555555ull};
    LLVMBuilderRef B = L->b;
    LLVMValueRef x = LLVMBuildZExt(B, v32, L->i64, "");
    for (unsigned i = 0, s = 16; i < 5; i++, s >>= 1)
        x = LLVMBuildAnd(B, LLVMBuildOr(B, x, LLVMBuildShl(B, x, wl_l_i64c(L, s), ""), ""),
                         wl_l_i64c(L, m[i]), "");
    return LLVMBuildOr(B, x, LLVMBuildShl(B, x, wl_l_i64c(L, 1), ""), "");
}

/* s_movrels/s_movreld: SGPR[base + M0]. A select chain over the SGPRs; an
 * index past s105 reads 0 (movrels) or writes nothing (movreld) and records
 * an escape, since the hardware would reach other registers. */
static void lift_movrel(wl_lifter *L, const wl_inst *in, int w64, int rels)
{
    LLVMBuilderRef B = L->b;
    const wl_operand *reg = rels ? &in->src[0] : &in->dst[0];
    if (reg->kind != WL_OPND_SGPR) {
        wl_l_refuse(L, "indexed register is not an SGPR");
        return;
    }
    unsigned n = w64 ? 2 : 1;
    LLVMValueRef idx = LLVMBuildAdd(B, wl_l_i32c(L, reg->index), wl_l_get_s32(L, WL_SRC_M0), "");
    if (w64)
        idx = LLVMBuildAnd(B, idx, wl_l_i32c(L, ~1u), "");
    LLVMValueRef oob = LLVMBuildICmp(B, LLVMIntUGT, idx, wl_l_i32c(L, WL_SRC_SGPR_MAX + 1 - n), "");
    LLVMValueRef args[3] = {wl_l_i32c(L, WL_ESC_INSTRUCTION), wl_l_i32c(L, (uint32_t)in->offset), oob};
    if (rels) {
        LLVMValueRef part[2];
        for (unsigned k = 0; k < n; k++) {
            LLVMValueRef v = wl_l_i32c(L, 0);
            for (unsigned s = 0; s + n <= WL_SRC_SGPR_MAX + 1; s++) {
                LLVMValueRef eq = LLVMBuildICmp(B, LLVMIntEQ, idx, wl_l_i32c(L, s), "");
                v = LLVMBuildSelect(B, eq, wl_l_get_s32(L, s + k), v, "");
            }
            part[k] = v;
        }
        wl_l_call(L, "wl.escape", L->t_void, args, 3);
        if (w64)
            dst(L, in, LLVMBuildOr(B, LLVMBuildZExt(B, part[0], L->i64, ""),
                                   LLVMBuildShl(B, LLVMBuildZExt(B, part[1], L->i64, ""),
                                                wl_l_i64c(L, 32), ""), ""), 1);
        else
            dst(L, in, part[0], 0);
    } else {
        LLVMValueRef v = src(L, in, 0, w64), part[2];
        part[0] = w64 ? LLVMBuildTrunc(B, v, L->i32, "") : v;
        part[1] = w64 ? LLVMBuildTrunc(B, LLVMBuildLShr(B, v, wl_l_i64c(L, 32), ""), L->i32, "") : v;
        wl_l_call(L, "wl.escape", L->t_void, args, 3);
        for (unsigned s = 0; s + n <= WL_SRC_SGPR_MAX + 1; s++) {
            LLVMValueRef eq = LLVMBuildICmp(B, LLVMIntEQ, idx, wl_l_i32c(L, s), "");
            for (unsigned k = 0; k < n; k++)
                wl_l_set_s32(L, s + k, LLVMBuildSelect(B, eq, part[k], wl_l_get_s32(L, s + k), ""));
        }
    }
}

/* hwreg(ID, OFFSET, SIZE): the MODE register (lift_mode.c tracks it). */
#define HWREG_MODE 1
#define HWREG_FLAT_SCR_LO 20
#define HWREG_FLAT_SCR_HI 21

static void hwreg_field(const wl_inst *in, unsigned *id, unsigned *off, unsigned *size)
{
    *id = in->f.s.hwreg & 0x3f;
    *off = (in->f.s.hwreg >> 6) & 0x1f;
    *size = ((in->f.s.hwreg >> 11) & 0x1f) + 1;
}

/* s_getreg_b32 of MODE: the field of the current mode, zero-extended. */
static wl_status lift_getreg(wl_lifter *L, const wl_inst *in)
{
    unsigned id, off, size;
    hwreg_field(in, &id, &off, &size);
    if (id != HWREG_MODE)
        return wl_l_refuse(L, "only the MODE hardware register can be read");
    uint32_t v = (wl_l_mode(L) >> off) & (size >= 32 ? 0xffffffffu : ((1u << size) - 1));
    dst(L, in, wl_l_i32c(L, v), 0);
    return WL_OK;
}

/* s_setreg_b32 / s_setreg_imm32_b32: MODE with a constant (tracked),
 * FLAT_SCR_LO/HI ignored (the wave IR addresses scratch by offset). */
static wl_status lift_setreg(wl_lifter *L, const wl_inst *in, const wl_operand *val)
{
    unsigned id, off, size;
    hwreg_field(in, &id, &off, &size);
    if (id == HWREG_FLAT_SCR_LO || id == HWREG_FLAT_SCR_HI)
        return WL_OK;
    if (id != HWREG_MODE)
        return wl_l_refuse(L, "only the MODE hardware register can be written");
    uint32_t v;
    if (val->kind == WL_OPND_LITERAL || val->kind == WL_OPND_IMM)
        v = val->value;
    else if (val->kind == WL_OPND_INLINE && val->index >= 128 && val->index <= 208)
        v = val->index <= 192 ? val->index - 128u : (uint32_t)(192 - (int)val->index);
    else
        return wl_l_refuse(L, "a MODE write with a value known only at run time");
    return wl_l_mode_write(L, off, size, v);
}

wl_status wl_lift_salu(wl_lifter *L, const wl_inst *in)
{
    const salu_op *op = find_op(in->name);
    if (!op)
        return wl_l_refuse(L, "not supported");
    LLVMBuilderRef B = L->b;
    int w = op->w64;
    LLVMTypeRef t = w ? L->i64 : L->i32;
    unsigned bits = w ? 64 : 32;
    LLVMValueRef a, b, r;
    switch ((enum salu_kind)op->kind) {
    case K_NOP:
        return WL_OK;
    case K_REFUSE:
        return wl_l_refuse(L, "not supported");
    case K_BARRIER:
        wl_l_call(L, "wl.barrier", L->t_void, NULL, 0);
        return WL_OK;
    case K_SENDMSG:
        return wl_l_refuse(L, "messages are not supported for compute programs");
    case K_ROUND_MODE: /* MODE bits 3:0 (a float op under a mode other than nearest even is refused) */
        return wl_l_mode_write(L, 0, 4, in->f.s.simm16);
    case K_DENORM_MODE: /* MODE bits 7:4 */
        return wl_l_mode_write(L, 4, 4, in->f.s.simm16);
    case K_LOGIC:
        r = logic(L, op->arg, src(L, in, 0, w), src(L, in, 1, w));
        dst(L, in, r, w);
        scc_nz(L, r);
        return WL_OK;
    case K_SHIFT:
        a = src(L, in, 0, w);
        b = LLVMBuildAnd(B, src(L, in, 1, 0), wl_l_i32c(L, bits - 1), "");
        if (w)
            b = LLVMBuildZExt(B, b, t, "");
        r = LLVMBuildBinOp(B, (LLVMOpcode)op->arg, a, b, "");
        dst(L, in, r, w);
        scc_nz(L, r);
        return WL_OK;
    case K_ADDSUB:
        lift_addsub(L, in, op->arg);
        return WL_OK;
    case K_MINMAX:
        a = src(L, in, 0, 0);
        b = src(L, in, 1, 0);
        r = LLVMBuildICmp(B, (LLVMIntPredicate)op->arg, a, b, "");
        dst(L, in, LLVMBuildSelect(B, r, a, b, ""), 0);
        wl_l_set_scc(L, r);
        return WL_OK;
    case K_CSELECT:
        a = src(L, in, 0, w);
        b = src(L, in, 1, w);
        dst(L, in, LLVMBuildSelect(B, wl_l_get_scc(L), a, b, ""), w);
        return WL_OK;
    case K_BFM: {
        a = LLVMBuildAnd(B, src(L, in, 0, 0), wl_l_i32c(L, bits - 1), "");
        b = LLVMBuildAnd(B, src(L, in, 1, 0), wl_l_i32c(L, bits - 1), "");
        if (w) {
            a = LLVMBuildZExt(B, a, t, "");
            b = LLVMBuildZExt(B, b, t, "");
        }
        r = LLVMBuildSub(B, LLVMBuildShl(B, cint(t, 1), a, ""), cint(t, 1), "");
        dst(L, in, LLVMBuildShl(B, r, b, ""), w);
        return WL_OK;
    }
    case K_MUL:
        dst(L, in, LLVMBuildMul(B, src(L, in, 0, 0), src(L, in, 1, 0), ""), 0);
        return WL_OK;
    case K_MULHI: {
        LLVMValueRef (*ext)(LLVMBuilderRef, LLVMValueRef, LLVMTypeRef, const char *) =
            op->arg ? LLVMBuildSExt : LLVMBuildZExt;
        a = ext(B, src(L, in, 0, 0), L->i64, "");
        b = ext(B, src(L, in, 1, 0), L->i64, "");
        r = LLVMBuildLShr(B, LLVMBuildMul(B, a, b, ""), wl_l_i64c(L, 32), "");
        dst(L, in, to32(L, r), 0);
        return WL_OK;
    }
    case K_BFE:
        lift_bfe(L, in, w, op->arg);
        return WL_OK;
    case K_ABSDIFF: {
        a = src(L, in, 0, 0);
        b = src(L, in, 1, 0);
        /* D = S0 - S1 (32-bit, wrapping); if D < 0, D = -D: the ISA's
         * examples give absdiff(0x80000000, 1) = 0x7fffffff. */
        LLVMValueRef d = LLVMBuildSub(B, a, b, "");
        LLVMValueRef lt = LLVMBuildICmp(B, LLVMIntSLT, d, wl_l_i32c(L, 0), "");
        r = LLVMBuildSelect(B, lt, LLVMBuildNeg(B, d, ""), d, "");
        dst(L, in, r, 0);
        scc_nz(L, r);
        return WL_OK;
    }
    case K_LSHLADD: {
        LLVMValueRef s = LLVMBuildShl(B, LLVMBuildZExt(B, src(L, in, 0, 0), L->i64, ""),
                                      wl_l_i64c(L, (uint64_t)op->arg), "");
        s = LLVMBuildAdd(B, s, LLVMBuildZExt(B, src(L, in, 1, 0), L->i64, ""), "");
        dst(L, in, to32(L, s), 0);
        wl_l_set_scc(L, LLVMBuildICmp(B, LLVMIntUGT, s, wl_l_i64c(L, 0xffffffffu), ""));
        return WL_OK;
    }
    case K_PACK: {
        a = src(L, in, 0, 0);
        b = src(L, in, 1, 0);
        LLVMValueRef lo = op->arg == 2 ? LLVMBuildLShr(B, a, wl_l_i32c(L, 16), "")
                                       : LLVMBuildAnd(B, a, wl_l_i32c(L, 0xffff), "");
        LLVMValueRef hi = op->arg == 0 ? LLVMBuildShl(B, b, wl_l_i32c(L, 16), "")
                                       : LLVMBuildAnd(B, b, wl_l_i32c(L, 0xffff0000u), "");
        dst(L, in, LLVMBuildOr(B, lo, hi, ""), 0);
        return WL_OK;
    }
    case K_MOVK:
        dst(L, in, wl_l_i32c(L, (uint32_t)in->f.s.simm16), 0);
        return WL_OK;
    case K_CMOVK: {
        int e = enc_of(L, &in->dst[0]);
        if (e < 0)
            return WL_ERR_UNSUPPORTED;
        r = LLVMBuildSelect(B, wl_l_get_scc(L), wl_l_i32c(L, (uint32_t)in->f.s.simm16),
                            wl_l_get_s32(L, (unsigned)e), "");
        wl_l_set_s32(L, (unsigned)e, r);
        return WL_OK;
    }
    case K_CMPK: {
        int uns = strstr(op->name, "_u32") != NULL;
        uint32_t k = uns ? (uint16_t)in->f.s.simm16 : (uint32_t)in->f.s.simm16;
        wl_l_set_scc(L, LLVMBuildICmp(B, (LLVMIntPredicate)op->arg, src(L, in, 0, 0), wl_l_i32c(L, k), ""));
        return WL_OK;
    }
    case K_ADDK:
    case K_MULK: {
        int e = enc_of(L, &in->dst[0]);
        if (e < 0)
            return WL_ERR_UNSUPPORTED;
        a = wl_l_get_s32(L, (unsigned)e);
        b = wl_l_i32c(L, (uint32_t)in->f.s.simm16);
        if (op->kind == K_MULK) {
            wl_l_set_s32(L, (unsigned)e, LLVMBuildMul(B, a, b, ""));
            return WL_OK;
        }
        r = LLVMBuildAdd(B, a, b, "");
        LLVMValueRef x = LLVMBuildAnd(B, LLVMBuildXor(B, a, r, ""), LLVMBuildXor(B, b, r, ""), "");
        wl_l_set_s32(L, (unsigned)e, r);
        wl_l_set_scc(L, LLVMBuildICmp(B, LLVMIntSLT, x, wl_l_i32c(L, 0), ""));
        return WL_OK;
    }
    case K_GETREG:
        return lift_getreg(L, in);
    case K_SETREG:
        return lift_setreg(L, in, &in->src[0]);
    case K_SETREG_IMM:
        return lift_setreg(L, in, &in->src[1]);
    case K_MOV:
        dst(L, in, src(L, in, 0, w), w);
        return WL_OK;
    case K_CMOV: {
        int e = enc_of(L, &in->dst[0]);
        if (e < 0)
            return WL_ERR_UNSUPPORTED;
        a = src(L, in, 0, w);
        LLVMValueRef old = w ? wl_l_get_s64(L, (unsigned)e) : wl_l_get_s32(L, (unsigned)e);
        dst(L, in, LLVMBuildSelect(B, wl_l_get_scc(L), a, old, ""), w);
        return WL_OK;
    }
    case K_NOT:
        r = LLVMBuildNot(B, src(L, in, 0, w), "");
        dst(L, in, r, w);
        scc_nz(L, r);
        return WL_OK;
    case K_WQM:
        r = wqm(L, src(L, in, 0, w));
        dst(L, in, r, w);
        scc_nz(L, r);
        return WL_OK;
    case K_BREV:
        a = src(L, in, 0, w);
        dst(L, in, intrin(L, "llvm.bitreverse", t, &a, 1), w);
        return WL_OK;
    case K_BCNT:
        r = to32(L, ctpop(L, src(L, in, 0, w)));
        if (!op->arg)
            r = LLVMBuildSub(B, wl_l_i32c(L, bits), r, "");
        dst(L, in, r, 0);
        scc_nz(L, r);
        return WL_OK;
    case K_FF:
        a = src(L, in, 0, w);
        if (!op->arg)
            a = LLVMBuildNot(B, a, "");
        r = minus1_if(L, LLVMBuildICmp(B, LLVMIntEQ, a, LLVMConstNull(t), ""),
                      to32(L, ctz(L, "llvm.cttz", a)));
        dst(L, in, r, 0);
        return WL_OK;
    case K_FLBIT:
        a = src(L, in, 0, w);
        r = minus1_if(L, LLVMBuildICmp(B, LLVMIntEQ, a, LLVMConstNull(t), ""),
                      to32(L, ctz(L, "llvm.ctlz", a)));
        dst(L, in, r, 0);
        return WL_OK;
    case K_FLBIT_I: {
        a = src(L, in, 0, w);
        LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, a, LLVMConstNull(t), "");
        LLVMValueRef x = LLVMBuildSelect(B, neg, LLVMBuildNot(B, a, ""), a, "");
        r = minus1_if(L, LLVMBuildICmp(B, LLVMIntEQ, x, LLVMConstNull(t), ""),
                      to32(L, ctz(L, "llvm.ctlz", x)));
        dst(L, in, r, 0);
        return WL_OK;
    }
    case K_SEXT: {
        LLVMTypeRef nt = op->arg == 8 ? L->i8 : L->i16;
        dst(L, in, LLVMBuildSExt(B, LLVMBuildTrunc(B, src(L, in, 0, 0), nt, ""), L->i32, ""), 0);
        return WL_OK;
    }
    case K_BITSET: {
        int e = enc_of(L, &in->dst[0]);
        if (e < 0)
            return WL_ERR_UNSUPPORTED;
        b = LLVMBuildAnd(B, src(L, in, 0, 0), wl_l_i32c(L, bits - 1), "");
        if (w)
            b = LLVMBuildZExt(B, b, t, "");
        LLVMValueRef bit = LLVMBuildShl(B, cint(t, 1), b, "");
        LLVMValueRef old = w ? wl_l_get_s64(L, (unsigned)e) : wl_l_get_s32(L, (unsigned)e);
        r = op->arg ? LLVMBuildOr(B, old, bit, "") : LLVMBuildAnd(B, old, LLVMBuildNot(B, bit, ""), "");
        dst(L, in, r, w);
        return WL_OK;
    }
    case K_SAVEEXEC:
    case K_WREXEC: {
        /* EXEC as a register of the operation's width (b32: exec_lo). */
        a = src(L, in, 0, w);
        LLVMValueRef ex = w ? wl_l_get_s64(L, WL_SRC_EXEC_LO) : wl_l_get_s32(L, WL_SRC_EXEC_LO);
        r = logic(L, op->arg, a, ex);
        if (op->kind == K_SAVEEXEC)
            dst(L, in, ex, w);
        if (w)
            wl_l_set_s64(L, WL_SRC_EXEC_LO, r);
        else
            wl_l_set_s32(L, WL_SRC_EXEC_LO, r);
        if (op->kind == K_WREXEC)
            dst(L, in, r, w);
        scc_nz(L, r);
        return WL_OK;
    }
    case K_QUADMASK:
        r = quadmask(L, src(L, in, 0, w), bits);
        dst(L, in, r, w);
        scc_nz(L, r);
        return WL_OK;
    case K_MOVRELS:
    case K_MOVRELD:
        lift_movrel(L, in, w, op->kind == K_MOVRELS);
        return WL_OK;
    case K_ABS:
        a = src(L, in, 0, 0);
        r = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, a, wl_l_i32c(L, 0), ""),
                            LLVMBuildNeg(B, a, ""), a, "");
        dst(L, in, r, 0);
        scc_nz(L, r);
        return WL_OK;
    case K_BITREPL:
        dst(L, in, bitrepl(L, src(L, in, 0, 0)), 1);
        return WL_OK;
    case K_CMP:
        wl_l_set_scc(L, LLVMBuildICmp(B, (LLVMIntPredicate)op->arg, src(L, in, 0, w), src(L, in, 1, w), ""));
        return WL_OK;
    case K_BITCMP:
        a = src(L, in, 0, w);
        b = LLVMBuildAnd(B, src(L, in, 1, 0), wl_l_i32c(L, bits - 1), "");
        if (w)
            b = LLVMBuildZExt(B, b, t, "");
        r = LLVMBuildAnd(B, LLVMBuildLShr(B, a, b, ""), cint(t, 1), "");
        wl_l_set_scc(L, LLVMBuildICmp(B, op->arg ? LLVMIntNE : LLVMIntEQ, r, LLVMConstNull(t), ""));
        return WL_OK;
    }
    return wl_l_refuse(L, "not supported");
}
