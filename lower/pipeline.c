/* The translate pipeline (include/wavelift/translate.h; docs/architecture.md
 * "The pipeline"): wl_lift, wl_wir_verify, then one table of passes per model
 * and -O level, read top to bottom (LLVM pass strings and project passes,
 * llvm-passes/pass.h's shape), then wl_emit_spirv. The debug option
 * (WAVELIFT_PASSES or wl_translate_options.passes; docs/architecture.md)
 * verifies after every pass that made progress, prints the module after a
 * named pass, skips a named pass, times each pass. Everything is freed on
 * every path. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "wavelift/backend.h"
#include "wavelift/translate.h"
#include "lower/options.h"

#include "budget.h"
#include "frontend/lift/lift_ex.h"
#include "llvm-passes/passes.h"
#include "ir/wave_ir.h"
#include "models.h"
#include "llvm-passes/o2_pipeline.inc"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static size_t count(LLVMModuleRef m)
{
    size_t n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I))
                n++;
    return n;
}

static wl_status prefixed(char *err, size_t cap, wl_status st, const char *stage)
{
    if (cap && err[0]) {
        char tmp[1024];
        snprintf(tmp, sizeof tmp, "%s", err);
        snprintf(err, cap, "%s: %s", stage, tmp);
    } else if (cap) {
        snprintf(err, cap, "%s failed", stage);
    }
    return st;
}

/* ---- the tables ------------------------------------------------------------ */

enum {
    K_LLVM,  /* an LLVM pass string */
    K_PASS,  /* a project pass (llvm-passes/pass.h) */
    K_HOOK,  /* the stage hook of wl_translate_options, named after its stage */
};
enum {
    F_REQUIRED = 1, /* changes form (a model's step): never skipped */
    F_CHECK = 2,    /* LLVMVerifyModule after it always, not only when debugging */
    F_NOVEC = 8,    /* an LLVM string run with the loop and SLP vectorizers off */
    F_LOWER = 16,   /* timed as the lowering (wl_translate_info.ms_lower), else as optimization */
    F_AFTER = 32,   /* runs only if the entry before it ran (was not skipped) */
    F_OFF = 64,     /* runs only where the debug option names it (run=NAME) */
};

typedef struct pass_entry {
    const char *name;   /* for the debug option's skip= and print-after= */
    int kind;
    const char *llvm;   /* K_LLVM: the pass string (llvm-passes/o2_pipeline.inc) */
    wl_pass_fn run;     /* K_PASS */
    unsigned arg;
    unsigned flags;
    const char *what;   /* F_CHECK: what the message names */
} pass_entry;

#define LLVM(n, s, f) {n, K_LLVM, s, NULL, 0, f, NULL}
#define PASS(n, fn, a, f) {n, K_PASS, NULL, fn, a, f, NULL}
#define HOOK(n) {n, K_HOOK, NULL, NULL, 0, 0, NULL}
#define END {NULL, 0, NULL, NULL, 0, 0, NULL}

static int budget_pass(wl_pass_ctx *P, unsigned arg);
static int lanes_pass(wl_pass_ctx *P, unsigned arg);
static int check_pass(wl_pass_ctx *P, unsigned arg);

/* the lowered module verifies (always) */
#define CHECK_LOWERED {"verify-lowered", K_PASS, NULL, check_pass, 0, F_REQUIRED, "lowered module"}

/* The lanes model (D973), -O0. */
static const pass_entry lanes_o0[] = {
    PASS("loop-budget", budget_pass, 0, F_REQUIRED | F_LOWER),
    PASS("lower-lanes", lanes_pass, 0, F_REQUIRED | F_LOWER),
    CHECK_LOWERED,
    HOOK("lowered"),
    HOOK("host"),
    END,
};

/* The lanes model, -O2: the wave-IR passes while every value is one a lane
 * (docs/benchmarks.md says what each saves), the lowering, the host passes. */
