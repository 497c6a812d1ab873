/* FLAT, GLOBAL and SCRATCH instructions in the lifter.
 *
 * Operands (mem_internal.h): dst[0] vdst (loads, returning atomics);
 * src: vaddr|off, data (stores, atomics), saddr|off (GLOBAL, SCRATCH).
 * Addresses:
 *   GLOBAL, saddr off:  v[vaddr:vaddr+1] + offset (signed 12 bits)
 *   GLOBAL, saddr:      s[saddr:saddr+1] + zext(v[vaddr]) + offset
 *   SCRATCH:            (v[vaddr], s[saddr], or 0 when both are off) +
 *                       offset: a byte offset in the lane's private segment (the wave's scratch base
 *                       and the lane interleave belong to the lowering)
 *   FLAT:               v[vaddr:vaddr+1] + offset (unsigned); the high
 *                       dword selects the memory: WL_APERTURE_SHARED_HI the
 *                       LDS, WL_APERTURE_PRIVATE_HI the lane's scratch (the
 *                       low dword is the offset), anything else global. Each
 *                       lane takes its own; an atomic into the private
 *                       aperture records WL_ESC_APERTURE.
 * cmpswap: data[0] is the new value, data[1] the compare value (x2: pairs);
 * fcmpswap likewise, and it and csub are compare-and-swap loops
 * (lift_mem_cas.c). The lds bit (loads into LDS) and the addtid forms are
 * refused by name. */
#include "lift_mem_cas.h"
#include "ir/wave_ir.h"

#include <string.h>

/* Per-lane destinations of a FLAT access: the lane's active bit for each
 * memory (only one is set), and the LDS/scratch offset. */
typedef struct flat_route {
    LLVMValueRef act[3];  /* by wl_space */
    LLVMValueRef lo;      /* i32 low dword of the address */
} flat_route;

static void route(wl_lifter *L, LLVMValueRef addr, LLVMValueRef act, flat_route *r)
{
    LLVMValueRef hi = LLVMBuildTrunc(L->b, LLVMBuildLShr(L->b, addr, wl_l_i64c(L, 32), ""), L->i32, "");
    LLVMValueRef is_lds = LLVMBuildICmp(L->b, LLVMIntEQ, hi, wl_l_i32c(L, WL_APERTURE_SHARED_HI), "");
    LLVMValueRef is_prv = LLVMBuildICmp(L->b, LLVMIntEQ, hi, wl_l_i32c(L, WL_APERTURE_PRIVATE_HI), "");
    LLVMValueRef is_glb = LLVMBuildNot(L->b, LLVMBuildOr(L->b, is_lds, is_prv, ""), "");
    r->act[WL_SPACE_GLOBAL] = LLVMBuildAnd(L->b, act, is_glb, "");
    r->act[WL_SPACE_LDS] = LLVMBuildAnd(L->b, act, is_lds, "");
    r->act[WL_SPACE_SCRATCH] = LLVMBuildAnd(L->b, act, is_prv, "");
    r->lo = LLVMBuildTrunc(L->b, addr, L->i32, "");
}

/* The lane's address: i64 (FLAT, GLOBAL) or i32 (SCRATCH), offset included. */
static LLVMValueRef flat_addr(wl_lifter *L, const wl_inst *in)
{
    const wl_mem_fields *m = &in->f.m;
    const wl_operand *vaddr = &in->src[0];
    const wl_operand *saddr = &in->src[in->nsrc - 1];
    LLVMValueRef a;
    if (in->format == WL_FMT_SCRATCH) {
        /* vaddr off and saddr off (gfx103x: saddr exec_hi): the offset alone */
        if (!m->vaddr_off)
            a = wl_l_get_v32(L, vaddr->index);
        else if (saddr->kind == WL_OPND_NONE)
            a = wl_l_i32c(L, 0);
        else
            a = wl_l_src32(L, saddr, WL_IMM_B32);
    } else if (in->format == WL_FMT_GLOBAL && !m->saddr_off) {
        LLVMValueRef s = wl_l_src64(L, saddr, WL_IMM_B64);
        a = LLVMBuildAdd(L->b, s, LLVMBuildZExt(L->b, wl_l_get_v32(L, vaddr->index), L->i64, ""), "");
    } else {
        a = wl_l_get_v64(L, vaddr->index);
    }
    return wl_lm_addr_add(L, a, m->offset);
}

