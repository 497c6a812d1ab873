/* wl_lift_calls_plan: which copies of the code the lifter emits
 * (lift_calls.h; docs/wave-ir.md, "Calls").
 *
 * Requires discovery's map (every reachable instruction decoded, the
 * tracker's call targets in m->jump). Leaves m->ctx: context 0 is the
 * kernel from its entry; each s_swappc_b64 of a context has an edge per
 * target (the tracker's, or for a call whose target the tracker lost every
 * target some call of the program was found to reach) to a context that
 * starts there: a new one per edge (per call site) or one per target (per
 * function). A context holds the words reachable from its start without
 * leaving the function: branches and fall-through, s_setpc_b64 to the
 * tracker's target unless that is a return site (a tail call stays in the
 * context, so its return still goes to this context's caller), and the
 * return site after each of its calls. Per call site is taken when it lifts
 * at most 1.5 times the instructions of per function and has no recursion
 * (a call to a function on the context's chain of callers); past
 * WL_CALLS_MAX_CTX contexts or WL_CALLS_MAX_INSTS instructions the general
 * plan (one context, every decoded word). */
#include "lift_calls.h"

#include <stdlib.h>
#include <string.h>

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

static void ctx_free(wl_prog_map *m)
{
    for (size_t i = 0; i < m->nctx; i++) {
        free(m->ctx[i].words);
        free(m->ctx[i].bb);
    }
    free(m->ctx);
    free(m->edges);
    m->ctx = NULL;
    m->edges = NULL;
    m->nctx = m->nedges = m->lifted = 0;
}

void wl_lift_calls_free(wl_prog_map *m)
{
    ctx_free(m);
    free(m->retsite);
    m->retsite = NULL;
}

long wl_lift_ctx_find(const wl_call_ctx *c, size_t w)
{
    size_t lo = 0, hi = c->nwords;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->words[mid] < w)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < c->nwords && c->words[lo] == w ? (long)lo : -1;
}

static wl_status add_ctx(wl_prog_map *m, size_t *cap, int32_t parent, size_t site, size_t start, size_t ret)
{
    if (m->nctx == *cap) {
        size_t nc = *cap ? *cap * 2 : 16;
        wl_call_ctx *n = realloc(m->ctx, nc * sizeof *n);
        if (!n)
            return WL_ERR_NOMEM;
        m->ctx = n;
        *cap = nc;
    }
    wl_call_ctx *c = &m->ctx[m->nctx++];
    memset(c, 0, sizeof *c);
    c->parent = parent;
    c->site = site;
    c->start = start;
    c->ret = ret;
    return WL_OK;
}

static wl_status add_edge(wl_prog_map *m, size_t *cap, uint32_t from, size_t site, size_t ret, size_t target,
                          uint32_t to)
{
    if (m->nedges == *cap) {
        size_t nc = *cap ? *cap * 2 : 16;
        wl_call_edge *n = realloc(m->edges, nc * sizeof *n);
        if (!n)
            return WL_ERR_NOMEM;
        m->edges = n;
        *cap = nc;
    }
    m->edges[m->nedges++] = (wl_call_edge){site, ret, target, from, to};
    return WL_OK;
}

/* The general plan: one context, every decoded word. */
static wl_status plan_general(wl_prog_map *m, size_t entry, const char *why)
{
    ctx_free(m);
    m->inlined = 0;
    m->general_why = why;
    size_t cap = 0;
    if (add_ctx(m, &cap, -1, 0, entry, 0) != WL_OK)
        return WL_ERR_NOMEM;
    wl_call_ctx *c = &m->ctx[0];
    c->words = malloc((m->ninsts ? m->ninsts : 1) * sizeof *c->words);
    c->bb = calloc(m->ninsts ? m->ninsts : 1, sizeof *c->bb);
    if (!c->words || !c->bb)
        return WL_ERR_NOMEM;
    for (size_t w = 0; w < m->nwords; w++)
        if (m->at[w] >= 0)
            c->words[c->nwords++] = w;
    m->lifted = c->nwords;
    return WL_OK;
}

int wl_lift_setpc_local(const wl_prog_map *m, const wl_call_ctx *c, size_t idx)
{
    return m->jump[idx] >= 0 && (c->parent < 0 || !m->retsite[m->jump[idx]]);
}

