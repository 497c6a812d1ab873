/* wl_bundlerun: runs dispatch bundles (`wavelift run --bundle DIR`,
 * docs/bundle.md) through the runtime and compares their outputs with the
 * expected files. Links the runtime library, libvulkan and libc only (no
 * LLVM): it runs the kernel suite on a machine without LLVM
 * (scripts/device_kernels.sh).
 *
 *   wl_bundlerun [--device NAME|INDEX] [--runs N] [--validation]
 *                [--timeout-ms MS] [--statistics] BUNDLE_DIR...
 *
 * --statistics: after a bundle's line, the driver's statistics of its
 * pipeline (VK_KHR_pipeline_executable_properties: registers, spills, ...
 * as the driver names them), where the device has them.
 *
 * Per bundle: creates the buffers (initial contents from their files, else
 * zeros; format 2: the guest arena as one buffer, the buffers placed in it
 * as views, its mapping in the push constants), puts the addresses the
 * relocations name (guest addresses in the arena, device addresses
 * elsewhere) into the buffers and the push constants, builds the pipeline (`model lanes`: requiring the
 * bundle's subgroup size with full subgroups; `model wave`: no subgroup
 * size, no full subgroups; timed), dispatches once (timed: the first
 * dispatch, host clock), checks the status words (word 0 non-zero: the
 * module recorded an escape: the result is refused), compares every `check`
 * buffer with its file (byte for byte; with `tolerance U`, 32-bit floats
 * within U ulps, NaN equal to NaN), then dispatches N more times for the
 * warm timing (median device time; those outputs are not checked). Prints
 * one line a bundle, a table per model (largest modules first) and a total.
 * Each bundle runs in a child process of its own (its own runtime), so a
 * module that brings the driver down fails that bundle only.
 * The drivers' shader disk caches are off (MESA_SHADER_CACHE_DISABLE,
 * __GL_SHADER_DISK_CACHE, unless set), so the times are of real compiles.
 *
 * Exit: 0 all matched; 1 a mismatch or a failure; 3 none of those, but an
 * escape or a bundle the device cannot run (subgroup size, storage);
 * 2 usage. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <errno.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_file.h"
#include "bundle_manifest.h"
#include "wavelift/runtime.h"




enum { R_MATCH, R_MISMATCH, R_FAIL, R_ESCAPE, R_SKIP };

/* One bundle's numbers, for the tables at the end. */
typedef struct row {
    char name[64];
    int model, result;
    unsigned lane_loops;
    size_t words;
    double translate_ms, pipe_ms, first_ms, warm_ms;
    char stats[400]; /* the driver's statistics (--statistics), or "" */
} row;

/* Runs one bundle; returns R_*, with what to print in msg. */
/* the module has OpExtension "SPV_KHR_maximal_reconvergence" (wavelift's
 * modules for a host that enables it: wl_translate_options) */
static int declares_maximal_reconvergence(const uint32_t *w, size_t n)
{
    for (size_t i = 5; i < n;) {
        uint32_t op = w[i] & 0xffffu, len = w[i] >> 16;
        if (!len || i + len > n || op == 14 /* OpMemoryModel: no extension after it */)
            return 0;
        if (op == 10 && len >= 2 && strncmp((const char *)&w[i + 1], "SPV_KHR_maximal_reconvergence",
                                            (len - 1) * 4) == 0)
            return 1;
        i += len;
    }
    return 0;
}

