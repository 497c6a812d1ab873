/* Printer of the 32-bit VALU encodings (VOP1, VOP2, VOPC in their e32,
 * SDWA, DPP16 and DPP8 forms) in LLVM 19's syntax:
 *   NAME[_e32|_sdwa|_dpp] dst, [vcc,] src0, [K,] src1, [K,] [vcc] MODIFIERS
 * SDWA modifiers: [clamp] [mul:2|mul:4|div:2] dst_sel:.. dst_unused:..
 * src0_sel:.. [src1_sel:..] (VOPC: src0_sel/src1_sel only); DPP16: the
 * control, row_mask, bank_mask, [bound_ctrl:1] [fi:1]; DPP8: dpp8:[..]
 * [fi:1]. */
#include "valu_internal.h"

static const char *const sel_names[8] = {
    "BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD", "DWORD",
};

/* LLVM 19 prints dst_unused 3 as UNUSED_PAD (its switch falls to the first
 * case); the assembler normalises it. */
static const char *const unused_names[4] = {
    "UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE", "UNUSED_PAD",
};

static bool is_const(const wl_operand *o)
{
    return o->kind == WL_OPND_INLINE || o->kind == WL_OPND_LITERAL;
}

/* The constant type of source i (in printed order, K excluded) for the
 * encoding of `inst`. In SDWA only inline constants occur, which print the
 * same for every type but the 16-bit integer one. */
static wl_imm_type src_type(const wl_inst *inst, unsigned reg_index)
{
    const struct wl_opinfo *info = inst->info;
    if (inst->venc == WL_VENC_SDWA) {
        uint32_t i16 = reg_index == 0 ? WL_VX_SDWA_SRC0_I16 : WL_VX_SDWA_SRC1_I16;
        return (info->extra & i16) ? WL_IMM_B16 : WL_IMM_F32;
    }
    if (reg_index < info->nsrc)
        return (wl_imm_type)info->src_type[reg_index];
    return WL_IMM_B32;
}

/* One source with its SDWA/DPP modifiers: -x, |x|, -|x|, neg(c), sext(x). */
static void print_src_mods(wl_sb *sb, const wl_operand *o, wl_imm_type type)
{
    bool negfn = o->neg && !o->abs && is_const(o);
    if (o->sext)
        wl_sb_puts(sb, "sext(");
    if (negfn)
        wl_sb_puts(sb, "neg(");
    else if (o->neg)
        wl_sb_putc(sb, '-');
    if (o->abs)
        wl_sb_putc(sb, '|');
    wl_print_src(sb, o, type);
    if (o->abs)
        wl_sb_putc(sb, '|');
    if (negfn || o->sext)
        wl_sb_putc(sb, ')');
}

static void print_dpp_ctrl(wl_sb *sb, unsigned c)
{
    if (c <= 0xff)
        wl_sb_printf(sb, "quad_perm:[%u,%u,%u,%u]", c & 3, (c >> 2) & 3, (c >> 4) & 3,
                     (c >> 6) & 3);
    else if (c >= 0x101 && c <= 0x10f)
        wl_sb_printf(sb, "row_shl:%u", c & 0xf);
    else if (c >= 0x111 && c <= 0x11f)
        wl_sb_printf(sb, "row_shr:%u", c & 0xf);
    else if (c >= 0x121 && c <= 0x12f)
        wl_sb_printf(sb, "row_ror:%u", c & 0xf);
    else if (c == 0x130)
        wl_sb_puts(sb, "/* wave_shl is not supported starting from GFX10 */");
    else if (c == 0x134)
        wl_sb_puts(sb, "/* wave_rol is not supported starting from GFX10 */");
    else if (c == 0x138)
        wl_sb_puts(sb, "/* wave_shr is not supported starting from GFX10 */");
    else if (c == 0x13c)
        wl_sb_puts(sb, "/* wave_ror is not supported starting from GFX10 */");
    else if (c == 0x140)
        wl_sb_puts(sb, "row_mirror");
    else if (c == 0x141)
        wl_sb_puts(sb, "row_half_mirror");
    else if (c == 0x142 || c == 0x143)
        wl_sb_puts(sb, "/* row_bcast is not supported starting from GFX10 */");
    else if (c >= 0x150 && c <= 0x15f)
        wl_sb_printf(sb, "row_share:%u", c & 0xf);
    else if (c >= 0x160 && c <= 0x16f)
        wl_sb_printf(sb, "row_xmask:%u", c & 0xf);
    else
        wl_sb_puts(sb, "/* Invalid dpp_ctrl value */");
}

