/* A pointer -> long map (open addressing, linear probing), owned by its
 * user: the wave model's bookkeeping (lower/wave/), the wave IR's
 * verifier (ir/wave_ir.c) and the passes that keep sets of values
 * (llvm-passes/version_align.c). A zeroed struct is an empty map; keys
 * are never NULL. */
#ifndef WL_IR_PTRMAP_H
#define WL_IR_PTRMAP_H

#include <stddef.h>

typedef struct wl_ptrmap {
    const void **keys;
    long *vals;
    size_t cap, n;
} wl_ptrmap;

long wl_ptrmap_get(const wl_ptrmap *m, const void *k); /* -1 when absent */
int wl_ptrmap_put(wl_ptrmap *m, const void *k, long v); /* 0: out of memory */
void wl_ptrmap_clear(wl_ptrmap *m);                      /* empty, keeping its memory */
void wl_ptrmap_free(wl_ptrmap *m);

/* k is a key of m (a map used as a set) */
static inline int wl_ptrmap_has(const wl_ptrmap *m, const void *k)
{
    return wl_ptrmap_get(m, k) >= 0;
}

#endif
