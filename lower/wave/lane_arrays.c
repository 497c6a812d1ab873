/* Lane arrays of the wave model (docs/wave-model.md).
 *
 * Requires: the lane loops of wave/lane_loops.c (every varying instruction but
 * the allocas inside one), the cross-lane reads recorded.
 * Leaves:
 *   - every varying alloca of T as an alloca [W x T]; its loads and stores
 *     index it by their loop's lane (VGPRs are arrays over the lanes);
 *   - every varying value used outside its loop stored, in its loop, to an
 *     array [W x T] of its own (i1 as i32), and read back at the top of each
 *     loop that uses it (lane id, thread id and EXEC bits of a uniform mask
 *     are computed again there instead: cheaper than an array);
 *   - wl.shuffle and wl.readfirstlane of a varying source as a read of the
 *     source's array at the lane they name (mod W; readfirstlane: the
 *     lowest lane set in the mask, lane 0 when none); those wave/lane_loops.c
 *     marked direct (V->dxl) read the VGPR's own array instead.
 * A slot is addressed by its byte offset (lane * size), which LLVM shares
 * within a loop and the backend uses as it is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wave_internal.h"

static LLVMValueRef c32(wl_lower_ctx *L, uint64_t v) { return LLVMConstInt(L->i32, v, 0); }

/* the natural alignment of an array element (the backend wants at least it) */
static unsigned elem_align(wl_lower_ctx *L, LLVMTypeRef t)
{
    (void)L;
    LLVMTypeKind k = LLVMGetTypeKind(t);
    unsigned bits = k == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(t)
                    : k == LLVMDoubleTypeKind ? 64
                    : k == LLVMHalfTypeKind   ? 16
                                              : 32;
    return bits >= 64 ? 8 : bits >= 32 ? 4 : bits / 8 ? bits / 8 : 1;
}


/* the array's element type for values of type t */
static LLVMTypeRef elem_of(wl_lower_ctx *L, LLVMTypeRef t) { return t == L->i1 ? L->i32 : t; }

static LLVMValueRef new_array(wl_wv *V, LLVMTypeRef t, const char *name)
{
    wl_lower_ctx *L = &V->L;
    LLVMBasicBlockRef e = LLVMGetEntryBasicBlock(L->fn);
    LLVMValueRef first = LLVMGetFirstInstruction(e);
    LLVMPositionBuilderBefore(L->b, first);
    LLVMValueRef a = LLVMBuildAlloca(L->b, LLVMArrayType2(elem_of(L, t), L->W), name);
    LLVMSetAlignment(a, 8);
    return a;
}

static LLVMValueRef slot(wl_wv *V, LLVMValueRef arr, LLVMTypeRef t, LLVMValueRef lane)
{
    wl_lower_ctx *L = &V->L;
    /* a byte offset (lane * size, which LLVM shares within a loop): the
     * backend then indexes the array's units without scaling each access */
    LLVMTypeRef et = elem_of(L, t);
    unsigned size = LLVMGetTypeKind(et) == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(et) / 8
                    : LLVMGetTypeKind(et) == LLVMDoubleTypeKind ? 8
                    : LLVMGetTypeKind(et) == LLVMHalfTypeKind   ? 2
                                                                : 4;
    /* lane < W <= 64 and size <= 8: no bit is lost (nuw), so the backend
     * indexes units by the lane itself where size is the unit's */
    LLVMValueRef off = LLVMBuildNUWMul(L->b, lane, c32(L, size ? size : 1), "");
    return LLVMBuildGEP2(L->b, L->i8, arr, &off, 1, "");
}

/* builder positioned: the value of array `arr` (values of type t) at `lane` */
static LLVMValueRef read_slot(wl_wv *V, LLVMValueRef arr, LLVMTypeRef t, LLVMValueRef lane, const char *name)
{
    wl_lower_ctx *L = &V->L;
    LLVMValueRef v = LLVMBuildLoad2(L->b, elem_of(L, t), slot(V, arr, t, lane), name);
    LLVMSetAlignment(v, elem_align(L, elem_of(L, t)));
    return t == L->i1 ? LLVMBuildTrunc(L->b, v, L->i1, "") : v;
}

static void write_slot(wl_wv *V, LLVMValueRef arr, LLVMValueRef v, LLVMValueRef lane)
{
    wl_lower_ctx *L = &V->L;
    LLVMTypeRef t = LLVMTypeOf(v);
    LLVMValueRef x = t == L->i1 ? LLVMBuildZExt(L->b, v, L->i32, "") : v;
    LLVMValueRef s = LLVMBuildStore(L->b, x, slot(V, arr, t, lane));
    LLVMSetAlignment(s, elem_align(L, LLVMTypeOf(x)));
}

