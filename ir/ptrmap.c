/* The pointer map (ptrmap.h). */
#include "ptrmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static size_t hash_ptr(const void *v, size_t cap)
{
    uintptr_t x = (uintptr_t)v;
    x ^= x >> 17;
    x *= 0x9E3779B97F4A7C15ull;
    return (size_t)(x >> 20) & (cap - 1);
}

long wl_ptrmap_get(const wl_ptrmap *m, const void *k)
{
    if (!m->cap || !k)
        return -1;
    for (size_t i = hash_ptr(k, m->cap);; i = (i + 1) & (m->cap - 1)) {
        if (!m->keys[i])
            return -1;
        if (m->keys[i] == k)
            return m->vals[i];
    }
}

int wl_ptrmap_put(wl_ptrmap *m, const void *k, long v)
{
    if ((m->n + 1) * 2 > m->cap) {
        size_t nc = m->cap ? m->cap * 2 : 256;
        const void **nk = calloc(nc, sizeof *nk);
        long *nv = calloc(nc, sizeof *nv);
        if (!nk || !nv) {
            free(nk);
            free(nv);
            return 0;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i]) {
                size_t h = hash_ptr(m->keys[i], nc);
                while (nk[h])
                    h = (h + 1) & (nc - 1);
                nk[h] = m->keys[i];
                nv[h] = m->vals[i];
            }
        free(m->keys);
        free(m->vals);
        m->keys = nk;
        m->vals = nv;
        m->cap = nc;
    }
    size_t h = hash_ptr(k, m->cap);
    while (m->keys[h] && m->keys[h] != k)
        h = (h + 1) & (m->cap - 1);
    if (!m->keys[h])
        m->n++;
    m->keys[h] = k;
    m->vals[h] = v;
    return 1;
}

void wl_ptrmap_clear(wl_ptrmap *m)
{
    if (m->n)
        memset(m->keys, 0, m->cap * sizeof *m->keys);
    m->n = 0;
}

void wl_ptrmap_free(wl_ptrmap *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}
