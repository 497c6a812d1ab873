/* Internal interface of the 32-bit VALU family (VOP1, VOP2, VOPC with their
 * e32, SDWA, DPP16 and DPP8 encodings): the meaning of the opcode tables'
 * flags and extra bits, and the helpers shared by valu.c (decoder),
 * valu_print.c (printer) and valu_tables.c (tables). Not installed. */
#ifndef WL_VALU_INTERNAL_H
#define WL_VALU_INTERNAL_H

#include "decode_internal.h"

/* struct wl_opinfo.flags for VOP1/VOP2/VOPC. The operand shapes
 * (ndst/nsrc, dst_regs/src_regs, src_type) list the explicit register
 * operands as the e32 form prints them: VOP1 vdst/sdst and src0, VOP2 vdst,
 * src0 and vsrc1, VOPC src0 and vsrc1. */
enum {
    WL_VF_E32_SUFFIX = 0x0001, /* the e32 form prints "_e32" */
    WL_VF_NO_OPS = 0x0002,     /* no operands (v_nop ...): all fields zero */
    WL_VF_SDST = 0x0004,       /* VOP1 destination is scalar (v_readfirstlane) */
    WL_VF_VCC_DST = 0x0008,    /* VOP2 implicit carry-out vcc after vdst */
    WL_VF_VCC_SRC = 0x0010,    /* VOP2 implicit vcc source after src1 */
    WL_VF_MADMK = 0x0020,      /* VOP2 literal K between src0 and src1 */
    WL_VF_MADAK = 0x0040,      /* VOP2 literal K after src1 */
    WL_VF_CMPX = 0x0080,       /* VOPC writing exec, no vcc printed */
    WL_VF_SDWA = 0x0100,       /* has an SDWA form */
    WL_VF_DPP = 0x0200,        /* has a DPP16 form */
    WL_VF_DPP8 = 0x0400,       /* has a DPP8 form */
    WL_VF_VOPC_VCC = 0x0800,   /* VOPC writing vcc (printed first) */
};

/* struct wl_opinfo.extra: the optional SDWA/DPP fields LLVM accepts. A field
 * that is not listed must be zero (LLVM rejects the encoding otherwise). */
enum {
    WL_VX_SDWA_DST = 1u << 0,         /* dst_sel, dst_unused */
    WL_VX_SDWA_CLAMP = 1u << 1,
    WL_VX_SDWA_OMOD = 1u << 2,
    WL_VX_SDWA_S0 = 1u << 3,          /* src0 may be scalar/constant */
    WL_VX_SDWA_S1 = 1u << 4,          /* src1 may be scalar/constant */
    WL_VX_SDWA_SRC0_FMODS = 1u << 5,  /* src0 neg/abs */
    WL_VX_SDWA_SRC0_SEXT = 1u << 6,   /* src0 sext */
    WL_VX_SDWA_SRC1_FMODS = 1u << 7,
    WL_VX_SDWA_SRC1_SEXT = 1u << 8,
    WL_VX_SDWA_SD = 1u << 9,          /* VOPC: explicit sdst */
    WL_VX_SDWA_SRC1 = 1u << 10,       /* has src1 (VOP2, VOPC) */
    WL_VX_DPP_SRC0_MODS = 1u << 11,   /* DPP src0 neg/abs */
    WL_VX_DPP_SRC1_MODS = 1u << 12,   /* DPP src1 neg/abs */
    WL_VX_SDWA_SRC0_I16 = 1u << 13,   /* SDWA src0 constants print as i16 */
    WL_VX_SDWA_SRC1_I16 = 1u << 14,
    WL_VX_DPP_SRC0_SEXT = 1u << 15,   /* DPP src0 modifiers are integer: */
    WL_VX_DPP_SRC1_SEXT = 1u << 16,   /* the neg bit is sext, abs unused */
    WL_VX_DPP_SRC0_SILENT = 1u << 17, /* DPP src0 neg/abs accepted, but */
    WL_VX_DPP_SRC1_SILENT = 1u << 18, /* without effect (not printed) */
};

/* The table entry of opcode `op` of `fmt` (VOP1/VOP2/VOPC) for `isa`, or
 * NULL where LLVM 19 has no such instruction. */
const struct wl_opinfo *wl_valu_lookup(wl_isa isa, wl_format fmt, unsigned op);

#endif
