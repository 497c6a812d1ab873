/* Dispatch bundles (docs/bundle.md): `wavelift run --bundle DIR` writes a
 * kernel's dispatch as files, and bench/wl_bundlerun.c (runtime + libvulkan
 * only) recreates it on lavapipe and compares the outputs with expected
 * files. The expected outputs here are computed in C from the kernels'
 * OpenCL source (tests/kernels), for kernels that exercise each kind of
 * relocation: buffer arguments in the kernarg segment, the kernarg pointer
 * in the user SGPRs and the dispatch packet, the scratch base in the push
 * constants (private_array), dynamic LDS (reduce_dyn), a 3-D grid (ids_3d).
 * Both wave sizes, subgroup size 8. Also: a wrong expected file is a
 * mismatch (exit 1), a bundle for another subgroup size is skipped (exit
 * 3), --bundle needs --subgroup-size (exit 2).
 *
 * The same kernels as wave-model bundles (`--model wave`, no subgroup
 * size): the manifest says `model wave`, `subgroup 0` and its lane loops,
 * and the runner builds the pipeline without a required subgroup size. A
 * manifest without a `model` line is still the lanes model (format 1 as
 * before), and a wave manifest asking for a subgroup size is malformed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#define RUNNER WL_BINARY_DIR "/wl_bundlerun"
/* the disk cache on (the runner turns it off for its timings): the times
 * are not tested here */
#define LAVAPIPE "LP_NATIVE_VECTOR_WIDTH=256 WAVELIFT_DEVICE=llvmpipe MESA_SHADER_CACHE_DISABLE=false "

typedef struct kcase {
    const char *co, *kernel, *global, *local;
    unsigned nin;       /* input words (arg 0, rand), 0: none */
    const char *extra;  /* the other --arg options */
    unsigned out;       /* the output's argument number */
    unsigned out_words;
    void (*ref)(const uint32_t *in, uint32_t *out);
} kcase;

static void ref_add(const uint32_t *in, uint32_t *out)
{
    for (unsigned i = 0; i < 256; i++)
        out[i] = in[i] + in[(i * 7) % 256]; /* b is in permuted, see write_inputs */
}

static void ref_ids_3d(const uint32_t *in, uint32_t *out)
{
    (void)in;
    const unsigned G[3] = {8, 4, 4}, L[3] = {4, 2, 2};
    for (unsigned z = 0; z < G[2]; z++)
        for (unsigned y = 0; y < G[1]; y++)
            for (unsigned x = 0; x < G[0]; x++) {
                unsigned idx = (z * G[1] + y) * G[0] + x;
                out[idx * 4 + 0] = x % L[0] | (y % L[1]) << 8 | (z % L[2]) << 16;
                out[idx * 4 + 1] = x / L[0] | (y / L[1]) << 8 | (z / L[2]) << 16;
                out[idx * 4 + 2] = G[0] / L[0] | (G[1] / L[1]) << 8 | (G[2] / L[2]) << 16;
                out[idx * 4 + 3] = L[0] * L[1] * L[2] + 3;
            }
}

static void ref_private_array(const uint32_t *in, uint32_t *out)
{
    for (unsigned i = 0; i < 128; i++) {
        uint32_t p[32], x = in[i], s = 0;
        for (unsigned k = 0; k < 32; k++)
            p[k] = x * k ^ (x >> k);
        for (unsigned k = 0; k < 32; k++)
            s += p[(x + k * 7u) & 31u];
        out[i] = s;
    }
}

static void ref_reduce_dyn(const uint32_t *in, uint32_t *out)
{
    for (unsigned g = 0; g < 4; g++) {
        uint32_t t[128];
        for (unsigned l = 0; l < 128; l++)
            t[l] = in[g * 128 + l] * 3u + 1u;
        for (unsigned s = 64; s > 0; s >>= 1)
            for (unsigned l = 0; l < s; l++)
                t[l] = (t[l] > t[l + s] ? t[l] : t[l + s]) + (t[l] & 1u);
        out[g] = t[0];
    }
}

