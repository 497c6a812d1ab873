/* Decoder of the 32-bit VALU encodings: VOP1, VOP2 and VOPC, plain (e32,
 * with an optional 32-bit literal), SDWA, DPP16 and DPP8.
 *
 * Dword 0:
 *   VOP2  [31]=0        [30:25] OP   [24:17] VDST [16:9] VSRC1 [8:0] SRC0
 *   VOP1  [31:25]=0x3f  [24:17] VDST [16:9] OP    [8:0] SRC0
 *   VOPC  [31:25]=0x3e  [24:17] OP   [16:9] VSRC1 [8:0] SRC0
 * SRC0 selects the form: 255 = e32 with a literal dword, 249 = SDWA,
 * 250 = DPP16, 233/234 = DPP8 (234: fi), anything else = plain e32. The
 * second dword of SDWA/DPP16/DPP8 is decoded in decode_sdwa/decode_dpp16/
 * decode_dpp8 below (layout above each). */
#include "valu_internal.h"

#include <string.h>

/* The raw 8-bit VGPR field of a VGPR operand of `nregs` dwords. */
static wl_status vgpr_operand(wl_operand *o, unsigned v, unsigned nregs)
{
    if (v + nregs > 256)
        return WL_ERR_INVALID;
    wl_vgpr_decode(o, v, nregs);
    return WL_OK;
}

/* A 9-bit source (or 8-bit scalar field, which uses the same codes below
 * 256) of `nregs` dwords. Literals are marked; the caller fills them in.
 * As LLVM does, a 64-bit SGPR/TTMP pair at an odd number is read as the
 * aligned pair. */
static wl_status src_operand(wl_operand *o, unsigned enc, unsigned nregs)
{
    if ((enc >= 209 && enc <= WL_SRC_DPP8FI) || enc == WL_SRC_SDWA ||
        enc == WL_SRC_DPP16)
        return WL_ERR_INVALID;
    if (enc >= WL_SRC_VGPR0)
        return vgpr_operand(o, enc - WL_SRC_VGPR0, nregs);
    wl_src_decode(o, enc, nregs);
    if (nregs >= 2) {
        if (o->kind == WL_OPND_SGPR || o->kind == WL_OPND_TTMP)
            o->index &= (uint16_t)~1u;
        if (enc == WL_SRC_VCC_HI || enc == WL_SRC_M0 || enc == WL_SRC_EXEC_HI ||
            enc == WL_SRC_LDS_DIRECT)
            return WL_ERR_INVALID;
    }
    return WL_OK;
}

static void special_operand(wl_operand *o, unsigned enc, unsigned nregs)
{
    memset(o, 0, sizeof(*o));
    o->kind = WL_OPND_SPECIAL;
    o->index = (uint16_t)enc;
    o->nregs = (uint8_t)nregs;
}

/* The fields of dword 0 common to all forms. */
typedef struct fields {
    wl_format fmt;
    unsigned op, vdst, vsrc1, src0;
} fields;

static fields split_word0(uint32_t w0)
{
    fields f;
    f.src0 = w0 & 0x1ff;
    if ((w0 >> 25) == 0x3f) {
        f.fmt = WL_FMT_VOP1;
        f.op = (w0 >> 9) & 0xff;
        f.vdst = (w0 >> 17) & 0xff;
        f.vsrc1 = 0;
    } else if ((w0 >> 25) == 0x3e) {
        f.fmt = WL_FMT_VOPC;
        f.op = (w0 >> 17) & 0xff;
        f.vsrc1 = (w0 >> 9) & 0xff;
        f.vdst = 0;
    } else {
        f.fmt = WL_FMT_VOP2;
        f.op = (w0 >> 25) & 0x3f;
        f.vdst = (w0 >> 17) & 0xff;
        f.vsrc1 = (w0 >> 9) & 0xff;
    }
    return f;
}

/* Adds the destinations: vdst (or VOP1's scalar sdst, whose 8-bit field LLVM
 * decodes like a scalar source), VOP2's carry-out vcc, VOPC's vcc or exec.
 * The VOPC destination may be replaced by SDWA's explicit sdst later. */
static wl_status add_dsts(const wl_decoder *d, const fields *f, wl_inst *inst)
{
    const struct wl_opinfo *info = inst->info;
    unsigned wave = d->wave64 ? 2 : 1;
    wl_status st = WL_OK;
    if (f->fmt == WL_FMT_VOPC) {
        special_operand(&inst->dst[0],
                        (info->flags & WL_VF_CMPX) ? WL_SRC_EXEC_LO : WL_SRC_VCC_LO, wave);
        inst->ndst = 1;
        return WL_OK;
    }
    if (info->ndst == 0)
        return WL_OK;
    if (info->flags & WL_VF_SDST)
        st = src_operand(&inst->dst[0], f->vdst, info->dst_regs[0]);
    else
        st = vgpr_operand(&inst->dst[0], f->vdst, info->dst_regs[0]);
    inst->ndst = 1;
    if (info->flags & WL_VF_VCC_DST)
        special_operand(&inst->dst[inst->ndst++], WL_SRC_VCC_LO, wave);
    return st;
}

