/* Printer of the scalar formats in LLVM 19's syntax (AMDGPUInstPrinter):
 * registers, inline constants and literals, and the symbolic immediates of
 * s_waitcnt, s_sendmsg, s_waitcnt_depctr, s_getreg/s_setreg (hwreg) and
 * s_version. */
#include "salu_internal.h"

#include <string.h>

/* A 32-bit immediate as printImmediate32 prints it: -16..64 in decimal, the
 * float inline values by name, anything else in hex. */
static void print_imm32(wl_sb *sb, uint32_t v)
{
    static const struct { uint32_t bits; const char *name; } floats[] = {
        {0x3f800000, "1.0"}, {0xbf800000, "-1.0"}, {0x3f000000, "0.5"},
        {0xbf000000, "-0.5"}, {0x40000000, "2.0"}, {0xc0000000, "-2.0"},
        {0x40800000, "4.0"}, {0xc0800000, "-4.0"}, {0x3e22f983, "0.15915494"},
    };
    int32_t s = (int32_t)v;
    if (s >= -16 && s <= 64) {
        wl_sb_printf(sb, "%d", s);
        return;
    }
    for (size_t i = 0; i < sizeof(floats) / sizeof(floats[0]); i++) {
        if (floats[i].bits == v) {
            wl_sb_puts(sb, floats[i].name);
            return;
        }
    }
    wl_print_hex(sb, v);
}

/* A source operand: register, inline constant or literal. 64-bit operands
 * that take constants (WL_IMM_B64) print 1/(2*pi) with double precision and
 * their (zero-extended) literal as printImmediate64 does; the others, also
 * 64-bit register-only operands such as s_setpc_b64's, as 32-bit values. */
static void print_src(wl_sb *sb, const wl_operand *o, bool is64)
{
    static const char *const floats[8] = {
        "0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0",
    };
    switch ((wl_opnd_kind)o->kind) {
    case WL_OPND_INLINE:
        if (o->index <= 192)
            wl_sb_printf(sb, "%d", (int)o->index - 128);
        else if (o->index <= 208)
            wl_sb_printf(sb, "%d", 192 - (int)o->index);
        else if (o->index < WL_SRC_INV_2PI)
            wl_sb_puts(sb, floats[o->index - WL_SRC_HALF]);
        else
            wl_sb_puts(sb, is64 ? "0.15915494309189532" : "0.15915494");
        return;
    case WL_OPND_LITERAL:
        if (is64) {
            if (o->value <= 64)
                wl_sb_printf(sb, "%u", o->value);
            else
                wl_print_hex(sb, o->value);
        } else {
            print_imm32(sb, o->value);
        }
        return;
    default:
        wl_print_reg(sb, o);
        return;
    }
}

static void sep(wl_sb *sb, int *n)
{
    wl_sb_puts(sb, (*n)++ ? ", " : " ");
}

/* hwreg(NAME) or hwreg(ID, OFFSET, WIDTH): SIMM16 = ID[5:0] OFFSET[10:6]
 * (WIDTH-1)[15:11]; the offset and width print unless 0 and 32. */
static void print_hwreg(wl_sb *sb, wl_isa isa, unsigned imm)
{
    unsigned id = imm & 0x3f, offset = (imm >> 6) & 0x1f, width = ((imm >> 11) & 0x1f) + 1;
    const char *name = wl_salu_hwreg_name(isa, id);
    if (name)
        wl_sb_printf(sb, "hwreg(%s", name);
    else
        wl_sb_printf(sb, "hwreg(%u", id);
    if (offset != 0 || width != 32)
        wl_sb_printf(sb, ", %u, %u", offset, width);
    wl_sb_putc(sb, ')');
}

/* s_version: VERSION[7:0] W64[13] W32[14] MDP[15]; with any other bit set the
 * value prints in hex, else as LLVM's expression (A|B)|C. */
static void print_version(wl_sb *sb, unsigned imm)
{
    static const char *const bits[3] = {
        "UC_VERSION_W64_BIT", "UC_VERSION_W32_BIT", "UC_VERSION_MDP_BIT",
    };
    if (imm & 0x1f00) {
        wl_print_hex(sb, imm);
        return;
    }
    unsigned nbits = 0;
    for (unsigned b = 0; b < 3; b++)
        nbits += (imm >> (13 + b)) & 1;
    for (unsigned i = 1; i < nbits; i++)
        wl_sb_putc(sb, '(');
    const char *name = wl_salu_ucversion_name(imm & 0xff);
    if (name)
        wl_sb_puts(sb, name);
    else
        wl_sb_printf(sb, "%u", imm & 0xff);
    unsigned done = 0;
    for (unsigned b = 0; b < 3; b++) {
        if (!((imm >> (13 + b)) & 1))
            continue;
        if (done++)
            wl_sb_putc(sb, ')');
        wl_sb_printf(sb, "|%s", bits[b]);
    }
}

/* s_waitcnt (gfx10): VMCNT = SIMM16[3:0] | SIMM16[15:14] << 4, EXPCNT[6:4],
 * LGKMCNT[13:8]. Counters at their maximum are left out, unless all are. */
