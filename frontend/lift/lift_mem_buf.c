/* MUBUF and MTBUF (buffer) instructions in the lifter.
 *
 * Operands (mem_internal.h): dst[0] vdata (loads); src: vdata (stores,
 * atomics: a returning atomic (glc) writes the old value back to it),
 * vaddr|off, srsrc (4 SGPRs: the V#), soffset.
 *
 * The V# (gfx10 buffer resource), read at run time (uniform):
 *   w0 base[31:0]   w1 [15:0] base[47:32]  [29:16] stride  [31] swizzle_enable
 *   w2 num_records  w3 [23] add_tid_enable  [29:28] oob_select
 * A linear (unswizzled) access of a lane:
 *   index  = (idxen ? v[vaddr] : 0) + (add_tid_enable ? lane id : 0)
 *   offset = (offen ? v[vaddr + idxen] : 0) + inst_offset
 *   addr   = base + soffset + offset + stride * index      (global memory)
 * and the gfx10 range check per 32-bit piece at offset + 4i (loads of an
 * out-of-range piece read 0, stores of it are dropped; atomics check their
 * one offset), by oob_select:
 *   0: index >= num_records || offset >= stride
 *   1: index >= num_records
 *   2: num_records == 0
 *   3: offset >= num_records
 * (soffset is not range checked.) A swizzled V# is the private segment
 * buffer when base[47:32] is WL_PRIVATE_VSHARP_BASE_HI (wave_ir.h): the
 * access goes to the lane's scratch at (base[31:0] + soffset) / W + offset
 * + stride * v[vaddr] (idxen): base + soffset is a wave-space offset (see
 * setup); other swizzled V#s record WL_ESC_INSTRUCTION.
 * Both ways are emitted, each under its own uniform condition.
 *
 * Format loads and stores (buffer_load/store_format_x..xyzw: the V#'s
 * FORMAT, word 3 [18:12], read at run time; tbuffer_load/store_format_*:
 * the instruction's FORMAT), conversions in lift_mem_fmt.c. An element is
 * the format's components at consecutive addresses (addr as above); each
 * component is range checked on its own (offset + i * size), and an out-of-
 * range one reads 0 before conversion. A load makes the element's four
 * values (components the format lacks: 0, and 1 (or 1.0) for w), then
 * destination register c takes the V#'s dst_sel for c (word 3 [3c+2:3c]:
 * 0 zero, 1 one, 4..7 x..w; 2 and 3 give 0 and record an escape). A store
 * writes component c from register vdata + c (c below the format's
 * component count; the store must give them all) and ignores dst_sel. A
 * format access through the private segment V# (the compilers' spill
 * buffer) records WL_ESC_INSTRUCTION and does nothing. A packed format's
 * element is one 32-bit word (one piece, range checked at the offset),
 * stored once. A UINT/SINT component below 32 bits that cannot hold the
 * register's value records WL_ESC_INSTRUCTION and is not written (packed:
 * the lane's word). A
 * format the lifter does not model (see lift_mem_fmt.c) is refused by
 * name for tbuffer; for buffer_*_format the V#'s format is known only at
 * run time: such lanes record WL_ESC_INSTRUCTION, loads give 0 and stores
 * write nothing. The d16 forms (_d16_x.._d16_xyzw, _d16_hi_x) carry 16-bit
 * components in VGPR halves (lift_mem_fmt.c says which formats are
 * modelled for them; the others escape or, for tbuffer, are refused).
 *
 * Atomics: wl.atomic.global.* under the range check; fcmpswap(_x2) and
 * csub as compare-and-swap loops (lift_mem_cas.c). Refused by name: the
 * lds bit, tfe.
 * buffer_gl0_inv and buffer_gl1_inv are no-ops. */
#include "lift_mem_cas.h"
#include "lift_mem_fmt.h"
#include "lift_mem_internal.h"
#include "ir/wave_ir.h"

#include <string.h>