/* Marks w reached in the context being walked. */
static void reach(const wl_prog_map *m, uint8_t *seen, size_t *stack, size_t *sp, size_t *list, size_t *n,
                  size_t w)
{
    if (w >= m->nwords || m->at[w] < 0 || seen[w])
        return;
    seen[w] = 1;
    stack[(*sp)++] = w;
    list[(*n)++] = w;
}

/* One plan: contexts from the entry, each callee copied per call site
 * (shared 0) or once per function (shared 1). *why: the reason it cannot
 * be used (recursion or a limit). */
static wl_status plan_walk(wl_prog_map *m, size_t entry, int shared, const size_t *targets, size_t ntargets,
                           uint8_t *seen, size_t *stack, size_t *list, size_t max_insts, const char **whyp)
{
    wl_status st = WL_OK;
    const char *why = NULL;
    size_t ccap = 0, ecap = 0;
    ctx_free(m);
    m->inlined = 1;
    m->shared = shared;
    m->outline = 0;
    m->general_why = NULL;
    st = add_ctx(m, &ccap, -1, 0, entry, 0);
    for (size_t ci = 0; st == WL_OK && !why && ci < m->nctx; ci++) {
        size_t sp = 0, n = 0;
        reach(m, seen, stack, &sp, list, &n, m->ctx[ci].start);
        m->ctx[ci].edge0 = m->nedges;
        while (sp && st == WL_OK && !why) {
            size_t w = stack[--sp];
            size_t idx = (size_t)m->at[w];
            const wl_inst *in = &m->insts[idx];
            size_t next = w + in->size / 4;
            switch (wl_lift_cf_kind(in)) {
            case WL_CF_END:
            case WL_CF_STOP:
                break;
            case WL_CF_BRANCH:
                reach(m, seen, stack, &sp, list, &n, (size_t)wl_lift_branch_target(in) / 4);
                break;
            case WL_CF_CBRANCH:
                reach(m, seen, stack, &sp, list, &n, (size_t)wl_lift_branch_target(in) / 4);
                reach(m, seen, stack, &sp, list, &n, next);
                break;
            case WL_CF_SETPC:
                if (wl_lift_setpc_local(m, &m->ctx[ci], idx))
                    reach(m, seen, stack, &sp, list, &n, (size_t)m->jump[idx]);
                break;
            case WL_CF_SWAPPC: {
                reach(m, seen, stack, &sp, list, &n, next);
                const size_t *t = m->jump[idx] >= 0 ? (const size_t *)NULL : targets;
                size_t one = m->jump[idx] >= 0 ? (size_t)m->jump[idx] : 0;
                size_t nt = m->jump[idx] >= 0 ? 1 : m->jump[idx] == -1 ? ntargets : 0;
                for (size_t k = 0; k < nt && st == WL_OK && !why; k++) {
                    size_t tw = t ? t[k] : one, to = m->nctx;
                    if (m->shared) {
                        for (size_t a = 1; a < m->nctx; a++)
                            if (m->ctx[a].start == tw)
                                to = a;
                    } else {
                        for (int32_t a = (int32_t)ci; a >= 0; a = m->ctx[a].parent)
                            if (m->ctx[a].start == tw)
                                why = "a recursive call";
                    }
                    if (why)
                        break;
                    if (to == m->nctx && m->nctx >= WL_CALLS_MAX_CTX) {
                        why = "more call sites than the inlining limit";
                        break;
                    }
                    st = add_edge(m, &ecap, (uint32_t)ci, w, next, tw, (uint32_t)to);
                    if (st == WL_OK && to == m->nctx)
                        st = add_ctx(m, &ccap, (int32_t)ci, w, tw, next);
                }
                break;
            }
            default:
                reach(m, seen, stack, &sp, list, &n, next);
                break;
            }
        }
        for (size_t k = 0; k < n; k++)
            seen[list[k]] = 0;
        if (st != WL_OK || why)
            break;
        wl_call_ctx *c = &m->ctx[ci];
        c->nedges = m->nedges - c->edge0;
        m->lifted += n;
        if (m->lifted > max_insts) {
            why = "inlined code larger than the inlining limit";
            break;
        }
        c->words = malloc((n ? n : 1) * sizeof *c->words);
        c->bb = calloc(n ? n : 1, sizeof *c->bb);
        if (!c->words || !c->bb) {
            st = WL_ERR_NOMEM;
            break;
        }
        memcpy(c->words, list, n * sizeof *list);
        qsort(c->words, n, sizeof *c->words, cmp_size);
        c->nwords = n;
    }
    *whyp = why;
    return st;
}

