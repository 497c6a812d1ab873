/* The third-party corpus (issue 15, item 1: OpenCL C compiled by clang-19).
 *
 * tests/corpus/ holds only our own code: wrapper kernels (*.cl) that
 * #include the OpenCL C of Debian 12 packages, and sidecars (*.run) that
 * name a package's own .cl file; both carry launch specs in the suite's
 * syntax (tests/suite_common.h) and these meta lines:
 *   //! source PKG            the Debian package the code comes from
 *   //! file PKG PATH         the source is the package's PATH (sidecars)
 *   //! options OPTS          build options (@PKG@: where PKG's files lie)
 *   //! host N ALGO LEN       PoCL's buffer N must also equal Python's
 *                             hashlib ALGO of the LEN-byte messages
 *                             (tests/corpus/hostref.py)
 *   //! skip CONFIG WHY       a configuration (w64/S4, w32/wave, ...) not
 *                             run, and why (printed)
 *   //! refuse KERNEL MNEMONIC WHY   a kernel of the file the translator
 *                             must refuse by name (MNEMONIC in the message)
 *   //! pocl-wrong WHY        PoCL's output is wrong (the host reference
 *                             says so): the runs are compared with the
 *                             host reference instead, and PoCL must still
 *                             differ from it (so the line is removed when
 *                             PoCL is fixed)
 *   //! quick                 one of the WL_SUITE_QUICK=1 subset
 * The packages are unpacked by scripts/install-deps.sh into WL_CORPUS_DIR
 * (one directory per package; the environment variable overrides the
 * build's default); the test fails, saying so, where one is missing, and
 * prints each package's licences from its /usr/share/doc/PKG/copyright.
 *
 * Every source is compiled at test time by clang-19 for gfx1030, wave64
 * and wave32 (-O2, as tests/CMakeLists.txt compiles tests/kernels), run
 * once on PoCL (the reference) and through `wavelift run` on lavapipe in
 * eight configurations: wave64 and wave32, the lanes model at subgroup
 * sizes 4, 8 and 16 (k = 16, 8, 4 and 8, 4, 2) and the wave model. Outputs
 * must equal PoCL's byte for byte (or within the spec's tol=N ulps, the
 * reason in the file). lavapipe's own LLVM optimization is off
 * (GALLIVM_PERF=no_opt, as test_wave_model does: results are the same,
 * the compile of these large modules many times faster).
 *
 * A wrong output, a crash or a failed run fails the test; a refusal by
 * name fails it too unless the file lists it (`refuse`) or the known list
 * below does. WL_SUITE_QUICK=1 runs the `quick` programs in three
 * configurations (wave64 S = 16, wave32 S = 4, wave64 wave model).
 * WLT_CORPUS_ONLY=KERNEL runs one program. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "suite_common.h"
#include "support.h"

#ifndef WL_CORPUS_DIR
#define WL_CORPUS_DIR "/var/cache/wavelift-corpus"
#endif

/* Known wrong results or refusals of the translator on the corpus (the
 * kernel, the configuration, why). Such a run is printed KNOWN and counted,
 * not failed; remove an entry when it is fixed. */
static const struct {
    const char *kernel, *config, *why;
} known[] = {
    /* refused at run time: "escape: loop budget exhausted at guest offset
     * 0x15c0" (wave64; wave32 now matches), whatever the budget: the shape
     * of lavapipe's own loop limit (about 65,535 iterations of all of an
     * invocation's loops, then it leaves them: docs/wave-model.md,
     * "lavapipe's loop limit"), which four lanes an iteration (lane loops in
     * guest loops) did not bring under it here; on the H200 (no such limit)
     * the same module matches PoCL (docs/corpus.md, "On the H200") */
    {"kuznyechik", "w64/wave", "wave model on lavapipe: its loop limit, seen as the budget (issue 15 item 2)"},
    {NULL, NULL, NULL}, /* the end */
};

#define NCONF 8
static const char *const conf_name[NCONF] = {"w64/S4", "w64/S8", "w64/S16", "w64/wave",
                                             "w32/S4", "w32/S8", "w32/S16", "w32/wave"};
