/* DS (LDS) instructions in the lifter.
 *
 * Operands (mem_internal.h): dst[0] vdst; src[0] addr, src[1] data0,
 * src[2] data1. The address is the lane's v[addr] plus the 16-bit unsigned
 * offset (offset1:offset0), or, for the two-address forms, plus offset0 and
 * offset1 times the access size (times 64 more for st64). gfx10 does not
 * clamp DS addresses with M0, so M0 is not read. GDS, GWS, ordered count,
 * append/consume, the src2 and addtid forms, rsub, mskor, wrap, condxchg and
 * the float compare-and-store are refused by name.
 *
 * Lane crossing (through @wl.shuffle.i32, every source lane's EXEC bit read
 * from the uniform EXEC, an inactive source giving 0 as the ISA says):
 *   ds_bpermute_b32: vdst = data0 of lane ((addr + offset) / 4) mod W;
 *   ds_permute_b32:  lane i sends data0 to lane ((addr + offset) / 4) mod W,
 *                    the highest sending lane wins, a lane nobody sends to
 *                    gets 0 (lifted as a gather over all W source lanes);
 *   ds_swizzle_b32:  offset[15] = 0: bitmask mode within 32-lane halves,
 *                    source = (((i & 31) & and) | or) ^ xor, plus i & 32;
 *                    offset[15:14] = 10: quad permute by offset[7:0];
 *                    offset >= 0xc000 (rotate and FFT modes): refused. */
#include "lift_mem_internal.h"

#include <string.h>