static LLVMValueRef do_load(wl_lifter *L, const wl_inst *in, unsigned bits, LLVMValueRef a,
                            LLVMValueRef act)
{
    if (in->format == WL_FMT_SCRATCH)
        return wl_lm_load(L, WL_SPACE_SCRATCH, bits, a, act);
    if (in->format == WL_FMT_GLOBAL)
        return wl_lm_load(L, WL_SPACE_GLOBAL, bits, a, act);
    flat_route r;
    route(L, a, act, &r);
    /* inactive calls return 0: the lane's value is the OR of the three */
    LLVMValueRef g = wl_lm_load(L, WL_SPACE_GLOBAL, bits, a, r.act[WL_SPACE_GLOBAL]);
    LLVMValueRef l = wl_lm_load(L, WL_SPACE_LDS, bits, r.lo, r.act[WL_SPACE_LDS]);
    LLVMValueRef p = wl_lm_load(L, WL_SPACE_SCRATCH, bits, r.lo, r.act[WL_SPACE_SCRATCH]);
    return LLVMBuildOr(L->b, LLVMBuildOr(L->b, g, l, ""), p, "");
}

static void do_store(wl_lifter *L, const wl_inst *in, unsigned bits, LLVMValueRef a,
                     LLVMValueRef v, LLVMValueRef act)
{
    if (in->format == WL_FMT_SCRATCH) {
        wl_lm_store(L, WL_SPACE_SCRATCH, bits, a, v, act);
    } else if (in->format == WL_FMT_GLOBAL) {
        wl_lm_store(L, WL_SPACE_GLOBAL, bits, a, v, act);
    } else {
        flat_route r;
        route(L, a, act, &r);
        wl_lm_store(L, WL_SPACE_GLOBAL, bits, a, v, r.act[WL_SPACE_GLOBAL]);
        wl_lm_store(L, WL_SPACE_LDS, bits, r.lo, v, r.act[WL_SPACE_LDS]);
        wl_lm_store(L, WL_SPACE_SCRATCH, bits, r.lo, v, r.act[WL_SPACE_SCRATCH]);
    }
}

static wl_status flat_load(wl_lifter *L, const wl_inst *in, const char *suffix)
{
    wl_xfer x;
    if (!wl_lm_load_suffix(suffix, &x))
        return wl_l_refuse(L, "this load form is not lifted");
    LLVMValueRef act = wl_l_active(L);
    LLVMValueRef a = flat_addr(L, in);
    LLVMValueRef v[4];
    for (unsigned i = 0; i < x.dwords; i++)
        v[i] = do_load(L, in, x.bits, wl_lm_addr_add(L, a, 4 * i), act);
    for (unsigned i = 0; i < x.dwords; i++)
        wl_l_set_v32(L, in->dst[0].index + i, wl_lm_load_value(L, &x, v[i], in->dst[0].index + i));
    return WL_OK;
}

static wl_status flat_store(wl_lifter *L, const wl_inst *in, const char *suffix)
{
    wl_xfer x;
    if (!wl_lm_store_suffix(suffix, &x))
        return wl_l_refuse(L, "this store form is not lifted");
    LLVMValueRef act = wl_l_active(L);
    LLVMValueRef a = flat_addr(L, in);
    for (unsigned i = 0; i < x.dwords; i++)
        do_store(L, in, x.bits, wl_lm_addr_add(L, a, 4 * i),
                 wl_lm_store_value(L, &x, in->src[1].index + i), act);
    return WL_OK;
}

/* fcmpswap and csub (lift_mem_cas.c): a loop for the global lanes and, for
 * FLAT, one for the LDS lanes; a lane in the private aperture records
 * WL_ESC_APERTURE; lanes that take part in no loop (private) read 0. */
static wl_status flat_cas_loop(wl_lifter *L, const wl_inst *in, wl_cas_kind kind, unsigned bits, LLVMValueRef a,
                               LLVMValueRef val, LLVMValueRef cmp, LLVMValueRef act)
{
    int vd = in->ndst ? (int)in->dst[0].index : -1;
    if (vd >= 0) {
        if (bits == 64)
            wl_l_set_v64(L, (unsigned)vd, wl_l_i64c(L, 0));
        else
            wl_l_set_v32(L, (unsigned)vd, wl_l_i32c(L, 0));
    }
    if (in->format == WL_FMT_GLOBAL) {
        wl_lm_cas_loop(L, kind, WL_SPACE_GLOBAL, bits, a, val, cmp, act, vd);
        return WL_OK;
    }
    flat_route r;
    route(L, a, act, &r);
    LLVMValueRef args[3] = {wl_l_i32c(L, WL_ESC_APERTURE), wl_l_i32c(L, (uint32_t)in->offset),
                            r.act[WL_SPACE_SCRATCH]};
    wl_l_call(L, "wl.escape", L->t_void, args, 3);
    wl_lm_cas_loop(L, kind, WL_SPACE_GLOBAL, bits, a, val, cmp, r.act[WL_SPACE_GLOBAL], vd);
    wl_lm_cas_loop(L, kind, WL_SPACE_LDS, bits, r.lo, val, cmp, r.act[WL_SPACE_LDS], vd);
    return WL_OK;
}

