/* Dinic's maximum flow on a small graph of integer capacities; the minimum
 * cut it leaves is the set of nodes still reachable from the source in the
 * residual graph (vec_flow.h). Iterative throughout: chains of thousands
 * of nodes need no deep recursion. */
#include <stdlib.h>
#include <string.h>

#include "vec_flow.h"

typedef struct fedge {
    int to, next;
    long cap;
} fedge;

struct wl_flow {
    int n, capn;
    int *head, *level, *it, *queue, *stack;
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
    int **arrs[] = {&f->head, &f->level, &f->it, &f->queue, &f->stack};
    for (size_t i = 0; i < sizeof arrs / sizeof arrs[0]; i++) {
        int *p = realloc(*arrs[i], (size_t)nc * sizeof *p);
        if (!p)
            return -1;
        *arrs[i] = p;
    }
    for (int v = f->capn; v < nc; v++)
        f->head[v] = -1;
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
    f->head[f->n] = -1;
    return f->n++;
}

static int add1(wl_flow *f, int a, int b, long cap)
{
    if (f->ne == f->cape) {
        int nc = f->cape ? f->cape * 2 : 256;
        fedge *ne = realloc(f->e, (size_t)nc * sizeof *ne);
        if (!ne)
            return -1;
        f->e = ne;
        f->cape = nc;
    }
    f->e[f->ne] = (fedge){b, f->head[a], cap};
    f->head[a] = f->ne++;
    return 0;
}

int wl_flow_edge(wl_flow *f, int a, int b, long cap)
{
    if (a < 0 || b < 0 || a >= f->n || b >= f->n || cap < 0)
        return -1;
    /* edge 2i and its reverse 2i + 1 */
    if (add1(f, a, b, cap) || add1(f, b, a, 0))
        return -1;
    return 0;
}

static int bfs(wl_flow *f, int s, int t)
{
    for (int v = 0; v < f->n; v++)
        f->level[v] = -1;
    int qh = 0, qt = 0;
    f->level[s] = 0;
    f->queue[qt++] = s;
    while (qh < qt) {
        int v = f->queue[qh++];
        for (int i = f->head[v]; i >= 0; i = f->e[i].next)
            if (f->e[i].cap > 0 && f->level[f->e[i].to] < 0) {
                f->level[f->e[i].to] = f->level[v] + 1;
                f->queue[qt++] = f->e[i].to;
            }
    }
    return f->level[t] >= 0;
}

/* one blocking-flow path from s to t along increasing levels, or 0 */
static long augment(wl_flow *f, int s, int t)
{
    int depth = 0, v = s; /* stack holds the edges taken */
    for (;;) {
        if (v == t) {
            long push = WL_FLOW_INF;
            for (int d = 0; d < depth; d++)
                if (f->e[f->stack[d]].cap < push)
                    push = f->e[f->stack[d]].cap;
            for (int d = 0; d < depth; d++) {
                f->e[f->stack[d]].cap -= push;
                f->e[f->stack[d] ^ 1].cap += push;
            }
            return push;
        }
        int i = f->it[v];
        while (i >= 0 && (f->e[i].cap <= 0 || f->level[f->e[i].to] != f->level[v] + 1))
            i = f->e[i].next;
        f->it[v] = i;
        if (i >= 0) {
            f->stack[depth++] = i;
            v = f->e[i].to;
            continue;
        }
        if (v == s)
            return 0;
        f->level[v] = -1; /* a dead end: not again in this phase */
        int back = f->stack[--depth];
        v = f->e[back ^ 1].to;
        f->it[v] = f->e[f->it[v]].next;
    }
}

long wl_flow_run(wl_flow *f, int s, int t)
{
    long flow = 0;
    if (s == t)
        return 0;
    while (bfs(f, s, t)) {
        for (int v = 0; v < f->n; v++)
            f->it[v] = f->head[v];
        for (long p; (p = augment(f, s, t)) > 0;)
            flow += p;
    }
    bfs(f, s, t); /* the levels now mark the source side */
    return flow;
}

int wl_flow_source_side(const wl_flow *f, int v) { return v >= 0 && v < f->n && f->level[v] >= 0; }

void wl_flow_free(wl_flow *f)
{
    if (!f)
        return;
    free(f->head);
    free(f->level);
    free(f->it);
    free(f->queue);
    free(f->stack);
    free(f->e);
    free(f);
}