typedef struct buf_access {
    LLVMValueRef act;       /* EXEC */
    LLVMValueRef lin;       /* i1 uniform: the V# is linear */
    LLVMValueRef prv;       /* i1 uniform: the private segment V# */
    LLVMValueRef bad;       /* i1 uniform: another swizzled V# */
    LLVMValueRef addr;      /* i64: linear address of piece 0 */
    LLVMValueRef lane_off;  /* i32: private segment offset of piece 0 */
    LLVMValueRef offset;    /* i32: the range-checked offset */
    LLVMValueRef idx_oob;   /* i1: index >= num_records (oob 0, 1) */
    LLVMValueRef nr, stride32, oob;
} buf_access;

static LLVMValueRef icmp(wl_lifter *L, LLVMIntPredicate p, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildICmp(L->b, p, a, b, "");
}


/* The operand positions: vdata (stores/atomics) comes first in src. */
static wl_status setup(wl_lifter *L, const wl_inst *in, unsigned first, buf_access *A)
{
    const wl_mem_fields *m = &in->f.m;
    const wl_operand *vaddr = &in->src[first];
    const wl_operand *rsrc = &in->src[first + 1];
    const wl_operand *soff = &in->src[first + 2];
    if (rsrc->kind != WL_OPND_SGPR)
        return wl_l_refuse(L, "the V# must be in SGPRs");
    LLVMValueRef w[4];
    for (unsigned i = 0; i < 4; i++)
        w[i] = wl_l_get_s32(L, rsrc->index + i);
    LLVMValueRef soffset = wl_l_src32(L, soff, WL_IMM_B32);

    A->act = wl_l_active(L);
    LLVMValueRef base_hi = LLVMBuildAnd(L->b, w[1], wl_l_i32c(L, 0xffff), "");
    LLVMValueRef base = LLVMBuildOr(L->b, LLVMBuildZExt(L->b, w[0], L->i64, ""),
                                    LLVMBuildShl(L->b, LLVMBuildZExt(L->b, base_hi, L->i64, ""),
                                                 wl_l_i64c(L, 32), ""), "");
    A->stride32 = wl_lm_field(L, w[1], 16, 0x3fff);
    LLVMValueRef swz = icmp(L, LLVMIntNE, wl_lm_field(L, w[1], 31, 1), wl_l_i32c(L, 0));
    LLVMValueRef is_prv_base = icmp(L, LLVMIntEQ, base_hi, wl_l_i32c(L, WL_PRIVATE_VSHARP_BASE_HI));
    A->lin = LLVMBuildNot(L->b, swz, "");
    A->prv = LLVMBuildAnd(L->b, swz, is_prv_base, "");
    A->bad = LLVMBuildAnd(L->b, swz, LLVMBuildNot(L->b, is_prv_base, ""), "");
    A->nr = w[2];
    A->oob = wl_lm_field(L, w[3], 28, 3);
    LLVMValueRef add_tid = icmp(L, LLVMIntNE, wl_lm_field(L, w[3], 23, 1), wl_l_i32c(L, 0));

    LLVMValueRef vidx = m->idxen ? wl_l_get_v32(L, vaddr->index) : wl_l_i32c(L, 0);
    LLVMValueRef voff = m->offen ? wl_l_get_v32(L, vaddr->index + m->idxen) : wl_l_i32c(L, 0);
    LLVMValueRef lane = wl_l_call(L, "wl.lane_id", L->i32, NULL, 0);
    LLVMValueRef index = LLVMBuildAdd(L->b, vidx,
                                      LLVMBuildSelect(L->b, add_tid, lane, wl_l_i32c(L, 0), ""), "");
    A->offset = LLVMBuildAdd(L->b, voff, wl_l_i32c(L, (uint32_t)m->offset), "");
    LLVMValueRef stride64 = LLVMBuildZExt(L->b, A->stride32, L->i64, "");
    LLVMValueRef a = LLVMBuildAdd(L->b, base, LLVMBuildZExt(L->b, soffset, L->i64, ""), "");
    a = LLVMBuildAdd(L->b, a, LLVMBuildZExt(L->b, A->offset, L->i64, ""), "");
    a = LLVMBuildAdd(L->b, a, LLVMBuildMul(L->b, stride64, LLVMBuildZExt(L->b, index, L->i64, ""), ""), "");
    A->addr = a;
    A->idx_oob = icmp(L, LLVMIntUGE, index, A->nr);

    /* The private segment: base[31:0] + soffset is a wave-space byte
     * offset (the swizzled layout interleaves the lanes' dwords: wave-space
     * byte 4W*e + 4l + b is byte 4e + b of lane l), so a lane's own offset
     * is (base + soffset) / W + offset; compilers keep base + soffset a
     * multiple of 4W (LLVM's stack pointer without flat scratch is the
     * per-lane frame offset times W). Any other value would put the lane's
     * dwords in another lane's segment: the lanes that access it record
     * WL_ESC_INSTRUCTION and access nothing. */
    unsigned lw = L->wave == 64 ? 6 : 5;
    LLVMValueRef wsp = LLVMBuildAdd(L->b, w[0], soffset, "");
    LLVMValueRef wsp_bad = icmp(L, LLVMIntNE, LLVMBuildAnd(L->b, wsp, wl_l_i32c(L, (4u << lw) - 1), ""),
                                wl_l_i32c(L, 0));
    LLVMValueRef lo = LLVMBuildLShr(L->b, wsp, wl_l_i32c(L, lw), "");
    lo = LLVMBuildAdd(L->b, lo, A->offset, "");
    A->lane_off = LLVMBuildAdd(L->b, lo, LLVMBuildMul(L->b, A->stride32, vidx, ""), "");
    LLVMValueRef prv_bad = LLVMBuildAnd(L->b, A->prv, wsp_bad, "");
    A->prv = LLVMBuildAnd(L->b, A->prv, LLVMBuildNot(L->b, wsp_bad, ""), "");

    /* another swizzled V#, or a private one at a misaligned wave offset: an
     * escape for the lanes that would access it */
    wl_lm_escape_if(L, in, LLVMBuildAnd(L->b, A->act, LLVMBuildOr(L->b, A->bad, prv_bad, ""), ""));
    return WL_OK;
}

