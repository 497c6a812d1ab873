/* Image (MIMG) loads, stores and atomics through guest memory.
 *
 * An image whose T# says it is laid out linearly (SW_MODE 0) is plain guest
 * memory: texel (x, y) of level 0 is at base + (y * pitch + x) * bytes per
 * texel. image_load(_mip), image_store(_mip) and image_atomic_* are lifted
 * as the wl.load/store/atomic.global calls of that address, with the
 * format conversions of the buffer format instructions (lift_mem_fmt.c:
 * the T#'s FORMAT is gfx10's unified format, read at run time like a
 * V#'s), the T#'s DST_SEL swizzle on loads, DMASK packing and the d16
 * forms. So a dispatch needs no host image, both models carry it, and the
 * result is the hardware's bit for bit where the format is modelled.
 *
 * T# words used (gfx10.3; Mesa's gfx10-rsrc.json): 0 BASE_ADDRESS (bits
 * 39:8 of the address), 1 [7:0] BASE_ADDRESS_HI, [28:20] FORMAT, [31:30]
 * WIDTH-1 bits 1:0, 2 [11:0] WIDTH-1 bits 13:2, [27:14] HEIGHT-1, 3
 * [11:0] DST_SEL_X..W, [15:12] BASE_LEVEL, [19:16] LAST_LEVEL, [24:20]
 * SW_MODE, [31:28] TYPE, 4 [13:0] PITCH-1 (1-D and 2-D images: the row
 * pitch where it is above the width, else the width aligned to 256 bytes,
 * AddrLib's linear rule), [28:16] BASE_ARRAY.
 *
 * Per lane (EXEC): a TYPE below 8 (a null descriptor) or a coordinate
 * outside the image (x >= width, y >= height; the level past LAST_LEVEL)
 * reads 0 and writes nothing, as the hardware's range check does. What
 * this lifting does not model records WL_ESC_INSTRUCTION for the lanes
 * that reach it (docs/escapes.md), never a guessed result: a swizzled
 * (tiled) SW_MODE, a TYPE other than the instruction's DIM, a level other
 * than 0 or an image of several levels (word 3 LAST_LEVEL or word 5 [7:4]
 * MAX_MIP above 0: AddrLib lays a linear image's levels out smallest
 * first), a slice or 3-D depth other than 0 or a BASE_ARRAY other than 0,
 * a FORMAT lift_mem_fmt.c does not model (the image-only formats: sRGB,
 * block-compressed, ...), a reserved DST_SEL; stores: a DST_SEL that is
 * not the identity, a packed format, a UINT/SINT value the component
 * cannot hold; atomics: a format other than one 32-bit component. A store
 * writes the format's components past DMASK as 0.
 *
 * Point samples (image_sample, _l, _lz, _b, _cl, _d, _cd, _g16, _o; 1-D
 * and 2-D, 32-bit coordinates) read the texel a point-filtered sample of
 * a one-level image reads, as image_load does: the S# (4 words) gives the
 * addressing modes (word 0 CLAMP_X [2:0], CLAMP_Y [5:3]), FORCE_UNNORMALIZED
 * [15] (or the instruction's UNRM) and the filters (word 2 XY_MAG_FILTER
 * [21:20], XY_MIN_FILTER [23:22], word 0 MAX_ANISO_RATIO [11:9],
 * FORCE_DEGAMMA [20]); with POINT filters and one level the LOD cannot
 * change the texel, so the LOD forms are one. Escapes (img_sample): a
 * filter other than POINT, anisotropy, degamma, a border mode's texel
 * outside the image, unnormalized coordinates with a wrap or mirror mode,
 * a coordinate within 1/64 of a texel of a texel boundary (the hardware
 * picks the texel from a fixed-point coordinate whose rounding is not
 * modelled) unless it is exactly on one and exact (unnormalized, or a size
 * that is a power of two), NaN, infinite or beyond 16,384 texels.
 *
 * Gathers (image_gather4 and its LOD and offset forms, 2-D): the one
 * component DMASK names of the four texels of the bilinear footprint,
 * each addressed by the S#'s modes, with the same escapes but the
 * filters' (a gather filters nothing).
 *
 * Refused by name at translation: depth-compare samples and gathers (_c),
 * a16, samples of 3-D, cube and array images, gathers of other than 2-D,
 * image_get_resinfo, image_get_lod, the _pck forms, MSAA dims, tfe/lwe,
 * r128, BVH. */
#include "lift_mem_cas.h"
#include "lift_mem_fmt.h"
#include "lift_mem_internal.h"
#include "ir/wave_ir.h"

#include <string.h>

enum { DIM_1D, DIM_2D, DIM_3D, DIM_CUBE, DIM_1D_ARRAY, DIM_2D_ARRAY, DIM_2D_MSAA, DIM_2D_MSAA_ARRAY };

/* Coordinates an address has for a DIM (x, y, slice or z) */
static const unsigned dim_coords[8] = {1, 2, 3, 3, 2, 3, 3, 4};

typedef struct img_access {
    LLVMValueRef act;   /* EXEC */
    LLVMValueRef live;  /* act, a valid TYPE and every coordinate inside the image */
    LLVMValueRef bad;   /* live and something this lifting does not model (an escape) */
    LLVMValueRef addr;  /* i64: the texel's first byte */
    LLVMValueRef entry, bits, comps, nf, pk, lay; /* the format (lift_mem_fmt.h) */
    LLVMValueRef bpt;   /* bytes a texel: 1, 2, 4, 8 or 16 (others escape) */
    LLVMValueRef w3;    /* T# word 3 (DST_SEL) */
} img_access;


static LLVMValueRef ne(wl_lifter *L, LLVMValueRef a, uint32_t c)
{
    return LLVMBuildICmp(L->b, LLVMIntNE, a, wl_l_i32c(L, c), "");
}


/* Address component i (the coordinates, then the mip level): a VGPR, or
 * a 16-bit half of one (a16: the components packed two a VGPR, low half
 * first) */
static LLVMValueRef addr_comp(wl_lifter *L, const wl_mem_fields *m, unsigned i)
{
    if (!m->a16)
        return wl_l_get_v32(L, m->vaddr[i]);
    LLVMValueRef v = wl_l_get_v32(L, m->vaddr[i / 2]);
    return (i & 1) ? LLVMBuildLShr(L->b, v, wl_l_i32c(L, 16), "") : LLVMBuildAnd(L->b, v, wl_l_i32c(L, 0xffff), "");
}

