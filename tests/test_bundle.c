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
#include <sys/stat.h>
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

/* suite_zrodata.cl's rodata_tables, from its source: the tables it reads
 * from the code object's .rodata (through s_getpc-relative addresses,
 * so the bundle must carry the loaded image and map it). */
static const uint32_t K32[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
    0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
    0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
    0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
    0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
    0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
    0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u};
static const uint8_t SBOX[32] = {0x63, 0x7c, 0x77, 0x7b, 0xf2, 0x6b, 0x6f, 0xc5, 0x30, 0x01, 0x67,
                                 0x2b, 0xfe, 0xd7, 0xab, 0x76, 0xca, 0x82, 0xc9, 0x7d, 0xfa, 0x59,
                                 0x47, 0xf0, 0xad, 0xd4, 0xa2, 0xaf, 0x9c, 0xa4, 0x72, 0xc0};
static const uint64_t K64[8] = {0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull, 0x3c6ef372fe94f82bull,
                                0xa54ff53a5f1d36f1ull, 0x510e527fade682d1ull, 0x9b05688c2b3e6c1full,
                                0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull};
static const float FT[8] = {0.5f, -1.25f, 3.0f, 1e-3f, -7.5f, 2.0e5f, 0.125f, -0.0f};

static uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static void ref_rodata_tables(const uint32_t *in, uint32_t *out)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t x = in[i], *o = out + i * 16;
        o[0] = K32[(i / 64) & 63];
        o[1] = K32[x & 63];
        o[2] = SBOX[(x >> 8) & 31];
        uint64_t q = K64[(x >> 16) & 7];
        o[3] = (uint32_t)q;
        o[4] = (uint32_t)(q >> 32);
        o[5] = f2u(FT[(x >> 20) & 7] * (float)(x & 255));
        uint32_t h = x;
        for (uint32_t r = 0; r < (x & 7) + 1; r++)
            h = (h << 7 | h >> 25) ^ K32[(h + r) & 63] ^ SBOX[h & 31];
        o[6] = h;
        uint32_t s = 0;
        for (uint32_t r = 0; r < 64; r++)
            s = s * 33u + K32[r];
        o[7] = s;
        o[8] = K32[63 - (x & 63)] + SBOX[31 - ((x >> 3) & 31)];
        uint64_t q2 = K64[i & 7] ^ K64[(i >> 3) & 7];
        o[9] = (uint32_t)q2;
        o[10] = (uint32_t)(q2 >> 32);
        o[11] = K32[(x >> 26) & 63] ^ K32[(x >> 6) & 63];
        o[12] = SBOX[i & 31];
        o[13] = f2u(FT[i & 7]);
        o[14] = i;
        o[15] = x;
    }
}

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

/* Runs cmd (its output shown); it must exit with want_rc and print needle. */
static void expect_run(const char *cmd, int want_rc, const char *needle)
{
    int rc;
    char *out = wlt_run(cmd, &rc);
    assert_non_null(out);
    printf("%s", out);
    assert_int_equal(rc, want_rc);
    assert_non_null(strstr(out, needle));
    free(out);
}

/* Edits bundle DIR's manifest with the sed(1) program `sed` (no single
 * quotes in it), runs the bundle on lavapipe, and expects exit want_rc
 * with `needle` in the output. */
static void edit_and_run(const char *dir, const char *sed, int want_rc, const char *needle)
{
    char cmd[4096];
    snprintf(cmd, sizeof(cmd), "sed -i '%s' '%s/manifest.txt' && " LAVAPIPE "'%s' --runs 1 '%s' 2>&1", sed, dir,
             RUNNER, dir);
    expect_run(cmd, want_rc, needle);
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
    expect_run(cmd, 1, "MISMATCH: buffer 2 word 10:");
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
    expect_run(cmd, 3, "SKIPPED: written for subgroup size 32");
    snprintf(cmd, sizeof(cmd),
             "'%s' run '%s/vector_add.w64.co' --kernel add --global 64 --local 64 --arg zero:256 "
             "--arg zero:256 --arg zero:256 --bundle '%s/x' 2>&1",
             WL_CLI, WL_KERNEL_DIR, tmp);
    expect_run(cmd, 2, "--bundle needs --subgroup-size");
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
    expect_run(cmd, 1, "model wave with subgroup 8 (must be 0)");

    /* each manifest field checked and named: a word count the module
     * file does not have, a push line without its size */
    char dir[800];
    snprintf(dir, sizeof(dir), "%s/w", tmp);
    edit_and_run(dir, "s/^subgroup 8$/subgroup 0/; s/^\\(spirv [^ ]*\\) [0-9]*$/\\1 7/", 1,
                 "manifest field spirv: 7 words, but module.spv holds");
    edit_and_run(dir, "s/^spirv \\([^ ]*\\) 7$/spirv \\1/; s/^push [0-9]* /push /", 1,
                 "field push: malformed (wants once, BYTES FILE");
}

/* A `save N FILE` line (docs/bundle.md): the runner writes buffer N after
 * the first dispatch, so a bundle that makes a reference needs no check
 * (native_vs_lifted's GLSL half). vector_add as a wave-model bundle (it
 * runs on lavapipe) with its check turned into a save: it runs, and the
 * file holds a + b as computed here; a save to a folder that does not
 * exist fails the bundle. */