/* Fills every literal-marked operand with the literal dword w[1]. */
static wl_status take_literal(const uint32_t *w, size_t nwords, wl_inst *inst)
{
    bool need = false;
    for (unsigned i = 0; i < inst->ndst; i++)
        need |= inst->dst[i].kind == WL_OPND_LITERAL;
    for (unsigned i = 0; i < inst->nsrc; i++)
        need |= inst->src[i].kind == WL_OPND_LITERAL;
    if (!need)
        return WL_OK;
    if (nwords < 2)
        return WL_ERR_TRUNCATED;
    for (unsigned i = 0; i < inst->ndst; i++)
        if (inst->dst[i].kind == WL_OPND_LITERAL)
            inst->dst[i].value = w[1];
    for (unsigned i = 0; i < inst->nsrc; i++)
        if (inst->src[i].kind == WL_OPND_LITERAL)
            inst->src[i].value = w[1];
    inst->has_literal = 1;
    inst->size = 8;
    return WL_OK;
}

/* Plain e32 form: src0 is any source (255: literal), vsrc1 a VGPR; the
 * madmk/madak forms carry their K constant in the literal dword (which a
 * literal src0 shares). */
static wl_status decode_e32(const wl_decoder *d, const fields *f, const uint32_t *w,
                            size_t nwords, wl_inst *inst)
{
    const struct wl_opinfo *info = inst->info;
    unsigned wave = d->wave64 ? 2 : 1;
    wl_status st;
    inst->venc = WL_VENC_E32;
    inst->size = 4;
    if (info->flags & WL_VF_NO_OPS)
        return (f->vdst | f->vsrc1 | f->src0) ? WL_ERR_INVALID : WL_OK;
    if ((st = add_dsts(d, f, inst)) != WL_OK)
        return st;
    if ((st = src_operand(&inst->src[0], f->src0, info->src_regs[0])) != WL_OK)
        return st;
    inst->nsrc = 1;
    if (info->nsrc >= 2) {
        if (info->flags & WL_VF_MADMK) {
            memset(&inst->src[inst->nsrc], 0, sizeof(wl_operand));
            inst->src[inst->nsrc++].kind = WL_OPND_LITERAL;
        }
        if ((st = vgpr_operand(&inst->src[inst->nsrc++], f->vsrc1, info->src_regs[1])) != WL_OK)
            return st;
        if (info->flags & WL_VF_MADAK) {
            memset(&inst->src[inst->nsrc], 0, sizeof(wl_operand));
            inst->src[inst->nsrc++].kind = WL_OPND_LITERAL;
        }
    }
    if (info->flags & WL_VF_VCC_SRC)
        special_operand(&inst->src[inst->nsrc++], WL_SRC_VCC_LO, wave);
    return take_literal(w, nwords, inst);
}

/* A source of the SDWA form: a VGPR, or with the S bit a scalar register or
 * inline constant (no literal). */
static wl_status sdwa_src(wl_operand *o, unsigned reg, bool scalar)
{
    if (!scalar)
        return vgpr_operand(o, reg, 1);
    if (reg == WL_SRC_LITERAL)
        return WL_ERR_INVALID;
    return src_operand(o, reg, 1);
}

/* SDWA dword (VOP1/VOP2):
 *   [7:0] SRC0 [10:8] DST_SEL [12:11] DST_UNUSED [13] CLAMP [15:14] OMOD
 *   [18:16] SRC0_SEL [19] SRC0_SEXT [20] SRC0_NEG [21] SRC0_ABS [23] S0
 *   [26:24] SRC1_SEL [27] SRC1_SEXT [28] SRC1_NEG [29] SRC1_ABS [31] S1
 * VOPC (SDWAB): [14:8] SDST [15] SD (explicit sdst; else vcc) instead of
 * DST_SEL..OMOD. Bits 22 and 30 are ignored. VSRC1 of dword 0 is src1. */
