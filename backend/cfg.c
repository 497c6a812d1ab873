/* Structured control flow.
 *
 * wl_prepare_module runs LLVM's own passes to make every CFG reducible and
 * structured in LLVM's sense (single-entry single-exit regions, loops with one
 * back edge and one exit). wl_cfg_build then analyses the function in C (the
 * C API has no dominator tree): reverse post order, dominators and
 * post-dominators (Cooper, Harvey and Kennedy's iterative algorithm), natural
 * loops (back edges to a dominating header), and derives SPIR-V's structure:
 *   loop header  -> OpLoopMerge <the loop's one exit> <its one latch>
 *   other two-way branch -> OpSelectionMerge <immediate post-dominator>,
 *                   unless it is a break (to the loop's exit) or continue.
 * Where SPIR-V needs a block LLVM does not have (two constructs sharing a
 * merge block, a latch that is itself a header or a branch), a small block
 * is added to the IR on the edges concerned (phis are split accordingly) and
 * the analysis restarts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Transforms/PassBuilder.h>

#include "be.h"

/* Loops that never reach a return (a guest's endless loop without a loop
 * budget, or a region that only loops) give structurizecfg and the post
 * dominators nothing to work with: each block that cannot reach an exit gets
 * an edge that is never taken (`br i1 true, S, %wl.never`, %wl.never
 * returning), placed on a new block on one of its edges. */
static void exit_edges(LLVMValueRef fn)
{
    size_t n = LLVMCountBasicBlocks(fn);
    if (n == 0)
        return;
    LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(fn));
    LLVMBasicBlockRef never = NULL;
    for (size_t round = 0; round < n + 8; round++) {
        n = LLVMCountBasicBlocks(fn);
        LLVMBasicBlockRef *bb = calloc(n, sizeof *bb);
        char *reach = calloc(n, 1), *live = calloc(n, 1);
        int *stack = calloc(n + 1, sizeof(int));
        if (!bb || !reach || !live || !stack) {
            free(bb); free(reach); free(live); free(stack);
            return;
        }
        LLVMGetBasicBlocks(fn, bb);
        /* index by a linear search map: blocks are few where this matters */
        wl_em dummy;
        memset(&dummy, 0, sizeof dummy);
        wl_pmap idx = {0};
        for (size_t i = 0; i < n; i++) {
            wl_pent *p = wl_pmap_put(&dummy, &idx, bb[i]);
            if (p)
                p->a = (uint32_t)i + 1;
        }
#define IDX(b) ((int)(wl_pmap_get(&idx, (b))->a) - 1)
        int sp = 0;
        stack[sp++] = 0;
        reach[0] = 1;
        while (sp) {
            int x = stack[--sp];
            LLVMValueRef t = LLVMGetBasicBlockTerminator(bb[x]);
            unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
            for (unsigned s = 0; s < ns; s++) {
                int y = IDX(LLVMGetSuccessor(t, s));
                if (!reach[y]) {
                    reach[y] = 1;
                    stack[sp++] = y;
                }
            }
        }
        /* live: can reach a block without successors */
        for (int changed = 1; changed;) {
            changed = 0;
            for (size_t i = 0; i < n; i++) {
                if (live[i])
                    continue;
                LLVMValueRef t = LLVMGetBasicBlockTerminator(bb[i]);
                unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
                int l = ns == 0;
                for (unsigned s = 0; s < ns && !l; s++)
                    l = live[IDX(LLVMGetSuccessor(t, s))];
                if (l) {
                    live[i] = 1;
                    changed = 1;
                }
            }
        }
        int pick = -1;
        for (size_t i = 0; i < n && pick < 0; i++)
            if (reach[i] && !live[i])
                pick = (int)i;
        LLVMBasicBlockRef from = pick >= 0 ? bb[pick] : NULL;
        wl_pmap_free(&idx);
#undef IDX
        free(bb); free(reach); free(live); free(stack);
        if (!from)
            return;
        LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
        if (!never) {
            never = LLVMAppendBasicBlockInContext(ctx, fn, "wl.never");
            LLVMPositionBuilderAtEnd(b, never);
            LLVMTypeRef rt = LLVMGetReturnType(LLVMGlobalGetValueType(fn));
            if (LLVMGetTypeKind(rt) == LLVMVoidTypeKind)
                LLVMBuildRetVoid(b);
            else
                LLVMBuildRet(b, LLVMGetPoison(rt));
        }
        /* from -> S becomes from -> T -> S | never */
        LLVMValueRef term = LLVMGetBasicBlockTerminator(from);
        LLVMBasicBlockRef s = LLVMGetSuccessor(term, 0);
        LLVMBasicBlockRef t = LLVMInsertBasicBlockInContext(ctx, s, "wl.esc");
        LLVMSetSuccessor(term, 0, t);
        for (unsigned k = 1; k < LLVMGetNumSuccessors(term); k++)
            if (LLVMGetSuccessor(term, k) == s)
                LLVMSetSuccessor(term, k, t);
        LLVMPositionBuilderAtEnd(b, t);
        LLVMBuildCondBr(b, LLVMConstInt(LLVMInt1TypeInContext(ctx), 1, 0), s, never);
        for (LLVMValueRef phi = LLVMGetFirstInstruction(s); phi && LLVMIsAPHINode(phi);
             phi = LLVMGetNextInstruction(phi)) {
            /* the incoming edges from `from` now come from t: rebuild */
            unsigned ni = LLVMCountIncoming(phi);
            LLVMPositionBuilderBefore(b, phi);
            LLVMValueRef np = LLVMBuildPhi(b, LLVMTypeOf(phi), "");
            int done = 0;
            for (unsigned k = 0; k < ni; k++) {
                LLVMValueRef v = LLVMGetIncomingValue(phi, k);
                LLVMBasicBlockRef p = LLVMGetIncomingBlock(phi, k);
                if (p == from) {
                    if (done++)
                        continue; /* t has one edge to s */
                    p = t;
                }
                LLVMAddIncoming(np, &v, &p, 1);
            }
            LLVMReplaceAllUsesWith(phi, np);
            LLVMValueRef old = phi;
            phi = np;
            LLVMInstructionEraseFromParent(old);
        }
        LLVMDisposeBuilder(b);
    }
}