/* the first instruction of a loop block after its phis */
static LLVMValueRef loop_top(LLVMBasicBlockRef bb)
{
    LLVMValueRef I = LLVMGetFirstInstruction(bb);
    while (I && LLVMIsAPHINode(I))
        I = LLVMGetNextInstruction(I);
    return I;
}

/* builder positioned before X: the lane a wl.shuffle or wl.readfirstlane
 * reads (shuffle: its lane mod W; readfirstlane: the lowest lane of its
 * mask, lane 0 when none) */
static LLVMValueRef xread_lane(wl_wv *V, LLVMValueRef X)
{
    wl_lower_ctx *L = &V->L;
    size_t len;
    const char *n = wl_lc_callee(X, &len);
    LLVMValueRef lane;
    if (wl_lc_prefix(n, len, "wl.readfirstlane")) {
        LLVMValueRef e = LLVMGetOperand(X, 1);
        LLVMTypeRef t = L->i64;
        unsigned id = LLVMLookupIntrinsicID("llvm.cttz", 9);
        LLVMValueRef f = LLVMGetIntrinsicDeclaration(L->m, id, &t, 1);
        LLVMValueRef args[2] = {e, LLVMConstInt(L->i1, 0, 0)};
        LLVMValueRef tz = LLVMBuildCall2(L->b, LLVMGlobalGetValueType(f), f, args, 2, "");
        lane = LLVMBuildSelect(L->b, LLVMBuildICmp(L->b, LLVMIntEQ, e, LLVMConstInt(L->i64, 0, 0), ""), c32(L, 0),
                               LLVMBuildTrunc(L->b, tz, L->i32, ""), "first");
    } else {
        lane = LLVMGetOperand(X, 1);
    }
    return LLVMBuildAnd(L->b, lane, c32(L, L->W - 1), "");
}

/* VGPRs (and any alloca a varying value is stored to): [W x T] */
static wl_status alloca_arrays(wl_wv *V)
{
    wl_lower_ctx *L = &V->L;
    LLVMBasicBlockRef e = LLVMGetEntryBasicBlock(L->fn);
    size_t n = 0, cap = 64;
    LLVMValueRef *as = malloc(cap * sizeof *as);
    if (!as)
        return wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
    for (LLVMValueRef I = LLVMGetFirstInstruction(e); I; I = LLVMGetNextInstruction(I))
        if (LLVMIsAAllocaInst(I) && wl_lc_find(L, I) >= 0) {
            if (n == cap) {
                LLVMValueRef *na = realloc(as, 2 * cap * sizeof *na);
                if (!na) {
                    free(as);
                    return wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
                }
                as = na;
                cap *= 2;
            }
            as[n++] = I;
        }
    wl_status st = WL_OK;
    for (size_t i = 0; i < n && !st; i++) {
        LLVMValueRef A = as[i];
        LLVMTypeRef t = LLVMGetAllocatedType(A);
        size_t nl;
        const char *nm = LLVMGetValueName2(A, &nl);
        char name[96];
        snprintf(name, sizeof name, "%.*s.lanes", (int)(nl > 80 ? 80 : nl), nm);
        LLVMValueRef arr = new_array(V, t, name);
        /* the cross-lane reads of this VGPR's value at their block's top
         * (wave/lane_loops.c): its array at the lane they name */
        for (size_t d = 0; d < V->ndxl; d++)
            if (V->dxa[d] == A) {
                LLVMValueRef X = V->dxl[d];
                LLVMPositionBuilderBefore(L->b, X);
                LLVMValueRef v = read_slot(V, arr, t, xread_lane(V, X), "vgpr.xlane");
                LLVMReplaceAllUsesWith(X, v);
                wl_lc_forget(&V->L, X);
                LLVMInstructionEraseFromParent(X);
                V->dxa[d] = NULL;
            }
        for (LLVMUseRef u = LLVMGetFirstUse(A); u && !st; u = LLVMGetFirstUse(A)) {
            LLVMValueRef U = LLVMGetUser(u);
            long li = LLVMIsAInstruction(U) ? wl_wv_loop(V, LLVMGetInstructionParent(U)) : -1;
            int is_load = LLVMIsALoadInst(U) != NULL;
            int is_store = LLVMIsAStoreInst(U) && LLVMGetOperand(U, 1) == A && LLVMGetOperand(U, 0) != A;
            if (li < 0 || (!is_load && !is_store)) {
                st = wl_lc_fail(L, WL_ERR_UNSUPPORTED, U, "wave model: a register alloca used outside a lane loop");
                break;
            }
            LLVMPositionBuilderBefore(L->b, U);
            /* InstCombine (wave/prepare.c) reads a register as the type its
             * user wants (a float from an i32 VGPR): the same bits */
            LLVMTypeRef ut = is_load ? LLVMTypeOf(U) : LLVMTypeOf(LLVMGetOperand(U, 0));
            unsigned tb = wl_lc_type_bits(t);
            if (ut != t && (wl_lc_type_bits(ut) != tb || !tb || t == L->i1 || ut == L->i1)) {
                st = wl_lc_fail(L, WL_ERR_UNSUPPORTED, U, "wave model: a register accessed as another type");
                break;
            }
            if (is_load) {
                LLVMValueRef v = read_slot(V, arr, t, V->lane[li], "");
                if (ut != t)
                    v = LLVMBuildBitCast(L->b, v, ut, "");
                LLVMReplaceAllUsesWith(U, v);
                if (wl_lc_find(L, U) >= 0)
                    wl_lc_alias(L, v, wl_lc_find(L, U));
            } else {
                LLVMValueRef x = LLVMGetOperand(U, 0);
                if (ut != t)
                    x = LLVMBuildBitCast(L->b, x, t, "");
                write_slot(V, arr, x, V->lane[li]);
            }
            wl_lc_forget(&V->L, U);
            LLVMInstructionEraseFromParent(U);
        }
        wl_lc_forget(&V->L, A);
        LLVMInstructionEraseFromParent(A);
    }
    free(as);
    return st;
}