static const kcase cases[] = {
    {"vector_add", "add", "256", "64", 256, "--arg zero:1024", 2, 256, ref_add},
    {"suite_misc", "ids_3d", "8,4,4", "4,2,2", 0, "--arg zero:2048", 0, 512, ref_ids_3d},
    {"suite_misc", "private_array", "128", "64", 128, "--arg zero:512", 1, 128, ref_private_array},
    {"suite_reduce", "reduce_dyn", "512", "128", 512, "--arg zero:16 --arg local:512", 1, 4,
     ref_reduce_dyn},
};

static int setup(void **state)
{
    *state = wlt_tmpdir();
    return *state ? 0 : -1;
}

static int teardown(void **state)
{
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", (char *)*state);
    free(wlt_run(cmd, NULL));
    free(*state);
    return 0;
}

/* Writes DIR/NAME.in (and for add the permuted second input) and returns
 * the --arg options of the inputs. */
static void write_inputs(const char *tmp, const kcase *c, uint32_t *in, char *args, size_t cap)
{
    uint32_t x = 0x12345678u;
    for (unsigned i = 0; i < c->nin; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        in[i] = x;
    }
    args[0] = 0;
    if (!c->nin)
        return;
    char path[700];
    snprintf(path, sizeof(path), "%s/%s.in", tmp, c->kernel);
    assert_int_equal(wlt_write_file(path, in, c->nin * 4u), 0);
    size_t l = (size_t)snprintf(args, cap, "--arg buf:'%s'", path);
    if (strcmp(c->kernel, "add") == 0) {
        uint32_t b[256];
        for (unsigned i = 0; i < 256; i++)
            b[i] = in[(i * 7) % 256];
        snprintf(path, sizeof(path), "%s/add.in2", tmp);
        assert_int_equal(wlt_write_file(path, b, sizeof(b)), 0);
        snprintf(args + l, cap - l, " --arg buf:'%s'", path);
    }
}

/* 1 when DIR/manifest.txt has the line LINE */
static int manifest_has(const char *dir, const char *line)
{
    char cmd[1200];
    snprintf(cmd, sizeof(cmd), "grep -qx '%s' '%s/manifest.txt'", line, dir);
    int rc;
    free(wlt_run(cmd, &rc));
    return rc == 0;
}

/* Writes a bundle DIR/KERNEL.wW<suffix> of every case at both wave sizes
 * with the model options `how`, its expected output beside it, and appends
 * the directories to dirs. Wave-model bundles (wave != 0) must say so in
 * their manifest. Returns the number of bundles. */
static unsigned make_bundles(const char *tmp, const char *how, const char *suffix, int wave_model, char *dirs,
                             size_t cap)
{
    char cmd[4096], args[1024], path[800];
    size_t dl = strlen(dirs);
    unsigned made = 0;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const kcase *c = &cases[i];
        uint32_t in[512], want[512];
        write_inputs(tmp, c, in, args, sizeof(args));
        c->ref(in, want);
        for (unsigned wave = 64; wave >= 32; wave -= 32) {
            char dir[700];
            snprintf(dir, sizeof(dir), "%s/%s.w%u%s", tmp, c->kernel, wave, suffix);
            snprintf(cmd, sizeof(cmd),
                     "'%s' run '%s/%s.w%u.co' --kernel %s --global %s --local %s %s %s --out %u:want.bin "
                     "%s --bundle '%s' 2>&1",
                     WL_CLI, WL_KERNEL_DIR, c->co, wave, c->kernel, c->global, c->local, args, c->extra,
                     c->out, how, dir);
            int rc;
            char *out = wlt_run(cmd, &rc);
            assert_non_null(out);
            printf("%s w%u: %s", c->kernel, wave, out);
            if (rc != 0)
                fail_msg("wavelift run %s --bundle failed (%d)", how, rc);
            if (wave_model)
                assert_non_null(strstr(out, "model: wave"));
            free(out);
            if (wave_model) {
                assert_true(manifest_has(dir, "model wave"));
                assert_true(manifest_has(dir, "subgroup 0"));
                snprintf(cmd, sizeof(cmd), "sed -n 's/^lane-loops //p' '%s/manifest.txt'", dir);
                out = wlt_run(cmd, &rc);
                assert_non_null(out);
                assert_true(atoi(out) > 0); /* every kernel here has lane work */
                free(out);
            }
            snprintf(path, sizeof(path), "%s/want.bin", dir);
            assert_int_equal(wlt_write_file(path, want, c->out_words * 4u), 0);
            dl += (size_t)snprintf(dirs + dl, cap - dl, " '%s'", dir);
            made++;
        }
    }
    return made;
}

