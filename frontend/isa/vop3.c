/* The VOP3 (VOP3a, VOP3b, and VOP1/VOP2/VOPC promoted to VOP3) and VOP3P
 * decoders for gfx10. The opcode tables are generated data
 * (tables/vop3_ops.inc); vop3_internal.h documents their fields. The
 * printer is vop3_print.c.
 *
 * The rules below follow LLVM 19's AMDGPUDisassembler, the project's
 * oracle: which field values it accepts and how it reads them. */
#include "vop3_internal.h"

#include <string.h>

#include "tables/vop3_ops.inc"

const struct wl_opinfo *wl_vop3_lookup(wl_isa isa, bool vop3p, unsigned op)
{
    if ((unsigned)isa >= WL_ISA_COUNT)
        return NULL;
    unsigned idx;
    if (vop3p)
        idx = op < 128 ? vop3p_index[isa][op] : 0;
    else
        idx = op < 1024 ? vop3_index[isa][op] : 0;
    return idx ? &vop3_entries[idx - 1] : NULL;
}

/* Decodes a register/constant field the way LLVM's decodeSrcOp does for an
 * operand of `n` dwords (1, 2 or 4): `enc` is the 9-bit source encoding (an
 * 8-bit or 7-bit field is passed as is). Returns false for an encoding LLVM
 * rejects.
 *   0..105    s#; wider operands are aligned down (s3 as 64 bit is s[2:3])
 *             and must fit below s106
 *   106..127  vcc_lo vcc_hi ttmp0..15 m0 null exec_lo exec_hi; 64 bit and
 *             wider: vcc, ttmp[..] (aligned), null, exec only
 *   128..208  inline integers; 240..248 inline floats; 255 literal
 *   235..239, 251..253  src_shared_base .. src_pops_exiting_wave_id,
 *             src_vccz, src_execz, src_scc; 254 src_lds_direct (32 bit only)
 *   209..234, 249, 250  rejected (DPP/SDWA markers and unused values)
 *   256..511  v#; the registers must fit below v256 */