/* Values computed again in each loop that uses them rather than kept in a
 * lane array: lane id, thread id and EXEC bits of uniform operands, and
 * small pure expressions of those and of uniform values (a DPP row mask
 * `lane & 15`, the next lane `(lane + 1) & 63`): a few instructions in
 * place of a store in one loop and a load in each other. A value another
 * lane reads (V->xsrc) keeps its array. */
enum { REMAT_MAX = 8 }; /* instructions in one recomputed expression */

static int remat_size(wl_wv *V, LLVMValueRef I, int depth);

/* operand o of a recomputed expression: its cost (0 for a constant or a
 * uniform value outside the loops), -1 when it cannot be recomputed */
static int operand_cost(wl_wv *V, LLVMValueRef o, int depth)
{
    wl_lower_ctx *L = &V->L;
    if (!LLVMIsAInstruction(o))
        return LLVMIsABasicBlock(o) ? -1 : 0;
    if (wl_lc_find(L, o) < 0)
        return wl_wv_loop(V, LLVMGetInstructionParent(o)) < 0 ? 0 : -1; /* a mask made in a loop: no */
    return remat_size(V, o, depth + 1);
}

static int remat_size(wl_wv *V, LLVMValueRef I, int depth)
{
    wl_lower_ctx *L = &V->L;
    long memo = wl_ptrmap_get(&V->remat, I);
    if (memo >= 0)
        return (int)memo - 1;
    int size = -1;
    if (depth > REMAT_MAX || wl_ptrmap_get(&V->xsrc, I) >= 0 || wl_lc_find(L, I) < 0)
        return -1;
    size_t len;
    const char *n = wl_lc_callee(I, &len);
    int nops = LLVMGetNumOperands(I);
    if (n) {
        if (wl_lc_prefix(n, len, "wl.lane_id") || wl_lc_prefix(n, len, "wl.thread_id") ||
            wl_lc_prefix(n, len, "wl.lane_active")) {
            size = 1;
            for (int i = 0; i + 1 < nops && size > 0; i++)
                if (wl_lc_find(L, LLVMGetOperand(I, (unsigned)i)) >= 0)
                    size = -1;
        }
    } else if (LLVMIsABinaryOperator(I) || LLVMIsAICmpInst(I) || LLVMIsASelectInst(I) || LLVMIsACastInst(I)) {
        LLVMOpcode op = LLVMGetInstructionOpcode(I);
        int traps = op == LLVMUDiv || op == LLVMSDiv || op == LLVMURem || op == LLVMSRem;
        size = traps || LLVMIsAAddrSpaceCastInst(I) ? -1 : 1;
        for (int i = 0; i < nops && size > 0; i++) {
            int c = operand_cost(V, LLVMGetOperand(I, (unsigned)i), depth);
            size = c < 0 ? -1 : size + c;
        }
        if (size > REMAT_MAX)
            size = -1;
    }
    if (!wl_ptrmap_put(&V->remat, I, size + 1))
        return -1;
    return size;
}