static wl_status decode_sdwa(const wl_decoder *d, const fields *f, const uint32_t *w,
                             size_t nwords, wl_inst *inst)
{
    const struct wl_opinfo *info = inst->info;
    uint32_t x = info->extra;
    unsigned wave = d->wave64 ? 2 : 1;
    wl_status st;
    if (!(info->flags & WL_VF_SDWA))
        return WL_ERR_INVALID;
    if (nwords < 2)
        return WL_ERR_TRUNCATED;
    uint32_t s = w[1];
    wl_valu_fields *v = &inst->f.v;
    inst->venc = WL_VENC_SDWA;
    inst->size = 8;
    unsigned src0_sel = (s >> 16) & 7, src1_sel = (s >> 24) & 7;
    bool sext0 = (s >> 19) & 1, neg0 = (s >> 20) & 1, abs0 = (s >> 21) & 1, s0 = (s >> 23) & 1;
    bool sext1 = (s >> 27) & 1, neg1 = (s >> 28) & 1, abs1 = (s >> 29) & 1, s1 = (s >> 31) & 1;
    /* LLVM 19 cannot print selector 7 (it crashes): treat it as invalid. */
    if (src0_sel == 7 || ((x & WL_VX_SDWA_SRC1) && src1_sel == 7))
        return WL_ERR_INVALID;
    if ((s0 && !(x & WL_VX_SDWA_S0)) || ((neg0 || abs0) && !(x & WL_VX_SDWA_SRC0_FMODS)) ||
        (sext0 && !(x & WL_VX_SDWA_SRC0_SEXT)))
        return WL_ERR_INVALID;
    if (x & WL_VX_SDWA_SRC1) {
        if ((s1 && !(x & WL_VX_SDWA_S1)) || ((neg1 || abs1) && !(x & WL_VX_SDWA_SRC1_FMODS)) ||
            (sext1 && !(x & WL_VX_SDWA_SRC1_SEXT)))
            return WL_ERR_INVALID;
    } else if (s & 0xbf000000u) {
        return WL_ERR_INVALID;
    }
    v->src0_sel = (uint8_t)src0_sel;
    v->src1_sel = (uint8_t)((x & WL_VX_SDWA_SRC1) ? src1_sel : 0);

    if (f->fmt == WL_FMT_VOPC) {
        bool sd = (s >> 15) & 1;
        if (sd && !(x & WL_VX_SDWA_SD))
            return WL_ERR_INVALID;
        if ((st = add_dsts(d, f, inst)) != WL_OK)
            return st;
        if (sd) {
            v->sdwa_sd = 1;
            if ((st = src_operand(&inst->dst[0], (s >> 8) & 0x7f, wave)) != WL_OK)
                return st;
        }
    } else {
        unsigned dst_sel = (s >> 8) & 7, dst_unused = (s >> 11) & 3;
        unsigned clamp = (s >> 13) & 1, omod = (s >> 14) & 3;
        if (dst_sel == 7 || ((dst_sel != 6 || dst_unused) && !(x & WL_VX_SDWA_DST)) ||
            (clamp && !(x & WL_VX_SDWA_CLAMP)) || (omod && !(x & WL_VX_SDWA_OMOD)))
            return WL_ERR_INVALID;
        v->dst_sel = (uint8_t)dst_sel;
        v->dst_unused = (uint8_t)dst_unused;
        v->clamp = (uint8_t)clamp;
        v->omod = (uint8_t)omod;
        if ((st = add_dsts(d, f, inst)) != WL_OK)
            return st;
    }
    if ((st = sdwa_src(&inst->src[0], s & 0xff, s0)) != WL_OK)
        return st;
    inst->src[0].neg = neg0;
    inst->src[0].abs = abs0;
    inst->src[0].sext = sext0;
    inst->nsrc = 1;
    if (info->nsrc >= 2) {
        wl_operand *o = &inst->src[inst->nsrc++];
        if ((st = sdwa_src(o, f->vsrc1, s1)) != WL_OK)
            return st;
        o->neg = neg1;
        o->abs = abs1;
        o->sext = sext1;
    }
    if (info->flags & WL_VF_VCC_SRC)
        special_operand(&inst->src[inst->nsrc++], WL_SRC_VCC_LO, wave);
    return WL_OK;
}

/* Register operands of the DPP forms: src0 from the DPP dword, src1 the
 * VSRC1 VGPR. */
static wl_status dpp_operands(const wl_decoder *d, const fields *f, unsigned src0,
                              wl_inst *inst)
{
    const struct wl_opinfo *info = inst->info;
    unsigned wave = d->wave64 ? 2 : 1;
    wl_status st;
    if ((st = add_dsts(d, f, inst)) != WL_OK)
        return st;
    if ((st = vgpr_operand(&inst->src[0], src0, info->src_regs[0])) != WL_OK)
        return st;
    inst->nsrc = 1;
    if (info->nsrc >= 2 &&
        (st = vgpr_operand(&inst->src[inst->nsrc++], f->vsrc1, info->src_regs[1])) != WL_OK)
        return st;
    if (info->flags & WL_VF_VCC_SRC)
        special_operand(&inst->src[inst->nsrc++], WL_SRC_VCC_LO, wave);
    return WL_OK;
}

