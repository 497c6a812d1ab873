/* `wavelift replay` through the guest mapping (docs/capture.md, "Guest
 * addresses"): captures keep their guest addresses, nothing is relocated,
 * and an address outside every range is an escape naming it.
 *
 *  - aco_captures: ACO's code for GLSL shaders of tests/aco (docs/aco.md),
 *    written as captures with RADV's launch state as test_aco_run builds it
 *    (wlt_aco.h: s2 the low half of set 0's address, whose high half
 *    0xffff8000 the code supplies with s_movk_i32, `launch radv 1`, no
 *    address field; the V#s name 0x8000_xxxx_xxxx), replayed by the CLI
 *    with --both (lanes and wave model must agree byte for byte) and the
 *    output compared word for word with the GLSL compiled by
 *    glslangValidator and run natively on lavapipe (the oracle). The same
 *    capture through --mapping identity is refused by name (a 32-bit
 *    pointer cannot be relocated), and without the launch line it is an
 *    escape naming the set's address (0x8000_0000_1000 + 16 b, binding b's
 *    V#), never a crash. Under WL_SUITE_QUICK (the sanitizer build) only
 *    the first shader.
 *  - outside_escapes: a program assembled by llvm-mc-19 loads from a
 *    guest address in no range: replay (lanes and wave model) exits 3
 *    naming the address; its store into the bytes between two ranges
 *    (inside the window) is refused naming that address. escapes.cl's
 *    `reach` loads and stores 1 MiB past its argument: `wavelift run`
 *    (both models) exits 3 naming the address, and its capture (`run
 *    --capture`) replays to the same refusal naming the same address; the
 *    same with `run --pages` (64 KiB past, into an unmapped page), whose
 *    capture the replay maps through the page table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "wlt_aco.h"
#include "wavelift/capture.h"

#define LAVAPIPE "WAVELIFT_DEVICE=llvmpipe "
/* lavapipe at S = 16 (main sets LP_NATIVE_VECTOR_WIDTH=512 for this
 * process, the native runs, and the CLI's): k = 4 for wave64, 2 for wave32,
 * smaller modules for lavapipe to compile than at S = 8 */
#define CLI_S16 LAVAPIPE
#define CODE_AT 0x100000000ull

static char *run_cmd(const char *cmd, int *rc)
{
    char *out = wlt_run(cmd, rc);
    assert_non_null(out);
    return out;
}

/* ---- ACO shaders as captures ---------------------------------------------- */

typedef struct aco_case {
    const char *name;
    unsigned wave;
} aco_case;

static const aco_case aco_cases[] = {
    {"wg_reduce", 32}, /* tg_size, LDS, barriers, subgroup reductions */
    {"histogram", 64}, /* buffer atomics, LDS atomics, ballots */
    /* WLT_REPLAY_ACO=all (by hand, minutes; WLT_REPLAY_ONLY=NAME.wW for one):
     * the rest of the corpus */
    {"wg_reduce", 64}, {"wg_scan", 64}, {"wg_scan", 32}, {"compact", 64}, {"compact", 32},
    {"quad_shuffle", 64}, {"quad_shuffle", 32}, {"histogram", 32},
};
#define ACO_CASES_DEFAULT 2

static const shader *find_shader(const char *name)
{
    for (size_t i = 0; i < sizeof wlt_aco_shaders / sizeof wlt_aco_shaders[0]; i++)
        if (strcmp(wlt_aco_shaders[i].name, name) == 0)
            return &wlt_aco_shaders[i];
    fail_msg("no shader %s", name);
    return NULL;
}

/* The capture of shader sh's ACO code wf at wave W with input `in`: the
 * launch test_aco_run gives the library (fill_program), the set, input and
 * output at their guest addresses (0x8000_0000_1000 ...). launch_key: state
 * `launch radv 1`. */
