/* MIMG (image) instructions: decoder and printer.
 *
 * The encoding does not give the number of address and data registers; like
 * LLVM's disassembler (convertMIMGInst) they are computed from the opcode,
 * dim, a16, dmask, d16 and tfe. When LLVM has no instruction variant with
 * those sizes (or the registers would run past v255) it keeps the sizes of
 * the opcode's default variant, and so do we: the table has, per opcode,
 * the variants that exist and the default ones (scripts/gen_mem_tables.py
 * derives them and checks them against llvm-mc). */
#include "mem_internal.h"

#include "tables/mem_mimg.inc"

/* Per dim encoding: coordinates, gradients and LLVM's name. */
static const struct {
    uint8_t coords, grads;
    const char *name;
} dims[8] = {
    {1, 2, "1D"}, {2, 4, "2D"}, {3, 6, "3D"}, {3, 4, "CUBE"},
    {2, 2, "1D_ARRAY"}, {3, 4, "2D_ARRAY"}, {3, 4, "2D_MSAA"}, {4, 4, "2D_MSAA_ARRAY"},
};

/* Address dwords of an opcode for a dim (LLVM's getAddrSizeMIMGOp; every
 * gfx10 target counts as having 16-bit-gradient instructions). */
static unsigned addr_size(const struct wl_mem_desc *desc, unsigned dim, bool a16)
{
    uint32_t p = desc->info.extra;
    unsigned comps = ((p & WL_MIMG_COORDS) ? dims[dim].coords : 0) + ((p & WL_MIMG_LOD) ? 1 : 0);
    unsigned words = desc->extra_args + (a16 ? (comps + 1) / 2 : comps);
    if (p & WL_MIMG_GRAD)
        words += (p & WL_MIMG_G16) ? (dims[dim].grads / 2 + 1) / 2 * 2 : dims[dim].grads;
    return words;
}

/* Data dwords: one per dmask bit (gather4: always 4), halved for packed
 * d16, plus one for tfe. */
static unsigned data_size(const struct wl_mem_desc *desc, const wl_mem_fields *m)
{
    unsigned n = (desc->info.extra & WL_MIMG_GATHER4) ? 4 : (unsigned)__builtin_popcount(m->dmask);
    if (n == 0)
        n = 1;
    if (m->d16)
        n = (n + 1) / 2;
    return n + m->tfe;
}

/* image_bvh*_intersect_ray: fixed sizes; NSA only with the NSA dword count
 * that holds exactly the addresses. */
static bool bvh_sizes(const struct wl_mem_desc *desc, const wl_mem_fields *m,
                      unsigned *nvdata, unsigned *naddr)
{
    unsigned n = ((desc->info.extra & WL_MIMG_BVH64) ? 12 : 11) - (m->a16 ? 3 : 0);
    if (m->nsa && m->nsa != (n + 2) / 4)
        return false;
    *nvdata = 4;
    *naddr = n;
    return true;
}

/* MIMG, 64 bits plus nsa dwords:
 *   dword 0: [31:26] 111100  [25] slc  [24:18] op[6:0]  [17] lwe  [16] tfe
 *            [15] r128  [14] ignored  [13] glc  [12] unorm  [11:8] dmask
 *            [7] dlc  [6] ignored  [5:3] dim  [2:1] nsa  [0] op[7]
 *   dword 1: [31] d16  [30] a16  [25:21] ssamp/4  [20:16] srsrc/4
 *            [15:8] vdata  [7:0] vaddr (the first address)
 *   nsa dwords: the further address VGPRs, one per byte, low byte first. */
