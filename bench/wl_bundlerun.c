/* wl_bundlerun: runs dispatch bundles (`wavelift run --bundle DIR`,
 * docs/bundle.md) through the runtime and compares their outputs with the
 * expected files. Links the runtime library, libvulkan and libc only (no
 * LLVM): it runs the kernel suite on a machine without LLVM
 * (scripts/device_kernels.sh).
 *
 *   wl_bundlerun [--device NAME|INDEX] [--runs N] [--validation]
 *                [--timeout-ms MS] BUNDLE_DIR...
 *
 * Per bundle: creates the buffers (initial contents from their files, else
 * zeros), puts the device addresses the relocations name into the buffers
 * and the push constants, builds the pipeline (requiring the bundle's
 * subgroup size with full subgroups; timed), dispatches once, checks the
 * status words (word 0 non-zero: the module recorded an escape: the result
 * is refused), compares every `check` buffer with its file (byte for byte;
 * with `tolerance U`, 32-bit floats within U ulps, NaN equal to NaN), then
 * dispatches N more times for the timing (median device time; those
 * outputs are not checked). Prints one line a bundle and a total.
 *
 * Exit: 0 all matched; 1 a mismatch or a failure; 3 none of those, but an
 * escape or a bundle the device cannot run (subgroup size, storage);
 * 2 usage. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wavelift/runtime.h"


#define MAX_BUFS 96
#define MAX_RELS 512
#define MAX_CHECKS 32

typedef struct bundle {
    char dir[1024], name[256];
    unsigned subgroup, merge_stores, tolerance;
    char spirv[256], push_file[256];
    uint32_t push_bytes, groups[3];
    unsigned nbuf;
    uint64_t size[MAX_BUFS];
    char file[MAX_BUFS][256]; /* "" : zeros */
    unsigned nrel;
    struct { int in; uint32_t offset; unsigned target; uint64_t addend; } rel[MAX_RELS];
    int binding[WL_RT_MAX_BINDINGS];
    unsigned ncheck;
    unsigned check_buf[MAX_CHECKS];
    char check_file[MAX_CHECKS][256];
} bundle;

enum { R_MATCH, R_MISMATCH, R_FAIL, R_ESCAPE, R_SKIP };

