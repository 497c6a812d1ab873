/* MUBUF and MTBUF (buffer) instructions: decoder and printer. */
#include "mem_internal.h"

#include "tables/mem_buf.inc"

/* The operands and bits MUBUF and MTBUF share. dword 1 of both:
 *   [31:24] soffset  [23] tfe  [22] slc  [21] MTBUF: op[3]
 *   [20:16] srsrc/4  [15:8] vdata  [7:0] vaddr
 * soffset 255: a 32-bit literal follows as dword 2. */
static wl_status decode_common(const struct wl_mem_desc *desc, const uint32_t *w,
                               size_t nwords, wl_inst *inst)
{
    const struct wl_opinfo *info = &desc->info;
    wl_mem_fields *m = &inst->f.m;
    m->offset = (int32_t)(w[0] & 0xfff);
    m->offen = (w[0] >> 12) & 1;
    m->idxen = (w[0] >> 13) & 1;
    m->glc = (w[0] >> 14) & 1;
    m->dlc = (w[0] >> 15) & 1;
    m->slc = (w[1] >> 22) & 1;
    m->tfe = (w[1] >> 23) & 1;
    /* LLVM has no lds variant with tfe */
    if (m->lds && m->tfe)
        return WL_ERR_INVALID;
    m->vaddr_off = !m->offen && !m->idxen;

    inst->info = info;
    inst->name = info->name;
    inst->size = 8;
    if (info->flags & WL_MEM_F_NODATA)
        return WL_OK;

    unsigned vaddr = w[1] & 0xff, vdata = (w[1] >> 8) & 0xff;
    bool ok = true;
    unsigned s = 0;
    if (!m->lds) {
        unsigned width = (info->flags & WL_MEM_F_LOAD) ? info->dst_regs[0] : info->src_regs[0];
        wl_operand *o = (info->flags & WL_MEM_F_LOAD) ? &inst->dst[inst->ndst++] : &inst->src[s++];
        ok &= wl_mem_vgpr(o, vdata, width + m->tfe);
    }
    if (m->vaddr_off)
        inst->src[s++].kind = WL_OPND_NONE;
    else
        ok &= wl_mem_vgpr(&inst->src[s++], vaddr, m->offen + m->idxen);
    ok &= wl_mem_sgpr(&inst->src[s++], ((w[1] >> 16) & 0x1f) * 4, 4);
    unsigned soff = w[1] >> 24;
    if (soff == WL_SRC_LITERAL) {
        if (nwords < 3)
            return WL_ERR_TRUNCATED;
        inst->src[s].kind = WL_OPND_LITERAL;
        inst->src[s++].value = w[2];
        inst->has_literal = 1;
        inst->size = 12;
    } else {
        ok &= wl_mem_soffset(&inst->src[s++], soff);
    }
    inst->nsrc = (uint8_t)s;
    return ok ? WL_OK : WL_ERR_INVALID;
}

/* MUBUF, 64 bits:
 *   dword 0: [31:26] 111000  [25] op[7]  [24:18] op[6:0]  [17] ignored
 *            [16] lds  [15] dlc  [14] glc  [13] idxen  [12] offen
 *            [11:0] offset
 *   dword 1: see decode_common.
 *   dword 2: the soffset literal, when soffset is 255. */
wl_status wl_mem_decode_mubuf(const wl_decoder *d, const uint32_t *w, size_t nwords, wl_inst *inst)
{
    if (nwords < 2)
        return WL_ERR_TRUNCATED;
    unsigned op = ((w[0] >> 18) & 0x7f) | ((w[0] >> 25) & 1) << 7;
    const struct wl_mem_desc *desc = &wl_mem_mubuf_tab[d->isa][op];
    if (!desc->info.name || !wl_mem_fixed_ok(desc, w))
        return WL_ERR_INVALID;
    inst->format = WL_FMT_MUBUF;
    inst->op = (uint16_t)op;
    inst->f.m.lds = (w[0] >> 16) & 1;
    return decode_common(desc, w, nwords, inst);
}

/* MTBUF, 64 bits:
 *   dword 0: [31:26] 111010  [25:19] format  [18:16] op[2:0]  [15] dlc
 *            [14] glc  [13] idxen  [12] offen  [11:0] offset
 *   dword 1: see decode_common; [21] op[3].
 *   dword 2: the soffset literal, when soffset is 255. */
wl_status wl_mem_decode_mtbuf(const wl_decoder *d, const uint32_t *w, size_t nwords, wl_inst *inst)
{
    if (nwords < 2)
        return WL_ERR_TRUNCATED;
    unsigned op = ((w[0] >> 16) & 7) | ((w[1] >> 21) & 1) << 3;
    const struct wl_mem_desc *desc = &wl_mem_mtbuf_tab[d->isa][op];
    if (!desc->info.name || !wl_mem_fixed_ok(desc, w))
        return WL_ERR_INVALID;
    inst->format = WL_FMT_MTBUF;
    inst->op = (uint16_t)op;
    inst->f.m.format = (uint8_t)((w[0] >> 19) & 0x7f);
    return decode_common(desc, w, nwords, inst);
}

void wl_mem_print_buf(const wl_inst *inst, wl_sb *sb)
{
    const wl_mem_fields *m = &inst->f.m;
    wl_mem_print_ops(inst, sb, -1);
    if (inst->info->flags & WL_MEM_F_NODATA)
        return;
    if (inst->format == WL_FMT_MTBUF && m->format != 1) { /* 1: the default */
        const char *n = wl_mem_ufmt_names[m->format & 0x7f];
        if (n)
            wl_sb_printf(sb, " format:[%s]", n);
        else
            wl_sb_printf(sb, " format:%u", m->format);
    }
    if (m->idxen)
        wl_sb_puts(sb, " idxen");
    if (m->offen)
        wl_sb_puts(sb, " offen");
    if (m->offset)
        wl_sb_printf(sb, " offset:%u", (unsigned)m->offset);
    wl_mem_print_cpol(inst, sb);
    if (m->tfe)
        wl_sb_puts(sb, " tfe");
    if (m->lds)
        wl_sb_puts(sb, " lds");
}