static bool decode_field(wl_operand *o, unsigned enc, unsigned n)
{
    unsigned shift = n >= 3 ? 2 : n == 2 ? 1 : 0;
    memset(o, 0, sizeof(*o));
    o->nregs = (uint8_t)n;
    if (enc <= WL_SRC_SGPR_MAX) {
        unsigned base = enc >> shift << shift;
        if (base + n > WL_SRC_SGPR_MAX + 1)
            return false;
        o->kind = WL_OPND_SGPR;
        o->index = (uint16_t)base;
        return true;
    }
    if (enc >= WL_SRC_TTMP0 && enc < WL_SRC_TTMP0 + 16) {
        o->kind = WL_OPND_TTMP;
        o->index = (uint16_t)((enc - WL_SRC_TTMP0) >> shift << shift);
        return true;
    }
    if (enc >= WL_SRC_VGPR0) {
        unsigned v = enc - WL_SRC_VGPR0;
        if (v + n > 256)
            return false;
        o->kind = WL_OPND_VGPR;
        o->index = (uint16_t)v;
        return true;
    }
    if ((enc >= 128 && enc <= 208) || (enc >= 240 && enc <= 248)) {
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
    switch (enc) {
    case WL_SRC_VCC_LO: case WL_SRC_NULL: case WL_SRC_EXEC_LO:
    case WL_SRC_SHARED_BASE: case WL_SRC_SHARED_LIMIT:
    case WL_SRC_PRIVATE_BASE: case WL_SRC_PRIVATE_LIMIT:
    case WL_SRC_POPS_EXITING_WAVE_ID:
    case WL_SRC_VCCZ: case WL_SRC_EXECZ: case WL_SRC_SCC:
        break;
    case WL_SRC_VCC_HI: case WL_SRC_M0: case WL_SRC_EXEC_HI:
    case WL_SRC_LDS_DIRECT:
        if (n == 1)
            break;
        return false;
    default:
        return false;
    }
    o->kind = WL_OPND_SPECIAL;
    o->index = (uint16_t)enc;
    return true;
}

/* The dwords of operand `i` (0, 1: dst; 2..: src) in this wave size. */
static unsigned op_regs(const struct wl_opinfo *e, unsigned i, bool wave64)
{
    static const uint16_t lm[5] = {V3F_LM_D0, V3F_LM_D1, V3F_LM_S0,
                                   V3F_LM_S1, V3F_LM_S2};
    unsigned n = i < 2 ? e->dst_regs[i] : e->src_regs[i - 2];
    if (e->flags & lm[i])
        return wave64 ? 2 : 1;
    return n;
}

/* Modifier bits of both words, packed as in V3X_REJECT. */
static unsigned modifier_bits(uint32_t w0, uint32_t w1)
{
    return ((w0 >> 8) & 0xffu) | (((w1 >> 27) & 0x1fu) << 8);
}

static wl_status decode_operands(const struct wl_opinfo *e, const uint32_t *w,
                                 bool wave64, wl_inst *inst)
{
    uint32_t w0 = w[0], w1 = w[1];
    unsigned interp = V3X_INTERP(e->extra);
    inst->ndst = e->ndst;
    inst->nsrc = e->nsrc;
    if (e->ndst > 0) {
        unsigned vdst = w0 & 0xff, n = op_regs(e, 0, wave64);
        if (e->flags & V3F_SDST_VDST) {
            if (!decode_field(&inst->dst[0], vdst, n))
                return WL_ERR_INVALID;
        } else {
            if (vdst + n > 256)
                return WL_ERR_INVALID;
            wl_vgpr_decode(&inst->dst[0], vdst, n);
        }
    }
    if (e->flags & V3F_VOP3B) {
        if (!decode_field(&inst->dst[1], (w0 >> 8) & 0x7f, op_regs(e, 1, wave64)))
            return WL_ERR_INVALID;
    }
    for (unsigned i = 0; i < e->nsrc && i < 3; i++) {
        unsigned enc = (w1 >> (9 * i)) & 0x1ff;
        wl_operand *o = &inst->src[i];
        if (interp != V3I_NONE && (i == 0 || (i == 1 && interp == V3I_MOV))) {
            /* attr/chan/high, or the interpolation slot: plain bits */
            if (i == 0 && interp != V3I_F16 && enc > 0xff)
                return WL_ERR_INVALID;
            memset(o, 0, sizeof(*o));
            o->kind = WL_OPND_IMM;
            o->value = enc;
            continue;
        }
        if (!decode_field(o, enc, op_regs(e, 2 + i, wave64)))
            return WL_ERR_INVALID;
    }
    return WL_OK;
}

/* Source modifiers into the operands; VOP3P's packed lists stay in f.v. */
static void decode_modifiers(const struct wl_opinfo *e, uint32_t w0, uint32_t w1,
                             wl_inst *inst)
{
    wl_valu_fields *v = &inst->f.v;
    bool p = (e->flags & V3F_VOP3P) != 0;
    v->clamp = (uint8_t)((w0 >> 15) & 1);
    if (p) {
        v->neg_hi = (uint8_t)((w0 >> 8) & 7);
        v->op_sel = (uint8_t)((w0 >> 11) & 7);
        v->op_sel_hi = (uint8_t)(((w1 >> 27) & 3) | (((w0 >> 14) & 1) << 2));
        v->neg_lo = (uint8_t)((w1 >> 29) & 7);
    } else {
        v->omod = (uint8_t)((w1 >> 27) & 3);
        if (!(e->flags & V3F_VOP3B))
            v->op_sel = (uint8_t)((w0 >> 11) & 15);
    }
    for (unsigned i = 0; i < e->nsrc && i < 3; i++) {
        wl_operand *o = &inst->src[i];
        unsigned neg = (w1 >> (29 + i)) & 1;
        unsigned hi = (e->flags & V3F_VOP3B) ? 0 : (w0 >> (8 + i)) & 1;
        if (p) {
            if (e->flags & V3F_MIX) {
                o->neg = (uint8_t)neg;
                o->abs = (uint8_t)hi;
            }
            continue;
        }
        switch (V3X_MODS(e->extra, i)) {
        case V3M_FP:
            o->neg = (uint8_t)neg;
            o->abs = (uint8_t)hi;
            break;
        case V3M_INT:
            o->sext = (uint8_t)neg;
            break;
        default:
            break;
        }
    }
}

/* VOP3a/VOP3b (64 bit, 110101 in w0[31:26]):
 *   w0: [31:26] 110101  [25:16] op  [15] clamp  [14:11] op_sel  [10:8] abs
 *       (VOP3b: [14:8] sdst)  [7:0] vdst
 *   w1: [31:29] neg  [28:27] omod  [26:18] src2  [17:9] src1  [8:0] src0
 * VOP3P (64 bit, 110011000 in w0[31:23]):
 *   w0: [31:23] 110011000  [22:16] op  [15] clamp  [14] op_sel_hi[2]
 *       [13:11] op_sel  [10:8] neg_hi  [7:0] vdst
 *   w1: [31:29] neg_lo  [28:27] op_sel_hi[1:0]  [26:18] src2  [17:9] src1
 *       [8:0] src0
 * Either may be followed by one literal dword, used by every source (or
 * VOPC destination) that encodes 255. */
wl_status wl_decode_vop3(const wl_decoder *d, const uint32_t *w, size_t nwords, wl_inst *inst)
{
    bool p = (w[0] >> 24) == 0xcc;
    unsigned op = p ? (w[0] >> 16) & 0xff : (w[0] >> 16) & 0x3ff;
    const struct wl_opinfo *e = wl_vop3_lookup(d->isa, p, op);
    if (!e)
        return WL_ERR_INVALID;
    if (nwords < 2)
        return WL_ERR_TRUNCATED;
    uint32_t w0 = w[0], w1 = w[1];

    if (modifier_bits(w0, w1) & V3X_REJECT(e->extra))
        return WL_ERR_INVALID;
    static const uint32_t field_mask[4][2] = {
        {0xff, 0}, {0, 0x1ff}, {0, 0x1ffu << 9}, {0, 0x1ffu << 18},
    };
    for (unsigned f = 0; f < 4; f++)
        if (V3X_FIELD(e->extra, f) == V3U_ZERO &&
            ((w0 & field_mask[f][0]) || (w1 & field_mask[f][1])))
            return WL_ERR_INVALID;

    inst->format = (uint8_t)(p ? WL_FMT_VOP3P : WL_FMT_VOP3);
    inst->venc = WL_VENC_E64;
    inst->op = (uint16_t)op;
    inst->info = e;
    inst->name = e->name;
    wl_status st = decode_operands(e, w, d->wave64 != 0, inst);
    if (st != WL_OK)
        return st;
    decode_modifiers(e, w0, w1, inst);

    bool lit = false;
    for (unsigned i = 0; i < inst->ndst; i++)
        lit |= inst->dst[i].kind == WL_OPND_LITERAL;
    for (unsigned i = 0; i < inst->nsrc; i++)
        lit |= inst->src[i].kind == WL_OPND_LITERAL;
    inst->size = 8;
    if (lit) {
        if (nwords < 3)
            return WL_ERR_TRUNCATED;
        inst->has_literal = 1;
        inst->size = 12;
        for (unsigned i = 0; i < inst->ndst; i++)
            if (inst->dst[i].kind == WL_OPND_LITERAL)
                inst->dst[i].value = w[2];
        for (unsigned i = 0; i < inst->nsrc; i++)
            if (inst->src[i].kind == WL_OPND_LITERAL)
                inst->src[i].value = w[2];
    }
    return WL_OK;
}