/* The T#'s fields this lifting reads (the header's list) */
typedef struct tsharp {
    LLVMValueRef base, fmt, width, height, w3, base_level, last_level, sw_mode, type, pitch, base_array, max_mip;
} tsharp;

/* The T# in s[t:t+7] */
static void tsharp_read(wl_lifter *L, unsigned t, tsharp *T)
{
    LLVMBuilderRef b = L->b;
    LLVMValueRef w[8];
    for (unsigned i = 0; i < 8; i++)
        w[i] = wl_l_get_s32(L, t + i);
    LLVMValueRef base = LLVMBuildOr(b, LLVMBuildZExt(b, w[0], L->i64, ""),
                                    LLVMBuildShl(b, LLVMBuildZExt(b, wl_lm_field(L, w[1], 0, 0xff), L->i64, ""),
                                                 wl_l_i64c(L, 32), ""), "");
    T->base = LLVMBuildShl(b, base, wl_l_i64c(L, 8), "");
    T->fmt = wl_lm_field(L, w[1], 20, 0x1ff);
    T->width = LLVMBuildAdd(b, LLVMBuildOr(b, wl_lm_field(L, w[1], 30, 3),
                                           LLVMBuildShl(b, wl_lm_field(L, w[2], 0, 0xfff), wl_l_i32c(L, 2), ""), ""),
                            wl_l_i32c(L, 1), "");
    T->height = LLVMBuildAdd(b, wl_lm_field(L, w[2], 14, 0x3fff), wl_l_i32c(L, 1), "");
    T->w3 = w[3];
    T->base_level = wl_lm_field(L, w[3], 12, 15);
    T->last_level = wl_lm_field(L, w[3], 16, 15);
    T->sw_mode = wl_lm_field(L, w[3], 20, 0x1f);
    T->type = wl_lm_field(L, w[3], 28, 15);
    T->pitch = LLVMBuildAdd(b, wl_lm_field(L, w[4], 0, 0x3fff), wl_l_i32c(L, 1), "");
    T->base_array = wl_lm_field(L, w[4], 16, 0x1fff);
    T->max_mip = wl_lm_field(L, w[5], 4, 15);
}

/* The texel (x, y, z) of level lod of the T#: its address and the lane's
 * state */
static void place(wl_lifter *L, const wl_inst *in, const tsharp *T, LLVMValueRef x, LLVMValueRef y, LLVMValueRef z,
                  LLVMValueRef lod, img_access *A)
{
    LLVMBuilderRef b = L->b;
    const wl_mem_fields *m = &in->f.m;
    A->w3 = T->w3;
    A->act = wl_l_active(L);
    /* the hardware's range check: 0 read, nothing written */
    LLVMValueRef valid = LLVMBuildICmp(b, LLVMIntUGE, T->type, wl_l_i32c(L, 8), "");
    LLVMValueRef inside = LLVMBuildICmp(b, LLVMIntULT, x, T->width, "");
    if (m->dim != DIM_1D && m->dim != DIM_1D_ARRAY)
        inside = LLVMBuildAnd(b, inside, LLVMBuildICmp(b, LLVMIntULT, y, T->height, ""), "");
    LLVMValueRef levels = LLVMBuildSub(b, T->last_level, T->base_level, "");
    inside = LLVMBuildAnd(b, inside, LLVMBuildICmp(b, LLVMIntULE, lod, levels, ""), "");
    A->live = LLVMBuildAnd(b, A->act, LLVMBuildAnd(b, valid, inside, ""), "");

    /* what is not modelled */
    A->entry = wl_bfmt_entry(L, LLVMBuildAnd(b, T->fmt, wl_l_i32c(L, 0x7f), ""));
    wl_bfmt_fields(L, A->entry, &A->bits, &A->comps, &A->nf);
    wl_bfmt_packed(L, A->entry, &A->pk, &A->lay);
    LLVMValueRef bad = LLVMBuildOr(b, ne(L, T->type, 8u + m->dim), ne(L, T->sw_mode, 0), "");
    bad = LLVMBuildOr(b, bad, LLVMBuildICmp(b, LLVMIntUGT, T->fmt, wl_l_i32c(L, 0x7f), ""), "");
    bad = LLVMBuildOr(b, bad, LLVMBuildICmp(b, LLVMIntEQ, A->entry, wl_l_i32c(L, 0), ""), "");
    bad = LLVMBuildOr(b, bad, LLVMBuildOr(b, ne(L, LLVMBuildAdd(b, T->base_level, lod, ""), 0), ne(L, z, 0), ""), "");
    /* a linear image of several levels keeps the smallest first (AddrLib):
     * level 0 is not at the base then */
    bad = LLVMBuildOr(b, bad, LLVMBuildOr(b, ne(L, T->last_level, 0), ne(L, T->max_mip, 0), ""), "");
    if (m->dim != DIM_1D && m->dim != DIM_2D)
        bad = LLVMBuildOr(b, bad, ne(L, T->base_array, 0), "");
    /* bytes a texel: a packed format one word, else its components (a
     * size that is not a power of two, 32_32_32, is a buffer format) */
    LLVMValueRef bpt = LLVMBuildSelect(b, A->pk, wl_l_i32c(L, 4),
                                       LLVMBuildMul(b, LLVMBuildLShr(b, A->bits, wl_l_i32c(L, 3), ""), A->comps, ""), "");
    A->bpt = bpt;
    bad = LLVMBuildOr(b, bad, ne(L, LLVMBuildAnd(b, bpt, LLVMBuildSub(b, bpt, wl_l_i32c(L, 1), ""), ""), 0), "");
    A->bad = LLVMBuildAnd(b, A->live, bad, "");

    /* the row pitch: PITCH where it is above the width (gfx10.3 reads it
     * only then), else the width aligned to 256 bytes (AddrLib's linear
     * rule; RADV leaves PITCH 0) */
    LLVMValueRef align = LLVMBuildUDiv(b, wl_l_i32c(L, 256), LLVMBuildSelect(b, ne(L, bpt, 0), bpt, wl_l_i32c(L, 1), ""), "");
    LLVMValueRef up = LLVMBuildAnd(b, LLVMBuildAdd(b, T->width, LLVMBuildSub(b, align, wl_l_i32c(L, 1), ""), ""),
                                   LLVMBuildNeg(b, align, ""), "");
    LLVMValueRef pitch = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, T->pitch, T->width, ""), T->pitch, up, "");
    LLVMValueRef row = LLVMBuildMul(b, LLVMBuildZExt(b, y, L->i64, ""), LLVMBuildZExt(b, pitch, L->i64, ""), "");
    LLVMValueRef texel = LLVMBuildAdd(b, row, LLVMBuildZExt(b, x, L->i64, ""), "");
    A->addr = LLVMBuildAdd(b, T->base, LLVMBuildMul(b, texel, LLVMBuildZExt(b, bpt, L->i64, ""), ""), "");
}

