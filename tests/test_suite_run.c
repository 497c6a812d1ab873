/* The end-to-end kernel suite (issue 4): every run spec in
 * tests/kernels/suite_*.cl is run
 *   - on PoCL from its OpenCL C source (tests/pocl/pocl_run.c), the
 *     reference, and
 *   - through `wavelift run` on lavapipe from the clang-19 code object
 *     (CMake compiles the .cl files of tests/kernels for gfx1030, wave64 and wave32), at
 *     subgroup sizes 4, 8 and 16 (LP_NATIVE_VECTOR_WIDTH 128, 256, 512),
 * and the output buffers must be equal byte for byte; a spec with `tol=N`
 * compares 32-bit floats within N ulps, NaN equal to NaN (libm_f32: 16, the
 * OpenCL 3.0 spec's bound for pow; sin and cos allow 4, exp and log 3: both
 * PoCL and the device library are within the spec, not equal to each other).
 *
 * A run that the translator refuses by name (exit 3: an instruction not
 * lifted yet, or an escape recorded at run time) is counted and printed,
 * not failed: the lifter is written in parallel. So is, for now, a
 * translator error (exit 1, "translation failed": no module was made, so
 * nothing ran); WL_SUITE_STRICT=1 fails on those. A wrong output, a crash,
 * a pipeline or dispatch failure, or any other failure fails the test, and
 * so does a PoCL failure.
 *
 * Spec syntax, in the .cl file's comments:
 *   //! run KERNEL global=X[,Y[,Z]] local=X[,Y[,Z]] [tol=N]
 *   //! arg GEN:WORDS       a buffer of WORDS 32-bit words: iota, rand
 *                           (xorshift), small (rand % 256), randf (floats
 *                           in [-1, 1))
 *   //! arg SPEC            any other `wavelift run --arg` SPEC as is
 *   //! out N               compare buffer argument N
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#define MAX_SPECS 128
#define MAX_ARGS 16

typedef struct spec {
    char file[64];     /* suite_x.cl */
    char kernel[64];
    char global[32], local[32];
    unsigned tol;
    char arg[MAX_ARGS][64];
    unsigned nargs;
    unsigned out[MAX_ARGS];
    unsigned nouts;
} spec;

typedef struct suite {
    spec specs[MAX_SPECS];
    unsigned n;
    char *tmp;
} suite;

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void parse_file(suite *s, const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    size_t n;
    char *text = (char *)wlt_read_file(path, &n);
    assert_non_null(text);
    spec *cur = NULL;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, "//! ", 4) != 0)
            continue;
        char *l = line + 4;
        if (strncmp(l, "run ", 4) == 0) {
            assert_true(s->n < MAX_SPECS);
            cur = &s->specs[s->n++];
            memset(cur, 0, sizeof(*cur));
            snprintf(cur->file, sizeof(cur->file), "%s", name);
            char g[64] = "", lo[64] = "";
            int got = sscanf(l + 4, "%63s global=%63s local=%63s tol=%u", cur->kernel, g, lo, &cur->tol);
            assert_true(got >= 3);
            snprintf(cur->global, sizeof(cur->global), "%s", g);
            snprintf(cur->local, sizeof(cur->local), "%s", lo);
        } else if (strncmp(l, "arg ", 4) == 0) {
            assert_non_null(cur);
            assert_true(cur->nargs < MAX_ARGS);
            snprintf(cur->arg[cur->nargs++], 64, "%s", l + 4);
        } else if (strncmp(l, "out ", 4) == 0) {
            assert_non_null(cur);
            cur->out[cur->nouts++] = (unsigned)atoi(l + 4);
        }
    }
    free(text);
}

static int setup(void **state)
{
    suite *s = calloc(1, sizeof(*s));
    if (!s)
        return -1;
    s->tmp = wlt_tmpdir();
    *state = s;
    return s->tmp ? 0 : -1;
}

static int teardown(void **state)
{
    suite *s = *state;
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", s->tmp);
    free(wlt_run(cmd, NULL));
    free(s->tmp);
    free(s);
    return 0;
}