/* i1: piece at offset + delta (i32) is in range (linear V#). */
static LLVMValueRef in_range_v(wl_lifter *L, const buf_access *A, LLVMValueRef delta)
{
    LLVMValueRef off = LLVMBuildAdd(L->b, A->offset, delta, "");
    LLVMValueRef o0 = LLVMBuildOr(L->b, A->idx_oob, icmp(L, LLVMIntUGE, off, A->stride32), "");
    LLVMValueRef o2 = icmp(L, LLVMIntEQ, A->nr, wl_l_i32c(L, 0));
    LLVMValueRef o3 = icmp(L, LLVMIntUGE, off, A->nr);
    LLVMValueRef sel = A->oob;
    LLVMValueRef r = LLVMBuildSelect(L->b, icmp(L, LLVMIntEQ, sel, wl_l_i32c(L, 0)), o0,
                     LLVMBuildSelect(L->b, icmp(L, LLVMIntEQ, sel, wl_l_i32c(L, 1)), A->idx_oob,
                     LLVMBuildSelect(L->b, icmp(L, LLVMIntEQ, sel, wl_l_i32c(L, 2)), o2, o3, ""), ""), "");
    return LLVMBuildNot(L->b, r, "");
}

static LLVMValueRef in_range(wl_lifter *L, const buf_access *A, uint32_t delta)
{
    return in_range_v(L, A, wl_l_i32c(L, delta));
}

static void pieces_active(wl_lifter *L, const buf_access *A, uint32_t delta, LLVMValueRef *glb,
                          LLVMValueRef *prv)
{
    LLVMValueRef lin = LLVMBuildAnd(L->b, A->act, A->lin, "");
    *glb = LLVMBuildAnd(L->b, lin, in_range(L, A, delta), "");
    *prv = LLVMBuildAnd(L->b, A->act, A->prv, "");
}