/* The T# in s[t:t+7], the address the instruction's coordinates name and
 * the lane's state */
static void setup(wl_lifter *L, const wl_inst *in, unsigned t, bool mip, img_access *A)
{
    const wl_mem_fields *m = &in->f.m;
    tsharp T;
    tsharp_read(L, t, &T);
    unsigned nc = dim_coords[m->dim];
    LLVMValueRef x = addr_comp(L, m, 0);
    LLVMValueRef y = nc >= 2 && m->dim != DIM_1D_ARRAY ? addr_comp(L, m, 1) : wl_l_i32c(L, 0);
    LLVMValueRef z = m->dim == DIM_1D_ARRAY ? addr_comp(L, m, 1) : nc >= 3 ? addr_comp(L, m, 2) : wl_l_i32c(L, 0);
    LLVMValueRef lod = mip ? addr_comp(L, m, nc) : wl_l_i32c(L, 0);
    place(L, in, &T, x, y, z, lod, A);
}

/* i1: not modelled nor out of range: the lanes that access memory */
static LLVMValueRef go(wl_lifter *L, const img_access *A)
{
    return LLVMBuildAnd(L->b, A->live, LLVMBuildNot(L->b, A->bad, ""), "");
}

/* The texel's bytes as dwords t[0..3] (zero past the texel): one access
 * per dword of a 4-, 8- or 16-byte texel, one b16 or b8 access for a 2- or
 * 1-byte one, where g holds */
static void load_texel(wl_lifter *L, const img_access *A, LLVMValueRef g, LLVMValueRef t[4])
{
    LLVMBuilderRef b = L->b;
    for (unsigned j = 0; j < 4; j++) {
        LLVMValueRef a = wl_lm_addr_add(L, A->addr, 4 * j);
        LLVMValueRef whole = LLVMBuildAnd(b, g, LLVMBuildICmp(b, LLVMIntUGT, A->bpt, wl_l_i32c(L, 4 * j), ""), "");
        if (j == 0)
            whole = LLVMBuildAnd(b, g, LLVMBuildICmp(b, LLVMIntUGE, A->bpt, wl_l_i32c(L, 4), ""), "");
        t[j] = wl_lm_load(L, WL_SPACE_GLOBAL, 32, a, whole);
        if (j)
            continue;
        for (unsigned w = 8; w <= 16; w *= 2) {
            LLVMValueRef gw = LLVMBuildAnd(b, g, LLVMBuildICmp(b, LLVMIntEQ, A->bpt, wl_l_i32c(L, w / 8), ""), "");
            t[0] = LLVMBuildOr(b, t[0], wl_lm_load(L, WL_SPACE_GLOBAL, w, a, gw), "");
        }
    }
}

/* Where component i lies in the texel's dwords: dword *dw (0..3), bit
 * *sh, and the mask of its bits (a packed format: the whole first dword) */
static void comp_place(wl_lifter *L, const img_access *A, unsigned i, LLVMValueRef *dw, LLVMValueRef *sh,
                       LLVMValueRef *mask)
{
    LLVMBuilderRef b = L->b;
    LLVMValueRef off = LLVMBuildMul(b, LLVMBuildLShr(b, A->bits, wl_l_i32c(L, 3), ""), wl_l_i32c(L, i), "");
    off = LLVMBuildSelect(b, A->pk, wl_l_i32c(L, 0), off, "");
    *dw = LLVMBuildLShr(b, off, wl_l_i32c(L, 2), "");
    *sh = LLVMBuildShl(b, LLVMBuildAnd(b, off, wl_l_i32c(L, 3), ""), wl_l_i32c(L, 3), "");
    LLVMValueRef narrow = LLVMBuildSub(b, LLVMBuildShl(b, wl_l_i32c(L, 1), A->bits, ""), wl_l_i32c(L, 1), "");
    *mask = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGE, A->bits, wl_l_i32c(L, 32), ""), wl_l_i32c(L, 0xffffffffu),
                            narrow, "");
}

/* t[dw] (dw 0..3) */
static LLVMValueRef pick(wl_lifter *L, LLVMValueRef const t[4], LLVMValueRef dw)
{
    LLVMValueRef r = t[0];
    for (unsigned j = 1; j < 4; j++)
        r = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, dw, wl_l_i32c(L, j), ""), t[j], r, "");
    return r;
}

/* The four components of a texel's dwords t[0..3] in the format A names
 * (a component the format lacks: 0, or 1 for w), as 32-bit values or (d16)
 * halves: the body of texel_sel's conversion. */
static void convert_body(wl_lifter *L, const img_access *A, LLVMValueRef const t[4], unsigned d16, LLVMValueRef comp[4])
{
    LLVMBuilderRef b = L->b;
    for (unsigned i = 0; i < 4; i++) {
        LLVMValueRef has = LLVMBuildICmp(b, LLVMIntULT, wl_l_i32c(L, i), A->comps, "");
        LLVMValueRef dw, sh, mask;
        comp_place(L, A, i, &dw, &sh, &mask);
        LLVMValueRef raw = LLVMBuildAnd(b, LLVMBuildLShr(b, pick(L, t, dw), sh, ""), mask, "");
        LLVMValueRef pw, ps;
        wl_bfmt_packed_field(L, A->lay, i, &pw, &ps);
        LLVMValueRef pmask = LLVMBuildSub(b, LLVMBuildShl(b, wl_l_i32c(L, 1), pw, ""), wl_l_i32c(L, 1), "");
        raw = LLVMBuildSelect(b, A->pk, LLVMBuildAnd(b, LLVMBuildLShr(b, raw, ps, ""), pmask, ""), raw, "");
        LLVMValueRef val = wl_bfmt_to32(L, raw, LLVMBuildSelect(b, A->pk, pw, A->bits, ""), A->nf);
        if (d16)
            val = wl_bfmt_to16(L, val, raw, A->bits, A->nf);
        LLVMValueRef one = d16 ? wl_bfmt_one16(L, A->nf) : wl_bfmt_one(L, A->nf);
        comp[i] = LLVMBuildSelect(b, has, val, i == 3 ? one : wl_l_i32c(L, 0), "");
    }
}