static void test_save_line(void **state)
{
    const char *tmp = *state;
    int32_t a[64], b[64], want[64];
    for (int i = 0; i < 64; i++) {
        a[i] = 3 * i + 1;
        b[i] = 0x10000 - 7 * i;
        want[i] = a[i] + b[i];
    }
    char pa[800], pb[800], cmd[4096];
    snprintf(pa, sizeof(pa), "%s/save_a.bin", tmp);
    snprintf(pb, sizeof(pb), "%s/save_b.bin", tmp);
    assert_int_equal(wlt_write_file(pa, a, sizeof(a)), 0);
    assert_int_equal(wlt_write_file(pb, b, sizeof(b)), 0);
    snprintf(cmd, sizeof(cmd),
             "'%s' run '%s/vector_add.w32.co' --kernel add --global 64 --local 64 --arg buf:'%s' --arg buf:'%s' "
             "--arg zero:256 --out 2:want.bin --model wave --bundle '%s/save' >/dev/null && "
             "sed -i 's/^check \\([0-9]*\\) want.bin$/save \\1 saved.bin/' '%s/save/manifest.txt' && "
             "grep -c '^save ' '%s/save/manifest.txt' && " LAVAPIPE "'%s' --runs 1 '%s/save' 2>&1",
             WL_CLI, WL_KERNEL_DIR, pa, pb, tmp, tmp, tmp, RUNNER, tmp);
    expect_run(cmd, 0, "  match\n");
    char path[800];
    snprintf(path, sizeof(path), "%s/save/saved.bin", tmp);
    size_t n = 0;
    uint8_t *got = wlt_read_file(path, &n);
    assert_non_null(got);
    assert_true(n >= sizeof(want));
    assert_memory_equal(got, want, sizeof(want));
    free(got);
    /* the same bundle saving where it cannot write: a failure, not a
     * match; a name outside the bundle (a folder, ..) is the manifest's
     * fault, named */
    char dir[700];
    snprintf(dir, sizeof(dir), "%s/save", tmp);
    snprintf(path, sizeof(path), "%s/adir", dir);
    assert_int_equal(mkdir(path, 0777), 0);
    edit_and_run(dir, "s|^save \\([0-9]*\\) saved.bin$|save \\1 adir|", 1, "cannot write the saved output");
    edit_and_run(dir, "s|^save \\([0-9]*\\) adir$|save \\1 no/such/dir/saved.bin|", 1,
                 "field save: malformed (wants BUFFER FILE, FILE a name in the bundle or ../NAME)");
    edit_and_run(dir, "s|^save \\([0-9]*\\) no/such/dir/saved.bin$|save \\1 saved.bin|; s|^spirv \\([^ ]*\\)|spirv ../../\\1|",
                 1, "field spirv: malformed (wants FILE [WORDS], FILE a name in the bundle or ../NAME)");
}

/* A kernel reading the code object's .rodata (suite_zrodata.cl) through
 * the bundle path: the bundle carries the loaded image in its guest arena
 * (format 2: `arena` and `place` lines) and the runner maps it; before,
 * such a bundle crashed the driver. Both wave sizes, S = 8. */
static void test_rodata_bundle(void **state)
{
    const char *tmp = *state;
    uint32_t in[256], *want = malloc(4096 * 4);
    assert_non_null(want);
    uint32_t x = 0x2545f491u;
    for (unsigned i = 0; i < 256; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        in[i] = x;
    }
    ref_rodata_tables(in, want);
    char path[800], cmd[4096], dirs[2048] = "";
    snprintf(path, sizeof(path), "%s/rodata.in", tmp);
    assert_int_equal(wlt_write_file(path, in, sizeof(in)), 0);
    size_t dl = 0;
    for (unsigned wave = 64; wave >= 32; wave -= 32) {
        char dir[700];
        snprintf(dir, sizeof(dir), "%s/rodata_tables.w%u", tmp, wave);
        snprintf(cmd, sizeof(cmd),
                 "'%s' run '%s/suite_zrodata.w%u.co' --kernel rodata_tables --global 256 --local 64 "
                 "--arg buf:'%s' --arg zero:16384 --out 1:want.bin --subgroup-size 8 --bundle '%s' 2>&1",
                 WL_CLI, WL_KERNEL_DIR, wave, path, dir);
        int rc;
        char *out = wlt_run(cmd, &rc);
        assert_non_null(out);
        printf("rodata_tables w%u: %s", wave, out);
        assert_int_equal(rc, 0);
        free(out);
        assert_true(manifest_has(dir, "wavelift-bundle 2"));
        snprintf(cmd, sizeof(cmd), "grep -c '^place ' '%s/manifest.txt'", dir);
        out = wlt_run(cmd, &rc);
        assert_non_null(out);
        assert_true(atoi(out) >= 5); /* image, 2 arguments, kernarg, packet, queue */
        free(out);
        snprintf(cmd, sizeof(cmd), "%s/want.bin", dir);
        assert_int_equal(wlt_write_file(cmd, want, 4096 * 4), 0);
        dl += (size_t)snprintf(dirs + dl, sizeof(dirs) - dl, " '%s'", dir);
    }
    free(want);
    int rc;
    unsigned match;
    char *out = run_bundles(dirs, &rc, &match);
    printf("bundle (.rodata through the carried image): 2 bundles, %u match\n", match);
    assert_int_equal(rc, 0);
    assert_int_equal(match, 2);
    free(out);
    /* a runner of format 1 refuses it: version 2 is not 1 (checked here by
     * asking this runner for a format-2 bundle without its arena) */
    snprintf(cmd, sizeof(cmd),
             "cp -r '%s/rodata_tables.w64' '%s/noarena' && sed -i '/^arena /d;/^place /d' "
             "'%s/noarena/manifest.txt' && " LAVAPIPE "'%s' --runs 1 '%s/noarena' 2>&1",
             tmp, tmp, tmp, RUNNER, tmp);
    expect_run(cmd, 1, "format 2: arena");
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
        cmocka_unit_test(test_rodata_bundle),
        cmocka_unit_test(test_save_line),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
