/* wavelift lift, a batch: every kernel of many code objects, in parallel
 * (docs/cli.md, "Batches").
 *
 *   wavelift lift INPUT... [--kernel PATTERN] [-o DIR] [--models M[,M]]
 *                 [-O0] [-O2] [-j N] [--json FILE] [--csv FILE]
 *                 [--timeout SECONDS] [--max-memory MIB] [--quiet] [options]
 *
 * INPUTs are code objects and directories, walked recursively (a file in a
 * directory that is not an ELF file is counted, not translated; a named
 * one that cannot be read is a failure). Each (code object, kernel, model,
 * -O level) is a job. A job runs in a child process of its own: a crash,
 * a hang (--timeout) or an address-space limit (--max-memory) takes that
 * job only, and is reported as such. A child writes its module to a
 * temporary name beside its place and renames it there, so no partial
 * module is ever left (the parent removes the temporary files of the
 * children it stops: a timeout, SIGINT, SIGTERM). It sends its record to
 * the parent through a pipe, in one write.
 *
 * Modules: DIR/SOURCE/KERNEL.MODEL.On.spv, SOURCE the code object's path
 * under the directory given (its name for a file given), MODEL `lanes-kK`
 * or `wave`.
 *
 * On a terminal (stderr) a progress line is redrawn; elsewhere, or with
 * --quiet, only the summary (stdout) is printed. Exit: 0 when every job
 * translated, 3 when some were refused and none failed, 1 when some failed
 * (bad input, a crash, a limit), 2 usage. */
#define _GNU_SOURCE
#include "options.h"

#include "wavelift/capture.h"
#include "wavelift/translate.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- records -------------------------------------------------------------- */

typedef struct job {
    size_t src;          /* index into the batch's sources */
    const wl_kernel *kernel; /* NULL: the source is a capture */
    const char *kname;       /* the kernel's name ("capture" for a capture) */
    char *kname_own;         /* kname where the job is a record read back (size RECORDS.json) */
    unsigned wave;
    int model_req;       /* CLI_MODEL_AUTO or WL_MODEL_* */
    int opt;
    rec r;
    long peak_kib;       /* the child's peak resident memory */
    double wall_ms;
    char *out, *tmp;     /* the module's place and its temporary name (NULL: none written) */
    pid_t pid;
    int fd;
    double t0;
    int done, got;
    int cached;          /* --cache: the record and module came from the cache */
    char key[65];        /* --cache: wl_translate_key in hex ("" where the program did not load) */
} job;

typedef struct source {
    char *path;          /* as found */
    char *rel;           /* its name under the output directory */
    wl_codeobj *co;      /* the code object, or */
    wl_capture *cap;     /* a capture (docs/capture.md); neither: err says why */
    char err[256];
    int named;           /* given on the command line (not found in a directory) */
} source;

typedef struct batch {
    const cli_options *o;
    source *src;
    size_t nsrc, capsrc;
    size_t skipped;      /* files in directories that are not ELF files */
    job *jobs;
    size_t njobs, capjobs;
    unsigned S;
    int records;         /* size RECORDS.json: the jobs are records read back */
} batch;

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    interrupted = sig;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return p;
    size_t c = *cap ? *cap * 2 : 16;
    void *q = realloc(p, c * size);
    if (q)
        *cap = c;
    return q;
}

/* A new zeroed element at the end of *arr (*n of them, room for *cap);
 * NULL: out of memory (the array unchanged). */
static void *append(void *arr, size_t *n, size_t *cap, size_t size)
{
    void **a = arr;
    void *g = grow(*a, cap, *n, size);
    if (!g)
        return NULL;
    *a = g;
    void *e = (char *)g + (*n)++ * size;
    memset(e, 0, size);
    return e;
}

/* ---- inputs --------------------------------------------------------------- */

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s && s[1] ? s + 1 : p;
}

static int is_elf(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    unsigned char m[4] = {0};
    size_t n = fread(m, 1, 4, f);
    fclose(f);
    return n == 4 && m[0] == 0x7f && m[1] == 'E' && m[2] == 'L' && m[3] == 'F';
}

int cli_read_raw_launch(const cli_options *o, const char *path, wl_capture **cap, char *err, size_t errcap)
{
    *cap = NULL;
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st) || !S_ISREG(st.st_mode) || st.st_size <= 0 || st.st_size > (64 << 20)) {
        snprintf(err, errcap, "%s", !f ? "cannot open it" : st.st_size <= 0 ? "raw code: empty, or not a file"
                                                                             : "raw code: more than 64 MiB");
        if (f)
            fclose(f);
        return -1;
    }
    uint8_t *code = malloc((size_t)st.st_size);
    int bad = !code || fread(code, 1, (size_t)st.st_size, f) != (size_t)st.st_size;
    fclose(f);
    if (bad) {
        snprintf(err, errcap, "cannot read it");
        free(code);
        return -1;
    }
    bad = wl_capture_read_launch(o->launch, code, (uint64_t)st.st_size, o->code_address, o->entry, cap, err,
                                 errcap) != WL_OK;
    free(code);
    return bad ? -1 : 0;
}

int cli_capture_of(const char *path, char *dir, size_t cap)
{
    struct stat st;
    char man[4200];
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(dir, cap, "%s", path);
    } else {
        if (is_elf(path))
            return 0;
        const char *slash = strrchr(path, '/');
        if (slash)
            snprintf(dir, cap, "%.*s", slash == path ? 1 : (int)(slash - path), path);
        else
            snprintf(dir, cap, ".");
    }
    snprintf(man, sizeof man, "%s/manifest.txt", dir);
    return access(man, F_OK) == 0;
}

static int add_source(batch *b, const char *path, const char *rel, int named)
{
    source *s = append(&b->src, &b->nsrc, &b->capsrc, sizeof *s);
    if (!s)
        return -1;
    s->path = strdup(path);
    s->rel = strdup(rel);
    s->named = named;
    if (!s->path || !s->rel)
        return -1;
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) { /* a capture's directory */
        if (wl_capture_read(path, &s->cap, s->err, sizeof s->err) != WL_OK)
            s->cap = NULL;
    } else if (named && b->o->launch) { /* raw code, --launch */
        if (cli_read_raw_launch(b->o, path, &s->cap, s->err, sizeof s->err))
            s->cap = NULL;
    } else if (wl_codeobj_load(path, &s->co, s->err, sizeof s->err) != WL_OK)
        s->co = NULL;
    else if (s->co->target < 0) {
        snprintf(s->err, sizeof s->err, "target %s is not a gfx10 target", s->co->mach_name);
        wl_codeobj_free(s->co);
        s->co = NULL;
    }
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files under dir (sorted, recursively); rel is dir's name under the
 * output directory ("" at the top). */