/* texel_sel's conversion as a call of one function a module (and its d16
 * form), @wl_pure.img_texel (docs/wave-ir.md): each image access converts
 * whatever format its T# names at run time (about 150 LLVM instructions),
 * so a program of several accesses, or a gather (four texels), or a lane
 * clone each, carried the whole conversion every time. Pure (memory(none)), so
 * every model treats the call as arithmetic on its operands (the lanes
 * model clones it, the wave model puts it in lane loops) and the backend
 * emits the function once (OpFunction, an OpFunctionCall a use). A program
 * of one conversion, or two of one T#, keeps it inline (measured: the call
 * cost 1 to 4% more words there; wl_lift_img_texel_call). */
static void texel_convert(wl_lifter *L, const img_access *A, LLVMValueRef const t[4], unsigned d16, LLVMValueRef comp[4])
{
    const char *name = d16 ? "wl_pure.img_texel.d16" : "wl_pure.img_texel";
    LLVMTypeRef v4 = LLVMVectorType(L->i32, 4);
    LLVMTypeRef ps[9] = {L->i32, L->i32, L->i32, L->i32, L->i32, L->i32, L->i32, L->i1, L->i32};
    LLVMTypeRef fty = LLVMFunctionType(v4, ps, 9, 0);
    LLVMValueRef f = LLVMGetNamedFunction(L->mod, name);
    if (!f) {
        f = LLVMAddFunction(L->mod, name, fty);
        LLVMSetLinkage(f, LLVMInternalLinkage);
        static const char *const attrs[] = {"noinline", "nounwind", "willreturn", "nosync", "nofree", "memory"};
        for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
            unsigned kind = LLVMGetEnumAttributeKindForName(attrs[i], strlen(attrs[i]));
            /* memory(none): the value 0 (no location read or written) */
            if (kind)
                LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(L->ctx, kind, 0));
        }
        LLVMBuilderRef outer = L->b;
        L->b = LLVMCreateBuilderInContext(L->ctx);
        LLVMPositionBuilderAtEnd(L->b, LLVMAppendBasicBlockInContext(L->ctx, f, "entry"));
        img_access P = {0};
        LLVMValueRef pt[4];
        for (unsigned j = 0; j < 4; j++)
            pt[j] = LLVMGetParam(f, j);
        P.bits = LLVMGetParam(f, 4);
        P.comps = LLVMGetParam(f, 5);
        P.nf = LLVMGetParam(f, 6);
        P.pk = LLVMGetParam(f, 7);
        P.lay = LLVMGetParam(f, 8);
        LLVMValueRef c[4], r = LLVMGetUndef(v4);
        convert_body(L, &P, pt, d16, c);
        for (unsigned j = 0; j < 4; j++)
            r = LLVMBuildInsertElement(L->b, r, c[j], wl_l_i32c(L, j), "");
        LLVMBuildRet(L->b, r);
        LLVMDisposeBuilder(L->b);
        L->b = outer;
    }
    LLVMValueRef args[9] = {t[0], t[1], t[2], t[3], A->bits, A->comps, A->nf, A->pk, A->lay};
    LLVMValueRef r = LLVMBuildCall2(L->b, fty, f, args, 9, "");
    for (unsigned j = 0; j < 4; j++)
        comp[j] = LLVMBuildExtractElement(L->b, r, wl_l_i32c(L, j), "");
}

/* The texels an image instruction converts (name without "image_"): a
 * load or sample one, a gather four, others none */
static unsigned texels_of(const char *n)
{
    return !strncmp(n, "gather4", 7) ? 4 : !strncmp(n, "sample", 6) || !strncmp(n, "load", 4) ? 1 : 0;
}

/* Called conversions pay where a program converts three or more texels,
 * or two through different T# registers; two of one T# stay inline (LLVM
 * shares their T#-derived values there; called, they were 1 to 4% larger:
 * docs/benchmarks.md). The T# is src[1] of the converting forms. */
int wl_lift_img_texel_call(const wl_inst *insts, size_t ninsts)
{
    unsigned n = 0, first_t = 0, other_t = 0;
    for (size_t i = 0; i < ninsts; i++) {
        const wl_inst *in = &insts[i];
        unsigned c = strncmp(in->name, "image_", 6) ? 0 : texels_of(in->name + 6);
        if (!c || in->nsrc < 2)
            continue;
        unsigned t = in->src[1].index + 1;
        if (!first_t)
            first_t = t;
        else if (t != first_t)
            other_t = 1;
        n += c;
    }
    return n >= 3 || (n == 2 && other_t);
}

/* The texel A names read and converted: the components DMASK selects,
 * after DST_SEL, in res[0..*n) (loads, samples, gathers); A->bad gains what
 * is not modelled */
static void texel_sel(wl_lifter *L, const wl_inst *in, img_access *A, unsigned dmask, LLVMValueRef res[4], unsigned *n)
{
    LLVMBuilderRef b = L->b;
    unsigned d16 = in->f.m.d16;
    LLVMValueRef g = go(L, A);
    if (d16)
        A->bad = LLVMBuildOr(b, A->bad, LLVMBuildAnd(b, A->live, LLVMBuildNot(b, wl_bfmt_d16_ok_v(L, A->bits, A->nf, A->pk, false), ""), ""), "");
    LLVMValueRef t[4], comp[4];
    load_texel(L, A, g, t);
    if (L->texel_call)
        texel_convert(L, A, t, d16, comp);
    else
        convert_body(L, A, t, d16, comp);
    /* DST_SEL: 0 zero, 1 one, 4..7 x..w; 2 and 3 are reserved */
    LLVMValueRef badsel = LLVMConstInt(L->i1, 0, 0);
    *n = 0;
    for (unsigned c = 0; c < 4; c++) {
        if (!((dmask >> c) & 1))
            continue;
        LLVMValueRef one = d16 ? wl_bfmt_one16(L, A->nf) : wl_bfmt_one(L, A->nf);
        LLVMValueRef r = wl_bfmt_dst_sel(L, A->w3, c, one, comp, &badsel);
        /* a lane out of range (or of a null descriptor) reads 0 */
        res[(*n)++] = LLVMBuildSelect(b, g, r, wl_l_i32c(L, 0), "");
    }
    A->bad = LLVMBuildOr(b, A->bad, LLVMBuildAnd(b, A->live, badsel, ""), "");
}

