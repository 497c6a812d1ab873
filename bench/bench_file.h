/* The bench tools' one file reader (wl_bundlerun, wl_pipebuild): they link
 * the runtime and libc only, so it lives here, not in a library. */
#ifndef WL_BENCH_FILE_H
#define WL_BENCH_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The whole of the file at path (malloc'd; *n its bytes), NULL where it
 * cannot be read. */
static inline uint8_t *wl_bench_read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *d = NULL;
    size_t cap = 0, len = 0, got;
    do {
        if (len == cap) {
            uint8_t *nd = realloc(d, cap = cap ? 2 * cap : 65536);
            if (!nd) {
                free(d);
                fclose(f);
                return NULL;
            }
            d = nd;
        }
        got = fread(d + len, 1, cap - len, f);
        len += got;
    } while (got);
    fclose(f);
    *n = len;
    return d;
}

#endif