static void print_waitcnt(wl_sb *sb, unsigned imm)
{
    unsigned vm = (imm & 0xf) | ((imm >> 14) & 3) << 4;
    unsigned exp = (imm >> 4) & 7, lgkm = (imm >> 8) & 0x3f;
    bool all = vm == 0x3f && exp == 7 && lgkm == 0x3f;
    const char *space = "";
    if (vm != 0x3f || all) {
        wl_sb_printf(sb, "vmcnt(%u)", vm);
        space = " ";
    }
    if (exp != 7 || all) {
        wl_sb_printf(sb, "%sexpcnt(%u)", space, exp);
        space = " ";
    }
    if (lgkm != 0x3f || all)
        wl_sb_printf(sb, "%slgkmcnt(%u)", space, lgkm);
}

/* s_sendmsg: MSG[3:0] OP[6:4] STREAM[9:8]. Symbolic when the message is
 * known and its operation and stream are valid; else sendmsg(m, o, s) when
 * no other bit is set; else the plain decimal value. */
enum { MSG_GS = 2, MSG_GS_DONE = 3, MSG_SYSMSG = 15, GS_OP_NOP = 0 };

static void print_sendmsg(wl_sb *sb, wl_isa isa, unsigned imm)
{
    unsigned msg = imm & 0xf, op = (imm >> 4) & 7, stream = (imm >> 8) & 3;
    const char *name = wl_salu_msg_name(isa, msg);
    bool gs = msg == MSG_GS || msg == MSG_GS_DONE;
    bool needs_op = gs || msg == MSG_SYSMSG;
    const char *op_name = NULL;
    bool valid = name != NULL;
    if (valid && needs_op) {
        op_name = msg == MSG_SYSMSG ? wl_salu_sysop_name(isa, op)
                                    : (op < 4 ? wl_salu_gsop_name(isa, op) : NULL);
        valid = op_name && !(msg == MSG_GS && op == GS_OP_NOP);
    } else if (valid) {
        valid = op == 0;
    }
    if (valid && !(gs && (msg == MSG_GS || op != GS_OP_NOP)))
        valid = stream == 0;
    if (valid) {
        wl_sb_printf(sb, "sendmsg(%s", name);
        if (needs_op) {
            wl_sb_printf(sb, ", %s", op_name);
            if (gs && op != GS_OP_NOP)
                wl_sb_printf(sb, ", %u", stream);
        }
        wl_sb_putc(sb, ')');
    } else if ((msg | op << 4 | stream << 8) == imm) {
        wl_sb_printf(sb, "sendmsg(%u, %u, %u)", msg, op, stream);
    } else {
        wl_sb_printf(sb, "%u", imm);
    }
}

/* s_waitcnt_depctr: the fields of LLVM's DepCtr table, in its order.
 * depctr_hold_cnt exists on the GFX10.3 encoding only. */
static void print_depctr(wl_sb *sb, wl_isa isa, unsigned imm)
{
    static const struct { const char *name; uint8_t shift, width, dflt, gfx1030; } f[] = {
        {"depctr_hold_cnt", 7, 1, 1, 1}, {"depctr_sa_sdst", 0, 1, 1, 0},
        {"depctr_va_vdst", 12, 4, 15, 0}, {"depctr_va_sdst", 9, 3, 7, 0},
        {"depctr_va_ssrc", 8, 1, 1, 0},  {"depctr_va_vcc", 1, 1, 1, 0},
        {"depctr_vm_vsrc", 2, 3, 7, 0},
    };
    const size_t n = sizeof(f) / sizeof(f[0]);
    unsigned used = 0;
    bool nondefault = false;
    for (size_t i = 0; i < n; i++) {
        if (f[i].gfx1030 && isa != WL_ISA_GFX1030)
            continue;
        unsigned mask = (1u << f[i].width) - 1;
        used |= mask << f[i].shift;
        nondefault |= ((imm >> f[i].shift) & mask) != f[i].dflt;
    }
    if (imm & ~used) {
        wl_print_hex(sb, imm);
        return;
    }
    const char *space = "";
    for (size_t i = 0; i < n; i++) {
        if (f[i].gfx1030 && isa != WL_ISA_GFX1030)
            continue;
        unsigned v = (imm >> f[i].shift) & ((1u << f[i].width) - 1);
        if (v != f[i].dflt || !nondefault) {
            wl_sb_printf(sb, "%s%s(%u)", space, f[i].name, v);
            space = " ";
        }
    }
}