static int cfg_trial(LLVMModuleRef m, LLVMValueRef fn);

static wl_status run_passes(LLVMModuleRef m, const char *passes, char *err, size_t errcap)
{
    LLVMPassBuilderOptionsRef o = LLVMCreatePassBuilderOptions();
    LLVMErrorRef r = LLVMRunPasses(m, passes, NULL, o);
    LLVMDisposePassBuilderOptions(o);
    if (r) {
        char *msg = LLVMGetErrorMessage(r);
        if (err && errcap)
            snprintf(err, errcap, "structurizing passes failed: %s", msg);
        LLVMDisposeErrorMessage(msg);
        return WL_ERR_INVALID;
    }
    return WL_OK;
}

static wl_status prepare(LLVMModuleRef m, unsigned *structurized, char *err, size_t errcap)
{
    *structurized = 0;
    unsigned ndef = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f)) {
            exit_edges(f);
            ndef++;
        }
    /* fix-irreducible before unify-loop-exits, and lower-switch and
     * loop-simplify first: this order avoids LLVM 19.1.7's fix-irreducible
     * bug with an entry block that is also a self loop (DESIGN.md). */
    wl_status st = run_passes(m, "function(mergereturn,lower-switch,loop-simplify,fix-irreducible,unify-loop-exits)",
                              err, errcap);
    if (st != WL_OK || ndef == 0)
        return st;
    /* structurizecfg only where the CFG is not structured already: it turns
     * every if-then-else into two if-thens joined by a flow block and
     * rebuilds SSA for each value the new blocks separate from its uses,
     * which on a large program costs seconds and words for nothing. The
     * others are hidden from it as optnone for the pass's run. */
    LLVMValueRef *fns = calloc(ndef, sizeof *fns);
    char *need = calloc(ndef, 1);
    unsigned k = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f && k < ndef && fns && need; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f)) {
            fns[k] = f;
            int r = cfg_trial(m, f);
            if (r < 0)
                break;
            need[k] = r == 0;
            *structurized += need[k];
            k++;
        }
    if (k < ndef) {
        free(fns);
        free(need);
        if (err && errcap)
            snprintf(err, errcap, "out of memory");
        return WL_ERR_NOMEM;
    }
    if (*structurized) {
        LLVMContextRef ctx = LLVMGetModuleContext(m);
        unsigned kopt = LLVMGetEnumAttributeKindForName("optnone", 7);
        unsigned kinl = LLVMGetEnumAttributeKindForName("noinline", 8);
        char *added = calloc(ndef, 1);
        for (unsigned i = 0; i < ndef && added; i++) {
            if (need[i] || LLVMGetEnumAttributeAtIndex(fns[i], LLVMAttributeFunctionIndex, kopt))
                continue;
            added[i] = 1 | (LLVMGetEnumAttributeAtIndex(fns[i], LLVMAttributeFunctionIndex, kinl) ? 0 : 2);
            LLVMAddAttributeAtIndex(fns[i], LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, kopt, 0));
            if (added[i] & 2)
                LLVMAddAttributeAtIndex(fns[i], LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, kinl, 0));
        }
        st = added ? run_passes(m, "function(structurizecfg)", err, errcap) : WL_ERR_NOMEM;
        for (unsigned i = 0; i < ndef && added; i++) {
            if (added[i] & 1)
                LLVMRemoveEnumAttributeAtIndex(fns[i], LLVMAttributeFunctionIndex, kopt);
            if (added[i] & 2)
                LLVMRemoveEnumAttributeAtIndex(fns[i], LLVMAttributeFunctionIndex, kinl);
        }
        free(added);
    }
    free(fns);
    free(need);
    return st;
}

wl_status wl_prepare_module(LLVMModuleRef m, char *err, size_t errcap)
{
    unsigned structurized;
    return prepare(m, &structurized, err, errcap);
}

wl_status wl_prepare_module_counted(LLVMModuleRef m, unsigned *structurized, char *err, size_t errcap)
{
    unsigned dummy;
    return prepare(m, structurized ? structurized : &dummy, err, errcap);
}

/* Working state of one analysis round. */
typedef struct cfgw {
    size_t n;
    LLVMBasicBlockRef *bb;
    int *sstart, *succ;  /* successors, CSR */
    int *pstart, *pred;  /* predecessors, CSR */
    int *idom, *ipdom;
    int *loop_of, *lparent, *latch, *nlatch, *claimed;
    int *porder; /* the post-dominator walk's order (intersect) */
} cfgw;

int wl_cfg_index(wl_cfg *cfg, LLVMBasicBlockRef bb)
{
    wl_pent *p = wl_pmap_get(&cfg->index, bb);
    return p ? (int)p->a - 1 : -1;
}

static int dominates(const int *idom, int a, int b)
{
    while (b != a) {
        if (b <= 0 || idom[b] < 0 || idom[b] == b)
            return b == a;
        b = idom[b];
    }
    return 1;
}

static int in_loop(const cfgw *w, int x, int h)
{
    for (int y = w->loop_of[x]; y >= 0; y = w->lparent[y])
        if (y == h)
            return 1;
    return 0;
}

/* Redirects the edges from the blocks in `from` (nfrom) to block m through a
 * new block T (T -> m); m's phis get T's merged values. */
