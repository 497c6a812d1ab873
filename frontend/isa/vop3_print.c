/* The VOP3/VOP3P printer: LLVM 19's syntax (AMDGPUInstPrinter).
 *
 *   name[_e64] dst[, sdst], src0, src1, src2 [op_sel:[..]] [clamp] [omod]
 *   name dst, src0, src1, src2 [op_sel:[..]] [op_sel_hi:[..]] [neg_lo:[..]]
 *        [neg_hi:[..]] [clamp]                                  (VOP3P)
 *
 * Source modifiers: -x, |x|, -|x|, and neg(c) for a negated constant
 * without abs; sext(x) for the integer modifier. */
#include "vop3_internal.h"

/* An F64 source reads the literal's high half, unless LLVM's decoder first
 * read the literal for a non-F64 operand: it then keeps the 32-bit value,
 * which prints as printImmediate64 does for FP (decimal up to 64, else the
 * high 32 bits in hex). */
static bool literal_unshifted(const wl_inst *inst, unsigned src)
{
    const struct wl_opinfo *e = inst->info;
    if ((e->flags & V3F_SDST_VDST) && inst->ndst > 0 &&
        inst->dst[0].kind == WL_OPND_LITERAL)
        return true;
    for (unsigned i = 0; i < src; i++)
        if (inst->src[i].kind == WL_OPND_LITERAL)
            return e->src_type[i] != WL_IMM_F64;
    return false;
}

static void print_value(wl_sb *sb, const wl_inst *inst, unsigned i)
{
    const wl_operand *o = &inst->src[i];
    wl_imm_type t = (wl_imm_type)inst->info->src_type[i];
    if (o->kind == WL_OPND_LITERAL && t == WL_IMM_F64 && literal_unshifted(inst, i)) {
        if (o->value <= 64)
            wl_sb_printf(sb, "%u", o->value);
        else
            wl_sb_puts(sb, "0x0");
        return;
    }
    wl_print_src(sb, o, t);
}

static void print_source(wl_sb *sb, const wl_inst *inst, unsigned i)
{
    const wl_operand *o = &inst->src[i];
    bool imm = o->kind == WL_OPND_INLINE || o->kind == WL_OPND_LITERAL;
    bool negfn = o->neg && !o->abs && imm;
    if (o->sext)
        wl_sb_puts(sb, "sext(");
    if (negfn)
        wl_sb_puts(sb, "neg(");
    else if (o->neg)
        wl_sb_putc(sb, '-');
    if (o->abs)
        wl_sb_putc(sb, '|');
    print_value(sb, inst, i);
    if (o->abs)
        wl_sb_putc(sb, '|');
    if (negfn || o->sext)
        wl_sb_putc(sb, ')');
}

static void print_dst(wl_sb *sb, const wl_inst *inst, unsigned i)
{
    const wl_operand *o = &inst->dst[i];
    if (o->kind == WL_OPND_SGPR || o->kind == WL_OPND_VGPR ||
        o->kind == WL_OPND_TTMP || o->kind == WL_OPND_SPECIAL)
        wl_print_reg(sb, o);
    else
        wl_print_src(sb, o, WL_IMM_B32);
}

/* " name:[b0,b1,...]" for n bits of `bits`, unless all equal `dflt`. */
static void print_list(wl_sb *sb, const char *name, unsigned bits, unsigned n,
                       unsigned dflt)
{
    unsigned all = dflt ? (1u << n) - 1 : 0;
    if ((bits & ((1u << n) - 1)) == all)
        return;
    wl_sb_printf(sb, " %s:[", name);
    for (unsigned i = 0; i < n; i++)
        wl_sb_printf(sb, i ? ",%u" : "%u", (bits >> i) & 1);
    wl_sb_putc(sb, ']');
}