/* res[0..n) into VDATA: a dword each, or (d16) two halves a dword */
static void write_vdata(wl_lifter *L, const wl_inst *in, LLVMValueRef const res[4], unsigned n)
{
    LLVMBuilderRef b = L->b;
    unsigned d = in->dst[0].index;
    if (!in->f.m.d16) {
        for (unsigned c = 0; c < n; c++)
            wl_l_set_v32(L, d + c, res[c]);
        return;
    }
    for (unsigned c = 0; c < n; c += 2) {
        LLVMValueRef lo = LLVMBuildAnd(b, res[c], wl_l_i32c(L, 0xffff), "");
        LLVMValueRef hi = c + 1 < n ? LLVMBuildShl(b, res[c + 1], wl_l_i32c(L, 16), "")
                                    : LLVMBuildAnd(b, wl_l_get_v32(L, d + c / 2), wl_l_i32c(L, 0xffff0000u), "");
        wl_l_set_v32(L, d + c / 2, LLVMBuildOr(b, lo, hi, ""));
    }
}

/* A load's or a sample's result: the texel A names into VDATA */
static wl_status load_result(wl_lifter *L, const wl_inst *in, img_access *A)
{
    LLVMValueRef res[4];
    unsigned n;
    texel_sel(L, in, A, in->f.m.dmask, res, &n);
    wl_lm_escape_if(L, in, A->bad);
    write_vdata(L, in, res, n);
    return WL_OK;
}

static wl_status img_load(wl_lifter *L, const wl_inst *in, bool mip)
{
    img_access A;
    setup(L, in, in->src[1].index, mip, &A);
    return load_result(L, in, &A);
}

static LLVMValueRef f32c(wl_lifter *L, float f)
{
    return LLVMConstReal(L->f32, f);
}

/* the overloaded intrinsic `name` of a's type, applied to a (and c) */
static LLVMValueRef intrin1(wl_lifter *L, const char *name, LLVMValueRef a)
{
    LLVMTypeRef t = LLVMTypeOf(a);
    return wl_l_intrin(L, name, &t, 1, &a, 1);
}

static LLVMValueRef intrin2(wl_lifter *L, const char *name, LLVMValueRef a, LLVMValueRef c)
{
    LLVMTypeRef t = LLVMTypeOf(a);
    LLVMValueRef args[2] = {a, c};
    return wl_l_intrin(L, name, &t, 1, args, 2);
}

/* i mod n, 0 .. n - 1 (n > 0) */
static LLVMValueRef pmod(wl_lifter *L, LLVMValueRef i, LLVMValueRef n)
{
    LLVMBuilderRef b = L->b;
    LLVMValueRef r = LLVMBuildSRem(b, i, n, "");
    return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, r, wl_l_i32c(L, 0), ""), LLVMBuildAdd(b, r, n, ""), r, "");
}

/* Texel i of an axis of `size` texels under the S#'s CLAMP mode: 0 WRAP,
 * 1 MIRROR, 2 CLAMP_LAST_TEXEL, 3 MIRROR_ONCE_LAST_TEXEL; the border modes
 * (4 to 7) where i is inside, else *bad (a border colour); unnormalized
 * coordinates only with the clamps (2, 4, 6), else *bad */
static LLVMValueRef address(wl_lifter *L, LLVMValueRef i, LLVMValueRef size, LLVMValueRef mode, LLVMValueRef unnorm,
                            LLVMValueRef *bad)
{
    LLVMBuilderRef b = L->b;
    LLVMValueRef last = LLVMBuildSub(b, size, wl_l_i32c(L, 1), "");
    LLVMValueRef size2 = LLVMBuildShl(b, size, wl_l_i32c(L, 1), "");
    LLVMValueRef clamped = intrin2(L, "llvm.smax", intrin2(L, "llvm.smin", i, last), wl_l_i32c(L, 0));
    LLVMValueRef wrap = pmod(L, i, size);
    LLVMValueRef m2 = pmod(L, i, size2);
    LLVMValueRef mirror = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, m2, size, ""), m2,
                                          LLVMBuildSub(b, LLVMBuildSub(b, size2, wl_l_i32c(L, 1), ""), m2, ""), "");
    LLVMValueRef once = intrin2(L, "llvm.smin", LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, i, wl_l_i32c(L, 0), ""),
                                               LLVMBuildSub(b, wl_l_i32c(L, -1), i, ""), i, ""), last);
    LLVMValueRef r = i;
    LLVMValueRef by[4] = {wrap, mirror, clamped, once};
    for (unsigned k = 0; k < 4; k++)
        r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, mode, wl_l_i32c(L, k), ""), by[k], r, "");
    LLVMValueRef outside = LLVMBuildICmp(b, LLVMIntUGE, r, size, "");
    LLVMValueRef border = LLVMBuildICmp(b, LLVMIntUGE, mode, wl_l_i32c(L, 4), "");
    LLVMValueRef odd = ne(L, LLVMBuildAnd(b, mode, wl_l_i32c(L, 1), ""), 0);
    LLVMValueRef un_bad = LLVMBuildAnd(b, unnorm, LLVMBuildOr(b, odd, LLVMBuildICmp(b, LLVMIntEQ, mode, wl_l_i32c(L, 0), ""), ""), "");
    *bad = LLVMBuildOr(b, *bad, LLVMBuildOr(b, LLVMBuildAnd(b, border, outside, ""), un_bad, ""), "");
    return r;
}

/* The first texel along one axis of `size` texels that coordinate f
 * (float bits) selects, before addressing: floor(u) for a point sample,
 * floor(u - 1/2) for a gather's footprint (half), u = f * size or
 * (unnormalized) f, plus the _o offset; *bad gains the lanes whose texel
 * this lifting cannot tell for certain */