static const pass_entry lanes_o2[] = {
    PASS("loop-budget", budget_pass, 0, F_REQUIRED | F_LOWER),
    PASS("fold-prepare", wl_opt_fold_prepare, 0, 0),
    PASS("promote-registers", wl_opt_promote_registers, 0, 0),
    LLVM("wave-cse", wl_o2_wave_cse, F_NOVEC),
    /* every bit expression: the ballots it frees cost k subgroup ballots */
    PASS("fold-lane-bits", wl_opt_fold_lane_bits, 1u << 20, 0),
    PASS("fold-pair-phis", wl_opt_fold_pair_phis, 0, 0), /* after the lane bits: a carry-in is then the compare */
    PASS("fold-masked-selects", wl_opt_fold_masked_selects, 0, 0),
    PASS("fold-add64", wl_opt_fold_add64, 0, 0),
    LLVM("wave-clean", wl_o2_wave_clean, F_NOVEC),
    PASS("fold-flushes", wl_opt_fold_flushes, 0, 0), /* after InstCombine: a flush of a flushed value */
    PASS("fold-odd-widths", wl_opt_fold_odd_widths, 0, 0),
    PASS("fold-lane-bits", wl_opt_fold_lane_bits, 1, 0), /* again: InstCombine makes sext(i1) masks and selects */
    PASS("fold-ballot-tests", wl_opt_fold_ballot_tests, 0, 0),
    HOOK("wave"),
    PASS("lower-lanes", lanes_pass, 0, F_REQUIRED | F_LOWER),
    CHECK_LOWERED,
    PASS("outline-calls", wl_opt_outline_calls, 2, 0), /* guest functions as functions */
    HOOK("lowered"),
    LLVM("host", wl_o2_host, F_NOVEC),
    /* shuffle trees as reductions and scans: off (run=subgroup-reduce).
     * On NVIDIA it made glsl_compact wrong at k = 2 (exact without it, in
     * every run) for no dispatch time (docs/native.md) */
    PASS("subgroup-reduce", wl_opt_subgroup_reduce, 0, F_OFF),
    {"vectorize-lanes", K_PASS, NULL, wl_opt_vectorize_lanes, 0, F_CHECK, "vectorizing lane clones left an invalid module"},
    LLVM("vectorize-clean", wl_o2_host_vec, F_NOVEC | F_AFTER),
    {"version-align", K_PASS, NULL, wl_opt_version_align, 0, F_CHECK, "versioning unaligned accesses left an invalid module"},
    PASS("drop-sink-stores", wl_opt_drop_sink_stores, 0, 0),
    PASS("merge-loads", wl_opt_merge_loads, 0, 0),
    PASS("fold-pair64", wl_opt_fold_pair64, 0, 0),
    PASS("fma-host-first", wl_opt_fma_host_first, 0, 0), /* the host's Fma, checked (WL_FMA_F32_NORMAL) */
    PASS("outline-fma", wl_opt_outline_fma, 2, 0), /* the exact fma once a type, called */
    HOOK("host"),
    END,
};

/* The wave model (D956), -O0: its steps (models.h) around the wave-IR
 * passes it needs. */
static const pass_entry wave_o0[] = {
    PASS("loop-budget", budget_pass, 0, F_REQUIRED | F_LOWER),
    PASS("wave-begin", wl_wave_begin, 0, F_REQUIRED | F_LOWER),
    PASS("promote-registers", wl_opt_promote_registers, 0, F_REQUIRED), /* the uniform registers as SSA */
    PASS("fold-prepare", wl_opt_fold_prepare, 0, 0),
    PASS("wave-lane-bits", wl_wave_fold_lane_bits, 0, 0),
    PASS("wave-settle", wl_wave_settle, 0, F_REQUIRED | F_LOWER),
    PASS("wave-lower", wl_wave_lower, 0, F_REQUIRED | F_LOWER),
    CHECK_LOWERED,
    HOOK("lowered"),
    HOOK("host"),
    END,
};

