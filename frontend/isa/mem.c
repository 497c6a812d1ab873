/* The memory family's dispatcher and shared helpers: picks the format from
 * the first dword, decodes register tuples the way LLVM's disassembler
 * accepts them, and prints the operand list.
 *
 *   DS     110110  mem_ds.c
 *   FLAT   110111  mem_flat.c (FLAT, GLOBAL, SCRATCH by the SEG field)
 *   MUBUF  111000  mem_buf.c
 *   MTBUF  111010  mem_buf.c
 *   MIMG   111100  mem_mimg.c
 *
 * The operand layout per format is described in mem_internal.h. */
#include "mem_internal.h"

#include <string.h>

wl_status wl_decode_mem(const wl_decoder *d, const uint32_t *w, size_t nwords, wl_inst *inst)
{
    switch (w[0] >> 26) {
    case 0x36: return wl_mem_decode_ds(d, w, nwords, inst);
    case 0x37: return wl_mem_decode_flat(d, w, nwords, inst);
    case 0x38: return wl_mem_decode_mubuf(d, w, nwords, inst);
    case 0x3a: return wl_mem_decode_mtbuf(d, w, nwords, inst);
    case 0x3c: return wl_mem_decode_mimg(d, w, nwords, inst);
    default: return WL_ERR_INVALID;
    }
}

void wl_print_mem(const wl_inst *inst, wl_sb *sb)
{
    switch ((wl_format)inst->format) {
    case WL_FMT_DS: wl_mem_print_ds(inst, sb); break;
    case WL_FMT_MUBUF: case WL_FMT_MTBUF: wl_mem_print_buf(inst, sb); break;
    case WL_FMT_MIMG: wl_mem_print_mimg(inst, sb); break;
    case WL_FMT_FLAT: case WL_FMT_GLOBAL: case WL_FMT_SCRATCH: wl_mem_print_flat(inst, sb); break;
    default: wl_sb_puts(sb, "<not a memory instruction>"); break;
    }
}

bool wl_mem_fixed_ok(const struct wl_mem_desc *d, const uint32_t *w)
{
    return (w[0] & d->fix_mask[0]) == d->fix_val[0] &&
           (w[1] & d->fix_mask[1]) == d->fix_val[1];
}

bool wl_mem_vgpr(wl_operand *o, unsigned v, unsigned n)
{
    wl_vgpr_decode(o, v, n);
    return v + n <= 256;
}

bool wl_mem_sgpr(wl_operand *o, unsigned enc, unsigned n)
{
    memset(o, 0, sizeof(*o));
    o->nregs = (uint8_t)n;
    if (enc + n - 1 <= WL_SRC_SGPR_MAX) {
        o->kind = WL_OPND_SGPR;
        o->index = (uint16_t)enc;
        return true;
    }
    if (enc >= WL_SRC_TTMP0 && enc - WL_SRC_TTMP0 + n <= 16) {
        o->kind = WL_OPND_TTMP;
        o->index = (uint16_t)(enc - WL_SRC_TTMP0);
        return true;
    }
    if (n > 2)
        return false;
    /* vcc, m0, exec as 32/64-bit scalars; null is handled by the callers */
    switch (enc) {
    case WL_SRC_VCC_LO: case WL_SRC_EXEC_LO:
        break;
    case WL_SRC_VCC_HI: case WL_SRC_M0: case WL_SRC_EXEC_HI: case WL_SRC_NULL:
        if (n != 1)
            return false;
        break;
    default:
        return false;
    }
    o->kind = WL_OPND_SPECIAL;
    o->index = (uint16_t)enc;
    return true;
}

bool wl_mem_soffset(wl_operand *o, unsigned enc)
{
    /* LLVM's SReg_32 decoder: registers, inline constants and the src_*
     * registers; no DPP/SDWA markers. (255, the literal, is the caller's.) */
    if ((enc >= 209 && enc <= 234) || enc == WL_SRC_SDWA || enc == WL_SRC_DPP16 ||
        enc == WL_SRC_LITERAL)
        return false;
    wl_src_decode(o, enc, 1);
    return true;
}

/* A 32-bit literal as LLVM prints it: the values of inline constants in
 * their inline form, the others in hex. */
static void print_literal(wl_sb *sb, uint32_t v)
{
    static const struct { uint32_t bits; const char *name; } floats[] = {
        {0x3f000000, "0.5"}, {0xbf000000, "-0.5"}, {0x3f800000, "1.0"},
        {0xbf800000, "-1.0"}, {0x40000000, "2.0"}, {0xc0000000, "-2.0"},
        {0x40800000, "4.0"}, {0xc0800000, "-4.0"}, {0x3e22f983, "0.15915494"},
    };
    int32_t i = (int32_t)v;
    if (i >= -16 && i <= 64) {
        wl_sb_printf(sb, "%d", (int)i);
        return;
    }
    for (size_t k = 0; k < sizeof(floats) / sizeof(floats[0]); k++)
        if (floats[k].bits == v) {
            wl_sb_puts(sb, floats[k].name);
            return;
        }
    wl_print_hex(sb, v);
}

static void print_operand(const wl_inst *inst, const wl_operand *o, wl_sb *sb)
{
    switch ((wl_opnd_kind)o->kind) {
    case WL_OPND_NONE:
        wl_sb_puts(sb, "off");
        return;
    case WL_OPND_LITERAL:
        print_literal(sb, o->value);
        return;
    default:
        break;
    }
    wl_print_src(sb, o, WL_IMM_B32);
    /* registers LLVM decodes although the operand's class lacks them */
    if (o->kind == WL_OPND_SPECIAL && o->index == WL_SRC_LDS_DIRECT)
        wl_sb_puts(sb, "/*Invalid register, operand has 'SReg_32' register class*/");
    if (o->kind == WL_OPND_SPECIAL && o->index == WL_SRC_EXEC_HI && inst->format == WL_FMT_SCRATCH)
        wl_sb_puts(sb, "/*Invalid register, operand has 'SReg_32_XEXEC_HI' register class*/");
}

void wl_mem_print_ops(const wl_inst *inst, wl_sb *sb, int nsa_slot)
{
    wl_sb_puts(sb, inst->name);
    const char *sep = " ";
    for (unsigned i = 0; i < inst->ndst; i++) {
        wl_sb_puts(sb, sep);
        print_operand(inst, &inst->dst[i], sb);
        sep = ", ";
    }
    for (unsigned i = 0; i < inst->nsrc; i++) {
        wl_sb_puts(sb, sep);
        sep = ", ";
        if ((int)i == nsa_slot) {
            wl_sb_putc(sb, '[');
            for (unsigned k = 0; k < inst->f.m.nvaddr; k++)
                wl_sb_printf(sb, "%sv%u", k ? ", " : "", inst->f.m.vaddr[k]);
            wl_sb_putc(sb, ']');
            continue;
        }
        print_operand(inst, &inst->src[i], sb);
    }
}

void wl_mem_print_cpol(const wl_inst *inst, wl_sb *sb)
{
    if (inst->f.m.glc)
        wl_sb_puts(sb, " glc");
    if (inst->f.m.slc)
        wl_sb_puts(sb, " slc");
    if (inst->f.m.dlc)
        wl_sb_puts(sb, " dlc");
}
