/* The wave model (lower/wave*.c, D956: one invocation a wave, lane loops).
 *
 *  1. tests/lower/mix.ll (hand-written wave IR: shuffles, readfirstlane,
 *     ballot, LDS with barriers across two waves, LDS and global atomics,
 *     scratch, a uniform loop over a VGPR, byte and half stores) lowered in
 *     the wave model for waves of 64 and 32 at -O0 and -O2, run on lavapipe
 *     without any required subgroup size; every word equals the C model of
 *     tests/wlt_mix.h.
 *  2. The kernel suite (tests/kernels/suite_*.cl), wave64 and wave32:
 *     each kernel captured by `wavelift run --capture` (checked against
 *     PoCL) and replayed by `wavelift replay --both` (the lanes and the wave
 *     model agree on every writable byte, and equal PoCL): the first kernel
 *     of each file, every kernel with WL_WAVE_SUITE=full; with it also every
 *     kernel through `wavelift run --model wave` (tests/suite_common.c).
 *     WLT_TEST_FILTER=NAME runs one test, WLT_SUITE_ONLY=KERNEL one kernel.
 *  3. Size: for the suite's largest programs, the wave model's SPIR-V words
 *     at -O2 within twice the lanes model's at k = 1 (S = W); the lane
 *     loops are printed, and every program over twice is named. The module must not grow with W either: no
 *     unrolled lanes (wave64's words within 1.25 times wave32's).
 *  4. A double-precision special-function kernel (tests/wave_model/
 *     bessel_f64.cl) finishes within a bound, equals PoCL, and its module
 *     stays near the lanes model's (f64_kernel_finishes). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <llvm-c/Core.h>

#include "support.h"
#include "suite_common.h"
#include "wavelift/codeobj.h"
#include "wavelift/runtime.h"
#include "wavelift/translate.h"
#include "wlt_mix.h"


/* ---- 1. mix.ll ------------------------------------------------------------ */

static char *mix_text(unsigned w)
{
    char path[1024];
    size_t len;
    snprintf(path, sizeof path, "%s/tests/lower/mix.ll", WL_SOURCE_DIR);
    char *src = (char *)wlt_read_file(path, &len);
    if (!src)
        return NULL;
    char *out = malloc(len + 64);
    size_t o = 0;
    for (size_t i = 0; i < len;) {
        if (!strncmp(src + i, "@W@", 3)) {
            o += (size_t)sprintf(out + o, "%u", w);
            i += 3;
        } else {
            out[o++] = src[i++];
        }
    }
    out[o] = 0;
    free(src);
    return out;
}

/* private_limit: the wave model's private arrays (0: the default);
 * dev_scratch: scratch in device memory whatever its size */
static uint32_t *translate_limited(const char *ir, int model, unsigned S, unsigned local, int o2,
                                   uint32_t private_limit, int dev_scratch, size_t *nw, wl_translate_info *info,
                                   char *err, size_t errcap)
{
    wl_translate_options o;
    wl_translate_options_init(&o);
    o.private_limit = private_limit;
    o.force_scratch_buffer = dev_scratch;
    o.model = model;
    o.subgroup_size = S;
    o.local_size[0] = local;
    o.local_size[1] = o.local_size[2] = 1;
    o.opt_level = o2 ? 2 : 0;
    o.validate = 1;
    return wlt_translate_text(ir, &o, nw, info, NULL, err, errcap);
}

static uint32_t *translate_text(const char *ir, int model, unsigned S, unsigned local, int o2, size_t *nw,
                                wl_translate_info *info, char *err, size_t errcap)
{
    return translate_limited(ir, model, S, local, o2, 0, 0, nw, info, err, errcap);
}