static LLVMBasicBlockRef redirect(wl_em *e, const cfgw *w, int m, const int *from, int nfrom)
{
    LLVMBasicBlockRef mb = w->bb[m];
    LLVMContextRef ctx = LLVMGetModuleContext(e->mod);
    LLVMBasicBlockRef t = LLVMInsertBasicBlockInContext(ctx, mb, "wl.m");
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderAtEnd(b, t);
    LLVMValueRef br = LLVMBuildBr(b, mb);
    for (int i = 0; i < nfrom; i++) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(w->bb[from[i]]);
        unsigned ns = LLVMGetNumSuccessors(term);
        for (unsigned s = 0; s < ns; s++)
            if (LLVMGetSuccessor(term, s) == mb)
                LLVMSetSuccessor(term, s, t);
    }
    LLVMValueRef phi = LLVMGetFirstInstruction(mb);
    while (phi && LLVMIsAPHINode(phi)) {
        LLVMValueRef next = LLVMGetNextInstruction(phi);
        LLVMTypeRef ty = LLVMTypeOf(phi);
        LLVMPositionBuilderBefore(b, br);
        LLVMValueRef pt = LLVMBuildPhi(b, ty, "");
        LLVMPositionBuilderBefore(b, phi);
        LLVMValueRef pm = LLVMBuildPhi(b, ty, "");
        LLVMBasicBlockRef tb = t;
        LLVMAddIncoming(pm, &pt, &tb, 1);
        unsigned ni = LLVMCountIncoming(phi);
        for (unsigned k = 0; k < ni; k++) {
            LLVMValueRef v = LLVMGetIncomingValue(phi, k);
            LLVMBasicBlockRef p = LLVMGetIncomingBlock(phi, k);
            int moved = 0;
            for (int i = 0; i < nfrom; i++)
                if (w->bb[from[i]] == p)
                    moved = 1;
            LLVMAddIncoming(moved ? pt : pm, &v, &p, 1);
        }
        LLVMReplaceAllUsesWith(phi, pm);
        LLVMInstructionEraseFromParent(phi);
        phi = next;
    }
    LLVMDisposeBuilder(b);
    return t;
}

static void cfgw_free(cfgw *w)
{
    free(w->bb);
    free(w->sstart);
    free(w->succ);
    free(w->pstart);
    free(w->pred);
    free(w->idom);
    free(w->ipdom);
    free(w->loop_of);
    free(w->lparent);
    free(w->latch);
    free(w->nlatch);
    free(w->claimed);
    free(w->porder);
    memset(w, 0, sizeof *w);
}

static int intersect(const int *dom, const int *order, int a, int b)
{
    while (a != b) {
        while (order[a] > order[b])
            a = dom[a];
        while (order[b] > order[a])
            b = dom[b];
    }
    return a;
}

/* The graph the post-dominators are computed on (analyse): w's edges but
 * those from a block of a loop to a block outside it, and an edge from each
 * loop's header to each block its edges leave to (to its parent loop's
 * latch where they leave that loop too). *ms: n + 1 starts, then
 * successors; *mp the same for predecessors. 0 out of memory. */
static int loop_graph(const cfgw *w, int **ms, int **mp)
{
    size_t n = w->n, ne = (size_t)w->sstart[n], cap = ne + 16, nv = 0;
    int *vf = malloc(cap * sizeof(int)), *vt = malloc(cap * sizeof(int));
    int *last = malloc((n + 1) * sizeof(int)); /* a header's last virtual target, against repeats */
    int *cs = calloc(n + 2, sizeof(int)), *cp = calloc(n + 2, sizeof(int));
    int ok = vf && vt && last && cs && cp;
    for (size_t i = 0; i < n && ok; i++)
        last[i] = -1;
    for (size_t x = 0; x < n && ok; x++)
        for (int s = w->sstart[x]; s < w->sstart[x + 1] && ok; s++) {
            int y = w->succ[s];
            for (int L = w->loop_of[x]; L >= 0 && !in_loop(w, y, L); L = w->lparent[L]) {
                /* the outermost loop the edge leaves goes on at y; one
                 * inside it, which the edge leaves as well, at the latch
                 * of the loop around it (no edge may leave that loop
                 * here, or its blocks' merges would fall outside it) */
                int P = w->lparent[L];
                int to = P >= 0 && !in_loop(w, y, P) ? w->latch[P] : y;
                if (last[L] == to)
                    continue;
                last[L] = to;
                if (nv == cap) {
                    cap *= 2;
                    int *a = realloc(vf, cap * sizeof(int)), *b = a ? realloc(vt, cap * sizeof(int)) : NULL;
                    vf = a ? a : vf;
                    vt = b ? b : vt;
                    if (!a || !b) {
                        ok = 0;
                        break;
                    }
                }
                vf[nv] = L;
                vt[nv++] = to;
            }
        }
#define KEPT(x, y) (w->loop_of[(x)] < 0 || in_loop(w, (y), w->loop_of[(x)]))
    size_t ntot = 0;
    for (size_t x = 0; x < n && ok; x++)
        for (int s = w->sstart[x]; s < w->sstart[x + 1]; s++)
            if (KEPT(x, w->succ[s])) {
                cs[x]++;
                cp[w->succ[s]]++;
                ntot++;
            }
    for (size_t v = 0; v < nv && ok; v++) {
        cs[vf[v]]++;
        cp[vt[v]]++;
        ntot++;
    }
    *ms = ok ? malloc((n + 1 + ntot + 1) * sizeof(int)) : NULL;
    *mp = ok ? malloc((n + 1 + ntot + 1) * sizeof(int)) : NULL;
    ok = ok && *ms && *mp;
    if (ok) {
        int *ss = *ms, *su = *ms + n + 1, *pp = *mp, *pr = *mp + n + 1;
        ss[0] = pp[0] = 0;
        for (size_t i = 0; i < n; i++) {
            ss[i + 1] = ss[i] + cs[i];
            pp[i + 1] = pp[i] + cp[i];
            cs[i] = cp[i] = 0;
        }
        for (size_t x = 0; x < n; x++)
            for (int s = w->sstart[x]; s < w->sstart[x + 1]; s++) {
                int y = w->succ[s];
                if (KEPT(x, y)) {
                    su[ss[x] + cs[x]++] = y;
                    pr[pp[y] + cp[y]++] = (int)x;
                }
            }
        for (size_t v = 0; v < nv; v++) {
            su[ss[vf[v]] + cs[vf[v]]++] = vt[v];
            pr[pp[vt[v]] + cp[vt[v]]++] = vf[v];
        }
    }
#undef KEPT
    free(vf); free(vt); free(last); free(cs); free(cp);
    if (!ok) {
        free(*ms); free(*mp);
        *ms = *mp = NULL;
    }
    return ok;
}

