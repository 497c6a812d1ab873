/* libFuzzer target: the dispatch-capture reader (docs/capture.md) on
 * arbitrary bytes. The input is a manifest, then (after the first NUL byte)
 * the bytes every file the manifest names holds. Whatever the reader
 * accepts must pass wl_capture_check, write back, and relocate without
 * touching memory outside its ranges; whatever it refuses it refuses with
 * a message and no capture. */
#include "wavelift/capture.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct blob_ctx {
    const uint8_t *bytes;
    size_t size;
} blob_ctx;

static int blob(void *ctx, const char *name, uint64_t max, const uint8_t **out, uint64_t *size,
                char *err, size_t errcap)
{
    const blob_ctx *b = ctx;
    (void)name;
    if (b->size > max) {
        strncpy(err, "too large", errcap);
        return -1;
    }
    *out = b->bytes;
    *size = b->size;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, 0, size);
    size_t tlen = nul ? (size_t)(nul - data) : size;
    blob_ctx b = {nul ? nul + 1 : data + size, nul ? size - tlen - 1 : 0};
    wl_capture *c = NULL;
    char err[512];
    err[0] = '\0';
    if (wl_capture_parse((const char *)data, tlen, blob, NULL, &b, &c, err, sizeof(err)) != WL_OK) {
        if (c != NULL || err[0] == '\0')
            abort();
        return 0;
    }
    if (wl_capture_check(c, err, sizeof(err)) != WL_OK)
        abort();
    wl_lift_program p;
    if (wl_capture_lift_program(c, &p, err, sizeof(err)) != WL_OK || p.code != c->code ||
        p.entry >= p.size)
        abort();
    /* relocate copies to made-up host addresses, then back */
    uint64_t *host = calloc(c->nranges + 1, sizeof(uint64_t));
    uint8_t **copy = calloc(c->nranges + 1, sizeof(uint8_t *));
    if (!host || !copy)
        abort();
    uint64_t at = 0x100000;
    for (size_t i = 0; i < c->nranges; i++) {
        host[i] = at;
        at += (c->ranges[i].size + 0xfff) & ~0xfffull;
        if (c->ranges[i].size <= (1u << 20)) {
            copy[i] = malloc(c->ranges[i].size);
            memcpy(copy[i], c->ranges[i].data, c->ranges[i].size);
        }
    }
    uint32_t sg[WL_CAPTURE_MAX_USER_SGPRS];
    if (wl_capture_relocate(c, host, sg, copy, err, sizeof(err)) == WL_OK)
        for (size_t i = 0; i < c->nranges; i++)
            if (copy[i]) {
                wl_capture_unrelocate(c, host, i, copy[i]);
                if (memcmp(copy[i], c->ranges[i].data, c->ranges[i].size) != 0)
                    abort(); /* relocation is undone exactly */
            }
    for (size_t i = 0; i < c->nranges; i++)
        free(copy[i]);
    free(copy);
    free(host);
    wl_capture_free(c);
    return 0;
}