static int run_bundle(wl_rt *rt, bundle *b, uint32_t runs, row *rw, char *msg, size_t cap)
{
    const wl_host_profile *hp = wl_rt_profile(rt);
    wl_rt_buffer *buf[MAX_BUFS] = {0}, *arena = NULL;
    uint8_t *bytes[MAX_BUFS] = {0}, push[WL_RT_PUSH_CONSTANT_BYTES] = {0};
    uint32_t *words = NULL;
    size_t nwords = 0, n = 0;
    wl_rt_pipeline *p = NULL;
    int res = R_FAIL;
    char path[1400];
    if (b->model == M_LANES && (!hp->subgroup_size_control || b->subgroup < hp->min_subgroup_size ||
                                b->subgroup > hp->max_subgroup_size)) {
        snprintf(msg, cap, "SKIPPED: written for subgroup size %u, the device allows %u..%u",
                 b->subgroup, hp->subgroup_size_control ? hp->min_subgroup_size : hp->subgroup_size,
                 hp->subgroup_size_control ? hp->max_subgroup_size : hp->subgroup_size);
        return R_SKIP;
    }
    if (!b->merge_stores && (!hp->storage_buffer_8bit_access || !hp->storage_buffer_16bit_access)) {
        snprintf(msg, cap, "SKIPPED: needs 8- and 16-bit storage access (bundle it with --merge-stores)");
        return R_SKIP;
    }
    if (b->fused_fma && (wl_rt_probe_fma(rt) != WL_RT_OK || (b->fused_fma & 1 && !hp->fma_fused_f32) ||
                         (b->fused_fma & 2 && !hp->fma_fused_f64) || (b->fused_fma & 4 && !hp->fma_ftz_f32) ||
                         (b->fused_fma & 8 && !hp->fma_normal_f32))) {
        snprintf(msg, cap, "SKIPPED: translated with --fused-fma; this device's Fma is not fused (wl_rt_probe_fma)");
        return R_SKIP;
    }
    snprintf(path, sizeof path, "%s/%s", b->dir, b->spirv);
    if (wl_rt_spirv_read_file(path, &words, &nwords, msg, cap) != WL_RT_OK)
        goto out;
    if (b->words && b->words != nwords) {
        snprintf(msg, cap, "manifest field spirv: %zu words, but %s holds %zu", b->words, b->spirv, nwords);
        goto out;
    }
    if (declares_maximal_reconvergence(words, nwords) && !hp->maximal_reconvergence) {
        snprintf(msg, cap, "SKIPPED: the module declares MaximallyReconvergesKHR; this device has no "
                           "VK_KHR_shader_maximal_reconvergence");
        res = R_SKIP;
        goto out;
    }
    uint8_t *pf = bundle_read(b->dir, b->push_file, &n);
    if (!pf || n != b->push_bytes) {
        snprintf(msg, cap, "%s: missing or not %u bytes", b->push_file, b->push_bytes);
        free(pf);
        goto out;
    }
    memcpy(push, pf, n);
    free(pf);
    /* the program's addresses: guest addresses in the arena for the
     * buffers placed there (the module maps them, docs/memory.md), device
     * addresses for the others */
    uint64_t addr[MAX_BUFS];
    if (b->arena_bytes) {
        if (wl_rt_buffer_create(rt, b->arena_bytes, &arena) != WL_RT_OK)
            goto vkfail;
        wl_rt_mapping map = {b->arena_guest, b->arena_bytes, wl_rt_buffer_address(arena)};
        uint32_t mw[WL_RT_MAPPING_WORDS];
        if (b->npr) { /* format 3: the page table (docs/memory.md "The paged mapping") */
            for (unsigned i = 0; i < b->npr; i++)
                b->pr[i].host_base += wl_rt_buffer_address(arena);
            wl_rt_buffer *table = NULL;
            if (wl_rt_pagetable_create(rt, b->pr, b->npr, 0, &table, mw) != WL_RT_OK) {
                snprintf(msg, cap, "FAIL: the page table: %.900s", wl_rt_error(rt));
                goto out;
            }
        } else if (wl_rt_mapping_encode(&map, mw) != WL_RT_OK) {
            snprintf(msg, cap, "FAIL: the arena (guest 0x%llx, %llu bytes) cannot be mapped",
                     (unsigned long long)b->arena_guest, (unsigned long long)b->arena_bytes);
            goto out;
        }
        memcpy(push + b->arena_push, mw, sizeof mw);
    }
    for (unsigned i = 0; i < b->nbuf; i++) {
        int placed = b->place[i] != UINT64_MAX;
        if ((placed ? wl_rt_buffer_view(rt, arena, b->place[i], b->size[i], &buf[i])
                    : wl_rt_buffer_create(rt, b->size[i], &buf[i])) != WL_RT_OK)
            goto vkfail;
        addr[i] = placed ? b->arena_guest + b->place[i] : wl_rt_buffer_address(buf[i]);
        if (!(bytes[i] = calloc(1, b->size[i]))) {
            snprintf(msg, cap, "out of memory");
            goto out;
        }
    }
    if (bundle_fill(b, bytes, addr, push, msg, cap))
        goto out;
    for (unsigned i = 0; i < b->nbuf; i++)
        if (wl_rt_buffer_upload(rt, buf[i], 0, bytes[i], b->size[i]) != WL_RT_OK)
            goto vkfail;
    /* the wave model: one invocation a wave, no subgroup operation */
    wl_rt_pipeline_desc pd = {words, nwords, NULL, b->model == M_WAVE ? 0 : b->subgroup,
                              b->model == M_WAVE ? 0 : 1, b->statistics};
    if (wl_rt_pipeline_create(rt, &pd, &p) != WL_RT_OK)
        goto vkfail;
    if (wl_rt_pipeline_statistics(p))
        snprintf(rw->stats, sizeof rw->stats, "%s", wl_rt_pipeline_statistics(p));
    wl_rt_dispatch_desc d;
    memset(&d, 0, sizeof d);
    memcpy(d.groups, b->groups, sizeof d.groups);
    for (int i = 0; i < WL_RT_MAX_BINDINGS; i++)
        d.bindings[i] = b->binding[i] >= 0 ? buf[b->binding[i]] : NULL;
    d.push_constants = push;
    d.push_constant_size = b->push_bytes;
    wl_rt_timing t;
    memset(&t, 0, sizeof t);
    rw->words = nwords;
    rw->pipe_ms = (double)wl_rt_pipeline_create_ns(p) * 1e-6;
    if (wl_rt_dispatch(rt, p, &d, &t) != WL_RT_OK)
        goto vkfail;
    rw->first_ms = (double)t.host_ns * 1e-6; /* host clock: a driver that compiles late shows here */
    uint32_t sw[6];
    if (wl_rt_buffer_download(rt, buf[b->binding[0]], 0, sw, sizeof sw) != WL_RT_OK)
        goto vkfail;
    if (sw[0]) {
        if (sw[0] == WL_RT_ESC_ADDRESS) /* words 4-5: the guest address */
            snprintf(msg, cap, "REFUSED: escape %u (%s): address 0x%llx, lane %u, after %.0f ms", sw[0],
                     wl_rt_escape_name(sw[0]), (unsigned long long)sw[4] | (unsigned long long)sw[5] << 32, sw[2],
                     rw->first_ms);
        else
            snprintf(msg, cap, "REFUSED: escape %u (%s) at guest offset 0x%x, lane %u, after %.0f ms", sw[0],
                     wl_rt_escape_name(sw[0]), sw[1], sw[2], rw->first_ms);
        res = R_ESCAPE;
        goto out;
    }
    res = R_MATCH;
    for (unsigned c = 0; c < b->nsave && res == R_MATCH; c++) {
        unsigned i = b->save_buf[c];
        if (wl_rt_buffer_download(rt, buf[i], 0, bytes[i], b->size[i]) != WL_RT_OK)
            goto vkfail;
        if (bundle_save(b, c, bytes[i], msg, cap))
            res = R_FAIL;
    }
    for (unsigned c = 0; c < b->ncheck && res == R_MATCH; c++) {
        unsigned i = b->check_buf[c];
        if (wl_rt_buffer_download(rt, buf[i], 0, bytes[i], b->size[i]) != WL_RT_OK)
            goto vkfail;
        int r = bundle_check(b, c, bytes[i], msg, cap);
        res = r < 0 ? R_FAIL : r ? R_MISMATCH : R_MATCH;
    }
    if (res != R_MATCH)
        goto out;
    d.runs = runs;
    memset(&t, 0, sizeof t);
    if (wl_rt_dispatch(rt, p, &d, &t) != WL_RT_OK)
        goto vkfail;
    rw->warm_ms = t.runs ? (double)t.median_ns * 1e-6 : (double)t.host_ns * 1e-6 / runs;
    snprintf(msg, cap, "%-5s %6zu %3u %5u %9.1f %9.2f %9.2f %9.4f  match",
             b->model == M_WAVE ? "wave" : "lanes", nwords, wl_rt_pipeline_subgroup_size(p),
             b->lane_loops, b->translate_ms, rw->pipe_ms, rw->first_ms, rw->warm_ms);
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
    if (arena)
        wl_rt_buffer_destroy(rt, arena);
    if (p)
        wl_rt_pipeline_destroy(rt, p);
    free(words);
    return res;
}