static void print_modifiers(const wl_inst *inst, wl_sb *sb)
{
    const wl_valu_fields *v = &inst->f.v;
    switch ((wl_venc)inst->venc) {
    case WL_VENC_SDWA:
        if (inst->format != WL_FMT_VOPC) {
            if (v->clamp)
                wl_sb_puts(sb, " clamp");
            if (v->omod)
                wl_sb_puts(sb, v->omod == 1 ? " mul:2" : v->omod == 2 ? " mul:4" : " div:2");
            wl_sb_printf(sb, " dst_sel:%s dst_unused:%s", sel_names[v->dst_sel & 7],
                         unused_names[v->dst_unused & 3]);
        }
        wl_sb_printf(sb, " src0_sel:%s", sel_names[v->src0_sel & 7]);
        if (inst->info->extra & WL_VX_SDWA_SRC1)
            wl_sb_printf(sb, " src1_sel:%s", sel_names[v->src1_sel & 7]);
        return;
    case WL_VENC_DPP16:
        wl_sb_putc(sb, ' ');
        print_dpp_ctrl(sb, v->dpp_ctrl);
        wl_sb_printf(sb, " row_mask:0x%x bank_mask:0x%x", v->row_mask, v->bank_mask);
        if (v->bound_ctrl)
            wl_sb_puts(sb, " bound_ctrl:1");
        if (v->fi)
            wl_sb_puts(sb, " fi:1");
        return;
    case WL_VENC_DPP8:
        wl_sb_puts(sb, " dpp8:[");
        for (unsigned i = 0; i < 8; i++)
            wl_sb_printf(sb, "%s%u", i ? "," : "", (v->dpp8_sel >> (3 * i)) & 7);
        wl_sb_putc(sb, ']');
        if (v->fi)
            wl_sb_puts(sb, " fi:1");
        return;
    default:
        return;
    }
}

void wl_print_valu(const wl_inst *inst, wl_sb *sb)
{
    const struct wl_opinfo *info = inst->info;
    if (!info) {
        wl_sb_printf(sb, ".long 0x%x", inst->words[0]);
        return;
    }
    wl_sb_puts(sb, inst->name);
    switch ((wl_venc)inst->venc) {
    case WL_VENC_SDWA: wl_sb_puts(sb, "_sdwa"); break;
    case WL_VENC_DPP16: case WL_VENC_DPP8: wl_sb_puts(sb, "_dpp"); break;
    default:
        if (info->flags & WL_VF_E32_SUFFIX)
            wl_sb_puts(sb, "_e32");
        break;
    }
    if (info->flags & WL_VF_NO_OPS)
        return;

    const char *sep = " ";
    /* Destinations; VOPC's exec (v_cmpx) is implicit and not printed. */
    for (unsigned i = 0; i < inst->ndst; i++) {
        const wl_operand *o = &inst->dst[i];
        if (inst->format == WL_FMT_VOPC && (info->flags & WL_VF_CMPX))
            continue;
        wl_sb_puts(sb, sep);
        sep = ", ";
        wl_print_src(sb, o, WL_IMM_B32);
    }
    /* Sources in printed order: K (madmk/madak) prints as plain hex, the
     * implicit vcc as a register. */
    unsigned reg_index = 0;
    for (unsigned i = 0; i < inst->nsrc; i++) {
        const wl_operand *o = &inst->src[i];
        wl_sb_puts(sb, sep);
        sep = ", ";
        bool is_k = ((info->flags & WL_VF_MADMK) && i == 1) ||
                    ((info->flags & WL_VF_MADAK) && i == 2);
        if (is_k) {
            wl_print_hex(sb, o->value);
            continue;
        }
        if (o->kind == WL_OPND_SPECIAL && reg_index >= info->nsrc) {
            wl_print_reg(sb, o); /* implicit vcc */
            continue;
        }
        print_src_mods(sb, o, src_type(inst, reg_index));
        reg_index++;
    }
    print_modifiers(inst, sb);
}
