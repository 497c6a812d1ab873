/* wl_vkrun: runs a suite of translated SPIR-V modules through the runtime
 * and checks their outputs. Links the runtime library, libvulkan and libc
 * only (no LLVM), so that a suite written here runs on a machine without
 * LLVM (the NVIDIA machine: scripts/device_suite.sh, docs/backend.md).
 *
 *   wl_vkrun [--device NAME|INDEX] [--runs N] [--validation] DIR
 *
 * DIR/suite.txt has one program a line (# starts a comment):
 *   NAME LOCAL GROUPS MEM STATUS LDS N SUBGROUP_SIZE
 * and DIR/NAME.spv the module, NAME.in the initial state (MEM words of the
 * guest buffer, whose address goes in push-constant words 0-1 and N in word
 * 2, then STATUS words of binding 0, then LDS words of binding 2; a size of
 * 0 means no buffer), NAME.want and NAME.mask the expected final state and
 * the bits that must match (tests/test_backend_exec.c --write-suite writes
 * them). The pipeline requires SUBGROUP_SIZE (with full subgroups when
 * LOCAL is a multiple of it) where the device lets it choose, else the
 * device's size must equal it.
 *
 * Prints per program the SPIR-V words, the pipeline build time (host clock
 * around vkCreateComputePipelines, no cache; the first build and the best of
 * three), the median device time of N dispatches, and whether every checked
 * word matched. Exit status 0 when all programs ran and matched. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wavelift/runtime.h"

#define MAX_SHOWN 10

typedef struct prog {
    char name[128];
    uint32_t local, groups, mem, status, lds, n, sg;
} prog;

static uint32_t *read_words(const char *dir, const char *name, const char *ext, size_t want_words)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s%s", dir, name, ext);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", path);
        return NULL;
    }
    uint32_t *w = malloc(want_words ? want_words * 4 : 4);
    size_t got = w ? fread(w, 4, want_words, f) : 0;
    fclose(f);
    if (!w || got != want_words) {
        fprintf(stderr, "%s: %zu words, want %zu\n", path, got, want_words);
        free(w);
        return NULL;
    }
    return w;
}

/* Runs one program; returns 1 when it ran and matched. */
static int run_prog(wl_rt *rt, const char *dir, const prog *pr, uint32_t runs)
{
    const wl_host_profile *hp = wl_rt_profile(rt);
    size_t n = (size_t)pr->mem + pr->status + pr->lds;
    uint32_t sizes[3] = {pr->mem, pr->status, pr->lds};
    uint32_t *in = read_words(dir, pr->name, ".in", n), *want = read_words(dir, pr->name, ".want", n);
    uint32_t *mask = read_words(dir, pr->name, ".mask", n), *got = malloc(n * 4 + 4);
    uint32_t *words = NULL;
    size_t nwords = 0;
    wl_rt_buffer *buf[3] = {NULL, NULL, NULL};
    wl_rt_pipeline *p = NULL;
    int ok = 0;
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/%s.spv", dir, pr->name);
    if (!in || !want || !mask || !got)
        goto out;
    if (wl_rt_spirv_read_file(path, &words, &nwords, err, sizeof err) != WL_RT_OK) {
        printf("%-24s %s\n", pr->name, err);
        goto out;
    }
    wl_rt_pipeline_desc pd = {words, nwords, NULL, 0, 0, 0};
    if (pr->sg && hp->subgroup_size_control && pr->sg >= hp->min_subgroup_size && pr->sg <= hp->max_subgroup_size) {
        pd.subgroup_size = pr->sg;
        pd.require_full_subgroups = pr->local % pr->sg == 0;
    } else if (pr->sg && hp->subgroup_size != pr->sg) {
        printf("%-24s SKIPPED: the suite was written for subgroup size %u, the device has %u\n", pr->name, pr->sg,
               hp->subgroup_size);
        goto out;
    }
    double first_ms = 0, best_ms = 1e30;
    for (int i = 0; i < 3; i++) {
        if (p)
            wl_rt_pipeline_destroy(rt, p);
        p = NULL;
        if (wl_rt_pipeline_create(rt, &pd, &p) != WL_RT_OK)
            goto vkfail;
        double ms = (double)wl_rt_pipeline_create_ns(p) * 1e-6;
        if (i == 0)
            first_ms = ms;
        if (ms < best_ms)
            best_ms = ms;
    }
    size_t off = 0;
    for (int i = 0; i < 3; off += sizes[i], i++)
        if (sizes[i] && (wl_rt_buffer_create(rt, sizes[i] * 4ull, &buf[i]) != WL_RT_OK ||
                         wl_rt_buffer_upload(rt, buf[i], 0, in + off, sizes[i] * 4ull) != WL_RT_OK))
            goto vkfail;
    uint64_t addr = buf[0] ? wl_rt_buffer_address(buf[0]) : 0;
    uint32_t push[4] = {(uint32_t)addr, (uint32_t)(addr >> 32), pr->n, 0};
    wl_rt_dispatch_desc d;
    memset(&d, 0, sizeof d);
    d.groups[0] = pr->groups;
    d.bindings[WL_RT_BINDING_STATUS] = buf[1];
    d.bindings[WL_RT_BINDING_LDS] = buf[2];
    d.push_constants = push;
    d.push_constant_size = sizeof push;
    if (wl_rt_dispatch(rt, p, &d, NULL) != WL_RT_OK)
        goto vkfail;
    off = 0;
    for (int i = 0; i < 3; off += sizes[i], i++)
        if (sizes[i] && wl_rt_buffer_download(rt, buf[i], 0, got + off, sizes[i] * 4ull) != WL_RT_OK)
            goto vkfail;
    size_t checked = 0, match = 0, shown = 0;
    for (size_t i = 0; i < n; i++) {
        if (!mask[i])
            continue;
        checked++;
        if (((got[i] ^ want[i]) & mask[i]) == 0)
            match++;
        else if (shown++ < MAX_SHOWN)
            printf("    MISMATCH %s word %zu: got %#x want %#x\n", pr->name, i, got[i], want[i]);
    }
    /* timing: the outputs of these runs are not checked */
    d.runs = runs;
    wl_rt_timing t;
    if (wl_rt_dispatch(rt, p, &d, &t) != WL_RT_OK)
        goto vkfail;
    double disp_us = t.runs ? (double)t.median_ns * 1e-3 : (double)t.host_ns * 1e-3 / runs;
    printf("%-24s %6zu %4u %9.2f %9.2f %11.1f %6zu/%-6zu %s\n", pr->name, nwords, wl_rt_pipeline_subgroup_size(p),
           first_ms, best_ms, disp_us, match, checked, match == checked ? "ok" : "FAIL");
    ok = match == checked;
    goto out;
vkfail:
    printf("%-24s FAIL: %s\n", pr->name, wl_rt_error(rt));
out:
    for (int i = 0; i < 3; i++)
        if (buf[i])
            wl_rt_buffer_destroy(rt, buf[i]);
    if (p)
        wl_rt_pipeline_destroy(rt, p);
    free(in), free(want), free(mask), free(got), free(words);
    return ok;
}