/* Builds the graph, RPO, dominators, loops and post-dominators. 0 on error. */
static int analyse(wl_em *e, LLVMValueRef fn, cfgw *w, wl_pmap *index)
{
    size_t nall = LLVMCountBasicBlocks(fn);
    LLVMBasicBlockRef *all = calloc(nall + 1, sizeof *all);
    int *post = calloc(nall + 1, sizeof *post);
    int *stk = calloc(nall + 1, sizeof *stk), *pos = calloc(nall + 1, sizeof *pos);
    if (!all || !post || !stk || !pos) {
        free(all); free(post); free(stk); free(pos);
        return wl_fail_nomem(e);
    }
    LLVMGetBasicBlocks(fn, all);
    wl_pmap_free(index);
    wl_pmap tmp = {0};
    for (size_t i = 0; i < nall; i++) {
        wl_pent *p = wl_pmap_put(e, &tmp, all[i]);
        if (p)
            p->a = (uint32_t)i + 1;
    }
    /* iterative DFS from the entry: post order */
    size_t np = 0;
    char *seen = calloc(nall + 1, 1);
    int sp = 0;
    if (seen && nall) {
        stk[sp] = 0;
        pos[sp++] = 0;
        seen[0] = 1;
    }
    while (sp > 0 && !e->failed) {
        int x = stk[sp - 1];
        LLVMValueRef term = LLVMGetBasicBlockTerminator(all[x]);
        unsigned ns = term ? LLVMGetNumSuccessors(term) : 0;
        if (!term) {
            wl_fail(e, "a block without a terminator");
            break;
        }
        if ((unsigned)pos[sp - 1] < ns) {
            LLVMBasicBlockRef s = LLVMGetSuccessor(term, (unsigned)pos[sp - 1]++);
            wl_pent *p = wl_pmap_get(&tmp, s);
            int y = p ? (int)p->a - 1 : -1;
            if (y >= 0 && !seen[y]) {
                seen[y] = 1;
                stk[sp] = y;
                pos[sp++] = 0;
            }
        } else {
            post[np++] = x;
            sp--;
        }
    }
    free(seen);
    wl_pmap_free(&tmp);
    size_t n = np;
    w->n = n;
    w->bb = calloc(n + 1, sizeof *w->bb);
    w->idom = calloc(n + 1, sizeof(int));
    w->ipdom = calloc(n + 1, sizeof(int));
    w->loop_of = calloc(n + 1, sizeof(int));
    w->lparent = calloc(n + 1, sizeof(int));
    w->latch = calloc(n + 1, sizeof(int));
    w->nlatch = calloc(n + 1, sizeof(int));
    w->claimed = calloc(n + 1, sizeof(int));
    w->sstart = calloc(n + 2, sizeof(int));
    w->pstart = calloc(n + 2, sizeof(int));
    if (!w->bb || !w->idom || !w->ipdom || !w->loop_of || !w->lparent || !w->latch || !w->nlatch ||
        !w->claimed || !w->sstart || !w->pstart || e->failed) {
        free(all); free(post); free(stk); free(pos);
        return wl_fail_nomem(e);
    }
    for (size_t i = 0; i < n; i++) {
        w->bb[i] = all[post[n - 1 - i]];
        wl_pent *p = wl_pmap_put(e, index, w->bb[i]);
        if (p)
            p->a = (uint32_t)i + 1;
    }
    free(all); free(post); free(stk); free(pos);
    /* successors (unreachable targets cannot occur: all were visited) */
    size_t ne = 0;
    for (size_t i = 0; i < n; i++) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(w->bb[i]);
        LLVMOpcode op = LLVMGetInstructionOpcode(term);
        if (op != LLVMBr && op != LLVMRet && op != LLVMUnreachable)
            return wl_refuse(e, term, "terminator outside the profile (br, ret, unreachable)");
        ne += LLVMGetNumSuccessors(term);
    }
    w->succ = calloc(ne + 1, sizeof(int));
    w->pred = calloc(ne + 1, sizeof(int));
    int *pc = calloc(n + 1, sizeof(int));
    if (!w->succ || !w->pred || !pc) {
        free(pc);
        return wl_fail_nomem(e);
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        w->sstart[i] = (int)k;
        LLVMValueRef term = LLVMGetBasicBlockTerminator(w->bb[i]);
        unsigned ns = LLVMGetNumSuccessors(term);
        for (unsigned s = 0; s < ns; s++) {
            wl_pent *ip = wl_pmap_get(index, LLVMGetSuccessor(term, s));
            int y = ip ? (int)ip->a - 1 : 0;
            w->succ[k++] = y;
            pc[y]++;
        }
    }
    w->sstart[n] = (int)k;
    w->pstart[0] = 0;
    for (size_t i = 0; i < n; i++)
        w->pstart[i + 1] = w->pstart[i] + pc[i];
    memset(pc, 0, (n + 1) * sizeof(int));
    for (size_t i = 0; i < n; i++)
        for (int s = w->sstart[i]; s < w->sstart[i + 1]; s++) {
            int y = w->succ[s];
            w->pred[w->pstart[y] + pc[y]++] = (int)i;
        }
    free(pc);

    /* dominators: RPO index is the order */
    int *order = calloc(n + 2, sizeof(int));
    if (!order)
        return wl_fail_nomem(e);
    for (size_t i = 0; i < n; i++) {
        order[i] = (int)i;
        w->idom[i] = -1;
    }
    w->idom[0] = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t b = 1; b < n; b++) {
            int nd = -1;
            for (int p = w->pstart[b]; p < w->pstart[b + 1]; p++) {
                int q = w->pred[p];
                if (w->idom[q] < 0)
                    continue;
                nd = nd < 0 ? q : intersect(w->idom, order, q, nd);
            }
            if (nd != w->idom[b]) {
                w->idom[b] = nd;
                changed = 1;
            }
        }
    }

    /* loops: back edges u -> h with h dominating u; innermost first */
    for (size_t i = 0; i < n; i++) {
        w->loop_of[i] = -1;
        w->lparent[i] = -1;
        w->latch[i] = -1;
        w->nlatch[i] = 0;
    }
    for (size_t u = 0; u < n; u++)
        for (int s = w->sstart[u]; s < w->sstart[u + 1]; s++) {
            int h = w->succ[s];
            if (dominates(w->idom, h, (int)u)) {
                if (w->latch[h] != (int)u)
                    w->nlatch[h]++;
                w->latch[h] = (int)u;
            } else if ((size_t)h <= u && w->idom[h] >= 0) {
                /* a retreating edge to a block that does not dominate it */
                free(order);
                return wl_refuse(e, LLVMGetBasicBlockTerminator(w->bb[u]),
                                 "irreducible control flow left after fix-irreducible");
            }
        }
    int *work = calloc(n + 1, sizeof(int));
    if (!work) {
        free(order);
        return wl_fail_nomem(e);
    }
    for (int h = (int)n - 1; h >= 0; h--) {
        if (!w->nlatch[h])
            continue;
        w->loop_of[h] = h;
        int nw = 0;
        for (int p = w->pstart[h]; p < w->pstart[h + 1]; p++)
            if (dominates(w->idom, h, w->pred[p]))
                work[nw++] = w->pred[p];
        while (nw > 0) {
            int x = work[--nw];
            if (x == h)
                continue;
            if (w->loop_of[x] < 0) {
                w->loop_of[x] = h;
            } else {
                int t = w->loop_of[x];
                while (w->lparent[t] >= 0)
                    t = w->lparent[t];
                if (t == h)
                    continue;
                w->lparent[t] = h;
                x = t;
            }
            for (int p = w->pstart[x]; p < w->pstart[x + 1]; p++) {
                int q = w->pred[p];
                if (x == w->loop_of[x] && x != h && dominates(w->idom, x, q))
                    continue; /* the inner loop's own back edge */
                if (nw < (int)n)
                    work[nw++] = q;
            }
        }
    }
    free(work);
    /* post-dominators, on the graph whose edges leaving a loop are replaced
     * by one edge from the loop's header to the block they reach: a break
     * (or a block that only breaks) does not move the merge of a selection
     * inside the loop out of it; in structurizecfg's loops, which leave only
     * from the latch, nothing changes. Blocks that only leave loops reach
     * no exit there and have no post-dominator. Its reverse graph is walked
     * from a virtual exit X = n. */
    int X = (int)n;
    int *ms = NULL, *mp = NULL; /* the graph: successors, predecessors, CSR */
    if (!loop_graph(w, &ms, &mp)) {
        free(order);
        return wl_fail_nomem(e);
    }
    int *msstart = ms, *msucc = ms + n + 1, *mpstart = mp, *mpred = mp + n + 1;
    int *rpo = calloc(n + 2, sizeof(int)), *pd = calloc(n + 2, sizeof(int));
    int *st = calloc(n + 2, sizeof(int)), *ps = calloc(n + 2, sizeof(int));
    char *vis = calloc(n + 2, 1);
    if (!rpo || !pd || !st || !ps || !vis) {
        free(order); free(rpo); free(pd); free(st); free(ps); free(vis); free(ms); free(mp);
        return wl_fail_nomem(e);
    }
    /* DFS on the reverse graph: X's successors are the exit blocks */
    size_t nr = 0;
    int top = 0;
    st[top] = X;
    ps[top++] = 0;
    vis[X] = 1;
    int *exits = calloc(n + 1, sizeof(int));
    int nex = 0;
    for (size_t i = 0; i < n; i++)
        if (w->sstart[i] == w->sstart[i + 1])
            exits[nex++] = (int)i;
    while (top > 0) {
        int x = st[top - 1];
        int cnt = x == X ? nex : mpstart[x + 1] - mpstart[x];
        if (ps[top - 1] < cnt) {
            int y = x == X ? exits[ps[top - 1]] : mpred[mpstart[x] + ps[top - 1]];
            ps[top - 1]++;
            if (!vis[y]) {
                vis[y] = 1;
                st[top] = y;
                ps[top++] = 0;
            }
        } else {
            pd[nr++] = x;
            top--;
        }
    }
    for (size_t i = 0; i <= n; i++)
        order[i] = 0x7fffffff;
    for (size_t i = 0; i < nr; i++) {
        rpo[i] = pd[nr - 1 - i];
        order[rpo[i]] = (int)i;
    }
    for (size_t i = 0; i <= n; i++)
        w->ipdom[i] = -1;
    w->ipdom[X] = X;
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t r = 1; r < nr; r++) {
            int b = rpo[r], nd = -1;
            int cnt = msstart[b + 1] - msstart[b];
            if (w->sstart[b + 1] == w->sstart[b])
                nd = X;
            for (int s = 0; s < cnt; s++) {
                int q = msucc[msstart[b] + s];
                if (w->ipdom[q] < 0)
                    continue;
                nd = nd < 0 ? q : intersect(w->ipdom, order, q, nd);
            }
            if (nd != w->ipdom[b]) {
                w->ipdom[b] = nd;
                changed = 1;
            }
        }
    }
    w->porder = order;
    free(exits); free(rpo); free(pd); free(st); free(ps); free(vis); free(ms); free(mp);
    return !e->failed;
}

