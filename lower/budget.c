/* The loop budget (D949, docs/escapes.md): every backward edge of the
 * guest's control flow spends one from a budget of the invocation; the edge
 * taken once it is spent records WL_ESC_LOOP_BUDGET and ends the wave, so
 * a guest's endless loop never holds the device past its watchdog.
 *
 * Requires: the wave IR (@wl.wave), before the model's lowering. There the
 * control flow is the guest's alone and uniform (docs/wave-ir.md): every
 * invocation of a wave takes the same backward edges, so every invocation
 * of a subgroup (one wave in the lanes model) spends the same and all leave
 * together, before any subgroup operation could pair with one left behind.
 * After the lowering the function also holds the lane loops of the wave
 * model (bounded by W) and the helpers' compare-and-swap loops, which are
 * per invocation: counting those would make the budget diverge.
 *
 * Leaves: a counter alloca initialized in the entry block from the push
 * constant (0: default_budget). A backward edge u -> v where u ends in
 * `br c, v, w` (the loop's test; w leaves) keeps one exit: u decrements the
 * counter where it takes the edge and branches to v only where the counter
 * was not 0, else to a block `budget.exit` that goes on to w, or, where the
 * edge was to be taken (the budget spent), to a block calling
 * @wl.escape(WL_ESC_LOOP_BUDGET, header offset, true) and returning. (A
 * second exit from the loop made LLVM's structurizer carry every live value
 * through phis of its own: 20% of a small loop's words, docs/escapes.md.)
 * Any other backward edge is split by a block that decrements the counter
 * and, where it was already 0, branches to that escape block.
 * Backward edges: those to a block on the depth-first stack, which cut every
 * cycle, reducible or not. */
#include "budget.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "wavelift/lower.h"

#include "ir/ptrmap.h" /* wl_ptr_order */
#include "ir/wave_ir.h" /* WL_ESC_LOOP_BUDGET */

typedef struct edge {
    LLVMBasicBlockRef from, to;
} edge;

typedef struct bctx {
    LLVMContextRef ctx;
    LLVMModuleRef m;
    LLVMValueRef fn;
    LLVMBuilderRef b;
    LLVMTypeRef i1, i32, t_void;
    char *err;
    size_t errcap;
} bctx;

static wl_status fail(bctx *c, wl_status st, const char *msg)
{
    if (c->errcap)
        snprintf(c->err, c->errcap, "loop budget: %s", msg);
    return st;
}

/* the function's blocks, sorted by address: a block's index by binary search */
typedef struct bmap {
    LLVMBasicBlockRef *bb;
    size_t n;
} bmap;

static long bindex(const bmap *M, LLVMBasicBlockRef b)
{
    size_t lo = 0, hi = M->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if ((uintptr_t)M->bb[mid] < (uintptr_t)b)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < M->n && M->bb[lo] == b ? (long)lo : -1;
}

/* The backward edges by an iterative depth-first search from the entry. */
static wl_status find_back_edges(bctx *c, edge **out, size_t *nout)
{
    bmap M = {0};
    M.n = LLVMCountBasicBlocks(c->fn);
    M.bb = malloc((M.n ? M.n : 1) * sizeof *M.bb);
    unsigned char *state = calloc(M.n ? M.n : 1, 1); /* 0 new, 1 on the stack, 2 done */
    size_t *stack = malloc((M.n ? M.n : 1) * sizeof *stack), *next = calloc(M.n ? M.n : 1, sizeof *next);
    edge *E = NULL;
    size_t nE = 0, capE = 0;
    wl_status st = WL_OK;
    if (!M.bb || !state || !stack || !next) {
        st = fail(c, WL_ERR_NOMEM, "out of memory");
        goto done;
    }
    LLVMGetBasicBlocks(c->fn, M.bb);
    qsort(M.bb, M.n, sizeof *M.bb, wl_ptr_order);
    size_t sp = 0;
    long e0 = bindex(&M, LLVMGetEntryBasicBlock(c->fn));
    stack[sp++] = (size_t)e0;
    state[e0] = 1;
    while (sp) {
        size_t v = stack[sp - 1];
        LLVMValueRef t = LLVMGetBasicBlockTerminator(M.bb[v]);
        unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
        if (next[v] >= ns) {
            state[v] = 2;
            sp--;
            continue;
        }
        LLVMBasicBlockRef s = LLVMGetSuccessor(t, (unsigned)next[v]++);
        long w = bindex(&M, s);
        if (w < 0) {
            st = fail(c, WL_ERR_INVALID, "a successor outside the function");
            goto done;
        }
        if (state[w] == 0) {
            state[w] = 1;
            stack[sp++] = (size_t)w;
        } else if (state[w] == 1) {
            int dup = 0; /* a block branching twice to one header: one edge */
            for (size_t i = 0; i < nE; i++)
                dup |= E[i].from == M.bb[v] && E[i].to == s;
            if (dup)
                continue;
            if (nE == capE) {
                size_t nc = capE ? capE * 2 : 16;
                edge *ne = realloc(E, nc * sizeof *ne);
                if (!ne) {
                    st = fail(c, WL_ERR_NOMEM, "out of memory");
                    goto done;
                }
                E = ne;
                capE = nc;
            }
            E[nE++] = (edge){M.bb[v], s};
        }
    }
done:
    free(M.bb);
    free(state);
    free(stack);
    free(next);
    if (st) {
        free(E);
        return st;
    }
    *out = E;
    *nout = nE;
    return WL_OK;
}

