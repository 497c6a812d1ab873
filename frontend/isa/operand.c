/* Operand helpers shared by every family: the string builder, the decoding
 * of source/destination register fields, and the printing of registers and
 * constants in LLVM's syntax (AMDGPUInstPrinter's conventions). */
#include "decode_internal.h"

#include <stdio.h>
#include <string.h>

void wl_sb_init(wl_sb *sb, char *buf, size_t cap)
{
    sb->buf = buf;
    sb->cap = cap;
    sb->len = 0;
    if (cap)
        buf[0] = '\0';
}

void wl_sb_putc(wl_sb *sb, char c)
{
    if (sb->len + 1 < sb->cap) {
        sb->buf[sb->len] = c;
        sb->buf[sb->len + 1] = '\0';
    }
    sb->len++;
}

void wl_sb_puts(wl_sb *sb, const char *s)
{
    size_t n = strlen(s);
    if (sb->len < sb->cap) {
        size_t room = sb->cap - sb->len - 1;
        size_t k = n < room ? n : room;
        memcpy(sb->buf + sb->len, s, k);
        sb->buf[sb->len + k] = '\0';
    }
    sb->len += n;
}

void wl_sb_printf(wl_sb *sb, const char *fmt, ...)
{
    char tmp[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof(tmp)) {
        wl_sb_puts(sb, tmp);
        return;
    }
    /* Longer than the scratch buffer: format straight into the target. */
    va_start(ap, fmt);
    if (sb->len < sb->cap)
        vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, ap);
    va_end(ap);
    sb->len += (size_t)n;
}

void wl_print_hex(wl_sb *sb, uint64_t v)
{
    wl_sb_printf(sb, "0x%llx", (unsigned long long)v);
}

void wl_src_decode(wl_operand *o, unsigned enc, unsigned nregs)
{
    memset(o, 0, sizeof(*o));
    o->nregs = (uint8_t)nregs;
    if (enc <= WL_SRC_SGPR_MAX) {
        o->kind = WL_OPND_SGPR;
        o->index = (uint16_t)enc;
    } else if (enc >= WL_SRC_TTMP0 && enc < WL_SRC_TTMP0 + 16) {
        o->kind = WL_OPND_TTMP;
        o->index = (uint16_t)(enc - WL_SRC_TTMP0);
    } else if (enc >= WL_SRC_VGPR0) {
        o->kind = WL_OPND_VGPR;
        o->index = (uint16_t)(enc - WL_SRC_VGPR0);
    } else if ((enc >= 128 && enc <= 208) || (enc >= 240 && enc <= 248)) {
        o->kind = WL_OPND_INLINE;
        o->index = (uint16_t)enc;
        o->nregs = 0;
    } else if (enc == WL_SRC_LITERAL) {
        o->kind = WL_OPND_LITERAL;
        o->nregs = 0;
    } else {
        o->kind = WL_OPND_SPECIAL;
        o->index = (uint16_t)enc;
    }
}

void wl_vgpr_decode(wl_operand *o, unsigned vreg, unsigned nregs)
{
    memset(o, 0, sizeof(*o));
    o->kind = WL_OPND_VGPR;
    o->index = (uint16_t)vreg;
    o->nregs = (uint8_t)nregs;
}

void wl_sdst_decode(wl_operand *o, unsigned enc, unsigned nregs)
{
    wl_src_decode(o, enc & 0x7f, nregs);
}

bool wl_src_is_valid(unsigned enc, wl_isa isa)
{
    (void)isa;
    if (enc <= WL_SRC_SGPR_MAX || enc >= WL_SRC_VGPR0)
        return true;
    if (enc >= 106 && enc <= 208)
        return true;
    if (enc >= 235 && enc <= 255)
        return enc != WL_SRC_DPP8 && enc != WL_SRC_DPP8FI;
    return false;
}

