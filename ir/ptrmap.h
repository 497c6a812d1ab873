/* A pointer -> long map (open addressing, linear probing), owned by its
 * user: the wave model's bookkeeping (lower/wave/), the wave IR's
 * verifier (ir/wave_ir.c) and the passes that keep sets of values
 * (llvm-passes/version_align.c). A zeroed struct is an empty map; keys
 * are never NULL. */
#ifndef WL_IR_PTRMAP_H
#define WL_IR_PTRMAP_H

#include <stddef.h>
#include <stdint.h>

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

/* qsort's comparison for an array of pointers, by address (sorting them
 * puts equal ones side by side) */
static inline int wl_ptr_order(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)*(const void *const *)a, y = (uintptr_t)*(const void *const *)b;
    return x < y ? -1 : x > y;
}

#endif