static wl_capture *aco_capture(const shader *sh, const words_file *wf, unsigned W, const uint32_t *in,
                               size_t items, size_t out_words, int launch_key)
{
    wl_lift_program p;
    fill_program(&p, wf, sh, W);
    char err[512];
    wl_capture *c = NULL;
    assert_int_equal(wl_capture_create(p.target, p.code, p.size, CODE_AT, p.entry, &c, err, sizeof err), WL_OK);
    c->wave_size = W;
    for (int d = 0; d < 3; d++)
        c->local[d] = wf->local[d];
    c->groups[0] = sh->groups;
    c->user_sgpr_count = p.user_sgpr_count;
    c->user_sgpr[2] = (uint32_t)(GUEST_BASE + WIN_SET); /* s2: set 0's low half */
    c->enable_workgroup_id[0] = p.enable_workgroup_id[0];
    c->enable_workgroup_info = p.enable_workgroup_info;
    c->enable_scratch_wave_offset = p.enable_private_segment_wave_offset;
    c->vgpr_workitem_ids = p.vgpr_workitem_ids;
    c->lds_bytes = p.lds_bytes;
    c->float_mode_known = p.float_mode_known;
    c->float_round_mode_32 = p.float_round_mode_32;
    c->float_round_mode_16_64 = p.float_round_mode_16_64;
    c->float_denorm_mode_32 = p.float_denorm_mode_32;
    c->float_denorm_mode_16_64 = p.float_denorm_mode_16_64;
    c->dx10_clamp = p.dx10_clamp;
    c->ieee_mode = p.ieee_mode;
    if (launch_key) {
        c->launch = WL_CAPTURE_LAUNCH_RADV;
        c->launch_pointers = 1;
        c->launch_high = WL_CAPTURE_RADV_HIGH;
    }
    c->source = strdup("ACO (RADV, navi21): tests/aco");
    uint64_t in_at = GUEST_BASE + WIN_DATA, in_bytes = items * 4;
    uint64_t out_at = (in_at + in_bytes + 255) & ~255ull, out_bytes = out_words * 4;
    uint32_t set[8];
    wlt_aco_set(set, in_at, in_bytes, out_at, out_bytes);
    assert_int_equal(wl_capture_add_range(c, "set", GUEST_BASE + WIN_SET, set, sizeof set, 0, err, sizeof err),
                     WL_OK);
    assert_int_equal(wl_capture_add_range(c, "in", in_at, in, in_bytes, 0, err, sizeof err), WL_OK);
    assert_int_equal(wl_capture_add_range(c, "out", out_at, NULL, out_bytes, 1, err, sizeof err), WL_OK);
    if (wl_capture_check(c, err, sizeof err) != WL_OK)
        fail_msg("check: %s", err);
    return c;
}

