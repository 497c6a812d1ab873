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

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* ---- the option table (cli/options.c) ------------------------------------ */

static const char *const subcommands[] = {"dis", "lift", "run", "replay", "size"};
#define NSUB (sizeof(subcommands) / sizeof(subcommands[0]))
#define MAX_NAMES 128

/* The option names a help text lists: its lines "  -NAME ...". */
static size_t help_names(char *help, char **names, size_t cap)
{
    size_t n = 0;
    char *save = NULL;
    for (char *l = strtok_r(help, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        if (l[0] == ' ' && l[1] == ' ' && l[2] == '-' && n < cap) {
            l[2 + strcspn(l + 2, " ")] = '\0';
            names[n++] = l + 2;
        }
    return n;
}

static int has_name(char *const *names, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return 1;
    return 0;
}

/* docs/cli.md's table of options: rows "| `NAME [VALUE]` | dis, lift | ... |".
 * name[i] gets the option, cmds[i] the subcommands (in the text, in place). */
static size_t doc_table(char *doc, char **name, char **cmds, size_t cap)
{
    size_t n = 0;
    char *save = NULL;
    for (char *l = strtok_r(doc, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        if (strncmp(l, "| `-", 4) != 0 || n == cap)
            continue;
        char *nm = l + 3;
        char *bar = strchr(nm, '|');
        assert_non_null(bar);
        char *c = bar + 1;
        char *bar2 = strchr(c, '|');
        assert_non_null(bar2);
        *bar2 = '\0';
        nm[strcspn(nm, " `")] = '\0';
        name[n] = nm;
        cmds[n] = c;
        n++;
    }
    return n;
}

/* Whether the subcommands cell ("dis, lift, run") names cmd. */
static int cell_names(const char *cell, const char *cmd)
{
    size_t len = strlen(cmd);
    for (const char *p = cell; (p = strstr(p, cmd)) != NULL; p += len) {
        int start = p == cell || p[-1] == ' ' || p[-1] == ',';
        int end = p[len] == ',' || p[len] == ' ' || p[len] == '\0';
        if (start && end)
            return 1;
    }
    return 0;
}

/* `wavelift CMD --help` lists exactly the options docs/cli.md's table gives
 * CMD (the table there is written by hand, the help from cli/options.c),
 * and `wavelift --help` names every option docs/cli.md names. Before the
 * table, --help printed one fixed text without --model, --loop-budget or
 * --lds-limit, the same for every subcommand. */
static void help_lists_options(void **state)
{
    const char *tmp = *state;
    size_t docsize;
    char *doc = (char *)wlt_read_file(WL_SOURCE_DIR "/docs/cli.md", &docsize);
    assert_non_null(doc);
    char *doc2 = strdup(doc);
    assert_non_null(doc2);
    char *dname[MAX_NAMES], *dcmds[MAX_NAMES];
    size_t nd = doc_table(doc, dname, dcmds, MAX_NAMES);
    printf("docs/cli.md's table: %zu options\n", nd);
    assert_true(nd >= 30);
    for (size_t c = 0; c < NSUB; c++) {
        char args[64];
        snprintf(args, sizeof args, "%s --help", subcommands[c]);
        run_result r = cli(tmp, args);
        assert_int_equal(r.rc, 0);
        assert_string_equal(r.err, "");
        char *hn[MAX_NAMES];
        size_t nh = help_names(r.out, hn, MAX_NAMES);
        size_t want = 0;
        for (size_t i = 0; i < nd; i++) {
            if (!cell_names(dcmds[i], subcommands[c]))
                continue;
            want++;
            if (!has_name(hn, nh, dname[i]))
                fail_msg("wavelift %s --help does not list %s (docs/cli.md: %s)", subcommands[c],
                         dname[i], dcmds[i]);
        }
        for (size_t i = 0; i < nh; i++) {
            int found = 0;
            for (size_t j = 0; j < nd && !found; j++)
                found = strcmp(dname[j], hn[i]) == 0 && cell_names(dcmds[j], subcommands[c]);
            if (!found)
                fail_msg("wavelift %s --help lists %s, which docs/cli.md does not give %s",
                         subcommands[c], hn[i], subcommands[c]);
        }
        printf("wavelift %-6s --help: %zu options, as docs/cli.md\n", subcommands[c], nh);
        assert_int_equal(nh, want);
        run_free(&r);
    }
    /* every option named anywhere in docs/cli.md, in the whole help */
    run_result r = cli(tmp, "--help");
    assert_int_equal(r.rc, 0);
    char *hn[4 * MAX_NAMES];
    size_t nh = help_names(r.out, hn, 4 * MAX_NAMES);
    /* options of other programs that docs/cli.md names */
    static const char *const others[] = {"--disassemble-symbols"};
    size_t named = 0;
    for (char *p = doc2; (p = strchr(p, '-')) != NULL; p++) {
        if (p > doc2 && (p[-1] == '-' || p[-1] == '_' || isalnum((unsigned char)p[-1])))
            continue;
        size_t len;
        if (p[1] == '-' && islower((unsigned char)p[2])) {
            len = 2 + strspn(p + 2, "abcdefghijklmnopqrstuvwxyz0123456789-");
        } else if ((p[1] == 'O' && isdigit((unsigned char)p[2]) && !isalnum((unsigned char)p[3])) ||
                   (p[1] == 'o' && !isalnum((unsigned char)p[2]) && p[2] != '-')) {
            len = p[1] == 'O' ? 3 : 2;
        } else {
            continue;
        }
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)len, p);
        int other = 0;
        for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++)
            other |= strcmp(name, others[i]) == 0;
        if (other)
            continue;
        named++;
        if (!has_name(hn, nh, name))
            fail_msg("docs/cli.md names %s; wavelift --help does not list it", name);
        p += len - 1;
    }
    printf("docs/cli.md names options %zu times, all in wavelift --help\n", named);
    run_free(&r);
    free(doc);
    free(doc2);
}