wl_status wl_mem_decode_mimg(const wl_decoder *d, const uint32_t *w, size_t nwords, wl_inst *inst)
{
    if (nwords < 2)
        return WL_ERR_TRUNCATED;
    unsigned op = ((w[0] >> 18) & 0x7f) | (w[0] & 1) << 7;
    const struct wl_mem_desc *desc = &wl_mem_mimg_tab[d->isa][op];
    if (!desc->info.name || !wl_mem_fixed_ok(desc, w))
        return WL_ERR_INVALID;
    const struct wl_opinfo *info = &desc->info;
    wl_mem_fields *m = &inst->f.m;
    m->nsa = (w[0] >> 1) & 3;
    if (nwords < 2u + m->nsa)
        return WL_ERR_TRUNCATED;
    m->dim = (w[0] >> 3) & 7;
    m->dlc = (w[0] >> 7) & 1;
    m->dmask = (w[0] >> 8) & 0xf;
    m->unorm = (w[0] >> 12) & 1;
    m->glc = (w[0] >> 13) & 1;
    m->r128 = (w[0] >> 15) & 1;
    m->tfe = (w[0] >> 16) & 1;
    m->lwe = (w[0] >> 17) & 1;
    m->slc = (w[0] >> 25) & 1;
    m->a16 = (w[1] >> 30) & 1;
    m->d16 = (w[1] >> 31) & 1;
    unsigned vaddr0 = w[1] & 0xff, vdata = (w[1] >> 8) & 0xff;

    unsigned nvdata, naddr;
    if (info->extra & WL_MIMG_BVH) {
        if (!bvh_sizes(desc, m, &nvdata, &naddr))
            return WL_ERR_INVALID;
    } else {
        unsigned dflt_addr = m->nsa ? desc->nsa_dflt[m->nsa - 1] : desc->dflt_vaddr;
        if (dflt_addr == 0)
            return WL_ERR_INVALID; /* no variant with this many NSA dwords */
        /* LLVM decodes the default variant first: its registers must exist */
        if (vdata + desc->dflt_vdata > 256 || (!m->nsa && vaddr0 + dflt_addr > 256))
            return WL_ERR_INVALID;
        naddr = addr_size(desc, m->dim, m->a16);
        bool ok;
        if (naddr == 0) { /* no opcode has an empty address; be safe */
            ok = false;
        } else if (m->nsa) {
            ok = naddr <= dflt_addr && (desc->nsa_ok >> (naddr - 1) & 1);
        } else {
            if (naddr > 12)
                naddr = 16;
            ok = desc->vaddr_ok >> (naddr - 1) & 1;
        }
        nvdata = desc->vdata_map[data_size(desc, m)];
        ok = ok && nvdata != 0 && vdata + nvdata <= 256 && (m->nsa || vaddr0 + naddr <= 256);
        if (!ok) {
            nvdata = desc->dflt_vdata;
            naddr = dflt_addr;
        }
    }

    bool ok = true;
    unsigned s = 0;
    bool writes = (info->flags & WL_MEM_F_LOAD) != 0;
    ok &= wl_mem_vgpr(writes ? &inst->dst[inst->ndst++] : &inst->src[s++], vdata, nvdata);
    if (m->nsa) {
        m->nvaddr = (uint8_t)naddr;
        m->vaddr[0] = (uint8_t)vaddr0;
        for (unsigned i = 1; i < naddr; i++)
            m->vaddr[i] = (uint8_t)(w[2 + (i - 1) / 4] >> (8 * ((i - 1) % 4)));
        wl_vgpr_decode(&inst->src[s++], vaddr0, 1);
    } else {
        m->nvaddr = (uint8_t)naddr;
        for (unsigned i = 0; i < naddr; i++)
            m->vaddr[i] = (uint8_t)(vaddr0 + i);
        ok &= wl_mem_vgpr(&inst->src[s++], vaddr0, naddr);
    }
    ok &= wl_mem_sgpr(&inst->src[s++], ((w[1] >> 16) & 0x1f) * 4,
                      (info->extra & WL_MIMG_BVH) ? 4 : 8);
    if (info->extra & WL_MIMG_SAMPLER)
        ok &= wl_mem_sgpr(&inst->src[s++], ((w[1] >> 21) & 0x1f) * 4, 4);
    if (!ok)
        return WL_ERR_INVALID;
    inst->nsrc = (uint8_t)s;

    inst->format = WL_FMT_MIMG;
    inst->op = (uint16_t)op;
    inst->info = info;
    inst->name = info->name;
    inst->size = (uint8_t)(8 + 4 * m->nsa);
    return WL_OK;
}

void wl_mem_print_mimg(const wl_inst *inst, wl_sb *sb)
{
    const wl_mem_fields *m = &inst->f.m;
    int vaddr_slot = (inst->info->flags & WL_MEM_F_LOAD) ? 0 : 1;
    wl_mem_print_ops(inst, sb, m->nsa ? vaddr_slot : -1);
    if (inst->info->extra & WL_MIMG_BVH) {
        if (m->a16)
            wl_sb_puts(sb, " a16");
        return;
    }
    if (m->dmask)
        wl_sb_printf(sb, " dmask:0x%x", m->dmask);
    wl_sb_printf(sb, " dim:SQ_RSRC_IMG_%s", dims[m->dim & 7].name);
    if (m->unorm)
        wl_sb_puts(sb, " unorm");
    wl_mem_print_cpol(inst, sb);
    if (m->r128)
        wl_sb_puts(sb, " r128");
    if (m->a16)
        wl_sb_puts(sb, " a16");
    if (m->tfe)
        wl_sb_puts(sb, " tfe");
    if (m->lwe)
        wl_sb_puts(sb, " lwe");
    if (m->d16)
        wl_sb_puts(sb, " d16");
}
