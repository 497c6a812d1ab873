/* Uniformity of the wave IR (docs/wave-ir.md, "Values: uniform and
 * varying"): forward propagation from the varying sources to a fixed point.
 *
 * Varying: VGPR allocas (!wl.vgpr), @wl.lane_id, @wl.thread_id,
 * @wl.lane_active, every per-lane memory call and @wl.escape (performed per
 * lane), @wl.shuffle with a varying lane, any other instruction with a
 * varying operand, and an alloca some store writes a varying value to.
 * Uniform whatever their operands: @wl.ballot, @wl.readfirstlane, @wl.shuffle
 * with a uniform lane. Also the value map the lowering keeps. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"

/* ---- map ------------------------------------------------------------------ */

static size_t hash_ptr(LLVMValueRef v, size_t cap)
{
    uintptr_t x = (uintptr_t)v;
    x ^= x >> 17;
    x *= 0x9E3779B97F4A7C15ull;
    return (size_t)(x >> 20) & (cap - 1);
}

/* the value of a key whose instruction was erased (wl_lc_forget) */
#define WL_LC_GONE UINT32_MAX

long wl_lc_find(const wl_lower_ctx *L, LLVMValueRef v)
{
    if (!L->cap || !v)
        return -1;
    for (size_t i = hash_ptr(v, L->cap);; i = (i + 1) & (L->cap - 1)) {
        if (!L->keys[i])
            return -1;
        if (L->keys[i] == v)
            return L->vals[i] == WL_LC_GONE ? -1 : (long)L->vals[i];
    }
}

/* v is about to be erased: LLVM may give its memory to an instruction made
 * later, which must not inherit v's entry (it would read as varying, with
 * v's clones). Its key stays (the probe chains through it stay whole) and
 * reads as uniform, what a new instruction is until wl_lc_alias says
 * otherwise. */
void wl_lc_forget(wl_lower_ctx *L, LLVMValueRef v)
{
    if (!L->cap || !v)
        return;
    for (size_t i = hash_ptr(v, L->cap);; i = (i + 1) & (L->cap - 1)) {
        if (!L->keys[i])
            return;
        if (L->keys[i] == v) {
            L->vals[i] = WL_LC_GONE;
            return;
        }
    }
}

static int map_put(wl_lower_ctx *L, LLVMValueRef v, uint32_t idx)
{
    if ((L->nkeys + 1) * 2 > L->cap) {
        size_t ncap = L->cap ? L->cap * 2 : 256;
        LLVMValueRef *nk = calloc(ncap, sizeof *nk);
        uint32_t *nv = calloc(ncap, sizeof *nv);
        if (!nk || !nv) {
            free(nk);
            free(nv);
            return 0;
        }
        for (size_t i = 0; i < L->cap; i++)
            if (L->keys[i]) {
                size_t h = hash_ptr(L->keys[i], ncap);
                while (nk[h])
                    h = (h + 1) & (ncap - 1);
                nk[h] = L->keys[i];
                nv[h] = L->vals[i];
            }
        free(L->keys);
        free(L->vals);
        L->keys = nk;
        L->vals = nv;
        L->cap = ncap;
    }
    size_t h = hash_ptr(v, L->cap);
    while (L->keys[h] && L->keys[h] != v)
        h = (h + 1) & (L->cap - 1);
    if (!L->keys[h])
        L->nkeys++;
    L->keys[h] = v;
    L->vals[h] = idx;
    return 1;
}

long wl_lc_add(wl_lower_ctx *L, LLVMValueRef v)
{
    if (L->nvar == L->capvar) {
        size_t nc = L->capvar ? L->capvar * 2 : 256;
        LLVMValueRef *n = realloc(L->clones, nc * L->k * sizeof *n);
        if (!n)
            return -1;
        L->clones = n;
        L->capvar = nc;
    }
    long idx = (long)L->nvar++;
    memset(wl_lc_clones(L, idx), 0, L->k * sizeof(LLVMValueRef));
    wl_lc_clones(L, idx)[0] = v;
    if (!map_put(L, v, (uint32_t)idx))
        return -1;
    return idx;
}

int wl_lc_alias(wl_lower_ctx *L, LLVMValueRef v, long idx)
{
    if (wl_lc_find(L, v) >= 0)
        return 1;
    return map_put(L, v, (uint32_t)idx);
}

LLVMValueRef wl_lc_get(wl_lower_ctx *L, LLVMValueRef v, unsigned j)
{
    long i = wl_lc_find(L, v);
    return i < 0 ? v : wl_lc_clones(L, i)[j];
}