static const unsigned conf_wave[NCONF] = {64, 64, 64, 64, 32, 32, 32, 32};
static const unsigned conf_size[NCONF] = {4, 8, 16, 0, 4, 8, 16, 0}; /* 0: the wave model */

enum { R_NONE, R_MATCH, R_SKIP, R_REFUSED, R_KNOWN, R_WRONG, R_FAILED };

typedef struct prog {
    unsigned spec;
    char pkg[48];
    unsigned instr[2]; /* wave64, wave32 */
    int res[NCONF];
    double secs;
} prog;

static const char *meta(const wlt_spec *sp, const char *word, unsigned *from)
{
    size_t n = strlen(word);
    for (unsigned i = from ? *from : 0; i < sp->nmeta; i++)
        if (strncmp(sp->meta[i], word, n) == 0 && (sp->meta[i][n] == ' ' || sp->meta[i][n] == 0)) {
            if (from)
                *from = i + 1;
            return sp->meta[i] + n + (sp->meta[i][n] == ' ');
        }
    return NULL;
}

static const char *known_issue(const char *kernel, const char *config)
{
    for (size_t i = 0; known[i].kernel; i++)
        if (strcmp(known[i].kernel, kernel) == 0 && strcmp(known[i].config, config) == 0)
            return known[i].why;
    return NULL;
}

/* Replaces each @PKG@ of in by root/PKG. */
static void subst(const char *in, const char *root, char *out, size_t cap)
{
    size_t o = 0;
    for (const char *p = in; *p && o + 1 < cap;) {
        const char *q = *p == '@' ? strchr(p + 1, '@') : NULL;
        if (q) {
            o += (size_t)snprintf(out + o, cap - o, "%s/%.*s", root, (int)(q - p - 1), p + 1);
            p = q + 1;
        } else {
            out[o++] = *p++;
        }
    }
    out[o < cap ? o : cap - 1] = 0;
}

/* The package's licences: its copyright file's distinct License: lines. */
static int print_licences(const char *root, const char *pkg)
{
    char path[1024], cmd[1400];
    snprintf(path, sizeof(path), "%s/%s/usr/share/doc/%s/copyright", root, pkg, pkg);
    size_t n = 0;
    uint8_t *text = wlt_read_file(path, &n);
    if (!text) {
        printf("corpus: %s is missing (no %s): run scripts/install-deps.sh, which unpacks the corpus's Debian "
               "packages into %s (WL_CORPUS_DIR)\n",
               pkg, path, root);
        return 1;
    }
    free(text);
    snprintf(cmd, sizeof(cmd), "grep '^License:' '%s' | sed 's/^License: *//' | sort -u | tr '\\n' ' '", path);
    int rc;
    char *lic = wlt_run(cmd, &rc);
    snprintf(path, sizeof(path), "%s/%s.version", root, pkg);
    char *ver = (char *)wlt_read_file(path, &n);
    if (ver && strchr(ver, '\n'))
        *strchr(ver, '\n') = 0;
    printf("corpus: package %s %s, licences (%s/%s/usr/share/doc/%s/copyright): %s\n", pkg, ver ? ver : "", root, pkg,
           pkg, lic ? lic : "?");
    free(ver);
    free(lic);
    return 0;
}

static const char *res_word(int r)
{
    switch (r) {
    case R_MATCH: return "match";
    case R_SKIP: return "skip";
    case R_REFUSED: return "refused";
    case R_KNOWN: return "KNOWN";
    case R_WRONG: return "WRONG";
    case R_FAILED: return "FAILED";
    default: return "-";
    }
}

