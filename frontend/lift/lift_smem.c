/* Lifting scalar memory (SMEM). Operands (salu.c): data (dst[0] for loads,
 * src[0] for stores), base (an SGPR pair, or four SGPRs holding a V#),
 * soffset (null when unused), the immediate offset (signed 21 bits).
 *
 * - s_load_dword..x16: dword i from (base + offset + soffset + 4*i) & ~3
 *   through @wl.sload.b32 (the hardware ignores the address's low 2 bits).
 * - s_buffer_load_dword..x16: the V# (dword 0: base[31:0]; dword 1:
 *   base[47:32] in [15:0], stride in [29:16]; dword 2: num_records).
 *   Byte offset o = offset + soffset; the range is num_records bytes (stride
 *   0) or num_records * stride; a dword whose bytes are not all in range
 *   reads 0 and is not loaded (a uniform branch around the load).
 * - s_store_dword..x4 (gfx1010/1013): @wl.sstore.b32 per dword;
 *   s_buffer_store_dword..x4 with the same range check (out of range:
 *   dropped).
 * - s_memtime, s_memrealtime: @wl.memtime() (docs/wave-ir.md).
 * - s_dcache_inv/wb, s_gl1_inv, s_dcache_discard*, s_atc_probe*: cache and
 *   translation hints, no-ops (the wave IR's memory is coherent).
 * - s_get_waveid_in_workgroup: @wl.wave_id().
 * - s_atomic_OP[_x2] and s_buffer_atomic_OP[_x2] (gfx1010/1013; OP: swap
 *   cmpswap add sub smin umin smax umax and or xor inc dec):
 *   @wl.satomic.OP.bN(addr, data), N = 32 or 64 (cmpswap: (addr, cmp,
 *   new), DATA = {new, cmp}), one atomic for the wave (docs/wave-ir.md).
 *   The address is dword aligned as for loads (low 2 bits dropped); a
 *   64-bit one 4- but not 8-byte aligned is the lowering's to refuse
 *   (WL_ESC_UNALIGNED64: lower/scalar_mem.c). With GLC the old value
 *   replaces DATA[0] (DATA[0:1] for _x2); without it DATA is kept. The
 *   buffer forms check their one access against the V#'s range like the
 *   buffer loads: out of range nothing is done and GLC returns 0.
 * - Scratch (s_scratch_*): refused by name. */
#include "lift_internal.h"

#include <stdio.h>
#include <string.h>

/* The byte offset of the access: immediate + SOFFSET (when present). */
static LLVMValueRef smem_offset(wl_lifter *L, const wl_inst *in, unsigned base_i)
{
    LLVMValueRef off = wl_l_i32c(L, (uint32_t)in->f.s.offset);
    const wl_operand *so = &in->src[base_i + 1];
    if (in->f.s.soffset_en)
        off = LLVMBuildAdd(L->b, off, wl_l_src32(L, so, WL_IMM_B32), "");
    return off;
}

static int reg_enc(wl_lifter *L, const wl_operand *o)
{
    if (o->kind == WL_OPND_SGPR)
        return o->index;
    if (o->kind == WL_OPND_SPECIAL && o->index <= WL_SRC_EXEC_HI)
        return o->index;
    wl_l_refuse(L, "scalar memory operand not supported");
    return -1;
}

/* Code between guard() and unguard() runs only when `cond` holds (a uniform
 * branch): guard returns the join block and leaves the builder in the
 * then-block. */
static LLVMBasicBlockRef guard(wl_lifter *L, LLVMValueRef cond)
{
    LLVMBasicBlockRef then = LLVMAppendBasicBlockInContext(L->ctx, L->fn, "smem.in");
    LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(L->ctx, L->fn, "smem.join");
    LLVMBuildCondBr(L->b, cond, then, join);
    LLVMPositionBuilderAtEnd(L->b, then);
    return join;
}