static LLVMValueRef axis_first(wl_lifter *L, LLVMValueRef f, LLVMValueRef size, LLVMValueRef unnorm, bool half,
                               LLVMValueRef offset, LLVMValueRef *bad)
{
    LLVMBuilderRef b = L->b;
    LLVMTypeRef ft = L->f32;
    LLVMValueRef c = LLVMBuildBitCast(b, f, ft, "");
    LLVMValueRef sizef = LLVMBuildUIToFP(b, size, ft, "");
    LLVMValueRef u = LLVMBuildSelect(b, unnorm, c, LLVMBuildFMul(b, c, sizef, ""), "");
    if (half)
        u = LLVMBuildFSub(b, u, f32c(L, 0.5f), "");
    LLVMValueRef fl = intrin1(L, "llvm.floor", u);
    LLVMValueRef fr = LLVMBuildFSub(b, u, fl, "");
    /* The hardware turns the coordinate into fixed point before it picks
     * the texel (at least 8 bits below the texel: D3D's minimum); a texel
     * boundary within 1/64 of a texel of it could go either way. Exact on
     * a boundary is the texel above it, where u is exact: unnormalized, or
     * a size that is a power of two (the product is then exact). */
    LLVMValueRef pow2 = LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildAnd(b, size, LLVMBuildSub(b, size, wl_l_i32c(L, 1), ""), ""),
                                      wl_l_i32c(L, 0), "");
    LLVMValueRef exact = LLVMBuildOr(b, unnorm, pow2, "");
    LLVMValueRef zero = LLVMBuildFCmp(b, LLVMRealOEQ, fr, f32c(L, 0.0f), "");
    LLVMValueRef lo = LLVMBuildAnd(b, LLVMBuildFCmp(b, LLVMRealOLT, fr, f32c(L, 1.0f / 64), ""),
                                   LLVMBuildNot(b, LLVMBuildAnd(b, zero, exact, ""), ""), "");
    LLVMValueRef hi = LLVMBuildFCmp(b, LLVMRealOGT, fr, f32c(L, 1.0f - 1.0f / 64), "");
    /* NaN, infinite, or beyond the largest image: not modelled */
    LLVMValueRef big = LLVMBuildNot(b, LLVMBuildFCmp(b, LLVMRealOLT, intrin1(L, "llvm.fabs", u), f32c(L, 16384.0f), ""), "");
    *bad = LLVMBuildOr(b, *bad, LLVMBuildOr(b, LLVMBuildOr(b, lo, hi, ""), big, ""), "");
    LLVMValueRef i = LLVMBuildFPToSI(b, LLVMBuildSelect(b, big, f32c(L, 0.0f), fl, ""), L->i32, "");
    return offset ? LLVMBuildAdd(b, i, offset, "") : i;
}

/* What samples and gathers share: the operands (sfx, the mnemonic after
 * "sample" or "gather4"), the T#, the S#'s unnormalized bit and modes */
typedef struct samp_op {
    tsharp T;
    LLVMValueRef unnorm, w0, w2, offs;
    unsigned nc, first;
} samp_op;

static wl_status samp_setup(wl_lifter *L, const wl_inst *in, const char *sfx, samp_op *S)
{
    LLVMBuilderRef b = L->b;
    const wl_mem_fields *m = &in->f.m;
    int has_o = 0, has_lod = (in->info->extra & WL_MIMG_LOD) != 0;
    for (const char *p = sfx; *p == '_';) {
        const char *e = strchr(p + 1, '_');
        size_t len = e ? (size_t)(e - p - 1) : strlen(p + 1);
        if (len == 1 && p[1] == 'c')
            return wl_l_refuse(L, "depth-compare samples and gathers (_c) are not lifted yet");
        if (len == 1 && p[1] == 'o')
            has_o = 1;
        p += 1 + len;
    }
    if (m->a16)
        return wl_l_refuse(L, "a16 samples and gathers (16-bit coordinates) are not lifted yet");
    if (m->dim != DIM_1D && m->dim != DIM_2D)
        return wl_l_refuse(L, "samples and gathers of 3-D, cube and array images are not lifted yet");
    if (in->nsrc < 3 || in->src[1].kind != WL_OPND_SGPR || in->src[2].kind != WL_OPND_SGPR)
        return wl_l_refuse(L, "the T# and S# must be in SGPRs");
    S->nc = dim_coords[m->dim];
    if (m->nvaddr < S->nc + (unsigned)has_lod + (unsigned)has_o)
        return wl_l_refuse(L, "fewer address registers than the instruction's operands");
    S->first = m->nvaddr - S->nc - (unsigned)has_lod;
    tsharp_read(L, in->src[1].index, &S->T);
    S->w0 = wl_l_get_s32(L, in->src[2].index);
    S->w2 = wl_l_get_s32(L, in->src[2].index + 2);
    S->unnorm = LLVMBuildOr(b, LLVMConstInt(L->i1, m->unorm, 0), ne(L, wl_lm_field(L, S->w0, 15, 1), 0), "");
    S->offs = has_o ? addr_comp(L, m, 0) : NULL;
    return WL_OK;
}

/* axis c's _o offset (6-bit signed: x in bits 5:0, y in 13:8), or NULL */
static LLVMValueRef samp_offset(wl_lifter *L, const samp_op *S, unsigned c)
{
    if (!S->offs)
        return NULL;
    return LLVMBuildAShr(L->b, LLVMBuildShl(L->b, S->offs, wl_l_i32c(L, 26 - 8 * c), ""), wl_l_i32c(L, 26), "");
}

/* the lanes whose escape a sample or gather records: every active lane of
 * a valid T# (a border mode's texel outside the image is a colour, not the
 * range check's 0) */
static LLVMValueRef samp_on(wl_lifter *L, const img_access *A, const samp_op *S)
{
    return LLVMBuildAnd(L->b, A->act, LLVMBuildICmp(L->b, LLVMIntUGE, S->T.type, wl_l_i32c(L, 8), ""), "");
}

/* image_sample*: a point sample of a linear image of one level, read as
 * image_load reads it. With both filters POINT and one level, the LOD
 * (implicit, _l, _b, _cl, _d, _cd) cannot change which texel is read, so
 * those forms are one; what needs filtering, a level other than 0, a
 * border colour or a coordinate too near a texel boundary escapes. */
static wl_status img_sample(wl_lifter *L, const wl_inst *in, const char *sfx)
{
    LLVMBuilderRef b = L->b;
    const wl_mem_fields *m = &in->f.m;
    samp_op S;
    wl_status st = samp_setup(L, in, sfx, &S);
    if (st)
        return st;
    /* POINT filters, no anisotropy, no degamma */
    LLVMValueRef bad = LLVMBuildOr(b, ne(L, wl_lm_field(L, S.w2, 20, 15), 0), ne(L, wl_lm_field(L, S.w0, 9, 7), 0), "");
    bad = LLVMBuildOr(b, bad, ne(L, wl_lm_field(L, S.w0, 20, 1), 0), "");
    LLVMValueRef xy[2] = {wl_l_i32c(L, 0), wl_l_i32c(L, 0)};
    for (unsigned c = 0; c < S.nc; c++) {
        LLVMValueRef size = c ? S.T.height : S.T.width;
        LLVMValueRef i = axis_first(L, addr_comp(L, m, S.first + c), size, S.unnorm, false, samp_offset(L, &S, c), &bad);
        xy[c] = address(L, i, size, wl_lm_field(L, S.w0, 3 * c, 7), S.unnorm, &bad);
    }
    img_access A;
    place(L, in, &S.T, xy[0], xy[1], wl_l_i32c(L, 0), wl_l_i32c(L, 0), &A);
    A.bad = LLVMBuildOr(b, A.bad, LLVMBuildAnd(b, samp_on(L, &A, &S), bad, ""), "");
    return load_result(L, in, &A);
}

