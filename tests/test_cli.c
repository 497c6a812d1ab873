/* The command-line program's contract: exit statuses, where messages go,
 * and how bad input is listed.
 *
 *   0  success; 1 bad input (a message "wavelift: FILE: ..." on stderr);
 *   2  usage error (a message on stderr, nothing on stdout).
 *
 * Undecodable words are listed as ".long 0x%08x", the way llvm-objdump-19
 * lists them, and the listing goes on after them. Which words are
 * undefined is asked of llvm-mc-19, not assumed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

typedef struct run_result {
    int rc;
    char *out;
    char *err;
} run_result;

/* The group's state is a temporary directory for inputs and stderr. */
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

/* Runs `wavelift ARGS` (ARGS is shell text), capturing stdout and stderr. */
static run_result cli(const char *tmp, const char *args)
{
    char err_path[600], cmd[2048];
    snprintf(err_path, sizeof(err_path), "%s/stderr", tmp);
    snprintf(cmd, sizeof(cmd), "'%s' %s 2>'%s'", WL_CLI, args, err_path);
    run_result r;
    r.out = wlt_run(cmd, &r.rc);
    assert_non_null(r.out);
    size_t n;
    r.err = (char *)wlt_read_file(err_path, &n);
    assert_non_null(r.err);
    return r;
}

static void run_free(run_result *r)
{
    free(r->out);
    free(r->err);
}

static char *tmp_path(const char *tmp, const char *name)
{
    size_t n = strlen(tmp) + strlen(name) + 2;
    char *p = malloc(n);
    assert_non_null(p);
    snprintf(p, n, "%s/%s", tmp, name);
    return p;
}

static char *write_words(const char *tmp, const char *name, const uint32_t *w, size_t n, size_t extra_bytes)
{
    uint8_t buf[256];
    assert_true(4 * n + extra_bytes <= sizeof(buf));
    for (size_t i = 0; i < n; i++)
        for (int b = 0; b < 4; b++)
            buf[4 * i + b] = (uint8_t)(w[i] >> (8 * b));
    memset(buf + 4 * n, 0, extra_bytes);
    char *p = tmp_path(tmp, name);
    assert_int_equal(wlt_write_file(p, buf, 4 * n + extra_bytes), 0);
    return p;
}

/* llvm-mc-19's text for one encoding (gfx1030 wave64), or NULL when it
 * rejects it as an invalid encoding. */
static char *llvm_text(const char *tmp, const uint32_t *w, size_t n)
{
    char *in = tmp_path(tmp, "mc.txt");
    FILE *f = fopen(in, "w");
    assert_non_null(f);
    for (size_t i = 0; i < 4 * n; i++)
        fprintf(f, "0x%02x%s", (w[i / 4] >> (8 * (i % 4))) & 0xff, i + 1 < 4 * n ? "," : "\n");
    fclose(f);
    char cmd[2048];
    snprintf(cmd, sizeof(cmd),
             "'%s' -disassemble -triple=amdgcn-amd-amdhsa -mcpu=gfx1030 -mattr=+wavefrontsize64 "
             "'%s' 2>&1",
             WL_LLVM_MC, in);
    free(in);
    char *out = wlt_run(cmd, NULL);
    assert_non_null(out);
    char *res = NULL;
    if (!strstr(out, "invalid instruction encoding")) {
        char *line = strstr(out, "\t.text\n");
        line = line ? line + 7 : out;
        line[strcspn(line, "\n")] = '\0';
        wlt_squash(line);
        res = strdup(line);
    }
    free(out);
    return res;
}

/* The instruction lines of an --asm-only listing, squashed. */
static size_t asm_lines(char *out, char **lines, size_t cap)
{
    size_t n = 0;
    char *save = NULL;
    for (char *l = strtok_r(out, "\n", &save); l && n < cap; l = strtok_r(NULL, "\n", &save)) {
        wlt_squash(l);
        lines[n++] = l;
    }
    return n;
}