static uint8_t *read_all(const char *dir, const char *name, size_t *n)
{
    char path[1400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
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

/* Parses DIR/manifest.txt; 0 or -1 with a message in err. */
static int parse_manifest(bundle *b, char *err, size_t errcap)
{
    char path[1400], line[1024];
    snprintf(path, sizeof path, "%s/manifest.txt", b->dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errcap, "%.900s: cannot open", path);
        return -1;
    }
    for (int i = 0; i < WL_RT_MAX_BINDINGS; i++)
        b->binding[i] = -1;
    int version = 0, ok = 1;
    unsigned lineno = 0;
    while (ok && fgets(line, sizeof line, f)) {
        lineno++;
        char key[64], a[256], c[256];
        unsigned long long x, y, z;
        if (line[0] == '#' || sscanf(line, "%63s", key) != 1)
            continue;
        if (!strcmp(key, "wavelift-bundle"))
            ok = sscanf(line, "%*s %d", &version) == 1 && version == 1;
        else if (!strcmp(key, "subgroup"))
            ok = sscanf(line, "%*s %u", &b->subgroup) == 1;
        else if (!strcmp(key, "merge-stores"))
            ok = sscanf(line, "%*s %u", &b->merge_stores) == 1;
        else if (!strcmp(key, "tolerance"))
            ok = sscanf(line, "%*s %u", &b->tolerance) == 1;
        else if (!strcmp(key, "spirv"))
            ok = sscanf(line, "%*s %255s", b->spirv) == 1;
        else if (!strcmp(key, "groups"))
            ok = sscanf(line, "%*s %u %u %u", &b->groups[0], &b->groups[1], &b->groups[2]) == 3;
        else if (!strcmp(key, "push"))
            ok = sscanf(line, "%*s %u %255s", &b->push_bytes, b->push_file) == 2 &&
                 b->push_bytes % 4 == 0 && b->push_bytes <= WL_RT_PUSH_CONSTANT_BYTES;
        else if (!strcmp(key, "buffer")) {
            ok = sscanf(line, "%*s %llu %llu %255s", &x, &y, a) == 3 && x == b->nbuf && x < MAX_BUFS &&
                 y > 0;
            if (ok) {
                b->size[b->nbuf] = y;
                snprintf(b->file[b->nbuf++], 256, "%s", strcmp(a, "-") ? a : "");
            }
        } else if (!strcmp(key, "reloc")) {
            ok = b->nrel < MAX_RELS && sscanf(line, "%*s %255s %llu %llu %llu", a, &x, &y, &z) == 4;
            if (ok) {
                int in = strcmp(a, "push") ? atoi(a) : -1;
                b->rel[b->nrel].in = in;
                b->rel[b->nrel].offset = (uint32_t)x;
                b->rel[b->nrel].target = (unsigned)y;
                b->rel[b->nrel].addend = z;
                uint64_t lim = in < 0 ? b->push_bytes : (in < (int)b->nbuf ? b->size[in] : 0);
                ok = y < b->nbuf && x + 8 <= lim;
                b->nrel++;
            }
        } else if (!strcmp(key, "binding")) {
            ok = sscanf(line, "%*s %llu %llu", &x, &y) == 2 && x < WL_RT_MAX_BINDINGS && y < b->nbuf;
            if (ok)
                b->binding[x] = (int)y;
        } else if (!strcmp(key, "check")) {
            ok = b->ncheck < MAX_CHECKS && sscanf(line, "%*s %llu %255s", &x, c) == 2 && x < b->nbuf;
            if (ok) {
                b->check_buf[b->ncheck] = (unsigned)x;
                snprintf(b->check_file[b->ncheck++], 256, "%s", c);
            }
        }
        /* other keys (kernel, wave, k, local, code-object) are information */
    }
    fclose(f);
    if (!ok) {
        snprintf(err, errcap, "%.900s line %u: malformed (buffers and relocations must come in order)",
                 path, lineno);
        return -1;
    }
    if (!version || !b->spirv[0] || !b->push_file[0] || !b->subgroup || b->binding[0] < 0 ||
        !b->ncheck) {
        snprintf(err, errcap, "%.900s: incomplete (needs wavelift-bundle 1, spirv, push, subgroup, "
                              "binding 0, check)", path);
        return -1;
    }
    return 0;
}

static int64_t ulp_key(uint32_t v)
{
    return (v & 0x80000000u) ? -(int64_t)(v & 0x7fffffffu) : (int64_t)v;
}

/* 0: equal (within tol ulps); else the first difference in msg. */
static int compare(const uint8_t *want, size_t wn, const uint8_t *got, size_t gn, unsigned tol,
                   unsigned buf, char *msg, size_t cap)
{
    if (gn < wn) {
        snprintf(msg, cap, "buffer %u: %zu bytes, expected %zu", buf, gn, wn);
        return 1;
    }
    for (size_t i = 0; i < wn; i += 4) {
        uint32_t a = 0, b = 0;
        size_t k = wn - i < 4 ? wn - i : 4;
        memcpy(&a, want + i, k);
        memcpy(&b, got + i, k);
        if (a == b)
            continue;
        if (tol && k == 4) {
            float fa, fb;
            memcpy(&fa, &a, 4);
            memcpy(&fb, &b, 4);
            int64_t d = ulp_key(a) - ulp_key(b);
            if ((isnan(fa) && isnan(fb)) || (d <= (int64_t)tol && d >= -(int64_t)tol))
                continue;
        }
        snprintf(msg, cap, "buffer %u word %zu: got 0x%08x, expected 0x%08x", buf, i / 4, b, a);
        return 1;
    }
    return 0;
}

/* Runs one bundle; returns R_*, with what to print in msg. */
static int run_bundle(wl_rt *rt, bundle *b, uint32_t runs, char *msg, size_t cap)
{
    const wl_host_profile *hp = wl_rt_profile(rt);
    wl_rt_buffer *buf[MAX_BUFS] = {0};
    uint8_t *bytes[MAX_BUFS] = {0}, push[WL_RT_PUSH_CONSTANT_BYTES] = {0};
    uint32_t *words = NULL;
    size_t nwords = 0, n = 0;
    wl_rt_pipeline *p = NULL;
    int res = R_FAIL;
    char path[1400];
    if (!hp->subgroup_size_control || b->subgroup < hp->min_subgroup_size ||
        b->subgroup > hp->max_subgroup_size) {
        snprintf(msg, cap, "SKIPPED: written for subgroup size %u, the device allows %u..%u",
                 b->subgroup, hp->subgroup_size_control ? hp->min_subgroup_size : hp->subgroup_size,
                 hp->subgroup_size_control ? hp->max_subgroup_size : hp->subgroup_size);
        return R_SKIP;
    }
    if (!b->merge_stores && (!hp->storage_buffer_8bit_access || !hp->storage_buffer_16bit_access)) {
        snprintf(msg, cap, "SKIPPED: needs 8- and 16-bit storage access (bundle it with --merge-stores)");
        return R_SKIP;
    }
    snprintf(path, sizeof path, "%s/%s", b->dir, b->spirv);
    if (wl_rt_spirv_read_file(path, &words, &nwords, msg, cap) != WL_RT_OK)
        goto out;
    uint8_t *pf = read_all(b->dir, b->push_file, &n);
    if (!pf || n != b->push_bytes) {
        snprintf(msg, cap, "%s: missing or not %u bytes", b->push_file, b->push_bytes);
        free(pf);
        goto out;
    }
    memcpy(push, pf, n);
    free(pf);
    uint64_t addr[MAX_BUFS];
    for (unsigned i = 0; i < b->nbuf; i++) {
        if (wl_rt_buffer_create(rt, b->size[i], &buf[i]) != WL_RT_OK)
            goto vkfail;
        addr[i] = wl_rt_buffer_address(buf[i]);
        if (!(bytes[i] = calloc(1, b->size[i]))) {
            snprintf(msg, cap, "out of memory");
            goto out;
        }
        if (b->file[i][0]) {
            uint8_t *d = read_all(b->dir, b->file[i], &n);
            if (!d || n != b->size[i]) {
                snprintf(msg, cap, "%s: missing or not %llu bytes", b->file[i],
                         (unsigned long long)b->size[i]);
                free(d);
                goto out;
            }
            memcpy(bytes[i], d, n);
            free(d);
        }
    }
    for (unsigned r = 0; r < b->nrel; r++) {
        uint64_t v = addr[b->rel[r].target] + b->rel[r].addend;
        memcpy((b->rel[r].in < 0 ? push : bytes[b->rel[r].in]) + b->rel[r].offset, &v, 8);
    }
    for (unsigned i = 0; i < b->nbuf; i++)
        if (wl_rt_buffer_upload(rt, buf[i], 0, bytes[i], b->size[i]) != WL_RT_OK)
            goto vkfail;
    wl_rt_pipeline_desc pd = {words, nwords, NULL, b->subgroup, 1};
    if (wl_rt_pipeline_create(rt, &pd, &p) != WL_RT_OK)
        goto vkfail;
    wl_rt_dispatch_desc d;
    memset(&d, 0, sizeof d);
    memcpy(d.groups, b->groups, sizeof d.groups);
    for (int i = 0; i < WL_RT_MAX_BINDINGS; i++)
        d.bindings[i] = b->binding[i] >= 0 ? buf[b->binding[i]] : NULL;
    d.push_constants = push;
    d.push_constant_size = b->push_bytes;
    if (wl_rt_dispatch(rt, p, &d, NULL) != WL_RT_OK)
        goto vkfail;
    uint32_t sw[4];
    if (wl_rt_buffer_download(rt, buf[b->binding[0]], 0, sw, sizeof sw) != WL_RT_OK)
        goto vkfail;
    if (sw[0]) {
        snprintf(msg, cap, "REFUSED: escape kind %u at guest offset 0x%x", sw[0], sw[1]);
        res = R_ESCAPE;
        goto out;
    }
    res = R_MATCH;
    for (unsigned c = 0; c < b->ncheck && res == R_MATCH; c++) {
        unsigned i = b->check_buf[c];
        uint8_t *want = read_all(b->dir, b->check_file[c], &n);
        if (!want) {
            snprintf(msg, cap, "%s: cannot read the expected output", b->check_file[c]);
            res = R_FAIL;
        } else if (wl_rt_buffer_download(rt, buf[i], 0, bytes[i], b->size[i]) != WL_RT_OK) {
            free(want);
            goto vkfail;
        } else if (compare(want, n, bytes[i], b->size[i], b->tolerance, i, msg, cap)) {
            res = R_MISMATCH;
        }
        free(want);
    }
    if (res != R_MATCH)
        goto out;
    d.runs = runs;
    wl_rt_timing t;
    memset(&t, 0, sizeof t);
    if (wl_rt_dispatch(rt, p, &d, &t) != WL_RT_OK)
        goto vkfail;
    double disp_ms = t.runs ? (double)t.median_ns * 1e-6 : (double)t.host_ns * 1e-6 / runs;
    snprintf(msg, cap, "%6zu %3u %10.3f %11.4f  match", nwords, wl_rt_pipeline_subgroup_size(p),
             (double)wl_rt_pipeline_create_ns(p) * 1e-6, disp_ms);
    goto out;
vkfail:
    snprintf(msg, cap, "FAIL: %s", wl_rt_error(rt));
    res = R_FAIL;
out:
    for (unsigned i = 0; i < b->nbuf; i++) {
        if (buf[i])
            wl_rt_buffer_destroy(rt, buf[i]);
        free(bytes[i]);
    }
    if (p)
        wl_rt_pipeline_destroy(rt, p);
    free(words);
    return res;
}

static int usage(const char *argv0)
{
    fprintf(stderr, "usage: %s [--device NAME|INDEX] [--runs N] [--validation] [--timeout-ms MS] "
                    "BUNDLE_DIR...\n", argv0);
    return 2;
}

int main(int argc, char **argv)
{
    wl_rt_options opt;
    memset(&opt, 0, sizeof opt);
    uint32_t runs = 20;
    int first = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--device") && i + 1 < argc)
            opt.device = argv[++i];
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--timeout-ms") && i + 1 < argc)
            opt.timeout_ms = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--validation"))
            opt.validation = 1;
        else if (argv[i][0] == '-')
            return usage(argv[0]);
        else {
            first = i;
            break;
        }
    }
    if (!first)
        return usage(argv[0]);
    if (runs < 1 || runs > WL_RT_MAX_TIMED_RUNS)
        runs = 20;
    char err[1024];
    wl_rt *rt = NULL;
    wl_rt_status st = wl_rt_create(&opt, &rt, err, sizeof err);
    if (st != WL_RT_OK) {
        fprintf(stderr, "wl_rt_create: %s: %s\n", wl_rt_status_name(st), err);
        return 1;
    }
    const wl_host_profile *hp = wl_rt_profile(rt);
    printf("device: %s, driver %s %s, subgroup size %u (control %d, %u..%u, full %d)\n", hp->device_name,
           hp->driver_name, hp->driver_info, hp->subgroup_size, hp->subgroup_size_control,
           hp->min_subgroup_size, hp->max_subgroup_size, hp->compute_full_subgroups);
    printf("%-32s %6s %3s %10s %11s  %s\n", "bundle", "words", "sg", "pipe ms", "dispatch ms", "result");
    unsigned count[5] = {0};
    bundle *b = malloc(sizeof *b);
    if (!b)
        return 1;
    for (int i = first; i < argc; i++) {
        memset(b, 0, sizeof *b);
        snprintf(b->dir, sizeof b->dir, "%s", argv[i]);
        size_t l = strlen(b->dir);
        while (l > 1 && b->dir[l - 1] == '/')
            b->dir[--l] = 0;
        const char *slash = strrchr(b->dir, '/');
        snprintf(b->name, sizeof b->name, "%.255s", slash ? slash + 1 : b->dir);
        char msg[1024];
        int r = parse_manifest(b, msg, sizeof msg) ? R_FAIL : run_bundle(rt, b, runs, msg, sizeof msg);
        count[r]++;
        if (r == R_MISMATCH)
            printf("%-32s MISMATCH: %s\n", b->name, msg);
        else
            printf("%-32s %s\n", b->name, msg);
        fflush(stdout);
    }
    free(b);
    printf("total: %d bundles: %u match, %u mismatch, %u failed, %u refused (escape), %u skipped\n",
           argc - first, count[R_MATCH], count[R_MISMATCH], count[R_FAIL], count[R_ESCAPE], count[R_SKIP]);
    wl_rt_destroy(rt);
    if (count[R_MISMATCH] || count[R_FAIL])
        return 1;
    return count[R_ESCAPE] || count[R_SKIP] ? 3 : 0;
}
