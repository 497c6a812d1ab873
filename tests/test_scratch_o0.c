/* Scratch (the private segment, issue 6) with real compiler output:
 *   - kernels of the suite compiled by clang-19 at -O0 (here, at test time,
 *     with the flags tests/CMakeLists.txt uses, -O0 for -O2): their frames
 *     live in scratch, reached through the private segment V# with LLVM's
 *     stack and frame pointers (wave-space offsets: docs/memory.md), and
 *     every get_global_id is a call;
 *   - tests/kernels/scratch_big.cl at -O2 (CMake builds it): a 16 KiB
 *     private array a lane (beyond WL_SCRATCH_LIMIT_DEFAULT: in device
 *     memory, lower/memory/scratch.c), and a kernel whose 48 live values are forced
 *     into 24 VGPRs (about 275 VGPR spills through the private segment V#,
 *     628 bytes a lane: private arrays; forced into device memory with
 *     WL_SCRATCH_SLOW=1);
 *   - tests/kernels/scratch.cl at -O2: small private arrays, private and
 *     forced into device memory (--scratch device);
 * each run through `wavelift run` on lavapipe and compared with PoCL's run
 * of the same source (tests/pocl/pocl_run.c, the suite's machinery of
 * tests/suite_common.c), lanes model at S = 8 and 16 and the wave model.
 * Each run must also say where its scratch lives as the test expects (the
 * CLI's "scratch: device memory" line), so that no path passes unrun.
 *
 * The -O0 part runs a subset (private_array, the smallest -O0 module) to
 * stay within CI time: -O0 modules are large (docs/memory.md); the -O0
 * wave-model run takes WL_SCRATCH_SLOW=1. With WL_SCRATCH_O0_ALL=1 it
 * runs every suite kernel at -O0 (slow: lavapipe's compile of the 50,000
 * to 890,000-word modules takes minutes each on a loaded 2-core machine).
 * A refusal by name is counted and printed, a wrong output or failure
 * fails. */
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

/* lavapipe; no_opt: only correctness matters here and lavapipe's own
 * optimization of these large modules dominates the time (results stay
 * exact). LP_NATIVE_VECTOR_WIDTH is each run's: 256 gives subgroup size 8,
 * 512 gives 16. */
#define ENV "GALLIVM_PERF=no_opt WAVELIFT_DEVICE=llvmpipe LP_NATIVE_VECTOR_WIDTH="

static const char *const o0_subset[] = {"private_array"};

typedef struct counts {
    unsigned runs, match, refused, failed, device;
} counts;

/* One run: the wave size, lavapipe's vector width, `wavelift run`'s
 * options, and where the run must say scratch lives (1: device memory, the
 * CLI's "scratch: device memory" line; 0: private arrays, no such line). */
typedef struct run_cfg {
    unsigned wave, width;
    const char *opts;
    int device;
} run_cfg;

#define S8 256
#define S16 512

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

/* The number after "NAME: " in the run's stdout, or -1 */
static double field(const char *out, const char *name)
{
    const char *p = out ? strstr(out, name) : NULL;
    return p ? atof(p + strlen(name)) : -1;
}

/* Runs spec si: PoCL, then `wavelift run` of code objects DIR/STEM.wW.co
 * as each of nrun configurations says (two at a time), and compares; a run
 * whose scratch is not where its configuration says fails too. */