static void help_and_version(void **state)
{
    const char *tmp = *state;
    run_result r = cli(tmp, "--help");
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out, "usage: wavelift"));
    assert_string_equal(r.err, "");
    run_free(&r);

    r = cli(tmp, "dis --help");
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out, "--asm-only"));
    run_free(&r);

    r = cli(tmp, "--version");
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out, "wavelift 0."));
    assert_non_null(strstr(r.out, "LLVM 19."));
    assert_string_equal(r.err, "");
    run_free(&r);
}

static void usage_errors(void **state)
{
    const char *tmp = *state;
    static const char *const cases[] = {
        "",                                   /* no command */
        "frobnicate",                         /* unknown command */
        "dis",                                /* no file */
        "dis --bogus-option x.co",            /* unknown option */
        "dis --kernel",                       /* option without its value */
        "dis --mcpu",
        "dis a.co b.co",                      /* two files */
        "dis --mcpu gfx9999 " WL_KERNEL_DIR "/vector_add.w64.co", /* unknown target */
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        run_result r = cli(tmp, cases[i]);
        printf("wavelift %-60s -> exit %d, stderr: %.*s\n", cases[i], r.rc,
               (int)strcspn(r.err, "\n"), r.err);
        assert_int_equal(r.rc, 2);
        assert_string_equal(r.out, "");
        assert_true(strncmp(r.err, "wavelift: ", 10) == 0);
        run_free(&r);
    }
}

static void missing_file(void **state)
{
    const char *tmp = *state;
    char *p = tmp_path(tmp, "does-not-exist.co");
    char args[1024];
    snprintf(args, sizeof(args), "dis '%s'", p);
    run_result r = cli(tmp, args);
    assert_int_equal(r.rc, 1);
    assert_string_equal(r.out, "");
    char want[1100];
    snprintf(want, sizeof(want), "wavelift: %s: ", p);
    assert_true(strncmp(r.err, want, strlen(want)) == 0);
    run_free(&r);
    free(p);
}

/* A raw file whose last instruction is cut off: s_mov_b32 s0, s3, then the
 * first dword of the 8-byte s_load_dword s0, s[4:5], 0x24. */
static void truncated_raw(void **state)
{
    const char *tmp = *state;
    const uint32_t words[] = { 0xbe800303, 0xf4000002 };
    char *want0 = llvm_text(tmp, words, 1);
    assert_non_null(want0);
    char *p = write_words(tmp, "trunc.bin", words, 2, 0);
    char args[1024];
    snprintf(args, sizeof(args), "dis --raw --asm-only '%s'", p);
    run_result r = cli(tmp, args);
    printf("%s%s", r.out, r.err);
    assert_int_not_equal(r.rc, 0);
    char *lines[8];
    size_t n = asm_lines(r.out, lines, 8);
    assert_int_equal(n, 2);
    assert_string_equal(lines[0], want0);
    assert_string_equal(lines[1], ".long 0xf4000002");
    char want[1100];
    snprintf(want, sizeof(want), "wavelift: %s: offset 0x4: ", p);
    assert_non_null(strstr(r.err, want));
    run_free(&r);

    /* A tail of fewer than 4 bytes is listed and reported too. */
    char *q = write_words(tmp, "tail.bin", words, 1, 2);
    snprintf(args, sizeof(args), "dis --raw --asm-only '%s'", q);
    r = cli(tmp, args);
    assert_int_not_equal(r.rc, 0);
    n = asm_lines(r.out, lines, 8);
    assert_int_equal(n, 2);
    assert_string_equal(lines[0], want0);
    assert_true(strncmp(lines[1], ".long 0x", 8) == 0);
    snprintf(want, sizeof(want), "wavelift: %s: offset 0x4: ", q);
    assert_non_null(strstr(r.err, want));
    run_free(&r);
    free(want0);
    free(p);
    free(q);
}