static const char *special_name(unsigned enc, unsigned nregs)
{
    bool wide = nregs >= 2;
    switch (enc) {
    case WL_SRC_VCC_LO: return wide ? "vcc" : "vcc_lo";
    case WL_SRC_VCC_HI: return "vcc_hi";
    case WL_SRC_M0: return "m0";
    case WL_SRC_NULL: return "null";
    case WL_SRC_EXEC_LO: return wide ? "exec" : "exec_lo";
    case WL_SRC_EXEC_HI: return "exec_hi";
    case WL_SRC_SHARED_BASE: return "src_shared_base";
    case WL_SRC_SHARED_LIMIT: return "src_shared_limit";
    case WL_SRC_PRIVATE_BASE: return "src_private_base";
    case WL_SRC_PRIVATE_LIMIT: return "src_private_limit";
    case WL_SRC_POPS_EXITING_WAVE_ID: return "src_pops_exiting_wave_id";
    case WL_SRC_VCCZ: return "src_vccz";
    case WL_SRC_EXECZ: return "src_execz";
    case WL_SRC_SCC: return "src_scc";
    case WL_SRC_LDS_DIRECT: return "src_lds_direct";
    default: return NULL;
    }
}

static void print_range(wl_sb *sb, const char *prefix, unsigned first, unsigned n)
{
    if (n <= 1)
        wl_sb_printf(sb, "%s%u", prefix, first);
    else
        wl_sb_printf(sb, "%s[%u:%u]", prefix, first, first + n - 1);
}

void wl_print_reg(wl_sb *sb, const wl_operand *o)
{
    unsigned n = o->nregs ? o->nregs : 1;
    switch ((wl_opnd_kind)o->kind) {
    case WL_OPND_SGPR: print_range(sb, "s", o->index, n); return;
    case WL_OPND_VGPR: print_range(sb, "v", o->index, n); return;
    case WL_OPND_TTMP:
        if (n <= 1)
            wl_sb_printf(sb, "ttmp%u", o->index);
        else
            wl_sb_printf(sb, "ttmp[%u:%u]", o->index, o->index + n - 1);
        return;
    case WL_OPND_SPECIAL: {
        const char *s = special_name(o->index, n);
        if (s)
            wl_sb_puts(sb, s);
        else
            wl_sb_printf(sb, "<unknown register %u>", o->index);
        return;
    }
    default:
        wl_sb_puts(sb, "<not a register>");
        return;
    }
}

/* ---- Constants -------------------------------------------------------
 *
 * LLVM's disassembler turns an inline constant or a literal into an
 * immediate whose value depends on the operand's type, and its printer
 * prints that immediate by the type. Both steps are modelled here:
 *
 *   inline integer 128..208   the integer 0..64, -1..-16 (any type)
 *   inline float 240..248     its bit pattern: f16 bits for B16/F16/V2F16,
 *                             f32 bits for B32/F32/V2B16, f64 bits for B64/F64
 *   literal 255               the 32-bit literal, zero-extended; for F64 the
 *                             literal is the high half (literal << 32)
 *
 * and the printers (AMDGPUInstPrinter, LLVM 19):
 *   B32/F32  printImmediate32: int32 in -16..64 as decimal, else an f32
 *            inline value's name (1.0, 0.5, ..., 0.15915494), else hex.
 *   B16      printImmediateInt16: int32 in -16..64 as decimal, else an f32
 *            name, else hex of the low 16 bits.
 *   F16      printImmediateF16: int16 in -16..64 as decimal, else an f16
 *            name, else hex of the low 16 bits.
 *   V2B16    printImmediateV216 (integer): as printImmediate32.
 *   V2F16    printImmediateV216 (float): int32 in -16..64 as decimal, else an
 *            f16 name if the value fits in 16 bits, else hex of all 32 bits.
 *   B64/F64  printImmediate64: int64 in -16..64 as decimal, else an f64
 *            name (0.15915494309189532 for 1/(2pi)), else hex: for F64 of
 *            the high 32 bits, for B64 of the value. */

static const char *const float_names[9] = {
    "0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0", "0.15915494",
};
static const uint16_t inline_f16[9] = {
    0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
};
static const uint32_t inline_f32[9] = {
    0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
    0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983,
};
static const uint64_t inline_f64[9] = {
    0x3fe0000000000000ull, 0xbfe0000000000000ull, 0x3ff0000000000000ull,
    0xbff0000000000000ull, 0x4000000000000000ull, 0xc000000000000000ull,
    0x4010000000000000ull, 0xc010000000000000ull, 0x3fc45f306dc9c882ull,
};

