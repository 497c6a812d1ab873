/* Benchmark of the translate pipeline (issue 4, "Benchmarks"): for every
 * kernel of every code object (default: the compiled corpus,
 * build/kernels/, every .co file), the guest instructions, the SPIR-V words at -O0 and
 * -O2, the words per guest instruction and the translation time per stage
 * (wl_translate_info), at host subgroup size S = 32 (k = 2 for wave64, 1 for
 * wave32; translation only, no device needed); --s8 adds S = 8, --run the
 * pipeline build time of the -O2 module on the Vulkan device (at the
 * device's subgroup size; kernels are not dispatched, they need arguments).
 *
 *   wl_bench_translate [--s8] [--run] [--reps N] [--wave] [--memory] [--csv FILE] [FILE.co | DIR]...
 *
 * --wave adds the wave model's -O2 words and their ratio to the lanes model's;
 * --all-k translates at S = 16, 8 and 4 too (every k the lanes model
 * offers, up to 16), validated, and prints the S = 4 words;
 * --no-o0 leaves out the -O0 translations; --check-median W fails (exit 1)
 * where the median words a guest instruction at k = 2, -O2, is over W
 * (the CI test bench_bounds: the third-party corpus and the generated
 * programs, W = 30); --check-all-k (--all-k, and) fails where any program
 * fails or is refused at any of those k (bench_bounds too);
 * --memory the peak memory of one -O2 translation (a new process each: its
 * peak resident set, VmHWM, over what it had before translating);
 * --csv writes the per-kernel table (scripts/plot_bench.py draws it as SVG).
 * A wave64 program over 60 words a guest instruction (issue 17's bound) gets
 * a line naming what costs it: the exact fma's words (measured: the module
 * again with the host's Fma, fused_fma) and the constructs that make up 5%
 * or more of its instructions.
 *
 * Guest instructions: the instructions decoded from the kernel's entry
 * following control flow as the lifter's discovery does (branch targets,
 * fall-through, s_swappc_b64 to the target of the s_getpc_b64 +
 * s_add_u32/s_addc_u32 sequence and on at its return site; every function
 * of the code object when a target is not a constant). Times are the median
 * of --reps translations (default 3; the stage times are that run's);
 * validation (SPIRV-Tools) is a separate run, outside the times, and a
 * module that does not validate fails the benchmark. A kernel the lifter
 * refuses is listed with the refusal and left out of the summary.
 *
 * The summary: the median words per guest instruction at k = 2 and -O2
 * (aim: at most 30), the -O2 translation time of the largest program, and
 * that of the smallest program of at least 2,000 guest instructions, which
 * the aim (under 100 ms) is judged on. Exit 0 when
 * every kernel translated or was refused, 1 on a failure (invalid output). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "wavelift/backend.h"
#include "wavelift/codeobj.h"
#include "wavelift/runtime.h"
#include "wavelift/translate.h"

#ifndef WL_BENCH_KERNEL_DIR
#define WL_BENCH_KERNEL_DIR "build/kernels"
#endif

enum { MAX_REPS = 15 };

/* ---- guest instructions -------------------------------------------------- */

/* The constructs the bench names where a program costs over 60 words a
 * guest instruction: what its instructions are (counts), beside the
 * emulated fma, which it measures (the module with the host's Fma). */
enum { CLASS_MEM, CLASS_LDS, CLASS_SMEM, CLASS_FMA, CLASS_F64, CLASS_LANE, CLASS_PACKED, CLASS_IMG, CLASS_N };
static const char *const class_names[CLASS_N] = {"global/buffer/flat/scratch accesses", "LDS accesses",
                                                 "scalar memory", "fma/mad (emulated exact)", "other f64",
                                                 "cross-lane (dpp, permute, readlane, swizzle)",
                                                 "packed 16-bit",
                                                 "image accesses (each converts any format the T# names, "
                                                 "docs/images.md)"};

/* A work list of word offsets with a visited bitmap. */
typedef struct walk {
    const wl_lift_program *p;
    const wl_codeobj *co;
    size_t nwords;
    uint8_t *seen;   /* per word: 1 decoded here, 2 queued */
    size_t *stack, sp, cap;
    size_t count;
    int calls_added; /* every function pushed once (unknown call target) */
    size_t cls[CLASS_N]; /* instructions a construct (CLASS_*) */
} walk;

/* x appended to the list *v of *n values (dropped where out of memory) */
static void push_wpi(double **v, size_t *n, double x)
{
    double *nv = realloc(*v, (*n + 1) * sizeof *nv);
    if (nv) {
        *v = nv;
        nv[(*n)++] = x;
    }
}