static wl_status buf_load(wl_lifter *L, const wl_inst *in, const char *suffix)
{
    wl_xfer x;
    if (!wl_lm_load_suffix(suffix, &x))
        return wl_l_refuse(L, "this buffer load is not lifted");
    buf_access A;
    if (setup(L, in, 0, &A) != WL_OK)
        return WL_ERR_UNSUPPORTED;
    LLVMValueRef v[4];
    for (unsigned i = 0; i < x.dwords; i++) {
        LLVMValueRef g, p;
        pieces_active(L, &A, 4 * i, &g, &p);
        LLVMValueRef lg = wl_lm_load(L, WL_SPACE_GLOBAL, x.bits, wl_lm_addr_add(L, A.addr, 4 * i), g);
        LLVMValueRef lp = wl_lm_load(L, WL_SPACE_SCRATCH, x.bits, wl_lm_addr_add(L, A.lane_off, 4 * i), p);
        v[i] = LLVMBuildOr(L->b, lg, lp, "");
    }
    for (unsigned i = 0; i < x.dwords; i++)
        wl_l_set_v32(L, in->dst[0].index + i, wl_lm_load_value(L, &x, v[i], in->dst[0].index + i));
    return WL_OK;
}

static wl_status buf_store(wl_lifter *L, const wl_inst *in, const char *suffix)
{
    wl_xfer x;
    if (!wl_lm_store_suffix(suffix, &x))
        return wl_l_refuse(L, "this buffer store is not lifted");
    buf_access A;
    if (setup(L, in, 1, &A) != WL_OK)
        return WL_ERR_UNSUPPORTED;
    for (unsigned i = 0; i < x.dwords; i++) {
        LLVMValueRef g, p;
        pieces_active(L, &A, 4 * i, &g, &p);
        LLVMValueRef val = wl_lm_store_value(L, &x, in->src[0].index + i);
        wl_lm_store(L, WL_SPACE_GLOBAL, x.bits, wl_lm_addr_add(L, A.addr, 4 * i), val, g);
        wl_lm_store(L, WL_SPACE_SCRATCH, x.bits, wl_lm_addr_add(L, A.lane_off, 4 * i), val, p);
    }
    return WL_OK;
}

static wl_status buf_atomic(wl_lifter *L, const wl_inst *in, const char *suffix)
{
    unsigned bits;
    wl_atop at;
    int loop; /* fcmpswap(_x2) and csub: compare-and-swap loops (lift_mem_cas.c) */
    if (!wl_lm_atomic_op(suffix, &bits, &at, &loop))
        return wl_l_refuse(L, "this buffer atomic is not lifted");
    buf_access A;
    if (setup(L, in, 1, &A) != WL_OK)
        return WL_ERR_UNSUPPORTED;
    LLVMValueRef g, p;
    pieces_active(L, &A, 0, &g, &p);
    /* scratch has no atomics: an atomic through the private segment V# escapes */
    wl_lm_escape_if(L, in, p);
    unsigned d = in->src[0].index, w = bits / 32;
    LLVMValueRef val = bits == 64 ? wl_l_get_v64(L, d) : wl_l_get_v32(L, d);
    LLVMValueRef cmp = NULL, old;
    if (at == WL_AT_CMPSWAP || loop == 1 + WL_CAS_FCMPSWAP)
        cmp = bits == 64 ? wl_l_get_v64(L, d + w) : wl_l_get_v32(L, d + w);
    if (loop)
        old = bits == 64 ? wl_l_i64c(L, 0) : wl_l_i32c(L, 0); /* out of range: 0; the loop writes the rest */
    else if (at == WL_AT_CMPSWAP)
        old = wl_lm_cmpswap(L, WL_SPACE_GLOBAL, bits, A.addr, cmp, val, g);
    else
        old = wl_lm_atomic(L, WL_SPACE_GLOBAL, at, bits, A.addr, val, g);
    if (in->f.m.glc) {
        if (bits == 64)
            wl_l_set_v64(L, d, old);
        else
            wl_l_set_v32(L, d, old);
    }
    if (loop)
        wl_lm_cas_loop(L, (wl_cas_kind)(loop - 1), WL_SPACE_GLOBAL, bits, A.addr, val, cmp, g,
                       in->f.m.glc ? (int)d : -1);
    return WL_OK;
}


/* Format loads and stores; n: the instruction's components (1..4); d16:
 * 0 for 32-bit components, 1 for 16-bit ones packed from the low half of
 * vdata (component c in half c), 2 for the one component in the high half
 * (the _d16_hi_x forms). A d16 load writes only the halves it has and
 * keeps the others (the ISA: "VDATA[31:16] is preserved"). */