/* Whether the plan per function has a callee with several calls and no
 * recursion (a cycle of contexts): then each callee can be a function of
 * its own (lift_calls.h, outline). */
static int outline_wanted(const wl_prog_map *m)
{
    size_t n = m->nctx;
    int several = 0;
    unsigned *in = calloc(n ? n : 1, sizeof *in), *order = malloc((n ? n : 1) * sizeof *order);
    if (!in || !order) {
        free(in);
        free(order);
        return 0;
    }
    for (size_t e = 0; e < m->nedges; e++)
        if (m->edges[e].to < n && ++in[m->edges[e].to] > 1)
            several = 1;
    /* Kahn's order over the edges between contexts: all taken = no cycle */
    size_t head = 0, tail = 0;
    for (size_t c = 0; c < n; c++)
        if (!in[c])
            order[tail++] = (unsigned)c;
    while (head < tail) {
        unsigned c = order[head++];
        for (size_t e = m->ctx[c].edge0; e < m->ctx[c].edge0 + m->ctx[c].nedges; e++)
            if (m->edges[e].to < n && --in[m->edges[e].to] == 0)
                order[tail++] = m->edges[e].to;
    }
    free(in);
    free(order);
    return several && tail == n;
}

wl_status wl_lift_calls_plan(wl_prog_map *m, size_t entry)
{
    size_t nw = m->nwords;
    int calls = 0;
    m->retsite = calloc(nw ? nw : 1, 1);
    if (!m->retsite)
        return WL_ERR_NOMEM;
    for (size_t i = 0; i < m->nrets; i++)
        m->retsite[m->rets[i]] = 1;
    for (size_t i = 0; i < m->ninsts; i++)
        calls |= wl_lift_cf_kind(&m->insts[i]) == WL_CF_SWAPPC;
    if (!calls)
        return plan_general(m, entry, NULL);

    /* Every target some call was found to reach (for calls the tracker lost). */
    size_t *targets = malloc((m->ninsts + 1) * sizeof *targets);
    uint8_t *seen = calloc(nw, 1);
    size_t *stack = malloc((nw + 1) * sizeof *stack);
    size_t *list = malloc((nw + 1) * sizeof *list);
    if (!targets || !seen || !stack || !list) {
        free(targets);
        free(seen);
        free(stack);
        free(list);
        return WL_ERR_NOMEM;
    }
    size_t ntargets = 0;
    for (size_t i = 0; i < m->ninsts; i++)
        if (wl_lift_cf_kind(&m->insts[i]) == WL_CF_SWAPPC && m->jump[i] >= 0 && !seen[m->jump[i]]) {
            seen[m->jump[i]] = 1;
            targets[ntargets++] = (size_t)m->jump[i];
        }
    memset(seen, 0, nw);

    /* Copies per call site when that costs at most half as much again as
     * one copy a function (so small callees get specialized to their call
     * sites), else one copy a function; the general plan past the limits. */
    const char *why = NULL;
    wl_status st = plan_walk(m, entry, 1, targets, ntargets, seen, stack, list, WL_CALLS_MAX_INSTS, &why);
    size_t one_copy = m->lifted;
    if (st == WL_OK && !why) {
        const char *why_inline = NULL;
        st = plan_walk(m, entry, 0, targets, ntargets, seen, stack, list, one_copy + one_copy / 2, &why_inline);
        if (st == WL_OK && why_inline)
            st = plan_walk(m, entry, 1, targets, ntargets, seen, stack, list, WL_CALLS_MAX_INSTS, &why);
    }
    free(targets);
    free(seen);
    free(stack);
    free(list);
    if (st != WL_OK)
        return st;
    if (why)
        return plan_general(m, entry, why);
    if (m->shared)
        m->outline = outline_wanted(m);
    return WL_OK;
}