static void mix_wave_model(void **state)
{
    (void)state;
    char err[2048];
    wl_rt *rt = wlt_rt(300000); /* lavapipe compiles at the first dispatch; a loaded machine is slow */
    int runs = 0, good = 0;
    /* private_limit 1: every lane array of 32- or 64-bit units in the
     * wave's device segment (wave/device_arrays.c), beside mix's private
     * scratch, then after its scratch in the same segment; 0: the default,
     * under which mix's arrays stay private */
    static const uint32_t limits[3] = {0, 1, 1};
    for (unsigned li = 0; li < 3; li++)
    for (unsigned W = 64; W >= 32; W /= 2)
        for (int o2 = 0; o2 < 2; o2++) {
            char *ir = mix_text(W);
            assert_non_null(ir);
            wl_translate_info info;
            size_t nw = 0;
            uint32_t *w =
                translate_limited(ir, WL_MODEL_WAVE, 0, MIX_LOCAL, o2, limits[li], li == 2, &nw, &info, err, sizeof err);
            free(ir);
            runs++;
            if (!w) {
                printf("mix W=%u O%d: translate failed: %s\n", W, o2 ? 2 : 0, err);
                continue;
            }
            uint32_t status = 0;
            int bad = mix_run(rt, w, nw, 0, W, &info, &status);
            printf("mix wave model W=%u O%d private limit %u%s: %zu SPIR-V words, %u lane loops, LLVM %zu -> %zu -> "
                   "%zu, host group %u, device segment %u bytes, %u of them lane arrays; %d items, %s (status %u)\n",
                   W, o2 ? 2 : 0, limits[li], li == 2 ? ", device scratch" : "", nw, info.lane_loops,
                   info.llvm_lifted, info.llvm_lowered, info.llvm_optimized, info.host_local_size[0],
                   info.scratch_bytes_per_invocation, info.lane_array_bytes, MIX_ITEMS,
                   bad == 0 ? "all words match" : "MISMATCH", status);
            /* limit 1 moves mix's register arrays: at least 8 words a lane;
             * with device scratch they follow its lane segments */
            uint32_t seg = info.scratch_bytes_per_invocation, arrays = info.lane_array_bytes;
            int moved_ok = li == 0   ? arrays == 0 && seg == 0
                           : li == 1 ? arrays >= 8 * 4 * W && seg == arrays
                                     : arrays >= 8 * 4 * W && seg > arrays;
            if (bad == 0 && status == 0 && info.model == WL_MODEL_WAVE && info.wave_size == W && moved_ok &&
                info.host_local_size[0] == (MIX_LOCAL + W - 1) / W && info.lane_loops > 0)
                good++;
            free(w);
        }
    wl_rt_destroy(rt);
    printf("mix: %d runs, %d match\n", runs, good);
    assert_int_equal(good, runs);
}

/* The module must not grow with the wave's width: the same wave IR (mix.ll)
 * for 64 lanes and for 32 gives modules of about one size. Translated for
 * groups of 128 work-items, whole waves at either width (MIX_LOCAL's 96 is
 * a wave and a half at 64: its partial wave keeps EXEC unknown, which
 * costs words that have nothing to do with unrolling). */
static void no_growth_with_width(void **state)
{
    (void)state;
    char err[2048];
    size_t words[2] = {0, 0};
    for (int i = 0; i < 2; i++) {
        char *ir = mix_text(i ? 32 : 64);
        assert_non_null(ir);
        wl_translate_info info;
        uint32_t *w = translate_text(ir, WL_MODEL_WAVE, 0, 128, 1, &words[i], &info, err, sizeof err);
        free(ir);
        if (!w)
            fail_msg("translate: %s", err);
        free(w);
    }
    printf("mix -O2, wave model: W=64 %zu words, W=32 %zu words\n", words[0], words[1]);
    assert_true(words[0] * 10 <= words[1] * 11);
}

/* wl_translate_options.loop_iteration_limit (a host that ends long loops:
 * lavapipe): the lane loop inside mix.ll's guest loop is unrolled four
 * times at -O2 with it (its lowered module asks LLVM for
 * llvm.loop.unroll.count, and the optimized module is larger), and not
 * without it (no unroll.count, every lane loop unroll.disable). mix_wave_model
 * runs the module without it on lavapipe; `wavelift run` (the suite below,
 * f64_kernel_finishes) translates with lavapipe's limit from the profile. */
static void count_unroll(void *user, const char *stage, LLVMModuleRef m)
{
    if (strcmp(stage, "lowered"))
        return;
    char *text = LLVMPrintModuleToString(m);
    int *n = user;
    for (const char *s = text; (s = strstr(s, "llvm.loop.unroll.count")); s++)
        n[0]++;
    for (const char *s = text; (s = strstr(s, "llvm.loop.unroll.disable")); s++)
        n[1]++;
    LLVMDisposeMessage(text);
}