static void unguard(wl_lifter *L, LLVMBasicBlockRef join)
{
    LLVMBuildBr(L->b, join);
    LLVMPositionBuilderAtEnd(L->b, join);
}

/* The access's dword-aligned address *a0, the byte offset *off64 and, for
 * the buffer forms, the V#'s range in bytes *limit (NULL otherwise); be is
 * the base operand's register. */
static void smem_address(wl_lifter *L, const wl_inst *in, unsigned base_i, int be, int buffer,
                         LLVMValueRef *a0_out, LLVMValueRef *off_out, LLVMValueRef *limit_out)
{
    LLVMBuilderRef B = L->b;
    LLVMValueRef off = smem_offset(L, in, base_i);
    LLVMValueRef addr, limit = NULL, off64 = LLVMBuildZExt(B, off, L->i64, "");
    if (buffer) {
        LLVMValueRef d0 = wl_l_get_s32(L, (unsigned)be), d1 = wl_l_get_s32(L, (unsigned)be + 1);
        LLVMValueRef d2 = wl_l_get_s32(L, (unsigned)be + 2);
        LLVMValueRef hi = LLVMBuildAnd(B, d1, wl_l_i32c(L, 0xffff), "");
        addr = LLVMBuildOr(B, LLVMBuildZExt(B, d0, L->i64, ""),
                           LLVMBuildShl(B, LLVMBuildZExt(B, hi, L->i64, ""), wl_l_i64c(L, 32), ""), "");
        LLVMValueRef stride = LLVMBuildAnd(B, LLVMBuildLShr(B, d1, wl_l_i32c(L, 16), ""),
                                           wl_l_i32c(L, 0x3fff), "");
        LLVMValueRef nr = LLVMBuildZExt(B, d2, L->i64, "");
        LLVMValueRef sz = LLVMBuildMul(B, nr, LLVMBuildZExt(B, stride, L->i64, ""), "");
        limit = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, stride, wl_l_i32c(L, 0), ""), nr, sz, "");
    } else {
        addr = wl_l_get_s64(L, (unsigned)be);
        /* The offset is signed for s_load (21 bits), added in 64 bits. */
        off64 = LLVMBuildSExt(B, off, L->i64, "");
        if (in->f.s.soffset_en)
            off64 = LLVMBuildAdd(B, LLVMBuildSExt(B, wl_l_i32c(L, (uint32_t)in->f.s.offset), L->i64, ""),
                                 LLVMBuildZExt(B, wl_l_src32(L, &in->src[base_i + 1], WL_IMM_B32), L->i64, ""), "");
    }
    if (buffer)
        off64 = LLVMBuildAnd(B, off64, wl_l_i64c(L, 0xfffffffcu), "");
    *a0_out = LLVMBuildAnd(B, LLVMBuildAdd(B, addr, off64, ""), wl_l_i64c(L, ~3ull), "");
    *off_out = off64;
    *limit_out = limit;
}