/* Two successors of a conditional branch, or -1 for an unconditional one. */
static int two_succ(const cfgw *w, int b, int *s0, int *s1)
{
    int c = w->sstart[b + 1] - w->sstart[b];
    if (c != 2)
        return 0;
    *s0 = w->succ[w->sstart[b]];
    *s1 = w->succ[w->sstart[b] + 1];
    return *s0 != *s1;
}

/* The trial of a CFG as LLVM's passes leave it before structurizecfg
 * (wl_prepare_module): the redirects of one round are batched (one per merge
 * block), and a branch or loop header that needs a third redirect means the
 * region is not structured (the redirects cannot converge): the trial
 * fails. */
typedef struct cfgtry {
    wl_pmap redirects; /* branch or header block -> redirects so far */
    int dry;           /* fail at the first redirect, noting it in wanted */
    int wanted;
    LLVMBasicBlockRef *made; /* the blocks its redirects added, in order */
    size_t nmade, capmade;
} cfgtry;

/* Notes a block a trial's redirect added; 0 out of memory. */
static int try_made(cfgtry *t, LLVMBasicBlockRef bb)
{
    if (t->nmade == t->capmade) {
        size_t cap = t->capmade ? 2 * t->capmade : 16;
        LLVMBasicBlockRef *n = realloc(t->made, cap * sizeof *n);
        if (!n)
            return 0;
        t->made = n;
        t->capmade = cap;
    }
    t->made[t->nmade++] = bb;
    return 1;
}

/* Takes out block T that redirect() added (T -> M, T's phis feeding M's):
 * T's predecessors branch to M again and M's phis get T's incoming values
 * back. The last added first. */
