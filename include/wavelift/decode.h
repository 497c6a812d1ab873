/* wavelift: the gfx10 decoder's public interface.
 *
 * One decoded instruction is one wl_inst. The lifter consumes it, and the
 * project's own printer turns it into LLVM's assembly syntax. Operands are
 * normalized (kind + index); the raw encoding words are kept as well. */
#ifndef WAVELIFT_DECODE_H
#define WAVELIFT_DECODE_H

#include "wavelift/api.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Targets. Where encodings or opcode sets differ, the tables are per target. */
typedef enum wl_target {
    WL_GFX1010,
    WL_GFX1011,
    WL_GFX1012,
    WL_GFX1013,
    WL_GFX1030,
    WL_GFX1031,
    WL_GFX1032,
    WL_GFX1033,
    WL_GFX1034,
    WL_GFX1035,
    WL_GFX1036,
    WL_TARGET_COUNT
} wl_target;

/* Opcode-table generation: gfx1010/1011/1012 share one table (GFX10.1),
 * gfx1013 adds the ray-tracing opcodes, gfx103x share the GFX10.3 table. */
typedef enum wl_isa {
    WL_ISA_GFX1010,
    WL_ISA_GFX1013,
    WL_ISA_GFX1030,
    WL_ISA_COUNT
} wl_isa;

WL_API wl_isa wl_target_isa(wl_target t);
/* "gfx1030" -> WL_GFX1030; returns -1 for an unknown name. */
WL_API int wl_target_from_name(const char *name);
WL_API const char *wl_target_name(wl_target t);

typedef enum wl_format {
    WL_FMT_INVALID = 0,
    WL_FMT_SOP2,
    WL_FMT_SOPK,
    WL_FMT_SOP1,
    WL_FMT_SOPC,
    WL_FMT_SOPP,
    WL_FMT_SMEM,
    WL_FMT_VOP1,
    WL_FMT_VOP2,
    WL_FMT_VOPC,
    WL_FMT_VOP3,  /* VOP3a and VOP3b, including VOP1/2/C promoted to VOP3 */
    WL_FMT_VOP3P,
    WL_FMT_DS,
    WL_FMT_MUBUF,
    WL_FMT_MTBUF,
    WL_FMT_MIMG,
    WL_FMT_FLAT,
    WL_FMT_GLOBAL,
    WL_FMT_SCRATCH,
    WL_FMT_COUNT
} wl_format;

WL_API const char *wl_format_name(wl_format f);

/* How a VOP1/VOP2/VOPC instruction is encoded. */
typedef enum wl_venc {
    WL_VENC_E32 = 0, /* plain 32-bit encoding (possibly with a literal) */
    WL_VENC_E64,     /* VOP3 encoding */
    WL_VENC_SDWA,
    WL_VENC_DPP16,
    WL_VENC_DPP8
} wl_venc;

/* Operand kinds. */
typedef enum wl_opnd_kind {
    WL_OPND_NONE = 0,
    WL_OPND_SGPR,    /* index = s#, nregs consecutive */
    WL_OPND_VGPR,    /* index = v#, nregs consecutive */
    WL_OPND_TTMP,    /* index = ttmp# */
    WL_OPND_SPECIAL, /* index = the raw 8/9-bit source encoding (vcc_lo=106, m0=124, exec_lo=126, null=125, src_* ...) */
    WL_OPND_INLINE,  /* inline constant: index = its raw encoding (128..208, 240..248) */
    WL_OPND_LITERAL, /* 32-bit literal in `value` */
    WL_OPND_IMM,     /* a plain immediate field (simm16, offsets, ...) in `value` */
    WL_OPND_LABEL    /* a branch target: `value` is the signed word offset */
} wl_opnd_kind;

/* Raw 9-bit source encodings of the special registers (gfx10). */
enum {
    WL_SRC_SGPR_MAX = 105,
    WL_SRC_VCC_LO = 106,
    WL_SRC_VCC_HI = 107,
    WL_SRC_TTMP0 = 108, /* ..123 */
    WL_SRC_M0 = 124,
    WL_SRC_NULL = 125,
    WL_SRC_EXEC_LO = 126,
    WL_SRC_EXEC_HI = 127,
    WL_SRC_ZERO = 128,      /* inline 0; 129..192 = 1..64; 193..208 = -1..-16 */
    WL_SRC_DPP8 = 233,
    WL_SRC_DPP8FI = 234,
    WL_SRC_SHARED_BASE = 235,
    WL_SRC_SHARED_LIMIT = 236,
    WL_SRC_PRIVATE_BASE = 237,
    WL_SRC_PRIVATE_LIMIT = 238,
    WL_SRC_POPS_EXITING_WAVE_ID = 239,
    WL_SRC_HALF = 240, /* 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0, 1/(2pi) = 248 */
    WL_SRC_INV_2PI = 248,
    WL_SRC_SDWA = 249,
    WL_SRC_DPP16 = 250,
    WL_SRC_VCCZ = 251,
    WL_SRC_EXECZ = 252,
    WL_SRC_SCC = 253,
    WL_SRC_LDS_DIRECT = 254,
    WL_SRC_LITERAL = 255,
    WL_SRC_VGPR0 = 256
};

typedef struct wl_operand {
    uint8_t kind;   /* wl_opnd_kind */
    uint8_t nregs;  /* registers: consecutive dwords; 0 for immediates */
    uint8_t neg;    /* VOP3/SDWA/DPP source modifiers */
    uint8_t abs;
    uint8_t sext;   /* SDWA integer sign extension */
    uint8_t pad_[1];
    uint16_t index; /* see wl_opnd_kind */
    uint32_t value; /* literal or immediate */
} wl_operand;