/* Makes the input file of a generator argument; writes the --arg SPEC. */
static void make_arg(const char *tmp, unsigned si, unsigned ai, const char *a, char *out,
                     size_t cap)
{
    static const char *const gens[] = {"iota", "rand", "small", "randf"};
    const char *colon = strchr(a, ':');
    assert_non_null(colon);
    int gen = -1;
    for (int g = 0; g < 4; g++)
        if ((size_t)(colon - a) == strlen(gens[g]) && strncmp(a, gens[g], strlen(gens[g])) == 0)
            gen = g;
    if (gen < 0) {
        snprintf(out, cap, "%s", a);
        return;
    }
    unsigned words = (unsigned)atoi(colon + 1);
    uint32_t *w = calloc(words ? words : 1, 4);
    assert_non_null(w);
    uint32_t x = 0x9e3779b9u ^ (si * 7919u + ai * 104729u);
    for (unsigned i = 0; i < words; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        switch (gen) {
        case 0: w[i] = i; break;
        case 1: w[i] = x; break;
        case 2: w[i] = x & 255u; break;
        default: {
            float f = (float)(int32_t)x / 2147483648.0f;
            memcpy(&w[i], &f, 4);
        }
        }
    }
    char path[700];
    snprintf(path, sizeof(path), "%s/in.%u.%u", tmp, si, ai);
    assert_int_equal(wlt_write_file(path, w, (size_t)words * 4), 0);
    free(w);
    snprintf(out, cap, "buf:%s", path);
}

/* Known wrong results of the translator, found by this suite and reported
 * (the kernel, what is wrong). Such a run is printed as KNOWN and counted,
 * not failed; remove an entry when it is fixed (a run of a listed kernel
 * that matches prints "match" like any other). Any other wrong output or
 * crash fails. */
static const struct {
    const char *kernel;
    unsigned wave; /* 0: both */
    const char *why;
} known[] = {
    {NULL, 0, NULL}, /* none known now; the end */
};

static const char *known_issue(const char *kernel, unsigned wave)
{
    for (size_t i = 0; known[i].kernel; i++)
        if (strcmp(known[i].kernel, kernel) == 0 && (!known[i].wave || known[i].wave == wave))
            return known[i].why;
    return NULL;
}

static int64_t ulp_key(uint32_t b)
{
    return (b & 0x80000000u) ? -(int64_t)(b & 0x7fffffffu) : (int64_t)b;
}

/* 0: equal (within tol ulps for tol > 0); else prints the first difference. */
static int compare(const spec *sp, const char *what, const uint8_t *ref, size_t rn,
                   const uint8_t *got, size_t gn)
{
    if (rn != gn) {
        printf("    %s: %zu bytes, PoCL %zu\n", what, gn, rn);
        return 1;
    }
    for (size_t i = 0; i + 4 <= rn || i < rn; i += 4) {
        uint32_t a = 0, b = 0;
        size_t k = rn - i < 4 ? rn - i : 4;
        memcpy(&a, ref + i, k);
        memcpy(&b, got + i, k);
        if (a == b)
            continue;
        if (sp->tol && k == 4) {
            float fa, fb;
            memcpy(&fa, &a, 4);
            memcpy(&fb, &b, 4);
            if (isnan(fa) && isnan(fb))
                continue;
            int64_t d = ulp_key(a) - ulp_key(b);
            if (d < 0)
                d = -d;
            if (d <= (int64_t)sp->tol)
                continue;
        }
        printf("    %s: word %zu: ours 0x%08x, PoCL 0x%08x\n", what, i / 4, b, a);
        return 1;
    }
    return 0;
}

