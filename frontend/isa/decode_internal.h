/* Internal interface between the decoder's dispatcher (decode.c), the
 * per-family decoders and printers (salu.c, valu*.c, mem.c) and the shared
 * operand helpers (operand.c). Not installed. */
#ifndef WL_DECODE_INTERNAL_H
#define WL_DECODE_INTERNAL_H

#include "wavelift/decode.h"

#include <stdarg.h>
#include <stdbool.h>

/* One opcode-table entry. The families give `flags`, `extra` and the
 * operand shapes the meaning they document in their own file. */
struct wl_opinfo {
    const char *name;    /* LLVM's mnemonic, without encoding suffix */
    uint16_t flags;
    uint8_t ndst, nsrc;
    uint8_t dst_regs[WL_MAX_DST]; /* dwords of each destination */
    uint8_t src_regs[WL_MAX_SRC]; /* dwords of each source */
    uint8_t src_type[WL_MAX_SRC]; /* wl_imm_type of each source */
    uint32_t extra;
};

/* How an inline constant or literal in a source prints: the operand's type
 * as LLVM's printer sees it. */
typedef enum wl_imm_type {
    WL_IMM_B32 = 0, /* integer or untyped 32 bit */
    WL_IMM_F32,
    WL_IMM_B16,
    WL_IMM_F16,
    WL_IMM_V2B16,
    WL_IMM_V2F16,
    WL_IMM_B64,
    WL_IMM_F64,
    WL_IMM_COUNT
} wl_imm_type;

/* A bounded string builder: appends never overflow, `len` keeps counting. */
typedef struct wl_sb {
    char *buf;
    size_t cap;
    size_t len;
} wl_sb;

void wl_sb_init(wl_sb *sb, char *buf, size_t cap);
void wl_sb_putc(wl_sb *sb, char c);
void wl_sb_puts(wl_sb *sb, const char *s);
void wl_sb_printf(wl_sb *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Fills `o` from a raw 9-bit (VALU) or 8-bit (SALU) source encoding of
 * `nregs` dwords. A literal (255) is marked; its value is filled in by the
 * caller once the literal dword is read. */
void wl_src_decode(wl_operand *o, unsigned enc, unsigned nregs);
/* Decodes a VGPR operand (8-bit field, no 256 bias). */
void wl_vgpr_decode(wl_operand *o, unsigned vreg, unsigned nregs);
/* Decodes an 7-bit SGPR destination field (SDST): SGPRs, vcc, ttmp, m0, null, exec. */
void wl_sdst_decode(wl_operand *o, unsigned enc, unsigned nregs);

/* True when a raw source encoding is a register LLVM accepts in a source. */
bool wl_src_is_valid(unsigned enc, wl_isa isa);

/* Prints a register operand: s5, s[4:5], v[0:3], vcc, exec_lo, ttmp[4:7], m0, null ... */
void wl_print_reg(wl_sb *sb, const wl_operand *o);
/* Prints any source operand, constants as LLVM prints them for `type`.
 * Does not print neg/abs/sext modifiers. */
void wl_print_src(wl_sb *sb, const wl_operand *o, wl_imm_type type);
/* Prints an integer the way LLVM's formatHex does: 0x%x. */
void wl_print_hex(wl_sb *sb, uint64_t v);

/* Family entry points. `w` holds the words available (at least one),
 * `nwords` how many. Each returns WL_OK with inst->size set, or an error. */
wl_status wl_decode_salu(const wl_decoder *d, const uint32_t *w, size_t nwords, wl_inst *inst);
wl_status wl_decode_valu(const wl_decoder *d, const uint32_t *w, size_t nwords, wl_inst *inst);
wl_status wl_decode_vop3(const wl_decoder *d, const uint32_t *w, size_t nwords, wl_inst *inst);
wl_status wl_decode_mem(const wl_decoder *d, const uint32_t *w, size_t nwords, wl_inst *inst);

void wl_print_salu(const wl_inst *inst, wl_sb *sb);
void wl_print_valu(const wl_inst *inst, wl_sb *sb);
void wl_print_vop3(const wl_inst *inst, wl_sb *sb);
void wl_print_mem(const wl_inst *inst, wl_sb *sb);

#endif