static bool is_inline_int(int64_t v)
{
    return v >= -16 && v <= 64;
}

/* The value LLVM's disassembler gives the constant `o` in a `type` operand. */
static uint64_t const_value(const wl_operand *o, wl_imm_type type)
{
    if (o->kind == WL_OPND_INLINE && o->index <= 208) {
        int64_t v = o->index <= 192 ? (int64_t)o->index - 128 : 192 - (int64_t)o->index;
        return (uint64_t)v;
    }
    if (o->kind == WL_OPND_INLINE) {
        unsigned i = (o->index - 240u) % 9u;
        switch (type) {
        case WL_IMM_B16: case WL_IMM_F16: case WL_IMM_V2F16: return inline_f16[i];
        case WL_IMM_B64: case WL_IMM_F64: return inline_f64[i];
        default: return inline_f32[i];
        }
    }
    if (type == WL_IMM_F64)
        return (uint64_t)o->value << 32;
    return o->value;
}

static bool put_f32_name(wl_sb *sb, uint64_t v)
{
    for (unsigned i = 0; i < 9; i++)
        if (v == inline_f32[i]) {
            wl_sb_puts(sb, float_names[i]);
            return true;
        }
    return false;
}

static bool put_f16_name(wl_sb *sb, uint64_t v)
{
    for (unsigned i = 0; i < 9; i++)
        if (v == inline_f16[i]) {
            wl_sb_puts(sb, float_names[i]);
            return true;
        }
    return false;
}

static void print_const(wl_sb *sb, const wl_operand *o, wl_imm_type type)
{
    uint64_t v = const_value(o, type);
    int32_t s32 = (int32_t)(uint32_t)v;
    int16_t s16 = (int16_t)(uint16_t)v;
    switch (type) {
    case WL_IMM_B16:
        if (is_inline_int(s32))
            wl_sb_printf(sb, "%d", s32);
        else if (!put_f32_name(sb, (uint32_t)v))
            wl_print_hex(sb, v & 0xffff);
        return;
    case WL_IMM_F16:
        if (is_inline_int(s16))
            wl_sb_printf(sb, "%d", s16);
        else if (!put_f16_name(sb, (uint16_t)v))
            wl_print_hex(sb, v & 0xffff);
        return;
    case WL_IMM_V2F16:
        if (is_inline_int(s32))
            wl_sb_printf(sb, "%d", s32);
        else if (!((uint32_t)v <= 0xffff && put_f16_name(sb, (uint32_t)v)))
            wl_print_hex(sb, (uint32_t)v);
        return;
    case WL_IMM_B64:
    case WL_IMM_F64: {
        int64_t s64 = (int64_t)v;
        if (is_inline_int(s64)) {
            wl_sb_printf(sb, "%lld", (long long)s64);
            return;
        }
        for (unsigned i = 0; i < 9; i++)
            if (v == inline_f64[i]) {
                wl_sb_puts(sb, i == 8 ? "0.15915494309189532" : float_names[i]);
                return;
            }
        wl_print_hex(sb, type == WL_IMM_F64 ? v >> 32 : v);
        return;
    }
    default: /* B32, F32, V2B16 */
        if (is_inline_int(s32))
            wl_sb_printf(sb, "%d", s32);
        else if (!put_f32_name(sb, (uint32_t)v))
            wl_print_hex(sb, (uint32_t)v);
        return;
    }
}

void wl_print_src(wl_sb *sb, const wl_operand *o, wl_imm_type type)
{
    switch ((wl_opnd_kind)o->kind) {
    case WL_OPND_INLINE:
        if (o->index <= 208 || (o->index >= 240 && o->index <= 248))
            print_const(sb, o, type);
        else
            wl_sb_printf(sb, "<bad inline constant %u>", o->index);
        return;
    case WL_OPND_LITERAL:
        print_const(sb, o, type);
        return;
    case WL_OPND_IMM:
        wl_print_hex(sb, o->value);
        return;
    case WL_OPND_LABEL:
        wl_sb_printf(sb, "%d", (int32_t)o->value);
        return;
    case WL_OPND_NONE:
        return;
    default:
        wl_print_reg(sb, o);
        return;
    }
}
