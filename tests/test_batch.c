/* wavelift lift as a batch (cli/cmd_batch.c, docs/cli.md "Batches"): over
 * the test corpus (build/kernels: counts, the records as JSON and CSV,
 * refusals grouped, the exit status), -j 1 against -j 2 byte for byte,
 * a record's words against the single `lift`, the progress line on a
 * pseudo-terminal (script(1)) and not on a pipe, bad input in a batch,
 * a translation over --max-memory, the cache, and SIGINT leaving no
 * partial module.
 * The counts expected come from the code objects themselves (their kernel
 * lists, read with llvm-readelf-19), not from the batch. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support.h"

static char *tmp;

static int setup(void **state)
{
    (void)state;
    tmp = wlt_tmpdir();
    return tmp ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    free(wlt_run(cmd, NULL));
    free(tmp);
    return 0;
}

/* Runs shell text, returns stdout (malloc'ed), *rc the exit status. */
static char *sh(int *rc, const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    char *out = wlt_run(cmd, rc);
    assert_non_null(out);
    return out;
}

static long count_lines(const char *s, const char *needle)
{
    long n = 0;
    for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* The kernels of the corpus: the .kd symbols of every code object, as
 * llvm-readelf-19 lists them (each once: .symtab and .dynsym both hold them). */
static long corpus_kernels(void)
{
    int rc = 0;
    char *o = sh(&rc, "for f in '%s'/*.co; do '%s' -s --wide \"$f\" | grep '\\.kd$' | awk '{print $NF}' | sort -u | wc -l; done | "
                      "awk '{s += $1} END {print s}'",
                 WL_KERNEL_DIR, WL_LLVM_READELF);
    long n = strtol(o, NULL, 10);
    free(o);
    return n;
}

static void corpus_batch(void **state)
{
    (void)state;
    long kernels = corpus_kernels();
    assert_true(kernels > 100);
    int rc = 0;
    char *out = sh(&rc, "'%s' lift '%s' -O0 -O2 --models lanes,wave --subgroup-size 32 -j 2 -o '%s/j2' "
                        "--json '%s/b.json' --csv '%s/b.csv' 2>'%s/err'",
                   WL_CLI, WL_KERNEL_DIR, tmp, tmp, tmp, tmp);
    printf("%s", out);
    /* a 3-D image sample and ds_append kernels are refused by name: exit 3 */
    assert_int_equal(rc, 3);
    char head[128];
    snprintf(head, sizeof head, "%ld translations of", kernels * 4);
    assert_non_null(strstr(out, head));
    assert_non_null(strstr(out, "refused, by cause:"));
    assert_non_null(strstr(out, "unsupported instruction image_sample_lz: samples and gathers of N-D, cube and array "
                                "images are not lifted yet"));
    free(out);
    /* the JSON parses, holds a record a translation with the documented
     * fields; the CSV has as many rows; lifted records name their files */
    out = sh(&rc,
             "python3 -c \"import json,csv,os,sys; d=json.load(open('%s/b.json')); r=d['records']; "
             "keys={'source','name','kernel','status','model','wave','subgroup','k','opt','guest_instructions','words',"
             "'lane_loops','llvm','parts','ms','peak_kib','features','cached','output','reason'}; "
             "assert d['schema']=='wavelift-batch 1' and all(set(x)==keys for x in r); "
             "c=list(csv.DictReader(open('%s/b.csv'))); assert len(c)==len(r); "
             "ok=[x for x in r if x['status']=='lifted']; "
             "assert all(os.path.getsize(x['output'])==4*x['words'] and x['guest_instructions']>0 for x in ok); "
             "p=[x['parts'] for x in ok]; "
             "assert all(q['declarations']+q['entry']+q['routines']==x['words'] and q['entry']>0 for q,x in zip(p,ok)); "
             "assert any(q['routine_count']>0 and q['routines']>0 for q in p); "
             "assert all(x['reason'] for x in r if x['status']!='lifted'); "
             "print(len(r), len(ok))\"",
             tmp, tmp);
    printf("records, lifted: %s", out);
    assert_int_equal(rc, 0);
    assert_int_equal(strtol(out, NULL, 10), kernels * 4);
    free(out);
    /* -j 1 writes the same modules, byte for byte (the code objects
     * starting with a-c: the sanitizer build runs this too) */
    out = sh(&rc, "'%s' lift '%s'/[a-c]*.co -O0 -O2 --models lanes,wave --subgroup-size 32 -j 1 -o '%s/j1' "
                  ">/dev/null 2>&1; n=0; for d in '%s'/j1/*; do diff -r \"$d\" '%s'/j2/kernels/\"${d##*/}\" || exit 1; "
                  "n=$((n+1)); done; echo same $n",
             WL_CLI, WL_KERNEL_DIR, tmp, tmp, tmp);
    printf("-j 1 against -j 2: %s", out);
    assert_non_null(strstr(out, "same"));
    assert_true(strtol(strstr(out, "same") + 4, NULL, 10) >= 4);
    free(out);
    /* a record's module is the single lift's */
    out = sh(&rc, "'%s' lift '%s/atomics_global.w64.co' --kernel atom32 --subgroup-size 32 -O0 -o '%s/one.spv' "
                  ">/dev/null && cmp '%s/one.spv' '%s/j2/kernels/atomics_global.w64.co/atom32.lanes-k2.O0.spv' && "
                  "echo same",
             WL_CLI, WL_KERNEL_DIR, tmp, tmp, tmp);
    assert_non_null(strstr(out, "same"));
    free(out);
}

/* The progress line: on a terminal (script(1) gives one), not on a pipe */
static void progress_line(void **state)
{
    (void)state;
    int rc = 0;
    char *out = sh(&rc, "script -qec \"'%s' lift '%s' --subgroup-size 32 -j 2\" /dev/null 2>&1", WL_CLI,
                   WL_KERNEL_DIR);
    long on_tty = count_lines(out, "\033[K[");
    free(out);
    out = sh(&rc, "'%s' lift '%s' --subgroup-size 32 -j 2 2>&1 | cat", WL_CLI, WL_KERNEL_DIR);
    long on_pipe = count_lines(out, "\033[K");
    assert_non_null(strstr(out, "translations of"));
    free(out);
    printf("progress lines: %ld on a terminal, %ld on a pipe\n", on_tty, on_pipe);
    assert_true(on_tty >= 1);
    assert_int_equal(on_pipe, 0);
}

/* Bad input in a batch: reported, the rest goes on; exit 1 */
static void bad_inputs(void **state)
{
    (void)state;
    int rc = 0;
    char *out = sh(&rc,
                   "mkdir -p '%s/bad/sub' && head -c 200 '%s/atomics_global.w64.co' > '%s/bad/trunc.co' && "
                   "echo not code > '%s/bad/sub/readme.txt' && cp '%s/atomics_global.w64.co' '%s/bad/sub/' && "
                   "'%s' lift '%s/bad' '%s/nothing-here.co' --subgroup-size 32 -o '%s/badout' 2>&1; echo rc=$?",
                   tmp, WL_KERNEL_DIR, tmp, tmp, WL_KERNEL_DIR, tmp, WL_CLI, tmp, tmp, tmp);
    printf("%s", out);
    assert_non_null(strstr(out, "3 translations of 1 code objects and captures: 3 lifted"));
    assert_non_null(strstr(out, "trunc.co:"));
    assert_non_null(strstr(out, "nothing-here.co:"));
    assert_non_null(strstr(out, "1 other files skipped"));
    assert_non_null(strstr(out, "rc=1"));
    free(out);
    /* no kernel matches: exit 1 with a message */
    out = sh(&rc, "'%s' lift '%s' --kernel 'no_such_*' 2>&1; echo rc=$?", WL_CLI, WL_KERNEL_DIR);
    assert_non_null(strstr(out, "no kernel matches no_such_*"));
    assert_non_null(strstr(out, "rc=1"));
    free(out);
    /* -o naming a file for a batch: said so, exit 1 */
    out = sh(&rc, "touch '%s/one.spv' && '%s' lift '%s/atomics_global.w64.co' --subgroup-size 32 -o '%s/one.spv' 2>&1; "
             "echo rc=$?", tmp, WL_CLI, WL_KERNEL_DIR, tmp);
    printf("%s", out);
    assert_non_null(strstr(out, "writes a directory of modules"));
    assert_non_null(strstr(out, "rc=1"));
    free(out);
}

/* A translation over --max-memory is reported as such, not a crash of the batch */
static void memory_limit(void **state)
{
    (void)state;
    int rc = 0;
    char *out = sh(&rc, "'%s' lift '%s/atomics_global.w64.co' --subgroup-size 32 --max-memory 40 --json - 2>&1",
                   WL_CLI, WL_KERNEL_DIR);
    printf("%s", out);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(out, "\"status\": \"memory\""));
    assert_non_null(strstr(out, "under --max-memory 40 MiB"));
    free(out);
}

