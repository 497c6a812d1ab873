/* Scratch (the private segment, issue 6) with real compiler output:
 *   - kernels of the suite compiled by clang-19 at -O0 (here, at test time,
 *     with the flags tests/CMakeLists.txt uses, -O0 for -O2): their frames
 *     live in scratch, reached through the private segment V# with LLVM's
 *     stack and frame pointers (wave-space offsets: docs/memory.md), and
 *     every get_global_id is a call;
 *   - tests/kernels/scratch_big.cl at -O2 (CMake builds it): a 16 KiB
 *     private array a lane, and a kernel whose 48 live values are forced
 *     into 24 VGPRs (about 275 VGPR spills through the private segment V#);
 * each run through `wavelift run` on lavapipe and compared with PoCL's run
 * of the same source (tests/pocl/pocl_run.c, the suite's machinery of
 * tests/suite_common.c). Lanes model at S = 8, both wave sizes (and the
 * wave model for the -O0 subset with WL_SCRATCH_SLOW=1).
 *
 * The -O0 part runs a subset (private_array, the smallest -O0 module) to
 * stay within CI time: -O0 modules are large (docs/memory.md); the big
 * array and spill kernels and the -O0 wave-model run only with
 * WL_SCRATCH_SLOW=1 (slow on lavapipe: see test_big_and_spills). With
 * WL_SCRATCH_O0_ALL=1 it runs every suite kernel at -O0 (slow: since the
 * call plan (docs/wave-ir.md, "Calls") translation takes seconds, but
 * lavapipe's compile of the 50,000 to 890,000-word modules takes minutes
 * each on a loaded 2-core machine). A refusal by name is counted and
 * printed, a wrong output or failure fails. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite_common.h"
#include "support.h"

/* lavapipe at subgroup size 8; no_opt: only correctness matters here and
 * lavapipe's own optimization of these large modules dominates the time
 * (results stay exact) */
#define ENV "GALLIVM_PERF=no_opt LP_NATIVE_VECTOR_WIDTH=256 WAVELIFT_DEVICE=llvmpipe"

static const char *const o0_subset[] = {"private_array"};

typedef struct counts {
    unsigned runs, match, refused, failed;
} counts;

static int setup(void **state)
{
    *state = wlt_suite_new();
    return *state ? 0 : -1;
}

static int teardown(void **state)
{
    wlt_suite_free(*state);
    return 0;
}

/* Compiles tests/kernels/FILE at -O0 for wave64 and wave32 into
 * TMP/o0/STEM.wW.co (once). */
static void compile_o0(wlt_suite *s, const char *file)
{
    char stem[64], cmd[4096];
    snprintf(stem, sizeof(stem), "%.*s", (int)(strlen(file) - 3), file);
    for (unsigned w = 64; w >= 32; w -= 32) {
        snprintf(cmd, sizeof(cmd),
                 "mkdir -p '%s/o0' && { test -f '%s/o0/%s.w%u.co' || '%s' -x cl -cl-std=CL2.0 -Xclang "
                 "-finclude-default-header -target amdgcn-amd-amdhsa -mcpu=gfx1030 %s -O0 "
                 "--rocm-device-lib-path='%s' -o '%s/o0/%s.w%u.co' '%s/%s'; } 2>&1",
                 s->tmp, s->tmp, stem, w, WL_CLANG, w == 64 ? "-mwavefrontsize64" : "-mno-wavefrontsize64",
                 WL_DEVICE_LIBS, s->tmp, stem, w, s->dir, file);
        int rc;
        char *out = wlt_run(cmd, &rc);
        assert_non_null(out);
        if (rc)
            fail_msg("clang -O0 %s (wave%u): %s", file, w, out);
        free(out);
    }
}

/* Runs spec si: PoCL, then `wavelift run` of code objects DIR/STEM.wW.co
 * with the options of each of nrun runs (two at a time), and compares. */
static void run_spec(wlt_suite *s, unsigned si, const char *codir, const char *tag, const unsigned *waves,
                     const char *const *opts, unsigned nrun, counts *c)
{
    const wlt_spec *sp = &s->specs[si];
    char args[4096], stem[64];
    wlt_suite_args(s, si, args, sizeof(args));
    assert_int_equal(wlt_suite_pocl(s, si, args), 0);
    snprintf(stem, sizeof(stem), "%.*s", (int)(strlen(sp->file) - 3), sp->file);
    size_t cap = 65536, cl = 0;
    char *cmd = malloc(cap);
    assert_non_null(cmd);
    for (unsigned r = 0; r < nrun; r++) {
        char outs[1024] = "", a[768];
        size_t ol = 0;
        for (unsigned oi = 0; oi < sp->nouts; oi++) {
            snprintf(a, sizeof(a), "%s/got.%u.%u", s->tmp, r, oi);
            remove(a);
            ol += (size_t)snprintf(outs + ol, sizeof(outs) - ol, " --out %u:'%s'", sp->out[oi], a);
        }
        cl += (size_t)snprintf(cmd + cl, cap - cl,
                               "(" ENV " '%s' run --timeout-ms 600000 '%s/%s.w%u.co' --kernel %s --global %s "
                               "--local %s %s%s%s >'%s/stdout.%u' 2>'%s/stderr.%u'; echo $? >'%s/rc.%u') & %s",
                               WL_CLI, codir, stem, waves[r], sp->kernel, sp->global, sp->local, opts[r], args,
                               outs, s->tmp, r, s->tmp, r, s->tmp, r, r % 2 ? "wait; " : "");
        assert_true(cl < cap - 64);
    }
    snprintf(cmd + cl, cap - cl, "wait");
    int rc;
    free(wlt_run(cmd, &rc));
    free(cmd);
    for (unsigned r = 0; r < nrun; r++) {
        char *err = NULL, *out = NULL;
        int res = wlt_suite_result(s, si, r, &rc, &err, &out);
        printf("%-4s %-14s w%u %-24s ", tag, sp->kernel, waves[r], opts[r]);
        c->runs++;
        if (res == WLT_RUN_MATCH) {
            c->match++;
            printf("match\n");
        } else if (res == WLT_RUN_REFUSED) {
            c->refused++;
            printf("refused: %s\n", err ? err : "?");
        } else {
            c->failed++;
            printf("FAILED (%s, exit %d): %s\n%s", res == WLT_RUN_MISMATCH ? "mismatch" : "error", rc,
                   err ? err : "", out ? out : "");
        }
        free(err);
        free(out);
    }
}