static int has(const char *n, const char *x) { return strstr(n, x) != NULL; }
static int pre(const char *n, const char *x) { return !strncmp(n, x, strlen(x)); }

static int classify(const wl_inst *in)
{
    const char *n = in->name ? in->name : "";
    if (pre(n, "global_") || pre(n, "buffer_") || pre(n, "flat_") || pre(n, "scratch_") || pre(n, "tbuffer_"))
        return CLASS_MEM;
    if (pre(n, "ds_bpermute") || pre(n, "ds_permute") || pre(n, "ds_swizzle") || has(n, "readlane") ||
        has(n, "writelane") || has(n, "readfirstlane") || pre(n, "v_permlane") || in->venc == WL_VENC_DPP16 ||
        in->venc == WL_VENC_DPP8)
        return CLASS_LANE;
    if (pre(n, "ds_"))
        return CLASS_LDS;
    if (pre(n, "image_"))
        return CLASS_IMG;
    if (pre(n, "s_load") || pre(n, "s_buffer") || pre(n, "s_store"))
        return CLASS_SMEM;
    if (pre(n, "v_fma") || pre(n, "v_fmac") || pre(n, "v_fmaak") || pre(n, "v_fmamk") || pre(n, "v_div_fmas") ||
        pre(n, "v_mad_f") || pre(n, "v_mac_f"))
        return CLASS_FMA;
    if (has(n, "_f64"))
        return CLASS_F64;
    if (pre(n, "v_pk_"))
        return CLASS_PACKED;
    return -1;
}

static void push(walk *w, uint64_t byte)
{
    if (byte % 4 || byte / 4 >= w->nwords || w->seen[byte / 4])
        return;
    if (w->sp == w->cap) {
        size_t nc = w->cap ? 2 * w->cap : 64;
        size_t *ns = realloc(w->stack, nc * sizeof *ns);
        if (!ns)
            return;
        w->stack = ns;
        w->cap = nc;
    }
    w->seen[byte / 4] = 2;
    w->stack[w->sp++] = (size_t)byte / 4;
}

static void push_all_functions(walk *w)
{
    if (w->calls_added)
        return;
    w->calls_added = 1;
    for (size_t i = 0; i < w->co->nfunctions; i++)
        if (w->co->functions[i].address >= w->p->address)
            push(w, w->co->functions[i].address - w->p->address);
}

/* The value of a 32-bit constant source (literal or integer inline), else -1. */
static int64_t const_src(const wl_operand *o)
{
    if (o->kind == WL_OPND_LITERAL)
        return o->value;
    if (o->kind == WL_OPND_INLINE && o->index >= 128 && o->index <= 192)
        return o->index - 128;
    if (o->kind == WL_OPND_INLINE && o->index >= 193 && o->index <= 208)
        return (uint32_t)(192 - (int)o->index);
    return -1;
}

/* Decodes from word `start` to the end of its path. A small tracker follows
 * s_getpc_b64 / s_add_u32 / s_addc_u32 on one register pair (clang's call
 * sequence). */