/* Runs the bundles in dirs on lavapipe; returns the runner's output and
 * sets *rc and *match (the bundles that matched). */
static char *run_bundles(const char *dirs, int *rc, unsigned *match)
{
    char cmd[4400];
    snprintf(cmd, sizeof(cmd), LAVAPIPE "'%s' --runs 2 --timeout-ms 300000 %s 2>&1", RUNNER, dirs);
    char *out = wlt_run(cmd, rc);
    assert_non_null(out);
    printf("%s", out);
    *match = 0;
    for (const char *p = out; (p = strstr(p, "  match\n")) != NULL; p++)
        (*match)++;
    return out;
}

static void test_bundles(void **state)
{
    const char *tmp = *state;
    char cmd[4096], dirs[4096] = "";
    unsigned made = make_bundles(tmp, "--subgroup-size 8", "", 0, dirs, sizeof(dirs)), match;
    int rc;
    char *out = run_bundles(dirs, &rc, &match);
    printf("bundle: %zu kernels x wave64/wave32 at S = 8: %u bundles, %u match\n",
           sizeof(cases) / sizeof(cases[0]), made, match);
    assert_int_equal(rc, 0);
    assert_int_equal(match, made);
    assert_int_equal(made, 8);
    free(out);

    /* a wrong expected word is a mismatch, named */
    snprintf(cmd, sizeof(cmd),
             "cp -r '%s/add.w64' '%s/bad' && printf '\\377' | dd of='%s/bad/want.bin' bs=1 seek=40 "
             "conv=notrunc 2>/dev/null && " LAVAPIPE "'%s' --runs 1 '%s/bad' 2>&1",
             tmp, tmp, tmp, RUNNER, tmp);
    out = wlt_run(cmd, &rc);
    assert_non_null(out);
    printf("%s", out);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(out, "MISMATCH: buffer 2 word 10:"));
    free(out);
}

static void test_skip_and_usage(void **state)
{
    const char *tmp = *state;
    char cmd[2048];
    /* a bundle for subgroup size 32 is not run on lavapipe (8) */
    snprintf(cmd, sizeof(cmd),
             "'%s' run '%s/vector_add.w64.co' --kernel add --global 64 --local 64 --arg zero:256 "
             "--arg zero:256 --arg zero:256 --out 2:want.bin --subgroup-size 32 --bundle '%s/s32' "
             ">/dev/null && head -c 256 /dev/zero > '%s/s32/want.bin' && grep -q '^subgroup 32$' "
             "'%s/s32/manifest.txt' && " LAVAPIPE "'%s' '%s/s32' 2>&1",
             WL_CLI, WL_KERNEL_DIR, tmp, tmp, tmp, RUNNER, tmp);
    int rc;
    char *out = wlt_run(cmd, &rc);
    assert_non_null(out);
    printf("%s", out);
    assert_int_equal(rc, 3);
    assert_non_null(strstr(out, "SKIPPED: written for subgroup size 32"));
    free(out);
    snprintf(cmd, sizeof(cmd),
             "'%s' run '%s/vector_add.w64.co' --kernel add --global 64 --local 64 --arg zero:256 "
             "--arg zero:256 --arg zero:256 --bundle '%s/x' 2>&1",
             WL_CLI, WL_KERNEL_DIR, tmp);
    out = wlt_run(cmd, &rc);
    assert_non_null(out);
    printf("%s", out);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(out, "--bundle needs --subgroup-size"));
    free(out);
}

