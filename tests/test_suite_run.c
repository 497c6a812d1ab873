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
 * The specs, their inputs, PoCL's outputs and the comparison are
 * tests/suite_common.c's (shared with test_wave_model.c).
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

#include "suite_common.h"
#include "support.h"

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

static void test_suite(void **state)
{
    wlt_suite *s = *state;
    wlt_suite_load(s);
    printf("suite: %u kernels in %u files\n", s->n, s->files);
    assert_true(s->n >= 25);
    if (getenv("WL_SUITE_ONLY"))
        printf("only the kernels named *%s*\n", getenv("WL_SUITE_ONLY"));

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
    /* WL_SUITE_VECTORIZE=0: every run with `--no-vectorize` (the translate
     * option `vectorize`, on by default: llvm-passes/vectorize_lanes/vec_lanes.c; docs/backend.md
     * "Vectors"). */
    const char *vec_env = getenv("WL_SUITE_VECTORIZE");
    const char *extra = vec_env && strcmp(vec_env, "0") == 0 ? " --no-vectorize" : "";
    /* The runs of a kernel go WL_SUITE_JOBS (default 2) at a time. */
    const char *jobs_env = getenv("WL_SUITE_JOBS");
    unsigned jobs = jobs_env ? (unsigned)atoi(jobs_env) : 2;
    if (jobs < 1 || jobs > 6)
        jobs = 2;
    unsigned runs = 0, match = 0, refused = 0, failed = 0, pocl_ok = 0, translate_err = 0, known_bad = 0;
    size_t cmdcap = 65536;
    char *cmd = malloc(cmdcap), args[4096], env[96];
    assert_non_null(cmd);
    /* WL_SUITE_ONLY=TEXT (debugging): only the kernels whose name holds TEXT */
    const char *only = getenv("WL_SUITE_ONLY");
    for (unsigned si = 0; si < s->n; si++) {
        const wlt_spec *sp = &s->specs[si];
        if (only && !strstr(sp->kernel, only))
            continue;
        /* Arguments and PoCL's outputs. */
        wlt_suite_args(s, si, args, sizeof(args));
        if (wlt_suite_pocl(s, si, args) != 0) {
            failed++;
            continue;
        }
        pocl_ok++;
        /* The runs of this kernel (run r: wave r / 3, size r % 3), `jobs` at a
         * time, each writing its outputs, stdout, stderr and exit status to
         * files named by r. */
        size_t cl = 0;
        unsigned started = 0;
        for (unsigned r = 0; r < 6; r++) {
            unsigned w = r / 3, z = r % 3;
            if (quick && sizes[z] != (waves[w] == 64 ? 16u : 4u))
                continue;
            snprintf(env, sizeof(env), "LP_NATIVE_VECTOR_WIDTH=%u WAVELIFT_DEVICE=llvmpipe", widths[z]);
            wlt_suite_run_cmd(s, si, r, waves[w], env, extra, args, cmd, cmdcap, &cl);
            if (++started % jobs == 0)
                cl += (size_t)snprintf(cmd + cl, cmdcap - cl, "wait; ");
            assert_true(cl < cmdcap - 1);
        }
        cl += (size_t)snprintf(cmd + cl, cmdcap - cl, "wait");
        int rc;
        char *out = wlt_run(cmd, &rc);
        assert_non_null(out);
        free(out);
        for (unsigned r = 0; r < 6; r++) {
            unsigned w = r / 3, z = r % 3;
            if (quick && sizes[z] != (waves[w] == 64 ? 16u : 4u))
                continue;
            runs++;
            char *err = NULL;
            printf("%-16s w%u S=%-2u ", sp->kernel, waves[w], sizes[z]);
            int res = wlt_suite_result(s, si, r, &rc, &err, &out);
            const char *known_why = known_issue(sp->kernel, waves[w]);
            if (res == WLT_RUN_REFUSED) {
                refused++;
                printf("refused: %s\n", err ? err : "?");
            } else if (res == WLT_RUN_TRANSLATE_ERR) {
                translate_err++;
                printf("TRANSLATOR ERROR: %s\n", err);
            } else if (res == WLT_RUN_FAILED && known_why) {
                known_bad++;
                printf("KNOWN (exit %d): %s: %s\n", rc, known_why, err ? err : "");
            } else if (res == WLT_RUN_FAILED) {
                failed++;
                printf("FAILED (exit %d): %s\n%s", rc, err ? err : "", out ? out : "");
            } else if (res == WLT_RUN_MISMATCH && known_why) {
                known_bad++;
                printf("KNOWN MISMATCH: %s\n", known_why);
            } else if (res == WLT_RUN_MISMATCH) {
                failed++;
                printf("MISMATCH\n");
            } else {
                match++;
                printf("match\n");
            }
            free(err);
            free(out);
        }
    }
    free(cmd);
    printf("suite: %u kernels, PoCL ran %u; %u runs (%s%s, %u at a time): "
           "%u match, %u refused by name, %u translator errors, %u known wrong, %u failed\n",
           s->n, pocl_ok, runs,
           quick ? "WL_SUITE_QUICK: wave64 at S = 16, wave32 at S = 4" : "wave64 and wave32 at S = 4, 8, 16",
           *extra ? ", --no-vectorize" : "", jobs, match, refused, translate_err, known_bad, failed);
    if (!only)
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
    wlt_suite *s = *state;
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
        {"run CO --kernel add --global 64 --local 64 --arg img2d:NOPE:4:4:f", 2, "image format NOPE"},
        {"run CO --kernel add --global 64 --local 64 --arg img2d:10_10_10_2_UNORM:4:4:f", 2,
         "image format 10_10_10_2_UNORM"},
        {"run CO --kernel add --global 64 --local 64 --arg img2d:8_8_8_8_UNORM:0:4:f", 2, "bad image size"},
        {"run CO --kernel add --global 64 --local 64 --arg img1d:8_8_8_8_UNORM:4:", 2, "image spec without a file"},
        {"run CO --kernel add --global 64 --local 64 --arg img1d:32_UINT:4:/dev/null --arg zero:64 --arg zero:64",
         2, "argument 0 of add is global_buffer: --arg gives an image"},
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
    return cmocka_run_group_tests(tests, wlt_suite_setup, wlt_suite_teardown);
}
