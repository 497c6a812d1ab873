/* `wavelift run --pages` (cli/pages.c, docs/memory.md "The paged mapping"):
 * the paged mapping end to end, against PoCL and by its escapes, on
 * lavapipe (the lanes model at lavapipe's S = 8, GALLIVM_PERF=no_opt).
 *   - four suite kernels (WLT_PAGES_SUITE=full: the first of every suite
 *     file), wave64 and wave32, every buffer on pages of its own: outputs
 *     equal PoCL's, and the run says "mapping: pages";
 *   - escapes.cl's `reach` 64 KiB past its 256-byte argument: the unmapped
 *     page after it, exit 3 naming the address; then `normal` exact;
 *   - the same two as bundles (format 3, docs/bundle.md) run by
 *     wl_bundlerun, lanes (S = 8) and wave model: reach refused, normal
 *     matching. */
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

#define TIMEOUT_MS 300000u
#define RUNNER WL_BINARY_DIR "/wl_bundlerun"

static void test_cli_pages(void **state)
{
    wlt_suite *s = *state;
    wlt_suite_load(s);
    static const unsigned waves[2] = {64, 32};
    unsigned chosen = 0, runs = 0, match = 0, refused = 0, failed = 0;
    size_t cmdcap = 65536;
    char *cmd = malloc(cmdcap), args[4096];
    assert_non_null(cmd);
    /* by default four kernels (global 64-bit atomics, bytes and halves,
     * .rodata in the image's range, many loads); WLT_PAGES_SUITE=full: the
     * first kernel of every suite file (about 2 minutes here) */
    static const char *const some[] = {"atomics64", "bytes_shorts", "rodata_tables", "matmul_tiled"};
    const char *full_env = getenv("WLT_PAGES_SUITE");
    int full = full_env && !strcmp(full_env, "full");
    for (unsigned si = 0; si < s->n; si++) {
        const wlt_spec *sp = &s->specs[si];
        if (si > 0 && strcmp(sp->file, s->specs[si - 1].file) == 0)
            continue;
        int pick = full;
        for (size_t q = 0; q < sizeof some / sizeof some[0]; q++)
            pick |= !strcmp(sp->kernel, some[q]);
        if (!pick)
            continue;
        chosen++;
        wlt_suite_args(s, si, args, sizeof(args));
        if (wlt_suite_pocl(s, si, args) != 0) {
            failed++;
            continue;
        }
        size_t cl = 0;
        for (unsigned r = 0; r < 2; r++)
            wlt_suite_run_cmd(s, si, r, waves[r], "GALLIVM_PERF=no_opt WAVELIFT_DEVICE=llvmpipe", " --pages", args,
                              cmd, cmdcap, &cl);
        cl += (size_t)snprintf(cmd + cl, cmdcap - cl, "wait");
        int rc;
        char *out = wlt_run(cmd, &rc);
        assert_non_null(out);
        free(out);
        for (unsigned r = 0; r < 2; r++) {
            runs++;
            char *err = NULL;
            int res = wlt_suite_result(s, si, r, &rc, &err, &out);
            printf("%-16s w%u --pages: ", sp->kernel, waves[r]);
            if (res == WLT_RUN_MATCH && out && strstr(out, "mapping: pages")) {
                match++;
                printf("match\n");
            } else if (res == WLT_RUN_REFUSED && err && !strstr(err, "address outside the mapping")) {
                refused++; /* refused by name at translation, as without --pages */
                printf("refused: %s\n", err);
            } else {
                failed++;
                printf("%s (exit %d): %s\n%s", res == WLT_RUN_MISMATCH ? "MISMATCH" : "FAILED", rc, err ? err : "",
                       out ? out : "");
            }
            free(err);
            free(out);
        }
    }
    printf("--pages: %u kernels (%s), %u runs: %u match PoCL, %u refused by name, %u failed\n", chosen,
           full ? "the first of each suite file" : "four", runs, match, refused, failed);
    assert_int_equal(failed, 0);
    assert_int_equal(match + refused, runs);
    assert_int_equal(chosen, full ? s->files : 4);
    if (!full)
        assert_int_equal(match, runs);
    /* the hole after an argument */
    char co[700];
    snprintf(co, sizeof co, "'%s' run '%s/escapes.w64.co' --timeout-ms %u --pages", WL_CLI, WL_KERNEL_DIR,
             TIMEOUT_MS);
    snprintf(cmd, cmdcap, "GALLIVM_PERF=no_opt %s --kernel reach --global 64 --local 64 --arg zero:256 "
                          "--arg i64:65536 2>&1",
             co);
    int st = 0;
    char *o = wlt_run(cmd, &st);
    assert_non_null(o);
    printf("reach --pages: exit %d: %s", st, strstr(o, "refused") ? strstr(o, "refused") : o);
    /* arg 0 is the first buffer after the image: its page starts 64 KiB
     * after CLI_GUEST_BASE (2^44), the page after it is a hole */
    if (st != 3 || !strstr(o, "address outside the mapping") || !strstr(o, "address 0x100000020000"))
        fail_msg("reach --pages: want exit 3 naming 0x100000020000, got %d:\n%s", st, o);
    free(o);
    snprintf(cmd, cmdcap, "GALLIVM_PERF=no_opt %s --kernel normal --global 256 --local 64 --arg zero:1024 "
                          "--out 0:'%s/normal.bin' 2>&1",
             co, s->tmp);
    o = wlt_run(cmd, &st);
    assert_non_null(o);
    if (st != 0)
        fail_msg("normal --pages after the escape: exit %d:\n%s", st, o);
    free(o);
    char path[700];
    snprintf(path, sizeof path, "%s/normal.bin", s->tmp);
    size_t n = 0;
    uint8_t *got = wlt_read_file(path, &n);
    assert_non_null(got);
    assert_int_equal(n, 1024);
    unsigned ok = 0;
    for (uint32_t i = 0; i < 256; i++) {
        int32_t v;
        memcpy(&v, got + 4 * i, 4);
        ok += v == (int32_t)(3 * i + 5);
    }
    free(got);
    printf("normal --pages after the escape: %u of 256 words right\n", ok);
    assert_int_equal(ok, 256);
    free(cmd);
}