static void test_suite(void **state)
{
    suite *s = *state;
    char dir[600];
    snprintf(dir, sizeof(dir), "%s/tests/kernels", WL_SOURCE_DIR);
    DIR *d = opendir(dir);
    assert_non_null(d);
    char *names[256];
    unsigned nn = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t l = strlen(e->d_name);
        if (strncmp(e->d_name, "suite_", 6) == 0 && l > 3 && strcmp(e->d_name + l - 3, ".cl") == 0 &&
            nn < 256)
            names[nn++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, nn, sizeof(names[0]), cmp_name);
    for (unsigned i = 0; i < nn; i++) {
        parse_file(s, dir, names[i]);
        free(names[i]);
    }
    printf("suite: %u kernels in %u files\n", s->n, nn);
    assert_true(s->n >= 25);

#ifndef WL_POCL_RUN
    fail_msg("built without OpenCL (PoCL): install ocl-icd-opencl-dev pocl-opencl-icd "
             "opencl-c-headers (scripts/install-deps.sh) and re-run cmake");
#else
    static const unsigned waves[2] = {64, 32};
    static const unsigned sizes[3] = {4, 8, 16};
    static const unsigned widths[3] = {128, 256, 512};
    /* WL_SUITE_QUICK=1 (the sanitizer build): one subgroup size per wave
     * size, wave64 at S = 16 (k = 4) and wave32 at S = 4 (k = 8). */
    const char *quick_env = getenv("WL_SUITE_QUICK");
    int quick = quick_env && strcmp(quick_env, "1") == 0;
    /* The runs of a kernel go WL_SUITE_JOBS (default 2) at a time. */
    const char *jobs_env = getenv("WL_SUITE_JOBS");
    unsigned jobs = jobs_env ? (unsigned)atoi(jobs_env) : 2;
    if (jobs < 1 || jobs > 6)
        jobs = 2;
    unsigned runs = 0, match = 0, refused = 0, failed = 0, pocl_ok = 0, translate_err = 0, known_bad = 0;
    size_t cmdcap = 65536;
    char *cmd = malloc(cmdcap), args[4096], a[768];
    assert_non_null(cmd);
    for (unsigned si = 0; si < s->n; si++) {
        const spec *sp = &s->specs[si];
        /* Arguments and PoCL's outputs. */
        size_t al = 0;
        args[0] = 0;
        for (unsigned ai = 0; ai < sp->nargs; ai++) {
            make_arg(s->tmp, si, ai, sp->arg[ai], a, sizeof(a));
            al += (size_t)snprintf(args + al, sizeof(args) - al, " --arg '%s'", a);
        }
        char outs_ref[1024] = "";
        size_t ol = 0;
        for (unsigned oi = 0; oi < sp->nouts; oi++)
            ol += (size_t)snprintf(outs_ref + ol, sizeof(outs_ref) - ol, " --out %u:'%s/ref.%u'",
                                   sp->out[oi], s->tmp, oi);
        snprintf(cmd, cmdcap, "'%s' '%s/%s' --kernel %s --global %s --local %s%s%s 2>&1",
                 WL_POCL_RUN, dir, sp->file, sp->kernel, sp->global, sp->local, args, outs_ref);
        int rc;
        char *out = wlt_run(cmd, &rc);
        assert_non_null(out);
        if (rc != 0) {
            printf("%-16s PoCL failed (%d): %s\n", sp->kernel, rc, out);
            failed++;
            free(out);
            continue;
        }
        free(out);
        pocl_ok++;
        /* The runs of this kernel (run r: wave r / 3, size r % 3), `jobs` at a
         * time, each writing its outputs, stdout, stderr and exit status to
         * files named by r. */
        char stem[64];
        snprintf(stem, sizeof(stem), "%.*s", (int)(strlen(sp->file) - 3), sp->file);
        size_t cl = 0;
        unsigned started = 0;
        for (unsigned r = 0; r < 6; r++) {
            unsigned w = r / 3, z = r % 3;
            if (quick && sizes[z] != (waves[w] == 64 ? 16u : 4u))
                continue;
            char outs_ours[1024] = "";
            size_t ol2 = 0;
            for (unsigned oi = 0; oi < sp->nouts; oi++) {
                snprintf(a, sizeof(a), "%s/got.%u.%u", s->tmp, r, oi);
                remove(a);
                ol2 += (size_t)snprintf(outs_ours + ol2, sizeof(outs_ours) - ol2, " --out %u:'%s'",
                                        sp->out[oi], a);
            }
            cl += (size_t)snprintf(cmd + cl, cmdcap - cl,
                                   "(LP_NATIVE_VECTOR_WIDTH=%u WAVELIFT_DEVICE=llvmpipe '%s' run --timeout-ms 180000 "
                                   "'%s/%s.w%u.co' --kernel %s --global %s --local %s%s%s >'%s/stdout.%u' "
                                   "2>'%s/stderr.%u'; echo $? >'%s/rc.%u') & ",
                                   widths[z], WL_CLI, WL_KERNEL_DIR, stem, waves[w], sp->kernel, sp->global,
                                   sp->local, args, outs_ours, s->tmp, r, s->tmp, r, s->tmp, r);
            if (++started % jobs == 0)
                cl += (size_t)snprintf(cmd + cl, cmdcap - cl, "wait; ");
            assert_true(cl < cmdcap - 1);
        }
        cl += (size_t)snprintf(cmd + cl, cmdcap - cl, "wait");
        out = wlt_run(cmd, &rc);
        assert_non_null(out);
        free(out);
        for (unsigned r = 0; r < 6; r++) {
            unsigned w = r / 3, z = r % 3;
            if (quick && sizes[z] != (waves[w] == 64 ? 16u : 4u))
                continue;
            runs++;
            size_t en;
            snprintf(a, sizeof(a), "%s/rc.%u", s->tmp, r);
            char *rcs = (char *)wlt_read_file(a, &en);
            rc = rcs ? atoi(rcs) : -1;
            free(rcs);
            snprintf(a, sizeof(a), "%s/stdout.%u", s->tmp, r);
            out = (char *)wlt_read_file(a, &en);
            snprintf(a, sizeof(a), "%s/stderr.%u", s->tmp, r);
            char *err = (char *)wlt_read_file(a, &en);
            char *nl = err ? strchr(err, '\n') : NULL;
            if (nl)
                *nl = 0;
            printf("%-16s w%u S=%-2u ", sp->kernel, waves[w], sizes[z]);
            if (rc == 3) {
                refused++;
                printf("refused: %s\n", err ? err : "?");
            } else if (rc == 1 && err && strstr(err, ": translation failed: ")) {
                translate_err++;
                printf("TRANSLATOR ERROR: %s\n", err);
            } else if (rc != 0 && known_issue(sp->kernel, waves[w])) {
                known_bad++;
                printf("KNOWN (exit %d): %s: %s\n", rc, known_issue(sp->kernel, waves[w]), err ? err : "");
            } else if (rc != 0) {
                failed++;
                printf("FAILED (exit %d): %s\n%s", rc, err ? err : "", out ? out : "");
            } else {
                int bad = 0;
                for (unsigned oi = 0; oi < sp->nouts; oi++) {
                    char rp[700], gp[700], what[32];
                    snprintf(rp, sizeof(rp), "%s/ref.%u", s->tmp, oi);
                    snprintf(gp, sizeof(gp), "%s/got.%u.%u", s->tmp, r, oi);
                    snprintf(what, sizeof(what), "buffer %u", sp->out[oi]);
                    size_t rn = 0, gn = 0;
                    uint8_t *rb = wlt_read_file(rp, &rn), *g = wlt_read_file(gp, &gn);
                    if (!rb || !g) {
                        printf("\n    %s: no output file\n", what);
                        bad = 1;
                    } else if (compare(sp, what, rb, rn, g, gn)) {
                        bad = 1;
                    }
                    free(rb);
                    free(g);
                }
                if (bad && known_issue(sp->kernel, waves[w])) {
                    known_bad++;
                    printf("KNOWN MISMATCH: %s\n", known_issue(sp->kernel, waves[w]));
                } else if (bad) {
                    failed++;
                    printf("MISMATCH\n");
                } else {
                    match++;
                    printf("match\n");
                }
            }
            free(err);
            free(out);
        }
    }
    free(cmd);
    printf("suite: %u kernels, PoCL ran %u; %u runs (%s, %u at a time): "
           "%u match, %u refused by name, %u translator errors, %u known wrong, %u failed\n",
           s->n, pocl_ok, runs,
           quick ? "WL_SUITE_QUICK: wave64 at S = 16, wave32 at S = 4" : "wave64 and wave32 at S = 4, 8, 16",
           jobs, match, refused, translate_err, known_bad, failed);
    assert_int_equal(pocl_ok, s->n);
    assert_int_equal(failed, 0);
    /* A translator error (the translator returned an error that names no
     * unsupported instruction) fails the test; WL_SUITE_STRICT=0 only
     * counts it (for a pipeline being rewritten). */
    const char *strict = getenv("WL_SUITE_STRICT");
    if (!strict || strcmp(strict, "0") != 0)
        assert_int_equal(translate_err, 0);
    assert_int_equal(match + refused + translate_err + known_bad, runs);
#endif
}