static void walk_path(walk *w, size_t start, wl_decoder *d)
{
    int pc_reg = -1;  /* SGPR pair the tracker follows */
    uint64_t pc_val = 0;
    int carry = 0;
    for (size_t at = start; at < w->nwords;) {
        if (w->seen[at] == 1)
            return;
        wl_inst in;
        if (wl_decode(d, w->p->code + at * 4, w->p->size - at * 4, at * 4, &in) != WL_OK)
            return; /* the lifter refuses this; counted no further */
        w->seen[at] = 1;
        w->count++;
        int c = classify(&in);
        if (c >= 0)
            w->cls[c]++;
        size_t next = at + in.size / 4;
        if (in.format == WL_FMT_SOPP) {
            if (in.op == 0x01 || in.op == 0x1f) /* s_endpgm, s_code_end */
                return;
            if (in.op == 0x02 || (in.op >= 0x04 && in.op <= 0x09)) {
                int64_t t = (int64_t)in.offset + 4 + 4 * (int64_t)(int32_t)in.src[0].value;
                if (t >= 0)
                    push(w, (uint64_t)t);
                if (in.op == 0x02)
                    return;
            }
        } else if (in.format == WL_FMT_SOP1 && in.op == 0x1f) { /* s_getpc_b64 */
            pc_reg = in.dst[0].kind == WL_OPND_SGPR ? in.dst[0].index : -1;
            pc_val = w->p->address + next * 4;
        } else if (in.format == WL_FMT_SOP2 && (in.op == 0 || in.op == 4) && pc_reg >= 0 &&
                   in.dst[0].kind == WL_OPND_SGPR && in.src[0].kind == WL_OPND_SGPR &&
                   in.dst[0].index == in.src[0].index) { /* s_add_u32, s_addc_u32 */
            int half = in.dst[0].index == pc_reg ? 0 : in.dst[0].index == pc_reg + 1 ? 1 : -1;
            int64_t c = const_src(&in.src[1]);
            if (half < 0 || c < 0 || (in.op == 0) != (half == 0)) {
                if (half >= 0)
                    pc_reg = -1;
            } else if (half == 0) {
                uint64_t lo = (pc_val & 0xffffffffu) + (uint64_t)c;
                carry = (int)(lo >> 32);
                pc_val = (pc_val & ~0xffffffffull) | (lo & 0xffffffffu);
            } else {
                uint32_t hi = (uint32_t)(pc_val >> 32) + (uint32_t)c + (uint32_t)carry;
                pc_val = (pc_val & 0xffffffffu) | ((uint64_t)hi << 32);
            }
        } else if (in.format == WL_FMT_SOP1 && (in.op == 0x20 || in.op == 0x21)) { /* setpc, swappc */
            const wl_operand *s = &in.src[0];
            if (pc_reg >= 0 && s->kind == WL_OPND_SGPR && s->index == pc_reg && pc_val >= w->p->address)
                push(w, pc_val - w->p->address);
            else if (in.op == 0x21)
                push_all_functions(w);
            if (in.op == 0x20)
                return; /* a return (or a tail call) */
        } else if (pc_reg >= 0) {
            for (unsigned i = 0; i < in.ndst; i++)
                if (in.dst[i].kind == WL_OPND_SGPR && in.dst[i].index + in.dst[i].nregs > pc_reg &&
                    in.dst[i].index <= pc_reg + 1)
                    pc_reg = -1;
        }
        at = next;
    }
}

static size_t guest_instructions(const wl_codeobj *co, const wl_lift_program *p, size_t cls[CLASS_N])
{
    walk w;
    memset(&w, 0, sizeof w);
    w.p = p;
    w.co = co;
    w.nwords = p->size / 4;
    w.seen = calloc(w.nwords ? w.nwords : 1, 1);
    if (!w.seen)
        return 0;
    wl_decoder d;
    wl_decoder_init(&d, p->target, p->wave_size == 64);
    push(&w, p->entry);
    while (w.sp)
        walk_path(&w, w.stack[--w.sp], &d);
    free(w.seen);
    free(w.stack);
    memcpy(cls, w.cls, sizeof w.cls[0] * CLASS_N);
    return w.count;
}

/* ---- translation --------------------------------------------------------- */

typedef struct tr {
    int ok;               /* 1 translated, 0 refused, -1 failed */
    size_t words;
    wl_translate_info info; /* of the median run */
    double cpu_ms;        /* the median process CPU time of a translation */
    uint32_t *spirv;      /* the validated module (for --run) */
    char err[512];
} tr;

static int by_total(const void *a, const void *b)
{
    double x = ((const wl_translate_info *)a)->ms_total, y = ((const wl_translate_info *)b)->ms_total;
    return x < y ? -1 : x > y;
}

/* this process's CPU time: on a shared machine, what the translation itself
 * cost, whatever else runs (the wall times above include waiting) */
