/* The pipeline's debug option (lower/pipeline.c, docs/architecture.md "The
 * pipeline"), through the command line and WAVELIFT_PASSES: `list` shows the
 * table of the model and -O level, `time` a line a pass, `print-after=NAME`
 * the module after that pass, `skip=NAME` leaves an optional pass out (the
 * module changes, and does as the pass's purpose says), a step of a model
 * cannot be skipped, and a bad item is a usage error naming it. The whole
 * suite runs with WAVELIFT_PASSES=verify (tests/CMakeLists.txt). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

static char tmp_spv[512];

/* `wavelift lift` of vector_add (wave64) with WAVELIFT_PASSES=spec and the
 * extra options; stdout and stderr together */
static char *lift(const char *spec, const char *extra, int *status)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "WAVELIFT_PASSES='%s' '%s' lift '%s/vector_add.w64.co' --kernel add -o '%s' %s 2>&1", spec, WL_CLI,
             WL_KERNEL_DIR, tmp_spv, extra);
    char *out = wlt_run(cmd, status);
    assert_non_null(out);
    return out;
}

/* `list` of the table the options choose names every pass of want[] and
 * not `absent` */
static void lists(const char *extra, const char *const *want, size_t n, const char *absent)
{
    int st;
    char *out = lift("list", extra, &st);
    assert_int_equal(st, 0);
    for (size_t i = 0; i < n; i++) {
        char key[96];
        snprintf(key, sizeof key, "wavelift passes: %s ", want[i]);
        if (!strstr(out, key))
            fail_msg("list (%s) lacks %s:\n%s", extra, want[i], out);
    }
    if (strstr(out, absent))
        fail_msg("list (%s) names %s:\n%s", extra, absent, out);
    free(out);
}

static void list_shows_tables(void **state)
{
    (void)state;
    static const char *const lanes[] = {"loop-budget",       "fold-prepare",   "promote-registers", "fold-lane-bits",
                                        "fold-masked-selects", "fold-ballot-tests", "lower-lanes",  "verify-lowered",
                                        "vectorize-lanes",   "merge-loads",    "fold-pair64",       "outline-fma"};
    static const char *const wave[] = {"wave-begin", "promote-registers", "wave-lane-bits", "wave-settle",
                                       "wave-dse",   "wave-lower",        "o2",             "outline-fma"};
    static const char *const o0[] = {"loop-budget", "lower-lanes", "verify-lowered"};
    lists("--subgroup-size 32 -O2", lanes, sizeof lanes / sizeof lanes[0], "wave-begin");
    lists("--model wave -O2", wave, sizeof wave / sizeof wave[0], "lower-lanes");
    lists("--subgroup-size 32 -O0", o0, sizeof o0 / sizeof o0[0], "fold-lane-bits"); /* -O0: no optimization pass */
}

static void time_and_print(void **state)
{
    (void)state;
    int st;
    char *out = lift("time,print-after=lower-lanes", "--subgroup-size 32 -O2", &st);
    assert_int_equal(st, 0);
    /* one timing line a pass that ran: two fold-lane-bits, ms figures */
    size_t lines = 0;
    for (const char *p = out; (p = strstr(p, "wavelift passes: fold-lane-bits ")); p++)
        lines++;
    assert_int_equal(lines, 2);
    assert_non_null(strstr(out, " ms "));
    const char *mod = strstr(out, "; ---- wavelift: the module after pass lower-lanes ----");
    assert_non_null(mod);
    /* the lowered module: @main's body, no wave-IR function left */
    assert_non_null(strstr(mod, "define"));
    free(out);
}

/* words of the module written by the last lift */
static size_t words_of(uint32_t **w)
{
    size_t n = 0;
    uint8_t *b = wlt_read_file(tmp_spv, &n);
    assert_non_null(b);
    *w = (uint32_t *)b;
    return n / 4;
}

/* SPIR-V instructions with opcode op (the header's 5 words skipped) */
static size_t count_op(const uint32_t *w, size_t n, unsigned op)
{
    size_t c = 0;
    for (size_t i = 5; i < n;) {
        unsigned len = w[i] >> 16;
        if ((w[i] & 0xffff) == op)
            c++;
        if (!len)
            break;
        i += len;
    }
    return c;
}

static void skip_changes_module(void **state)
{
    (void)state;
    int st;
    uint32_t *with = NULL, *without = NULL;
    char *out = lift("", "--subgroup-size 16 -O2", &st); /* k = 4: vectors of 4 lanes */
    assert_int_equal(st, 0);
    free(out);
    size_t nw = words_of(&with);
    out = lift("skip=vectorize-lanes", "--subgroup-size 16 -O2", &st);
    assert_int_equal(st, 0);
    free(out);
    size_t nwo = words_of(&without);
    /* OpTypeVector (23): the vectorized module has vectors of lane clones,
     * the module without the pass only those of the memory helpers */
    size_t vec_with = count_op(with, nw, 23), vec_without = count_op(without, nwo, 23);
    printf("k = 4: %zu words (%zu vector types) vectorized, %zu (%zu) with skip=vectorize-lanes\n", nw, vec_with, nwo,
           vec_without);
    assert_true(nw != nwo || memcmp(with, without, nw * 4) != 0);
    assert_true(vec_with > vec_without);
    free(with);
    free(without);
}