static void test_corpus(void **state)
{
    wlt_suite *s = *state;
#ifndef WL_POCL_RUN
    (void)s;
    fail_msg("built without OpenCL (PoCL): install ocl-icd-opencl-dev pocl-opencl-icd "
             "opencl-c-headers (scripts/install-deps.sh) and re-run cmake");
#else
    time_t t0 = time(NULL);
    const char *root = getenv("WL_CORPUS_DIR") ? getenv("WL_CORPUS_DIR") : WL_CORPUS_DIR;
    const char *quick_env = getenv("WL_SUITE_QUICK");
    int quick = quick_env && strcmp(quick_env, "1") == 0;
    const char *only = getenv("WLT_CORPUS_ONLY");
    const char *jobs_env = getenv("WL_SUITE_JOBS");
    unsigned jobs = jobs_env ? (unsigned)atoi(jobs_env) : 2;
    if (jobs < 1 || jobs > 6)
        jobs = 2;

    snprintf(s->dir, sizeof(s->dir), "%s/tests/corpus", WL_SOURCE_DIR);
    snprintf(s->codir, sizeof(s->codir), "%s/co", s->tmp);
    wlt_suite_load_files(s, "", ".cl");
    wlt_suite_load_files(s, "", ".run");
    unsigned all = s->n, kept = 0;
    for (unsigned si = 0; si < s->n; si++) /* the chosen programs only */
        if ((!only || strcmp(only, s->specs[si].kernel) == 0) && (!quick || meta(&s->specs[si], "quick", NULL)))
            memmove(&s->specs[kept++], &s->specs[si], sizeof(s->specs[0]));
    s->n = kept;
    printf("corpus: %u programs in %u files (%s), %u chosen%s%s; packages under %s\n", all, s->files, s->dir, s->n,
           quick ? " (WL_SUITE_QUICK=1)" : "", only ? " (WLT_CORPUS_ONLY)" : "", root);
    assert_true(s->n >= 1);

    /* The packages, their licences; the sources and build options. */
    char pkgs[16][48];
    unsigned npkgs = 0, missing = 0;
    prog *pr = calloc(s->n, sizeof(*pr));
    assert_non_null(pr);
    for (unsigned si = 0; si < s->n; si++) {
        wlt_spec *sp = &s->specs[si];
        const char *src = meta(sp, "source", NULL), *file = meta(sp, "file", NULL), *opts = meta(sp, "options", NULL);
        if (!src)
            fail_msg("%s: %s names no `source` package", sp->file, sp->kernel);
        pr[si].spec = si;
        snprintf(pr[si].pkg, sizeof(pr[si].pkg), "%s", src);
        unsigned p = 0;
        while (p < npkgs && strcmp(pkgs[p], src) != 0)
            p++;
        if (p == npkgs) {
            assert_true(npkgs < 16);
            snprintf(pkgs[npkgs++], sizeof(pkgs[0]), "%s", src);
            missing += print_licences(root, src);
        }
        if (file) {
            char pkg[48], path[400];
            if (sscanf(file, "%47s %399s", pkg, path) != 2)
                fail_msg("%s: bad `file` line: %s", sp->file, file);
            snprintf(sp->src, sizeof(sp->src), "%s/%s/%s", root, pkg, path);
        }
        char o[512];
        subst(opts ? opts : "", root, o, sizeof(o));
        snprintf(sp->opts, sizeof(sp->opts), "-I%s %s", s->dir, o);
    }
    if (missing)
        fail_msg("corpus: %u of %u packages missing under %s: run scripts/install-deps.sh (or set WL_CORPUS_DIR)",
                 missing, npkgs, root);

    /* The code objects: every file, wave64 and wave32, `jobs` at a time. */
    size_t cmdcap = 1 << 17, cl = 0;
    char *cmd = malloc(cmdcap);
    assert_non_null(cmd);
    cl += (size_t)snprintf(cmd + cl, cmdcap - cl, "mkdir -p '%s'; ", s->codir);
    unsigned started = 0;
    for (unsigned si = 0; si < s->n; si++) {
        const wlt_spec *sp = &s->specs[si];
        if (si > 0 && strcmp(sp->file, s->specs[si - 1].file) == 0)
            continue;
        const char *dot = strrchr(sp->file, '.');
        int stem = (int)(dot - sp->file);
        for (unsigned w = 0; w < 2; w++) {
            unsigned wave = w ? 32 : 64;
            cl += (size_t)snprintf(cmd + cl, cmdcap - cl,
                                   "('%s' -x cl -cl-std=CL2.0 -Xclang -finclude-default-header -target amdgcn-amd-amdhsa "
                                   "-mcpu=gfx1030 %s -O2 --rocm-device-lib-path='%s' %s -o '%s/%.*s.w%u.co' '%s%s%s' "
                                   ">'%s/%.*s.w%u.clang' 2>&1 || echo 'clang failed' >>'%s/%.*s.w%u.clang') & ",
                                   WL_CLANG, w ? "-mno-wavefrontsize64" : "-mwavefrontsize64", WL_DEVICE_LIBS, sp->opts,
                                   s->codir, stem, sp->file, wave, sp->src[0] ? sp->src : s->dir,
                                   sp->src[0] ? "" : "/", sp->src[0] ? "" : sp->file, s->codir, stem, sp->file, wave,
                                   s->codir, stem, sp->file, wave);
            if (++started % jobs == 0)
                cl += (size_t)snprintf(cmd + cl, cmdcap - cl, "wait; ");
            assert_true(cl < cmdcap - 1);
        }
    }
    cl += (size_t)snprintf(cmd + cl, cmdcap - cl, "wait");
    int rc;
    char *out = wlt_run(cmd, &rc);
    free(out);
    unsigned clang_bad = 0;
    for (unsigned si = 0; si < s->n; si++) {
        const wlt_spec *sp = &s->specs[si];
        int stem = (int)(strrchr(sp->file, '.') - sp->file);
        for (unsigned w = 0; w < 2; w++) {
            char p[1200];
            snprintf(p, sizeof(p), "%s/%.*s.w%u.clang", s->codir, stem, sp->file, w ? 32 : 64);
            size_t n = 0;
            char *log = (char *)wlt_read_file(p, &n);
            if (log && strstr(log, "clang failed")) {
                if (si == 0 || strcmp(sp->file, s->specs[si - 1].file) != 0)
                    printf("corpus: clang-19 failed on %s (wave%u):\n%s\n", sp->file, w ? 32 : 64, log);
                clang_bad++;
            }
            free(log);
            /* guest instructions: the kernel's, as llvm-objdump-19 lists them */
            snprintf(cmd, cmdcap, "'%s' -d --disassemble-symbols=%s '%s/%.*s.w%u.co' | grep -c '// [0-9A-F]*:'",
                     WL_LLVM_OBJDUMP, sp->kernel, s->codir, stem, sp->file, w ? 32 : 64);
            out = wlt_run(cmd, &rc);
            pr[si].instr[w] = out ? (unsigned)atoi(out) : 0;
            free(out);
        }
    }
    printf("corpus: compiled in %ld s\n", (long)(time(NULL) - t0));
    assert_int_equal(clang_bad, 0);

    /* Refusals by name the files list (images: issue 18). */
    unsigned refusals = 0, refusals_ok = 0;
    for (unsigned si = 0; si < s->n; si++) {
        const wlt_spec *sp = &s->specs[si];
        if (si > 0 && strcmp(sp->file, s->specs[si - 1].file) == 0)
            continue;
        int stem = (int)(strrchr(sp->file, '.') - sp->file);
        unsigned from = 0;
        const char *r;
        while ((r = meta(sp, "refuse", &from))) {
            char k[96], mn[64];
            int off = 0;
            if (sscanf(r, "%95s %63s %n", k, mn, &off) < 2)
                fail_msg("%s: bad `refuse` line: %s", sp->file, r);
            for (unsigned w = 0; w < 2; w++) {
                refusals++;
                snprintf(cmd, cmdcap, "'%s' lift '%s/%.*s.w%u.co' --kernel %s --subgroup-size 8 --local 64 -o '%s/refused.spv' 2>&1",
                         WL_CLI, s->codir, stem, sp->file, w ? 32 : 64, k, s->tmp);
                out = wlt_run(cmd, &rc);
                char *nl = out ? strchr(out, '\n') : NULL;
                if (nl)
                    *nl = 0;
                int ok = rc == 3 && out && strstr(out, mn);
                refusals_ok += ok;
                printf("refused %-34s %-22s w%u: %s%s (%s)\n", k, pr[si].pkg, w ? 32 : 64, ok ? "" : "NOT AS LISTED: ",
                       out ? out : "?", r + off);
                free(out);
            }
        }
    }

    /* The programs. */
    unsigned chosen = 0, counts[R_FAILED + 1] = {0}, host_checked = 0, host_bad = 0, pocl_bad = 0;
    char args[4096], env[128];
    for (unsigned si = 0; si < s->n; si++) {
        const wlt_spec *sp = &s->specs[si];
        chosen++;
        time_t p0 = time(NULL);
        wlt_suite_args(s, si, args, sizeof(args));
        if (wlt_suite_pocl(s, si, args) != 0) {
            pocl_bad++;
            for (unsigned c = 0; c < NCONF; c++)
                pr[si].res[c] = R_FAILED;
            continue;
        }
        /* the host reference where the spec gives one */
        const char *h = meta(sp, "host", NULL);
        if (h) {
            unsigned n, len;
            char algo[32];
            if (sscanf(h, "%u %31s %u", &n, algo, &len) != 3 || sp->nargs < 1 || strncmp(sp->arg[0], "rand:", 5))
                fail_msg("%s: bad `host` line: %s", sp->file, h);
            unsigned oi = 0;
            while (oi < sp->nouts && sp->out[oi] != n)
                oi++;
            assert_true(oi < sp->nouts);
            char rp[800];
            snprintf(rp, sizeof(rp), "%s/ref.%u", s->tmp, oi);
            size_t rn = 0;
            uint8_t *ref = wlt_read_file(rp, &rn);
            assert_non_null(ref);
            unsigned items = 1;
            for (const char *g = sp->global; *g; g++)
                if (g == sp->global || g[-1] == ',')
                    items *= (unsigned)atoi(g);
            snprintf(cmd, cmdcap, "python3 '%s/hostref.py' %s %u '%s/in.%u.0' %u '%s/host.bin' 2>&1", s->dir, algo, len,
                     s->tmp, si, items, s->tmp);
            out = wlt_run(cmd, &rc);
            snprintf(rp, sizeof(rp), "%s/host.bin", s->tmp);
            size_t hn = 0;
            uint8_t *host = wlt_read_file(rp, &hn);
            host_checked++;
            const char *pw = meta(sp, "pocl-wrong", NULL);
            int same = rc == 0 && host && hn == rn && memcmp(host, ref, rn) == 0;
            if (pw && rc == 0 && host && !same) {
                snprintf(rp, sizeof(rp), "%s/ref.%u", s->tmp, oi);
                assert_int_equal(wlt_write_file(rp, host, hn), 0);
                printf("%-24s PoCL's buffer %u differs from the host reference (%s), as listed: %s; "
                       "the runs are compared with the host reference\n",
                       sp->kernel, n, algo, pw);
            } else if (pw || !same) {
                host_bad++;
                printf("%-24s PoCL's buffer %u %s the host reference %s (%zu and %zu bytes)%s: %s\n", sp->kernel, n,
                       same ? "equals" : "differs from", algo, rn, hn,
                       pw ? ", listed as pocl-wrong: remove the line" : "", out ? out : "");
            }
            free(out);
            free(host);
            free(ref);
        }
        /* the runs, `jobs` at a time */
        cl = 0;
        started = 0;
        for (unsigned c = 0; c < NCONF; c++) {
            char word[32];
            unsigned from = 0;
            const char *sk;
            pr[si].res[c] = R_NONE;
            while ((sk = meta(sp, "skip", &from)))
                if (sscanf(sk, "%31s", word) == 1 && strcmp(word, conf_name[c]) == 0)
                    pr[si].res[c] = R_SKIP;
            if (quick && c != 2 && c != 3 && c != 4)
                pr[si].res[c] = R_NONE;
            else if (pr[si].res[c] == R_SKIP)
                counts[R_SKIP]++;
            if (quick && c != 2 && c != 3 && c != 4)
                pr[si].res[c] = R_NONE;
            else if (pr[si].res[c] == R_NONE)
                pr[si].res[c] = -1; /* to run */
            if (pr[si].res[c] != -1)
                continue;
            if (conf_size[c])
                snprintf(env, sizeof(env), "GALLIVM_PERF=no_opt LP_NATIVE_VECTOR_WIDTH=%u WAVELIFT_DEVICE=llvmpipe",
                         conf_size[c] * 32);
            else
                snprintf(env, sizeof(env), "GALLIVM_PERF=no_opt WAVELIFT_DEVICE=llvmpipe");
            wlt_suite_run_cmd(s, si, c, conf_wave[c], env, conf_size[c] ? " --model lanes" : " --model wave", args, cmd,
                              cmdcap, &cl);
            if (++started % jobs == 0)
                cl += (size_t)snprintf(cmd + cl, cmdcap - cl, "wait; ");
        }
        cl += (size_t)snprintf(cmd + cl, cmdcap - cl, "wait");
        out = wlt_run(cmd, &rc);
        free(out);
        for (unsigned c = 0; c < NCONF; c++) {
            if (pr[si].res[c] != -1)
                continue;
            char *err = NULL;
            int res = wlt_suite_result(s, si, c, &rc, &err, &out);
            const char *why = known_issue(sp->kernel, conf_name[c]);
            int r;
            if (res == WLT_RUN_MATCH && out && !conf_size[c] && !strstr(out, "model: wave"))
                res = WLT_RUN_FAILED; /* not the wave model */
            if (res == WLT_RUN_MATCH)
                r = R_MATCH;
            else if (why)
                r = R_KNOWN;
            else if (res == WLT_RUN_REFUSED)
                r = R_REFUSED;
            else if (res == WLT_RUN_MISMATCH)
                r = R_WRONG;
            else
                r = R_FAILED;
            pr[si].res[c] = r;
            counts[r]++;
            if (r != R_MATCH)
                printf("%-24s %-8s %s (exit %d): %s%s%s\n", sp->kernel, conf_name[c], res_word(r), rc, err ? err : "",
                       why ? "; known: " : "", why ? why : "");
            free(err);
            free(out);
        }
        pr[si].secs = difftime(time(NULL), p0);
        printf("%-24s %-18s done in %.0f s\n", sp->kernel, pr[si].pkg, pr[si].secs);
        fflush(stdout);
    }
    free(cmd);

    /* The table. */
    printf("\n%-26s %-17s %13s", "program", "package", "instr w64/w32");
    for (unsigned c = 0; c < NCONF; c++)
        printf(" %-8s", conf_name[c]);
    printf(" %5s\n", "secs");
    for (unsigned si = 0; si < s->n; si++) {
        const wlt_spec *sp = &s->specs[si];
        char ins[32];
        snprintf(ins, sizeof(ins), "%u/%u", pr[si].instr[0], pr[si].instr[1]);
        printf("%-26s %-17s %13s", sp->kernel, pr[si].pkg, ins);
        for (unsigned c = 0; c < NCONF; c++)
            printf(" %-8s", res_word(pr[si].res[c]));
        printf(" %5.0f\n", pr[si].secs);
    }
    for (unsigned si = 0; si < s->n; si++) {
        unsigned from = 0;
        const char *sk;
        while ((sk = meta(&s->specs[si], "skip", &from)))
            printf("skipped: %s %s\n", s->specs[si].kernel, sk);
    }
    printf("corpus: %u of %u programs (%s), %u packages; %u runs: %u match, %u refused by name, %u known, "
           "%u WRONG, %u failed; %u skipped (listed); PoCL failed on %u; %u PoCL outputs checked against host references, "
           "%u differ; %u of %u listed refusals (images) as listed; %ld s\n",
           chosen, all, quick ? "WL_SUITE_QUICK: wave64 S=16, w64 wave model, wave32 S=4" : "8 configurations",
           npkgs, counts[R_MATCH] + counts[R_REFUSED] + counts[R_KNOWN] + counts[R_WRONG] + counts[R_FAILED],
           counts[R_MATCH], counts[R_REFUSED], counts[R_KNOWN], counts[R_WRONG], counts[R_FAILED], counts[R_SKIP],
           pocl_bad, host_checked, host_bad, refusals_ok, refusals, (long)(time(NULL) - t0));
    free(pr);
    assert_int_equal(pocl_bad, 0);
    assert_int_equal(host_bad, 0);
    assert_int_equal(refusals_ok, refusals);
    assert_int_equal(counts[R_WRONG] + counts[R_FAILED] + counts[R_REFUSED], 0);
    assert_true(counts[R_MATCH] > 0);
#endif
}

int main(void)
{
    if (!getenv("LSAN_OPTIONS"))
        setenv("LSAN_OPTIONS", "suppressions=" WL_SOURCE_DIR "/tests/lsan.supp:print_suppressions=0", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_corpus, wlt_suite_setup, wlt_suite_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
