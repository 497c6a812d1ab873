/* Translation of independent programs from several threads at once (the
 * library inside an emulator: include/wavelift/translate.h says each call
 * runs in an LLVM context of its own and keeps nothing between calls).
 *
 * Every other kernel of the OpenCL corpus (clang-19, wave64 and wave32) is
 * a job: the lanes model at S = 32, -O2; every third also the wave model
 * at -O2 and the lanes model at S = 8, -O0; all validated by SPIRV-Tools.
 * The jobs run once on this thread for the reference, then THREADS threads
 * run all of them at the same time, each starting at a different job: every
 * result (status, message, SPIR-V words) must equal the reference. The
 * oracle is the sequential run of the same library; the test fails on the
 * first difference a thread sees, and ASan (CI's second suite) watches the
 * shared reads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "wavelift/codeobj.h"
#include "wavelift/translate.h"

#define THREADS 4
#define MAX_JOBS 512
#define MAX_COS 64

typedef struct job {
    const wl_lift_program *prog;
    wl_translate_options opt;
    const char *name;
    /* the reference */
    wl_status st;
    uint32_t *w;
    size_t nw;
    char err[512];
} job;

typedef struct corpus {
    wl_codeobj *cos[MAX_COS];
    size_t ncos;
    wl_lift_program progs[MAX_JOBS];
    char names[MAX_JOBS][96];
    size_t nprogs;
    job jobs[MAX_JOBS];
    size_t njobs;
} corpus;

typedef struct worker {
    const corpus *c;
    size_t start;
    unsigned ran, differ;
    char first[256];
} worker;

static void run_job(const job *j, wl_status *st, uint32_t **w, size_t *nw, char *err, size_t cap)
{
    *w = NULL;
    *nw = 0;
    err[0] = 0;
    *st = wl_translate(j->prog, &j->opt, w, nw, NULL, err, cap);
}

static void *work(void *arg)
{
    worker *wk = arg;
    const corpus *c = wk->c;
    for (size_t n = 0; n < c->njobs; n++) {
        const job *j = &c->jobs[(wk->start + n) % c->njobs];
        wl_status st;
        uint32_t *w;
        size_t nw;
        char err[512];
        run_job(j, &st, &w, &nw, err, sizeof err);
        wk->ran++;
        int same = st == j->st && nw == j->nw && !strcmp(err, j->err) &&
                   (nw == 0 || (w && j->w && !memcmp(w, j->w, nw * sizeof *w)));
        if (!same && wk->differ++ == 0)
            snprintf(wk->first, sizeof wk->first, "%s: status %d/%d, %zu/%zu words, \"%.80s\"", j->name, st, j->st, nw,
                     j->nw, err);
        free(w);
    }
    return NULL;
}

static void add_job(corpus *c, const wl_lift_program *p, const char *name, int model, unsigned S, int o2)
{
    if (c->njobs == MAX_JOBS)
        return;
    job *j = &c->jobs[c->njobs++];
    memset(j, 0, sizeof *j);
    j->prog = p;
    j->name = name;
    wl_translate_options_init(&j->opt);
    j->opt.subgroup_size = S;
    j->opt.local_size[0] = 64;
    j->opt.local_size[1] = j->opt.local_size[2] = 1;
    j->opt.opt_level = o2 ? 2 : 0;
    j->opt.validate = 1;
    j->opt.model = model;
}

static void load(corpus *c)
{
    size_t nfiles = 0, seen = 0;
    char **files = wlt_dir_names(WL_KERNEL_DIR, ".co", &nfiles); /* sorted: the same jobs on every machine */
    assert_non_null(files);
    for (size_t f = 0; f < nfiles && c->ncos < MAX_COS; f++) {
        char path[1024], err[1024];
        snprintf(path, sizeof path, "%s/%s", WL_KERNEL_DIR, files[f]);
        wl_codeobj *co = NULL;
        if (wl_codeobj_load(path, &co, err, sizeof err) != WL_OK)
            fail_msg("%s: %s", files[f], err);
        c->cos[c->ncos++] = co;
        for (size_t i = 0; i < co->nkernels && c->nprogs < MAX_JOBS; i++, seen++) {
            if (seen % 2)
                continue;
            wl_lift_program *p = &c->progs[c->nprogs];
            if (wl_lift_program_from_kernel(co, &co->kernels[i], p, err, sizeof err) != WL_OK)
                continue;
            char *name = c->names[c->nprogs++];
            snprintf(name, sizeof c->names[0], "%s:%s", files[f], co->kernels[i].name);
            add_job(c, p, name, WL_MODEL_LANES, 32, 1);
            if (seen % 3 == 0) {
                add_job(c, p, name, WL_MODEL_WAVE, 0, 1);
                add_job(c, p, name, WL_MODEL_LANES, 8, 0);
            }
        }
    }
    wlt_free_names(files, nfiles);
}

static void same_from_threads(void **state)
{
    (void)state;
    corpus *c = calloc(1, sizeof *c);
    assert_non_null(c);
    load(c);
    assert_true(c->njobs >= 100);
    unsigned ok = 0, refused = 0;
    for (size_t i = 0; i < c->njobs; i++) {
        job *j = &c->jobs[i];
        run_job(j, &j->st, &j->w, &j->nw, j->err, sizeof j->err);
        ok += j->st == WL_OK;
        refused += j->st == WL_ERR_UNSUPPORTED;
        if (j->st != WL_OK && j->st != WL_ERR_UNSUPPORTED)
            printf("%s: failed (%d): %s\n", j->name, j->st, j->err);
    }
    worker wk[THREADS];
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++) {
        memset(&wk[t], 0, sizeof wk[t]);
        wk[t].c = c;
        wk[t].start = (size_t)t * c->njobs / THREADS;
        assert_int_equal(pthread_create(&th[t], NULL, work, &wk[t]), 0);
    }
    unsigned ran = 0, differ = 0;
    for (int t = 0; t < THREADS; t++) {
        assert_int_equal(pthread_join(th[t], NULL), 0);
        ran += wk[t].ran;
        differ += wk[t].differ;
        if (wk[t].differ)
            printf("thread %d: %u results differ, the first %s\n", t, wk[t].differ, wk[t].first);
    }
    printf("%zu jobs (%u translated, %u refused by name) on this thread, then %d threads at once: %u runs, "
           "%u differ from the reference\n",
           c->njobs, ok, refused, THREADS, ran, differ);
    assert_int_equal(ok + refused, c->njobs);
    assert_int_equal(ran, THREADS * c->njobs);
    assert_int_equal(differ, 0);
    assert_true(ok > c->njobs / 2);
    for (size_t i = 0; i < c->njobs; i++)
        free(c->jobs[i].w);
    for (size_t i = 0; i < c->ncos; i++)
        wl_codeobj_free(c->cos[i]);
    free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(same_from_threads)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