static int walk(batch *b, const char *dir, const char *rel, int depth)
{
    if (depth > 64)
        return 0;
    char man[4096];
    snprintf(man, sizeof man, "%s/manifest.txt", dir);
    if (access(man, F_OK) == 0) /* a capture (docs/capture.md) */
        return add_source(b, dir, rel[0] ? rel : base_name(dir), 1);
    DIR *d = opendir(dir);
    if (!d)
        return add_source(b, dir, rel[0] ? rel : dir, 1);
    char **names = NULL;
    size_t n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char **nn = grow(names, &cap, n, sizeof *names);
        if (!nn)
            break;
        names = nn;
        if (!(names[n] = strdup(e->d_name)))
            break;
        n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        char path[4096], r[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        snprintf(r, sizeof r, "%s%s%s", rel, rel[0] ? "/" : "", names[i]);
        struct stat st;
        if (!rc && stat(path, &st) == 0) {
            if (S_ISDIR(st.st_mode))
                rc = walk(b, path, r, depth + 1);
            else if (S_ISREG(st.st_mode) && is_elf(path))
                rc = add_source(b, path, r, 0);
            else
                b->skipped++;
        }
        free(names[i]);
    }
    free(names);
    return rc;
}


/* ---- jobs ----------------------------------------------------------------- */

static int add_job(batch *b, size_t src, const wl_kernel *k, int model, int opt)
{
    job *j = append(&b->jobs, &b->njobs, &b->capjobs, sizeof *j);
    if (!j)
        return -1;
    j->src = src;
    j->kernel = k;
    j->kname = k ? k->name : "capture";
    j->wave = k ? (k->launch.wave32 ? 32 : 64) : b->src[src].cap->wave_size;
    j->model_req = model;
    j->opt = opt;
    j->fd = -1;
    j->r.opt = opt;
    return 0;
}

static int make_dirs(char *path) /* every directory of path's parent */
{
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            int bad = mkdir(path, 0777) && errno != EEXIST;
            *p = '/';
            if (bad)
                return -1;
        }
    return 0;
}

/* A job's program and translate options (the child's, and the cache
 * key's): the work-group size --local's, the capture's, or one wave. */
static wl_status job_setup(const batch *b, const job *j, wl_lift_program *prog, wl_translate_options *topt, char *err,
                           size_t cap)
{
    const cli_options *o = b->o;
    const source *s = &b->src[j->src];
    wl_status st = s->co ? wl_lift_program_from_kernel(s->co, j->kernel, prog, err, cap)
                         : wl_capture_lift_program(s->cap, prog, err, cap);
    if (st != WL_OK)
        return st;
    uint32_t local[3] = {o->local[0], o->local[1], o->local[2]};
    if (!o->local_dims && s->cap) { /* the capture's */
        memcpy(local, s->cap->local, sizeof local);
    } else if (!o->local_dims) { /* one wave, as lift */
        local[0] = prog->wave_size;
        local[1] = local[2] = 1;
    }
    char why[256];
    int model = cli_choose_model(j->model_req, prog->wave_size, b->S, 4, 64, why, sizeof why);
    *topt = cli_offline_options(o, model, b->S, local, j->opt);
    return WL_OK;
}

/* ---- the cache (--cache DIR): DIR/KEY.rec, the record; DIR/KEY.spv, the
 * module where it lifted. Only translations that lifted or were refused
 * are kept (a failure or a limit may go otherwise next time). Files are
 * written under temporary names and renamed, so a reader sees whole ones. */

static void cache_path(const batch *b, const job *j, const char *ext, char *out, size_t cap)
{
    snprintf(out, cap, "%s/%s.%s", b->o->cache, j->key, ext);
}

static int put_file(const char *path, const void *a, size_t na, const void *c, size_t nc)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return -1;
    int bad = fwrite(a, 1, na, f) != na || (nc && fwrite(c, 1, nc, f) != nc);
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path)) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* The child's result into the cache (after the module is in place). */
static void cache_put(const batch *b, const job *j, const uint32_t *words, size_t nw)
{
    if (!b->o->cache || !j->key[0] || (j->r.status != JS_OK && j->r.status != JS_REFUSED))
        return;
    char path[4200];
    if (j->r.status == JS_OK) {
        cache_path(b, j, "spv", path, sizeof path);
        if (put_file(path, words, nw * 4, NULL, 0))
            return;
    }
    uint32_t head[2] = {CLI_CACHE_MAGIC, (uint32_t)sizeof j->r};
    cache_path(b, j, "rec", path, sizeof path);
    put_file(path, head, sizeof head, &j->r, sizeof j->r);
}

/* The job from the cache: 1 when its record (and module, copied to its
 * place) were there. */
static int cache_get(batch *b, job *j)
{
    char path[4200];
    cache_path(b, j, "rec", path, sizeof path);
    if (access(path, R_OK))
        return 0;
    size_t n = 0;
    uint8_t *bytes = cli_read_file(path, &n);
    rec r;
    int ok = bytes && cli_cache_rec_parse(bytes, n, &r) == 0;
    free(bytes);
    if (!ok)
        return 0;
    if (r.status == JS_OK) {
        cache_path(b, j, "spv", path, sizeof path);
        size_t nb = 0;
        uint8_t *w = cli_read_file(path, &nb);
        ok = w && nb == r.words * 4;
        if (ok && j->out)
            ok = put_file(j->out, w, nb, NULL, 0) == 0;
        free(w);
        if (!ok)
            return 0;
    }
    r.opt = j->opt;
    j->r = r;
    j->cached = j->done = 1;
    return 1;
}

/* j's key (hex), or "" where its program does not load */
static void job_key(const batch *b, job *j)
{
    wl_lift_program prog;
    wl_translate_options topt;
    char err[256];
    uint8_t k[32];
    j->key[0] = 0;
    if (job_setup(b, j, &prog, &topt, err, sizeof err) != WL_OK || wl_translate_key(&prog, &topt, k) != WL_OK)
        return;
    for (int i = 0; i < 32; i++)
        snprintf(j->key + 2 * i, 3, "%02x", k[i]);
}

