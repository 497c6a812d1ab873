/* The vector-memory atomics that have no wl.atomic operation of their own,
 * lifted as compare-and-swap loops over the documented calls
 * (docs/wave-ir.md): the float compare-and-swap (buffer_, global_ and
 * flat_atomic_fcmpswap and _x2) and gfx1030's clamping subtract
 * (buffer_ and global_atomic_csub). The ISA's definitions:
 *
 *   fcmpswap  tmp = MEM; MEM = (tmp == cmp) ? src : tmp; RETURN = tmp
 *             (== compares floats: -0 equals +0, a NaN equals nothing,
 *             every other value only itself; what is stored and returned
 *             are the bits as they are)
 *   csub      tmp = MEM; MEM = tmp < data ? 0 : tmp - data; RETURN = tmp
 *             (unsigned 32 bits)
 *
 * Control flow stays uniform: the loop runs until every lane that takes
 * part has finished, and the lanes that have are a ballot (a uniform phi):
 *
 *   loop: done = phi [0, before], [done', loop]
 *         mine = active && !done[lane]
 *         cur  = wl.atomic.SP.or.bN(addr, 0, mine)           an atomic read
 *         fcmpswap: want = cur equals cmp (above), new = src
 *         csub:     want = 1, new = cur < data ? 0 : cur - data
 *         got  = wl.atomic.SP.cmpswap.bN(addr, cur, new, mine && want)
 *         fin  = mine && (!want || got == cur)
 *         the destination VGPR(s) take cur where fin (a returning form)
 *         done' = done | ballot(fin)
 *         br (ballot(active) & ~done') != 0, loop, after
 *
 * A lane finishes at its read (no swap: the value it read was there) or at
 * a compare-and-swap that found cur (the operation happened there), so the
 * result is one the hardware's single atomic could give. The equality is
 * computed on the bits, so the host's treatment of denormals in compares
 * does not enter; denormals are compared as the numbers they are (whether
 * the hardware's memory atomic flushes them is not settled by any source
 * found; docs/lift-valu.md). */
#include "lift_mem_cas.h"

#include <string.h>

bool wl_lm_atomic_op(const char *suffix, unsigned *bits, wl_atop *at, int *loop)
{
    char op[24];
    size_t n = strlen(suffix);
    if (n >= sizeof op)
        return false;
    memcpy(op, suffix, n + 1);
    *bits = 32;
    if (n > 3 && strcmp(op + n - 3, "_x2") == 0) {
        op[n - 3] = '\0';
        *bits = 64;
    }
    *loop = !strcmp(op, "fcmpswap") ? 1 + WL_CAS_FCMPSWAP : (!strcmp(op, "csub") && *bits == 32) ? 1 + WL_CAS_CSUB : 0;
    *at = *loop ? WL_AT_NONE : wl_lm_atop(op);
    return *loop || (*at != WL_AT_NONE && *at != WL_AT_FADD);
}

/* i1: a and b (iN) are equal as IEEE floats of N bits. */
static LLVMValueRef float_eq(wl_lifter *L, unsigned bits, LLVMValueRef a, LLVMValueRef b)
{
    LLVMBuilderRef B = L->b;
    LLVMTypeRef t = bits == 64 ? L->i64 : L->i32;
    uint64_t mag = bits == 64 ? 0x7fffffffffffffffull : 0x7fffffffu;
    uint64_t inf = bits == 64 ? 0x7ff0000000000000ull : 0x7f800000u;
    LLVMValueRef m = LLVMConstInt(t, mag, 0), infc = LLVMConstInt(t, inf, 0), zero = LLVMConstInt(t, 0, 0);
    LLVMValueRef ma = LLVMBuildAnd(B, a, m, ""), mb = LLVMBuildAnd(B, b, m, "");
    LLVMValueRef nan = LLVMBuildOr(B, LLVMBuildICmp(B, LLVMIntUGT, ma, infc, ""),
                                   LLVMBuildICmp(B, LLVMIntUGT, mb, infc, ""), "");
    LLVMValueRef same = LLVMBuildICmp(B, LLVMIntEQ, a, b, "");
    LLVMValueRef zeros = LLVMBuildICmp(B, LLVMIntEQ, LLVMBuildOr(B, ma, mb, ""), zero, "");
    return LLVMBuildAnd(B, LLVMBuildNot(B, nan, ""), LLVMBuildOr(B, same, zeros, ""), "");
}