static void print_sopk(const wl_inst *inst, wl_sb *sb)
{
    const struct wl_opinfo *info = inst->info;
    wl_isa isa = (wl_isa)inst->isa;
    unsigned imm = (uint16_t)inst->f.s.simm16;
    const wl_operand *reg = info->ndst ? &inst->dst[0] : &inst->src[0];
    wl_sb_putc(sb, ' ');
    switch ((enum wl_salu_kind)info->extra) {
    case WL_SALU_K_SOPK_HEX:
        wl_print_reg(sb, reg);
        wl_sb_printf(sb, ", 0x%x", imm);
        break;
    case WL_SALU_K_SOPK_LABEL:
        wl_print_reg(sb, reg);
        wl_sb_printf(sb, ", %u", imm);
        break;
    case WL_SALU_K_SOPK_VERSION:
        print_version(sb, imm);
        break;
    case WL_SALU_K_SOPK_GETREG:
        wl_print_reg(sb, reg);
        wl_sb_puts(sb, ", ");
        print_hwreg(sb, isa, imm);
        break;
    case WL_SALU_K_SOPK_SETREG:
        print_hwreg(sb, isa, imm);
        wl_sb_puts(sb, ", ");
        wl_print_reg(sb, reg);
        break;
    case WL_SALU_K_SOPK_SETREG_IMM:
        print_hwreg(sb, isa, imm);
        wl_sb_puts(sb, ", ");
        print_imm32(sb, inst->src[inst->nsrc - 1].value);
        break;
    default:
        break;
    }
}

static void print_sopp(const wl_inst *inst, wl_sb *sb)
{
    wl_isa isa = (wl_isa)inst->isa;
    unsigned imm = (uint16_t)inst->f.s.simm16;
    switch ((enum wl_salu_kind)inst->info->extra) {
    case WL_SALU_K_SOPP_NONE:
        return;
    case WL_SALU_K_SOPP_ENDPGM:
        if (imm)
            wl_sb_printf(sb, " %u", imm);
        return;
    case WL_SALU_K_SOPP_IMM:
        wl_sb_putc(sb, ' ');
        print_imm32(sb, imm);
        return;
    case WL_SALU_K_SOPP_HEX:
        wl_sb_printf(sb, " 0x%x", imm);
        return;
    case WL_SALU_K_SOPP_DEC:
    case WL_SALU_K_SOPP_LABEL:
        wl_sb_printf(sb, " %u", imm);
        return;
    case WL_SALU_K_SOPP_WAITCNT:
        wl_sb_putc(sb, ' ');
        print_waitcnt(sb, imm);
        return;
    case WL_SALU_K_SOPP_SENDMSG:
        wl_sb_putc(sb, ' ');
        print_sendmsg(sb, isa, imm);
        return;
    case WL_SALU_K_SOPP_DEPCTR:
        wl_sb_putc(sb, ' ');
        print_depctr(sb, isa, imm);
        return;
    default:
        return;
    }
}

/* A signed offset the way LLVM prints SMEM offsets: 0x24, -0x1. */
static void print_signed_hex(wl_sb *sb, int32_t v)
{
    if (v < 0)
        wl_sb_printf(sb, "-0x%x", (unsigned)(-(int64_t)v));
    else
        wl_sb_printf(sb, "0x%x", (unsigned)v);
}

static void print_smem(const wl_inst *inst, wl_sb *sb)
{
    unsigned flags = inst->info->flags;
    int n = 0;
    unsigned si = 0;
    if (flags & WL_SALU_F_DATA_DST) {
        sep(sb, &n);
        wl_print_reg(sb, &inst->dst[0]);
    } else if (flags & WL_SALU_F_DATA_SRC) {
        sep(sb, &n);
        wl_print_reg(sb, &inst->src[si++]);
    } else if (flags & WL_SALU_F_DATA_IMM) {
        sep(sb, &n);
        print_imm32(sb, inst->src[si++].value);
    }
    if (flags & WL_SALU_F_ADDR) {
        sep(sb, &n);
        wl_print_reg(sb, &inst->src[si]);
        sep(sb, &n);
        if (!inst->f.s.soffset_en) {
            if (inst->f.s.offset)
                print_signed_hex(sb, inst->f.s.offset);
            else
                wl_sb_puts(sb, "null");
        } else {
            wl_print_reg(sb, &inst->src[si + 1]);
            if (inst->f.s.offset) {
                wl_sb_puts(sb, " offset:");
                print_signed_hex(sb, inst->f.s.offset);
            }
        }
    }
    if ((flags & WL_SALU_F_GLC) && inst->f.s.glc)
        wl_sb_puts(sb, " glc");
    if ((flags & WL_SALU_F_DLC) && inst->f.s.dlc)
        wl_sb_puts(sb, " dlc");
}

void wl_print_salu(const wl_inst *inst, wl_sb *sb)
{
    if (!inst->info) {
        wl_sb_printf(sb, ".long 0x%x", inst->words[0]);
        return;
    }
    wl_sb_puts(sb, inst->name);
    switch ((wl_format)inst->format) {
    case WL_FMT_SOPK:
        print_sopk(inst, sb);
        return;
    case WL_FMT_SOPP:
        print_sopp(inst, sb);
        return;
    case WL_FMT_SMEM:
        print_smem(inst, sb);
        return;
    default:
        break;
    }
    int n = 0;
    for (unsigned i = 0; i < inst->ndst; i++) {
        sep(sb, &n);
        wl_print_reg(sb, &inst->dst[i]);
    }
    for (unsigned i = 0; i < inst->nsrc; i++) {
        sep(sb, &n);
        print_src(sb, &inst->src[i], inst->info->src_type[i] == WL_IMM_B64);
    }
}