/* The child: translate one job and send its record. Never returns. */
static void child(const batch *b, job *j, int fd)
{
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    /* LLVM's and the C++ runtime's last words would break the progress
     * line: the record says what happened */
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
        dup2(null, 2);
        close(null);
    }
    const cli_options *o = b->o;
    if (o->max_memory_mib) {
        struct rlimit rl = {(rlim_t)o->max_memory_mib << 20, (rlim_t)o->max_memory_mib << 20};
        setrlimit(RLIMIT_AS, &rl);
    }
    rec *r = &j->r;
    char err[sizeof r->reason];
    wl_lift_program prog;
    wl_translate_options topt;
    wl_status st = job_setup(b, j, &prog, &topt, err, sizeof err);
    if (st != WL_OK) {
        r->status = st == WL_ERR_UNSUPPORTED ? JS_REFUSED : JS_BAD_INPUT;
        snprintf(r->reason, sizeof r->reason, "%s", err);
    } else {
        r->wave = prog.wave_size;
        r->model = topt.model;
        uint32_t *words = NULL;
        size_t nw = 0;
        wl_translate_info info;
        memset(&info, 0, sizeof info);
        st = wl_translate(&prog, &topt, &words, &nw, &info, err, sizeof err);
        r->guest = info.guest_instructions;
        if (st != WL_OK) {
            r->status = st == WL_ERR_UNSUPPORTED ? JS_REFUSED : JS_FAILED;
            snprintf(r->reason, sizeof r->reason, "%s", err);
        } else {
            r->status = JS_OK;
            r->subgroup = r->model == WL_MODEL_WAVE ? 0 : b->S;
            r->k = r->model == WL_MODEL_WAVE ? 0 : info.lanes_per_invocation;
            r->lane_loops = info.lane_loops;
            r->words = nw;
            r->llvm_lifted = info.llvm_lifted;
            r->llvm_lowered = info.llvm_lowered;
            r->llvm_optimized = info.llvm_optimized;
            r->features = info.features;
            r->ms_lift = info.ms_lift;
            r->ms_lower = info.ms_lower;
            r->ms_opt = info.ms_opt;
            r->ms_emit = info.ms_emit;
            r->ms_total = info.ms_total;
            cli_words_split(words, nw, r);
            if (j->tmp && (cli_write_file(j->tmp, words, nw * 4) || rename(j->tmp, j->out))) {
                unlink(j->tmp);
                r->status = JS_FAILED;
                snprintf(r->reason, sizeof r->reason, "cannot write %s", j->out);
            }
        }
        cache_put(b, j, words, nw);
        free(words);
    }
    ssize_t w = write(fd, r, sizeof *r);
    _exit(w == (ssize_t)sizeof *r ? 0 : 1);
}

/* The module's place: DIR/SOURCE/KERNEL.MODEL.On.spv. The model is known
 * before translating (cli_choose_model from the kernel's wave size). */
static int place(batch *b, job *j)
{
    const cli_options *o = b->o;
    if (!o->out)
        return 0;
    unsigned W = j->wave;
    char why[8];
    int model = cli_choose_model(j->model_req, W, b->S, 4, 64, why, sizeof why);
    char mname[32];
    if (model == WL_MODEL_WAVE)
        snprintf(mname, sizeof mname, "wave");
    else
        snprintf(mname, sizeof mname, "lanes-k%u", b->S ? W / b->S : 0);
    size_t n = strlen(o->out) + strlen(b->src[j->src].rel) + strlen(j->kname) + 64;
    j->out = malloc(n);
    j->tmp = malloc(n + 32);
    if (!j->out || !j->tmp)
        return -1;
    snprintf(j->out, n, "%s/%s/%s.%s.O%d.spv", o->out, b->src[j->src].rel, j->kname, mname, j->opt);
    snprintf(j->tmp, n + 32, "%s.tmp%ld", j->out, (long)getpid());
    return make_dirs(j->out);
}

static int start(batch *b, job *j)
{
    int p[2];
    if (pipe(p))
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0) {
        close(p[0]);
        /* the temporary name: this child's pid, so that a crashed
         * child's file is found and removed by name */
        if (j->tmp)
            snprintf(j->tmp + strlen(j->out), 32, ".tmp%ld", (long)getpid());
        child(b, j, p[1]);
    }
    close(p[1]);
    if (j->tmp)
        snprintf(j->tmp + strlen(j->out), 32, ".tmp%ld", (long)pid);
    j->pid = pid;
    j->fd = p[0];
    j->t0 = now_ms();
    return 0;
}

/* Reaps job j's child (blocking) and completes its record. */
static void reap(batch *b, job *j, int killed_why)
{
    int ws = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    while (wait4(j->pid, &ws, 0, &ru) < 0 && errno == EINTR)
        ;
    j->wall_ms = now_ms() - j->t0;
    j->peak_kib = ru.ru_maxrss;
    if (j->fd >= 0) {
        if (!j->got && !killed_why) {
            ssize_t n = read(j->fd, &j->r, sizeof j->r);
            j->got = n == (ssize_t)sizeof j->r;
        }
        close(j->fd);
        j->fd = -1;
    }
    if (killed_why) {
        j->r.status = killed_why;
        if (killed_why == JS_TIMEOUT)
            snprintf(j->r.reason, sizeof j->r.reason, "stopped after %u s (--timeout)", b->o->timeout_s);
        else
            snprintf(j->r.reason, sizeof j->r.reason, "stopped (signal %d)", (int)interrupted);
    } else if (!j->got) {
        int sig = WIFSIGNALED(ws) ? WTERMSIG(ws) : 0;
        j->r.status = b->o->max_memory_mib && (sig == SIGABRT || sig == SIGSEGV || sig == SIGBUS ||
                                               (WIFEXITED(ws) && WEXITSTATUS(ws)))
                          ? JS_MEMORY
                          : JS_CRASHED;
        if (j->r.status == JS_MEMORY)
            snprintf(j->r.reason, sizeof j->r.reason, "ended (%s %d) under --max-memory %u MiB: out of memory",
                     sig ? "signal" : "exit", sig ? sig : WEXITSTATUS(ws), b->o->max_memory_mib);
        else
            snprintf(j->r.reason, sizeof j->r.reason, "the translation crashed (%s %d)", sig ? "signal" : "exit",
                     sig ? sig : WEXITSTATUS(ws));
    }
    if (j->tmp && j->r.status != JS_OK)
        unlink(j->tmp);
    j->done = 1;
}

/* ---- progress and summary --------------------------------------------------- */

static void progress(const batch *b, size_t done, size_t failed, size_t refused, double t0)
{
    const job *slow = NULL;
    double now = now_ms();
    for (size_t i = 0; i < b->njobs; i++)
        if (b->jobs[i].pid && !b->jobs[i].done && (!slow || b->jobs[i].t0 < slow->t0))
            slow = &b->jobs[i];
    fprintf(stderr, "\r\033[K[%zu/%zu] %zu failed, %zu refused, %.1f s", done, b->njobs, failed, refused,
            (now - t0) / 1e3);
    if (slow)
        fprintf(stderr, "; slowest: %s %s (%.1f s)", b->src[slow->src].rel, slow->kname,
                (now - slow->t0) / 1e3);
    fflush(stderr);
}

/* A refusal's reason without what differs between programs: "at offset
 * 0x..." and numbers, so that equal causes group. */
static void reason_key(const char *r, char *key, size_t cap)
{
    size_t o = 0;
    for (const char *p = r; *p && o + 1 < cap;) {
        if (!strncmp(p, " at offset 0x", 13)) {
            p += 13;
            while ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F'))
                p++;
            continue;
        }
        if (*p >= '0' && *p <= '9' && (p == r || !((p[-1] >= 'a' && p[-1] <= 'z') || p[-1] == '_'))) {
            key[o++] = 'N';
            while ((*p >= '0' && *p <= '9') || *p == 'x' || (*p >= 'a' && *p <= 'f'))
                p++;
            continue;
        }
        key[o++] = *p++;
    }
    key[o] = 0;
}

typedef struct group {
    char key[200];
    size_t n;
} group;

