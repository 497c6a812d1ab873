/* Dinic's maximum flow on a small graph of integer capacities; the minimum
 * cut it leaves is the set of nodes still reachable from the source in the
 * residual graph (vec_flow.h). Iterative throughout: chains of thousands
 * of nodes need no deep recursion. */
#include <stdlib.h>
#include <string.h>

#include "vec_flow.h"

typedef struct fedge { /* edge 2i and its reverse 2i + 1 */
    int to;
    long cap;
} fedge;

struct wl_flow {
    int n, capn;
    int *level, *it, *queue, *stack;
    fedge *e;
    int ne, cape;
};

static int grow_nodes(wl_flow *f, int want)
{
    if (want <= f->capn)
        return 0;
    int nc = f->capn ? f->capn : 64;
    while (nc < want)
        nc *= 2;
    int **arrs[] = {&f->level, &f->it, &f->queue, &f->stack};
    for (size_t i = 0; i < sizeof arrs / sizeof arrs[0]; i++) {
        int *p = realloc(*arrs[i], (size_t)nc * sizeof *p);
        if (!p)
            return -1;
        *arrs[i] = p;
    }
    f->capn = nc;
    return 0;
}

wl_flow *wl_flow_new(int nodes)
{
    wl_flow *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    if (grow_nodes(f, nodes > 0 ? nodes : 1)) {
        wl_flow_free(f);
        return NULL;
    }
    f->n = nodes;
    return f;
}

int wl_flow_node(wl_flow *f)
{
    if (grow_nodes(f, f->n + 1))
        return -1;
    return f->n++;
}

static int add1(wl_flow *f, int b, long cap)
{
    if (f->ne == f->cape) {
        int nc = f->cape ? f->cape * 2 : 256;
        fedge *ne = realloc(f->e, (size_t)nc * sizeof *ne);
        if (!ne)
            return -1;
        f->e = ne;
        f->cape = nc;
    }
    f->e[f->ne++] = (fedge){b, cap};
    return 0;
}

int wl_flow_edge(wl_flow *f, int a, int b, long cap)
{
    if (a < 0 || b < 0 || a >= f->n || b >= f->n || cap < 0)
        return -1;
    if (add1(f, b, cap) || add1(f, a, 0))
        return -1;
    return 0;
}

/* The edges in CSR order for the run: node v's edges are slots
 * start[v] .. start[v + 1] - 1 (to, residual capacity, the reverse's slot),
 * so that a search reads each node's edges from one place (the lists the
 * graph was built in are scattered over the edge array). */
typedef struct csr {
    int *start, *to, *rev;
    long *cap;
} csr;

static void csr_free(csr *g)
{
    free(g->start);
    free(g->to);
    free(g->rev);
    free(g->cap);
}

static int csr_build(const wl_flow *f, csr *g)
{
    int n = f->n, ne = f->ne;
    int *slot = malloc((size_t)(ne ? ne : 1) * sizeof *slot);
    g->start = calloc((size_t)n + 2, sizeof *g->start);
    g->to = malloc((size_t)(ne ? ne : 1) * sizeof *g->to);
    g->rev = malloc((size_t)(ne ? ne : 1) * sizeof *g->rev);
    g->cap = malloc((size_t)(ne ? ne : 1) * sizeof *g->cap);
    if (!slot || !g->start || !g->to || !g->rev || !g->cap) {
        free(slot);
        csr_free(g);
        return -1;
    }
    for (int i = 0; i < ne; i++) /* edge i leaves the node its reverse reaches */
        g->start[f->e[i ^ 1].to + 2]++;
    for (int v = 0; v < n; v++)
        g->start[v + 2] += g->start[v + 1];
    for (int i = 0; i < ne; i++) { /* start[v + 1] counts v's edges placed */
        int at = g->start[f->e[i ^ 1].to + 1]++;
        slot[i] = at;
        g->to[at] = f->e[i].to;
        g->cap[at] = f->e[i].cap;
    }
    for (int i = 0; i < ne; i++)
        g->rev[slot[i]] = slot[i ^ 1];
    free(slot);
    return 0;
}

/* levels from s along edges with room; 1 where t is reached */
static int bfs(wl_flow *f, const csr *g, int s, int t)
{
    for (int v = 0; v < f->n; v++)
        f->level[v] = -1;
    int qh = 0, qt = 0;
    f->level[s] = 0;
    f->queue[qt++] = s;
    while (qh < qt) {
        int v = f->queue[qh++];
        for (int i = g->start[v]; i < g->start[v + 1]; i++)
            if (g->cap[i] > 0 && f->level[g->to[i]] < 0) {
                f->level[g->to[i]] = f->level[v] + 1;
                f->queue[qt++] = g->to[i];
            }
    }
    return f->level[t] >= 0;
}

/* one blocking-flow path from s to t along increasing levels, or 0 */
static long augment(wl_flow *f, csr *g, int s, int t)
{
    int depth = 0, v = s; /* stack holds the slots taken */
    for (;;) {
        if (v == t) {
            long push = WL_FLOW_INF;
            for (int d = 0; d < depth; d++)
                if (g->cap[f->stack[d]] < push)
                    push = g->cap[f->stack[d]];
            for (int d = 0; d < depth; d++) {
                g->cap[f->stack[d]] -= push;
                g->cap[g->rev[f->stack[d]]] += push;
            }
            return push;
        }
        int i = f->it[v], end = g->start[v + 1];
        while (i < end && (g->cap[i] <= 0 || f->level[g->to[i]] != f->level[v] + 1))
            i++;
        f->it[v] = i;
        if (i < end) {
            f->stack[depth++] = i;
            v = g->to[i];
            continue;
        }
        if (v == s)
            return 0;
        f->level[v] = -1; /* a dead end: not again in this phase */
        v = g->to[g->rev[f->stack[--depth]]];
        f->it[v]++;
    }
}

long wl_flow_run(wl_flow *f, int s, int t)
{
    long flow = 0;
    if (s == t)
        return 0;
    csr g;
    memset(&g, 0, sizeof g);
    if (csr_build(f, &g))
        return -1;
    while (bfs(f, &g, s, t)) {
        for (int v = 0; v < f->n; v++)
            f->it[v] = g.start[v];
        for (long p; (p = augment(f, &g, s, t)) > 0;)
            flow += p;
    }
    bfs(f, &g, s, t); /* the levels now mark the source side */
    csr_free(&g);
    return flow;
}

int wl_flow_source_side(const wl_flow *f, int v) { return v >= 0 && v < f->n && f->level[v] >= 0; }

void wl_flow_free(wl_flow *f)
{
    if (!f)
        return;
    free(f->level);
    free(f->it);
    free(f->queue);
    free(f->stack);
    free(f->e);
    free(f);
}