static void lane_unroll_where_limited(void **state)
{
    (void)state;
    char err[2048];
    char *ir = mix_text(64);
    assert_non_null(ir);
    size_t words[2] = {0, 0}, insts[2] = {0, 0};
    int marks[2][2] = {{0, 0}, {0, 0}};
    for (int i = 0; i < 2; i++) {
        wl_translate_options o;
        wl_translate_options_init(&o);
        o.model = WL_MODEL_WAVE;
        o.local_size[0] = 128;
        o.local_size[1] = o.local_size[2] = 1;
        o.opt_level = 2;
        o.validate = 1;
        o.loop_iteration_limit = i ? WL_LAVAPIPE_LOOP_LIMIT : 0;
        o.stage_hook = count_unroll;
        o.stage_user = marks[i];
        wl_translate_info info;
        uint32_t *w = wlt_translate_text(ir, &o, &words[i], &info, NULL, err, sizeof err);
        if (!w)
            fail_msg("translate: %s", err);
        insts[i] = info.llvm_optimized;
        free(w);
    }
    free(ir);
    printf("mix -O2, wave model, W=64: no limit %zu words (%zu LLVM instructions; loops: %d unroll.count, "
           "%d unroll.disable), lavapipe's limit %zu words (%zu; %d, %d)\n",
           words[0], insts[0], marks[0][0], marks[0][1], words[1], insts[1], marks[1][0], marks[1][1]);
    assert_int_equal(marks[0][0], 0);
    assert_true(marks[0][1] > 0);
    assert_true(marks[1][0] > 0);
    assert_true(words[1] > words[0]);
    assert_true(insts[1] > insts[0]);
}

/* ---- 2. the kernel suite against PoCL ----------------------------------------- */

static void suite_wave_model(void **state)
{
    wlt_suite *s = *state;
    wlt_suite_load(s);
    printf("suite: %u kernels in %u files\n", s->n, s->files);
    assert_true(s->n >= 25);
    static const unsigned waves[2] = {64, 32};
    unsigned runs = 0, match = 0, refused = 0, failed = 0, pocl_ok = 0, not_wave = 0, chosen = 0;
    /* Every spec with WL_WAVE_SUITE=full; by default the first of each file
     * (one invocation runs a whole wave serially: lavapipe takes minutes
     * for the whole suite on a loaded machine). */
    const char *full_env = getenv("WL_WAVE_SUITE");
    int full = full_env && strcmp(full_env, "full") == 0;
    if (!full) /* suite_captures_both runs every kernel in the wave model (through replay) */
        skip();
    size_t cmdcap = 65536;
    char *cmd = malloc(cmdcap), args[4096];
    assert_non_null(cmd);
    for (unsigned si = 0; si < s->n; si++) {
        const wlt_spec *sp = &s->specs[si];
        if (!full && si > 0 && strcmp(sp->file, s->specs[si - 1].file) == 0)
            continue;
        chosen++;
        wlt_suite_args(s, si, args, sizeof(args));
        if (wlt_suite_pocl(s, si, args) != 0) {
            failed++;
            continue;
        }
        pocl_ok++;
        size_t cl = 0;
        for (unsigned r = 0; r < 2; r++)
            wlt_suite_run_cmd(s, si, r, waves[r], "GALLIVM_PERF=no_opt WAVELIFT_DEVICE=llvmpipe", " --model wave", args,
                              cmd, cmdcap, &cl);
        cl += (size_t)snprintf(cmd + cl, cmdcap - cl, "wait");
        int rc;
        char *out = wlt_run(cmd, &rc);
        assert_non_null(out);
        free(out);
        for (unsigned r = 0; r < 2; r++) {
            runs++;
            char *err = NULL;
            printf("%-16s w%u wave model ", sp->kernel, waves[r]);
            int res = wlt_suite_result(s, si, r, &rc, &err, &out);
            const char *loops = out ? strstr(out, "lane loops: ") : NULL;
            if (res == WLT_RUN_REFUSED) {
                refused++;
                printf("refused: %s\n", err ? err : "?");
            } else if (res == WLT_RUN_MATCH && (!out || !strstr(out, "model: wave"))) {
                not_wave++;
                printf("NOT THE WAVE MODEL:\n%s", out ? out : "");
            } else if (res == WLT_RUN_MATCH) {
                match++;
                printf("match (%u lane loops)\n", loops ? (unsigned)atoi(loops + 12) : 0);
            } else {
                failed++;
                printf("%s (exit %d): %s\n%s", res == WLT_RUN_MISMATCH ? "MISMATCH" : "FAILED", rc, err ? err : "",
                       out ? out : "");
            }
            free(err);
            free(out);
        }
    }
    free(cmd);
    printf("suite, wave model: %u of %u kernels (%s), PoCL ran %u; %u runs (wave64 and wave32 on lavapipe): "
           "%u match, %u refused by name, %u failed\n",
           chosen, s->n, full ? "WL_WAVE_SUITE=full" : "the first of each file", pocl_ok, runs, match, refused,
           failed);
    assert_int_equal(pocl_ok, chosen);
    assert_int_equal(failed + not_wave, 0);
    assert_int_equal(match + refused, runs);
    assert_true(match > 0);
}