/* Words llvm-mc-19 rejects, between valid ones: each is listed as
 * ".long 0x%08x" with a message naming its offset, and the listing goes on. */
static void undefined_opcodes(void **state)
{
    const char *tmp = *state;
    const uint32_t words[] = {
        0xbf800000, /* s_nop 0 */
        0xbe807f00, /* SOP1 opcode 0x7f */
        0x9f000000, /* SOP2 opcode 0x3e */
        0xbfb00000, /* SOPP opcode 0x30 */
        0xffffffff, /* no format */
        0xbf810000, /* s_endpgm */
    };
    enum { N = sizeof(words) / sizeof(words[0]) };
    char *want[N];
    for (size_t i = 0; i < N; i++) {
        want[i] = llvm_text(tmp, &words[i], 1);
        int valid = i == 0 || i == N - 1;
        if (valid != (want[i] != NULL))
            fail_msg("llvm-mc-19 %s 0x%08x", valid ? "rejects" : "accepts", words[i]);
        if (!want[i]) {
            want[i] = malloc(24);
            snprintf(want[i], 24, ".long 0x%08x", words[i]);
        }
    }
    char *p = write_words(tmp, "undef.bin", words, N, 0);
    char args[1024];
    snprintf(args, sizeof(args), "dis --raw --asm-only '%s'", p);
    run_result r = cli(tmp, args);
    printf("%s%s", r.out, r.err);
    assert_int_equal(r.rc, 1);
    char *lines[16];
    size_t n = asm_lines(r.out, lines, 16);
    assert_int_equal(n, N);
    for (size_t i = 0; i < N; i++)
        assert_string_equal(lines[i], want[i]);
    for (size_t i = 1; i + 1 < N; i++) {
        char msg[1100];
        snprintf(msg, sizeof(msg), "wavelift: %s: offset 0x%zx: ", p, 4 * i);
        if (!strstr(r.err, msg))
            fail_msg("stderr lacks \"%s\"", msg);
    }
    run_free(&r);
    for (size_t i = 0; i < N; i++)
        free(want[i]);
    free(p);
}

static void kernel_selection(void **state)
{
    const char *tmp = *state;
    const char *co = WL_KERNEL_DIR "/lane_builtins.w64.co";
    run_result r = cli(tmp, "dis --kernel no_such_kernel '" WL_KERNEL_DIR "/lane_builtins.w64.co'");
    assert_int_equal(r.rc, 1);
    assert_string_equal(r.out, "");
    char want[1024];
    snprintf(want, sizeof(want), "wavelift: %s: ", co);
    assert_true(strncmp(r.err, want, strlen(want)) == 0);
    assert_non_null(strstr(r.err, "no_such_kernel"));
    run_free(&r);

    /* With a name that exists: exactly that kernel's label. */
    r = cli(tmp, "dis --kernel lanes_dpp '" WL_KERNEL_DIR "/lane_builtins.w64.co'");
    assert_true(r.rc == 0 || r.rc == 1); /* 1 while some instructions do not decode */
    size_t labels = 0;
    char *save = NULL;
    for (char *l = strtok_r(r.out, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        if (l[0] != '\t' && l[0] != ';' && l[strlen(l) - 1] == ':') {
            assert_string_equal(l, "lanes_dpp:");
            labels++;
        }
    assert_int_equal(labels, 1);
    run_free(&r);

    /* --kernel makes no sense for raw code. */
    const uint32_t nop = 0xbf800000;
    char *p = write_words(tmp, "nop.bin", &nop, 1, 0);
    char args[1024];
    snprintf(args, sizeof(args), "dis --raw --kernel x '%s'", p);
    r = cli(tmp, args);
    assert_int_equal(r.rc, 2);
    run_free(&r);
    free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(help_and_version),
        cmocka_unit_test(usage_errors),
        cmocka_unit_test(missing_file),
        cmocka_unit_test(truncated_raw),
        cmocka_unit_test(undefined_opcodes),
        cmocka_unit_test(kernel_selection),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