/* The wave model, -O2. */
static const pass_entry wave_o2[] = {
    PASS("loop-budget", budget_pass, 0, F_REQUIRED | F_LOWER),
    PASS("wave-begin", wl_wave_begin, 0, F_REQUIRED | F_LOWER),
    PASS("promote-registers", wl_opt_promote_registers, 0, F_REQUIRED),
    PASS("fold-prepare", wl_opt_fold_prepare, 0, 0),
    LLVM("wave-cse", wl_o2_wave_cse, 0),
    PASS("wave-lane-bits", wl_wave_fold_lane_bits, 0, 0),
    PASS("fold-pair-phis", wl_opt_fold_pair_phis, 0, 0),
    PASS("fold-add64", wl_opt_fold_add64, 0, 0),
    LLVM("wave-clean", wl_o2_wave_clean_wave, 0),
    PASS("fold-flushes", wl_opt_fold_flushes, 0, 0),
    PASS("fold-odd-widths", wl_opt_fold_odd_widths, 0, 0),
    PASS("wave-lane-bits", wl_wave_fold_lane_bits, 0, 0), /* again: InstCombine makes sext(i1) masks and selects */
    PASS("wave-settle", wl_wave_settle, 0, F_REQUIRED | F_LOWER),
    /* stores to a VGPR every path overwrites before reading it (the
     * lifter's zeroing at entry): each would be a store in a lane loop */
    LLVM("wave-dse", wl_o2_wave_dse, 0),
    PASS("wave-lower", wl_wave_lower, 0, F_REQUIRED | F_LOWER),
    CHECK_LOWERED,
    HOOK("lowered"),
    LLVM("o2", wl_o2_pipeline, F_NOVEC), /* default<O2> without the vectorizers */
    /* (no version-align: on an H100 it left the wave model's dispatches as
     * they were, 43.8x -> 43.6x native, and made its modules 10% larger;
     * docs/native.md) */
    PASS("drop-sink-stores", wl_opt_drop_sink_stores, 0, 0),
    PASS("merge-loads", wl_opt_merge_loads, 0, 0),
    PASS("fold-pair64", wl_opt_fold_pair64, 0, 0),
    PASS("fma-host-first", wl_opt_fma_host_first, 0, 0), /* the host's Fma, checked (WL_FMA_F32_NORMAL) */
    PASS("outline-fma", wl_opt_outline_fma, 2, 0), /* the exact fma once a type, called */
    HOOK("host"),
    END,
};

static const pass_entry *table_of(int model, int opt_level)
{
    if (model == WL_MODEL_WAVE)
        return opt_level >= 2 ? wave_o2 : wave_o0;
    return opt_level >= 2 ? lanes_o2 : lanes_o0;
}

/* ---- the model's steps as passes ------------------------------------------- */

typedef struct run_state {
    wl_pass_ctx P;
    const wl_translate_options *opt;
    wl_translate_info *info;
    /* the debug option */
    int verify, timing, list;
    int lds_buffer;        /* lds-buffer: device-memory LDS whatever its size */
    unsigned helper_calls; /* helper-calls=N (lower/memory/helper_calls.c) */
    char skip[512], print[512], run[512]; /* ",name,name," */
} run_state;

static int budget_pass(wl_pass_ctx *P, unsigned arg)
{
    (void)arg;
    const run_state *R = (const run_state *)P;
    const wl_translate_options *opt = R->opt;
    uint32_t budget = opt->loop_budget ? opt->loop_budget
                      : opt->model == WL_MODEL_WAVE ? WL_LOOP_BUDGET_DEFAULT_WAVE
                                                    : WL_LOOP_BUDGET_DEFAULT;
    unsigned edges = 0;
    wl_status st = wl_lower_loop_budget(P->m, budget, &edges, P->err, P->errcap);
    return st ? wl_pass_fail(P, st, NULL) : (int)edges;
}

static int lanes_pass(wl_pass_ctx *P, unsigned arg)
{
    (void)arg;
    wl_status st = wl_lower_lanes(P->m, P->lo, &P->li, P->err, P->errcap);
    return st ? wl_pass_fail(P, st, NULL) : 1;
}

static int verify_llvm(wl_pass_ctx *P, const char *what)
{
    char *msg = NULL;
    int bad = LLVMVerifyModule(P->m, LLVMReturnStatusAction, &msg);
    if (bad)
        wl_pass_fail(P, WL_ERR_INVALID, "%s: %s", what, msg ? msg : "?");
    LLVMDisposeMessage(msg);
    return bad ? -1 : 0;
}

static int check_pass(wl_pass_ctx *P, unsigned arg)
{
    (void)arg;
    const run_state *R = (const run_state *)P;
    R->info->llvm_lowered = count(P->m);
    return verify_llvm(P, "lowered module does not verify");
}

/* ---- the debug option ------------------------------------------------------- */

static int listed(const char *set, const char *name)
{
    char key[96];
    snprintf(key, sizeof key, ",%s,", name);
    return strstr(set, key) != NULL || strstr(set, ",all,") != NULL;
}