/* Every kernel of the suite, wave64 and wave32, captured and replayed both
 * ways: `wavelift run --capture` (the model `run` chooses on lavapipe: the
 * lanes model) against PoCL, then `wavelift replay --both` (the lanes and
 * the wave model, every writable byte compared between them) and its
 * output against PoCL too. lavapipe's own LLVM optimization is turned off
 * (GALLIVM_PERF=no_opt: the results are exact, only the time changes),
 * which keeps the whole suite within minutes. */
static void suite_captures_both(void **state)
{
    wlt_suite *s = *state;
    wlt_suite_load(s);
    printf("suite: %u kernels in %u files\n", s->n, s->files);
    assert_true(s->n >= 30 && s->files >= 10);
    static const unsigned waves[2] = {64, 32};
    unsigned runs = 0, run_ok = 0, both_ok = 0, refused = 0, failed = 0, pocl_ok = 0;
    size_t cmdcap = 65536;
    char *cmd = malloc(cmdcap), args[4096];
    assert_non_null(cmd);
    const char *env = "GALLIVM_PERF=no_opt WAVELIFT_DEVICE=llvmpipe";
    const char *only = getenv("WLT_SUITE_ONLY"); /* one kernel by name (a run by hand) */
    /* every kernel with WL_WAVE_SUITE=full; by default the first of each
     * file (the ctest budget: all 74 captures take minutes on lavapipe) */
    const char *full_env = getenv("WL_WAVE_SUITE");
    int full = (full_env && strcmp(full_env, "full") == 0) || only;
    unsigned chosen = 0;
    for (unsigned si = 0; si < s->n; si++) {
        const wlt_spec *sp = &s->specs[si];
        if (only && strcmp(only, sp->kernel) != 0)
            continue;
        if (!full && si > 0 && strcmp(sp->file, s->specs[si - 1].file) == 0)
            continue;
        chosen++;
        wlt_suite_args(s, si, args, sizeof(args));
        if (wlt_suite_pocl(s, si, args) != 0) {
            failed += 2;
            continue;
        }
        pocl_ok++;
        size_t cl = 0;
        for (unsigned r = 0; r < 2; r++)
            wlt_suite_capture_cmd(s, si, r, waves[r], env, args, cmd, cmdcap, &cl);
        cl += (size_t)snprintf(cmd + cl, cmdcap - cl, "wait");
        int rc;
        char *out = wlt_run(cmd, &rc);
        assert_non_null(out);
        free(out);
        for (unsigned r = 0; r < 2; r++) {
            runs++;
            char *err = NULL, *rout = NULL;
            printf("%-16s w%u ", sp->kernel, waves[r]);
            int res = wlt_suite_result(s, si, r, &rc, &err, &out);
            if (res != WLT_RUN_MATCH) {
                failed++;
                printf("run --capture: %s (exit %d): %s\n%s", res == WLT_RUN_MISMATCH ? "MISMATCH" : "FAILED", rc,
                       err ? err : "", out ? out : "");
                free(err);
                free(out);
                continue;
            }
            run_ok++;
            free(err);
            free(out);
            res = wlt_suite_replay_result(s, si, r, &rc, &rout);
            const char *same = rout ? strstr(rout, "same: ") : NULL;
            const char *wave_row = rout ? strstr(rout, "\nwave") : NULL;
            if (res == WLT_RUN_MATCH) {
                both_ok++;
                printf("run = PoCL; replay --both: %.*s, = PoCL%s%.*s\n", (int)strcspn(same, "\n"), same,
                       wave_row ? "; " : "", wave_row ? (int)strcspn(wave_row + 1, "\n") : 0,
                       wave_row ? wave_row + 1 : "");
            } else if (res == WLT_RUN_REFUSED) {
                refused++;
                printf("run = PoCL; replay --both refused (exit 3):\n%s", rout ? rout : "");
            } else {
                failed++;
                char ep[700];
                snprintf(ep, sizeof(ep), "%s/rstderr.%u", s->tmp, r);
                size_t en = 0;
                char *rerr = (char *)wlt_read_file(ep, &en);
                printf("run = PoCL; replay --both %s (exit %d):\n%s%s", res == WLT_RUN_MISMATCH ? "DIFFERS" : "FAILED",
                       rc, rout ? rout : "", rerr ? rerr : "");
                free(rerr);
            }
            free(rout);
        }
    }
    free(cmd);
    printf("suite captures: %u of %u kernels (%s), PoCL ran %u; %u captures (wave64 and wave32, lavapipe): %u runs equal "
           "PoCL, %u replays --both agree and equal PoCL, %u refused by name, %u failed\n",
           chosen, s->n, full ? "WL_WAVE_SUITE=full" : "the first of each file", pocl_ok, runs, run_ok, both_ok,
           refused, failed);
    assert_int_equal(pocl_ok, chosen);
    assert_int_equal(failed, 0);
    assert_int_equal(both_ok + refused, runs);
    assert_true(both_ok > 0);
}