static wl_status buf_format(wl_lifter *L, const wl_inst *in, bool store, unsigned n, unsigned d16)
{
    LLVMBuilderRef b = L->b;
    const wl_operand *rsrc = &in->src[store ? 2 : 1];
    if (rsrc->kind != WL_OPND_SGPR)
        return wl_l_refuse(L, "the V# must be in SGPRs");
    LLVMValueRef w3 = wl_l_get_s32(L, rsrc->index + 3);
    LLVMValueRef entry, ok;
    if (in->format == WL_FMT_MTBUF) {
        wl_bfmt f;
        if (!wl_bfmt_const(in->f.m.format, &f))
            return wl_l_refuse(L, "this buffer data format is invalid or reserved");
        if (d16 && !wl_bfmt_d16_ok(&f, store))
            return wl_l_refuse(L, "this buffer data format is not lifted for the d16 forms");
        if (store && !d16 && !wl_bfmt_storable(&f))
            return wl_l_refuse(L, "a store to a packed FLOAT format (10_11_11, 11_11_10) is not lifted: how the "
                                  "hardware rounds to the 10- and 11-bit floats and what it makes of negative "
                                  "values and NaN is not documented");
        if (store && n < f.comps)
            return wl_l_refuse(L, "a format store must give every component of the format");
        entry = wl_l_i32c(L, f.entry);
        ok = LLVMConstInt(L->i1, 1, 0);
    } else {
        entry = wl_bfmt_entry(L, wl_lm_field(L, w3, 12, 0x7f));
        ok = LLVMBuildICmp(b, LLVMIntNE, entry, wl_l_i32c(L, 0), "");
    }
    LLVMValueRef bits, comps, nf, pk, lay;
    wl_bfmt_fields(L, entry, &bits, &comps, &nf);
    wl_bfmt_packed(L, entry, &pk, &lay);
    if (store && in->format != WL_FMT_MTBUF) {
        /* storable (lift_mem_fmt.c; d16: below), and every component given */
        LLVMValueRef st = d16 ? LLVMConstInt(L->i1, 1, 0) : wl_bfmt_storable_v(L, pk, nf);
        st = LLVMBuildAnd(b, st, LLVMBuildICmp(b, LLVMIntULE, comps, wl_l_i32c(L, n), ""), "");
        ok = LLVMBuildAnd(b, ok, st, "");
    }
    if (d16 && in->format != WL_FMT_MTBUF)
        ok = LLVMBuildAnd(b, ok, wl_bfmt_d16_ok_v(L, bits, nf, pk, store), "");
    buf_access A;
    if (setup(L, in, store ? 1 : 0, &A) != WL_OK)
        return WL_ERR_UNSUPPORTED;
    wl_lm_escape_if(L, in, LLVMBuildAnd(b, A.act, LLVMBuildNot(b, ok, ""), ""));
    /* formats through the private segment V# (a spill buffer): an escape */
    wl_lm_escape_if(L, in, LLVMBuildAnd(b, A.act, A.prv, ""));
    /* bytes a component (a packed format: all in the word at offset 0) */
    LLVMValueRef cb = LLVMBuildSelect(b, pk, wl_l_i32c(L, 0), LLVMBuildLShr(b, bits, wl_l_i32c(L, 3), ""), "");
    LLVMValueRef unpk = LLVMBuildNot(b, pk, "");
    LLVMValueRef word = wl_l_i32c(L, 0), fit = LLVMConstInt(L->i1, 1, 0), g0 = NULL;
    bool konst = LLVMIsAConstantInt(bits) != NULL;
    unsigned kbits = konst ? (unsigned)LLVMConstIntGetZExtValue(bits) : 0;
    LLVMValueRef comp[4];
    unsigned ncomp = store ? n : 4;
    for (unsigned i = 0; i < ncomp; i++) {
        LLVMValueRef present = LLVMBuildAnd(b, ok, LLVMBuildICmp(b, LLVMIntULT, wl_l_i32c(L, i), comps, ""), "");
        LLVMValueRef delta = LLVMBuildMul(b, cb, wl_l_i32c(L, i), "");
        LLVMValueRef lin = LLVMBuildAnd(b, LLVMBuildAnd(b, A.act, A.lin, ""), present, "");
        LLVMValueRef g = LLVMBuildAnd(b, lin, in_range_v(L, &A, delta), "");
        LLVMValueRef ga = LLVMBuildAdd(b, A.addr, LLVMBuildZExt(b, delta, L->i64, ""), "");
        if (i == 0)
            g0 = g;
        /* a packed component: its width and place in the word */
        LLVMValueRef pw, ps;
        wl_bfmt_packed_field(L, lay, i, &pw, &ps);
        LLVMValueRef v = NULL;
        if (store && d16) {
            LLVMValueRef r = wl_l_get_v32(L, in->src[0].index + i / 2);
            unsigned half = d16 == 2 ? 1 : i % 2;
            v = wl_bfmt_from16(L, LLVMBuildLShr(b, r, wl_l_i32c(L, 16 * half), ""), bits, nf);
        } else if (store) {
            /* UINT/SINT narrower than 32 bits: a value the component cannot
             * hold escapes (the hardware may clamp or wrap: not documented) */
            LLVMValueRef r = wl_l_get_v32(L, in->src[0].index + i);
            LLVMValueRef cw = LLVMBuildSelect(b, pk, pw, bits, "");
            LLVMValueRef fits = wl_bfmt_int_fits(L, r, cw, nf);
            v = wl_bfmt_from32(L, r, cw, nf);
            LLVMValueRef in_word = LLVMBuildICmp(b, LLVMIntULT, wl_l_i32c(L, i), comps, "");
            word = LLVMBuildOr(b, word, LLVMBuildSelect(b, in_word, LLVMBuildShl(b, v, ps, ""), wl_l_i32c(L, 0), ""),
                               "");
            fit = LLVMBuildAnd(b, fit, LLVMBuildOr(b, fits, LLVMBuildNot(b, in_word, ""), ""), "");
            wl_lm_escape_if(L, in, LLVMBuildAnd(b, LLVMBuildAnd(b, g, unpk, ""), LLVMBuildNot(b, fits, ""), ""));
            g = LLVMBuildAnd(b, g, LLVMBuildAnd(b, unpk, fits, ""), "");
        }
        LLVMValueRef raw = wl_l_i32c(L, 0);
        for (unsigned w = 8; w <= 32; w *= 2) {
            if (konst && w != kbits)
                continue;
            LLVMValueRef isw = LLVMBuildICmp(b, LLVMIntEQ, bits, wl_l_i32c(L, w), "");
            LLVMValueRef gw = LLVMBuildAnd(b, g, isw, "");
            if (store)
                wl_lm_store(L, WL_SPACE_GLOBAL, w, ga, v, gw);
            else
                raw = LLVMBuildOr(b, raw, wl_lm_load(L, WL_SPACE_GLOBAL, w, ga, gw), "");
        }
        if (store)
            continue;
        /* a packed component: its bits of the word */
        LLVMValueRef pmask = LLVMBuildSub(b, LLVMBuildShl(b, wl_l_i32c(L, 1), pw, ""), wl_l_i32c(L, 1), "");
        raw = LLVMBuildSelect(b, pk, LLVMBuildAnd(b, LLVMBuildLShr(b, raw, ps, ""), pmask, ""), raw, "");
        LLVMValueRef one = d16 ? wl_bfmt_one16(L, nf) : wl_bfmt_one(L, nf);
        LLVMValueRef absent = i == 3 ? one : wl_l_i32c(L, 0);
        LLVMValueRef has = LLVMBuildICmp(b, LLVMIntULT, wl_l_i32c(L, i), comps, "");
        LLVMValueRef val = wl_bfmt_to32(L, raw, LLVMBuildSelect(b, pk, pw, bits, ""), nf);
        if (d16)
            val = wl_bfmt_to16(L, val, raw, bits, nf);
        comp[i] = LLVMBuildSelect(b, has, val, absent, "");
        comp[i] = LLVMBuildSelect(b, ok, comp[i], wl_l_i32c(L, 0), "");
    }
    if (store && !d16) {
        /* a packed format: the word, once (a component that does not fit: an escape, nothing stored) */
        LLVMValueRef pg = LLVMBuildAnd(b, g0, pk, "");
        wl_lm_escape_if(L, in, LLVMBuildAnd(b, pg, LLVMBuildNot(b, fit, ""), ""));
        wl_lm_store(L, WL_SPACE_GLOBAL, 32, A.addr, word, LLVMBuildAnd(b, pg, fit, ""));
    }
    if (store)
        return WL_OK;
    LLVMValueRef badsel = LLVMConstInt(L->i1, 0, 0);
    LLVMValueRef res[4];
    for (unsigned c = 0; c < n; c++) {
        LLVMValueRef one = d16 ? wl_bfmt_one16(L, nf) : wl_bfmt_one(L, nf);
        res[c] = wl_bfmt_dst_sel(L, w3, c, LLVMBuildSelect(b, ok, one, wl_l_i32c(L, 0), ""), comp, &badsel);
    }
    unsigned d = in->dst[0].index;
    if (!d16) {
        for (unsigned c = 0; c < n; c++)
            wl_l_set_v32(L, d + c, res[c]);
    } else if (d16 == 2) {
        LLVMValueRef old = LLVMBuildAnd(b, wl_l_get_v32(L, d), wl_l_i32c(L, 0xffff), "");
        wl_l_set_v32(L, d, LLVMBuildOr(b, old, LLVMBuildShl(b, res[0], wl_l_i32c(L, 16), ""), ""));
    } else {
        for (unsigned c = 0; c < n; c += 2) {
            LLVMValueRef hi = c + 1 < n ? LLVMBuildShl(b, res[c + 1], wl_l_i32c(L, 16), "")
                                        : LLVMBuildAnd(b, wl_l_get_v32(L, d + c / 2), wl_l_i32c(L, 0xffff0000u), "");
            wl_l_set_v32(L, d + c / 2, LLVMBuildOr(b, res[c], hi, ""));
        }
    }
    wl_lm_escape_if(L, in, LLVMBuildAnd(b, A.act, badsel, ""));
    return WL_OK;
}