/* --timeout: a translation taking longer is stopped and reported; the
 * batch goes on (a generated kernel of 2,000 dependent statements takes
 * about 5 s to translate at -O0, k = 4, here) */
static void time_limit(void **state)
{
    (void)state;
    char path[600];
    snprintf(path, sizeof path, "%s/slow.cl", tmp);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "kernel void slow(global uint *a) {\n uint i = __builtin_amdgcn_workitem_id_x();\n"
               " uint x = a[i], y = a[i + 1];\n");
    for (int j = 0; j < 2000; j++)
        fprintf(f, " x = (x ^ (y >> %d)) * %du + a[(i + %d) & 255]; y += x;\n", j % 31 + 1, 2 * j + 3, j);
    fprintf(f, " a[i] = x + y;\n}\nkernel void quick(global uint *a) { a[0] = 1; }\n");
    fclose(f);
    int rc = 0;
    char *out = sh(&rc, "'%s' -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx1030 -nogpulib -O2 '%s' "
                        "-o '%s/slow.co' 2>&1 && '%s' lift '%s/slow.co' -O0 --subgroup-size 8 --timeout 1 "
                        "--csv '%s/t.csv' 2>&1; echo rc=$?; cut -d, -f2,3,29 '%s/t.csv'",
                   WL_CLANG, path, tmp, WL_CLI, tmp, tmp, tmp);
    printf("%s", out);
    assert_non_null(strstr(out, "2 translations of 1 code objects and captures: 1 lifted, 0 refused, 1 failed"));
    assert_non_null(strstr(out, "\"slow\",timeout,\"stopped after 1 s (--timeout)\""));
    assert_non_null(strstr(out, "\"quick\",lifted,"));
    assert_non_null(strstr(out, "rc=1"));
    free(out);
}