static int known_name(const char *name)
{
    const pass_entry *tabs[] = {lanes_o0, lanes_o2, wave_o0, wave_o2};
    for (size_t t = 0; t < 4; t++)
        for (const pass_entry *e = tabs[t]; e->name; e++)
            if (strcmp(e->name, name) == 0)
                return 1;
    return 0;
}

/* "verify,time,list,skip=NAME,print-after=NAME" (commas or spaces) */
/* The next item of a debug option spec (items separated by commas or
 * spaces) into item; 0 at the end */
static int next_item(const char **p, char item[128])
{
    while (**p == ',' || **p == ' ')
        (*p)++;
    size_t n = strcspn(*p, ", ");
    if (!n)
        return 0;
    size_t m = n < 127 ? n : 127;
    memcpy(item, *p, m);
    item[m] = 0;
    *p += n;
    return 1;
}

static wl_status parse_debug(run_state *R, const char *spec, char *err, size_t errcap)
{
    if (!spec)
        return WL_OK;
    const char *p = spec;
    char item[128];
    while (next_item(&p, item)) {
        char *set = NULL;
        const char *name = NULL;
        if (strcmp(item, "verify") == 0)
            R->verify = 1;
        else if (strcmp(item, "time") == 0)
            R->timing = 1;
        else if (strcmp(item, "list") == 0)
            R->list = 1;
        else if (strcmp(item, "lds-buffer") == 0)
            R->lds_buffer = 1;
        else if (strcmp(item, "outline-calls") == 0)
            ; /* read before the lifting (wl_translate) */
        else if (strncmp(item, "helper-calls=", 13) == 0 && item[13] >= '0' && item[13] <= '9')
            R->helper_calls = (unsigned)strtoul(item + 13, NULL, 10);
        else if (strncmp(item, "skip=", 5) == 0)
            set = R->skip, name = item + 5;
        else if (strncmp(item, "print-after=", 12) == 0)
            set = R->print, name = item + 12;
        else if (strncmp(item, "run=", 4) == 0)
            set = R->run, name = item + 4;
        else {
            if (errcap)
                snprintf(err, errcap,
                         "passes option: unknown item '%s' (verify, time, list, skip=NAME, run=NAME, print-after=NAME, "
                         "lds-buffer, helper-calls=N, outline-calls)",
                         item);
            return WL_ERR_USAGE;
        }
        if (set) {
            if (!(strcmp(name, "all") == 0 && set == R->print) && !known_name(name)) {
                if (errcap)
                    snprintf(err, errcap, "passes option: no pass is named '%s' (list shows the table)", name);
                return WL_ERR_USAGE;
            }
            size_t len = strlen(set);
            if (len + strlen(name) + 3 > 512) {
                if (errcap)
                    snprintf(err, errcap, "passes option: too many names");
                return WL_ERR_USAGE;
            }
            snprintf(set + len, 512 - len, "%s%s,", len ? "" : ",", name);
        }
    }
    return WL_OK;
}

/* ---- the driver --------------------------------------------------------------- */

static wl_status run_llvm(wl_pass_ctx *P, const char *passes, int novec)
{
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    if (novec) {
        LLVMPassBuilderOptionsSetLoopVectorization(po, 0);
        LLVMPassBuilderOptionsSetSLPVectorization(po, 0);
        LLVMPassBuilderOptionsSetLoopInterleaving(po, 0);
    }
    LLVMErrorRef e = LLVMRunPasses(P->m, passes, NULL, po);
    LLVMDisposePassBuilderOptions(po);
    if (!e)
        return WL_OK;
    char *em = LLVMGetErrorMessage(e);
    wl_pass_fail(P, WL_ERR_INVALID, "LLVM passes: %s", em);
    LLVMDisposeErrorMessage(em);
    return P->status;
}

/* A line of the debug option: to the caller's log, else stderr. */
static void say(const wl_translate_options *opt, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const wl_translate_options *opt, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (opt->log) {
        char line[512];
        vsnprintf(line, sizeof line, fmt, ap);
        opt->log(opt->log_user, line);
    } else {
        vfprintf(stderr, fmt, ap);
    }
    va_end(ap);
}

