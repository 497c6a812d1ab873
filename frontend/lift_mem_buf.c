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
 * access goes to the lane's scratch at base[31:0] + soffset + offset +
 * stride * v[vaddr] (idxen); other swizzled V#s record WL_ESC_INSTRUCTION.
 * Both ways are emitted, each under its own uniform condition.
 *
 * Refused by name: the format loads and stores (buffer_*_format_*,
 * tbuffer_*), the lds bit, tfe, fcmpswap, csub. buffer_gl0_inv and
 * buffer_gl1_inv are no-ops. */
#include "lift_mem_internal.h"
#include "wave_ir.h"

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

static LLVMValueRef field(wl_lifter *L, LLVMValueRef w, unsigned sh, uint32_t mask)
{
    return LLVMBuildAnd(L->b, LLVMBuildLShr(L->b, w, wl_l_i32c(L, sh), ""), wl_l_i32c(L, mask), "");
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
    A->stride32 = field(L, w[1], 16, 0x3fff);
    LLVMValueRef swz = icmp(L, LLVMIntNE, field(L, w[1], 31, 1), wl_l_i32c(L, 0));
    LLVMValueRef is_prv_base = icmp(L, LLVMIntEQ, base_hi, wl_l_i32c(L, WL_PRIVATE_VSHARP_BASE_HI));
    A->lin = LLVMBuildNot(L->b, swz, "");
    A->prv = LLVMBuildAnd(L->b, swz, is_prv_base, "");
    A->bad = LLVMBuildAnd(L->b, swz, LLVMBuildNot(L->b, is_prv_base, ""), "");
    A->nr = w[2];
    A->oob = field(L, w[3], 28, 3);
    LLVMValueRef add_tid = icmp(L, LLVMIntNE, field(L, w[3], 23, 1), wl_l_i32c(L, 0));

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

    LLVMValueRef lo = LLVMBuildAdd(L->b, w[0], soffset, "");
    lo = LLVMBuildAdd(L->b, lo, A->offset, "");
    A->lane_off = LLVMBuildAdd(L->b, lo, LLVMBuildMul(L->b, A->stride32, vidx, ""), "");

    /* another swizzled V#: an escape for the lanes that would access it */
    LLVMValueRef args[3] = {wl_l_i32c(L, WL_ESC_INSTRUCTION), wl_l_i32c(L, (uint32_t)in->offset),
                            LLVMBuildAnd(L->b, A->act, A->bad, "")};
    wl_l_call(L, "wl.escape", L->t_void, args, 3);
    return WL_OK;
}

/* i1: piece at offset + delta is in range (linear V#). */
static LLVMValueRef in_range(wl_lifter *L, const buf_access *A, uint32_t delta)
{
    LLVMValueRef off = wl_lm_addr_add(L, A->offset, delta);
    LLVMValueRef o0 = LLVMBuildOr(L->b, A->idx_oob, icmp(L, LLVMIntUGE, off, A->stride32), "");
    LLVMValueRef o2 = icmp(L, LLVMIntEQ, A->nr, wl_l_i32c(L, 0));
    LLVMValueRef o3 = icmp(L, LLVMIntUGE, off, A->nr);
    LLVMValueRef sel = A->oob;
    LLVMValueRef r = LLVMBuildSelect(L->b, icmp(L, LLVMIntEQ, sel, wl_l_i32c(L, 0)), o0,
                     LLVMBuildSelect(L->b, icmp(L, LLVMIntEQ, sel, wl_l_i32c(L, 1)), A->idx_oob,
                     LLVMBuildSelect(L->b, icmp(L, LLVMIntEQ, sel, wl_l_i32c(L, 2)), o2, o3, ""), ""), "");
    return LLVMBuildNot(L->b, r, "");
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
    char op[24];
    size_t n = strlen(suffix);
    unsigned bits = 32;
    if (n >= sizeof op)
        return wl_l_refuse(L, "this buffer atomic is not lifted");
    memcpy(op, suffix, n + 1);
    if (n > 3 && strcmp(op + n - 3, "_x2") == 0) {
        op[n - 3] = '\0';
        bits = 64;
    }
    wl_atop at = wl_lm_atop(op);
    if (at == WL_AT_NONE || at == WL_AT_FADD)
        return wl_l_refuse(L, "this buffer atomic is not lifted");
    buf_access A;
    if (setup(L, in, 1, &A) != WL_OK)
        return WL_ERR_UNSUPPORTED;
    LLVMValueRef g, p;
    pieces_active(L, &A, 0, &g, &p);
    /* scratch has no atomics: an atomic through the private segment V# escapes */
    LLVMValueRef args[3] = {wl_l_i32c(L, WL_ESC_INSTRUCTION), wl_l_i32c(L, (uint32_t)in->offset), p};
    wl_l_call(L, "wl.escape", L->t_void, args, 3);
    unsigned d = in->src[0].index, w = bits / 32;
    LLVMValueRef val = bits == 64 ? wl_l_get_v64(L, d) : wl_l_get_v32(L, d);
    LLVMValueRef old;
    if (at == WL_AT_CMPSWAP) {
        LLVMValueRef cmp = bits == 64 ? wl_l_get_v64(L, d + w) : wl_l_get_v32(L, d + w);
        old = wl_lm_cmpswap(L, WL_SPACE_GLOBAL, bits, A.addr, cmp, val, g);
    } else {
        old = wl_lm_atomic(L, WL_SPACE_GLOBAL, at, bits, A.addr, val, g);
    }
    if (in->f.m.glc) {
        if (bits == 64)
            wl_l_set_v64(L, d, old);
        else
            wl_l_set_v32(L, d, old);
    }
    return WL_OK;
}

wl_status wl_lift_mem_buf(wl_lifter *L, const wl_inst *in)
{
    const char *n = in->name;
    const wl_mem_fields *m = &in->f.m;
    if (strcmp(n, "buffer_gl0_inv") == 0 || strcmp(n, "buffer_gl1_inv") == 0)
        return WL_OK;
    if (in->format == WL_FMT_MTBUF || strstr(n, "_format_"))
        return wl_l_refuse(L, "buffer format conversions are not lifted");
    if (m->lds)
        return wl_l_refuse(L, "buffer loads into LDS are not lifted");
    if (m->tfe)
        return wl_l_refuse(L, "tfe (texture fail enable) is not lifted");
    if (strncmp(n, "buffer_load_", 12) == 0)
        return buf_load(L, in, n + 12);
    if (strncmp(n, "buffer_store_", 13) == 0)
        return buf_store(L, in, n + 13);
    if (strncmp(n, "buffer_atomic_", 14) == 0)
        return buf_atomic(L, in, n + 14);
    return wl_l_refuse(L, "this buffer instruction is not lifted");
}