static wl_status lift_access(wl_lifter *L, const wl_inst *in, int buffer, int store)
{
    LLVMBuilderRef B = L->b;
    const wl_operand *data = store ? &in->src[0] : &in->dst[0];
    unsigned base_i = store ? 1 : 0;
    const wl_operand *base = &in->src[base_i];
    unsigned n = data->nregs ? data->nregs : 1;
    int de = reg_enc(L, data), be = reg_enc(L, base);
    if (de < 0 || be < 0)
        return WL_ERR_UNSUPPORTED;
    if (de != WL_SRC_NULL && de + n > WL_SRC_SGPR_MAX + 1 && de <= WL_SRC_SGPR_MAX)
        return wl_l_refuse(L, "data registers out of range");
    LLVMValueRef a0, off64, limit;
    smem_address(L, in, base_i, be, buffer, &a0, &off64, &limit);
    if (store) {
        for (unsigned i = 0; i < n; i++) {
            LLVMValueRef v = wl_l_get_s32(L, (unsigned)de + i);
            LLVMBasicBlockRef join = NULL;
            if (buffer)
                join = guard(L, LLVMBuildICmp(B, LLVMIntULE, LLVMBuildAdd(B, off64, wl_l_i64c(L, 4 * i + 4), ""),
                                              limit, ""));
            LLVMValueRef args[2] = {LLVMBuildAdd(L->b, a0, wl_l_i64c(L, 4 * i), ""), v};
            wl_l_call(L, "wl.sstore.b32", L->t_void, args, 2);
            if (join)
                unguard(L, join);
        }
        return WL_OK;
    }
    /* Loads: all dwords first (the base may be among the destinations). */
    LLVMValueRef vals[16];
    if (n > 16)
        return wl_l_refuse(L, "too many dwords");
    if (buffer) {
        /* Out-of-range dwords read 0; every address was computed above from
         * values read before the first destination write. */
        LLVMValueRef ok[16];
        for (unsigned i = 0; i < n; i++)
            ok[i] = LLVMBuildICmp(B, LLVMIntULE, LLVMBuildAdd(B, off64, wl_l_i64c(L, 4 * i + 4), ""), limit, "");
        for (unsigned i = 0; i < n; i++) {
            if (de != WL_SRC_NULL)
                wl_l_set_s32(L, (unsigned)de + i, wl_l_i32c(L, 0));
            LLVMBasicBlockRef join = guard(L, ok[i]);
            LLVMValueRef ad = LLVMBuildAdd(L->b, a0, wl_l_i64c(L, 4 * i), "");
            LLVMValueRef v = wl_l_call(L, "wl.sload.b32", L->i32, &ad, 1);
            if (de != WL_SRC_NULL)
                wl_l_set_s32(L, (unsigned)de + i, v);
            unguard(L, join);
        }
        return WL_OK;
    }
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef ad = LLVMBuildAdd(B, a0, wl_l_i64c(L, 4 * i), "");
        vals[i] = wl_l_call(L, "wl.sload.b32", L->i32, &ad, 1);
    }
    if (de != WL_SRC_NULL)
        for (unsigned i = 0; i < n; i++)
            wl_l_set_s32(L, (unsigned)de + i, vals[i]);
    return WL_OK;
}

static const char *const satomic_ops[] = {"swap", "cmpswap", "add", "sub", "smin", "umin", "smax",
                                          "umax", "and", "or",      "xor", "inc", "dec"};

/* s_atomic_OP[_x2] / s_buffer_atomic_OP[_x2]: `op` is the name after the
 * "atomic_" prefix. Operands: src[0] DATA (1, 2 or 4 SGPRs), src[1] the
 * base, then soffset and the offset; dst[0] is DATA when GLC is set. */