static int cmp_group(const void *a, const void *b)
{
    const group *x = a, *y = b;
    return x->n != y->n ? (x->n < y->n ? 1 : -1) : strcmp(x->key, y->key);
}

/* the host's exact Fma widths (--fused-fma, --host), as the summary says them */
static const char *fma_text(int bits)
{
    static const char *const t[8] = {"", ", float Fma exact", ", double Fma exact", ", Fma exact",
                                     ", float Fma exact but flushing", ", float Fma exact (flushing too)",
                                     ", double Fma exact, float flushing", ", Fma exact (float flushing too)"};
    return t[bits & 7];
}

static void summary(const batch *b, double ms, FILE *f)
{
    size_t count[JS_N] = {0}, bad_src = 0;
    for (size_t i = 0; i < b->njobs; i++)
        count[b->jobs[i].r.status]++;
    for (size_t i = 0; i < b->nsrc; i++)
        bad_src += !b->src[i].co && !b->src[i].cap && !b->records;
    size_t failed = b->njobs - count[JS_OK] - count[JS_REFUSED];
    fprintf(f, "%zu translations of %zu code objects and captures: %zu lifted, %zu refused, %zu failed", b->njobs, b->nsrc - bad_src,
           count[JS_OK], count[JS_REFUSED], failed);
    if (b->records)
        fprintf(f, " (records read back, host subgroup %u)\n", b->S);
    else
        fprintf(f, " (%.1f s, %u at a time, host subgroup %u%s)\n", ms / 1e3,
                b->o->jobs ? b->o->jobs : (unsigned)sysconf(_SC_NPROCESSORS_ONLN), b->S,
                fma_text(b->o->fused_fma));
    size_t cached = 0;
    for (size_t i = 0; i < b->njobs; i++)
        cached += (size_t)b->jobs[i].cached;
    if (b->o->cache)
        fprintf(f, "  from the cache (%s): %zu\n", b->o->cache, cached);
    for (int s = JS_BAD_INPUT; s < JS_N; s++)
        if (count[s])
            fprintf(f, "  %s: %zu\n", cli_status_names[s], count[s]);
    if (bad_src || b->skipped)
        fprintf(f, "inputs: %zu not code objects that were named or failed to load, %zu other files skipped\n", bad_src,
               b->skipped);
    for (size_t i = 0; i < b->nsrc; i++)
        if (!b->src[i].co && !b->src[i].cap && !b->records)
            fprintf(f, "  %s: %s\n", b->src[i].path, b->src[i].err);
    /* refusals and failures grouped by cause, the most frequent first */
    for (int pass = 0; pass < 2; pass++) {
        group *g = calloc(b->njobs ? b->njobs : 1, sizeof *g);
        size_t ng = 0;
        if (!g)
            return;
        for (size_t i = 0; i < b->njobs; i++) {
            const rec *r = &b->jobs[i].r;
            if ((pass == 0) != (r->status == JS_REFUSED) || r->status == JS_OK)
                continue;
            char key[200];
            reason_key(r->reason, key, sizeof key);
            size_t k = 0;
            while (k < ng && strcmp(g[k].key, key))
                k++;
            if (k == ng)
                snprintf(g[ng++].key, sizeof g[0].key, "%s", key);
            g[k].n++;
        }
        qsort(g, ng, sizeof *g, cmp_group);
        if (ng)
            fprintf(f, "%s, by cause:\n", pass ? "failed" : "refused");
        for (size_t k = 0; k < ng; k++)
            fprintf(f, "  %5zu  %s\n", g[k].n, g[k].key);
        free(g);
    }
}

/* ---- JSON and CSV --------------------------------------------------------------- */

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static const char *const feature_names[] = {"int8", "int16", "int64", "float16", "float64",
                                            "storage8", "storage16", "int64-atomics", "buffer-device-address",
                                            "subgroup-basic", "subgroup-vote", "subgroup-ballot",
                                            "subgroup-shuffle", "subgroup-arithmetic", "subgroup-relative"};

static void features_text(uint32_t f, char *out, size_t cap)
{
    size_t o = 0;
    out[0] = 0;
    for (size_t i = 0; i < sizeof feature_names / sizeof feature_names[0]; i++)
        if (f >> i & 1)
            o += (size_t)snprintf(out + o, o < cap ? cap - o : 0, "%s%s", o ? " " : "", feature_names[i]);
}

static FILE *open_out(const char *path)
{
    return strcmp(path, "-") ? fopen(path, "w") : stdout;
}

static int write_json(const batch *b, const char *path)
{
    FILE *f = open_out(path);
    if (!f)
        return -1;
    fprintf(f, "{\"schema\": \"wavelift-batch 1\", \"subgroup\": %u, \"records\": [", b->S);
    for (size_t i = 0; i < b->njobs; i++) {
        const job *j = &b->jobs[i];
        const rec *r = &j->r;
        char feats[512];
        features_text(r->features, feats, sizeof feats);
        fprintf(f, "%s\n  {\"source\": ", i ? "," : "");
        json_str(f, b->src[j->src].path);
        fprintf(f, ", \"name\": ");
        json_str(f, b->src[j->src].rel);
        fprintf(f, ", \"kernel\": ");
        json_str(f, j->kname);
        fprintf(f, ", \"status\": \"%s\", \"model\": \"%s\", \"wave\": %u, \"subgroup\": %u, \"k\": %u, \"opt\": %d",
                cli_status_names[r->status], r->status == JS_OK || r->wave ? cli_model_name(r->model) : "",
                r->wave, r->subgroup, r->k, j->opt);
        fprintf(f, ", \"guest_instructions\": %llu, \"words\": %llu, \"lane_loops\": %u",
                (unsigned long long)r->guest, (unsigned long long)r->words, r->lane_loops);
        fprintf(f, ", \"llvm\": {\"lifted\": %llu, \"lowered\": %llu, \"optimized\": %llu}",
                (unsigned long long)r->llvm_lifted, (unsigned long long)r->llvm_lowered,
                (unsigned long long)r->llvm_optimized);
        fprintf(f, ", \"parts\": {\"declarations\": %llu, \"entry\": %llu, \"routines\": %llu, \"routine_count\": %u}",
                (unsigned long long)r->w_decl, (unsigned long long)r->w_entry, (unsigned long long)r->w_routines,
                r->routines);
        fprintf(f, ", \"ms\": {\"lift\": %.3f, \"lower\": %.3f, \"opt\": %.3f, \"emit\": %.3f, \"total\": %.3f, "
                   "\"wall\": %.3f}, \"peak_kib\": %ld, \"features\": ",
                r->ms_lift, r->ms_lower, r->ms_opt, r->ms_emit, r->ms_total, j->wall_ms, j->peak_kib);
        json_str(f, feats);
        fprintf(f, ", \"cached\": %s, \"output\": ", j->cached ? "true" : "false");
        json_str(f, r->status == JS_OK && j->out ? j->out : "");
        fprintf(f, ", \"reason\": ");
        json_str(f, r->reason);
        fputc('}', f);
    }
    fprintf(f, "\n]}\n");
    return f == stdout ? fflush(f) : fclose(f);
}

