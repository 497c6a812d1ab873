/* Internal interface of the memory family (DS, MUBUF, MTBUF, MIMG, FLAT,
 * GLOBAL, SCRATCH): the opcode-table entry shared by the generated tables
 * (frontend/isa/tables/mem_*.inc, scripts/gen_mem_tables.py), the per-format
 * decoders and printers, and the helpers in mem.c.
 *
 * Operand layout of a decoded memory instruction (wl_inst.dst/src), in the
 * order LLVM prints them; a src operand of kind WL_OPND_NONE is a slot LLVM
 * prints as "off":
 *   DS       dst: vdst?            src: addr?, data0?, data1?
 *   MUBUF/   dst: vdata (loads)    src: vdata (stores, atomics), vaddr|off,
 *   MTBUF                               srsrc, soffset
 *            (atomics with glc return the old value in their vdata)
 *   FLAT     dst: vdst?            src: vaddr|off?, data?, saddr|off (GLOBAL,
 *                                       SCRATCH only)
 *   MIMG     dst: vdata (loads)    src: vdata (stores, atomics), vaddr,
 *                                       srsrc, ssamp?
 *            (NSA: the vaddr operand is the first address; all of them are
 *            in wl_mem_fields.vaddr[0..nvaddr))
 */
#ifndef WL_MEM_INTERNAL_H
#define WL_MEM_INTERNAL_H

#include "decode_internal.h"

/* wl_opinfo.flags of the memory formats (scripts/gen_mem_tables.py: F). */
enum {
    WL_MEM_F_LOAD = 1 << 0,    /* writes a VGPR destination */
    WL_MEM_F_STORE = 1 << 1,
    WL_MEM_F_ATOMIC = 1 << 2,  /* read-modify-write */
    WL_MEM_F_VDST = 1 << 3,    /* DS/FLAT: a vdst field */
    WL_MEM_F_ADDR = 1 << 4,    /* DS: an addr operand */
    WL_MEM_F_DATA0 = 1 << 5,   /* DS: data0; FLAT: data */
    WL_MEM_F_DATA1 = 1 << 6,   /* DS: data1 */
    WL_MEM_F_OFF2 = 1 << 7,    /* DS: offset0/offset1 */
    WL_MEM_F_SWZ = 1 << 8,     /* DS: the offset is a swizzle pattern */
    WL_MEM_F_GWS = 1 << 9,     /* DS: data0 is in the addr field */
    WL_MEM_F_NODATA = 1 << 10, /* MUBUF: no operands (cache invalidates) */
    WL_MEM_F_LDS = 1 << 11,    /* MUBUF/FLAT: the lds bit is allowed */
    WL_MEM_F_NOVADDR = 1 << 12 /* FLAT: no vaddr operand (addtid) */
};

/* wl_opinfo.extra of MIMG: the base opcode's properties, as LLVM's
 * MIMGBaseOpcode has them (scripts/gen_mem_tables.py: M). */
enum {
    WL_MIMG_SAMPLER = 1 << 0, /* has an ssamp operand */
    WL_MIMG_GATHER4 = 1 << 1, /* always 4 data dwords */
    WL_MIMG_ATOMIC = 1 << 2,
    WL_MIMG_STORE = 1 << 3,
    WL_MIMG_D16 = 1 << 4,     /* the d16 bit is allowed */
    WL_MIMG_COORDS = 1 << 5,  /* the address has the dim's coordinates */
    WL_MIMG_LOD = 1 << 6,     /* ... and a lod, clamp or mip word */
    WL_MIMG_GRAD = 1 << 7,    /* ... and the dim's gradients */
    WL_MIMG_G16 = 1 << 8,     /* 16-bit gradients */
    WL_MIMG_BVH = 1 << 9,     /* image_bvh*_intersect_ray */
    WL_MIMG_BVH64 = 1 << 10,
    WL_MIMG_MSAA = 1 << 11,
    WL_MIMG_CMPSWAP = 1 << 12
};

/* One opcode of a memory format. `info` comes first: wl_inst.info points at
 * it. LLVM requires (w[i] & fix_mask[i]) == fix_val[i] for the first two
 * dwords. The MIMG members are zero in the other formats. */
struct wl_mem_desc {
    struct wl_opinfo info;
    uint32_t fix_mask[2];
    uint32_t fix_val[2];
    /* MIMG: vdata dwords LLVM prints for each data size 1..5 (0: LLVM has no
     * such variant and falls back to the default one) */
    uint8_t vdata_map[6];
    uint8_t dflt_vdata;  /* vdata dwords of the default (fallback) variant */
    uint8_t dflt_vaddr;  /* vaddr dwords of the default non-NSA variant */
    uint16_t vaddr_ok;   /* bit n-1: a non-NSA variant with n vaddr dwords */
    uint16_t nsa_ok;     /* bit n-1: an NSA variant with n addresses */
    uint8_t nsa_dflt[3]; /* addresses of the default NSA variant with 1..3
                            NSA dwords; 0: such an encoding is invalid */
    uint8_t extra_args;  /* offset/bias/z-compare address words */
};

bool wl_mem_fixed_ok(const struct wl_mem_desc *d, const uint32_t *w);
/* A VGPR tuple; false when it runs past v255. */
bool wl_mem_vgpr(wl_operand *o, unsigned v, unsigned n);
/* An SGPR tuple of n dwords from a raw 7-bit scalar encoding (SGPRs,
 * ttmps, vcc, exec); false when LLVM has no such register. */
bool wl_mem_sgpr(wl_operand *o, unsigned enc, unsigned n);
/* A 32-bit scalar offset (MUBUF/MTBUF soffset): registers and constants;
 * false for the encodings LLVM rejects. */
bool wl_mem_soffset(wl_operand *o, unsigned enc);

/* Prints the mnemonic and the operands (dst, then src) in LLVM's syntax.
 * nsa_slot: index of the src operand printed as the NSA address list, or -1. */
void wl_mem_print_ops(const wl_inst *inst, wl_sb *sb, int nsa_slot);
/* " glc slc dlc" as set. */
void wl_mem_print_cpol(const wl_inst *inst, wl_sb *sb);

wl_status wl_mem_decode_ds(const wl_decoder *d, const uint32_t *w, size_t nwords, wl_inst *inst);
wl_status wl_mem_decode_mubuf(const wl_decoder *d, const uint32_t *w, size_t nwords, wl_inst *inst);
wl_status wl_mem_decode_mtbuf(const wl_decoder *d, const uint32_t *w, size_t nwords, wl_inst *inst);
wl_status wl_mem_decode_flat(const wl_decoder *d, const uint32_t *w, size_t nwords, wl_inst *inst);
wl_status wl_mem_decode_mimg(const wl_decoder *d, const uint32_t *w, size_t nwords, wl_inst *inst);

void wl_mem_print_ds(const wl_inst *inst, wl_sb *sb);
void wl_mem_print_buf(const wl_inst *inst, wl_sb *sb);
void wl_mem_print_flat(const wl_inst *inst, wl_sb *sb);
void wl_mem_print_mimg(const wl_inst *inst, wl_sb *sb);

#endif