/* `wavelift run` and `lift` refuse bad command lines with exit 2 before any
 * translation, naming what is wrong. */
static void test_run_usage(void **state)
{
    suite *s = *state;
    static const struct {
        const char *args;
        int rc;
        const char *msg;
    } cases[] = {
        {"run", 2, "needs a CODE_OBJECT"},
        {"run CO --global 64 --local 64", 2, "needs --kernel"},
        {"run CO --kernel add --local 64", 2, "needs --global and --local"},
        {"run CO --kernel add --global 64 --local 64 --arg zero:64 --arg zero:64", 2,
         "takes 3 arguments, 2 given"},
        {"run CO --kernel add --global 64 --local 64 --arg zero:64 --arg f32:1 --arg zero:64", 2,
         "argument 1 of add is global_buffer"},
        {"run CO --kernel add --global 64 --local 64 --arg zero:64 --arg zero:64 --arg zero:64 "
         "--out 5:x", 2, "--out names no buffer argument"},
        {"run CO --kernel add --global 64 --local 64 --arg nope:1", 2, "unknown argument kind"},
        {"run CO --kernel add --global 0 --local 64", 2, "bad --global"},
        {"run CO --kernel nosuch --global 64 --local 64", 1, "no kernel named nosuch"},
        {"lift CO --kernel add", 2, "needs -o"},
        {"lift CO --kernel add --subgroup-size 3 -o x.spv", 2, "--subgroup-size"},
    };
    char cmd[2048], co[600];
    snprintf(co, sizeof(co), "'%s/vector_add.w64.co'", WL_KERNEL_DIR);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char args[1024];
        const char *p = strstr(cases[i].args, "CO");
        if (p)
            snprintf(args, sizeof(args), "%.*s%s%s", (int)(p - cases[i].args), cases[i].args, co,
                     p + 2);
        else
            snprintf(args, sizeof(args), "%s", cases[i].args);
        snprintf(cmd, sizeof(cmd), "cd '%s' && '%s' %s 2>&1", s->tmp, WL_CLI, args);
        int rc;
        char *out = wlt_run(cmd, &rc);
        assert_non_null(out);
        printf("wavelift %s -> %d: %s", cases[i].args, rc, out);
        if (rc != cases[i].rc || !strstr(out, cases[i].msg))
            fail_msg("expected exit %d and \"%s\"", cases[i].rc, cases[i].msg);
        free(out);
    }
}

int main(void)
{
    /* Under the sanitizer build the CLI is sanitized too: leaks inside
     * Mesa's lavapipe and its LLVM are suppressed (tests/lsan.supp). */
    if (!getenv("LSAN_OPTIONS"))
        setenv("LSAN_OPTIONS", "suppressions=" WL_SOURCE_DIR "/tests/lsan.supp:print_suppressions=0", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_usage),
        cmocka_unit_test(test_suite),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