static wl_status run_table(run_state *R, const pass_entry *tab)
{
    wl_pass_ctx *P = &R->P;
    const wl_translate_options *opt = R->opt;
    double ms_lower = 0, ms_opt = 0;
    int ran_prev = 0;
    for (const pass_entry *e = tab; e->name && R->skip[0]; e++)
        if ((e->flags & F_REQUIRED) && listed(R->skip, e->name))
            return wl_pass_fail(P, WL_ERR_USAGE, "passes option: %s is a step of the model: it cannot be skipped",
                                e->name),
                   P->status;
    if (R->list)
        for (const pass_entry *e = tab; e->name; e++)
            say(opt, "wavelift passes: %-20s %s\n", e->name,
                    e->kind == K_LLVM ? e->llvm : e->kind == K_HOOK ? "(stage hook)"
                                                 : (e->flags & F_OFF) ? "(off: run=NAME runs it)" : "");
    for (const pass_entry *e = tab; e->name && !P->status; e++) {
        if (e->kind == K_HOOK) {
            if (opt->stage_hook)
                opt->stage_hook(opt->stage_user, e->name, P->m);
            continue;
        }
        if ((e->flags & F_AFTER) && !ran_prev)
            continue;
        if ((!(e->flags & F_REQUIRED) && R->skip[0] && listed(R->skip, e->name)) ||
            ((e->flags & F_OFF) && !(R->run[0] && listed(R->run, e->name)))) {
            ran_prev = 0;
            continue;
        }
        ran_prev = 1;
        double t0 = now_ms();
        int progress;
        if (e->kind == K_LLVM)
            progress = run_llvm(P, e->llvm, (e->flags & F_NOVEC) != 0) ? -1 : 1;
        else
            progress = e->run(P, e->arg);
        double dt = now_ms() - t0;
        if (e->flags & F_LOWER)
            ms_lower += dt;
        else
            ms_opt += dt;
        if (R->timing)
            say(opt, "wavelift passes: %-20s %9.2f ms  %d\n", e->name, dt, progress);
        if (progress < 0) {
            if (!P->status)
                P->status = WL_ERR_INVALID;
            break;
        }
        if ((e->flags & F_CHECK) && verify_llvm(P, e->what) < 0)
            break;
        if (R->verify && progress > 0) {
            /* (the wave IR's rules hold for the lifted module only, which
             * wl_wir_verify checks before the table: the loop budget adds
             * @wl.push, the folds take the selects under EXEC apart) */
            char msg[256];
            snprintf(msg, sizeof msg, "after pass %s: the module does not verify", e->name);
            if (verify_llvm(P, msg) < 0)
                break;
        }
        if (R->print[0] && listed(R->print, e->name)) {
            char *text = LLVMPrintModuleToString(P->m);
            if (opt->log) { /* the module whole, one call */
                say(opt, "; ---- wavelift: the module after pass %s ----\n", e->name);
                opt->log(opt->log_user, text);
            } else {
                fprintf(stderr, "; ---- wavelift: the module after pass %s ----\n%s", e->name, text);
            }
            LLVMDisposeMessage(text);
        }
    }
    R->info->ms_lower = ms_lower;
    R->info->ms_opt = ms_opt;
    return P->status;
}