static int rematerializable(wl_wv *V, LLVMValueRef I) { return remat_size(V, I, 0) > 0; }

/* builder positioned: I computed again there, with its varying operands
 * computed again too: originals (recomputable, as I is) or copies an
 * earlier step put in another loop (V->copies). Uniform operands stay (a
 * ballot's mask, read after its loop). NULL: out of memory. */
static LLVMValueRef remat_at(wl_wv *V, LLVMValueRef I)
{
    wl_lower_ctx *L = &V->L;
    LLVMValueRef c = LLVMInstructionClone(I);
    int nops = LLVMGetNumOperands(I) - (LLVMIsACallInst(I) ? 1 : 0);
    for (int i = 0; i < nops; i++) {
        LLVMValueRef o = LLVMGetOperand(I, (unsigned)i);
        if (!LLVMIsAInstruction(o) || (wl_lc_find(L, o) < 0 && wl_ptrmap_get(&V->copies, o) < 0))
            continue;
        LLVMValueRef oc = remat_at(V, o);
        if (!oc) {
            LLVMDeleteInstruction(c);
            return NULL;
        }
        LLVMSetOperand(c, (unsigned)i, oc);
    }
    LLVMInsertIntoBuilder(L->b, c);
    return wl_ptrmap_put(&V->copies, c, 1) ? c : NULL;
}

/* the varying sources of the cross-lane reads: they keep their arrays */
static wl_status mark_xsources(wl_wv *V)
{
    for (size_t i = 0; i < V->nxl; i++)
        if (!wl_ptrmap_put(&V->xsrc, LLVMGetOperand(V->xl[i], 0), 1))
            return wl_lc_fail(&V->L, WL_ERR_NOMEM, NULL, "out of memory");
    return WL_OK;
}

/* the spills: values used outside their loop get an array, written in the loop */
static wl_status spill_values(wl_wv *V)
{
    wl_lower_ctx *L = &V->L;
    for (size_t li = 0; li < V->nloops; li++) {
        LLVMBasicBlockRef bb = V->bb[li];
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I)) {
            if (LLVMTypeOf(I) == L->t_void || wl_lc_find(L, I) < 0 || rematerializable(V, I))
                continue;
            int outside = 0;
            for (LLVMUseRef u = LLVMGetFirstUse(I); u && !outside; u = LLVMGetNextUse(u)) {
                LLVMValueRef U = LLVMGetUser(u);
                outside = !LLVMIsAInstruction(U) || LLVMGetInstructionParent(U) != bb;
            }
            if (!outside)
                continue;
            LLVMTypeKind k = LLVMGetTypeKind(LLVMTypeOf(I));
            if (k != LLVMIntegerTypeKind && k != LLVMFloatTypeKind && k != LLVMDoubleTypeKind &&
                k != LLVMHalfTypeKind)
                return wl_lc_fail(L, WL_ERR_UNSUPPORTED, I, "wave model: a varying value of this type crosses lane loops");
            LLVMValueRef arr = new_array(V, LLVMTypeOf(I), "spill");
            LLVMPositionBuilderBefore(L->b, LLVMGetNextInstruction(I));
            write_slot(V, arr, I, V->lane[li]);
            if (V->nspills == V->capspills) {
                size_t nc = V->capspills ? V->capspills * 2 : 64;
                LLVMValueRef *na = realloc(V->spills, nc * sizeof *na);
                if (!na)
                    return wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
                V->spills = na;
                V->capspills = nc;
            }
            if (!wl_ptrmap_put(&V->spill, I, (long)V->nspills))
                return wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
            V->spills[V->nspills++] = arr;
        }
    }
    return WL_OK;
}

static LLVMValueRef spill_array(wl_wv *V, LLVMValueRef v)
{
    long i = wl_ptrmap_get(&V->spill, v);
    return i < 0 ? NULL : V->spills[i];
}