/* wavelift size: the table's words are the single lift's at each level;
 * the plot parses as SVG with a mark a translation in each panel */
static void size_report(void **state)
{
    (void)state;
    int rc = 0;
    char *out = sh(&rc, "'%s' size '%s/atomics_global.w64.co' '%s/control_flow.w32.co' --svg '%s/size.svg' -j 2 "
                        "--json '%s/size.json' 2>&1",
                   WL_CLI, WL_KERNEL_DIR, WL_KERNEL_DIR, tmp, tmp);
    printf("%s", out);
    assert_int_equal(rc, 0);
    /* every row of the table against `lift` at -O0 and -O2 */
    char *line = strstr(out, "source:kernel");
    assert_non_null(line);
    int rows = 0;
    for (line = strchr(line, '\n') + 1; *line && strchr(line, ':') && strchr(line, ':') < strchr(line, '\n'); rows++) {
        char src[256], kern[128], model[16];
        unsigned long long guest, w0, w2;
        assert_int_equal(sscanf(line, "%255[^:]:%127s %15s %llu %llu %llu", src, kern, model, &guest, &w0, &w2), 6);
        for (int l = 0; l <= 2; l += 2) {
            char *one = sh(&rc, "'%s' lift '%s/%s' --kernel '%s' --subgroup-size 32 -O%d -o '%s/one.spv' | "
                                "sed -n 's/^SPIR-V words: //p'",
                           WL_CLI, WL_KERNEL_DIR, src, kern, l, tmp);
            assert_int_equal(strtoull(one, NULL, 10), l ? w2 : w0);
            free(one);
        }
        line = strchr(line, '\n') + 1;
    }
    printf("%d rows checked against lift\n", rows);
    assert_true(rows >= 4);
    assert_non_null(strstr(out, "median"));
    free(out);
    out = sh(&rc, "python3 -c \"import xml.dom.minidom as m; d=m.parse('%s/size.svg'); "
                  "print(len([c for c in d.getElementsByTagName('circle') if c.getAttribute('class')=='point']))\"",
             tmp);
    printf("plot: %s", out);
    assert_int_equal(rc, 0);
    assert_int_equal(strtol(out, NULL, 10), 2 * rows);
    free(out);
    /* the same report from the batch's records, translating nothing: the
     * table and its statistics line for line (the first line says where
     * the records came from) */
    out = sh(&rc, "'%s' size '%s/atomics_global.w64.co' '%s/control_flow.w32.co' -j 2 | tail -n +2 > '%s/a.txt' && "
                  "'%s' size '%s/size.json' --svg '%s/size2.svg' > '%s/b.txt' && head -1 '%s/b.txt' && "
                  "diff '%s/a.txt' '%s/b.txt' | grep -c '^[<>]'; cmp '%s/size.svg' '%s/size2.svg' && echo same-plot",
             WL_CLI, WL_KERNEL_DIR, WL_KERNEL_DIR, tmp, WL_CLI, tmp, tmp, tmp, tmp, tmp, tmp, tmp, tmp);
    printf("%s", out);
    assert_non_null(strstr(out, "(records read back, host subgroup 32)"));
    /* the first line and the plot line differ, nothing else */
    assert_non_null(strstr(out, "\n2\n"));
    assert_non_null(strstr(out, "same-plot"));
    free(out);
    /* records that are not a batch's: named, exit 1 */
    out = sh(&rc, "cd '%s' && printf '{\"schema\": \"x\"}' > r1.json && "
                  "printf '{\"schema\": \"wavelift-batch 1\", \"records\": [{\"source\": \"a\", \"kernel\": 1}]}' "
                  "> r2.json && head -c 200 size.json > r3.json && for f in r1 r2 r3; do '%s' size $f.json; echo rc=$?; "
                  "done 2>&1",
             tmp, WL_CLI);
    printf("%s", out);
    assert_non_null(strstr(out, "r1.json: byte 15: not a batch's records"));
    assert_non_null(strstr(out, "r2.json: byte 73: a record's \"kernel\" is not a string"));
    assert_non_null(strstr(out, "r3.json: byte 200: "));
    assert_int_equal(count_lines(out, "rc=1"), 3);
    free(out);
}