/* image_gather4*: the four texels of a bilinear footprint (2-D), the one
 * component DMASK names of each, in the order (i0, j1), (i1, j1), (i1, j0),
 * (i0, j0), i0 = floor(u - 1/2), i1 = i0 + 1 (each addressed by the S#'s
 * mode); a gather filters nothing, so the S#'s filters do not matter; the
 * LOD forms are one for an image of one level */
static wl_status img_gather(wl_lifter *L, const wl_inst *in, const char *sfx)
{
    LLVMBuilderRef b = L->b;
    const wl_mem_fields *m = &in->f.m;
    if (m->dim != DIM_2D)
        return wl_l_refuse(L, "gathers of images other than 2-D are not lifted yet");
    if (__builtin_popcount(m->dmask) != 1)
        return wl_l_refuse(L, "a gather whose dmask names other than one component");
    samp_op S;
    wl_status st = samp_setup(L, in, sfx, &S);
    if (st)
        return st;
    LLVMValueRef bad = ne(L, wl_lm_field(L, S.w0, 20, 1), 0); /* degamma */
    LLVMValueRef lohi[2][2];
    for (unsigned c = 0; c < 2; c++) {
        LLVMValueRef size = c ? S.T.height : S.T.width, mode = wl_lm_field(L, S.w0, 3 * c, 7);
        LLVMValueRef i = axis_first(L, addr_comp(L, m, S.first + c), size, S.unnorm, true, samp_offset(L, &S, c), &bad);
        lohi[c][0] = address(L, i, size, mode, S.unnorm, &bad);
        lohi[c][1] = address(L, LLVMBuildAdd(b, i, wl_l_i32c(L, 1), ""), size, mode, S.unnorm, &bad);
    }
    static const unsigned order[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
    LLVMValueRef res[4], all_bad = LLVMConstInt(L->i1, 0, 0);
    for (unsigned k = 0; k < 4; k++) {
        img_access A;
        place(L, in, &S.T, lohi[0][order[k][0]], lohi[1][order[k][1]], wl_l_i32c(L, 0), wl_l_i32c(L, 0), &A);
        unsigned n;
        texel_sel(L, in, &A, m->dmask, &res[k], &n);
        all_bad = LLVMBuildOr(b, all_bad, LLVMBuildOr(b, A.bad, LLVMBuildAnd(b, samp_on(L, &A, &S), bad, ""), ""), "");
    }
    wl_lm_escape_if(L, in, all_bad);
    write_vdata(L, in, res, 4);
    return WL_OK;
}

static wl_status img_store(wl_lifter *L, const wl_inst *in, bool mip)
{
    LLVMBuilderRef b = L->b;
    const wl_mem_fields *m = &in->f.m;
    unsigned d16 = m->d16;
    img_access A;
    setup(L, in, in->src[2].index, mip, &A);
    /* DST_SEL the identity on the format's components; a component past
     * DMASK (x, xy or xyz) is stored as a register value of 0, the
     * "default zero" LLVM's AMDGPU backend relies on when it trims zero
     * components from a store's DMASK (AMDGPUInstCombineIntrinsic.cpp,
     * trimTrailingZerosInVector) */
    LLVMValueRef bad = LLVMConstInt(L->i1, 0, 0);
    for (unsigned c = 0; c < 4; c++) {
        LLVMValueRef used = LLVMBuildICmp(b, LLVMIntULT, wl_l_i32c(L, c), A.comps, "");
        bad = LLVMBuildOr(b, bad, LLVMBuildAnd(b, used, ne(L, wl_lm_field(L, A.w3, 3 * c, 7), 4 + c), ""), "");
    }
    bad = LLVMBuildOr(b, bad, A.pk, "");
    bad = LLVMBuildOr(b, bad, LLVMBuildNot(b, d16 ? wl_bfmt_d16_ok_v(L, A.bits, A.nf, A.pk, true)
                                                  : wl_bfmt_storable_v(L, A.pk, A.nf), ""), "");
    LLVMValueRef val[4], fits = LLVMConstInt(L->i1, 1, 0);
    unsigned v0 = in->src[0].index;
    for (unsigned i = 0; i < 4; i++) {
        LLVMValueRef used = LLVMBuildICmp(b, LLVMIntULT, wl_l_i32c(L, i), A.comps, "");
        if (!((m->dmask >> i) & 1)) { /* 0 in every format's encoding */
            val[i] = wl_l_i32c(L, 0);
        } else if (d16) {
            LLVMValueRef r = wl_l_get_v32(L, v0 + i / 2);
            val[i] = wl_bfmt_from16(L, LLVMBuildLShr(b, r, wl_l_i32c(L, 16 * (i % 2)), ""), A.bits, A.nf);
        } else {
            LLVMValueRef r = wl_l_get_v32(L, v0 + i);
            fits = LLVMBuildAnd(b, fits, LLVMBuildOr(b, LLVMBuildNot(b, used, ""),
                                                     wl_bfmt_int_fits(L, r, A.bits, A.nf), ""), "");
            val[i] = wl_bfmt_from32(L, r, A.bits, A.nf);
        }
    }
    bad = LLVMBuildOr(b, bad, LLVMBuildNot(b, fits, ""), "");
    A.bad = LLVMBuildOr(b, A.bad, LLVMBuildAnd(b, A.live, bad, ""), "");
    wl_lm_escape_if(L, in, A.bad);
    /* the texel's dwords, then one access per dword (b16, b8: a 2- or 1-byte texel) */
    LLVMValueRef t[4] = {wl_l_i32c(L, 0), wl_l_i32c(L, 0), wl_l_i32c(L, 0), wl_l_i32c(L, 0)};
    for (unsigned i = 0; i < 4; i++) {
        LLVMValueRef used = LLVMBuildICmp(b, LLVMIntULT, wl_l_i32c(L, i), A.comps, "");
        LLVMValueRef dw, sh, mask;
        comp_place(L, &A, i, &dw, &sh, &mask);
        LLVMValueRef v = LLVMBuildShl(b, LLVMBuildAnd(b, val[i], mask, ""), sh, "");
        for (unsigned j = 0; j < 4; j++) {
            LLVMValueRef here = LLVMBuildAnd(b, used, LLVMBuildICmp(b, LLVMIntEQ, dw, wl_l_i32c(L, j), ""), "");
            t[j] = LLVMBuildOr(b, t[j], LLVMBuildSelect(b, here, v, wl_l_i32c(L, 0), ""), "");
        }
    }
    LLVMValueRef g = go(L, &A);
    for (unsigned j = 0; j < 4; j++) {
        LLVMValueRef a = wl_lm_addr_add(L, A.addr, 4 * j);
        LLVMValueRef cmpw = j ? LLVMBuildICmp(b, LLVMIntUGT, A.bpt, wl_l_i32c(L, 4 * j), "")
                              : LLVMBuildICmp(b, LLVMIntUGE, A.bpt, wl_l_i32c(L, 4), "");
        wl_lm_store(L, WL_SPACE_GLOBAL, 32, a, t[j], LLVMBuildAnd(b, g, cmpw, ""));
    }
    for (unsigned w = 8; w <= 16; w *= 2)
        wl_lm_store(L, WL_SPACE_GLOBAL, w, A.addr, t[0],
                    LLVMBuildAnd(b, g, LLVMBuildICmp(b, LLVMIntEQ, A.bpt, wl_l_i32c(L, w / 8), ""), ""));
    return WL_OK;
}

static wl_status img_atomic(wl_lifter *L, const wl_inst *in, const char *suffix)
{
    LLVMBuilderRef b = L->b;
    unsigned bits;
    wl_atop at;
    int loop;
    if (!wl_lm_atomic_op(suffix, &bits, &at, &loop) || bits != 32 || loop == 1 + WL_CAS_CSUB)
        return wl_l_refuse(L, "this image atomic is not lifted");
    img_access A;
    setup(L, in, in->src[2].index, false, &A);
    /* one 32-bit component (UINT, SINT or FLOAT: the operation says how it reads the bits) */
    LLVMValueRef bad = LLVMBuildOr(b, ne(L, A.comps, 1), ne(L, A.bits, 32), "");
    bad = LLVMBuildOr(b, bad, A.pk, "");
    A.bad = LLVMBuildOr(b, A.bad, LLVMBuildAnd(b, A.live, bad, ""), "");
    wl_lm_escape_if(L, in, A.bad);
    LLVMValueRef g = go(L, &A);
    unsigned d = in->src[0].index;
    LLVMValueRef val = wl_l_get_v32(L, d), cmp = NULL, old;
    if (at == WL_AT_CMPSWAP || loop)
        cmp = wl_l_get_v32(L, d + 1);
    if (loop)
        old = wl_l_i32c(L, 0); /* out of range: 0; the loop writes the rest */
    else if (at == WL_AT_CMPSWAP)
        old = wl_lm_cmpswap(L, WL_SPACE_GLOBAL, 32, A.addr, cmp, val, g);
    else
        old = wl_lm_atomic(L, WL_SPACE_GLOBAL, at, 32, A.addr, val, g);
    if (in->f.m.glc)
        wl_l_set_v32(L, d, old);
    if (loop)
        wl_lm_cas_loop(L, WL_CAS_FCMPSWAP, WL_SPACE_GLOBAL, 32, A.addr, val, cmp, g, in->f.m.glc ? (int)d : -1);
    return WL_OK;
}

wl_status wl_lift_mem_img(wl_lifter *L, const wl_inst *in)
{
    const char *n = in->name;
    const wl_mem_fields *m = &in->f.m;
    if (strncmp(n, "image_", 6) != 0)
        return wl_l_refuse(L, "this image instruction is not lifted");
    n += 6;

    if (strncmp(n, "bvh", 3) == 0)
        return wl_l_refuse(L, "ray intersection (image_bvh*) is not lifted");
    if (!strcmp(n, "get_resinfo") || !strcmp(n, "get_lod") || !strcmp(n, "msaa_load"))
        return wl_l_refuse(L, "this image query is not lifted yet");
    if (strstr(n, "_pck"))
        return wl_l_refuse(L, "the image _pck forms (no format conversion) are not lifted yet");
    if (m->tfe || m->lwe)
        return wl_l_refuse(L, "tfe/lwe (texture fail and LOD warning) are not lifted");
    if (m->r128)
        return wl_l_refuse(L, "r128 (a 128-bit T#) is not lifted");
    if (m->dim == DIM_2D_MSAA || m->dim == DIM_2D_MSAA_ARRAY)
        return wl_l_refuse(L, "MSAA image accesses are not lifted yet");
    if (in->nsrc < 2 || in->src[in->nsrc - 1].kind != WL_OPND_SGPR)
        return wl_l_refuse(L, "the T# must be in SGPRs");
    if (m->nvaddr < (m->a16 ? (dim_coords[m->dim] + 1) / 2 : dim_coords[m->dim]))
        return wl_l_refuse(L, "fewer address registers than the dim's coordinates");
    if (!strncmp(n, "gather4", 7)) {
        if (!strncmp(n + 7, "h", 1))
            return wl_l_refuse(L, "image_gather4h is not lifted");
        return img_gather(L, in, n + 7);
    }
    if (!strncmp(n, "sample", 6)) {
        if (!m->dmask)
            return wl_l_refuse(L, "an image sample with dmask 0 is not lifted");
        return img_sample(L, in, n + 6);
    }
    if (!strcmp(n, "load") || !strcmp(n, "load_mip")) {
        if (!m->dmask)
            return wl_l_refuse(L, "an image load with dmask 0 is not lifted");
        return img_load(L, in, n[4] == '_');
    }
    if (!strcmp(n, "store") || !strcmp(n, "store_mip")) {
        if (!m->dmask || (m->dmask & (m->dmask + 1)))
            return wl_l_refuse(L, "an image store whose dmask is not x, xy, xyz or xyzw is not lifted");
        return img_store(L, in, n[5] == '_');
    }
    if (!strncmp(n, "atomic_", 7))
        return img_atomic(L, in, n + 7);
    return wl_l_refuse(L, "this image instruction is not lifted");
}