/* The DPP source modifier bits: neg/abs of a float operand; of an integer
 * operand the neg bit is sext (abs unused); some operands ignore both. */
static void dpp_mods(wl_operand *o, bool neg, bool abs, uint32_t extra, uint32_t sext_bit,
                     uint32_t silent_bit)
{
    if (extra & silent_bit)
        return;
    if (extra & sext_bit) {
        o->sext = neg;
        return;
    }
    o->neg = neg;
    o->abs = abs;
}

/* DPP16 dword:
 *   [7:0] SRC0 (VGPR) [16:8] DPP_CTRL [18] FI [19] BOUND_CTRL
 *   [20] SRC0_NEG [21] SRC0_ABS [22] SRC1_NEG [23] SRC1_ABS
 *   [27:24] BANK_MASK [31:28] ROW_MASK; bit 17 is ignored. */
static wl_status decode_dpp16(const wl_decoder *d, const fields *f, const uint32_t *w,
                              size_t nwords, wl_inst *inst)
{
    const struct wl_opinfo *info = inst->info;
    if (!(info->flags & WL_VF_DPP))
        return WL_ERR_INVALID;
    if (nwords < 2)
        return WL_ERR_TRUNCATED;
    uint32_t s = w[1];
    bool neg0 = (s >> 20) & 1, abs0 = (s >> 21) & 1, neg1 = (s >> 22) & 1, abs1 = (s >> 23) & 1;
    if (((neg0 || abs0) && !(info->extra & WL_VX_DPP_SRC0_MODS)) ||
        ((neg1 || abs1) && !(info->extra & WL_VX_DPP_SRC1_MODS)))
        return WL_ERR_INVALID;
    inst->venc = WL_VENC_DPP16;
    inst->size = 8;
    wl_status st = dpp_operands(d, f, s & 0xff, inst);
    if (st != WL_OK)
        return st;
    dpp_mods(&inst->src[0], neg0, abs0, info->extra, WL_VX_DPP_SRC0_SEXT,
             WL_VX_DPP_SRC0_SILENT);
    if (info->nsrc >= 2)
        dpp_mods(&inst->src[1], neg1, abs1, info->extra, WL_VX_DPP_SRC1_SEXT,
                 WL_VX_DPP_SRC1_SILENT);
    wl_valu_fields *v = &inst->f.v;
    v->dpp_ctrl = (uint16_t)((s >> 8) & 0x1ff);
    v->fi = (s >> 18) & 1;
    v->bound_ctrl = (s >> 19) & 1;
    v->bank_mask = (s >> 24) & 0xf;
    v->row_mask = (s >> 28) & 0xf;
    return WL_OK;
}

/* DPP8 dword: [7:0] SRC0 (VGPR) [31:8] eight 3-bit lane selects; fi is
 * SRC0 = 234 in dword 0. */
static wl_status decode_dpp8(const wl_decoder *d, const fields *f, const uint32_t *w,
                             size_t nwords, wl_inst *inst)
{
    if (!(inst->info->flags & WL_VF_DPP8))
        return WL_ERR_INVALID;
    if (nwords < 2)
        return WL_ERR_TRUNCATED;
    inst->venc = WL_VENC_DPP8;
    inst->size = 8;
    wl_status st = dpp_operands(d, f, w[1] & 0xff, inst);
    if (st != WL_OK)
        return st;
    inst->f.v.dpp8_sel = w[1] >> 8;
    inst->f.v.fi = f->src0 == WL_SRC_DPP8FI;
    return WL_OK;
}

wl_status wl_decode_valu(const wl_decoder *d, const uint32_t *w, size_t nwords, wl_inst *inst)
{
    if (nwords < 1)
        return WL_ERR_TRUNCATED;
    fields f = split_word0(w[0]);
    const struct wl_opinfo *info = wl_valu_lookup(d->isa, f.fmt, f.op);
    if (!info)
        return WL_ERR_INVALID;
    inst->format = (uint8_t)f.fmt;
    inst->op = (uint16_t)f.op;
    inst->info = info;
    inst->name = info->name;
    if (info->flags & WL_VF_NO_OPS)
        return decode_e32(d, &f, w, nwords, inst);
    switch (f.src0) {
    case WL_SRC_SDWA: return decode_sdwa(d, &f, w, nwords, inst);
    case WL_SRC_DPP16: return decode_dpp16(d, &f, w, nwords, inst);
    case WL_SRC_DPP8:
    case WL_SRC_DPP8FI: return decode_dpp8(d, &f, w, nwords, inst);
    default: return decode_e32(d, &f, w, nwords, inst);
    }
}
