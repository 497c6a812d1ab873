/* Decoder of the scalar formats: SOP2, SOPK, SOP1, SOPC, SOPP and SMEM.
 *
 * The opcode tables (tables/salu_tables.inc) give each opcode's mnemonic,
 * which encoding fields are operands and their widths in dwords; this file
 * reads the fields, checks them the way LLVM's disassembler does, and fills
 * the normalized operands of the wl_inst. */
#include "salu_internal.h"

#include <string.h>

bool wl_salu_sreg_decode(wl_operand *o, unsigned enc, unsigned nregs)
{
    unsigned align = nregs >= 4 ? 4 : (nregs == 2 ? 2 : 1);
    memset(o, 0, sizeof(*o));
    o->nregs = (uint8_t)nregs;
    if (enc <= WL_SRC_SGPR_MAX) {
        unsigned idx = enc & ~(align - 1);
        if (idx + nregs - 1 > WL_SRC_SGPR_MAX)
            return false;
        o->kind = WL_OPND_SGPR;
        o->index = (uint16_t)idx;
        return true;
    }
    if (enc >= WL_SRC_TTMP0 && enc < WL_SRC_TTMP0 + 16) {
        unsigned idx = (enc - WL_SRC_TTMP0) & ~(align - 1);
        if (idx + nregs > 16)
            return false;
        o->kind = WL_OPND_TTMP;
        o->index = (uint16_t)idx;
        return true;
    }
    if ((enc >= 128 && enc <= 208) || (enc >= WL_SRC_HALF && enc <= WL_SRC_INV_2PI)) {
        o->kind = WL_OPND_INLINE;
        o->index = (uint16_t)enc;
        o->nregs = 0;
        return true;
    }
    if (enc == WL_SRC_LITERAL) {
        o->kind = WL_OPND_LITERAL;
        o->nregs = 0;
        return true;
    }
    /* Special registers: 32-bit operands take all of them, wider ones the
     * 64-bit pairs only (vcc, null, exec, src_*). */
    bool ok;
    switch (enc) {
    case WL_SRC_VCC_LO: case WL_SRC_NULL: case WL_SRC_EXEC_LO:
    case WL_SRC_SHARED_BASE: case WL_SRC_SHARED_LIMIT: case WL_SRC_PRIVATE_BASE:
    case WL_SRC_PRIVATE_LIMIT: case WL_SRC_POPS_EXITING_WAVE_ID:
    case WL_SRC_VCCZ: case WL_SRC_EXECZ: case WL_SRC_SCC:
        ok = true;
        break;
    case WL_SRC_VCC_HI: case WL_SRC_M0: case WL_SRC_EXEC_HI: case WL_SRC_LDS_DIRECT:
        ok = nregs == 1;
        break;
    default:
        ok = false;
        break;
    }
    o->kind = WL_OPND_SPECIAL;
    o->index = (uint16_t)enc;
    return ok;
}

/* Reads the literal dword that follows a one-dword encoding into every
 * operand marked WL_OPND_LITERAL. */
static wl_status take_literal(const uint32_t *w, size_t nwords, wl_inst *inst)
{
    bool need = false;
    for (unsigned i = 0; i < inst->nsrc; i++)
        need |= inst->src[i].kind == WL_OPND_LITERAL;
    if (!need) {
        inst->size = 4;
        return WL_OK;
    }
    if (nwords < 2)
        return WL_ERR_TRUNCATED;
    for (unsigned i = 0; i < inst->nsrc; i++)
        if (inst->src[i].kind == WL_OPND_LITERAL)
            inst->src[i].value = w[1];
    inst->has_literal = 1;
    inst->size = 8;
    return WL_OK;
}

static void set_imm(wl_operand *o, uint32_t value, wl_opnd_kind kind)
{
    memset(o, 0, sizeof(*o));
    o->kind = (uint8_t)kind;
    o->value = value;
}

static const struct wl_opinfo *begin(const wl_decoder *d, wl_inst *inst, wl_format fmt,
                                     unsigned op)
{
    const struct wl_opinfo *info = wl_salu_lookup(fmt, op, d->isa);
    if (info) {
        inst->format = (uint8_t)fmt;
        inst->op = (uint16_t)op;
        inst->info = info;
        inst->name = info->name;
    }
    return info;
}

/* SOP2:  [31:30]=10 OP[29:23] SDST[22:16] SSRC1[15:8] SSRC0[7:0] (+ literal)
 * SOPC:  [31:23]=101111110 OP[22:16] SSRC1[15:8] SSRC0[7:0] (+ literal)
 * SOP1:  [31:23]=101111101 SDST[22:16] OP[15:8] SSRC0[7:0] (+ literal)
 * The table flags say which of SDST, SSRC0, SSRC1 are operands. */