wl_status wl_lc_fail(wl_lower_ctx *L, wl_status st, LLVMValueRef at, const char *fmt, ...)
{
    if (!L->errcap)
        return st;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(L->err, L->errcap, fmt, ap);
    va_end(ap);
    if (at && n >= 0 && (size_t)n + 4 < L->errcap) {
        char *s = LLVMPrintValueToString(at);
        snprintf(L->err + n, L->errcap - (size_t)n, ": `%s`", s);
        LLVMDisposeMessage(s);
    }
    return st;
}

const char *wl_lc_callee(LLVMValueRef call, size_t *len)
{
    if (!LLVMIsACallInst(call))
        return NULL;
    LLVMValueRef f = LLVMGetCalledValue(call);
    if (!f || !LLVMIsAFunction(f))
        return NULL;
    return LLVMGetValueName2(f, len);
}

int wl_lc_prefix(const char *s, size_t len, const char *pre)
{
    size_t n = strlen(pre);
    return len >= n && !memcmp(s, pre, n);
}

int wl_lc_read_program(wl_lower_ctx *L)
{
    wl_wir_info wi;
    if (wl_wir_program_info(L->m, &wi) != 0)
        return 0;
    L->W = wi.wave_size;
    L->lds_bytes = wi.lds_bytes;
    L->scratch_bytes = wi.scratch_bytes;
    L->user_sgprs = wi.user_sgprs;
    return L->W == 32 || L->W == 64;
}

/* ---- the analysis ---------------------------------------------------------- */

enum { K_OPERANDS, K_VARYING, K_UNIFORM, K_SHUFFLE };

static int call_kind(LLVMValueRef I)
{
    size_t len;
    const char *n = wl_lc_callee(I, &len);
    if (!n || !wl_lc_prefix(n, len, "wl."))
        return K_OPERANDS;
    if (wl_lc_prefix(n, len, "wl.lane_id") || wl_lc_prefix(n, len, "wl.thread_id") ||
        wl_lc_prefix(n, len, "wl.lane_active") || wl_lc_prefix(n, len, "wl.load.") ||
        wl_lc_prefix(n, len, "wl.store.") || wl_lc_prefix(n, len, "wl.atomic.") ||
        wl_lc_prefix(n, len, "wl.escape"))
        return K_VARYING;
    if (wl_lc_prefix(n, len, "wl.shuffle"))
        return K_SHUFFLE;
    return K_UNIFORM; /* ballot, readfirstlane, launch state, sload/sstore, barrier */
}

static int any_operand_varying(wl_lower_ctx *L, LLVMValueRef I)
{
    int n = LLVMGetNumOperands(I);
    if (LLVMIsACallInst(I))
        n--; /* the callee */
    for (int i = 0; i < n; i++)
        if (wl_lc_find(L, LLVMGetOperand(I, (unsigned)i)) >= 0)
            return 1;
    return 0;
}

wl_status wl_lc_uniformity(wl_lower_ctx *L)
{
    unsigned vgpr_kind = LLVMGetMDKindIDInContext(L->ctx, "wl.vgpr", 7);
    int changed = 1;
    while (changed) {
        changed = 0;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(L->fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I)) {
                if (wl_lc_find(L, I) >= 0)
                    continue;
                int var = 0;
                LLVMOpcode op = LLVMGetInstructionOpcode(I);
                if (op == LLVMAlloca) {
                    var = LLVMGetMetadata(I, vgpr_kind) != NULL;
                } else if (op == LLVMCall) {
                    int kd = call_kind(I);
                    if (kd == K_VARYING)
                        var = 1;
                    else if (kd == K_SHUFFLE)
                        var = wl_lc_find(L, LLVMGetOperand(I, 1)) >= 0;
                    else if (kd == K_OPERANDS)
                        var = any_operand_varying(L, I);
                } else if (op == LLVMBr) {
                    if (LLVMIsConditional(I) && wl_lc_find(L, LLVMGetCondition(I)) >= 0)
                        return wl_lc_fail(L, WL_ERR_UNSUPPORTED, I, "lanes model: a branch on a varying condition");
                } else if (op == LLVMRet || op == LLVMUnreachable) {
                    var = 0;
                } else {
                    var = any_operand_varying(L, I);
                    /* a varying value stored to an alloca makes the alloca varying */
                    if (op == LLVMStore && wl_lc_find(L, LLVMGetOperand(I, 0)) >= 0) {
                        LLVMValueRef ptr = LLVMGetOperand(I, 1);
                        if (LLVMIsAAllocaInst(ptr) && wl_lc_find(L, ptr) < 0) {
                            if (wl_lc_add(L, ptr) < 0)
                                return wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
                            changed = 1;
                        }
                    }
                }
                if (var) {
                    if (wl_lc_add(L, I) < 0)
                        return wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
                    changed = 1;
                }
            }
    }
    return WL_OK;
}