/* An unknown option, one of another subcommand, a missing value and a
 * value given to a flag: exit 2, nothing on stdout, the option named. */
static void bad_options(void **state)
{
    const char *tmp = *state;
    static const struct {
        const char *args, *named;
    } cases[] = {
        {"dis --no-such-option x.co", "--no-such-option"},
        {"lift x.co --no-such-option", "--no-such-option"},
        {"run x.co --no-such-option", "--no-such-option"},
        {"replay --no-such-option cap", "--no-such-option"},
        {"lift x.co --no-such=1", "unknown option: --no-such"},
        {"replay cap --no-such=1", "unknown option: --no-such"},
        {"dis --model lanes x.co", "--model"},        /* lift's, run's and replay's */
        {"replay --kernel add cap", "--kernel"},      /* not replay's */
        {"lift x.co -O3", "-O3"},
        {"dis --raw=1 x.co", "--raw=1"},              /* a flag takes no value */
        {"lift x.co --emit-llvm=yes", "--emit-llvm"},
        {"dis x.co --kernel", "--kernel"},            /* a missing value */
        {"lift x.co --kernel", "--kernel"},
        {"run x.co --global", "--global"},
        {"replay cap --mapping", "--mapping"},
        {"replay cap --mapping=nowhere", "--mapping"}, /* a bad value */
        {"run x.co --runs=0", "--runs"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        run_result r = cli(tmp, cases[i].args);
        printf("wavelift %-32s -> exit %d: %.*s\n", cases[i].args, r.rc, (int)strcspn(r.err, "\n"),
               r.err);
        assert_int_equal(r.rc, 2);
        assert_string_equal(r.out, "");
        assert_true(strncmp(r.err, "wavelift: ", 10) == 0);
        if (!strstr(r.err, cases[i].named))
            fail_msg("wavelift %s: the message does not name %s", cases[i].args, cases[i].named);
        run_free(&r);
    }
}

/* Runs `wavelift ARGS` and returns stdout with the lines holding "ms"
 * (timings) removed. */
static char *cli_untimed(const char *tmp, const char *args, int *rc)
{
    run_result r = cli(tmp, args);
    *rc = r.rc;
    if (r.rc)
        printf("wavelift %s -> exit %d\n%s%s", args, r.rc, r.out, r.err);
    char *out = r.out;
    char *w = out;
    for (char *l = out; *l;) {
        size_t n = strcspn(l, "\n");
        int nl = l[n] == '\n';
        char line[512];
        snprintf(line, sizeof line, "%.*s", (int)n, l);
        if (!strstr(line, " ms") && !strstr(line, "translate-ms")) {
            memmove(w, l, n + nl);
            w += n + nl;
        }
        l += n + nl;
    }
    *w = '\0';
    free(r.err);
    return out;
}

static void assert_same_file(const char *a, const char *b)
{
    size_t na, nb;
    uint8_t *da = wlt_read_file(a, &na), *db = wlt_read_file(b, &nb);
    if (!da || !db)
        fail_msg("cannot read %s or %s", a, b);
    if (na != nb || memcmp(da, db, na))
        fail_msg("%s and %s differ", a, b);
    free(da);
    free(db);
}

/* `--opt=VALUE` does what `--opt VALUE` does, for every subcommand. Before
 * the table only dis took `--mcpu=` and `--kernel=`; lift and run refused
 * every `=` form ("unknown option"). */
static void equals_forms(void **state)
{
    const char *tmp = *state;
    char args[4096];
    int rc;
    /* dis */
    const char *calls = WL_KERNEL_DIR "/calls.w64.co";
    snprintf(args, sizeof args, "dis --kernel call_many --mcpu gfx1030 --wave64 '%s'", calls);
    char *a = cli_untimed(tmp, args, &rc);
    assert_int_equal(rc, 0);
    snprintf(args, sizeof args, "dis --kernel=call_many --mcpu=gfx1030 --wave64 '%s'", calls);
    char *b = cli_untimed(tmp, args, &rc);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(a, "\ncall_many:\n"));
    assert_null(strstr(a, "\ncall_simple:\n"));
    assert_string_equal(a, b);
    free(a);
    free(b);

    /* lift: the same module, and the values taken (k = 64 / 16) */
    const char *va = WL_KERNEL_DIR "/vector_add.w64.co";
    snprintf(args, sizeof args,
             "lift '%s' --kernel add --subgroup-size 16 --model lanes --local 64 --scratch device "
             "-O2 --no-vectorize -o '%s/space.spv'", va, tmp);
    a = cli_untimed(tmp, args, &rc);
    assert_int_equal(rc, 0);
    snprintf(args, sizeof args,
             "lift '%s' --kernel=add --subgroup-size=16 --model=lanes --local=64 --scratch=device "
             "-O2 --no-vectorize '-o%s/eq.spv'", va, tmp);
    b = cli_untimed(tmp, args, &rc);
    assert_int_equal(rc, 0);
    printf("%s", b);
    assert_non_null(strstr(b, "model: lanes (asked for (--model lanes))\n"));
    assert_non_null(strstr(b, "subgroup size: 16\nk: 4\n"));
    assert_string_equal(a, b);
    free(a);
    free(b);
    char *p = tmp_path(tmp, "space.spv"), *q = tmp_path(tmp, "eq.spv");
    assert_same_file(p, q);
    free(p);
    free(q);

    /* run --bundle (no device): the same bundle */
    const char *run_args =
        "run '%s' --kernel%sadd --global%s64 --local%s64 --arg%szero:256 --arg%szero:256 "
        "--arg%szero:256 --out%s2:want.bin --subgroup-size%s8 --model%slanes --scratch%sauto "
        "--loop-budget%s1000 --bundle%s'%s/%s'";
    const char *forms[2] = {" ", "="};
    const char *dirs[2] = {"bspace", "beq"};
    char *outs[2];
    for (int f = 0; f < 2; f++) {
        const char *e = forms[f];
        snprintf(args, sizeof args, run_args, va, e, e, e, e, e, e, e, e, e, e, e, e, tmp, dirs[f]);
        outs[f] = cli_untimed(tmp, args, &rc);
        assert_int_equal(rc, 0);
    }
    /* the output names the folder */
    assert_non_null(strstr(outs[1], "beq\n"));
    assert_non_null(strstr(outs[1], "subgroup size: 8\nk: 8\n"));
    char *nl0 = strchr(outs[0], '\n'), *nl1 = strchr(outs[1], '\n');
    assert_string_equal(nl0, nl1);
    free(outs[0]);
    free(outs[1]);
    static const char *const files[] = {"module.spv", "push.bin", "buf.4.bin"};
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        char x[1024], y[1024];
        snprintf(x, sizeof x, "%s/bspace/%s", tmp, files[i]);
        snprintf(y, sizeof y, "%s/beq/%s", tmp, files[i]);
        assert_same_file(x, y);
    }
    char m[1024];
    snprintf(m, sizeof m, "grep -v '^translate-ms' '%s/bspace/manifest.txt' > '%s/m0' && "
                          "grep -v '^translate-ms' '%s/beq/manifest.txt' > '%s/m1' && "
                          "cmp '%s/m0' '%s/m1' && grep -q '^check 2 want.bin$' '%s/m1'",
             tmp, tmp, tmp, tmp, tmp, tmp, tmp);
    free(wlt_run(m, &rc));
    assert_int_equal(rc, 0);

    /* run on lavapipe, written as a capture, and its replay: every value
     * with '='; c = a + b, computed here */
    int32_t va_in[64], vb_in[64], want[64];
    for (int i = 0; i < 64; i++) {
        va_in[i] = i * 3 - 20;
        vb_in[i] = 1000 * i + 7;
        want[i] = va_in[i] + vb_in[i];
    }
    char *fa = tmp_path(tmp, "a.bin"), *fb = tmp_path(tmp, "b.bin");
    assert_int_equal(wlt_write_file(fa, va_in, sizeof va_in), 0);
    assert_int_equal(wlt_write_file(fb, vb_in, sizeof vb_in), 0);
    snprintf(args, sizeof args,
             "run '%s' --kernel=add --global=64 --local=64 '--arg=buf:%s' '--arg=buf:%s' "
             "--arg=zero:256 '--out=2:%s/c.bin' '--capture=%s/cap' --device=llvmpipe "
             "--model=wave --runs=2 --timeout-ms=60000", va, fa, fb, tmp, tmp);
    a = cli_untimed(tmp, args, &rc);
    printf("%s", a);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(a, "model: wave (asked for (--model wave))\n"));
    free(a);
    snprintf(args, sizeof args,
             "replay --model=wave --runs=1 --mapping=pages --timeout-ms=60000 --device=llvmpipe "
             "'--out-dir=%s/od' -O0 '%s/cap'", tmp, tmp);
    a = cli_untimed(tmp, args, &rc);
    printf("%s", a);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(a, "model: wave\n"));
    assert_non_null(strstr(a, "mapping: pages, "));
    free(a);
    static const char *const results[] = {"c.bin", "od/arg2.bin"};
    for (size_t i = 0; i < 2; i++) {
        char *path = tmp_path(tmp, results[i]);
        size_t n;
        uint8_t *got = wlt_read_file(path, &n);
        assert_non_null(got);
        assert_int_equal(n, sizeof want);
        assert_memory_equal(got, want, sizeof want);
        free(got);
        free(path);
    }
    free(fa);
    free(fb);
}