static wl_status run_module(LLVMModuleRef m, const wl_translate_options *opt, uint32_t **words, size_t *nwords,
                            wl_translate_info *info, char *err, size_t errcap)
{
    double t0 = now_ms();
    wl_status st = wl_wir_verify(m, err, errcap);
    double t1 = now_ms();
    info->ms_verify = t1 - t0;
    info->llvm_lifted = count(m);
    if (LLVMGetNamedMetadataNumOperands(m, WL_WIR_GUEST_MD) == 1) {
        LLVMValueRef node;
        LLVMGetNamedMetadataOperands(m, WL_WIR_GUEST_MD, &node);
        LLVMValueRef n = LLVMGetNumOperands(node) == 1 ? LLVMGetOperand(node, 0) : NULL;
        if (n && LLVMIsAConstantInt(n))
            info->guest_instructions = (size_t)LLVMConstIntGetZExtValue(n);
    }
    if (st)
        return st; /* the verifier's message names the rule */
    /* the widths whose llvm.fma is the host's Fma: those it is exact for,
     * and float where it flushes subnormals but the program does too */
    int fused = opt->fused_fma & (WL_FMA_F32 | WL_FMA_F64 | WL_FMA_F32_NORMAL);
    if ((opt->fused_fma & WL_FMA_F32_FTZ) && LLVMGetNamedMetadata(m, WL_WIR_FMA_FTZ_MD, strlen(WL_WIR_FMA_FTZ_MD)))
        fused |= WL_FMA_F32;

    run_state *R = calloc(1, sizeof *R);
    if (!R) {
        if (errcap)
            snprintf(err, errcap, "out of memory");
        return WL_ERR_NOMEM;
    }
    st = parse_debug(R, opt->passes, err, errcap);
    if (!st)
        st = parse_debug(R, getenv("WAVELIFT_PASSES"), err, errcap);
    if (st) {
        free(R);
        return st;
    }
    wl_lower_options lo;
    memset(&lo, 0, sizeof lo);
    lo.subgroup_size = opt->subgroup_size;
    memcpy(lo.local_size, opt->local_size, sizeof lo.local_size);
    lo.force_merge_stores = opt->force_merge_stores;
    lo.force_atomic64_lock = opt->force_atomic64_lock;
    lo.helper_calls = R->helper_calls; /* the debug option's helper-calls=N (lower/memory/helper_calls.c) */
    lo.lds_limit = opt->lds_limit; /* device-memory LDS (lower/memory/lds.c) */
    lo.force_lds_buffer = R->lds_buffer; /* the debug option's lds-buffer */
    lo.force_lds_atomic64_lock = opt->force_lds_atomic64_lock;
    lo.scratch_limit = opt->scratch_limit; /* device-memory scratch (lower/memory/scratch.c) */
    lo.force_scratch_buffer = opt->force_scratch_buffer;
    lo.private_limit = opt->private_limit; /* the wave model's lane arrays (lower/wave/device_arrays.c) */
    lo.mapping_pages = opt->mapping_pages; /* the page table (lower/memory/helpers/map.ll, .pages) */
    lo.loop_iteration_limit = opt->loop_iteration_limit; /* the wave model's lane unrolling */
    lo.opt_level = opt->opt_level;
    wl_pass_ctx_init(&R->P, m, &lo, err, errcap);
    R->P.subgroup_size = opt->subgroup_size;
    R->P.fused_fma = fused;
    R->opt = opt;
    R->info = info;
    st = run_table(R, table_of(opt->model, opt->opt_level));
    wl_wave_free(&R->P);
    wl_lower_info li = R->P.li;
    free(R);
    if (st)
        return st;
    info->model = opt->model == WL_MODEL_WAVE ? WL_MODEL_WAVE : WL_MODEL_LANES;
    info->lane_loops = li.lane_loops;
    info->lane_array_bytes = li.lane_array_bytes;
    info->lanes_per_invocation = li.lanes_per_invocation;
    info->wave_size = opt->model == WL_MODEL_WAVE ? li.lanes_per_invocation
                                                  : li.lanes_per_invocation * opt->subgroup_size;
    info->waves_per_group = li.waves_per_group;
    memcpy(info->host_local_size, li.host_local_size, sizeof li.host_local_size);
    info->scratch_bytes_per_invocation = li.scratch_bytes_per_invocation;
    info->llvm_optimized = count(m);

    double t3 = now_ms();
    wl_emit_options eo;
    memset(&eo, 0, sizeof eo);
    eo.entry = "main";
    memcpy(eo.local_size, li.host_local_size, sizeof eo.local_size);
    eo.validate = opt->validate;
    eo.fused_fma_native = fused;
    eo.maximal_reconvergence = opt->maximal_reconvergence;
    eo.remap_binding = opt->remap_binding;
    eo.remap_user = opt->remap_user;
    eo.state_in_buffer = opt->state_in_buffer;
    wl_emit_info ei;
    st = wl_emit_spirv(m, &eo, words, nwords, &ei, err, errcap);
    info->ms_emit = now_ms() - t3;
    if (st)
        return prefixed(err, errcap, st, "backend");
    info->spirv_words = *nwords;
    info->features = ei.features;
    info->bindings = ei.bindings;
    info->push_bytes = ei.push_bytes;
    info->workgroup_bytes = ei.workgroup_bytes;
    memcpy(info->binding_set, ei.binding_set, sizeof info->binding_set);
    memcpy(info->binding_slot, ei.binding_slot, sizeof info->binding_slot);
    return WL_OK;
}