static void run_spec(wlt_suite *s, unsigned si, const char *codir, const char *tag, const run_cfg *cfg,
                     unsigned nrun, counts *c)
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
                               "(" ENV "%u '%s' run --timeout-ms 600000 '%s/%s.w%u.co' --kernel %s --global %s "
                               "--local %s %s%s%s >'%s/stdout.%u' 2>'%s/stderr.%u'; echo $? >'%s/rc.%u') & %s",
                               cfg[r].width, WL_CLI, codir, stem, cfg[r].wave, sp->kernel, sp->global, sp->local,
                               cfg[r].opts, args, outs, s->tmp, r, s->tmp, r, s->tmp, r, r % 2 ? "wait; " : "");
        assert_true(cl < cap - 64);
    }
    snprintf(cmd + cl, cap - cl, "wait");
    int rc;
    free(wlt_run(cmd, &rc));
    free(cmd);
    for (unsigned r = 0; r < nrun; r++) {
        char *err = NULL, *out = NULL;
        int res = wlt_suite_result(s, si, r, &rc, &err, &out);
        int dev = out && strstr(out, "scratch: device memory") != NULL;
        printf("%-4s %-17s w%u S%-2u %-26s %-7s ", tag, sp->kernel, cfg[r].wave, cfg[r].width / 32, cfg[r].opts,
               dev ? "device" : "private");
        c->runs++;
        if (res == WLT_RUN_MATCH && dev != cfg[r].device) {
            c->failed++;
            printf("FAILED: scratch in %s memory, not where the run asks\n", dev ? "device" : "private");
        } else if (res == WLT_RUN_MATCH) {
            c->match++;
            c->device += (unsigned)dev;
            printf("match (pipeline build %.0f ms, first dispatch %.0f ms: lavapipe's compile, unless cached)\n",
                   field(out, "pipeline build ms: "), field(out, "dispatch ms: "));
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
    /* private_array's -O0 frame is 284 bytes a lane: private arrays by
     * default in the lanes model, the third run forces device memory; the
     * wave model's array of 32 lanes' frames is beyond the default limit
     * (docs/memory.md) */
    static const run_cfg cfg[4] = {{64, S8, "--subgroup-size 8", 0},
                                   {32, S8, "--subgroup-size 8", 0},
                                   {32, S8, "--subgroup-size 8 --scratch device", 1},
                                   {32, S8, "--model wave", 1}};
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
        run_spec(s, si, codir, "-O0", cfg, all ? 2 : slow ? 4 : 3, &c);
    }
    printf("scratch -O0: %u kernels (%s), %u runs: %u match, %u refused by name, %u failed\n", kernels,
           all ? "every suite kernel but suite_subgroup.cl's" : "the CI subset", c.runs, c.match, c.refused,
           c.failed);
    assert_true(kernels >= 1);
    assert_int_equal(c.failed, 0);
    assert_int_equal(c.match + c.refused, c.runs);
    assert_true(all || c.match == c.runs); /* the subset runs whole */
    assert_true(all || c.device >= 1);     /* and the device path ran */
}

static void add_spec(wlt_suite *s, const char *file, const char *kernel, const char *global, const char *local,
                     const char *const *args, unsigned nargs, unsigned out)
{
    assert_true(s->n < WLT_MAX_SPECS);
    wlt_spec *sp = &s->specs[s->n++];
    memset(sp, 0, sizeof(*sp));
    snprintf(sp->file, sizeof(sp->file), "%s", file);
    snprintf(sp->kernel, sizeof(sp->kernel), "%s", kernel);
    snprintf(sp->global, sizeof(sp->global), "%s", global);
    snprintf(sp->local, sizeof(sp->local), "%s", local);
    for (unsigned i = 0; i < nargs; i++)
        snprintf(sp->arg[i], sizeof(sp->arg[i]), "%s", args[i]);
    sp->nargs = nargs;
    sp->out[0] = out;
    sp->nouts = 1;
}

/* tests/kernels/scratch_big.cl at -O2: big_private's 16 KiB a lane is
 * beyond WL_SCRATCH_LIMIT_DEFAULT (device memory), spills' 628 bytes a lane
 * within it (private arrays); both models, S = 8 and 16. */