/* A function's symbol from llvm-objdump-19 -t: "ADDR l F .text SIZE .hidden NAME". */
typedef struct sym {
    uint64_t address, size;
    char name[128];
} sym;

/* The code symbols of path that are not kernels (no NAME.kd beside). */
static size_t functions_of(const char *path, sym *out, size_t cap)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' -t '%s'", WL_LLVM_OBJDUMP, path);
    char *t = wlt_run(cmd, NULL);
    assert_non_null(t);
    sym all[64];
    size_t nall = 0, n = 0;
    char *save = NULL;
    char *kd[64];
    size_t nkd = 0;
    for (char *l = strtok_r(t, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        unsigned long long addr, size;
        char scope[8], kind[8], sect[32], name[128];
        char vis[32];
        if (sscanf(l, "%llx %7s %7s %31s %llx %31s %127s", &addr, scope, kind, sect, &size, vis, name) != 7)
            continue;
        if (strcmp(kind, "O") == 0 && strlen(name) > 3 && strcmp(name + strlen(name) - 3, ".kd") == 0 &&
            nkd < 64) {
            kd[nkd] = strdup(name);
            kd[nkd++][strlen(name) - 3] = '\0';
        }
        if (strcmp(kind, "F") == 0 && strcmp(sect, ".text") == 0 && nall < 64) {
            all[nall].address = addr;
            all[nall].size = size;
            snprintf(all[nall].name, sizeof all[nall].name, "%s", name);
            nall++;
        }
    }
    for (size_t i = 0; i < nall; i++) {
        int kernel = 0;
        for (size_t j = 0; j < nkd; j++)
            kernel |= strcmp(kd[j], all[i].name) == 0;
        if (!kernel && n < cap)
            out[n++] = all[i];
    }
    for (size_t j = 0; j < nkd; j++)
        free(kd[j]);
    free(t);
    return n;
}