/* The phis of `to` take their value for the edge from `from` from `via`
 * instead (rebuilt: the C API cannot change an incoming block). A second
 * entry for `from` (a block branching twice to `to`) is dropped, as `via`
 * is one predecessor. */
static void retarget_phis(bctx *c, LLVMBasicBlockRef to, LLVMBasicBlockRef from, LLVMBasicBlockRef via)
{
    LLVMValueRef I = LLVMGetFirstInstruction(to);
    while (I && LLVMIsAPHINode(I)) {
        LLVMValueRef nexti = LLVMGetNextInstruction(I);
        LLVMPositionBuilderBefore(c->b, I);
        LLVMValueRef np = LLVMBuildPhi(c->b, LLVMTypeOf(I), "");
        unsigned n = LLVMCountIncoming(I);
        int seen = 0;
        for (unsigned i = 0; i < n; i++) {
            LLVMValueRef v = LLVMGetIncomingValue(I, i);
            LLVMBasicBlockRef bb = LLVMGetIncomingBlock(I, i);
            if (bb == from) {
                if (seen++)
                    continue;
                bb = via;
            }
            LLVMAddIncoming(np, &v, &bb, 1);
        }
        LLVMReplaceAllUsesWith(I, np);
        size_t len;
        const char *nm = LLVMGetValueName2(I, &len);
        char *keep = len ? strndup(nm, len) : NULL;
        LLVMInstructionEraseFromParent(I);
        if (keep) {
            LLVMSetValueName2(np, keep, strlen(keep));
            free(keep);
        }
        I = nexti;
    }
}

/* t = br c, v, w or br c, w, v (w not v, and u's only backward edge is
 * the one to v): w, the edge that leaves; else NULL */
static LLVMBasicBlockRef exit_of(LLVMValueRef t, LLVMBasicBlockRef v, const edge *E, size_t nE, LLVMBasicBlockRef u)
{
    if (!LLVMIsABranchInst(t) || !LLVMIsConditional(t) || LLVMGetNumSuccessors(t) != 2)
        return NULL;
    LLVMBasicBlockRef a = LLVMGetSuccessor(t, 0), b = LLVMGetSuccessor(t, 1);
    if ((a == v) == (b == v))
        return NULL;
    for (size_t i = 0; i < nE; i++)
        if (E[i].from == u && E[i].to != v)
            return NULL;
    return a == v ? b : a;
}

/* at the builder: the counter's load, `spent` (it was 0) returned, and the
 * store of the counter less `by` */
static LLVMValueRef spend(bctx *c, LLVMValueRef cnt, LLVMValueRef by)
{
    LLVMValueRef n = LLVMBuildLoad2(c->b, c->i32, cnt, "budget.left");
    LLVMValueRef spent = LLVMBuildICmp(c->b, LLVMIntEQ, n, LLVMConstInt(c->i32, 0, 0), "budget.spent");
    LLVMBuildStore(c->b, LLVMBuildSub(c->b, n, by, ""), cnt);
    return spent;
}

/* the guest offset in a block name "b<hex>" (the lifter's), else 0 */
static uint32_t block_offset(LLVMBasicBlockRef bb)
{
    const char *n = LLVMGetBasicBlockName(bb);
    if (!n || n[0] != 'b' || !n[1])
        return 0;
    char *end;
    unsigned long v = strtoul(n + 1, &end, 16);
    return *end ? 0 : (uint32_t)v;
}