wl_status wl_lift_mem_buf(wl_lifter *L, const wl_inst *in)
{
    const char *n = in->name;
    const wl_mem_fields *m = &in->f.m;
    if (strcmp(n, "buffer_gl0_inv") == 0 || strcmp(n, "buffer_gl1_inv") == 0)
        return WL_OK;
    if (m->lds)
        return wl_l_refuse(L, "buffer loads into LDS are not lifted");
    if (m->tfe)
        return wl_l_refuse(L, "tfe (texture fail enable) is not lifted");
    if (in->format == WL_FMT_MTBUF || strstr(n, "_format_")) {
        const char *f = strstr(n, "_format_");
        if (!f)
            return wl_l_refuse(L, "this buffer format instruction is not lifted");
        f += 8;
        unsigned d16 = 0;
        if (strncmp(f, "d16_hi_", 7) == 0) {
            d16 = 2;
            f += 7;
        } else if (strncmp(f, "d16_", 4) == 0) {
            d16 = 1;
            f += 4;
        }
        unsigned cnt = strcmp(f, "x") == 0 ? 1 : strcmp(f, "xy") == 0 ? 2 : strcmp(f, "xyz") == 0 ? 3
                     : strcmp(f, "xyzw") == 0 ? 4 : 0;
        bool store = strstr(n, "_store_") != NULL;
        if (!cnt || (!store && !strstr(n, "_load_")) || (d16 == 2 && cnt != 1))
            return wl_l_refuse(L, "this buffer format instruction is not lifted");
        return buf_format(L, in, store, cnt, d16);
    }
    if (strncmp(n, "buffer_load_", 12) == 0)
        return buf_load(L, in, n + 12);
    if (strncmp(n, "buffer_store_", 13) == 0)
        return buf_store(L, in, n + 13);
    if (strncmp(n, "buffer_atomic_", 14) == 0)
        return buf_atomic(L, in, n + 14);
    return wl_l_refuse(L, "this buffer instruction is not lifted");
}