void wl_lm_cas_loop(wl_lifter *L, wl_cas_kind kind, wl_space sp, unsigned bits, LLVMValueRef addr,
                    LLVMValueRef data, LLVMValueRef cmp, LLVMValueRef active, int vdst)
{
    LLVMBuilderRef B = L->b;
    LLVMTypeRef t = bits == 64 ? L->i64 : L->i32;
    LLVMValueRef all = wl_l_call(L, "wl.ballot", L->i64, &active, 1);
    LLVMValueRef lane = wl_l_call(L, "wl.lane_id", L->i32, NULL, 0);
    LLVMBasicBlockRef before = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(L->ctx, L->fn, "cas.loop");
    LLVMBasicBlockRef after = LLVMAppendBasicBlockInContext(L->ctx, L->fn, "cas.after");
    LLVMBuildBr(B, loop);
    LLVMPositionBuilderAtEnd(B, loop);
    LLVMValueRef done = LLVMBuildPhi(B, L->i64, "cas.done");

    LLVMValueRef mine = LLVMBuildAnd(B, active, LLVMBuildNot(B, wl_lm_mask_bit(L, done, lane), ""), "");
    LLVMValueRef cur = wl_lm_atomic(L, sp, WL_AT_OR, bits, addr, LLVMConstInt(t, 0, 0), mine);
    LLVMValueRef want, nv;
    if (kind == WL_CAS_FCMPSWAP) {
        want = float_eq(L, bits, cur, cmp);
        nv = data;
    } else {
        want = LLVMConstInt(L->i1, 1, 0);
        nv = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntULT, cur, data, ""), LLVMConstInt(t, 0, 0),
                             LLVMBuildSub(B, cur, data, ""), "");
    }
    LLVMValueRef got = wl_lm_cmpswap(L, sp, bits, addr, cur, nv, LLVMBuildAnd(B, mine, want, ""));
    LLVMValueRef fin = LLVMBuildAnd(B, mine, LLVMBuildOr(B, LLVMBuildNot(B, want, ""),
                                                         LLVMBuildICmp(B, LLVMIntEQ, got, cur, ""), ""), "");
    if (vdst >= 0) {
        if (bits == 64) {
            wl_l_set_v32_if(L, (unsigned)vdst, LLVMBuildTrunc(B, cur, L->i32, ""), fin);
            wl_l_set_v32_if(L, (unsigned)vdst + 1,
                            LLVMBuildTrunc(B, LLVMBuildLShr(B, cur, wl_l_i64c(L, 32), ""), L->i32, ""), fin);
        } else {
            wl_l_set_v32_if(L, (unsigned)vdst, cur, fin);
        }
    }
    LLVMValueRef now = LLVMBuildOr(B, done, wl_l_call(L, "wl.ballot", L->i64, &fin, 1), "");
    LLVMValueRef left = LLVMBuildAnd(B, all, LLVMBuildNot(B, now, ""), "");
    LLVMBasicBlockRef end = LLVMGetInsertBlock(B);
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntNE, left, wl_l_i64c(L, 0), ""), loop, after);
    LLVMValueRef inc[2] = {wl_l_i64c(L, 0), now};
    LLVMBasicBlockRef from[2] = {before, end};
    LLVMAddIncoming(done, inc, from, 2);
    LLVMPositionBuilderAtEnd(B, after);
}