static void aco_captures(void **state)
{
    (void)state;
    wl_rt *rt = wlt_rt(300000);
    char *tmp = wlt_tmpdir();
    assert_non_null(tmp);
    printf("lavapipe's subgroup size: %u (the native runs and the replays)\n", wl_rt_profile(rt)->subgroup_size);
    unsigned matched = 0, n = ACO_CASES_DEFAULT;
    if (getenv("WLT_REPLAY_ACO") && strcmp(getenv("WLT_REPLAY_ACO"), "all") == 0)
        n = sizeof aco_cases / sizeof aco_cases[0];
    else if (getenv("WL_SUITE_QUICK")) /* the sanitizer build: the first shader only */
        n = 1;
    for (unsigned ci = 0; ci < n; ci++) {
        const aco_case *ac = &aco_cases[ci];
        const shader *sh = find_shader(ac->name);
        char path[600], err[2048], cmd[4096];
        const char *only = getenv("WLT_REPLAY_ONLY"); /* by hand: NAME.wW only */
        snprintf(path, sizeof path, "%s.w%u", ac->name, ac->wave);
        if (only && strcmp(only, path) != 0) {
            matched++;
            continue;
        }
        words_file wf;
        snprintf(path, sizeof path, "%s/%s.w%u.words", ACO_DIR, sh->name, ac->wave);
        assert_int_equal(read_words(path, &wf), 0);
        assert_true(wf.have_local && wf.have_lds);
        size_t items = (size_t)wf.local[0] * wf.local[1] * wf.local[2] * sh->groups;
        size_t out_words = wlt_aco_out_words(sh, items);
        uint32_t *in = malloc(items * 4), *ref = calloc(out_words, 4);
        assert_true(in && ref);
        make_input(sh, in, items);
        run_io nio = {in, items, ref, out_words};
        if (run_native(rt, tmp, sh, wl_rt_profile(rt)->subgroup_size, &nio, err, sizeof err))
            fail_msg("%s: native: %s", sh->name, err);
        size_t nonzero = 0;
        for (size_t i = 0; i < out_words; i++)
            nonzero += ref[i] != 0;
        assert_true(nonzero >= 8); /* not a vacuous comparison */

        char dir[700];
        snprintf(dir, sizeof dir, "%s/%s.w%u.cap", tmp, sh->name, ac->wave);
        wl_capture *c = aco_capture(sh, &wf, ac->wave, in, items, out_words, 1);
        if (wl_capture_write(c, dir, err, sizeof err) != WL_OK)
            fail_msg("write: %s", err);
        wl_capture_free(c);
        int rc;
        /* every other one with the translation's state in a buffer (an
         * emulator keeping its push constants: docs/embedding.md) */
        snprintf(cmd, sizeof cmd, CLI_S16 "'%s' replay '%s' --both --runs 1 --out-dir '%s/o%u' "
                 "--timeout-ms 300000%s 2>&1", WL_CLI, dir, tmp, ci, ci % 2 ? " --state-in-buffer" : "");
        char *o = run_cmd(cmd, &rc);
        printf("%s", o);
        if (rc != 0 || !strstr(o, "same: ") || !strstr(o, "mapping: window"))
            fail_msg("%s w%u: replay --both: exit %d", sh->name, ac->wave, rc);
        free(o);
        snprintf(path, sizeof path, "%s/o%u/out.bin", tmp, ci);
        size_t nb;
        uint32_t *got = (uint32_t *)wlt_read_file(path, &nb);
        assert_non_null(got);
        assert_int_equal(nb, out_words * 4);
        size_t bad = 0, first = 0;
        for (size_t i = 0; i < out_words; i++)
            if (got[i] != ref[i] && bad++ == 0)
                first = i;
        printf("%-12s w%u: replay (both models%s) against the native GLSL run: %zu words (%zu non-zero): %s\n",
               sh->name, ac->wave, ci % 2 ? ", state in a buffer" : "", out_words, nonzero,
               bad ? "MISMATCH" : "match");
        if (bad)
            fail_msg("%s w%u: %zu words differ, first %zu: replay 0x%08x, native 0x%08x", sh->name, ac->wave,
                     bad, first, got[first], ref[first]);
        matched++;
        free(got);

        if (ci == 0) {
            /* identity: RADV's 32-bit pointer cannot be relocated, by name */
            snprintf(cmd, sizeof cmd, CLI_S16 "'%s' replay '%s' --model lanes --mapping identity --runs 1 2>&1",
                     WL_CLI, dir);
            o = run_cmd(cmd, &rc);
            printf("--mapping identity: exit %d: %s", rc, o);
            if (rc != 3 || !strstr(o, "sgpr 2: a 32-bit pointer"))
                fail_msg("--mapping identity with launch radv: want exit 3 naming sgpr 2");
            free(o);
            /* without the launch line nothing is relocated either: the code's
             * 0xffff8000_00001000 lies outside the arena, an escape naming it */
            c = aco_capture(sh, &wf, ac->wave, in, items, out_words, 0);
            snprintf(dir, sizeof dir, "%s/nokey.cap", tmp);
            if (wl_capture_write(c, dir, err, sizeof err) != WL_OK)
                fail_msg("write: %s", err);
            wl_capture_free(c);
            snprintf(cmd, sizeof cmd, CLI_S16 "'%s' replay '%s' --model lanes --mapping identity --runs 1 2>&1",
                     WL_CLI, dir);
            o = run_cmd(cmd, &rc);
            printf("--mapping identity, no launch line: exit %d: %s", rc, o);
            if (rc != 3 || !strstr(o, "address outside the mapping: address 0x8000000010"))
                fail_msg("identity replay of the set pointer: want exit 3 naming 0x8000000010x0");
            free(o);
        }
        free(wf.code);
        free(in);
        free(ref);
    }
    printf("%u of %u ACO captures replay (both models) as the native GLSL run\n", matched, n);
    assert_int_equal(matched, n);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (getenv("WLT_REPLAY_KEEP")) /* by hand: the captures stay */
        printf("captures kept in %s\n", tmp);
    else
        free(wlt_run(cmd, NULL));
    free(tmp);
    wl_rt_destroy(rt);
}

/* ---- addresses outside every range ----------------------------------------- */

#define IN_AT 0x7f0000001000ull
#define OUT_AT 0x7f0000003000ull /* 0x1000 bytes after in's end: a gap in the window */
#define FAR_AT 0x500000000000ull