/* `dis --kernel NAME` where NAME is a function the kernels call (not a
 * kernel): that function's code, as llvm-objdump-19
 * --disassemble-symbols=NAME lists it (up to the symbol's size: objdump
 * goes on through the padding to the next symbol). Before, "no kernel
 * named NAME". */
static void dis_function(void **state)
{
    const char *tmp = *state;
    static const char *const objects[] = {"calls.w64.co", "calls.w32.co"};
    size_t checked = 0;
    for (size_t o = 0; o < 2; o++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", WL_KERNEL_DIR, objects[o]);
        sym fn[16];
        size_t nfn = functions_of(path, fn, 16);
        assert_true(nfn >= 3); /* poly, mix_args, store_pair */
        for (size_t f = 0; f < nfn; f++) {
            char cmd[2048];
            snprintf(cmd, sizeof cmd, "'%s' -d --mcpu=gfx1030 --mattr=%s --disassemble-symbols=%s '%s'",
                     WL_LLVM_OBJDUMP, strstr(objects[o], "w32") ? "+wavefrontsize32" : "+wavefrontsize64",
                     fn[f].name, path);
            char *od = wlt_run(cmd, NULL);
            assert_non_null(od);
            /* objdump's instructions in [address, address + size) */
            char *want[256];
            size_t nw = 0;
            char *save = NULL;
            for (char *l = strtok_r(od, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
                char *c = strstr(l, "//");
                if (l[0] != '\t' || !c)
                    continue;
                unsigned long long at = strtoull(c + 2, NULL, 16);
                *c = '\0';
                wlt_squash(l);
                if (at >= fn[f].address && at < fn[f].address + fn[f].size && nw < 256)
                    want[nw++] = l;
            }
            assert_true(nw > 0);
            char args[1200];
            snprintf(args, sizeof args, "dis --asm-only --kernel %s '%s'", fn[f].name, path);
            run_result r = cli(tmp, args);
            assert_int_equal(r.rc, 0);
            char *got[256];
            size_t ng = asm_lines(r.out, got, 256);
            if (ng != nw)
                fail_msg("%s %s: %zu instructions, llvm-objdump-19 %zu", objects[o], fn[f].name, ng, nw);
            for (size_t i = 0; i < nw; i++)
                if (strcmp(got[i], want[i]) != 0)
                    fail_msg("%s %s: instruction %zu: \"%s\", llvm-objdump-19 \"%s\"", objects[o],
                             fn[f].name, i, got[i], want[i]);
            run_free(&r);
            /* the full listing: that function's label alone */
            snprintf(args, sizeof args, "dis --kernel=%s '%s'", fn[f].name, path);
            r = cli(tmp, args);
            assert_int_equal(r.rc, 0);
            size_t labels = 0;
            save = NULL;
            for (char *l = strtok_r(r.out, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
                if (l[0] != '\t' && l[0] != ';' && l[strlen(l) - 1] == ':') {
                    char lab[160];
                    snprintf(lab, sizeof lab, "%s:", fn[f].name);
                    assert_string_equal(l, lab);
                    labels++;
                }
            assert_int_equal(labels, 1);
            run_free(&r);
            printf("%s %-12s %3zu instructions, as llvm-objdump-19 --disassemble-symbols\n",
                   objects[o], fn[f].name, nw);
            checked++;
            free(od);
        }
    }
    assert_true(checked >= 6);
}

/* The manual page (wavelift --man; the build writes wavelift.1): roff,
 * every subcommand and every option --help lists, each with its help. */
static void man_page(void **state)
{
    const char *tmp = *state;
    run_result man = cli(tmp, "--man");
    assert_int_equal(man.rc, 0);
    assert_true(!strncmp(man.out, ".TH WAVELIFT 1", 14));
    size_t named = 0;
    for (size_t c = 0; c < NSUB; c++) {
        char args[64], sec[64];
        snprintf(sec, sizeof sec, ".SS %s\n", subcommands[c]);
        assert_non_null(strstr(man.out, sec));
        snprintf(args, sizeof args, "%s --help", subcommands[c]);
        run_result r = cli(tmp, args);
        char *hn[MAX_NAMES];
        size_t nh = help_names(r.out, hn, MAX_NAMES);
        for (size_t i = 0; i < nh; i++) {
            /* roff writes each '-' as \- */
            char want[96];
            size_t o = 0;
            for (const char *p = hn[i]; *p && o + 3 < sizeof want; p++) {
                if (*p == '-')
                    want[o++] = '\\';
                want[o++] = *p;
            }
            want[o] = 0;
            if (!strstr(man.out, want))
                fail_msg("the manual page lacks %s (wavelift %s --help lists it)", hn[i], subcommands[c]);
            named++;
        }
        run_free(&r);
    }
    printf("the manual page names the %zu options of the subcommands' --help\n", named);
    run_free(&man);
}

/* Conventions (issue 20): -h is --help; `-o -` writes the module to stdout
 * (the report to stderr), the same bytes as a file; a failed lift leaves
 * no older module in place; dis refuses a directory, an empty file and
 * /dev/null; --help ends with the exit statuses. */
static void conventions(void **state)
{
    const char *tmp = *state;
    char args[1024];
    run_result r = cli(tmp, "lift -h");
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out, "usage: wavelift lift"));
    assert_non_null(strstr(r.out, "exit status: "));
    run_free(&r);
    snprintf(args, sizeof args, "lift '%s/atomics_global.w64.co' --kernel atom32 -o '%s/a.spv' >/dev/null && '%s' lift "
                                "'%s/atomics_global.w64.co' --kernel atom32 -o - > '%s/b.spv' && cmp '%s/a.spv' "
                                "'%s/b.spv' && echo same",
             WL_KERNEL_DIR, tmp, WL_CLI, WL_KERNEL_DIR, tmp, tmp, tmp);
    r = cli(tmp, args);
    assert_non_null(strstr(r.out, "same"));
    run_free(&r);
    snprintf(args, sizeof args, "lift '%s/atomics_global.w64.co' --kernel atom32 -o - 2>&1 >/dev/null | grep -c 'SPIR-V words'",
             WL_KERNEL_DIR);
    r = cli(tmp, args);
    assert_int_equal(strtol(r.out, NULL, 10), 1); /* the report went to stderr */
    run_free(&r);
    /* the report says what the module needs (wl_reflect): 64-bit global
     * atomics, a required subgroup size, the status binding */
    snprintf(args, sizeof args, "lift '%s/atomics_global.w64.co' --kernel atom64 -o '%s/c.spv'", WL_KERNEL_DIR, tmp);
    r = cli(tmp, args);
    assert_int_equal(r.rc, 0);
    printf("%s", r.out);
    assert_non_null(strstr(r.out, "needs: "));
    assert_non_null(strstr(r.out, "shaderBufferInt64Atomics"));
    assert_null(strstr(r.out, "shaderSharedInt64Atomics"));
    assert_non_null(strstr(r.out, "subgroup size 32 required, full subgroups"));
    assert_non_null(strstr(r.out, "set 0 binding 0 (status)"));
    assert_non_null(strstr(r.out, "push constants: bytes 0..127"));
    run_free(&r);
    /* a refused lift removes the older a.spv */
    snprintf(args, sizeof args, "lift '%s/images.w32.co' --kernel img_3d -o '%s/a.spv'", WL_KERNEL_DIR, tmp);
    r = cli(tmp, args);
    assert_int_equal(r.rc, 3);
    char *a = tmp_path(tmp, "a.spv");
    assert_int_not_equal(access(a, F_OK), 0);
    free(a);
    run_free(&r);
    static const char *const bad[][2] = {{"", "is a directory"}, {"/dev/null", "empty file"}};
    for (int i = 0; i < 2; i++) {
        snprintf(args, sizeof args, "dis '%s'", bad[i][0][0] ? bad[i][0] : tmp);
        r = cli(tmp, args);
        printf("dis %s -> exit %d: %s", bad[i][0][0] ? bad[i][0] : "DIR", r.rc, r.err);
        assert_int_equal(r.rc, 1);
        assert_non_null(strstr(r.err, bad[i][1]));
        run_free(&r);
    }
}

int main(void)
{
    /* equals_forms runs on lavapipe; under the sanitizer build the CLI is
     * sanitized too: leaks inside Mesa's lavapipe and its LLVM are
     * suppressed (tests/lsan.supp) */
    wlt_use_lavapipe(0);
    if (!getenv("LSAN_OPTIONS"))
        setenv("LSAN_OPTIONS", "suppressions=" WL_SOURCE_DIR "/tests/lsan.supp:print_suppressions=0", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(help_and_version),
        cmocka_unit_test(usage_errors),
        cmocka_unit_test(missing_file),
        cmocka_unit_test(truncated_raw),
        cmocka_unit_test(undefined_opcodes),
        cmocka_unit_test(kernel_selection),
        cmocka_unit_test(help_lists_options),
        cmocka_unit_test(bad_options),
        cmocka_unit_test(equals_forms),
        cmocka_unit_test(dis_function),
        cmocka_unit_test(conventions),
        cmocka_unit_test(man_page),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