static wl_status flat_atomic(wl_lifter *L, const wl_inst *in, const char *suffix)
{
    unsigned bits;
    wl_atop at;
    int loop; /* fcmpswap(_x2) and csub: compare-and-swap loops (lift_mem_cas.c) */
    if (!wl_lm_atomic_op(suffix, &bits, &at, &loop))
        return wl_l_refuse(L, "this atomic is not lifted");
    LLVMValueRef act = wl_l_active(L);
    LLVMValueRef a = flat_addr(L, in);
    unsigned d = in->src[1].index, w = bits / 32;
    LLVMValueRef val = bits == 64 ? wl_l_get_v64(L, d) : wl_l_get_v32(L, d);
    LLVMValueRef cmp = NULL;
    if (at == WL_AT_CMPSWAP || loop == 1 + WL_CAS_FCMPSWAP)
        cmp = bits == 64 ? wl_l_get_v64(L, d + w) : wl_l_get_v32(L, d + w);
    if (loop)
        return flat_cas_loop(L, in, (wl_cas_kind)(loop - 1), bits, a, val, cmp, act);

    LLVMValueRef old;
    if (in->format == WL_FMT_GLOBAL) {
        old = at == WL_AT_CMPSWAP ? wl_lm_cmpswap(L, WL_SPACE_GLOBAL, bits, a, cmp, val, act)
                                  : wl_lm_atomic(L, WL_SPACE_GLOBAL, at, bits, a, val, act);
    } else {
        flat_route r;
        route(L, a, act, &r);
        LLVMValueRef g, l;
        if (at == WL_AT_CMPSWAP) {
            g = wl_lm_cmpswap(L, WL_SPACE_GLOBAL, bits, a, cmp, val, r.act[WL_SPACE_GLOBAL]);
            l = wl_lm_cmpswap(L, WL_SPACE_LDS, bits, r.lo, cmp, val, r.act[WL_SPACE_LDS]);
        } else {
            g = wl_lm_atomic(L, WL_SPACE_GLOBAL, at, bits, a, val, r.act[WL_SPACE_GLOBAL]);
            l = wl_lm_atomic(L, WL_SPACE_LDS, at, bits, r.lo, val, r.act[WL_SPACE_LDS]);
        }
        LLVMValueRef args[3] = {wl_l_i32c(L, WL_ESC_APERTURE), wl_l_i32c(L, (uint32_t)in->offset),
                                r.act[WL_SPACE_SCRATCH]};
        wl_l_call(L, "wl.escape", L->t_void, args, 3);
        old = LLVMBuildOr(L->b, g, l, "");
    }
    if (in->ndst) {
        if (bits == 64)
            wl_l_set_v64(L, in->dst[0].index, old);
        else
            wl_l_set_v32(L, in->dst[0].index, old);
    }
    return WL_OK;
}

wl_status wl_lift_mem_flat(wl_lifter *L, const wl_inst *in)
{
    const char *n = in->name;
    const char *us = strchr(n, '_');
    if (!us)
        return wl_l_refuse(L, "not a FLAT instruction");
    const char *rest = us + 1;
    if (in->f.m.lds)
        return wl_l_refuse(L, "loads into LDS are not lifted");
    if (strstr(n, "addtid"))
        return wl_l_refuse(L, "the addtid forms are not lifted");
    if (strncmp(rest, "load_", 5) == 0)
        return flat_load(L, in, rest + 5);
    if (strncmp(rest, "store_", 6) == 0)
        return flat_store(L, in, rest + 6);
    if (strncmp(rest, "atomic_", 7) == 0)
        return flat_atomic(L, in, rest + 7);
    return wl_l_refuse(L, "this FLAT instruction is not lifted");
}