/* every lane loads the dword at s[2:3] and stores it plus 1 at s[0:1] + 4 * lane */
static const char far_program[] =
    "v_mov_b32 v1, 0\n"
    "global_load_dword v2, v1, s[2:3]\n"
    "v_lshlrev_b32 v3, 2, v0\n"
    "s_waitcnt vmcnt(0)\n"
    "v_add_nc_u32 v2, 1, v2\n"
    "global_store_dword v3, v2, s[0:1]\n"
    "s_endpgm\n";

static void write_far_capture(const char *dir, uint64_t load_at, uint64_t store_at)
{
    size_t n;
    uint8_t *code = wlt_assemble(far_program, "gfx1030", 64, &n, NULL);
    assert_non_null(code);
    char err[512];
    wl_capture *c = NULL;
    assert_int_equal(wl_capture_create(wl_target_from_name("gfx1030"), code, n, CODE_AT, 0, &c, err, sizeof err),
                     WL_OK);
    free(code);
    c->wave_size = 64;
    c->local[0] = 64;
    c->user_sgpr_count = 4;
    uint32_t sg[4] = {(uint32_t)store_at, (uint32_t)(store_at >> 32), (uint32_t)load_at, (uint32_t)(load_at >> 32)};
    memcpy(c->user_sgpr, sg, sizeof sg);
    uint32_t in[256];
    for (unsigned i = 0; i < 256; i++)
        in[i] = 1000 + i;
    assert_int_equal(wl_capture_add_range(c, "in", IN_AT, in, sizeof in, 0, err, sizeof err), WL_OK);
    assert_int_equal(wl_capture_add_range(c, "out", OUT_AT, NULL, 256, 1, err, sizeof err), WL_OK);
    if (wl_capture_write(c, dir, err, sizeof err) != WL_OK)
        fail_msg("write: %s", err);
    wl_capture_free(c);
}

/* runs cmd, wants exit 3 and `want` in its output */
static void want_refusal(const char *what, const char *cmd, const char *want)
{
    int rc;
    char *o = run_cmd(cmd, &rc);
    const char *at = strstr(o, "refused");
    printf("%-40s exit %d: %s", what, rc, at ? at : o);
    if (at && !strchr(at, '\n'))
        printf("\n");
    if (rc != 3 || !strstr(o, want))
        fail_msg("%s: want exit 3 with '%s', got exit %d:\n%s", what, want, rc, o);
    free(o);
}