wl_status wl_lower_loop_budget(LLVMModuleRef m, uint32_t default_budget, unsigned *edges, char *err,
                               size_t errcap)
{
    bctx c = {0};
    c.err = err;
    c.errcap = errcap;
    if (edges)
        *edges = 0;
    if (!m)
        return fail(&c, WL_ERR_USAGE, "no module");
    c.m = m;
    c.ctx = LLVMGetModuleContext(m);
    c.fn = LLVMGetNamedFunction(m, "wl.wave");
    if (!c.fn || LLVMIsDeclaration(c.fn))
        return fail(&c, WL_ERR_INVALID, "the module has no @wl.wave");
    c.i1 = LLVMInt1TypeInContext(c.ctx);
    c.i32 = LLVMInt32TypeInContext(c.ctx);
    c.t_void = LLVMVoidTypeInContext(c.ctx);
    edge *E = NULL;
    size_t nE = 0;
    wl_status st = find_back_edges(&c, &E, &nE);
    if (st || !nE) {
        free(E);
        return st;
    }
    c.b = LLVMCreateBuilderInContext(c.ctx);

    /* the counter, in the entry block: the push constant, or the default */
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(c.fn);
    LLVMValueRef first = LLVMGetFirstInstruction(entry);
    while (first && LLVMIsAAllocaInst(first))
        first = LLVMGetNextInstruction(first);
    if (first)
        LLVMPositionBuilderBefore(c.b, first);
    else
        LLVMPositionBuilderAtEnd(c.b, entry);
    LLVMValueRef push = LLVMGetNamedGlobal(m, "wl.push");
    if (!push) {
        push = LLVMAddGlobalInAddressSpace(m, LLVMArrayType2(c.i32, WL_PUSH_BYTES / 4), "wl.push", 6);
        LLVMSetLinkage(push, LLVMExternalLinkage);
    }
    LLVMValueRef cnt = LLVMBuildAlloca(c.b, c.i32, "wl.budget");
    LLVMValueRef off = LLVMConstInt(c.i32, WL_PUSH_LOOP_BUDGET_OFFSET, 0);
    LLVMValueRef pp = LLVMBuildGEP2(c.b, LLVMInt8TypeInContext(c.ctx), push, &off, 1, "");
    LLVMValueRef pb = LLVMBuildLoad2(c.b, c.i32, pp, "budget.push");
    LLVMSetAlignment(pb, 4);
    LLVMValueRef z = LLVMBuildICmp(c.b, LLVMIntEQ, pb, LLVMConstInt(c.i32, 0, 0), "");
    LLVMValueRef init = LLVMBuildSelect(c.b, z, LLVMConstInt(c.i32, default_budget, 0), pb, "budget");
    LLVMBuildStore(c.b, init, cnt);

    LLVMTypeRef esc_args[3] = {c.i32, c.i32, c.i1};
    LLVMTypeRef esc_ty = LLVMFunctionType(c.t_void, esc_args, 3, 0);
    LLVMValueRef esc = LLVMGetNamedFunction(m, "wl.escape");
    if (!esc)
        esc = LLVMAddFunction(m, "wl.escape", esc_ty);

    for (size_t i = 0; i < nE; i++) {
        LLVMBasicBlockRef u = E[i].from, v = E[i].to;
        LLVMBasicBlockRef out = LLVMAppendBasicBlockInContext(c.ctx, c.fn, "budget.out");
        LLVMValueRef t = LLVMGetBasicBlockTerminator(u);
        LLVMBasicBlockRef w = exit_of(t, v, E, nE, u);
        if (w) {
            /* u ends in br c, v, w (or w, v): one exit, w's edge through a
             * block that leaves for the record where the budget was spent */
            LLVMBasicBlockRef ex = LLVMAppendBasicBlockInContext(c.ctx, c.fn, "budget.exit");
            LLVMValueRef cond = LLVMGetCondition(t);
            int v_first = LLVMGetSuccessor(t, 0) == v;
            retarget_phis(&c, w, u, ex);
            LLVMPositionBuilderBefore(c.b, t);
            LLVMValueRef back = v_first ? cond : LLVMBuildNot(c.b, cond, "budget.back");
            LLVMValueRef spent = spend(&c, cnt, LLVMBuildZExt(c.b, back, c.i32, ""));
            LLVMValueRef stay = LLVMBuildAnd(c.b, back, LLVMBuildNot(c.b, spent, ""), "budget.stay");
            LLVMBuildCondBr(c.b, stay, v, ex);
            LLVMInstructionEraseFromParent(t);
            LLVMPositionBuilderAtEnd(c.b, ex);
            LLVMBuildCondBr(c.b, back, out, w);
        } else {
            LLVMBasicBlockRef split = LLVMAppendBasicBlockInContext(c.ctx, c.fn, "budget.spend");
            for (unsigned s = 0; s < LLVMGetNumSuccessors(t); s++)
                if (LLVMGetSuccessor(t, s) == v)
                    LLVMSetSuccessor(t, s, split);
            retarget_phis(&c, v, u, split);
            LLVMPositionBuilderAtEnd(c.b, split);
            LLVMBuildCondBr(c.b, spend(&c, cnt, LLVMConstInt(c.i32, 1, 0)), out, v);
        }
        LLVMPositionBuilderAtEnd(c.b, out);
        LLVMValueRef a[3] = {LLVMConstInt(c.i32, WL_ESC_LOOP_BUDGET, 0), LLVMConstInt(c.i32, block_offset(v), 0),
                             LLVMConstInt(c.i1, 1, 0)};
        LLVMBuildCall2(c.b, esc_ty, esc, a, 3, "");
        LLVMBuildRetVoid(c.b);
    }
    LLVMDisposeBuilder(c.b);
    free(E);
    if (edges)
        *edges = (unsigned)nE;
    return WL_OK;
}
