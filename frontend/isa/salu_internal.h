/* Internal interface of the scalar family (SOP2, SOPK, SOP1, SOPC, SOPP,
 * SMEM): the meaning of the opcode-table fields, the table lookups
 * (salu_tables.c), and the helpers shared by the decoder (salu.c) and the
 * printer (salu_print.c). */
#ifndef WL_SALU_INTERNAL_H
#define WL_SALU_INTERNAL_H

#include "decode_internal.h"

/* struct wl_opinfo.flags for the scalar formats. Bits 0..2: the ISAs that
 * have the opcode (1 << wl_isa). */
#define WL_SALU_ISA(isa) (1u << (isa))
#define WL_SALU_ALL (WL_SALU_ISA(WL_ISA_GFX1010) | WL_SALU_ISA(WL_ISA_GFX1013) | WL_SALU_ISA(WL_ISA_GFX1030))
#define WL_SALU_F_SDST 0x0008u         /* SOP1/SOPK: the SDST field is an operand */
#define WL_SALU_F_SSRC0 0x0010u        /* SOP2/SOP1/SOPC: the SSRC0 field is an operand */
#define WL_SALU_F_SSRC1 0x0020u        /* SOP2/SOPC: the SSRC1 field is an operand */
#define WL_SALU_F_ADDR 0x0040u         /* SMEM: SBASE, SOFFSET and OFFSET are operands */
#define WL_SALU_F_DATA_IMM 0x0080u     /* SMEM: SDATA is an immediate (s_atc_probe) */
#define WL_SALU_F_DATA_SRC 0x0100u     /* SMEM: SDATA is read (stores, atomics) */
#define WL_SALU_F_DATA_DST 0x0200u     /* SMEM: SDATA is written (loads) */
#define WL_SALU_F_DATA_DST_GLC 0x0400u /* SMEM atomics: SDATA also written when GLC */
#define WL_SALU_F_GLC 0x0800u          /* SMEM: prints glc */
#define WL_SALU_F_DLC 0x1000u          /* SMEM: prints dlc */

/* struct wl_opinfo.extra for the scalar formats: how the operands print. */
enum wl_salu_kind {
    WL_SALU_K_SOP = 0,            /* SOP2/SOP1/SOPC: dst, src0, src1 as present */
    WL_SALU_K_SOPK_HEX,           /* sdst, simm16 as 0x%x */
    WL_SALU_K_SOPK_LABEL,         /* sdst, simm16 as an unsigned decimal (branch target) */
    WL_SALU_K_SOPK_VERSION,       /* s_version: UC_VERSION_* expression */
    WL_SALU_K_SOPK_GETREG,        /* sdst, hwreg(...) */
    WL_SALU_K_SOPK_SETREG,        /* hwreg(...), sdst */
    WL_SALU_K_SOPK_SETREG_IMM,    /* hwreg(...), literal (one more dword) */
    WL_SALU_K_SOPP_NONE,          /* no operand; simm16 must be 0 */
    WL_SALU_K_SOPP_ENDPGM,        /* optional decimal */
    WL_SALU_K_SOPP_IMM,           /* -16..64 decimal, else hex */
    WL_SALU_K_SOPP_HEX,           /* 0x%x */
    WL_SALU_K_SOPP_DEC,           /* unsigned decimal */
    WL_SALU_K_SOPP_LABEL,         /* branch: unsigned decimal, WL_OPND_LABEL */
    WL_SALU_K_SOPP_WAITCNT,       /* vmcnt(..) expcnt(..) lgkmcnt(..) */
    WL_SALU_K_SOPP_SENDMSG,       /* sendmsg(...) */
    WL_SALU_K_SOPP_DEPCTR,        /* depctr_*(..) */
    WL_SALU_K_SMEM                /* SMEM: data, base, offset, glc, dlc per flags */
};

/* The table entry of opcode `op` of a scalar format for `isa`, or NULL. */
const struct wl_opinfo *wl_salu_lookup(wl_format fmt, unsigned op, wl_isa isa);

/* Symbolic names; NULL where LLVM prints a number. */
const char *wl_salu_hwreg_name(wl_isa isa, unsigned id);
const char *wl_salu_msg_name(wl_isa isa, unsigned id);
const char *wl_salu_sysop_name(wl_isa isa, unsigned op);
const char *wl_salu_gsop_name(wl_isa isa, unsigned op);
const char *wl_salu_ucversion_name(unsigned code);

/* Register fields: decodes a scalar operand encoding (7-bit SDST, 8-bit
 * SSRC, SBASE << 1) of `nregs` dwords the way LLVM does. Wide SGPR/TTMP
 * tuples are aligned down (2 dwords to 2, 4 and more to 4). Returns false
 * for the encodings LLVM rejects. A literal (255) is marked; the caller fills
 * its value. */
bool wl_salu_sreg_decode(wl_operand *o, unsigned enc, unsigned nregs);

#endif