static void test_o0(void **state)
{
    wlt_suite *s = *state;
    wlt_suite_load(s);
    const char *all_env = getenv("WL_SCRATCH_O0_ALL");
    int all = all_env && strcmp(all_env, "1") == 0;
    const char *slow_env = getenv("WL_SCRATCH_SLOW");
    int slow = slow_env && strcmp(slow_env, "1") == 0;
    counts c = {0};
    unsigned kernels = 0;
    static const unsigned waves[3] = {64, 32, 32};
    static const char *const opts[3] = {"--subgroup-size 8", "--subgroup-size 8", "--model wave"};
    char codir[700];
    snprintf(codir, sizeof(codir), "%s/o0", s->tmp);
    for (unsigned si = 0; si < s->n; si++) {
        const wlt_spec *sp = &s->specs[si];
        int pick = all;
        for (size_t i = 0; i < sizeof(o0_subset) / sizeof(o0_subset[0]); i++)
            pick |= strcmp(sp->kernel, o0_subset[i]) == 0;
        /* clang-19 cannot compile suite_subgroup.cl at -O0 (docs/memory.md) */
        if (!pick || strcmp(sp->file, "suite_subgroup.cl") == 0)
            continue;
        compile_o0(s, sp->file);
        kernels++;
        /* the wave model with WL_SCRATCH_SLOW=1 only: lavapipe took over
         * 4 minutes on private_array's -O0 wave-model module (w32) */
        run_spec(s, si, codir, "-O0", waves, opts, slow && !all ? 3 : 2, &c);
    }
    printf("scratch -O0: %u kernels (%s), %u runs: %u match, %u refused by name, %u failed\n", kernels,
           all ? "every suite kernel but suite_subgroup.cl's" : "the CI subset", c.runs, c.match, c.refused,
           c.failed);
    assert_true(kernels >= 1);
    assert_int_equal(c.failed, 0);
    assert_int_equal(c.match + c.refused, c.runs);
    assert_true(all || c.match == c.runs); /* the subset runs whole */
}

static void add_spec(wlt_suite *s, const char *kernel, const char *global, const char *local,
                     const char *const *args, unsigned nargs, unsigned out)
{
    assert_true(s->n < WLT_MAX_SPECS);
    wlt_spec *sp = &s->specs[s->n++];
    memset(sp, 0, sizeof(*sp));
    snprintf(sp->file, sizeof(sp->file), "scratch_big.cl");
    snprintf(sp->kernel, sizeof(sp->kernel), "%s", kernel);
    snprintf(sp->global, sizeof(sp->global), "%s", global);
    snprintf(sp->local, sizeof(sp->local), "%s", local);
    for (unsigned i = 0; i < nargs; i++)
        snprintf(sp->arg[i], sizeof(sp->arg[i]), "%s", args[i]);
    sp->nargs = nargs;
    sp->out[0] = out;
    sp->nouts = 1;
}

static void test_big_and_spills(void **state)
{
    wlt_suite *s = *state;
    /* Not in CI by default: lavapipe (Mesa 22.3, LLVM 15) takes over 7
     * minutes in its coroutine pass on the 8 clones' 16 KiB private arrays
     * (big_private at S = 8), and the spill kernel's translation alone took
     * 105 s on the loaded machine (docs/memory.md). */
    const char *big_env = getenv("WL_SCRATCH_SLOW");
    if (!big_env || strcmp(big_env, "1") != 0) {
        printf("scratch: the 16 KiB private array and spill kernels run with WL_SCRATCH_SLOW=1 only\n");
        skip();
    }
    unsigned first = s->n;
    static const char *const big_args[] = {"rand:128", "zero:512", "u32:300"};
    static const char *const spill_args[] = {"rand:6144", "zero:24576"};
    add_spec(s, "big_private", "128", "64", big_args, 3, 1);
    add_spec(s, "spills", "128", "64", spill_args, 2, 1);
    static const unsigned waves[2] = {64, 32};
    static const char *const opts[2] = {"--subgroup-size 8", "--subgroup-size 8"};
    counts c = {0};
    for (unsigned si = first; si < s->n; si++)
        run_spec(s, si, WL_KERNEL_DIR, "-O2", waves, opts, 2, &c);
    printf("scratch: a 16 KiB private array a lane and forced VGPR spills, %u runs: %u match, "
           "%u refused by name, %u failed\n", c.runs, c.match, c.refused, c.failed);
    assert_int_equal(c.runs, 4);
    assert_int_equal(c.failed, 0);
    assert_int_equal(c.match, 4);
}

int main(void)
{
    if (!getenv("LSAN_OPTIONS"))
        setenv("LSAN_OPTIONS", "suppressions=" WL_SOURCE_DIR "/tests/lsan.supp:print_suppressions=0", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_big_and_spills),
        cmocka_unit_test(test_o0),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