static void csv_field(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s == '\n' ? ' ' : *s, f);
    }
    fputc('"', f);
}

static int write_csv(const batch *b, const char *path)
{
    FILE *f = open_out(path);
    if (!f)
        return -1;
    fprintf(f, "source,kernel,status,model,wave,subgroup,k,opt,guest_instructions,words,lane_loops,llvm_lifted,"
               "llvm_lowered,llvm_optimized,words_declarations,words_entry,words_routines,routine_count,"
               "ms_lift,ms_lower,ms_opt,ms_emit,ms_total,ms_wall,peak_kib,features,"
               "cached,output,reason\n");
    for (size_t i = 0; i < b->njobs; i++) {
        const job *j = &b->jobs[i];
        const rec *r = &j->r;
        char feats[512];
        features_text(r->features, feats, sizeof feats);
        csv_field(f, b->src[j->src].path);
        fputc(',', f);
        csv_field(f, j->kname);
        fprintf(f, ",%s,%s,%u,%u,%u,%d,%llu,%llu,%u,%llu,%llu,%llu,%llu,%llu,%llu,%u,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%ld,",
                cli_status_names[r->status], r->status == JS_OK || r->wave ? cli_model_name(r->model) : "", r->wave,
                r->subgroup, r->k, j->opt, (unsigned long long)r->guest, (unsigned long long)r->words,
                r->lane_loops, (unsigned long long)r->llvm_lifted, (unsigned long long)r->llvm_lowered,
                (unsigned long long)r->llvm_optimized, (unsigned long long)r->w_decl, (unsigned long long)r->w_entry,
                (unsigned long long)r->w_routines, r->routines, r->ms_lift, r->ms_lower, r->ms_opt, r->ms_emit, r->ms_total,
                j->wall_ms, j->peak_kib);
        csv_field(f, feats);
        fprintf(f, ",%d,", j->cached);
        csv_field(f, r->status == JS_OK && j->out ? j->out : "");
        fputc(',', f);
        csv_field(f, r->reason);
        fputc('\n', f);
    }
    return f == stdout ? fflush(f) : fclose(f);
}

/* ---- the batch ---------------------------------------------------------------- */