static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* --helper-calls N (the debug option's helper-calls=N); set once by main */
static unsigned helper_calls_opt;
static int mapping_pages_opt; /* --pages: the paged guest mapping (docs/memory.md) */
/* --vectorize (the default), --no-vectorize (the pipeline's skip=vectorize-lanes) */
static int vectorize_opt;
static int model_opt; /* the model of the next translate(): WL_MODEL_LANES or WL_MODEL_WAVE (--wave) */
static int fused_opt; /* wl_translate_options.fused_fma of the next translate() */

static void translate(const wl_lift_program *p, unsigned S, int opt, int reps, int keep, tr *r)
{
    memset(r, 0, sizeof *r);
    char passes[96];
    snprintf(passes, sizeof passes, "%s%shelper-calls=%u", vectorize_opt < 0 ? "skip=vectorize-lanes" : "",
             vectorize_opt < 0 ? "," : "", helper_calls_opt);
    wl_translate_options o = {.struct_size = sizeof(wl_translate_options), .subgroup_size = S,
                              .local_size = {p->wave_size, 1, 1}, .opt_level = opt, .validate = 1,
                              .mapping_pages = mapping_pages_opt, .model = model_opt, .fused_fma = fused_opt,
                              .passes = passes};
    uint32_t *w = NULL;
    size_t nw = 0;
    wl_status st = wl_translate(p, &o, &w, &nw, &r->info, r->err, sizeof r->err);
    if (st != WL_OK) {
        r->ok = st == WL_ERR_UNSUPPORTED ? 0 : -1;
        free(w);
        return;
    }
    r->ok = 1;
    r->words = nw;
    if (keep)
        r->spirv = w;
    else
        free(w);
    /* timed runs, without validation */
    wl_translate_info runs[MAX_REPS];
    double cpu[MAX_REPS];
    o.validate = 0;
    int n = 0;
    for (int i = 0; i < reps && i < MAX_REPS; i++) {
        char err[512];
        w = NULL;
        double c0 = cpu_ms();
        if (wl_translate(p, &o, &w, &nw, &runs[n], err, sizeof err) == WL_OK)
            cpu[n++] = cpu_ms() - c0;
        free(w);
    }
    if (n) {
        qsort(runs, (size_t)n, sizeof runs[0], by_total);
        r->info = runs[n / 2];
        qsort(cpu, (size_t)n, sizeof cpu[0], by_double);
        r->cpu_ms = cpu[n / 2];
    }
}

/* A line "KEY: N kB" of /proc/self/status, in KiB (-1: none). */
static long status_kib(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long v = -1;
    size_t n = strlen(key);
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, key, n) && line[n] == ':')
            v = strtol(line + n + 1, NULL, 10);
    if (f)
        fclose(f);
    return v;
}

/* One -O2 translation's peak memory, in this process (a fresh one:
 * wl_bench_translate --peak-one FILE KERNEL S MODEL, which peak_mib()
 * starts): the peak resident set (VmHWM, reset to the resident set before
 * translating by /proc/self/clear_refs 5) over the resident set then, in
 * KiB, on stdout. Exit 1 where it cannot tell. */
static int peak_one(char **argv)
{
    wl_codeobj *co = NULL;
    char err[1024];
    wl_lift_program p;
    size_t ki = (size_t)strtoul(argv[1], NULL, 10);
    if (wl_codeobj_load(argv[0], &co, err, sizeof err) != WL_OK || ki >= co->nkernels ||
        wl_lift_program_from_kernel(co, &co->kernels[ki], &p, err, sizeof err) != WL_OK)
        return 1;
    FILE *cr = fopen("/proc/self/clear_refs", "w");
    if (!cr || fputs("5", cr) < 0 || fclose(cr) != 0)
        return 1;
    long r0 = status_kib("VmRSS");
    wl_translate_options o = {.struct_size = sizeof(wl_translate_options), .subgroup_size = (unsigned)atoi(argv[2]), .local_size = {p.wave_size, 1, 1},
                              .opt_level = 2, .model = atoi(argv[3])};
    uint32_t *w = NULL;
    size_t nw = 0;
    wl_translate_info info;
    if (wl_translate(&p, &o, &w, &nw, &info, err, sizeof err) != WL_OK)
        return 1;
    long h = status_kib("VmHWM");
    free(w);
    wl_codeobj_free(co);
    if (h < 0 || r0 < 0)
        return 1;
    printf("%ld\n", h - r0);
    return 0;
}

/* --memory: peak_one() in a new process; MiB, -1 where not measured */
static double peak_mib(const char *file, size_t ki, unsigned S)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "exec /proc/%ld/exe --peak-one '%s' %zu %u %d", (long)getpid(), file, ki, S,
             model_opt);
    if (strchr(file, '\''))
        return -1;
    FILE *f = popen(cmd, "r");
    long kib = -1;
    if (!f)
        return -1;
    if (fscanf(f, "%ld", &kib) != 1)
        kib = -1;
    return pclose(f) == 0 && kib >= 0 ? (double)kib / 1024.0 : -1;
}

/* ---- files --------------------------------------------------------------- */

typedef struct list {
    char **v;
    size_t n;
} list;