static void outside_escapes(void **state)
{
    (void)state;
    char *tmp = wlt_tmpdir();
    assert_non_null(tmp);
    char dir[600], cmd[4096], what[128];
    static const char *const models[2] = {"lanes", "wave"};

    /* a load from an address in no range */
    snprintf(dir, sizeof dir, "%s/far.cap", tmp);
    write_far_capture(dir, FAR_AT, OUT_AT);
    int urc;
    snprintf(cmd, sizeof cmd, "'%s' replay '%s' --mapping sideways 2>&1", WL_CLI, dir);
    char *uo = run_cmd(cmd, &urc);
    if (urc != 2 || !strstr(uo, "--mapping must be auto, window, pages or identity"))
        fail_msg("--mapping sideways: want the usage error, exit 2; got %d:\n%s", urc, uo);
    free(uo);
    for (int m = 0; m < 2; m++) {
        snprintf(cmd, sizeof cmd, LAVAPIPE "'%s' replay '%s' --model %s --runs 1 2>&1", WL_CLI, dir, models[m]);
        snprintf(what, sizeof what, "replay, load outside (%s)", models[m]);
        want_refusal(what, cmd, "address outside the mapping: address 0x500000000000");
    }
    /* the same load with bits 63:48 set reaches the range (ignored, as on
     * the hardware): every lane stores in[0] + 1 */
    snprintf(dir, sizeof dir, "%s/high.cap", tmp);
    write_far_capture(dir, 0xffff000000000000ull | IN_AT, OUT_AT);
    snprintf(cmd, sizeof cmd, LAVAPIPE "'%s' replay '%s' --model lanes --runs 1 --out-dir '%s/high' 2>&1", WL_CLI,
             dir, tmp);
    int rc;
    char *o = run_cmd(cmd, &rc);
    if (rc)
        fail_msg("replay of a load with bits 63:48 set: exit %d:\n%s", rc, o);
    free(o);
    snprintf(dir, sizeof dir, "%s/high/out.bin", tmp);
    size_t nb;
    uint32_t *got = (uint32_t *)wlt_read_file(dir, &nb);
    assert_non_null(got);
    assert_int_equal(nb, 256);
    for (unsigned i = 0; i < 64; i++)
        assert_int_equal(got[i], 1001);
    free(got);
    printf("%-40s exit 0: 64 words of in[0] + 1\n", "replay, load with bits 63:48 set");

    /* a store between the two ranges, inside the window */
    snprintf(dir, sizeof dir, "%s/gap.cap", tmp);
    write_far_capture(dir, IN_AT, IN_AT + 0x1000);
    for (int m = 0; m < 2; m++) {
        snprintf(cmd, sizeof cmd, LAVAPIPE "'%s' replay '%s' --model %s --runs 1 2>&1", WL_CLI, dir, models[m]);
        snprintf(what, sizeof what, "replay, store between ranges (%s)", models[m]);
        want_refusal(what, cmd, "a store outside every range: guest address 0x7f0000002000");
    }

    /* wavelift run, and its capture replayed: escapes.cl's reach, 1 MiB past
     * its 256-byte argument (guest 0x100000000000 + 1 MiB in the arena) */
    for (int m = 0; m < 2; m++) {
        snprintf(cmd, sizeof cmd, LAVAPIPE "'%s' run '%s/escapes.w64.co' --kernel reach --global 64 --local 64 "
                 "--arg zero:256 --arg i64:1048576 --model %s%s%s%s 2>&1", WL_CLI, WL_KERNEL_DIR, models[m],
                 m == 0 ? " --capture '" : "", m == 0 ? tmp : "", m == 0 ? "/reach.cap'" : "");
        snprintf(what, sizeof what, "run reach (%s)", models[m]);
        want_refusal(what, cmd, "address outside the mapping: address 0x100000100000");
    }
    for (int m = 0; m < 2; m++) {
        snprintf(cmd, sizeof cmd, LAVAPIPE "'%s' replay '%s/reach.cap' --model %s --runs 1 2>&1", WL_CLI, tmp,
                 models[m]);
        snprintf(what, sizeof what, "replay of run's reach capture (%s)", models[m]);
        want_refusal(what, cmd, "address outside the mapping: address 0x100000100000");
    }
    /* run --pages: every buffer on pages of its own, one unmapped page
     * before each; reach 64 KiB past its argument lands in the unmapped
     * page after it. Its capture keeps those addresses: the replay (auto:
     * the page table, the ranges' pages not following each other) names
     * the same address; through a window (asked for) the page is mapped
     * and the store into it is refused naming it */
    snprintf(cmd, sizeof cmd, LAVAPIPE "'%s' run '%s/escapes.w64.co' --kernel reach --global 64 --local 64 "
             "--arg zero:256 --arg i64:65536 --model lanes --pages --capture '%s/reachp.cap' 2>&1", WL_CLI,
             WL_KERNEL_DIR, tmp);
    want_refusal("run --pages reach (lanes)", cmd, "address outside the mapping: address 0x100000020000");
    for (int m = 0; m < 2; m++) {
        snprintf(cmd, sizeof cmd, LAVAPIPE "'%s' replay '%s/reachp.cap' --model %s --runs 1 2>&1", WL_CLI, tmp,
                 models[m]);
        snprintf(what, sizeof what, "replay of run --pages's capture (%s)", models[m]);
        want_refusal(what, cmd, "address outside the mapping: address 0x100000020000");
    }
    snprintf(cmd, sizeof cmd, LAVAPIPE "'%s' replay '%s/reachp.cap' --model lanes --mapping window --runs 1 2>&1",
             WL_CLI, tmp);
    want_refusal("  the same, --mapping window (lanes)", cmd,
                 "a store outside every range: guest address 0x100000020000");
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    free(wlt_run(cmd, NULL));
    free(tmp);
}

int main(void)
{
    setenv("LP_NATIVE_VECTOR_WIDTH", "512", 1); /* before the first Vulkan call */
    wlt_use_lavapipe(1); /* GALLIVM_PERF=no_opt for the CLI's runs too: exact, faster compiles */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(outside_escapes),
        cmocka_unit_test(aco_captures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
