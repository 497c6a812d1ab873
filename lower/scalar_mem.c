/* Scalar stores and scalar atomics (scalar_mem.h; docs/wave-ir.md,
 * docs/lanes.md, docs/wave-model.md).
 *
 * The wave IR has them as uniform calls, performed once per wave:
 *   void @wl.sstore.b32(i64 addr, i32 v)
 *   iN   @wl.satomic.OP.bN(i64 addr, iN v)             OP: swap add sub smin
 *                                                      umin smax umax and or
 *                                                      xor inc dec
 *   iN   @wl.satomic.cmpswap.bN(i64 addr, iN cmp, iN new)
 *
 * Both models replace one by a call to memory.c's global helper of the same
 * access (@wl.h.store.global.b32, @wl.h.atomic.global.OP.bN: through the
 * guest mapping, inlined later), with `active` true in exactly one
 * invocation of the wave:
 *
 *   lanes model (whole_wave = 0): the wave is a host subgroup of S
 *   invocations, each of which computes the scalar state (D880), so every
 *   one of them reaches the call with the same operands. Performed by all,
 *   the access would happen S times (a sum of adds S-fold, a store racing
 *   itself). So:
 *       spv.barrier.subgroup            the wave's earlier accesses first
 *       %el = spv.subgroup.elect()      the lowest active invocation
 *       %r  = helper(..., active = %el) the others do nothing and get 0
 *       %r' = spv.subgroup.broadcast_first(%r)   the elected one's value
 *       spv.barrier.subgroup            the access before the wave's next
 *   Control flow is uniform in the wave, and the lanes model runs full
 *   subgroups, so all S invocations are active at the call and the first
 *   active invocation, whose value broadcast_first returns, is the elected
 *   one.
 *
 *   wave model (whole_wave = 1): the invocation is the wave; the helper
 *   runs with `active` true, once. No subgroup operation. */
#include <stdio.h>
#include <string.h>

#include "scalar_mem.h"

static const char *const ops[] = {"swap", "cmpswap", "add", "sub", "smin", "umin", "smax",
                                  "umax", "and",     "or",  "xor", "inc",  "dec"};

/* "wl.satomic.OP.bN": the op's index and N, or -1 */
static int parse_satomic(const char *name, size_t len, unsigned *bits)
{
    const size_t pl = strlen("wl.satomic.");
    if (len < pl + 5)
        return -1;
    const char *op = name + pl;
    size_t ol = len - pl - 4;
    if (!memcmp(name + len - 4, ".b32", 4))
        *bits = 32;
    else if (!memcmp(name + len - 4, ".b64", 4))
        *bits = 64;
    else
        return -1;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strlen(ops[i]) == ol && !memcmp(op, ops[i], ol))
            return (int)i;
    return -1;
}

