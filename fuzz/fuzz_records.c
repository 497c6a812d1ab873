/* libFuzzer target: the readers of what a batch writes (cli/records.c):
 * a batch's JSON records (wavelift size RECORDS.json), a --cache entry's
 * record and the host description of --host FILE, on arbitrary bytes. What
 * they accept must keep the promises the batch relies on: a status and an
 * -O level in range, a lifted record's model one of the two, every string
 * ended; a host description's subgroup one a host can have. A broken
 * promise aborts. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/records.h"
#include "wavelift/translate.h"

static void check_rec(const rec *r)
{
    if (r->status < 0 || r->status >= JS_N || !memchr(r->reason, 0, sizeof r->reason))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[400];
    cli_record *r = NULL;
    size_t n = 0;
    unsigned sg = 0;
    if (cli_records_parse((const char *)data, size, &r, &n, &sg, err, sizeof err) == 0) {
        if (sg > 64 || (n && !r))
            abort();
        for (size_t i = 0; i < n; i++) {
            check_rec(&r[i].r);
            if ((r[i].r.opt != 0 && r[i].r.opt != 2) || strlen(r[i].source) > size || strlen(r[i].kernel) > size ||
                strlen(r[i].name) > size || strlen(r[i].output) > size)
                abort();
            if (r[i].r.status == JS_OK && r[i].r.model != WL_MODEL_LANES && r[i].r.model != WL_MODEL_WAVE)
                abort();
        }
        cli_records_free(r, n);
    } else if (!memchr(err, 0, sizeof err)) {
        abort();
    }
    rec one;
    if (cli_cache_rec_parse(data, size, &one) == 0) {
        check_rec(&one);
        if (one.status != JS_OK && one.status != JS_REFUSED)
            abort();
    }
    cli_host_file h;
    if (cli_host_file_parse((const char *)data, size, &h, err, sizeof err) == 0) {
        if (h.subgroup && (h.subgroup & (h.subgroup - 1) || h.subgroup < 4 || h.subgroup > 64))
            abort();
        if (h.fused_fma < -1 || h.fused_fma > 7 || !memchr(h.name, 0, sizeof h.name))
            abort();
    }
    return 0;
}