static void undo_redirect(LLVMContextRef ctx, LLVMBasicBlockRef t)
{
    LLVMValueRef br = LLVMGetBasicBlockTerminator(t);
    LLVMBasicBlockRef mb = LLVMGetSuccessor(br, 0);
    /* T's predecessor edges: the terminators that use it, once an edge */
    size_t nt = 0, cap = 8;
    LLVMValueRef *terms = malloc(cap * sizeof *terms);
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(t)); u && terms; u = LLVMGetNextUse(u)) {
        LLVMValueRef term = LLVMGetUser(u);
        if (!LLVMIsATerminatorInst(term))
            continue;
        if (nt == cap) {
            LLVMValueRef *t2 = realloc(terms, 2 * cap * sizeof *t2);
            if (!t2)
                break;
            terms = t2;
            cap *= 2;
        }
        terms[nt++] = term;
    }
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    for (LLVMValueRef pm = LLVMGetFirstInstruction(mb); pm && LLVMIsAPHINode(pm) && terms;) {
        LLVMValueRef next = LLVMGetNextInstruction(pm);
        LLVMPositionBuilderBefore(b, pm);
        LLVMValueRef np2 = LLVMBuildPhi(b, LLVMTypeOf(pm), "");
        unsigned ni = LLVMCountIncoming(pm);
        for (unsigned k = 0; k < ni; k++) {
            LLVMValueRef v = LLVMGetIncomingValue(pm, k);
            LLVMBasicBlockRef p = LLVMGetIncomingBlock(pm, k);
            if (p != t) {
                LLVMAddIncoming(np2, &v, &p, 1);
            } else if (LLVMIsAPHINode(v) && LLVMGetInstructionParent(v) == t) {
                unsigned nj = LLVMCountIncoming(v);
                for (unsigned j = 0; j < nj; j++) {
                    LLVMValueRef v2 = LLVMGetIncomingValue(v, j);
                    LLVMBasicBlockRef p2 = LLVMGetIncomingBlock(v, j);
                    LLVMAddIncoming(np2, &v2, &p2, 1);
                }
            } else {
                for (size_t j = 0; j < nt; j++) {
                    LLVMBasicBlockRef pj = LLVMGetInstructionParent(terms[j]);
                    LLVMAddIncoming(np2, &v, &pj, 1);
                }
            }
        }
        LLVMReplaceAllUsesWith(pm, np2);
        LLVMInstructionEraseFromParent(pm);
        pm = next;
    }
    LLVMDisposeBuilder(b);
    for (size_t i = 0; i < nt && terms; i++) {
        unsigned ns = LLVMGetNumSuccessors(terms[i]);
        for (unsigned s = 0; s < ns; s++)
            if (LLVMGetSuccessor(terms[i], s) == t)
                LLVMSetSuccessor(terms[i], s, mb);
    }
    free(terms);
    LLVMDeleteBasicBlock(t);
}

/* Counts a redirect for block bb; 0 once it has had two. */
static int try_count(wl_em *e, cfgtry *t, LLVMBasicBlockRef bb)
{
    if (t->dry) {
        t->wanted = 1;
        return 0;
    }
    wl_pent *p = wl_pmap_put(e, &t->redirects, bb);
    return p && ++p->a <= 2;
}

/* redirect(), counted against key in a trial (t); 0 where the trial must stop. */
static int trial_redirect(wl_em *e, const cfgw *w, cfgtry *t, LLVMBasicBlockRef key, int m, const int *from, int nf)
{
    if (t && !try_count(e, t, key))
        return 0;
    LLVMBasicBlockRef made = redirect(e, w, m, from, nf);
    return !t || try_made(t, made);
}

/* Derives merges; 1 if done, 0 if the IR was changed (analyse again), -1 on
 * error. With t (a trial), several redirects per round. */