/* A capture (written by run --capture on lavapipe) is a source: its
 * directory, found in a walk or named, one job a model and level */
static void captures(void **state)
{
    (void)state;
    int rc = 0;
    char *out = sh(&rc, "mkdir -p '%s/caps' && '%s' run '%s/atomics_global.w64.co' --kernel atom32 --global 256 "
                        "--local 64 --arg zero:64 --arg zero:64 --arg zero:1024 --capture '%s/caps/one' >/dev/null && "
                        "'%s' lift '%s/caps' --models lanes,wave --subgroup-size 32 -o '%s/capout' --csv - 2>&1; "
                        "echo rc=$?; ls '%s/capout/caps/one'",
                   tmp, WL_CLI, WL_KERNEL_DIR, tmp, WL_CLI, tmp, tmp, tmp);
    printf("%s", out);
    assert_non_null(strstr(out, "2 translations of 1 code objects and captures: 2 lifted"));
    assert_non_null(strstr(out, "\"capture\",lifted,lanes,64,32,2,"));
    assert_non_null(strstr(out, "\"capture\",lifted,wave,64,0,0,"));
    assert_non_null(strstr(out, "rc=0"));
    assert_non_null(strstr(out, "capture.lanes-k2.O2.spv"));
    assert_non_null(strstr(out, "capture.wave.O2.spv"));
    free(out);
    /* one capture lifted alone, named by its folder or its code.bin: the
     * batch's module */
    out = sh(&rc, "'%s' lift '%s/caps/one/code.bin' --kernel capture --subgroup-size 32 -o '%s/one.spv' >/dev/null && "
                  "'%s' lift '%s/caps/one' --kernel capture --subgroup-size 32 -o '%s/one2.spv' >/dev/null && "
                  "cmp '%s/one.spv' '%s/capout/caps/one/capture.lanes-k2.O2.spv' && cmp '%s/one.spv' '%s/one2.spv' && "
                  "echo same",
             WL_CLI, tmp, tmp, WL_CLI, tmp, tmp, tmp, tmp, tmp, tmp);
    assert_non_null(strstr(out, "same"));
    free(out);
}

/* Raw code (a dump's bytes) with a launch description: the capture's
 * manifest without its code line; the module is the capture's byte for
 * byte */
