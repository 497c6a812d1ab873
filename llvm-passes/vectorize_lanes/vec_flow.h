/* llvm-passes/vectorize_lanes/vec_flow.c: a minimum s-t cut (Dinic's maximum flow), for
 * vec_lanes.c's choice of which tuples of lane clones become vectors. */
#ifndef WL_LOWER_VEC_FLOW_H
#define WL_LOWER_VEC_FLOW_H

#define WL_FLOW_INF (1L << 40)

typedef struct wl_flow wl_flow;

/* A graph of `nodes` nodes and no edges; NULL when out of memory. */
wl_flow *wl_flow_new(int nodes);
/* A node more; its index, or -1 when out of memory. */
int wl_flow_node(wl_flow *f);
/* An edge a -> b of capacity cap (>= 0); -1 when out of memory. */
int wl_flow_edge(wl_flow *f, int a, int b, long cap);
/* The maximum flow from s to t (the minimum cut's capacity); afterwards
 * wl_flow_source_side says which side of that cut each node is on. -1
 * when out of memory (the sides are then unknown). */
long wl_flow_run(wl_flow *f, int s, int t);
int wl_flow_source_side(const wl_flow *f, int v);
void wl_flow_free(wl_flow *f);

#endif
