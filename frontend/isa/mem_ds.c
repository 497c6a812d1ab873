/* DS (local/global data share) instructions: decoder and printer. */
#include "mem_internal.h"

#include "tables/mem_ds.inc"

/* DS, 64 bits:
 *   dword 0: [31:26] 110110  [25:18] op  [17] gds  [16] ignored
 *            [15:8] offset1  [7:0] offset0
 *   dword 1: [31:24] vdst  [23:16] data1  [15:8] data0  [7:0] addr
 * One-address forms use offset1:offset0 as a 16-bit offset (ds_swizzle_b32:
 * the swizzle pattern). The gws instructions take data0 from the addr field.
 * Fields an opcode does not use must be zero (the table's fixed bits). */
wl_status wl_mem_decode_ds(const wl_decoder *d, const uint32_t *w, size_t nwords, wl_inst *inst)
{
    if (nwords < 2)
        return WL_ERR_TRUNCATED;
    unsigned op = (w[0] >> 18) & 0xff;
    const struct wl_mem_desc *desc = &wl_mem_ds_tab[d->isa][op];
    if (!desc->info.name || !wl_mem_fixed_ok(desc, w))
        return WL_ERR_INVALID;

    const struct wl_opinfo *info = &desc->info;
    wl_mem_fields *m = &inst->f.m;
    m->offset0 = (uint8_t)(w[0] & 0xff);
    m->offset1 = (uint8_t)(w[0] >> 8);
    m->offset = (int32_t)(w[0] & 0xffff);
    m->gds = (w[0] >> 17) & 1;

    unsigned addr = w[1] & 0xff, data0 = (w[1] >> 8) & 0xff;
    unsigned data1 = (w[1] >> 16) & 0xff, vdst = w[1] >> 24;
    if (info->flags & WL_MEM_F_GWS)
        data0 = addr;

    unsigned s = 0, widx = 0;
    bool ok = true;
    if (info->flags & WL_MEM_F_VDST) {
        ok &= wl_mem_vgpr(&inst->dst[0], vdst, info->dst_regs[0]);
        inst->ndst = 1;
    }
    if (info->flags & WL_MEM_F_ADDR)
        ok &= wl_mem_vgpr(&inst->src[s++], addr, info->src_regs[widx++]);
    if (info->flags & WL_MEM_F_DATA0)
        ok &= wl_mem_vgpr(&inst->src[s++], data0, info->src_regs[widx++]);
    if (info->flags & WL_MEM_F_DATA1)
        ok &= wl_mem_vgpr(&inst->src[s++], data1, info->src_regs[widx++]);
    if (!ok)
        return WL_ERR_INVALID;
    inst->nsrc = (uint8_t)s;

    inst->format = WL_FMT_DS;
    inst->op = (uint16_t)op;
    inst->info = info;
    inst->name = info->name;
    inst->size = 8;
    return WL_OK;
}

/* LLVM's printSwizzle: the ds_swizzle_b32 offset as a swizzle macro. */
static void print_swizzle(wl_sb *sb, unsigned imm)
{
    static const char *const quad = "QUAD_PERM";
    if (imm == 0)
        return;
    wl_sb_puts(sb, " offset:");
    if ((imm & 0xff00) == 0x8000) {
        wl_sb_printf(sb, "swizzle(%s", quad);
        for (unsigned i = 0; i < 4; i++)
            wl_sb_printf(sb, ",%u", (imm >> (2 * i)) & 3);
        wl_sb_putc(sb, ')');
        return;
    }
    if (imm & 0x8000) {
        wl_sb_printf(sb, "%u", imm);
        return;
    }
    unsigned and_mask = imm & 0x1f, or_mask = (imm >> 5) & 0x1f, xor_mask = (imm >> 10) & 0x1f;
    unsigned pop = (unsigned)__builtin_popcount(xor_mask);
    if (and_mask == 0x1f && or_mask == 0 && pop == 1) {
        wl_sb_printf(sb, "swizzle(SWAP,%u)", xor_mask);
    } else if (and_mask == 0x1f && or_mask == 0 && xor_mask > 0 &&
               ((xor_mask + 1) & xor_mask) == 0) {
        wl_sb_printf(sb, "swizzle(REVERSE,%u)", xor_mask + 1);
    } else {
        unsigned group = 0x1f - and_mask + 1;
        if (group > 1 && (group & (group - 1)) == 0 && or_mask < group && xor_mask == 0) {
            wl_sb_printf(sb, "swizzle(BROADCAST,%u,%u)", group, or_mask);
        } else {
            unsigned p0 = or_mask ^ xor_mask, p1 = ((0x1f & and_mask) | or_mask) ^ xor_mask;
            wl_sb_puts(sb, "swizzle(BITMASK_PERM,\"");
            for (unsigned bit = 0x10; bit; bit >>= 1) {
                unsigned b0 = p0 & bit, b1 = p1 & bit;
                wl_sb_putc(sb, b0 == b1 ? (b0 ? '1' : '0') : (b0 ? 'i' : 'p'));
            }
            wl_sb_puts(sb, "\")");
        }
    }
}

void wl_mem_print_ds(const wl_inst *inst, wl_sb *sb)
{
    const wl_mem_fields *m = &inst->f.m;
    wl_mem_print_ops(inst, sb, -1);
    if (inst->info->flags & WL_MEM_F_OFF2) {
        if (m->offset0)
            wl_sb_printf(sb, " offset0:%u", m->offset0);
        if (m->offset1)
            wl_sb_printf(sb, " offset1:%u", m->offset1);
    } else if (inst->info->flags & WL_MEM_F_SWZ) {
        print_swizzle(sb, (unsigned)m->offset);
    } else if (m->offset) {
        wl_sb_printf(sb, " offset:%u", (unsigned)m->offset);
    }
    if (m->gds)
        wl_sb_puts(sb, " gds");
}