static int derive(wl_em *e, cfgw *w, wl_cfg *cfg, cfgtry *t)
{
    size_t n = w->n;
    int *from = calloc(n + 1, sizeof(int));
    char *touched = calloc(n + 1, 1);
    if (!from || !touched) {
        free(from);
        free(touched);
        return wl_fail_nomem(e), -1;
    }
    int rc = 1;
    for (size_t i = 0; i < n; i++) {
        cfg->merge[i] = -1;
        cfg->lmerge[i] = -1;
        cfg->cont[i] = -1;
        cfg->is_loop[i] = 0;
        w->claimed[i] = 0;
    }
    /* loops, outer (earlier) first */
    for (size_t hi = 0; hi < n && rc == 1; hi++) {
        int h = (int)hi;
        if (!w->nlatch[h])
            continue;
        cfg->is_loop[h] = 1;
        if (w->nlatch[h] > 1 || (w->latch[h] != h && w->nlatch[w->latch[h]])) {
            /* one latch, which is no loop header: a new block on the back edges */
            int nf = 0;
            for (int p = w->pstart[h]; p < w->pstart[h + 1]; p++)
                if (dominates(w->idom, h, w->pred[p]))
                    from[nf++] = w->pred[p];
            if (!trial_redirect(e, w, t, w->bb[h], h, from, nf)) {
                rc = -1;
                break;
            }
            rc = 0;
            break;
        }
        int l = w->latch[h];
        /* the loop's exit targets */
        int exit = -1, nexit = 0;
        for (size_t x = 0; x < n; x++) {
            if (!in_loop(w, (int)x, h))
                continue;
            for (int s = w->sstart[x]; s < w->sstart[x + 1]; s++) {
                int y = w->succ[s];
                if (in_loop(w, y, h))
                    continue;
                if (exit < 0) {
                    exit = y;
                    nexit = 1;
                } else if (y != exit) {
                    nexit = 2;
                }
            }
        }
        if (nexit > 1) {
            wl_refuse(e, LLVMGetBasicBlockTerminator(w->bb[h]), "loop with several exit targets");
            rc = -1;
            break;
        }
        /* the latch branches to the header, or to the header and the exit */
        int s0, s1;
        if (l != h && two_succ(w, l, &s0, &s1) && !((s0 == h && s1 == exit) || (s1 == h && s0 == exit))) {
            from[0] = l;
            if (!trial_redirect(e, w, t, w->bb[h], h, from, 1)) {
                rc = -1;
                break;
            }
            rc = 0;
            break;
        }
        if (exit >= 0 && w->claimed[exit]) {
            int nf = 0;
            for (int p = w->pstart[exit]; p < w->pstart[exit + 1]; p++)
                if (in_loop(w, w->pred[p], h))
                    from[nf++] = w->pred[p];
            if (!trial_redirect(e, w, t, w->bb[h], exit, from, nf)) {
                rc = -1;
                break;
            }
            rc = 0;
            break;
        }
        cfg->lmerge[h] = exit >= 0 ? exit : -2;
        cfg->cont[h] = l;
        if (exit >= 0)
            w->claimed[exit] = 1;
        w->claimed[l] = 2;
    }
    /* selections (a trial goes on after a redirect: one per merge block) */
    for (size_t bi = 0; bi < n && (rc == 1 || (t && rc == 0)); bi++) {
        int b = (int)bi, s0, s1;
        if (!two_succ(w, b, &s0, &s1))
            continue;
        int L = w->loop_of[b];
        if (L >= 0 && w->latch[L] == b)
            continue; /* the back-edge branch */
        if (L >= 0) {
            int ex = cfg->lmerge[L], ct = cfg->cont[L];
            if (s0 == ex || s1 == ex || s0 == ct || s1 == ct)
                continue; /* break or continue */
        }
        int m = w->ipdom[b];
        if (w->nlatch[b]) {
            /* a loop header's selection merges where its successors in the
             * loop meet, not at its loop-level edge to the exit */
            int p0 = w->ipdom[s0] >= 0, p1 = w->ipdom[s1] >= 0;
            m = p0 && p1 ? intersect(w->ipdom, w->porder, s0, s1) : p0 ? s0 : p1 ? s1 : -1;
        }
        if (m < 0 || m >= (int)n) {
            cfg->merge[b] = -2;
            continue;
        }
        if (L >= 0 && !in_loop(w, m, L)) {
            wl_refuse(e, LLVMGetBasicBlockTerminator(w->bb[b]), "branch leaving a loop other than through its exit");
            rc = -1;
            break;
        }
        if (touched[m])
            continue; /* a trial's round redirected into m already */
        if (w->claimed[m]) {
            int nf = 0;
            for (int p = w->pstart[m]; p < w->pstart[m + 1]; p++)
                if (dominates(w->idom, b, w->pred[p]))
                    from[nf++] = w->pred[p];
            /* all of m's edges: a new merge before a latch (claimed 2) in a
             * trial; else the selection has no merge of its own */
            if (nf == 0 || (nf == w->pstart[m + 1] - w->pstart[m] && w->claimed[m] == 2 && !t)) {
                wl_refuse(e, LLVMGetBasicBlockTerminator(w->bb[b]), "selection without its own merge block");
                rc = -1;
                break;
            }
            if (!trial_redirect(e, w, t, w->bb[b], m, from, nf)) {
                rc = -1;
                break;
            }
            rc = 0;
            if (!t)
                break;
            touched[m] = 1;
            continue;
        }
        cfg->merge[b] = m;
        w->claimed[m] = 1;
    }
    free(from);
    free(touched);
    return rc;
}

void wl_cfg_free(wl_cfg *cfg)
{
    free(cfg->bb);
    free(cfg->merge);
    free(cfg->lmerge);
    free(cfg->cont);
    free(cfg->is_loop);
    free(cfg->label_in);
    free(cfg->label_body);
    free(cfg->dom_pre);
    free(cfg->dom_post);
    wl_pmap_free(&cfg->index);
    memset(cfg, 0, sizeof *cfg);
}

/* cfg->dom_pre/dom_post from the immediate dominators (idom[0] the entry):
 * a depth-first walk of the dominator tree. 0, or -1 out of memory. */
static int dom_numbers(wl_cfg *cfg, const int *idom)
{
    size_t n = cfg->n;
    free(cfg->dom_pre);
    free(cfg->dom_post);
    cfg->dom_pre = calloc(n + 1, sizeof(int));
    cfg->dom_post = calloc(n + 1, sizeof(int));
    int *first = malloc((n + 1) * sizeof(int)), *next = malloc((n + 1) * sizeof(int)),
        *stack = malloc((n + 1) * sizeof(int)), *at = malloc((n + 1) * sizeof(int));
    int bad = !cfg->dom_pre || !cfg->dom_post || !first || !next || !stack || !at;
    if (!bad) {
        for (size_t i = 0; i < n; i++)
            first[i] = next[i] = -1;
        for (size_t i = n; i-- > 1;) /* children lists; unreachable ones hang off nothing */
            if (idom[i] >= 0 && (size_t)idom[i] != i) {
                next[i] = first[idom[i]];
                first[idom[i]] = (int)i;
            }
        int sp = 0, clock = 0;
        stack[sp++] = 0;
        at[0] = first[0];
        cfg->dom_pre[0] = clock++;
        while (sp) {
            int x = stack[sp - 1], c = at[x];
            if (c < 0) {
                cfg->dom_post[x] = clock++;
                sp--;
                continue;
            }
            at[x] = next[c];
            cfg->dom_pre[c] = clock++;
            at[c] = first[c];
            stack[sp++] = c;
        }
    }
    free(first);
    free(next);
    free(stack);
    free(at);
    return bad ? -1 : 0;
}

int wl_cfg_dominates(const wl_cfg *cfg, int a, int b)
{
    return a >= 0 && b >= 0 && (size_t)a < cfg->n && (size_t)b < cfg->n && cfg->dom_pre[a] <= cfg->dom_pre[b] &&
           cfg->dom_post[b] <= cfg->dom_post[a];
}

/* A trial's check of the structure derived (cfg->dom_* set): SPIR-V's rules
 * that structurizecfg's output meets by construction and an arbitrary
 * reducible CFG may not. A selection's construct is the blocks its header
 * dominates and its merge does not (all it dominates where the merge is
 * unreachable); a block may leave a construct only to its merge, or, where
 * the construct lies inside the block's innermost loop, to that loop's
 * merge, continue target or header, and enter one only at its header. Each
 * header dominates its merge. 1 if they hold. */