static void print_interp(wl_sb *sb, const wl_inst *inst)
{
    static const char chan[4] = {'x', 'y', 'z', 'w'};
    unsigned kind = V3X_INTERP(inst->info->extra);
    uint32_t a = inst->src[0].value;
    wl_sb_putc(sb, ' ');
    print_dst(sb, inst, 0);
    wl_sb_puts(sb, ", ");
    if (kind == V3I_MOV) {
        static const char *const slot[3] = {"p10", "p20", "p0"};
        uint32_t s = inst->src[1].value;
        if (s < 3)
            wl_sb_puts(sb, slot[s]);
        else
            wl_sb_printf(sb, "invalid_param_%u", s);
    } else {
        print_source(sb, inst, 1);
    }
    wl_sb_printf(sb, ", attr%u.%c", a & 63, chan[(a >> 6) & 3]);
    if (inst->nsrc > 2) {
        wl_sb_puts(sb, ", ");
        print_source(sb, inst, 2);
    }
    if (kind == V3I_F16 && (a >> 8) & 1)
        wl_sb_puts(sb, " high");
}

static void print_vop3_modifiers(wl_sb *sb, const wl_inst *inst)
{
    const struct wl_opinfo *e = inst->info;
    const wl_valu_fields *v = &inst->f.v;
    if (e->flags & V3F_OPSEL) {
        unsigned n = inst->nsrc, bits = v->op_sel & ((1u << n) - 1);
        if (e->flags & V3F_OPSEL_DST)
            bits |= ((v->op_sel >> 3) & 1u) << n++;
        print_list(sb, "op_sel", bits, n, 0);
    }
    if (e->flags & V3F_PERMLANE)
        print_list(sb, "op_sel", v->op_sel & 3, 2, 0);
    if ((e->flags & V3F_CLAMP) && v->clamp)
        wl_sb_puts(sb, " clamp");
    if ((e->flags & V3F_OMOD) && v->omod) {
        static const char *const omod[4] = {"", " mul:2", " mul:4", " div:2"};
        wl_sb_puts(sb, omod[v->omod & 3]);
    }
}

static void print_vop3p_modifiers(wl_sb *sb, const wl_inst *inst)
{
    const struct wl_opinfo *e = inst->info;
    const wl_valu_fields *v = &inst->f.v;
    unsigned n = inst->nsrc;
    bool mix = (e->flags & V3F_MIX) != 0;
    print_list(sb, "op_sel", v->op_sel, n, 0);
    print_list(sb, "op_sel_hi", v->op_sel_hi, n, mix ? 0 : 1);
    if (!mix) {
        print_list(sb, "neg_lo", v->neg_lo, n, 0);
        print_list(sb, "neg_hi", v->neg_hi, n, 0);
    }
    if ((e->flags & V3F_CLAMP) && v->clamp)
        wl_sb_puts(sb, " clamp");
}

void wl_print_vop3(const wl_inst *inst, wl_sb *sb)
{
    const struct wl_opinfo *e = inst->info;
    if (!e || (inst->format != WL_FMT_VOP3 && inst->format != WL_FMT_VOP3P)) {
        wl_sb_printf(sb, ".long 0x%x", inst->words[0]);
        return;
    }
    wl_sb_puts(sb, e->name);
    if (e->flags & V3F_E64)
        wl_sb_puts(sb, "_e64");
    if (V3X_INTERP(e->extra) != V3I_NONE) {
        print_interp(sb, inst);
    } else {
        bool first = true;
        for (unsigned i = 0; i < inst->ndst; i++) {
            wl_sb_puts(sb, first ? " " : ", ");
            print_dst(sb, inst, i);
            first = false;
        }
        for (unsigned i = 0; i < inst->nsrc; i++) {
            wl_sb_puts(sb, first ? " " : ", ");
            print_source(sb, inst, i);
            first = false;
        }
    }
    if (e->flags & V3F_VOP3P)
        print_vop3p_modifiers(sb, inst);
    else
        print_vop3_modifiers(sb, inst);
}
