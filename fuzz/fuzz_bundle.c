/* libFuzzer target: the dispatch bundle manifest reader
 * (bench/bundle_manifest.c, docs/bundle.md) on arbitrary bytes. Whatever
 * it reads, a manifest it accepts must keep the promises the runner
 * (bench/wl_bundlerun.c) relies on: counts within their arrays, every
 * relocation's eight bytes inside its buffer or the push constants, every
 * binding, check and save naming a buffer, every placed buffer inside the
 * arena, every page range inside it. A broken promise aborts. */
#define _POSIX_C_SOURCE 200809L /* fmemopen */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/bundle_manifest.h"

static void check(const bundle *b)
{
    if (b->nbuf > MAX_BUFS || b->nrel > MAX_RELS || b->ncheck > MAX_CHECKS || b->nsave > MAX_CHECKS ||
        b->npr > MAX_BUFS || b->push_bytes > WL_RT_PUSH_CONSTANT_BYTES)
        abort();
    for (unsigned i = 0; i < b->nrel; i++) {
        uint64_t lim = b->rel[i].in < 0 ? b->push_bytes : b->size[b->rel[i].in];
        if (b->rel[i].in >= (int)b->nbuf || b->rel[i].target >= b->nbuf || (uint64_t)b->rel[i].offset + 8 > lim)
            abort();
    }
    for (int i = 0; i < WL_RT_MAX_BINDINGS; i++)
        if (b->binding[i] >= (int)b->nbuf)
            abort();
    for (unsigned i = 0; i < b->ncheck; i++)
        if (b->check_buf[i] >= b->nbuf)
            abort();
    for (unsigned i = 0; i < b->nsave; i++)
        if (b->save_buf[i] >= b->nbuf)
            abort();
    for (unsigned i = 0; i < b->nbuf; i++)
        if (b->place[i] != UINT64_MAX && (b->place[i] > b->arena_bytes || b->size[i] > b->arena_bytes - b->place[i]))
            abort();
    for (unsigned i = 0; i < b->npr; i++)
        if (b->pr[i].host_base > b->arena_bytes || b->pr[i].size > b->arena_bytes - b->pr[i].host_base)
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size)
        return 0; /* fmemopen wants at least a byte */
    bundle *b = malloc(sizeof *b);
    if (!b)
        return 0;
    bundle_init(b, "fuzz/bundle");
    FILE *f = fmemopen((void *)data, size, "r");
    if (f) {
        char err[1024];
        if (bundle_parse(b, f, "manifest.txt", err, sizeof err) == 0)
            check(b);
        fclose(f);
    }
    free(b);
    return 0;
}