static bool starts(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

static LLVMValueRef ds_addr(wl_lifter *L, const wl_inst *in, uint32_t off)
{
    LLVMValueRef a = wl_l_get_v32(L, in->src[0].index);
    return wl_lm_addr_add(L, a, (int64_t)off);
}

/* ds_read_*, ds_write_* (one address). */
static wl_status ds_simple(wl_lifter *L, const wl_inst *in, bool load, const char *suffix)
{
    wl_xfer x;
    if (!(load ? wl_lm_load_suffix(suffix, &x) : wl_lm_store_suffix(suffix, &x)))
        return wl_l_refuse(L, "this DS form is not lifted");
    LLVMValueRef act = wl_l_active(L);
    LLVMValueRef addr = ds_addr(L, in, (uint32_t)in->f.m.offset & 0xffff);
    if (load) {
        LLVMValueRef v[4];
        for (unsigned i = 0; i < x.dwords; i++)
            v[i] = wl_lm_load(L, WL_SPACE_LDS, x.bits, wl_lm_addr_add(L, addr, 4 * i), act);
        for (unsigned i = 0; i < x.dwords; i++)
            wl_l_set_v32(L, in->dst[0].index + i,
                         wl_lm_load_value(L, &x, v[i], in->dst[0].index + i));
        return WL_OK;
    }
    for (unsigned i = 0; i < x.dwords; i++)
        wl_lm_store(L, WL_SPACE_LDS, x.bits, wl_lm_addr_add(L, addr, 4 * i),
                    wl_lm_store_value(L, &x, in->src[1].index + i), act);
    return WL_OK;
}

/* ds_read2*, ds_write2*, ds_wrxchg2*: two accesses of 32 or 64 bits. */
static wl_status ds_two(wl_lifter *L, const wl_inst *in, int kind /* 0 read, 1 write, 2 xchg */)
{
    const char *n = in->name;
    unsigned dw = strstr(n, "_b64") ? 2 : 1;
    uint32_t scale = 4u * dw * (strstr(n, "st64") ? 64u : 1u);
    LLVMValueRef act = wl_l_active(L);
    LLVMValueRef base = wl_l_get_v32(L, in->src[0].index);
    LLVMValueRef addr[2] = {wl_lm_addr_add(L, base, (int64_t)(in->f.m.offset0 * scale)),
                            wl_lm_addr_add(L, base, (int64_t)(in->f.m.offset1 * scale))};
    LLVMValueRef got[4];
    for (unsigned k = 0; k < 2; k++) {
        for (unsigned i = 0; i < dw; i++) {
            LLVMValueRef a = wl_lm_addr_add(L, addr[k], 4 * i);
            if (kind == 0) {
                got[k * dw + i] = wl_lm_load(L, WL_SPACE_LDS, 32, a, act);
                continue;
            }
            if (kind == 2 && dw == 2) {
                LLVMValueRef v = wl_l_get_v64(L, in->src[1 + k].index);
                got[k] = wl_lm_atomic(L, WL_SPACE_LDS, WL_AT_SWAP, 64, a, v, act);
                break;
            }
            LLVMValueRef v = wl_l_get_v32(L, in->src[1 + k].index + i);
            if (kind == 1)
                wl_lm_store(L, WL_SPACE_LDS, 32, a, v, act);
            else
                got[k] = wl_lm_atomic(L, WL_SPACE_LDS, WL_AT_SWAP, 32, a, v, act);
        }
    }
    if (kind == 0) {
        for (unsigned i = 0; i < 2 * dw; i++)
            wl_l_set_v32(L, in->dst[0].index + i, got[i]);
    } else if (kind == 2) {
        for (unsigned k = 0; k < 2; k++) {
            if (dw == 2)
                wl_l_set_v64(L, in->dst[0].index + 2 * k, got[k]);
            else
                wl_l_set_v32(L, in->dst[0].index + k, got[k]);
        }
    }
    return WL_OK;
}

/* The lane index ((addr + offset) / 4) mod W of the permutes. */
static LLVMValueRef perm_lane(wl_lifter *L, const wl_inst *in)
{
    LLVMValueRef a = ds_addr(L, in, (uint32_t)in->f.m.offset & 0xffff);
    a = LLVMBuildLShr(L->b, a, wl_l_i32c(L, 2), "");
    return LLVMBuildAnd(L->b, a, wl_l_i32c(L, L->wave - 1), "");
}

static LLVMValueRef shuffle(wl_lifter *L, LLVMValueRef v, LLVMValueRef lane)
{
    LLVMValueRef args[2] = {v, lane};
    return wl_l_call(L, "wl.shuffle.i32", L->i32, args, 2);
}

/* data of lane `src` (varying), 0 where that lane is not in EXEC. */
static LLVMValueRef gather(wl_lifter *L, LLVMValueRef data, LLVMValueRef src)
{
    LLVMValueRef v = shuffle(L, data, src);
    LLVMValueRef ok = wl_lm_mask_bit(L, wl_l_exec(L), src);
    return LLVMBuildSelect(L->b, ok, v, wl_l_i32c(L, 0), "");
}

static wl_status ds_bpermute(wl_lifter *L, const wl_inst *in)
{
    LLVMValueRef src = perm_lane(L, in);
    LLVMValueRef res = gather(L, wl_l_get_v32(L, in->src[1].index), src);
    wl_l_set_v32(L, in->dst[0].index, res);
    return WL_OK;
}

static wl_status ds_permute(wl_lifter *L, const wl_inst *in)
{
    LLVMValueRef tgt = perm_lane(L, in);
    LLVMValueRef data = wl_l_get_v32(L, in->src[1].index);
    LLVMValueRef exec = wl_l_exec(L);
    LLVMValueRef me = wl_l_call(L, "wl.lane_id", L->i32, NULL, 0);
    LLVMValueRef res = wl_l_i32c(L, 0);
    for (unsigned j = 0; j < L->wave; j++) {
        LLVMValueRef lj = wl_l_i32c(L, j);
        LLVMValueRef tj = shuffle(L, tgt, lj);
        LLVMValueRef dj = shuffle(L, data, lj);
        LLVMValueRef aj = wl_lm_mask_bit(L, exec, lj);
        LLVMValueRef hit = LLVMBuildAnd(L->b, aj, LLVMBuildICmp(L->b, LLVMIntEQ, tj, me, ""), "");
        res = LLVMBuildSelect(L->b, hit, dj, res, "");
    }
    wl_l_set_v32(L, in->dst[0].index, res);
    return WL_OK;
}

static wl_status ds_swizzle(wl_lifter *L, const wl_inst *in)
{
    uint32_t off = (uint32_t)in->f.m.offset & 0xffff;
    if (off >= 0xc000)
        return wl_l_refuse(L, "ds_swizzle rotate and FFT modes are not lifted");
    LLVMValueRef i = wl_l_call(L, "wl.lane_id", L->i32, NULL, 0);
    LLVMValueRef src;
    if (off & 0x8000) {
        /* quad permute: (i & ~3) | offset[2*(i&3)+1 : 2*(i&3)] */
        LLVMValueRef q = LLVMBuildAnd(L->b, i, wl_l_i32c(L, 3), "");
        LLVMValueRef sh = LLVMBuildShl(L->b, q, wl_l_i32c(L, 1), "");
        LLVMValueRef sel = LLVMBuildAnd(L->b, LLVMBuildLShr(L->b, wl_l_i32c(L, off & 0xff), sh, ""),
                                        wl_l_i32c(L, 3), "");
        src = LLVMBuildOr(L->b, LLVMBuildAnd(L->b, i, wl_l_i32c(L, ~3u), ""), sel, "");
    } else {
        uint32_t and_m = off & 0x1f, or_m = (off >> 5) & 0x1f, xor_m = (off >> 10) & 0x1f;
        LLVMValueRef j = LLVMBuildAnd(L->b, i, wl_l_i32c(L, and_m), "");
        j = LLVMBuildOr(L->b, j, wl_l_i32c(L, or_m), "");
        j = LLVMBuildXor(L->b, j, wl_l_i32c(L, xor_m), "");
        src = LLVMBuildOr(L->b, j, LLVMBuildAnd(L->b, i, wl_l_i32c(L, 0x20), ""), "");
    }
    /* the data is in the addr field (LLVM's operand "addr") */
    LLVMValueRef res = gather(L, wl_l_get_v32(L, in->src[0].index), src);
    wl_l_set_v32(L, in->dst[0].index, res);
    return WL_OK;
}

/* ds_OP[_rtn]_TYPE: one atomic of 32 or 64 bits. */
static wl_status ds_atomic(wl_lifter *L, const wl_inst *in)
{
    char base[40];
    const char *n = in->name + 3;
    size_t len = 0;
    bool rtn = false;
    if (strstr(n, "_src2_"))
        return wl_l_refuse(L, "DS src2 forms are not lifted");
    /* copy without "_rtn" */
    for (const char *p = n; *p && len + 1 < sizeof base;) {
        if (strncmp(p, "_rtn", 4) == 0) {
            rtn = true;
            p += 4;
            continue;
        }
        base[len++] = *p++;
    }
    base[len] = '\0';
    char *us = strrchr(base, '_');
    if (!us || strlen(us) != 4)
        return wl_l_refuse(L, "this DS instruction is not lifted");
    *us = '\0';
    char ty = us[1];
    unsigned bits = strcmp(us + 2, "64") == 0 ? 64 : strcmp(us + 2, "32") == 0 ? 32 : 0;
    static const struct { const char *op; char ty; wl_atop at; } map[] = {
        {"add", 'u', WL_AT_ADD}, {"sub", 'u', WL_AT_SUB}, {"inc", 'u', WL_AT_INC},
        {"dec", 'u', WL_AT_DEC}, {"min", 'i', WL_AT_SMIN}, {"max", 'i', WL_AT_SMAX},
        {"min", 'u', WL_AT_UMIN}, {"max", 'u', WL_AT_UMAX}, {"and", 'b', WL_AT_AND},
        {"or", 'b', WL_AT_OR}, {"xor", 'b', WL_AT_XOR}, {"wrxchg", 'b', WL_AT_SWAP},
        {"cmpst", 'b', WL_AT_CMPSWAP}, {"min", 'f', WL_AT_FMIN}, {"max", 'f', WL_AT_FMAX},
        {"add", 'f', WL_AT_FADD},
    };
    wl_atop at = WL_AT_NONE;
    for (size_t k = 0; k < sizeof map / sizeof map[0]; k++)
        if (map[k].ty == ty && strcmp(map[k].op, base) == 0)
            at = map[k].at;
    if (at == WL_AT_NONE || bits == 0)
        return wl_l_refuse(L, "this DS atomic is not lifted");
    if (at == WL_AT_FADD && bits == 64)
        return wl_l_refuse(L, "this DS atomic is not lifted");

    LLVMValueRef act = wl_l_active(L);
    LLVMValueRef addr = ds_addr(L, in, (uint32_t)in->f.m.offset & 0xffff);
    LLVMValueRef d0 = bits == 64 ? wl_l_get_v64(L, in->src[1].index) : wl_l_get_v32(L, in->src[1].index);
    LLVMValueRef old;
    if (at == WL_AT_CMPSWAP) {
        /* DS_CMPST: DATA (data0) is the compare value, DATA2 (data1) the new one */
        LLVMValueRef d1 = bits == 64 ? wl_l_get_v64(L, in->src[2].index)
                                     : wl_l_get_v32(L, in->src[2].index);
        old = wl_lm_cmpswap(L, WL_SPACE_LDS, bits, addr, d0, d1, act);
    } else {
        old = wl_lm_atomic(L, WL_SPACE_LDS, at, bits, addr, d0, act);
    }
    if (rtn && in->ndst) {
        if (bits == 64)
            wl_l_set_v64(L, in->dst[0].index, old);
        else
            wl_l_set_v32(L, in->dst[0].index, old);
    }
    return WL_OK;
}

wl_status wl_lift_mem_ds(wl_lifter *L, const wl_inst *in)
{
    const char *n = in->name;
    if (in->f.m.gds)
        return wl_l_refuse(L, "GDS is not available to lifted programs");
    if (strcmp(n, "ds_nop") == 0)
        return WL_OK;
    if (starts(n, "ds_gws") || starts(n, "ds_ordered") || strcmp(n, "ds_append") == 0 ||
        strcmp(n, "ds_consume") == 0 || strstr(n, "addtid"))
        return wl_l_refuse(L, "this DS instruction is not lifted");
    if (starts(n, "ds_read2"))
        return ds_two(L, in, 0);
    if (starts(n, "ds_write2"))
        return ds_two(L, in, 1);
    if (starts(n, "ds_wrxchg2"))
        return ds_two(L, in, 2);
    if (starts(n, "ds_read_"))
        return ds_simple(L, in, true, n + 8);
    if (starts(n, "ds_write_"))
        return ds_simple(L, in, false, n + 9);
    if (strcmp(n, "ds_bpermute_b32") == 0)
        return ds_bpermute(L, in);
    if (strcmp(n, "ds_permute_b32") == 0)
        return ds_permute(L, in);
    if (strcmp(n, "ds_swizzle_b32") == 0)
        return ds_swizzle(L, in);
    return ds_atomic(L, in);
}