/* wl.shuffle / wl.readfirstlane of a varying source: its array at a lane */
static wl_status lower_xreads(wl_wv *V)
{
    wl_lower_ctx *L = &V->L;
    for (size_t i = 0; i < V->nxl; i++) {
        LLVMValueRef X = V->xl[i];
        LLVMValueRef src = LLVMGetOperand(X, 0);
        LLVMValueRef arr = spill_array(V, src);
        if (!arr)
            return wl_lc_fail(L, WL_ERR_INVALID, X, "wave model: internal: a cross-lane read without its lane array");
        LLVMPositionBuilderBefore(L->b, X);
        LLVMValueRef v = read_slot(V, arr, LLVMTypeOf(X), xread_lane(V, X), "xlane");
        long idx = wl_lc_find(L, X), sp = wl_ptrmap_get(&V->spill, X);
        LLVMReplaceAllUsesWith(X, v);
        if (idx >= 0 && !wl_lc_alias(L, v, idx))
            return wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
        if (sp >= 0 && !wl_ptrmap_put(&V->spill, v, sp)) /* its array, if it has one */
            return wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
        wl_lc_forget(&V->L, X);
        LLVMInstructionEraseFromParent(X);
    }
    V->nxl = 0;
    return WL_OK;
}

/* the uses of spilled (or rematerialized) values in other loops: one
 * reload (or recomputation) at the top of each loop that uses the value */
static wl_status reload_values(wl_wv *V)
{
    wl_lower_ctx *L = &V->L;
    size_t capu = 64, n = V->nloops ? V->nloops : 1;
    LLVMValueRef *users = malloc(capu * sizeof *users);
    LLVMValueRef *val = calloc(n, sizeof *val); /* per loop: this value's reload */
    size_t *touched = malloc(n * sizeof *touched);
    if (!users || !val || !touched) {
        free(users);
        free(val);
        free(touched);
        return wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
    }
    wl_status st = WL_OK;
    for (size_t li = 0; li < V->nloops && !st; li++) {
        LLVMBasicBlockRef bb = V->bb[li];
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I && !st; I = LLVMGetNextInstruction(I)) {
            if (LLVMTypeOf(I) == L->t_void || wl_lc_find(L, I) < 0)
                continue;
            int remat = rematerializable(V, I);
            LLVMValueRef arr = remat ? NULL : spill_array(V, I);
            if (!remat && !arr)
                continue;
            size_t nu = 0;
            for (LLVMUseRef u = LLVMGetFirstUse(I); u; u = LLVMGetNextUse(u)) {
                LLVMValueRef U = LLVMGetUser(u);
                if (LLVMIsAInstruction(U) && LLVMGetInstructionParent(U) == bb)
                    continue;
                if (nu == capu) {
                    LLVMValueRef *nus = realloc(users, 2 * capu * sizeof *nus);
                    if (!nus) {
                        st = wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
                        break;
                    }
                    users = nus;
                    capu *= 2;
                }
                users[nu++] = U;
            }
            size_t nt = 0;
            for (size_t k = 0; k < nu && !st; k++) {
                LLVMValueRef U = users[k];
                long ul = LLVMIsAInstruction(U) ? wl_wv_loop(V, LLVMGetInstructionParent(U)) : -1;
                if (ul < 0 || LLVMIsAPHINode(U)) {
                    st = wl_lc_fail(L, WL_ERR_INVALID, U, "wave model: internal: a lane value used outside the lane loops");
                    break;
                }
                if (!val[ul]) {
                    LLVMPositionBuilderBefore(L->b, loop_top(V->bb[ul]));
                    val[ul] = remat ? remat_at(V, I) : read_slot(V, arr, LLVMTypeOf(I), V->lane[ul], "reload");
                    if (!val[ul]) {
                        st = wl_lc_fail(L, WL_ERR_NOMEM, NULL, "out of memory");
                        break;
                    }
                    touched[nt++] = (size_t)ul;
                }
                int no = LLVMGetNumOperands(U);
                for (int o = 0; o < no; o++)
                    if (LLVMGetOperand(U, (unsigned)o) == I)
                        LLVMSetOperand(U, (unsigned)o, val[ul]);
            }
            for (size_t q = 0; q < nt; q++)
                val[touched[q]] = NULL;
        }
    }
    free(users);
    free(val);
    free(touched);
    return st;
}

wl_status wl_wv_lane_arrays(wl_wv *V)
{
    wl_status st = alloca_arrays(V);
    if (!st)
        st = mark_xsources(V);
    if (!st)
        st = spill_values(V);
    if (!st)
        st = lower_xreads(V);
    if (!st)
        st = reload_values(V);
    return st;
}