/* Format-specific fields. Each family keeps its own block. */
typedef struct wl_salu_fields {
    int32_t simm16;     /* SOPK/SOPP immediate, sign-extended (branches: word offset) */
    uint32_t hwreg;     /* s_getreg/s_setreg*: raw simm16, ID[5:0] OFFSET[10:6] (SIZE-1)[15:11] */
    /* SMEM */
    int32_t offset;     /* SMEM immediate offset (21-bit signed) */
    uint8_t soffset_en; /* SMEM: an SOFFSET register is used (the field is not null) */
    uint8_t imm;        /* SMEM: the immediate offset is used (non-zero, or no SOFFSET) */
    uint8_t glc, dlc;
} wl_salu_fields;

typedef struct wl_valu_fields {
    uint8_t clamp;
    uint8_t omod;       /* 0 none, 1 mul:2, 2 mul:4, 3 div:2 */
    uint8_t op_sel;     /* VOP3/VOP3P op_sel bits [3:0] */
    uint8_t op_sel_hi;  /* VOP3P op_sel_hi bits [2:0] */
    uint8_t neg_lo;     /* VOP3P */
    uint8_t neg_hi;     /* VOP3P */
    /* SDWA */
    uint8_t dst_sel, dst_unused, src0_sel, src1_sel;
    uint8_t sdwa_sd;    /* VOPC SDWA: sdst is explicit */
    /* DPP16 */
    uint16_t dpp_ctrl;
    uint8_t row_mask, bank_mask, bound_ctrl, fi;
    /* DPP8 */
    uint32_t dpp8_sel;  /* 8 x 3 bits */
} wl_valu_fields;

typedef struct wl_mem_fields {
    int32_t offset;        /* MUBUF/MTBUF/FLAT/GLOBAL/SCRATCH offset (GLOBAL and
                              SCRATCH: signed); DS: offset1:offset0 (16 bit) */
    uint8_t offset0, offset1; /* DS two-address forms */
    uint8_t gds;
    uint8_t glc, slc, dlc;
    uint8_t offen, idxen, lds, tfe, lwe;
    uint8_t d16, a16, r128, unorm;
    uint8_t dmask, dim, nsa; /* MIMG: nsa = number of extra NSA dwords */
    uint8_t format;          /* MTBUF unified format */
    uint8_t seg;             /* FLAT segment: 0 flat, 1 scratch, 2 global */
    uint8_t saddr_off;       /* FLAT/GLOBAL/SCRATCH: no saddr (null) */
    uint8_t vaddr_off;       /* MUBUF/MTBUF/SCRATCH: vaddr is off */
    uint8_t nvaddr;          /* MIMG: number of address registers */
    uint8_t vaddr[16];       /* MIMG address VGPRs, in order (NSA or not) */
} wl_mem_fields;

struct wl_opinfo;

#define WL_MAX_WORDS 5
#define WL_MAX_DST 2
#define WL_MAX_SRC 6

typedef struct wl_inst {
    uint64_t offset;           /* byte offset of the instruction */
    uint32_t words[WL_MAX_WORDS];
    uint8_t size;              /* bytes, 4..20 */
    uint8_t format;            /* wl_format */
    uint8_t venc;              /* wl_venc, VALU only */
    uint8_t isa;               /* wl_isa it was decoded for */
    uint8_t wave64;            /* decoded for wave64 */
    uint8_t ndst, nsrc;
    uint8_t has_literal;
    uint16_t op;               /* opcode number in its format (VOP3: the 10-bit VOP3 number) */
    const struct wl_opinfo *info; /* the table entry: mnemonic and operand shape */
    const char *name;          /* mnemonic as LLVM prints it, without _e32/_e64/_sdwa/_dpp suffix */
    wl_operand dst[WL_MAX_DST];
    wl_operand src[WL_MAX_SRC];
    union {
        wl_salu_fields s;
        wl_valu_fields v;
        wl_mem_fields m;
    } f;
} wl_inst;

typedef enum wl_status {
    WL_OK = 0,
    WL_ERR_TRUNCATED,    /* the instruction is cut off at the end of the bytes */
    WL_ERR_INVALID,      /* the bytes do not encode an instruction for this target */
    WL_ERR_NOMEM,
    WL_ERR_IO,
    WL_ERR_FORMAT,       /* a malformed file (ELF, note, descriptor) */
    WL_ERR_NOT_FOUND,
    WL_ERR_USAGE,
    WL_ERR_UNSUPPORTED,  /* valid input the translator refuses (named in the message) */
    WL_ERR_ESCAPE,       /* a dispatch recorded an escape: its result is refused */
    WL_ERR_VULKAN,       /* a Vulkan call failed (the runtime: wl_rt_vk_result has it) */
    WL_ERR_NO_DEVICE     /* no Vulkan device, or none matches the choice */
} wl_status; /* the one status of the library and the runtime (wl_rt_status is this) */

WL_API const char *wl_status_name(wl_status s);

typedef struct wl_decoder {
    wl_target target;
    wl_isa isa;
    int wave64;
} wl_decoder;

WL_API void wl_decoder_init(wl_decoder *d, wl_target target, int wave64);

/* Decodes one instruction at bytes[0..len). `offset` is recorded in the
 * instruction (and used for branch targets). On WL_OK, inst->size bytes were
 * consumed. On an error, inst is zeroed but for offset and words. */
WL_API wl_status wl_decode(const wl_decoder *d, const uint8_t *bytes, size_t len,
                    uint64_t offset, wl_inst *inst);

/* Prints the instruction in LLVM's assembly syntax (no comment, no leading
 * white space) into buf. Returns the length it needed (like snprintf). */
WL_API size_t wl_print(const wl_inst *inst, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