void wl_translate_options_init(wl_translate_options *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
}

/* The caller's options as this version's: the fields its struct_size
 * covers, the rest zero (their defaults). 0: no options or struct_size 0. */
int wl_translate_options_read(const wl_translate_options *in, wl_translate_options *out)
{
    if (!in || in->struct_size == 0)
        return 0;
    memset(out, 0, sizeof *out);
    memcpy(out, in, in->struct_size < sizeof *out ? in->struct_size : sizeof *out);
    out->struct_size = sizeof *out;
    return 1;
}

static wl_status check_opts(const wl_translate_options *opt, wl_translate_options *full, uint32_t **words,
                            size_t *nwords, char *err, size_t errcap)
{
    if (errcap)
        err[0] = 0;
    if (!opt || !words || !nwords) {
        if (errcap)
            snprintf(err, errcap, "wl_translate: missing options or output");
        return WL_ERR_USAGE;
    }
    *words = NULL;
    *nwords = 0;
    if (!wl_translate_options_read(opt, full)) {
        if (errcap)
            snprintf(err, errcap, "wl_translate: options.struct_size is 0 (wl_translate_options_init sets it)");
        return WL_ERR_USAGE;
    }
    return WL_OK;
}

/* A failed or refused translation's message, to the caller's log too. */
static wl_status logged(const wl_translate_options *opt, wl_status st, const char *err, size_t errcap)
{
    if (st != WL_OK && opt->log) {
        char line[1200];
        snprintf(line, sizeof line, "wavelift: %s: %s\n", wl_status_name(st), errcap && err[0] ? err : "(no message)");
        opt->log(opt->log_user, line);
    }
    return st;
}

wl_status wl_translate_module(LLVMModuleRef wave_ir, const wl_translate_options *caller, uint32_t **words,
                              size_t *nwords, wl_translate_info *info, char *err, size_t errcap)
{
    wl_translate_info tmp;
    if (!info)
        info = &tmp;
    memset(info, 0, sizeof *info);
    wl_translate_options full;
    const wl_translate_options *opt = &full;
    wl_status st = check_opts(caller, &full, words, nwords, err, errcap);
    if (!st && !wave_ir)
        st = WL_ERR_USAGE;
    if (st) {
        if (wave_ir)
            LLVMDisposeModule(wave_ir);
        return st;
    }
    double t0 = now_ms();
    st = run_module(wave_ir, opt, words, nwords, info, err, errcap);
    LLVMDisposeModule(wave_ir);
    info->ms_total = now_ms() - t0;
    return logged(opt, st, err, errcap);
}

/* Whether the debug option spec has the item `item` */
static int debug_item(const char *spec, const char *item)
{
    char it[128];
    for (const char *p = spec ? spec : ""; next_item(&p, it);)
        if (!strcmp(it, item))
            return 1;
    return 0;
}

wl_status wl_translate(const wl_lift_program *prog, const wl_translate_options *caller, uint32_t **words,
                       size_t *nwords, wl_translate_info *info, char *err, size_t errcap)
{
    wl_translate_info tmp;
    if (!info)
        info = &tmp;
    memset(info, 0, sizeof *info);
    wl_translate_options full;
    const wl_translate_options *opt = &full;
    wl_status st = check_opts(caller, &full, words, nwords, err, errcap);
    if (st)
        return st;
    if (!prog) {
        if (errcap)
            snprintf(err, errcap, "wl_translate: no program");
        return WL_ERR_USAGE;
    }
    info->wave_size = prog->wave_size;
    double t0 = now_ms();
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = NULL;
    unsigned lflags = debug_item(opt->passes, "outline-calls") || debug_item(getenv("WAVELIFT_PASSES"), "outline-calls")
                          ? WL_LIFT_OUTLINE_CALLS
                          : 0;
    st = wl_lift_ex(ctx, prog, lflags, &m, err, errcap);
    info->ms_lift = now_ms() - t0;
    if (!st)
        st = run_module(m, opt, words, nwords, info, err, errcap);
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    info->ms_total = now_ms() - t0;
    return logged(opt, st, err, errcap);
}