static wl_status decode_sop(const wl_decoder *d, const uint32_t *w, size_t nwords,
                            wl_inst *inst, wl_format fmt, unsigned op)
{
    const struct wl_opinfo *info = begin(d, inst, fmt, op);
    if (!info)
        return WL_ERR_INVALID;
    unsigned sdst = (w[0] >> 16) & 0x7f, ssrc1 = (w[0] >> 8) & 0xff, ssrc0 = w[0] & 0xff;
    unsigned si = 0;
    if (info->flags & WL_SALU_F_SDST) {
        if (!wl_salu_sreg_decode(&inst->dst[0], sdst, info->dst_regs[0]))
            return WL_ERR_INVALID;
        inst->ndst = 1;
    }
    if (info->flags & WL_SALU_F_SSRC0) {
        if (!wl_salu_sreg_decode(&inst->src[si], ssrc0, info->src_regs[si]))
            return WL_ERR_INVALID;
        si++;
    }
    if (info->flags & WL_SALU_F_SSRC1) {
        if (!wl_salu_sreg_decode(&inst->src[si], ssrc1, info->src_regs[si]))
            return WL_ERR_INVALID;
        si++;
    }
    inst->nsrc = (uint8_t)si;
    return take_literal(w, nwords, inst);
}

/* SOPK:  [31:28]=1011 OP[27:23] SDST[22:16] SIMM16[15:0]
 *        s_setreg_imm32_b32 is followed by a 32-bit literal.
 * The register operand is dst[0] where SDST is written, src[0] where it is
 * read (s_cmpk_*, s_waitcnt_*, s_setreg_b32); the immediate follows it. */
static wl_status decode_sopk(const wl_decoder *d, const uint32_t *w, size_t nwords,
                             wl_inst *inst, unsigned op)
{
    const struct wl_opinfo *info = begin(d, inst, WL_FMT_SOPK, op);
    if (!info)
        return WL_ERR_INVALID;
    unsigned sdst = (w[0] >> 16) & 0x7f;
    uint16_t imm = (uint16_t)(w[0] & 0xffff);
    inst->f.s.simm16 = (int16_t)imm;
    if (info->ndst) {
        if (!wl_salu_sreg_decode(&inst->dst[0], sdst, info->dst_regs[0]))
            return WL_ERR_INVALID;
        inst->ndst = 1;
    } else if (info->nsrc) {
        if (!wl_salu_sreg_decode(&inst->src[0], sdst, info->src_regs[0]))
            return WL_ERR_INVALID;
        inst->nsrc = 1;
    }
    wl_operand *imm_op = &inst->src[inst->nsrc++];
    inst->size = 4;
    switch ((enum wl_salu_kind)info->extra) {
    case WL_SALU_K_SOPK_LABEL:
        set_imm(imm_op, (uint32_t)(int32_t)(int16_t)imm, WL_OPND_LABEL);
        break;
    case WL_SALU_K_SOPK_GETREG:
    case WL_SALU_K_SOPK_SETREG:
        inst->f.s.hwreg = imm;
        set_imm(imm_op, imm, WL_OPND_IMM);
        break;
    case WL_SALU_K_SOPK_SETREG_IMM:
        inst->f.s.hwreg = imm;
        set_imm(imm_op, imm, WL_OPND_IMM);
        if (nwords < 2)
            return WL_ERR_TRUNCATED;
        set_imm(&inst->src[inst->nsrc++], w[1], WL_OPND_LITERAL);
        inst->has_literal = 1;
        inst->size = 8;
        break;
    default:
        set_imm(imm_op, imm, WL_OPND_IMM);
        break;
    }
    return WL_OK;
}

/* SOPP:  [31:23]=101111111 OP[22:16] SIMM16[15:0]
 * Branches keep the signed word offset in a WL_OPND_LABEL operand: the
 * target is offset + 4 + 4 * simm16. */
static wl_status decode_sopp(const wl_decoder *d, const uint32_t *w, wl_inst *inst, unsigned op)
{
    const struct wl_opinfo *info = begin(d, inst, WL_FMT_SOPP, op);
    if (!info)
        return WL_ERR_INVALID;
    uint16_t imm = (uint16_t)(w[0] & 0xffff);
    inst->f.s.simm16 = (int16_t)imm;
    inst->size = 4;
    switch ((enum wl_salu_kind)info->extra) {
    case WL_SALU_K_SOPP_NONE:
        return imm == 0 ? WL_OK : WL_ERR_INVALID;
    case WL_SALU_K_SOPP_LABEL:
        set_imm(&inst->src[0], (uint32_t)(int32_t)(int16_t)imm, WL_OPND_LABEL);
        break;
    default:
        set_imm(&inst->src[0], imm, WL_OPND_IMM);
        break;
    }
    inst->nsrc = 1;
    return WL_OK;
}