static void raw_launch(void **state)
{
    (void)state;
    int rc = 0;
    char *out = sh(&rc, "exec 2>&1; cd '%s' && mkdir -p raw && cp caps/one/code.bin raw/dump.bin && cp caps/one/mem.*.bin raw/ && "
                        "grep -v '^code ' caps/one/manifest.txt > raw/launch.txt && "
                        "'%s' lift raw/dump.bin --launch raw/launch.txt --code-address $(sed -n 's/^code [^ ]* [^ ]* [^ ]* "
                        "\\([^ ]*\\) .*/\\1/p' caps/one/manifest.txt) --subgroup-size 32 -o raw.spv && cmp raw.spv one.spv && "
                        "echo same; '%s' lift raw/dump.bin --launch raw/launch.txt --subgroup-size 32 -o rawdir/ --csv - "
                        "--quiet | grep -c '\"capture\",lifted'; '%s' lift raw/dump.bin --launch caps/one/manifest.txt "
                        "-o x.spv; echo rc=$?; '%s' lift raw/dump.bin --launch raw/none.txt -o x.spv; echo rc=$?; "
                        "'%s' lift raw/dump.bin --launch raw/launch.txt --entry 3 -o x.spv; echo rc=$?",
                   tmp, WL_CLI, WL_CLI, WL_CLI, WL_CLI, WL_CLI);
    printf("%s", out);
    assert_non_null(strstr(out, "same"));
    assert_non_null(strstr(out, "\n1\n")); /* the batch lifted it once */
    assert_non_null(strstr(out, "it has a 'code' line"));
    assert_non_null(strstr(out, "launch description raw/none.txt: cannot open"));
    assert_non_null(strstr(out, "--entry must be a byte offset, a multiple of 4"));
    assert_non_null(strstr(out, "rc=1\n"));
    assert_non_null(strstr(out, "rc=2\n"));
    free(out);
}

/* --host FILE: a host description; what it says reaches the translation
 * (no 64-bit atomics: the lock, a larger module), a bad line is named */
static void host_file(void **state)
{
    (void)state;
    int rc = 0;
    char *out = sh(&rc, "cd '%s' && printf 'name box\\nsubgroup-size 16\\n# a comment\\nint64-atomics 0\\n' > h.txt && "
                        "printf 'subgroup-size 12\\n' > h2.txt && printf 'colour red\\n' > h3.txt && "
                        "'%s' lift '%s/atomics_global.w64.co' --kernel atom64 --host h.txt -o h.spv; "
                        "'%s' lift '%s/atomics_global.w64.co' --kernel atom64 --subgroup-size 16 -o g.spv; "
                        "for f in h2 h3; do '%s' lift '%s/atomics_global.w64.co' --kernel atom64 --host $f.txt -o x.spv; "
                        "echo rc=$?; done 2>&1",
                   tmp, WL_CLI, WL_KERNEL_DIR, WL_CLI, WL_KERNEL_DIR, WL_CLI, WL_KERNEL_DIR);
    printf("%s", out);
    assert_non_null(strstr(out, "host: h.txt (box): subgroup 16"));
    assert_non_null(strstr(out, "64-bit atomics no"));
    char *a = strstr(out, "SPIR-V words: "), *b = a ? strstr(a + 1, "SPIR-V words: ") : NULL;
    assert_non_null(b);
    assert_true(strtoul(a + 14, NULL, 10) > strtoul(b + 14, NULL, 10)); /* the lock costs words */
    assert_non_null(strstr(out, "k: 4"));
    assert_non_null(strstr(out, "h2.txt: line 1: subgroup-size must be 4, 8, 16, 32 or 64"));
    assert_non_null(strstr(out, "h3.txt: line 1: unknown key colour"));
    assert_int_equal(count_lines(out, "rc=1"), 2);
    free(out);
}

/* A kernel calling printf is refused by name at translation (exit 3),
 * not run to an address escape */
static void printf_refused(void **state)
{
    (void)state;
    char path[600];
    snprintf(path, sizeof path, "%s/pf.cl", tmp);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "kernel void pf(global int *a) { printf(\"%%d\\n\", a[0]); a[1] = 2; }\n");
    fclose(f);
    int rc = 0;
    char *out = sh(&rc, "'%s' -x cl -cl-std=CL2.0 -Xclang -finclude-default-header -target amdgcn-amd-amdhsa "
                        "-mcpu=gfx1030 -O2 --rocm-device-lib-path='%s' '%s' -o '%s/pf.co' 2>&1 && "
                        "'%s' lift '%s/pf.co' --kernel pf -o '%s/pf.spv' 2>&1; echo rc=$?; "
                        "'%s' lift '%s/pf.co' 2>&1 | grep -A1 'refused, by cause'",
                   WL_CLANG, WL_DEVICE_LIBS, path, tmp, WL_CLI, tmp, tmp, WL_CLI, tmp);
    printf("%s", out);
    assert_non_null(strstr(out, "refused: the kernel calls printf"));
    assert_non_null(strstr(out, "rc=3"));
    assert_non_null(strstr(out, "the kernel calls printf (argument N: its buffer)"));
    free(out);
}