/* Lane loops: one guest instruction's accesses share one loop (each lane
 * makes all of them), and the LDS and guest memory never split a run
 * (lower/wave/lane_loops.c). A global_load_dwordx4, a ds_write_b128 of it
 * and a global_store_dwordx4 make two loops (the store after the load);
 * two global_store_dword instructions after the load three: accesses of
 * different instructions to the same memory still split (each program has
 * one loop more, at its entry). Before, every dword store was its own loop
 * (10 loops for the first program at W = 32). */
static void one_instruction_one_loop(void **state)
{
    (void)state;
    static const char *const body[2] = {
        "  global_load_dwordx4 v[4:7], v[2:3], off\n"
        "  s_waitcnt vmcnt(0)\n"
        "  ds_write_b128 v1, v[4:7]\n"
        "  global_store_dwordx4 v[2:3], v[4:7], off offset:1024\n"
        "  s_endpgm\n",
        "  global_load_dwordx4 v[4:7], v[2:3], off\n"
        "  s_waitcnt vmcnt(0)\n"
        "  global_store_dword v[2:3], v4, off offset:1024\n"
        "  global_store_dword v[2:3], v5, off offset:1536\n"
        "  s_endpgm\n"};
    static const unsigned want[2] = {3, 4}; /* and the entry's loop that clears the lane arrays */
    for (unsigned W = 32; W <= 64; W *= 2)
        for (int b = 0; b < 2; b++) {
            char text[1024], err[1024];
            const char *vcc = W == 32 ? "vcc_lo" : "vcc";
            snprintf(text, sizeof text,
                     "  v_lshlrev_b32 v1, 4, v0\n"
                     "  v_add_co_u32 v2, %s, s0, v1\n"
                     "  v_add_co_ci_u32 v3, %s, s1, 0, %s\n%s",
                     vcc, vcc, vcc, body[b]);
            size_t n = 0;
            char *msg = NULL;
            uint8_t *code = wlt_assemble(text, "gfx1030", W, &n, &msg);
            if (!code)
                fail_msg("llvm-mc failed:\n%s\n%s", text, msg ? msg : "");
            free(msg);
            wl_lift_program p;
            memset(&p, 0, sizeof p);
            p.code = code;
            p.size = n;
            p.target = WL_GFX1030;
            p.wave_size = W;
            p.user_sgpr_count = 2;
            p.vgpr_workitem_ids = 1;
            p.lds_bytes = 16 * W;
            wl_translate_options o;
            wl_translate_options_init(&o);
            o.model = WL_MODEL_WAVE;
            o.opt_level = 2;
            o.validate = 1;
            uint32_t *w = NULL;
            size_t nw = 0;
            wl_translate_info info;
            wl_status st = wl_translate(&p, &o, &w, &nw, &info, err, sizeof err);
            if (st != WL_OK)
                fail_msg("W=%u program %d: %s", W, b, err);
            printf("W=%u program %d: %u lane loops, %zu words\n", W, b, info.lane_loops, nw);
            assert_int_equal(info.lane_loops, want[b]);
            free(w);
            free(code);
        }
}

/* ---- 3. size: the wave model against the lanes model at k = 1 ----------------- */

typedef struct sized {
    char name[96];
    size_t lanes, wave;
    unsigned loops;
} sized;