static wl_status lift_atomic(wl_lifter *L, const wl_inst *in, int buffer, const char *op)
{
    LLVMBuilderRef B = L->b;
    char opn[16];
    size_t ol = strlen(op);
    int x2 = ol > 3 && strcmp(op + ol - 3, "_x2") == 0;
    if (x2)
        ol -= 3;
    const char *known = NULL;
    for (size_t i = 0; i < sizeof satomic_ops / sizeof satomic_ops[0]; i++)
        if (strlen(satomic_ops[i]) == ol && strncmp(op, satomic_ops[i], ol) == 0)
            known = satomic_ops[i];
    if (!known)
        return wl_l_refuse(L, "scalar atomic not supported");
    snprintf(opn, sizeof opn, "%s", known);
    int cmpswap = strcmp(opn, "cmpswap") == 0;
    unsigned bits = x2 ? 64 : 32, words = bits / 32;
    int de = reg_enc(L, &in->src[0]), be = reg_enc(L, &in->src[1]);
    if (de < 0 || be < 0)
        return WL_ERR_UNSUPPORTED;
    unsigned nd = words * (cmpswap ? 2 : 1);
    if (de == WL_SRC_NULL || de + nd > WL_SRC_SGPR_MAX + 1)
        return wl_l_refuse(L, "data registers out of range");
    int glc = in->ndst > 0;
    LLVMTypeRef t = bits == 64 ? L->i64 : L->i32;
    /* every source is read before the destination is written */
    LLVMValueRef v = bits == 64 ? wl_l_get_s64(L, (unsigned)de) : wl_l_get_s32(L, (unsigned)de);
    LLVMValueRef cmp = NULL;
    if (cmpswap)
        cmp = bits == 64 ? wl_l_get_s64(L, (unsigned)de + 2) : wl_l_get_s32(L, (unsigned)de + 1);
    LLVMValueRef a0, off64, limit;
    smem_address(L, in, 1, be, buffer, &a0, &off64, &limit);
    LLVMValueRef ok = NULL;
    if (buffer)
        ok = LLVMBuildICmp(B, LLVMIntULE, LLVMBuildAdd(B, off64, wl_l_i64c(L, bits / 8), ""), limit, "");
    if (glc && ok) {
        /* not performed: GLC returns 0 */
        if (bits == 64)
            wl_l_set_s64(L, (unsigned)de, wl_l_i64c(L, 0));
        else
            wl_l_set_s32(L, (unsigned)de, wl_l_i32c(L, 0));
    }
    LLVMBasicBlockRef join = ok ? guard(L, ok) : NULL;
    char fname[48];
    snprintf(fname, sizeof fname, "wl.satomic.%s.b%u", opn, bits);
    LLVMValueRef args[3] = {a0, cmpswap ? cmp : v, v};
    LLVMValueRef r = wl_l_call(L, fname, t, args, cmpswap ? 3 : 2);
    if (glc) {
        if (bits == 64)
            wl_l_set_s64(L, (unsigned)de, r);
        else
            wl_l_set_s32(L, (unsigned)de, r);
    }
    if (join)
        unguard(L, join);
    return WL_OK;
}

wl_status wl_lift_smem(wl_lifter *L, const wl_inst *in)
{
    const char *n = in->name ? in->name : "";
    if (strncmp(n, "s_load_dword", 12) == 0)
        return lift_access(L, in, 0, 0);
    if (strncmp(n, "s_buffer_load_dword", 19) == 0)
        return lift_access(L, in, 1, 0);
    if (strncmp(n, "s_store_dword", 13) == 0)
        return lift_access(L, in, 0, 1);
    if (strncmp(n, "s_buffer_store_dword", 20) == 0)
        return lift_access(L, in, 1, 1);
    if (strncmp(n, "s_atomic_", 9) == 0)
        return lift_atomic(L, in, 0, n + 9);
    if (strncmp(n, "s_buffer_atomic_", 16) == 0)
        return lift_atomic(L, in, 1, n + 16);
    if (strcmp(n, "s_memtime") == 0 || strcmp(n, "s_memrealtime") == 0) {
        int e = reg_enc(L, &in->dst[0]);
        if (e < 0)
            return WL_ERR_UNSUPPORTED;
        wl_l_set_s64(L, (unsigned)e, wl_l_call(L, "wl.memtime", L->i64, NULL, 0));
        return WL_OK;
    }
    if (strcmp(n, "s_get_waveid_in_workgroup") == 0) {
        int e = reg_enc(L, &in->dst[0]);
        if (e < 0)
            return WL_ERR_UNSUPPORTED;
        wl_l_set_s32(L, (unsigned)e, wl_l_call(L, "wl.wave_id", L->i32, NULL, 0));
        return WL_OK;
    }
    if (strcmp(n, "s_dcache_inv") == 0 || strcmp(n, "s_dcache_wb") == 0 ||
        strcmp(n, "s_gl1_inv") == 0 || strncmp(n, "s_dcache_discard", 16) == 0 ||
        strncmp(n, "s_atc_probe", 11) == 0)
        return WL_OK;
    return wl_l_refuse(L, "not supported");
}