/* the exact fma emitted once a type and called (llvm-passes/outline_fma.c):
 * double_ops (tests/kernels/suite_types.cl) has several double fma,
 * f32_libm (float_math.cl) hundreds of float ones; their results are checked
 * against PoCL by test_suite_run, and the routine's by test_backend_exec */
static void fma_outlined(void **state)
{
    (void)state;
    static const struct {
        const char *obj, *kernel;
        unsigned factor; /* measured: double_ops 5,181 against 53,703; f32_libm 23,501 against 51,740 */
    } cases[] = {{"suite_types.w64.co", "double_ops", 4}, {"float_math.w64.co", "f32_libm", 2}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char cmd[2048];
        size_t words[2], funcs[2];
        for (int skip = 0; skip < 2; skip++) {
            snprintf(cmd, sizeof cmd,
                     "WAVELIFT_PASSES='%s' '%s' lift '%s/%s' --kernel %s -o '%s' --subgroup-size 32 2>&1",
                     skip ? "skip=outline-fma" : "", WL_CLI, WL_KERNEL_DIR, cases[c].obj, cases[c].kernel, tmp_spv);
            int st;
            char *out = wlt_run(cmd, &st);
            assert_non_null(out);
            if (st != 0)
                fail_msg("%s", out);
            free(out);
            uint32_t *w;
            words[skip] = words_of(&w);
            funcs[skip] = count_op(w, words[skip], 54); /* OpFunction */
            free(w);
        }
        printf("%s, k = 2: %zu words in %zu functions with the fma called, %zu in %zu inline\n", cases[c].kernel,
               words[0], funcs[0], words[1], funcs[1]);
        assert_true(funcs[0] > funcs[1]); /* the routine is a function of its own */
        assert_true(words[0] * cases[c].factor < words[1]);
    }
}

/* a pass that is off by default (F_OFF: subgroup-reduce) runs only where
 * run=NAME names it: a timing line then, none without */
static void off_passes(void **state)
{
    (void)state;
    int st;
    char *out = lift("time", "--subgroup-size 32 -O2", &st);
    assert_int_equal(st, 0);
    assert_null(strstr(out, "wavelift passes: subgroup-reduce "));
    free(out);
    out = lift("time,run=subgroup-reduce", "--subgroup-size 32 -O2", &st);
    assert_int_equal(st, 0);
    assert_non_null(strstr(out, "wavelift passes: subgroup-reduce "));
    free(out);
    out = lift("list", "--subgroup-size 32 -O2", &st);
    assert_int_equal(st, 0);
    assert_non_null(strstr(out, "(off: run=NAME runs it)"));
    free(out);
}

static void bad_items(void **state)
{
    (void)state;
    static const struct {
        const char *spec, *extra, *want;
    } bad[] = {
        {"verfy", "--subgroup-size 32", "unknown item 'verfy'"},
        {"skip=no-such-pass", "--subgroup-size 32", "no pass is named 'no-such-pass'"},
        {"print-after=nope", "--subgroup-size 32", "no pass is named 'nope'"},
        {"run=nope", "--subgroup-size 32", "no pass is named 'nope'"},
        {"skip=lower-lanes", "--subgroup-size 32", "lower-lanes is a step of the model"},
        {"skip=wave-lower", "--model wave", "wave-lower is a step of the model"},
        {"skip=promote-registers", "--model wave", "promote-registers is a step of the model"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int st;
        char *out = lift(bad[i].spec, bad[i].extra, &st);
        if (st == 0 || !strstr(out, bad[i].want))
            fail_msg("WAVELIFT_PASSES=%s: status %d, want a refusal with \"%s\":\n%s", bad[i].spec, st, bad[i].want,
                     out);
        free(out);
    }
    /* an optional pass of one model may be skipped in the other's table */
    int st;
    char *out = lift("skip=promote-registers", "--subgroup-size 32", &st);
    assert_int_equal(st, 0);
    free(out);
}

int main(void)
{
    char *dir = wlt_tmpdir();
    if (!dir)
        return 1;
    snprintf(tmp_spv, sizeof tmp_spv, "%s/out.spv", dir);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(list_shows_tables),
        cmocka_unit_test(time_and_print),
        cmocka_unit_test(skip_changes_module),
        cmocka_unit_test(fma_outlined),
        cmocka_unit_test(off_passes), cmocka_unit_test(bad_items),
    };
    int r = cmocka_run_group_tests(tests, NULL, NULL);
    remove(tmp_spv);
    free(dir);
    return r;
}