static int by_lanes_desc(const void *a, const void *b)
{
    const sized *x = a, *y = b;
    return x->lanes < y->lanes ? 1 : x->lanes > y->lanes ? -1 : 0;
}

/* Programs among the largest over twice the lanes model's words, each with
 * its reason (printed; issue 17 takes them up). */
static const struct {
    const char *name, *why;
} over_known[] = {
    /* in the 8 largest since the double fma is called, not inline
     * (llvm-passes/outline_fma.c, 2026-12-02: the f64 kernels shrank
     * out of them); it was over twice before too: 91 lane loops, each
     * 64-bit LDS atomic a compare-and-swap loop per lane */
    {"lds64_atomics w32", "91 lane loops of 64-bit LDS atomics, 2.11 times"},
};

static const char *over_reason(const char *name)
{
    for (size_t i = 0; i < sizeof over_known / sizeof over_known[0]; i++)
        if (strcmp(over_known[i].name, name) == 0)
            return over_known[i].why;
    return NULL;
}

static void size_against_lanes(void **state)
{
    (void)state;
    char path[1024], err[2048];
    static const char *const files[] = {"suite_atomics", "suite_control", "suite_histogram", "suite_lds64",
                                        "suite_matrix",  "suite_misc",    "suite_reduce",    "suite_scan_sort",
                                        "suite_subgroup", "suite_types",  "suite_types_fdiv", "suite_types_fdiv32"};
    sized *all = calloc(256, sizeof *all);
    assert_non_null(all);
    size_t n = 0;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++)
        for (unsigned W = 64; W >= 32; W /= 2) {
            snprintf(path, sizeof path, "%s/%s.w%u.co", WL_KERNEL_DIR, files[f], W);
            wl_codeobj *co = NULL;
            if (wl_codeobj_load(path, &co, err, sizeof err) != WL_OK)
                continue; /* a file this tree does not have */
            for (size_t i = 0; i < co->nkernels && n < 256; i++) {
                wl_lift_program prog;
                if (wl_lift_program_from_kernel(co, &co->kernels[i], &prog, err, sizeof err) != WL_OK)
                    continue;
                size_t words[2] = {0, 0};
                unsigned loops = 0;
                for (int model = 0; model < 2; model++) {
                    wl_translate_options o;
                    wl_translate_options_init(&o);
                    o.model = model;
                    o.subgroup_size = W; /* the lanes model at k = 1 */
                    o.local_size[0] = 2 * W;
                    o.local_size[1] = o.local_size[2] = 1;
                    o.opt_level = 2;
                    o.validate = 1;
                    uint32_t *w = NULL;
                    wl_translate_info info;
                    if (wl_translate(&prog, &o, &w, &words[model], &info, err, sizeof err) != WL_OK)
                        words[model] = 0;
                    if (model == WL_MODEL_WAVE)
                        loops = info.lane_loops;
                    free(w);
                }
                if (!words[0] || !words[1])
                    continue;
                snprintf(all[n].name, sizeof all[n].name, "%s w%u", co->kernels[i].name, W);
                all[n].lanes = words[0];
                all[n].wave = words[1];
                all[n].loops = loops;
                n++;
            }
            wl_codeobj_free(co);
        }
    qsort(all, n, sizeof *all, by_lanes_desc);
    /* every program, reported: the ones over twice named (the issue bounds
     * the largest; smaller ones with long carry chains are over, see
     * docs/wave-model.md) */
    unsigned all_within = 0;
    for (size_t i = 0; i < n; i++) {
        all_within += all[i].wave <= 2 * all[i].lanes;
        if (all[i].wave > 2 * all[i].lanes)
            printf("over twice: %-24s %8zu %8zu %6.2f %6u\n", all[i].name, all[i].lanes, all[i].wave,
                   (double)all[i].wave / (double)all[i].lanes, all[i].loops);
    }
    printf("size: %u of %zu suite programs within twice the lanes model\n", all_within, n);
    unsigned top = n < 8 ? (unsigned)n : 8, within = 0;
    printf("the %u largest of %zu suite programs (lanes model at k = 1), -O2 SPIR-V words:\n", top, n);
    printf("%-28s %8s %8s %6s %6s\n", "program", "lanes", "wave", "ratio", "loops");
    for (unsigned i = 0; i < top; i++) {
        double ratio = (double)all[i].wave / (double)all[i].lanes;
        const char *why = all[i].wave > 2 * all[i].lanes ? over_reason(all[i].name) : NULL;
        printf("%-28s %8zu %8zu %6.2f %6u%s%s\n", all[i].name, all[i].lanes, all[i].wave, ratio, all[i].loops,
               why ? "  known: " : "", why ? why : "");
        within += all[i].wave <= 2 * all[i].lanes || why;
    }
    printf("size: %u of the %u largest within twice the lanes model\n", within, top);
    assert_true(top >= 5);
    assert_int_equal(within, top);
    free(all);
}