/* SMEM (two dwords):
 *   word 0: [31:26]=111101 OP[25:18] GLC[16] DLC[14] SDATA[12:6] SBASE[5:0]
 *   word 1: SOFFSET[31:25] OFFSET[20:0] (signed)
 * SBASE is an SGPR pair number (a 64-bit base, or a 128-bit buffer
 * descriptor for the s_buffer_* opcodes); SOFFSET = null means no register
 * offset. Operands: data (dst[0] for loads; src[0] for stores and atomics,
 * also dst[0] for atomics with glc), base, soffset (null when unused) and
 * the immediate offset. */
static wl_status decode_smem(const wl_decoder *d, const uint32_t *w, size_t nwords,
                             wl_inst *inst)
{
    unsigned op = (w[0] >> 18) & 0xff;
    const struct wl_opinfo *info = begin(d, inst, WL_FMT_SMEM, op);
    if (!info)
        return WL_ERR_INVALID;
    if (nwords < 2)
        return WL_ERR_TRUNCATED;
    unsigned sdata = (w[0] >> 6) & 0x7f, sbase = w[0] & 0x3f;
    unsigned soffset = w[1] >> 25;
    int32_t offset = (int32_t)((w[1] & 0x1fffff) ^ 0x100000) - 0x100000;
    unsigned flags = info->flags, si = 0;
    inst->size = 8;
    inst->f.s.glc = (w[0] >> 16) & 1;
    inst->f.s.dlc = (w[0] >> 14) & 1;
    if (flags & WL_SALU_F_DATA_DST) {
        if (!wl_salu_sreg_decode(&inst->dst[0], sdata, info->dst_regs[0]))
            return WL_ERR_INVALID;
        inst->ndst = 1;
    }
    if (flags & WL_SALU_F_DATA_SRC) {
        if (!wl_salu_sreg_decode(&inst->src[si], sdata, info->src_regs[si]))
            return WL_ERR_INVALID;
        if ((flags & WL_SALU_F_DATA_DST_GLC) && inst->f.s.glc) {
            inst->dst[0] = inst->src[si];
            inst->ndst = 1;
        }
        si++;
    }
    if (flags & WL_SALU_F_DATA_IMM)
        set_imm(&inst->src[si++], sdata, WL_OPND_IMM);
    if (flags & WL_SALU_F_ADDR) {
        unsigned base_regs = info->src_regs[(flags & WL_SALU_F_DATA_SRC) ? 1 : 0];
        if (!wl_salu_sreg_decode(&inst->src[si], sbase << 1, base_regs))
            return WL_ERR_INVALID;
        si++;
        if (!wl_salu_sreg_decode(&inst->src[si++], soffset, 1))
            return WL_ERR_INVALID;
        set_imm(&inst->src[si++], (uint32_t)offset, WL_OPND_IMM);
        inst->f.s.offset = offset;
        inst->f.s.soffset_en = soffset != WL_SRC_NULL;
        inst->f.s.imm = offset != 0 || soffset == WL_SRC_NULL;
    }
    inst->nsrc = (uint8_t)si;
    return WL_OK;
}

wl_status wl_decode_salu(const wl_decoder *d, const uint32_t *w, size_t nwords, wl_inst *inst)
{
    uint32_t w0 = w[0];
    if ((w0 >> 26) == 0x3d)
        return decode_smem(d, w, nwords, inst);
    if ((w0 >> 30) != 2)
        return WL_ERR_INVALID;
    switch (w0 >> 23) {
    case 0x17d: return decode_sop(d, w, nwords, inst, WL_FMT_SOP1, (w0 >> 8) & 0xff);
    case 0x17e: return decode_sop(d, w, nwords, inst, WL_FMT_SOPC, (w0 >> 16) & 0x7f);
    case 0x17f: return decode_sopp(d, w, inst, (w0 >> 16) & 0x7f);
    default: break;
    }
    if ((w0 >> 28) == 0xb)
        return decode_sopk(d, w, nwords, inst, (w0 >> 23) & 0x1f);
    return decode_sop(d, w, nwords, inst, WL_FMT_SOP2, (w0 >> 23) & 0x7f);
}