/* --cache: the second run over the same code objects translates nothing
 * (every record cached), writes the same modules and exits as the first;
 * another -O level finds nothing there */
static void cache(void **state)
{
    (void)state;
    int rc1 = 0, rc2 = 0, rc3 = 0;
    char *a = sh(&rc1, "'%s' lift '%s'/[a-d]*.co --cache '%s/kc' -o '%s/c1' --json '%s/c1.json' -j 2 2>&1; "
                       "echo rc=$?", WL_CLI, WL_KERNEL_DIR, tmp, tmp, tmp);
    char *b = sh(&rc2, "'%s' lift '%s'/[a-d]*.co --cache '%s/kc' -o '%s/c2' --json '%s/c2.json' -j 2 2>&1; "
                       "echo rc=$?; diff -r '%s/c1' '%s/c2' && echo same; grep -c '\"cached\": true' '%s/c2.json'; "
                       "grep -c '\"cached\": true' '%s/c1.json'",
                 WL_CLI, WL_KERNEL_DIR, tmp, tmp, tmp, tmp, tmp, tmp, tmp);
    char *c = sh(&rc3, "'%s' lift '%s'/[a-d]*.co -O0 --cache '%s/kc' --json - 2>/dev/null | grep -c '\"cached\": true'",
                 WL_CLI, WL_KERNEL_DIR, tmp);
    printf("%s%s-O0: %s", a, b, c);
    int n = 0;
    assert_int_equal(sscanf(a, "%d translations", &n), 1);
    assert_true(n > 10);
    assert_non_null(strstr(a, "rc=0\n"));
    assert_non_null(strstr(b, "rc=0\n"));
    char want[64];
    snprintf(want, sizeof want, "from the cache (%s/kc): %d\n", tmp, n);
    assert_non_null(strstr(b, want));
    snprintf(want, sizeof want, "same\n%d\n0\n", n);
    assert_non_null(strstr(b, want));
    assert_int_equal(strtol(c, NULL, 10), 0);
    free(a), free(b), free(c);
    /* damaged entries (cut short, or garbage of the right size) are
     * misses, translated again, never read as records */
    a = sh(&rc1, "n=0; for f in '%s'/kc/*.rec; do n=$((n+1)); if [ $((n %% 2)) = 0 ]; then head -c 9 \"$f\" > \"$f.x\"; "
                 "else head -c $(stat -c %%s \"$f\") /dev/urandom > \"$f.x\"; fi; mv \"$f.x\" \"$f\"; done; "
                 "'%s' lift '%s'/[a-d]*.co --cache '%s/kc' -o '%s/c3' -j 2 2>&1; echo rc=$?; diff -r '%s/c1' '%s/c3' && "
                 "echo same",
           tmp, WL_CLI, WL_KERNEL_DIR, tmp, tmp, tmp, tmp);
    printf("%s", a);
    snprintf(want, sizeof want, "from the cache (%s/kc): 0\n", tmp);
    assert_non_null(strstr(a, want));
    assert_non_null(strstr(a, "rc=0\nsame"));
    free(a);
}

/* SIGINT: the batch stops, no partial module (*.tmp*) is left, exit 1 */
static void interrupted(void **state)
{
    (void)state;
    int rc = 0;
    char *out = sh(&rc,
                   "'%s' lift '%s' -O0 -O2 --models lanes,wave --subgroup-size 8 -j 2 -o '%s/int' > '%s/int.txt' 2>&1 & "
                   "p=$!; sleep 1.5; kill -INT $p; wait $p; echo rc=$?; "
                   "find '%s/int' -name '*.tmp*' | wc -l; grep -c interrupted '%s/int.txt'",
                   WL_CLI, WL_KERNEL_DIR, tmp, tmp, tmp, tmp);
    printf("%s", out);
    assert_non_null(strstr(out, "rc=1\n0\n"));
    free(out);
}

int main(void)
{
    wlt_use_lavapipe(0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(corpus_batch), cmocka_unit_test(progress_line), cmocka_unit_test(bad_inputs),
        cmocka_unit_test(memory_limit), cmocka_unit_test(time_limit),
        cmocka_unit_test(size_report), cmocka_unit_test(captures), cmocka_unit_test(raw_launch),
        cmocka_unit_test(host_file), cmocka_unit_test(printf_refused),
        cmocka_unit_test(cache), cmocka_unit_test(interrupted),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