static void test_big_and_spills(void **state)
{
    wlt_suite *s = *state;
    const char *slow_env = getenv("WL_SCRATCH_SLOW");
    int slow = slow_env && strcmp(slow_env, "1") == 0;
    unsigned first = s->n;
    static const char *const big_args[] = {"rand:128", "zero:512", "u32:300"};
    static const char *const spill_args[] = {"rand:6144", "zero:24576"};
    add_spec(s, "scratch_big.cl", "big_private", "128", "64", big_args, 3, 1);
    add_spec(s, "scratch_big.cl", "spills", "128", "64", spill_args, 2, 1);
    static const run_cfg big[6] = {{64, S8, "--subgroup-size 8", 1},  {32, S8, "--subgroup-size 8", 1},
                                   {64, S16, "--subgroup-size 16", 1}, {32, S16, "--subgroup-size 16", 1},
                                   {64, S8, "--model wave", 1},        {32, S8, "--model wave", 1}};
    /* spills in device memory: with WL_SCRATCH_SLOW=1 only (lavapipe's
     * compile of its 5,000 device-memory accesses: docs/memory.md) */
    static const run_cfg spill[6] = {{64, S8, "--subgroup-size 8", 0},  {32, S8, "--subgroup-size 8", 0},
                                     {64, S16, "--subgroup-size 16", 0}, {32, S16, "--subgroup-size 16", 0},
                                     {64, S8, "--subgroup-size 8 --scratch device", 1},
                                     {32, S8, "--model wave --scratch device", 1}};
    counts c = {0};
    run_spec(s, first, WL_KERNEL_DIR, "-O2", big, 6, &c);
    run_spec(s, first + 1, WL_KERNEL_DIR, "-O2", spill, slow ? 6 : 4, &c);
    printf("scratch: a 16 KiB private array a lane and forced VGPR spills, %u runs: %u match (%u with scratch in "
           "device memory), %u refused by name, %u failed\n", c.runs, c.match, c.device, c.refused, c.failed);
    assert_int_equal(c.runs, slow ? 12 : 10);
    assert_int_equal(c.failed, 0);
    assert_int_equal(c.match, c.runs);
    assert_int_equal(c.device, slow ? 8 : 6);
}

/* tests/kernels/scratch.cl at -O2 (private arrays of 64 to 192 bytes a
 * lane, dynamic indices, bytes and halves, MUBUF and flat scratch): private
 * arrays by default, and device memory forced, in both models. */
static void test_small_forced(void **state)
{
    wlt_suite *s = *state;
    unsigned first = s->n;
    static const char *const dyn_args[] = {"rand:320", "zero:1024", "i32:40"};
    static const char *const struct_args[] = {"randf:6144", "zero:1024"};
    static const char *const bytes_args[] = {"rand:96", "zero:256"};
    static const char *const flat_args[] = {"rand:320", "zero:1024", "i32:21"};
    /* 256 work-items in groups of 128: two waves a group at wave64, four at
     * wave32 (segments of several waves of several groups) */
    add_spec(s, "scratch.cl", "priv_dynamic", "256", "128", dyn_args, 3, 1);
    add_spec(s, "scratch.cl", "priv_struct", "256", "128", struct_args, 2, 1);
    add_spec(s, "scratch.cl", "priv_bytes", "256", "128", bytes_args, 2, 1);
    add_spec(s, "scratch.cl", "priv_flat_scratch", "256", "128", flat_args, 3, 1);
    /* device memory at k = 2 and 4 and in the wave model: at k = 8 (w64,
     * S = 8) lavapipe takes up to a minute to compile priv_bytes' and
     * priv_dynamic's device-memory accesses (docs/memory.md) */
    static const run_cfg cfg[4] = {{64, S8, "--subgroup-size 8", 0},
                                   {32, S8, "--subgroup-size 8 --scratch device", 1},
                                   {32, S16, "--subgroup-size 16 --scratch device", 1},
                                   {32, S8, "--model wave --scratch device", 1}};
    /* and priv_dynamic at k = 8 in device memory: the helpers' former
     * branch around each access gave wrong words there on lavapipe (group 1
     * of 2); the branch-free access (lower/memory/scratch.c) matches */
    static const run_cfg k8[1] = {{64, S8, "--subgroup-size 8 --scratch device", 1}};
    counts c = {0};
    for (unsigned si = first; si < s->n; si++)
        run_spec(s, si, WL_KERNEL_DIR, "-O2", cfg, 4, &c);
    run_spec(s, first, WL_KERNEL_DIR, "-O2", k8, 1, &c);
    printf("scratch: small private arrays, private and forced into device memory, %u runs: %u match (%u with "
           "scratch in device memory), %u refused by name, %u failed\n", c.runs, c.match, c.device, c.refused,
           c.failed);
    assert_int_equal(c.runs, 17);
    assert_int_equal(c.failed, 0);
    assert_int_equal(c.match, 17);
    assert_int_equal(c.device, 13);
}

int main(void)
{
    if (!getenv("LSAN_OPTIONS"))
        setenv("LSAN_OPTIONS", "suppressions=" WL_SOURCE_DIR "/tests/lsan.supp:print_suppressions=0", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_big_and_spills),
        cmocka_unit_test(test_small_forced),
        cmocka_unit_test(test_o0),
    };
    return cmocka_run_group_tests(tests, wlt_suite_setup, wlt_suite_teardown);
}