wl_status wl_lc_lower_scalar_mem(wl_lower_ctx *L, LLVMValueRef call, const char *name, size_t len, int whole_wave)
{
    int store = wl_lc_prefix(name, len, "wl.sstore.") != 0;
    if (!store && !wl_lc_prefix(name, len, "wl.satomic."))
        return WL_ERR_NOT_FOUND;
    char hname[64];
    unsigned bits = 32;
    int op = -1;
    if (store) {
        if (len != strlen("wl.sstore.b32"))
            return wl_lc_fail(L, WL_ERR_UNSUPPORTED, call, "@%.*s is not a wave IR function", (int)len, name);
        snprintf(hname, sizeof hname, "wl.h.store.global.b32.a4"); /* the address & -4: SMEM ignores bits 1:0 */
    } else {
        op = parse_satomic(name, len, &bits);
        if (op < 0)
            return wl_lc_fail(L, WL_ERR_UNSUPPORTED, call, "@%.*s is not a wave IR function", (int)len, name);
        snprintf(hname, sizeof hname, "wl.h.atomic.global.%s.b%u", ops[op], bits);
    }
    /* the operands: addr, the value(s); all uniform */
    unsigned na = (unsigned)LLVMGetNumArgOperands(call);
    unsigned want = store ? 2 : (!strcmp(ops[op], "cmpswap") ? 3 : 2);
    LLVMTypeRef vt = bits == 64 ? L->i64 : L->i32;
    if (na != want || LLVMTypeOf(LLVMGetOperand(call, 0)) != L->i64 ||
        (!store && LLVMTypeOf(call) != vt))
        return wl_lc_fail(L, WL_ERR_INVALID, call, "@%.*s has the wrong signature", (int)len, name);
    if (wl_lc_find(L, call) >= 0)
        return wl_lc_fail(L, WL_ERR_INVALID, call, "a scalar memory access with a varying result");
    LLVMValueRef args[6];
    for (unsigned i = 0; i < na; i++) {
        args[i] = LLVMGetOperand(call, i);
        if ((i > 0 && LLVMTypeOf(args[i]) != vt) || wl_lc_find(L, args[i]) >= 0)
            return wl_lc_fail(L, WL_ERR_INVALID, call, "a scalar memory access with a varying or ill-typed operand");
    }
    LLVMValueRef h = LLVMGetNamedFunction(L->m, hname);
    if (!h)
        return wl_lc_fail(L, WL_ERR_INVALID, call, "@%s is missing (helpers not linked)", hname);
    LLVMTypeRef hty = LLVMGlobalGetValueType(h);
    if (LLVMCountParams(h) != na + 2)
        return wl_lc_fail(L, WL_ERR_INVALID, call, "@%s has an unexpected signature", hname);

    LLVMPositionBuilderBefore(L->b, call);
    if (store)
        args[0] = LLVMBuildAnd(L->b, args[0], LLVMConstInt(L->i64, ~3ull, 0), "");
    LLVMValueRef el;
    if (whole_wave) {
        el = LLVMConstInt(L->i1, 1, 0);
    } else {
        wl_lc_call(L, "spv.barrier.subgroup", L->t_void, NULL, 0);
        el = wl_lc_call(L, "spv.subgroup.elect", L->i1, NULL, 0);
    }
    LLVMValueRef lane = L->p ? L->p : LLVMConstInt(L->i32, 0, 0);
    if (bits == 64) {
        /* a 64-bit atomic needs an 8-byte aligned host address: at one 4-
         * but not 8-byte aligned, an escape (the runtime refuses the run)
         * and nothing done, never a silently wrong value */
        LLVMValueRef lo = LLVMBuildAnd(L->b, args[0], LLVMConstInt(L->i64, 7, 0), "");
        LLVMValueRef al = LLVMBuildICmp(L->b, LLVMIntEQ, lo, LLVMConstInt(L->i64, 0, 0), "al8");
        LLVMValueRef esc = LLVMGetNamedFunction(L->m, "wl.h.escape");
        if (!esc || LLVMCountParams(esc) != 4)
            return wl_lc_fail(L, WL_ERR_INVALID, call, "@wl.h.escape is missing (helpers not linked)");
        LLVMValueRef ea[4] = {LLVMConstInt(L->i32, WL_ESC_UNALIGNED64, 0), LLVMConstInt(L->i32, 0, 0),
                              LLVMBuildAnd(L->b, el, LLVMBuildNot(L->b, al, ""), ""), lane};
        LLVMBuildCall2(L->b, LLVMGlobalGetValueType(esc), esc, ea, 4, "");
        el = LLVMBuildAnd(L->b, el, al, "");
    }
    args[na] = el;
    args[na + 1] = lane;
    for (unsigned i = 0; i < na + 2; i++)
        if (LLVMTypeOf(args[i]) != LLVMTypeOf(LLVMGetParam(h, i)))
            return wl_lc_fail(L, WL_ERR_INVALID, call, "@%s has an unexpected signature", hname);
    LLVMValueRef r = LLVMBuildCall2(L->b, hty, h, args, na + 2, "");
    if (!store && !whole_wave) {
        LLVMValueRef one = r;
        r = wl_lc_call(L, bits == 64 ? "spv.subgroup.broadcast_first.i64" : "spv.subgroup.broadcast_first.i32",
                       vt, &one, 1);
    }
    if (!whole_wave)
        wl_lc_call(L, "spv.barrier.subgroup", L->t_void, NULL, 0);
    return wl_lc_replace(L, call, 0, call, store ? NULL : r);
}