/* bundles of format 3: reach refused, normal matching, both models */
static void test_bundles_pages(void **state)
{
    wlt_suite *s = *state;
    char cmd[4096], dir[700];
    snprintf(dir, sizeof dir, "%s/bundles", s->tmp);
    uint8_t expect[1024], zero[256];
    for (uint32_t i = 0; i < 256; i++) {
        int32_t v = (int32_t)(3 * i + 5);
        memcpy(expect + 4 * i, &v, 4);
    }
    memset(zero, 0, sizeof zero);
    static const char *const models[2] = {"lanes --subgroup-size 8", "wave"};
    unsigned made = 0;
    for (int m = 0; m < 2; m++) {
        for (int k = 0; k < 2; k++) {
            char b[800], f[900];
            snprintf(b, sizeof b, "%s/%s.%d", dir, k ? "normal" : "reach", m);
            snprintf(cmd, sizeof cmd,
                     "mkdir -p '%s' && '%s' run '%s/escapes.w64.co' --kernel %s --global %s --local 64 %s "
                     "--out 0:%s --model %s --pages --bundle '%s' 2>&1",
                     dir, WL_CLI, WL_KERNEL_DIR, k ? "normal" : "reach", k ? "256" : "64",
                     k ? "--arg zero:1024" : "--arg zero:256 --arg i64:65536", k ? "want.bin" : "zero.bin",
                     models[m], b);
            int st = 0;
            char *o = wlt_run(cmd, &st);
            assert_non_null(o);
            if (st != 0)
                fail_msg("bundle %s: exit %d:\n%s", b, st, o);
            free(o);
            snprintf(f, sizeof f, "%s/%s", b, k ? "want.bin" : "zero.bin");
            assert_int_equal(wlt_write_file(f, k ? expect : zero, k ? sizeof expect : sizeof zero), 0);
            snprintf(f, sizeof f, "%s/manifest.txt", b);
            size_t n = 0;
            char *man = (char *)wlt_read_file(f, &n);
            assert_non_null(man);
            man = realloc(man, n + 1);
            assert_non_null(man);
            man[n] = 0;
            if (!strstr(man, "wavelift-bundle 3\n") || !strstr(man, "\npage-range "))
                fail_msg("%s: not a format-3 bundle:\n%s", f, man);
            free(man);
            made++;
        }
    }
    unsigned ok = 0;
    for (int k = 0; k < 2; k++) {
        snprintf(cmd, sizeof cmd, "GALLIVM_PERF=no_opt '%s' --runs 1 '%s/%s.0' '%s/%s.1' 2>&1", RUNNER, dir,
                 k ? "normal" : "reach", dir, k ? "normal" : "reach");
        int st = 0;
        char *o = wlt_run(cmd, &st);
        assert_non_null(o);
        const char *tot = strstr(o, "total:");
        printf("wl_bundlerun %s (format 3, lanes and wave): exit %d, %.*s\n", k ? "normal" : "reach", st,
               tot ? (int)strcspn(tot, "\n") : 0, tot ? tot : "");
        if (k ? st == 0 && strstr(o, "2 match") : st == 3 && strstr(o, "2 refused (escape)"))
            ok++;
        else
            printf("%s", o);
        free(o);
    }
    assert_int_equal(made, 4);
    assert_int_equal(ok, 2);
}

int main(void)
{
    setenv("VK_ICD_FILENAMES", "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json", 1);
    setenv("WAVELIFT_DEVICE", "llvmpipe", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_cli_pages, wlt_suite_setup, wlt_suite_teardown),
        cmocka_unit_test_setup_teardown(test_bundles_pages, wlt_suite_setup, wlt_suite_teardown)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