static void add(list *l, const char *s)
{
    char **nv = realloc(l->v, (l->n + 1) * sizeof *nv);
    if (!nv)
        return;
    l->v = nv;
    l->v[l->n++] = strdup(s);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void add_path(list *l, const char *path)
{
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        DIR *dp = opendir(path);
        size_t first = l->n;
        for (struct dirent *de; dp && (de = readdir(dp));) {
            size_t n = strlen(de->d_name);
            if (n > 3 && !strcmp(de->d_name + n - 3, ".co")) {
                char full[4096];
                snprintf(full, sizeof full, "%s/%s", path, de->d_name);
                add(l, full);
            }
        }
        if (dp)
            closedir(dp);
        qsort(l->v + first, l->n - first, sizeof *l->v, by_name);
    } else {
        add(l, path);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
    if (!n)
        return 0;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* the q-quantile (0..1) of v sorted by median() */
static double quantile(const double *v, size_t n, double q)
{
    if (!n)
        return 0;
    size_t i = (size_t)(q * (double)(n - 1) + 0.5);
    return v[i < n ? i : n - 1];
}

static const char *base(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* A program of the summary (by guest instructions) and its -O2 stage times. */
typedef struct largest {
    char name[256];
    size_t guest, words;
    unsigned wave, k;
    wl_translate_info info;
    double cpu_ms;
} largest;

static void note_program(largest *l, const char *name, size_t guest, size_t words, unsigned wave,
                         const wl_translate_info *info, double cpu_ms)
{
    snprintf(l->name, sizeof l->name, "%s", name);
    l->guest = guest;
    l->words = words;
    l->wave = wave;
    l->k = info->lanes_per_invocation;
    l->info = *info;
    l->cpu_ms = cpu_ms;
}

static void print_program(const char *what, const largest *l)
{
    const wl_translate_info *i = &l->info;
    printf("%s: %s, %zu guest instructions (wave%u, k = %u), %zu words at -O2\n", what, l->name, l->guest, l->wave,
           l->k, l->words);
    printf("  -O2 translation %.1f ms: lift %.1f, verify %.1f, lower %.1f, opt %.1f, emit %.1f "
           "(LLVM instructions: lifted %zu, lowered %zu, optimized %zu)\n",
           i->ms_total, i->ms_lift, i->ms_verify, i->ms_lower, i->ms_opt, i->ms_emit, i->llvm_lifted, i->llvm_lowered,
           i->llvm_optimized);
    printf("  process CPU time of that translation: %.1f ms (median)\n", l->cpu_ms);
}

int main(int argc, char **argv)
{
    int s8 = 0, run = 0, reps = 3, wave = 0, memory = 0, allk = 0, no_o0 = 0, check_allk = 0;
    double check_median = 0;
    const char *csv_path = NULL;
    list files = {0};
    if (argc == 6 && !strcmp(argv[1], "--peak-one"))
        return peak_one(argv + 2);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--s8"))
            s8 = 1;
        else if (!strcmp(argv[i], "--run"))
            run = 1;
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--helper-calls") && i + 1 < argc)
            helper_calls_opt = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--pages"))
            mapping_pages_opt = 1;
        else if (!strcmp(argv[i], "--vectorize"))
            vectorize_opt = 1;
        else if (!strcmp(argv[i], "--no-vectorize"))
            vectorize_opt = -1;
        else if (!strcmp(argv[i], "--wave"))
            wave = 1;
        else if (!strcmp(argv[i], "--memory"))
            memory = 1;
        else if (!strcmp(argv[i], "--all-k"))
            allk = 1;
        else if (!strcmp(argv[i], "--check-all-k")) /* the bound: every program at every k */
            allk = check_allk = 1;
        else if (!strcmp(argv[i], "--no-o0"))
            no_o0 = 1;
        else if (!strcmp(argv[i], "--check-median") && i + 1 < argc)
            check_median = atof(argv[++i]);
        else if (!strcmp(argv[i], "--csv") && i + 1 < argc)
            csv_path = argv[++i];
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: wl_bench_translate [--s8] [--run] [--reps N] [--helper-calls N] [--pages] "
                            "[--vectorize|--no-vectorize] [--wave] [--memory] [--all-k] [--no-o0] [--check-median W] [--check-all-k] [--csv FILE] [FILE.co | DIR]...\n");
            return 2;
        } else
            add_path(&files, argv[i]);
    }
    if (reps < 1)
        reps = 1;
    setvbuf(stdout, NULL, _IOLBF, 0); /* a row as soon as it is measured */
    if (!files.n)
        add_path(&files, WL_BENCH_KERNEL_DIR);
    if (!files.n) {
        fprintf(stderr, "no code objects (%s)\n", WL_BENCH_KERNEL_DIR);
        return 2;
    }

    wl_rt *rt = NULL;
    unsigned devS = 0;
    if (run) {
        char err[512];
        if (wl_rt_create(NULL, &rt, err, sizeof err) != WL_RT_OK) {
            fprintf(stderr, "--run: no Vulkan device (%s)\n", err);
            return 1;
        }
        const wl_host_profile *hp = wl_rt_profile(rt);
        devS = hp->subgroup_size;
        printf("device: %s (%s), subgroup size %u: pipelines of the -O2 module at S = %u\n", hp->device_name,
               hp->driver_info, devS, devS);
    }

    printf("%-34s %2s %5s %7s %7s %6s %6s %7s %6s %6s %6s %6s %6s", "kernel", "W", "guest", "O0 words",
           "O2 words", "O0 w/i", "O2 w/i", "O2 ms", "lift", "lower", "opt", "emit", "O0 ms");
    if (s8)
        printf(" %8s %6s %7s", "S8 words", "S8 w/i", "S8 ms");
    if (run)
        printf(" %7s", "pipe ms");
    if (wave)
        printf(" %8s %6s", "wave wds", "wave/l");
    if (memory)
        printf(" %7s", "MiB");
    if (allk)
        printf(" %8s", "S4 words");
    printf("\n");
    FILE *csv = csv_path ? fopen(csv_path, "w") : NULL;
    if (csv_path && !csv) {
        fprintf(stderr, "--csv: cannot write %s\n", csv_path);
        return 2;
    }
    if (csv)
        fprintf(csv, "kernel,wave,guest,o0_words,o2_words,o0_wpi,o2_wpi,o2_ms,lift_ms,lower_ms,opt_ms,emit_ms,o0_ms,"
                     "wave_o2_words,peak_mib,fused_o2_words\n");

    double *wpi2 = NULL, *wpi1 = NULL, *wpi2n = NULL; /* wpi2n: k = 2, programs without image accesses */
    size_t n2 = 0, n1 = 0, n2n = 0, refused = 0, failed = 0, translated = 0, o0_failed = 0;
    largest big = {0}, aim = {0}; /* the largest; the smallest of at least 2,000 instructions */
    size_t over60 = 0, allk_failed = 0, allk_max = 0;
    double mib_max = -1;
    for (size_t fi = 0; fi < files.n; fi++) {
        char err[1024];
        wl_codeobj *co = NULL;
        if (wl_codeobj_load(files.v[fi], &co, err, sizeof err) != WL_OK) {
            fprintf(stderr, "%s: %s\n", files.v[fi], err);
            failed++;
            continue;
        }
        for (size_t ki = 0; ki < co->nkernels; ki++) {
            const wl_kernel *k = &co->kernels[ki];
            char name[256];
            snprintf(name, sizeof name, "%.*s:%s", (int)(strlen(base(files.v[fi])) - 3), base(files.v[fi]),
                     k->name);
            wl_lift_program p;
            if (wl_lift_program_from_kernel(co, k, &p, err, sizeof err) != WL_OK) {
                printf("%-34s failed: %s\n", name, err);
                failed++;
                continue;
            }
            size_t cls[CLASS_N];
            size_t guest = guest_instructions(co, &p, cls);
            unsigned S = 32;
            tr o0, o2;
            translate(&p, S, 2, reps, 0, &o2);
            if (o2.ok != 1) {
                printf("%-34s %2u %5zu %s: %s\n", name, p.wave_size, guest, o2.ok ? "FAILED" : "refused", o2.err);
                if (o2.ok)
                    failed++;
                else
                    refused++;
                continue;
            }
            if (no_o0) {
                memset(&o0, 0, sizeof o0);
                snprintf(o0.err, sizeof o0.err, "not asked for (--no-o0)");
                o0.ok = 2;
            } else {
                translate(&p, S, 0, reps, 0, &o0);
            }
            translated++;
            double g = guest ? (double)guest : 1;
            const wl_translate_info *i2 = &o2.info;
            char w0[16] = "-", r0[16] = "-", t0[16] = "-";
            if (o0.ok == 1) {
                snprintf(w0, sizeof w0, "%zu", o0.words);
                snprintf(r0, sizeof r0, "%.1f", (double)o0.words / g);
                snprintf(t0, sizeof t0, "%.2f", o0.info.ms_total);
            } else if (o0.ok != 2) {
                o0_failed++;
                failed++;
            }
            printf("%-34s %2u %5zu %7s %7zu %6s %6.1f %7.2f %6.2f %6.2f %6.2f %6.2f %6s", name, p.wave_size, guest,
                   w0, o2.words, r0, (double)o2.words / g, i2->ms_total, i2->ms_lift, i2->ms_lower, i2->ms_opt,
                   i2->ms_emit, t0);
            double wpi = (double)o2.words / g;
            push_wpi(p.wave_size == 64 ? &wpi2 : &wpi1, p.wave_size == 64 ? &n2 : &n1, wpi);
            if (p.wave_size == 64 && !cls[CLASS_IMG])
                push_wpi(&wpi2n, &n2n, wpi);
            if (guest > big.guest)
                note_program(&big, name, guest, o2.words, p.wave_size, i2, o2.cpu_ms);
            if (guest >= 2000 && (!aim.guest || guest < aim.guest))
                note_program(&aim, name, guest, o2.words, p.wave_size, i2, o2.cpu_ms);
            if (s8) {
                tr r8;
                translate(&p, 8, 2, reps, 0, &r8);
                if (r8.ok == 1)
                    printf(" %8zu %6.1f %7.2f", r8.words, (double)r8.words / g, r8.info.ms_total);
                else {
                    printf(" S=8 %s: %s", r8.ok ? "FAILED" : "refused", r8.err);
                    failed += r8.ok != 0;
                }
            }
            if (run) {
                tr rd;
                translate(&p, devS, 2, 1, 1, &rd);
                wl_rt_pipeline *pl = NULL;
                wl_rt_pipeline_desc pd = {.words = rd.spirv, .nwords = rd.words, .subgroup_size = devS,
                                          .require_full_subgroups = 1};
                if (rd.ok == 1 && wl_rt_pipeline_create(rt, &pd, &pl) == WL_RT_OK) {
                    printf(" %7.2f", (double)wl_rt_pipeline_create_ns(pl) * 1e-6);
                    wl_rt_pipeline_destroy(rt, pl);
                } else if (rd.ok == 1) {
                    printf(" pipeline FAILED: %s", wl_rt_error(rt));
                    failed++;
                } else {
                    printf(" S=%u %s: %s", devS, rd.ok ? "FAILED" : "refused", rd.err);
                    failed += rd.ok != 0;
                }
                free(rd.spirv);
            }
            size_t wave_words = 0;
            if (wave) {
                tr rw;
                model_opt = WL_MODEL_WAVE;
                translate(&p, S, 2, reps, 0, &rw);
                model_opt = WL_MODEL_LANES;
                if (rw.ok == 1) {
                    wave_words = rw.words;
                    printf(" %8zu %6.2f", rw.words, (double)rw.words / (double)o2.words);
                } else {
                    printf(" wave %s: %s", rw.ok ? "FAILED" : "refused", rw.err);
                    failed += rw.ok != 0;
                }
            }
            double mib = -1;
            if (memory) {
                mib = peak_mib(files.v[fi], ki, S);
                if (mib < 0)
                    printf(" %7s", "-");
                else
                    printf(" %7.1f", mib);
                mib_max = mib > mib_max ? mib : mib_max;
            }
            if (allk) { /* every k the lanes model offers: S = 16, 8, 4 (k up to 16) */
                static const unsigned ss[3] = {16, 8, 4};
                for (int si = 0; si < 3; si++) {
                    tr rk;
                    translate(&p, ss[si], 2, 0, 0, &rk);
                    if (rk.ok != 1) {
                        printf(" S=%u %s: %s", ss[si], rk.ok ? "FAILED" : "refused", rk.err);
                        allk_failed++;
                        failed += rk.ok != 0;
                    } else if (ss[si] == 4) {
                        printf(" %8zu", rk.words);
                        allk_max = rk.words > allk_max ? rk.words : allk_max;
                    }
                }
            }
            printf("\n");
            /* over 60 words a guest instruction at k = 2: what the program is
             * made of, and what the exact fma costs (the module with the
             * host's Fma, as on a device whose Fma fuses) */
            size_t fused_words = 0;
            if (p.wave_size == 64 && wpi > 60) {
                tr rf;
                fused_opt = WL_FMA_F32 | WL_FMA_F64;
                translate(&p, S, 2, 1, 0, &rf);
                fused_opt = 0;
                if (rf.ok == 1) {
                    fused_words = rf.words;
                    printf("    over 60 w/i: the exact fma %.1f w/i (%.1f with the host's Fma)", 
                           (double)(o2.words - (rf.words < o2.words ? rf.words : o2.words)) / g,
                           (double)rf.words / g);
                }
                for (int c = 0; c < CLASS_N; c++)
                    if (cls[c] * 20 >= guest || (c == CLASS_IMG && cls[c])) /* 5% of the program or more; any image access (hundreds of words each) */
                        printf("; %s %zu (%.0f%%)", class_names[c], cls[c], 100.0 * (double)cls[c] / g);
                printf("\n");
                over60++;
            }
            if (csv)
                fprintf(csv, "%s,%u,%zu,%zu,%zu,%.2f,%.2f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%zu,%.1f,%zu\n", name,
                        p.wave_size, guest, o0.ok == 1 ? o0.words : 0, o2.words,
                        o0.ok == 1 ? (double)o0.words / g : 0, (double)o2.words / g, i2->ms_total, i2->ms_lift,
                        i2->ms_lower, i2->ms_opt, i2->ms_emit, o0.ok == 1 ? o0.info.ms_total : 0, wave_words,
                        mib, fused_words);
            if (o0.ok != 1 && o0.ok != 2)
                printf("    -O0 %s: %s\n", o0.ok ? "FAILED" : "refused", o0.err);
        }
        wl_codeobj_free(co);
    }
    printf("\nkernels: %zu translated at -O2 (%zu of them failed at -O0), %zu refused, %zu failures in all\n",
           translated, o0_failed, refused, failed);
    if (n2)
        printf("median SPIR-V words per guest instruction, k = 2 (wave64, S = 32), -O2: %.1f over %zu kernels "
               "(aim: at most 30: %s)\n",
               median(wpi2, n2), n2, median(wpi2, n2) <= 30 ? "met" : "MISSED");
    if (n1)
        printf("median SPIR-V words per guest instruction, k = 1 (wave32, S = 32), -O2: %.1f over %zu kernels\n",
               median(wpi1, n1), n1);
    /* (median() sorted them) */
    if (n2)
        printf("k = 2, -O2 words per guest instruction: 90th percentile %.1f, maximum %.1f\n", quantile(wpi2, n2, 0.9),
               wpi2[n2 - 1]);
    if (n1)
        printf("k = 1, -O2 words per guest instruction: 90th percentile %.1f, maximum %.1f\n", quantile(wpi1, n1, 0.9),
               wpi1[n1 - 1]);
    if (n2)
        printf("k = 2, -O2: %zu of %zu programs over 60 words a guest instruction (the bound of issue 17; each "
               "named above with what it is made of)\n", over60, n2);
    if (allk)
        printf("every k (S = 16, 8, 4): %zu translations failed or refused; the largest module at S = 4: %zu words\n",
               allk_failed, allk_max);
    if (memory && mib_max >= 0)
        printf("peak memory of one -O2 translation: at most %.1f MiB\n", mib_max);
    if (csv) {
        fclose(csv);
        printf("table: %s (scripts/plot_bench.py draws it)\n", csv_path);
    }
    if (big.guest)
        print_program("largest program", &big);
    if (aim.guest && aim.guest != big.guest)
        print_program("smallest program of at least 2,000 instructions", &aim);
    if (big.guest) {
        const largest *l = aim.guest ? &aim : &big;
        printf("  aim: at least 2,000 instructions in under 100 ms: %s\n",
               !aim.guest ? "no program that large"
               : l->info.ms_total < 100 ? "met"
               : l->cpu_ms < 100 ? "MISSED in wall time, met in CPU time (a loaded machine)"
                                 : "MISSED");
    }
    /* --check-median: the bound of issue 17 over the programs given that
     * have no image access; those that have (each access converts every
     * format its T# may name: docs/images.md) are counted apart, their
     * median printed and named above where over 60 */
    int broken = 0;
    if (check_median > 0) {
        double m = n2n ? median(wpi2n, n2n) : 0;
        broken = !n2n || m > check_median;
        printf("bound: median SPIR-V words per guest instruction at k = 2, -O2: %.1f over the %zu programs without "
               "image accesses, at most %.1f: %s (with the %zu that have them: %.1f)\n",
               m, n2n, check_median, broken ? "BROKEN" : "held", n2 - n2n, n2 ? median(wpi2, n2) : 0);
    }
    if (check_allk) { /* --check-all-k: the bound of issue 17 (every program at every k the lanes model offers) */
        int b = allk_failed != 0;
        printf("bound: every program that translates at S = 32 translates at S = 16, 8 and 4 (k up to 16): %zu "
               "translations failed or refused: %s\n", allk_failed, b ? "BROKEN" : "held");
        broken |= b;
    }
    free(wpi2);
    free(wpi2n);
    free(wpi1);
    for (size_t i = 0; i < files.n; i++)
        free(files.v[i]);
    free(files.v);
    wl_rt_destroy(rt);
    return failed || broken ? 1 : 0;
}