static int by_words(const void *x, const void *y)
{
    const row *a = x, *b = y;
    return a->words != b->words ? (a->words < b->words ? 1 : -1) : strcmp(a->name, b->name);
}

static int by_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static double median(double *v, unsigned n)
{
    if (!n)
        return 0;
    qsort(v, n, sizeof *v, by_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The table of one model's bundles (issue 5's benchmark table), largest
 * modules first; a bundle that did not match shows its result instead of
 * times. Then the medians of the matched ones. */
static void print_table(row *rows, unsigned n, int model, const char *device)
{
    static const char *const rname[] = {"match", "MISMATCH", "FAIL", "REFUSED", "SKIPPED"};
    unsigned count = 0;
    for (unsigned i = 0; i < n; i++)
        count += rows[i].model == model;
    if (!count)
        return;
    row *m = malloc(count * sizeof *m);
    double *col = malloc(count * 5 * sizeof *col);
    if (!m || !col) {
        free(m);
        free(col);
        return;
    }
    unsigned k = 0, ok = 0;
    for (unsigned i = 0; i < n; i++)
        if (rows[i].model == model)
            m[k++] = rows[i];
    qsort(m, count, sizeof *m, by_words);
    printf("\n%s model on %s: %u bundles, largest modules first\n",
           model == M_WAVE ? "wave" : "lanes", device, count);
    printf("%-28s %7s %6s %12s %10s %12s %12s\n", "bundle", "words", "loops", "translate ms",
           "pipe ms", "first ms", "warm ms");
    for (unsigned i = 0; i < count; i++) {
        const row *r = &m[i];
        char tr[32];
        if (r->translate_ms < 0)
            snprintf(tr, sizeof tr, "-");
        else
            snprintf(tr, sizeof tr, "%.1f", r->translate_ms);
        if (r->result == R_MATCH) {
            printf("%-28s %7zu %6u %12s %10.2f %12.2f %12.4f\n", r->name, r->words, r->lane_loops, tr,
                   r->pipe_ms, r->first_ms, r->warm_ms);
            col[ok] = (double)r->words;
            col[count + ok] = r->translate_ms;
            col[2 * count + ok] = r->pipe_ms;
            col[3 * count + ok] = r->first_ms;
            col[4 * count + ok] = r->warm_ms;
            ok++;
        } else {
            printf("%-28s %7zu %6u %12s %s\n", r->name, r->words, r->lane_loops, tr, rname[r->result]);
        }
    }
    if (ok)
        printf("%-28s %7.0f %6s %12.1f %10.2f %12.2f %12.4f\n", "median (matched)", median(col, ok), "",
               median(col + count, ok), median(col + 2 * count, ok), median(col + 3 * count, ok),
               median(col + 4 * count, ok));
    free(m);
    free(col);
}

static int usage(const char *argv0)
{
    fprintf(stderr, "usage: %s [--device NAME|INDEX] [--runs N] [--validation] [--timeout-ms MS] "
                    "[--statistics] BUNDLE_DIR...\n", argv0);
    return 2;
}

/* What a child sends back about one bundle. */
typedef struct result_msg {
    int result;
    row rw;
    char msg[1024];
    char device[512]; /* the device line */
    char device_name[256];
} result_msg;

/* The child: one runtime, one bundle; the result through fd. */
static void child_run(const wl_rt_options *opt, const char *dir, uint32_t runs, int statistics, int fd)
{
    result_msg *m = calloc(1, sizeof *m);
    bundle *b = malloc(sizeof *b);
    if (!m || !b)
        _exit(1);
    bundle_init(b, dir);
    b->statistics = statistics;
    wl_rt *rt = NULL;
    char err[1024];
    wl_rt_status st = wl_rt_create(opt, &rt, err, sizeof err);
    if (st != WL_RT_OK) {
        snprintf(m->msg, sizeof m->msg, "FAIL: wl_rt_create: %s: %.900s", wl_rt_status_name(st), err);
        m->result = R_FAIL;
    } else {
        const wl_host_profile *hp = wl_rt_profile(rt);
        snprintf(m->device, sizeof m->device,
                 "device: %.200s, driver %.100s %.100s, subgroup size %u (control %d, %u..%u, full %d)",
                 hp->device_name, hp->driver_name, hp->driver_info, hp->subgroup_size,
                 hp->subgroup_size_control, hp->min_subgroup_size, hp->max_subgroup_size,
                 hp->compute_full_subgroups);
        snprintf(m->device_name, sizeof m->device_name, "%.255s", hp->device_name);
        m->result = bundle_load(b, m->msg, sizeof m->msg) ? R_FAIL
                                                             : run_bundle(rt, b, runs, &m->rw, m->msg, sizeof m->msg);
        wl_rt_destroy(rt);
    }
    const char *p = (const char *)m;
    size_t left = sizeof *m;
    while (left) {
        ssize_t w = write(fd, p, left);
        if (w <= 0)
            _exit(1);
        p += w;
        left -= (size_t)w;
    }
    _exit(0);
}

/* Runs one bundle in a child process, so that a module that brings the
 * driver down (a read of memory the bundle does not carry) fails that
 * bundle only. */
static void run_isolated(const wl_rt_options *opt, const char *dir, uint32_t runs, int statistics, result_msg *m)
{
    memset(m, 0, sizeof *m);
    m->result = R_FAIL;
    int fds[2];
    if (pipe(fds)) {
        snprintf(m->msg, sizeof m->msg, "FAIL: pipe: %s", strerror(errno));
        return;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(m->msg, sizeof m->msg, "FAIL: fork: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return;
    }
    if (pid == 0) {
        close(fds[0]);
        child_run(opt, dir, runs, statistics, fds[1]);
    }
    close(fds[1]);
    size_t got = 0;
    char *p = (char *)m;
    for (;;) {
        ssize_t r = read(fds[0], p + got, sizeof *m - got);
        if (r <= 0 || (got += (size_t)r) == sizeof *m)
            break;
    }
    close(fds[0]);
    int ws = 0;
    while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
        ;
    if (got != sizeof *m) {
        memset(m, 0, sizeof *m);
        m->result = m->rw.result = R_FAIL;
        if (WIFSIGNALED(ws))
            snprintf(m->msg, sizeof m->msg,
                     "FAIL: the run crashed (signal %d; e.g. the module reached memory the bundle "
                     "does not hold)", WTERMSIG(ws));
        else
            snprintf(m->msg, sizeof m->msg, "FAIL: the run ended without a result (exit %d)",
                     WIFEXITED(ws) ? WEXITSTATUS(ws) : -1);
    }
}

int main(int argc, char **argv)
{
    wl_rt_options opt;
    memset(&opt, 0, sizeof opt);
    uint32_t runs = 20;
    int first = 0, statistics = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--device") && i + 1 < argc)
            opt.device = argv[++i];
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--timeout-ms") && i + 1 < argc)
            opt.timeout_ms = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--validation"))
            opt.validation = 1;
        else if (!strcmp(argv[i], "--statistics"))
            statistics = 1;
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
    /* the times are of compiles: no driver disk cache (the caller may still
     * set these) */
    setenv("MESA_SHADER_CACHE_DISABLE", "true", 0);
    setenv("__GL_SHADER_DISK_CACHE", "0", 0);
    unsigned count[5] = {0}, nrows = (unsigned)(argc - first);
    row *rows = calloc(nrows, sizeof *rows);
    result_msg *m = malloc(sizeof *m);
    bundle *b = malloc(sizeof *b);
    char device_name[256] = "";
    if (!rows || !m || !b) {
        free(rows);
        free(m);
        free(b);
        return 1;
    }
    {
        /* the device's Fma, probed once (wl_rt_probe_fma): bundles made
         * offline carry the exact routine, which is right on any device */
        wl_rt *prt = NULL;
        char perr[512];
        if (wl_rt_create(&opt, &prt, perr, sizeof perr) == WL_RT_OK) {
            wl_rt_status pst = wl_rt_probe_fma(prt);
            const wl_host_profile *hp = wl_rt_profile(prt);
            printf("device %s: Fma fused: float %d, double %d, float flushing subnormals %d, float normal %d (probe: "
                   "%s; cases missed: float 0x%03x, double 0x%03x, float flushing 0x%03x); maximal reconvergence %d\n",
                   hp->device_name, hp->fma_fused_f32, hp->fma_fused_f64, hp->fma_ftz_f32, hp->fma_normal_f32,
                   wl_rt_status_name(pst),
                   hp->fma_missed_f32, hp->fma_missed_f64, hp->fma_missed_ftz_f32, hp->maximal_reconvergence);
            wl_rt_destroy(prt);
        }
    }
    printf("%-32s %-5s %6s %3s %5s %9s %9s %9s %9s  %s\n", "bundle", "model", "words", "sg", "loops",
           "transl ms", "pipe ms", "first ms", "warm ms", "result");
    for (int i = first; i < argc; i++) {
        /* the manifest's information for the table, also when the run fails */
        bundle_init(b, argv[i]);
        char perr[1024];
        (void)bundle_load(b, perr, sizeof perr);
        run_isolated(&opt, argv[i], runs, statistics, m);
        if (!device_name[0] && m->device[0]) {
            printf("%s\n", m->device);
            snprintf(device_name, sizeof device_name, "%s", m->device_name);
        }
        int r = m->result < 0 || m->result > R_SKIP ? R_FAIL : m->result;
        count[r]++;
        row *rw = &rows[i - first];
        *rw = m->rw;
        snprintf(rw->name, sizeof rw->name, "%.63s", b->name);
        rw->result = r;
        rw->model = b->model;
        rw->lane_loops = b->lane_loops;
        rw->translate_ms = b->translate_ms;
        if (!rw->words)
            rw->words = b->words;
        if (r == R_MISMATCH)
            printf("%-32s MISMATCH: %s\n", rw->name, m->msg);
        else
            printf("%-32s %s\n", rw->name, m->msg);
        if (rw->stats[0])
            printf("%-32s statistics: %s\n", rw->name, rw->stats);
        fflush(stdout);
    }
    free(m);
    free(b);
    print_table(rows, nrows, M_LANES, device_name[0] ? device_name : "(no device)");
    print_table(rows, nrows, M_WAVE, device_name[0] ? device_name : "(no device)");
    free(rows);
    printf("\ntotal: %d bundles: %u match, %u mismatch, %u failed, %u refused (escape), %u skipped\n",
           argc - first, count[R_MATCH], count[R_MISMATCH], count[R_FAIL], count[R_ESCAPE], count[R_SKIP]);
    if (count[R_MISMATCH] || count[R_FAIL])
        return 1;
    return count[R_ESCAPE] || count[R_SKIP] ? 3 : 0;
}