/* ---- 4. a double-precision kernel finishes, exact --------------------------- */

/* tests/wave_model/bessel_f64.cl (cephes-style J0, J1, Jn, Y0: loops of
 * double divisions, each five fused multiply-adds the backend computes on
 * the integer bits), compiled by clang-19 here, 256 work-items in groups
 * of one wave (64 or 32), `wavelift run --model wave` at wave64 and wave32
 * at once (groups of two wave32 waves diverge from each other inside one
 * lavapipe batch, which then runs both sides' loops and passes its
 * 65,535-iteration loop limit: docs/wave-model.md): each
 * must finish within F64_BOUND_MS (its fence timeout: lavapipe compiles at
 * the first dispatch, with the shader cache off here, so the bound holds
 * on a fresh machine too), equal PoCL bit for bit (FP_CONTRACT OFF: every
 * operation one IEEE operation), and its module stay within twice the
 * lanes model's at k = 1 (issue 17's bound): lane loops in guest loops run
 * four lanes an iteration only where the body is small (wave/lane_loops.c
 * body_cost; with every such loop unrolled the module was 2.98 times).
 * Measured with the exact double fma called (llvm-passes/outline_fma.c):
 * 41,764 words against 31,625 (1.32) at wave64; with it inline 201,131
 * against 190,095 (1.06), the ratio lower only because both carried the
 * same inline routines. */
#define F64_ITEMS 256
#define F64_BOUND_MS 240000

static size_t words_of(const char *out)
{
    const char *w = out ? strstr(out, "SPIR-V words: ") : NULL;
    return w ? (size_t)strtoull(w + 14, NULL, 10) : 0;
}