static int run_jobs(batch *b)
{
    unsigned par = b->o->jobs ? b->o->jobs : (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
    if (!par)
        par = 1;
    int tty = !b->o->quiet && isatty(2);
    size_t next = 0, running = 0, done = 0, failed = 0, refused = 0;
    double t0 = now_ms(), last = 0;
    struct pollfd *pf = calloc(par, sizeof *pf);
    job **pj = calloc(par, sizeof *pj);
    if (!pf || !pj) {
        free(pf);
        free(pj);
        return -1;
    }
    int rc = 0;
    while (done < b->njobs) {
        while (!interrupted && running < par && next < b->njobs) {
            job *j = &b->jobs[next++];
            if (b->o->cache) {
                job_key(b, j);
                if (j->key[0] && cache_get(b, j)) {
                    done++;
                    refused += j->r.status == JS_REFUSED;
                    continue;
                }
            }
            if (start(b, j)) {
                j->r.status = JS_FAILED;
                snprintf(j->r.reason, sizeof j->r.reason, "cannot start a translation: %s", strerror(errno));
                j->done = 1;
                done++;
                failed++;
                continue;
            }
            running++;
        }
        if (interrupted) { /* stop every child, remove their files */
            for (size_t i = 0; i < next; i++)
                if (b->jobs[i].pid && !b->jobs[i].done) {
                    kill(b->jobs[i].pid, SIGKILL);
                    reap(b, &b->jobs[i], JS_INTERRUPTED);
                }
            for (size_t i = next; i < b->njobs; i++) {
                b->jobs[i].r.status = JS_INTERRUPTED;
                snprintf(b->jobs[i].r.reason, sizeof b->jobs[i].r.reason, "not started (interrupted)");
            }
            rc = 1;
            break;
        }
        nfds_t n = 0;
        for (size_t i = 0; i < next && n < par; i++)
            if (b->jobs[i].pid && !b->jobs[i].done) {
                pf[n].fd = b->jobs[i].fd;
                pf[n].events = POLLIN;
                pf[n].revents = 0;
                pj[n++] = &b->jobs[i];
            }
        if (!n && next >= b->njobs)
            break;
        int pr = poll(pf, n, 200);
        double now = now_ms();
        for (nfds_t i = 0; i < n; i++) {
            job *j = pj[i];
            int why = 0;
            if (pr > 0 && (pf[i].revents & (POLLIN | POLLHUP | POLLERR))) {
                if (pf[i].revents & POLLIN) {
                    ssize_t got = read(j->fd, &j->r, sizeof j->r);
                    j->got = got == (ssize_t)sizeof j->r;
                }
            } else if (b->o->timeout_s && now - j->t0 > b->o->timeout_s * 1e3) {
                kill(j->pid, SIGKILL);
                why = JS_TIMEOUT;
            } else {
                continue;
            }
            reap(b, j, why);
            running--;
            done++;
            failed += j->r.status != JS_OK && j->r.status != JS_REFUSED;
            refused += j->r.status == JS_REFUSED;
        }
        if (tty && (now - last > 100 || done == b->njobs)) {
            progress(b, done, failed, refused, t0);
            last = now;
        }
    }
    if (tty)
        fprintf(stderr, "\r\033[K");
    free(pf);
    free(pj);
    return rc;
}

/* A batch: more than one input, a directory, no --kernel or a pattern
 * (*?[), -o an existing directory or ending in '/', or an option only a
 * batch takes. Else lift translates the one kernel to the one file. */
int cli_is_batch(const cli_options *o)
{
    struct stat st;
    char dir[4096];
    int capture = o->file && o->kernel && !strcmp(o->kernel, "capture") &&
                  (o->launch || cli_capture_of(o->file, dir, sizeof dir));
    if (o->ninputs > 1 || (!capture && o->file && stat(o->file, &st) == 0 && S_ISDIR(st.st_mode)))
        return 1;
    if (!o->kernel || strpbrk(o->kernel, "*?["))
        return 1;
    if (o->out && ((stat(o->out, &st) == 0 && S_ISDIR(st.st_mode)) || o->out[strlen(o->out) - 1] == '/'))
        return 1;
    static const char *const only[] = {"--models", "-j",      "--json",  "--csv",
                                       "--timeout", "--max-memory", "--quiet", "--cache"};
    for (size_t i = 0; i < sizeof only / sizeof only[0]; i++)
        if (cli_given(o, only[i]))
            return 1;
    return o->opt_mask == ((1u << 0) | (1u << 2));
}

static int matches(const cli_options *o, const char *name)
{
    return !o->kernel || fnmatch(o->kernel, name, 0) == 0;
}

static void size_report(const batch *b, FILE *f);
static void svg_to_png(const char *svg, FILE *f);
static int write_svg(const batch *b, const char *path);

/* Whether path is a file of a batch's records (JSON: its first byte that
 * is not white space is '{'). */
static int is_records(const char *path)
{
    struct stat st;
    if (stat(path, &st) || !S_ISREG(st.st_mode))
        return 0;
    FILE *f = fopen(path, "rb");
    int c = ' ';
    while (f && (c == ' ' || c == '\n' || c == '\t' || c == '\r'))
        c = fgetc(f);
    if (f)
        fclose(f);
    return c == '{';
}

/* size RECORDS.json: the jobs are a batch's records, read back (nothing is
 * translated); 0, or an exit status. */
static int from_records(batch *b, const char *path)
{
    size_t n = 0, count = 0;
    uint8_t *text = cli_read_file(path, &n);
    if (!text)
        return EXIT_BAD_INPUT;
    cli_record *r = NULL;
    char err[400];
    int bad = cli_records_parse((const char *)text, n, &r, &count, &b->S, err, sizeof err);
    free(text);
    if (bad) {
        fprintf(stderr, "wavelift: %s: %s\n", path, err);
        return EXIT_BAD_INPUT;
    }
    int rc = 0;
    for (size_t i = 0; i < count && !rc; i++) {
        size_t s = 0;
        while (s < b->nsrc && strcmp(b->src[s].path, r[i].source))
            s++;
        if (s == b->nsrc) {
            source *src = append(&b->src, &b->nsrc, &b->capsrc, sizeof *src);
            if (!src || !(src->path = strdup(r[i].source)) || !(src->rel = strdup(r[i].name[0] ? r[i].name : r[i].source))) {
                rc = EXIT_BAD_INPUT;
                break;
            }
        }
        job *j = append(&b->jobs, &b->njobs, &b->capjobs, sizeof *j);
        if (!j || !(j->kname_own = strdup(r[i].kernel))) {
            rc = EXIT_BAD_INPUT;
            break;
        }
        j->src = s;
        j->kname = j->kname_own;
        j->r = r[i].r;
        j->opt = r[i].r.opt;
        j->model_req = r[i].r.model;
        j->wave = r[i].r.wave;
        j->wall_ms = r[i].wall_ms;
        j->peak_kib = r[i].peak_kib;
        j->cached = r[i].cached;
        j->done = j->got = 1;
        j->fd = -1;
    }
    cli_records_free(r, count);
    if (rc)
        fprintf(stderr, "wavelift: %s: out of memory\n", path);
    return rc;
}

/* The batch; size: the size report in place of the summary's tail */
static int batch_main(cli_options *o, int size)
{
    batch b;
    memset(&b, 0, sizeof b);
    b.o = o;
    b.S = o->subgroup;
    int rc = 0;
    char top_dir[4096];
    int records = b.records = size && o->ninputs == 1 && is_records(o->inputs[0]);
    if (records && (rc = from_records(&b, o->inputs[0])))
        goto done;
    for (size_t i = 0; i < o->ninputs && !rc && !records; i++) {
        struct stat st;
        const char *in = o->inputs[i];
        if (stat(in, &st) == 0 && S_ISDIR(st.st_mode)) {
            /* the directory's own name heads its files' places (a
             * capture's directory is one source: walk sees its manifest) */
            char top[4096];
            snprintf(top, sizeof top, "%s", base_name(in));
            size_t tl = strlen(top);
            while (tl > 1 && top[tl - 1] == '/')
                top[--tl] = 0;
            rc = walk(&b, in, strcmp(top, ".") && strcmp(top, "/") ? top : "", 0);
        } else if (!o->launch && cli_capture_of(in, top_dir, sizeof top_dir)) {
            /* a capture's own file (cap/code.bin): the capture */
            rc = add_source(&b, top_dir, base_name(top_dir), 1);
        } else {
            rc = add_source(&b, in, base_name(in), 1);
        }
    }
    static const int models_of[3] = {WL_MODEL_LANES, WL_MODEL_WAVE, CLI_MODEL_AUTO};
    unsigned mm = o->model_mask ? o->model_mask : o->model == WL_MODEL_LANES ? 1u : o->model == WL_MODEL_WAVE ? 2u : 4u;
    unsigned om = o->opt_mask ? o->opt_mask : 1u << 2;
    size_t matched = records ? b.njobs : 0;
    for (size_t s = 0; s < b.nsrc && !rc; s++) {
        const wl_codeobj *co = b.src[s].co;
        if (b.src[s].cap && matches(o, "capture")) {
            matched++;
            for (int m = 0; m < 3; m++)
                for (int l = 0; l <= 2; l += 2)
                    if ((mm >> m & 1) && (om >> l & 1))
                        rc = add_job(&b, s, NULL, models_of[m], l) || place(&b, &b.jobs[b.njobs - 1]);
        }
        for (size_t k = 0; co && k < co->nkernels && !rc; k++) {
            if (!matches(o, co->kernels[k].name))
                continue;
            matched++;
            for (int m = 0; m < 3; m++)
                for (int l = 0; l <= 2; l += 2)
                    if ((mm >> m & 1) && (om >> l & 1))
                        rc = add_job(&b, s, &co->kernels[k], models_of[m], l) || place(&b, &b.jobs[b.njobs - 1]);
        }
    }
    if (rc) {
        struct stat so;
        if (o->out && !stat(o->out, &so) && !S_ISDIR(so.st_mode))
            fprintf(stderr,
                    "wavelift: lift: -o %s: a batch (no --kernel, or a pattern) writes a directory of modules, and "
                    "%s is a file; --kernel NAME writes one kernel's module to a file\n",
                    o->out, o->out);
        else if (o->out)
            fprintf(stderr, "wavelift: lift: cannot make the output directories under %s (or out of memory)\n",
                    o->out);
        else
            fprintf(stderr, "wavelift: lift: out of memory\n");
        rc = EXIT_BAD_INPUT;
    }
    if (!rc && o->kernel && !matched)
        fprintf(stderr, "wavelift: lift: no kernel matches %s\n", o->kernel);
    if (!rc && o->cache && mkdir(o->cache, 0777) && errno != EEXIST) {
        fprintf(stderr, "wavelift: lift: cannot make the cache directory %s: %s\n", o->cache, strerror(errno));
        rc = EXIT_BAD_INPUT;
    }
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    double t0 = now_ms();
    if (!rc && !records && run_jobs(&b) < 0) {
        fprintf(stderr, "wavelift: lift: out of memory\n");
        rc = EXIT_BAD_INPUT;
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (!rc || interrupted) {
        /* the summary on stdout, unless a record file is */
        int out_taken = (o->json && !strcmp(o->json, "-")) || (o->csv && !strcmp(o->csv, "-"));
        summary(&b, now_ms() - t0, out_taken ? stderr : stdout);
        if (size)
            size_report(&b, out_taken ? stderr : stdout);
        if (size && o->svg && write_svg(&b, o->svg))
            fprintf(stderr, "wavelift: size: cannot write %s\n", o->svg);
        else if (size && o->svg)
            svg_to_png(o->svg, out_taken ? stderr : stdout);
        if (o->json && write_json(&b, o->json))
            fprintf(stderr, "wavelift: lift: cannot write %s\n", o->json);
        if (o->csv && write_csv(&b, o->csv))
            fprintf(stderr, "wavelift: lift: cannot write %s\n", o->csv);
        size_t bad = 0, refused = 0;
        for (size_t i = 0; i < b.njobs; i++) {
            bad += b.jobs[i].r.status != JS_OK && b.jobs[i].r.status != JS_REFUSED;
            refused += b.jobs[i].r.status == JS_REFUSED;
        }
        for (size_t i = 0; i < b.nsrc; i++)
            bad += !b.src[i].co && !b.src[i].cap && b.src[i].named;
        rc = interrupted || bad || (o->kernel && !matched) ? EXIT_BAD_INPUT : refused ? EXIT_REFUSED : 0;
    }
done:
    for (size_t i = 0; i < b.njobs; i++) {
        free(b.jobs[i].out);
        free(b.jobs[i].tmp);
        free(b.jobs[i].kname_own);
    }
    free(b.jobs);
    for (size_t i = 0; i < b.nsrc; i++) {
        free(b.src[i].path);
        free(b.src[i].rel);
        wl_codeobj_free(b.src[i].co);
        wl_capture_free(b.src[i].cap);
    }
    free(b.src);
    return rc;
}

int cli_batch(cli_options *o)
{
    return batch_main(o, 0);
}

/* The plot as PNG too, beside the SVG, where a converter is installed
 * (rsvg-convert, else ImageMagick's convert); says what was written. */
static void svg_to_png(const char *svg, FILE *f)
{
    size_t n = strlen(svg);
    char *png = malloc(n + 5);
    if (!png)
        return;
    memcpy(png, svg, n + 1);
    if (n > 4 && !strcmp(png + n - 4, ".svg"))
        png[n - 4] = 0;
    strcat(png, ".png");
    static const char *const tools[] = {"rsvg-convert", "convert"};
    int made = 0;
    for (size_t t = 0; t < sizeof tools / sizeof tools[0] && !made; t++) {
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            int null = open("/dev/null", O_WRONLY);
            if (null >= 0) {
                dup2(null, 1);
                dup2(null, 2);
            }
            if (t == 0)
                execlp(tools[t], tools[t], "-o", png, svg, (char *)NULL);
            else
                execlp(tools[t], tools[t], svg, png, (char *)NULL);
            _exit(127);
        }
        int ws = 0;
        made = pid > 0 && waitpid(pid, &ws, 0) == pid && WIFEXITED(ws) && WEXITSTATUS(ws) == 0;
    }
    fprintf(f, "plot: %s%s%s\n", svg, made ? " and " : " (no converter for a PNG)", made ? png : "");
    free(png);
}

int cmd_size(cli_options *o)
{
    char host[256];
    cli_apply_host(o, host, sizeof host);
    o->opt_mask = (1u << 0) | (1u << 2);
    return batch_main(o, 1);
}

/* ---- the size report ---------------------------------------------------------- */

/* One (source, kernel, model) with both levels lifted. */
typedef struct sized {
    const job *o0, *o2;
} sized;

static int cmp_sized(const void *a, const void *b)
{
    const sized *x = a, *y = b;
    return x->o2->r.words != y->o2->r.words ? (x->o2->r.words < y->o2->r.words ? 1 : -1) : 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The pairs of -O0 and -O2 records of one translation (jobs are added
 * model by model, -O0 before -O2), sorted by -O2 words. */
static size_t pairs(const batch *b, sized *out)
{
    size_t n = 0;
    for (size_t i = 0; i + 1 < b->njobs; i++) {
        const job *x = &b->jobs[i], *y = &b->jobs[i + 1];
        if (x->opt == 0 && y->opt == 2 && x->src == y->src && !strcmp(x->kname, y->kname) &&
            x->model_req == y->model_req && x->r.status == JS_OK && y->r.status == JS_OK) {
            out[n].o0 = x;
            out[n++].o2 = y;
        }
    }
    qsort(out, n, sizeof *out, cmp_sized);
    return n;
}

/* nearest-rank percentile of sorted v[0..n) */
static double pct(const double *v, size_t n, double p)
{
    if (!n)
        return 0;
    size_t r = (size_t)(p / 100.0 * (double)n + 0.999999);
    return v[r ? (r > n ? n - 1 : r - 1) : 0];
}

static void size_report(const batch *b, FILE *f)
{
    sized *p = calloc(b->njobs ? b->njobs : 1, sizeof *p);
    double *w0 = calloc(b->njobs ? b->njobs : 1, sizeof *w0), *w2 = calloc(b->njobs ? b->njobs : 1, sizeof *w2);
    double *ratio = calloc(b->njobs ? b->njobs : 1, sizeof *ratio), *wpi = calloc(b->njobs ? b->njobs : 1, sizeof *wpi);
    if (!p || !w0 || !w2 || !ratio || !wpi) {
        free(p), free(w0), free(w2), free(ratio), free(wpi);
        return;
    }
    size_t n = pairs(b, p);
    fprintf(f, "\nmodule sizes, -O0 and -O2 (SPIR-V words), largest at -O2 first; host subgroup %u\n", b->S);
    fprintf(f, "%-44s %-6s %8s %10s %9s %7s %6s %5s %5s %5s  %s\n", "source:kernel", "model", "guest", "-O0", "-O2",
            "-O2/-O0", "w/i", "decl%", "main%", "rout%", "LLVM lifted>lowered>optimized (-O2)");
    unsigned long long t0 = 0, t2 = 0, tg = 0, td = 0, te = 0, tr = 0;
    for (size_t i = 0; i < n; i++) {
        const rec *a = &p[i].o0->r, *c = &p[i].o2->r;
        char name[300], model[24];
        snprintf(name, sizeof name, "%s:%s", b->src[p[i].o2->src].rel, p[i].o2->kname);
        if (c->model == WL_MODEL_WAVE)
            snprintf(model, sizeof model, "wave");
        else
            snprintf(model, sizeof model, "k=%u", c->k);
        w0[i] = (double)a->words;
        w2[i] = (double)c->words;
        ratio[i] = a->words ? (double)c->words / (double)a->words : 0;
        wpi[i] = c->guest ? (double)c->words / (double)c->guest : 0;
        t0 += a->words;
        t2 += c->words;
        tg += c->guest;
        td += c->w_decl, te += c->w_entry, tr += c->w_routines;
        double pw = c->words ? 100.0 / (double)c->words : 0;
        fprintf(f, "%-44.44s %-6s %8llu %10llu %9llu %7.3f %6.1f %5.1f %5.1f %5.1f  %llu>%llu>%llu\n", name, model,
                (unsigned long long)c->guest, (unsigned long long)a->words, (unsigned long long)c->words, ratio[i],
                wpi[i], (double)c->w_decl * pw, (double)c->w_entry * pw, (double)c->w_routines * pw,
                (unsigned long long)c->llvm_lifted, (unsigned long long)c->llvm_lowered,
                (unsigned long long)c->llvm_optimized);
    }
    qsort(w0, n, sizeof *w0, cmp_double);
    qsort(w2, n, sizeof *w2, cmp_double);
    qsort(ratio, n, sizeof *ratio, cmp_double);
    qsort(wpi, n, sizeof *wpi, cmp_double);
    fprintf(f, "%zu translations at both levels; total %llu guest instructions, %llu words at -O0, %llu at -O2 "
               "(%.3f)\n",
            n, tg, t0, t2, t0 ? (double)t2 / (double)t0 : 0);
    if (t2)
        fprintf(f, "the -O2 words: declarations %.1f%%, entry points %.1f%%, routines %.1f%% (emulated arithmetic, "
                   "unaligned accesses, locks: docs/benchmarks.md)\n",
                100.0 * (double)td / (double)t2, 100.0 * (double)te / (double)t2, 100.0 * (double)tr / (double)t2);
    fprintf(f, "%-12s %12s %12s %12s %12s\n", "", "median", "90th pct", "maximum", "minimum");
    static const char *const what[4] = {"-O0 words", "-O2 words", "-O2/-O0", "w/i (-O2)"};
    double *cols[4] = {w0, w2, ratio, wpi};
    for (int c = 0; c < 4; c++)
        fprintf(f, "%-12s %12.*f %12.*f %12.*f %12.*f\n", what[c], c >= 2 ? 3 : 0, pct(cols[c], n, 50),
                c >= 2 ? 3 : 0, pct(cols[c], n, 90), c >= 2 ? 3 : 0, n ? cols[c][n - 1] : 0, c >= 2 ? 3 : 0,
                n ? cols[c][0] : 0);
    free(p), free(w0), free(w2), free(ratio), free(wpi);
}

/* Two panels: -O2 against -O0 words (log-log, the diagonal y = x), and
 * words a guest instruction at -O2 against guest instructions (log x);
 * one mark a translation, its colour the model (lanes k, wave). */
/* a mark's colour by model: lanes k = 1, 2, 4, 8, 16, the wave model */
static const char *const colours[6] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"};

static int write_svg(const batch *b, const char *path)
{
    sized *p = calloc(b->njobs ? b->njobs : 1, sizeof *p);
    if (!p)
        return -1;
    size_t n = pairs(b, p);
    FILE *f = fopen(path, "w");
    if (!f) {
        free(p);
        return -1;
    }
    double lo = 1e300, hi = 1, glo = 1e300, ghi = 1, whi = 1;
    for (size_t i = 0; i < n; i++) {
        double a = (double)p[i].o0->r.words, c = (double)p[i].o2->r.words, g = (double)p[i].o2->r.guest;
        lo = a < lo ? a : lo, lo = c < lo ? c : lo, hi = a > hi ? a : hi, hi = c > hi ? c : hi;
        if (g > 0) {
            glo = g < glo ? g : glo, ghi = g > ghi ? g : ghi;
            whi = c / g > whi ? c / g : whi;
        }
    }
    if (lo > hi)
        lo = 1;
    if (glo > ghi)
        glo = 1;
    double l0 = floor(log10(lo > 1 ? lo : 1)), l1 = ceil(log10(hi > 10 ? hi : 10));
    double g0 = floor(log10(glo > 1 ? glo : 1)), g1 = ceil(log10(ghi > 10 ? ghi : 10));
    if (l1 <= l0)
        l1 = l0 + 1;
    if (g1 <= g0)
        g1 = g0 + 1;
    whi *= 1.1;
    const int W = 420, H = 340, M = 60;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" "
               "font-size=\"11\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            2 * W + 40, H + 40);
    for (int panel = 0; panel < 2; panel++) {
        int x0 = panel * (W + 40) + M, y0 = H - 20, pw = W - M - 10, ph = H - 60;
        fprintf(f, "<g class=\"panel\"><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                   "stroke=\"#888\"/>\n",
                x0, y0 - ph, pw, ph);
        fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"13\">%s</text>\n", x0, y0 - ph - 8,
                panel ? "words a guest instruction (-O2) against guest instructions"
                      : "SPIR-V words: -O2 against -O0");
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", x0 + pw / 2, y0 + 30,
                panel ? "guest instructions (log)" : "-O0 words (log)");
        /* decades on the log axes */
        double a0 = panel ? g0 : l0, a1 = panel ? g1 : l1;
        for (double d = a0; d <= a1; d++) {
            double x = x0 + (d - a0) / (a1 - a0) * pw;
            fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eee\"/><text x=\"%.1f\" "
                       "y=\"%d\" text-anchor=\"middle\">1e%.0f</text>\n",
                    x, y0, x, y0 - ph, x, y0 + 14, d);
            if (!panel) {
                double y = y0 - (d - l0) / (l1 - l0) * ph;
                fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">1e%.0f</text>\n", x0 - 4, y + 4, d);
            }
        }
        if (panel)
            for (int t = 0; t <= 4; t++)
                fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.0f</text>\n", x0 - 4,
                        y0 - t / 4.0 * ph + 4, whi * t / 4.0);
        else
            fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#bbb\" stroke-dasharray=\"4\"/>\n",
                    x0, y0, x0 + pw, y0 - ph);
        for (size_t i = 0; i < n; i++) {
            const rec *a = &p[i].o0->r, *c = &p[i].o2->r;
            double xv, yv;
            if (panel) {
                if (!c->guest)
                    continue;
                xv = (log10((double)c->guest) - g0) / (g1 - g0);
                yv = (double)c->words / (double)c->guest / whi;
            } else {
                xv = (log10((double)(a->words ? a->words : 1)) - l0) / (l1 - l0);
                yv = (log10((double)(c->words ? c->words : 1)) - l0) / (l1 - l0);
            }
            unsigned ci = c->model == WL_MODEL_WAVE ? 5 : c->k == 1 ? 0 : c->k == 2 ? 1 : c->k == 4 ? 2 : c->k == 8 ? 3 : 4;
            fprintf(f, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\" fill-opacity=\"0.7\">"
                       "<title>%s:%s %u/%u words</title></circle>\n",
                    x0 + xv * pw, y0 - yv * ph, colours[ci], b->src[p[i].o2->src].rel, p[i].o2->kname,
                    (unsigned)c->words, (unsigned)a->words);
        }
        fprintf(f, "</g>\n");
    }
    static const char *const names[6] = {"lanes k=1", "lanes k=2", "lanes k=4", "lanes k=8", "lanes k=16", "wave"};
    for (int i = 0; i < 6; i++)
        fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"4\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>\n",
                M + i * 110, H + 28, colours[i], M + i * 110 + 8, H + 32, names[i]);
    fprintf(f, "</svg>\n");
    free(p);
    return fclose(f);
}