int main(int argc, char **argv)
{
    wl_rt_options opt;
    memset(&opt, 0, sizeof opt);
    uint32_t runs = 20;
    const char *dir = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--device") && i + 1 < argc)
            opt.device = argv[++i];
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--validation"))
            opt.validation = 1;
        else if (argv[i][0] != '-' && !dir)
            dir = argv[i];
        else {
            fprintf(stderr, "usage: %s [--device NAME|INDEX] [--runs N] [--validation] DIR\n", argv[0]);
            return 2;
        }
    }
    if (!dir) {
        fprintf(stderr, "usage: %s [--device NAME|INDEX] [--runs N] [--validation] DIR\n", argv[0]);
        return 2;
    }
    if (runs < 1 || runs > WL_RT_MAX_TIMED_RUNS)
        runs = 20;
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/suite.txt", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", path);
        return 2;
    }
    wl_rt *rt = NULL;
    wl_rt_status st = wl_rt_create(&opt, &rt, err, sizeof err);
    if (st != WL_RT_OK) {
        fprintf(stderr, "wl_rt_create: %s: %s\n", wl_rt_status_name(st), err);
        fclose(f);
        return 2;
    }
    const wl_host_profile *hp = wl_rt_profile(rt);
    printf("device: %s, driver %s %s, subgroup size %u (control %d, %u..%u, full %d), shared memory %u\n",
           hp->device_name, hp->driver_name, hp->driver_info, hp->subgroup_size, hp->subgroup_size_control,
           hp->min_subgroup_size, hp->max_subgroup_size, hp->compute_full_subgroups,
           hp->max_compute_shared_memory_size);
    printf("%-24s %6s %4s %9s %9s %11s %13s\n", "program", "words", "sg", "pipe1 ms", "pipe ms", "dispatch us",
           "checked");
    char line[512];
    int total = 0, good = 0;
    while (fgets(line, sizeof line, f)) {
        prog pr;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (sscanf(line, "%127s %u %u %u %u %u %u %u", pr.name, &pr.local, &pr.groups, &pr.mem, &pr.status, &pr.lds,
                   &pr.n, &pr.sg) != 8 ||
            !pr.mem) {
            fprintf(stderr, "%s: bad line: %s", path, line);
            total++;
            continue;
        }
        total++;
        good += run_prog(rt, dir, &pr, runs);
    }
    fclose(f);
    printf("%d programs, %d ran and matched\n", total, good);
    wl_rt_destroy(rt);
    return good == total && total > 0 ? 0 : 1;
}