static void f64_kernel_finishes(void **state)
{
    (void)state;
    if (getenv("WL_SUITE_QUICK")) /* the sanitizer build: translation alone takes minutes there */
        skip();
#ifndef WL_POCL_RUN
    fail_msg("built without OpenCL (PoCL)");
#else
    char *tmp = wlt_tmpdir();
    assert_non_null(tmp);
    char cmd[8192], in[600];
    const char *src = WL_SOURCE_DIR "/tests/wave_model/bessel_f64.cl";
    uint32_t x = 0x2545f491u, w[F64_ITEMS];
    for (unsigned i = 0; i < F64_ITEMS; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        w[i] = x;
    }
    snprintf(in, sizeof in, "%s/in.bin", tmp);
    assert_int_equal(wlt_write_file(in, w, sizeof w), 0);
    int rc;
    char *out;
    for (unsigned W = 64; W >= 32; W /= 2) {
        snprintf(cmd, sizeof cmd,
                 "'%s' -x cl -cl-std=CL2.0 -Xclang -finclude-default-header -target amdgcn-amd-amdhsa "
                 "-mcpu=gfx1030 %s -O2 --rocm-device-lib-path='%s' -o '%s/b.w%u.co' '%s' 2>&1",
                 WL_CLANG, W == 64 ? "-mwavefrontsize64" : "-mno-wavefrontsize64", WL_DEVICE_LIBS, tmp, W, src);
        out = wlt_run(cmd, &rc);
        assert_int_equal(rc, 0);
        free(out);
    }
    snprintf(cmd, sizeof cmd,
             "'%s' '%s' --kernel bessel_f64 --global %u --local 64 --arg buf:'%s' --arg zero:%u --out 1:'%s/ref' 2>&1",
             WL_POCL_RUN, src, F64_ITEMS, in, F64_ITEMS * 32, tmp);
    out = wlt_run(cmd, &rc);
    if (rc)
        printf("PoCL: %s\n", out ? out : "");
    assert_int_equal(rc, 0);
    free(out);
    /* both wave sizes at once, each timed */
    size_t cl = 0;
    for (unsigned W = 64; W >= 32; W /= 2)
        cl += (size_t)snprintf(cmd + cl, sizeof cmd - cl,
                               "(s=$(date +%%s%%N); MESA_SHADER_CACHE_DISABLE=true WAVELIFT_DEVICE=llvmpipe '%s' run "
                               "'%s/b.w%u.co' --kernel bessel_f64 --global %u --local %u --arg buf:'%s' --arg zero:%u "
                               "--out 1:'%s/got.%u' --model wave --timeout-ms %u >'%s/out.%u' 2>&1; echo $? "
                               ">'%s/rc.%u'; echo $(( ($(date +%%s%%N) - s) / 1000000 )) >'%s/ms.%u') & ",
                               WL_CLI, tmp, W, F64_ITEMS, W, in, F64_ITEMS * 32, tmp, W, F64_BOUND_MS, tmp, W, tmp, W,
                               tmp, W);
    snprintf(cmd + cl, sizeof cmd - cl, "wait");
    free(wlt_run(cmd, &rc));
    size_t rn = 0;
    char path[700];
    snprintf(path, sizeof path, "%s/ref", tmp);
    uint8_t *ref = wlt_read_file(path, &rn);
    assert_non_null(ref);
    int bad = 0;
    for (unsigned W = 64; W >= 32; W /= 2) {
        size_t n;
        snprintf(path, sizeof path, "%s/rc.%u", tmp, W);
        char *t = (char *)wlt_read_file(path, &n);
        int run_rc = t ? atoi(t) : -1;
        free(t);
        snprintf(path, sizeof path, "%s/ms.%u", tmp, W);
        t = (char *)wlt_read_file(path, &n);
        long ms = t ? atol(t) : -1;
        free(t);
        snprintf(path, sizeof path, "%s/out.%u", tmp, W);
        char *o = (char *)wlt_read_file(path, &n);
        snprintf(path, sizeof path, "%s/got.%u", tmp, W);
        size_t gn = 0;
        uint8_t *got = wlt_read_file(path, &gn);
        int same = got && gn == rn && memcmp(got, ref, rn) == 0;
        /* the lanes model at k = 1, the size's reference */
        snprintf(cmd, sizeof cmd, "'%s' lift '%s/b.w%u.co' --kernel bessel_f64 --model lanes --subgroup-size %u "
                 "--local 64 -o '%s/l.spv' 2>&1", WL_CLI, tmp, W, W, tmp);
        char *lo = wlt_run(cmd, &rc);
        size_t ww = words_of(o), lw = words_of(lo);
        const char *loops = o ? strstr(o, "lane loops: ") : NULL;
        const char *pipe = o ? strstr(o, "pipeline build ms: ") : NULL, *disp = o ? strstr(o, "dispatch ms: ") : NULL;
        printf("bessel_f64 w%u wave model: exit %d, %zu SPIR-V words (%u lane loops), lanes model k = 1 %zu "
               "(%.2f); pipeline %.0f ms, first dispatch %.0f ms, the whole run %ld ms (bound %u); %zu bytes: %s\n",
               W, run_rc, ww, loops ? (unsigned)atoi(loops + 12) : 0, lw, lw ? (double)ww / (double)lw : 0.0,
               pipe ? atof(pipe + 19) : 0.0, disp ? atof(disp + 13) : 0.0, ms, F64_BOUND_MS, rn,
               same ? "= PoCL" : "DIFFERENT from PoCL");
        if (run_rc != 0)
            printf("%s", o ? o : "");
        bad += run_rc != 0 || !same || !lw || ww > lw * 2 || ms < 0 || ms > F64_BOUND_MS + 60000;
        free(o);
        free(lo);
        free(got);
    }
    free(ref);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    free(wlt_run(cmd, &rc));
    free(tmp);
    assert_int_equal(bad, 0);
#endif
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    wlt_use_lavapipe(0);
    if (getenv("WLT_TEST_FILTER")) /* e.g. WLT_TEST_FILTER=mix_wave_model: one test alone */
        cmocka_set_test_filter(getenv("WLT_TEST_FILTER"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mix_wave_model),
        cmocka_unit_test(no_growth_with_width),
        cmocka_unit_test(lane_unroll_where_limited),
        cmocka_unit_test(one_instruction_one_loop),
        cmocka_unit_test(size_against_lanes),
        cmocka_unit_test(f64_kernel_finishes),
        cmocka_unit_test_setup_teardown(suite_wave_model, wlt_suite_setup, wlt_suite_teardown),
        cmocka_unit_test_setup_teardown(suite_captures_both, wlt_suite_setup, wlt_suite_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