static void test_wave_bundles(void **state)
{
    const char *tmp = *state;
    char dirs[4096] = "";
    unsigned made = make_bundles(tmp, "--model wave", ".wave", 1, dirs, sizeof(dirs)), match;
    int rc;
    char *out = run_bundles(dirs, &rc, &match);
    printf("bundle (wave model): %zu kernels x wave64/wave32: %u bundles, %u match\n",
           sizeof(cases) / sizeof(cases[0]), made, match);
    assert_int_equal(rc, 0);
    assert_int_equal(made, 8);
    assert_int_equal(match, made);
    assert_non_null(strstr(out, "wave model on llvmpipe"));
    assert_null(strstr(out, "lanes model on"));
    free(out);
}

static void test_manifest_compat(void **state)
{
    const char *tmp = *state;
    char cmd[3000];
    uint32_t zero[64] = {0};
    /* a lanes bundle whose manifest lost its model line (as a reader of
     * format 1 without models wrote it) is still the lanes model: add of
     * zeros, expected zeros */
    snprintf(cmd, sizeof(cmd),
             "'%s' run '%s/vector_add.w64.co' --kernel add --global 64 --local 64 --arg zero:256 "
             "--arg zero:256 --arg zero:256 --out 2:want.bin --subgroup-size 8 --bundle '%s/old' "
             ">/dev/null && grep -qx 'model lanes' '%s/old/manifest.txt' && "
             "sed -i '/^model /d' '%s/old/manifest.txt'",
             WL_CLI, WL_KERNEL_DIR, tmp, tmp, tmp);
    int rc;
    free(wlt_run(cmd, &rc));
    assert_int_equal(rc, 0);
    char path[800];
    snprintf(path, sizeof(path), "%s/old/want.bin", tmp);
    assert_int_equal(wlt_write_file(path, zero, sizeof(zero)), 0);
    snprintf(cmd, sizeof(cmd), LAVAPIPE "'%s' --runs 1 '%s/old' 2>&1", RUNNER, tmp);
    char *out = wlt_run(cmd, &rc);
    assert_non_null(out);
    printf("%s", out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "old                              lanes "));
    assert_non_null(strstr(out, "  match\n"));
    free(out);

    /* a wave bundle that asks for a subgroup size is malformed */
    snprintf(cmd, sizeof(cmd),
             "'%s' run '%s/vector_add.w32.co' --kernel add --global 64 --local 64 --arg zero:256 "
             "--arg zero:256 --arg zero:256 --out 2:want.bin --model wave --bundle '%s/w' >/dev/null && "
             "cp '%s' '%s/w/want.bin' && sed -i 's/^subgroup 0$/subgroup 8/' '%s/w/manifest.txt' && "
             LAVAPIPE "'%s' --runs 1 '%s/w' 2>&1",
             WL_CLI, WL_KERNEL_DIR, tmp, path, tmp, tmp, RUNNER, tmp);
    out = wlt_run(cmd, &rc);
    assert_non_null(out);
    printf("%s", out);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(out, "model wave with subgroup 8 (must be 0)"));
    free(out);
}

int main(void)
{
    /* Under the sanitizer build the CLI and the runner are sanitized too:
     * leaks inside Mesa's lavapipe and its LLVM are suppressed. */
    if (!getenv("LSAN_OPTIONS"))
        setenv("LSAN_OPTIONS", "suppressions=" WL_SOURCE_DIR "/tests/lsan.supp:print_suppressions=0", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bundles),
        cmocka_unit_test(test_skip_and_usage),
        cmocka_unit_test(test_wave_bundles),
        cmocka_unit_test(test_manifest_compat),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