static int verify(const cfgw *w, const wl_cfg *cfg)
{
    size_t n = cfg->n;
    int *cons = malloc((n + 1) * sizeof(int)); /* innermost selection construct of the block, or -1 */
    if (!cons)
        return 0;
    int ok = 1;
    for (size_t i = 0; i < n && ok; i++) {
        if (cfg->merge[i] >= 0 && !wl_cfg_dominates(cfg, (int)i, cfg->merge[i]))
            ok = 0;
        if (cfg->is_loop[i] && cfg->lmerge[i] >= 0 && !wl_cfg_dominates(cfg, (int)i, cfg->lmerge[i]))
            ok = 0;
    }
#define SEL(b) (cfg->merge[(b)] != -1)
#define INSIDE(c, y) (wl_cfg_dominates(cfg, (c), (y)) && !(cfg->merge[(c)] >= 0 && wl_cfg_dominates(cfg, cfg->merge[(c)], (y))))
    cons[0] = -1;
    for (size_t x = 1; x < n && ok; x++) { /* reverse post order: the idom first */
        int p = w->idom[x];
        int c = p >= 0 && SEL(p) ? p : p >= 0 ? cons[p] : -1;
        while (c >= 0 && !INSIDE(c, (int)x))
            c = cons[c];
        cons[x] = c;
    }
    for (size_t x = 0; x < n && ok; x++) {
        int L = w->loop_of[x];
        for (int s = w->sstart[x]; s < w->sstart[x + 1] && ok; s++) {
            int y = w->succ[s];
            int brk = L >= 0 && (y == cfg->lmerge[L] || y == cfg->cont[L] || y == L);
            for (int c = SEL(x) ? (int)x : cons[x]; c >= 0 && ok; c = cons[c]) {
                if (INSIDE(c, y))
                    break;
                if (y == cfg->merge[c] || (brk && in_loop(w, c, L)))
                    continue; /* its exit (and the next construct must hold y) */
                ok = 0;
            }
            /* and enters a construct only through its header */
            for (int c = cons[y]; c >= 0 && ok && !INSIDE(c, (int)x); c = cons[c])
                ok = 0;
        }
    }
#undef SEL
#undef INSIDE
    free(cons);
    return ok;
}

static wl_status cfg_build(wl_em *e, LLVMValueRef fn, wl_cfg *cfg, cfgtry *t);

wl_status wl_cfg_build(wl_em *e, LLVMValueRef fn, wl_cfg *cfg)
{
    return cfg_build(e, fn, cfg, NULL);
}

/* 1 if fn's CFG as it is can be emitted structured (the redirects it needs
 * are made), 0 if it needs structurizecfg, -1 out of memory. */
static int cfg_trial_in(LLVMModuleRef m, LLVMValueRef fn, int dry, int *wanted)
{
    char err[256];
    wl_em e;
    memset(&e, 0, sizeof e);
    e.mod = m;
    e.ctx = LLVMGetModuleContext(m);
    e.fn = fn;
    e.err = err;
    e.errcap = sizeof err;
    e.next_id = 1;
    cfgtry t = {.dry = dry};
    wl_cfg cfg;
    wl_status st = cfg_build(&e, fn, &cfg, &t);
    wl_cfg_free(&cfg);
    wl_pmap_free(&t.redirects);
    if (st != WL_OK) /* the blocks it added would cost structurizecfg's output words */
        for (size_t i = t.nmade; i-- > 0;)
            undo_redirect(e.ctx, t.made[i]);
    free(t.made);
    if (wanted)
        *wanted = t.wanted;
    return st == WL_OK ? 1 : st == WL_ERR_NOMEM ? -1 : 0;
}

/* First without changing fn (most functions need no new block), then with
 * the redirects, undone where the trial fails. */
static int cfg_trial(LLVMModuleRef m, LLVMValueRef fn)
{
    int wanted = 0;
    int r = cfg_trial_in(m, fn, 1, &wanted);
    return r != 0 || !wanted ? r : cfg_trial_in(m, fn, 0, NULL);
}

static wl_status cfg_build(wl_em *e, LLVMValueRef fn, wl_cfg *cfg, cfgtry *t)
{
    memset(cfg, 0, sizeof *cfg);
    size_t limit = 4 * LLVMCountBasicBlocks(fn) + 64;
    for (size_t iter = 0; iter < limit; iter++) {
        cfgw w = {0};
        if (!analyse(e, fn, &w, &cfg->index)) {
            cfgw_free(&w);
            return WL_ERR_INVALID;
        }
        size_t n = w.n;
        free(cfg->merge); free(cfg->lmerge); free(cfg->cont); free(cfg->is_loop);
        cfg->merge = calloc(n + 1, sizeof(int));
        cfg->lmerge = calloc(n + 1, sizeof(int));
        cfg->cont = calloc(n + 1, sizeof(int));
        cfg->is_loop = calloc(n + 1, sizeof(int));
        if (!cfg->merge || !cfg->lmerge || !cfg->cont || !cfg->is_loop) {
            cfgw_free(&w);
            wl_fail_nomem(e);
            return WL_ERR_NOMEM;
        }
        int rc = derive(e, &w, cfg, t);
        if (rc < 0 || e->failed) {
            cfgw_free(&w);
            return e->status == WL_ERR_NOMEM ? WL_ERR_NOMEM : WL_ERR_INVALID;
        }
        if (rc == 1) {
            cfg->n = n;
            cfg->bb = w.bb;
            w.bb = NULL;
            if (dom_numbers(cfg, w.idom)) {
                cfgw_free(&w);
                wl_fail_nomem(e);
                return WL_ERR_NOMEM;
            }
            int fine = !t || verify(&w, cfg);
            cfgw_free(&w);
            if (!fine)
                return WL_ERR_INVALID;
            cfg->label_in = calloc(n + 1, sizeof(uint32_t));
            cfg->label_body = calloc(n + 1, sizeof(uint32_t));
            if (!cfg->label_in || !cfg->label_body) {
                wl_fail_nomem(e);
                return WL_ERR_NOMEM;
            }
            for (size_t i = 0; i < n; i++) {
                cfg->label_in[i] = wl_id(e);
                cfg->label_body[i] = cfg->is_loop[i] ? wl_id(e) : cfg->label_in[i];
            }
            return WL_OK;
        }
        cfgw_free(&w);
    }
    wl_fail(e, "control flow could not be structured in function");
    return WL_ERR_INVALID;
}
