/* FLAT, GLOBAL and SCRATCH instructions: decoder and printer. */
#include "mem_internal.h"

#include "tables/mem_flat.inc"

/* The saddr operand. GLOBAL: a 64-bit SGPR pair (an odd SGPR or ttmp number
 * names the pair it is in), null = off. SCRATCH: a 32-bit SGPR; null selects
 * the vaddr form; LLVM prints exec_hi as off on gfx103x and into LDS, and as
 * an invalid exec_hi otherwise. */
static bool decode_saddr(wl_operand *o, wl_isa isa, unsigned seg, unsigned saddr, bool lds)
{
    if (saddr == WL_SRC_NULL ||
        (seg == 1 && saddr == WL_SRC_EXEC_HI && (isa == WL_ISA_GFX1030 || lds))) {
        o->kind = WL_OPND_NONE;
        return true;
    }
    if (seg == 1)
        return wl_mem_sgpr(o, saddr, 1);
    if (saddr <= WL_SRC_SGPR_MAX || (saddr >= WL_SRC_TTMP0 && saddr < WL_SRC_TTMP0 + 16))
        saddr &= ~1u;
    return wl_mem_sgpr(o, saddr, 2);
}

/* FLAT/GLOBAL/SCRATCH, 64 bits:
 *   dword 0: [31:26] 110111  [25] ignored  [24:18] op  [17] slc  [16] glc
 *            [15:14] seg (0 FLAT, 1 SCRATCH, 2 GLOBAL)  [13] lds  [12] dlc
 *            [11:0] offset (signed for SCRATCH and GLOBAL)
 *   dword 1: [31:24] vdst  [23] reserved  [22:16] saddr  [15:8] data
 *            [7:0] addr
 * The address: FLAT v[addr:addr+1]; GLOBAL v[addr:addr+1] when saddr is
 * null, else the 32-bit offset v[addr] plus s[saddr:saddr+1]; SCRATCH
 * v[addr] when saddr is null, else saddr alone ("off" for vaddr). */
wl_status wl_mem_decode_flat(const wl_decoder *d, const uint32_t *w, size_t nwords, wl_inst *inst)
{
    if (nwords < 2)
        return WL_ERR_TRUNCATED;
    unsigned seg = (w[0] >> 14) & 3, op = (w[0] >> 18) & 0x7f;
    if (seg == 3)
        return WL_ERR_INVALID;
    const struct wl_mem_desc *desc = &wl_mem_flat_tab[d->isa][seg][op];
    if (!desc->info.name || !wl_mem_fixed_ok(desc, w))
        return WL_ERR_INVALID;

    const struct wl_opinfo *info = &desc->info;
    wl_mem_fields *m = &inst->f.m;
    m->seg = (uint8_t)seg;
    m->offset = (int32_t)(w[0] & 0xfff);
    if (seg != 0 && (m->offset & 0x800))
        m->offset -= 0x1000;
    m->dlc = (w[0] >> 12) & 1;
    m->lds = (w[0] >> 13) & 1;
    m->glc = (w[0] >> 16) & 1;
    m->slc = (w[0] >> 17) & 1;

    unsigned addr = w[1] & 0xff, data = (w[1] >> 8) & 0xff;
    unsigned saddr = (w[1] >> 16) & 0x7f, vdst = w[1] >> 24;
    bool ok = true;
    /* loads (but into LDS) and atomics that return write vdst */
    bool has_vdst = (info->flags & WL_MEM_F_LOAD) ? !m->lds
                                                   : (info->flags & WL_MEM_F_ATOMIC) && m->glc;
    if (has_vdst) {
        ok &= wl_mem_vgpr(&inst->dst[0], vdst, info->dst_regs[0]);
        inst->ndst = 1;
    }
    unsigned s = 0;
    m->saddr_off = seg == 0 || saddr == WL_SRC_NULL;
    if (!(info->flags & WL_MEM_F_NOVADDR)) {
        if (seg == 1 && saddr != WL_SRC_NULL) {
            m->vaddr_off = 1;
            inst->src[s++].kind = WL_OPND_NONE;
        } else {
            unsigned n = seg == 1 || (seg == 2 && saddr != WL_SRC_NULL) ? 1 : 2;
            ok &= wl_mem_vgpr(&inst->src[s++], addr, n);
        }
    }
    if (info->flags & WL_MEM_F_DATA0) {
        unsigned width = info->src_regs[(info->flags & WL_MEM_F_NOVADDR) ? 0 : 1];
        ok &= wl_mem_vgpr(&inst->src[s++], data, width);
    }
    if (seg != 0)
        ok &= decode_saddr(&inst->src[s++], d->isa, seg, saddr, m->lds);
    if (!ok)
        return WL_ERR_INVALID;
    inst->nsrc = (uint8_t)s;

    static const uint8_t formats[3] = { WL_FMT_FLAT, WL_FMT_SCRATCH, WL_FMT_GLOBAL };
    inst->format = formats[seg];
    inst->op = (uint16_t)op;
    inst->info = info;
    inst->name = info->name;
    inst->size = 8;
    return WL_OK;
}

void wl_mem_print_flat(const wl_inst *inst, wl_sb *sb)
{
    const wl_mem_fields *m = &inst->f.m;
    wl_mem_print_ops(inst, sb, -1);
    if (m->offset)
        wl_sb_printf(sb, " offset:%d", (int)m->offset);
    wl_mem_print_cpol(inst, sb);
    if (m->lds)
        wl_sb_puts(sb, " lds");
}
