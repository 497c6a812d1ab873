/* The translate pipeline (include/wavelift/translate.h):
 *   wl_lift -> wl_wir_verify -> [-O2, lanes: wave_ir_o2] -> wl_lower_lanes
 *   -> LLVMVerifyModule -> [-O2: wl_o2_host (lanes) or default<O2> less the
 *   vectorizers (wave model)] -> wl_emit_spirv.
 * Each stage is timed; everything is freed on every path. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "wavelift/backend.h"
#include "wavelift/translate.h"

#include "budget.h"
#include "llvm-passes/passes.h"
#include "llvm-passes/merge_loads.h"
#include "llvm-passes/vectorize_lanes/vec_lanes.h"
#include "ir/wave_ir.h"
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

static wl_status run_passes(LLVMModuleRef m, const char *passes, char *err, size_t errcap)
{
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    LLVMPassBuilderOptionsSetLoopVectorization(po, 0);
    LLVMPassBuilderOptionsSetSLPVectorization(po, 0);
    LLVMPassBuilderOptionsSetLoopInterleaving(po, 0);
    LLVMErrorRef e = LLVMRunPasses(m, passes, NULL, po);
    LLVMDisposePassBuilderOptions(po);
    if (!e)
        return WL_OK;
    char *em = LLVMGetErrorMessage(e);
    if (errcap)
        snprintf(err, errcap, "O2 pipeline: %s", em);
    LLVMDisposeErrorMessage(em);
    return WL_ERR_INVALID;
}

/* -O2, lanes model, before the lowering (o2_pipeline.inc): the wave IR's
 * registers to SSA, repeats merged, lane bits of masks folded, cleaned. */
static wl_status wave_ir_o2(LLVMModuleRef m, const wl_lower_options *lo, int fold_masked, char *err, size_t errcap)
{
    wl_opt_fold_prepare(m, lo);
    if (wl_opt_promote_registers(m) < 0) {
        if (errcap)
            snprintf(err, errcap, "register promotion: out of memory");
        return WL_ERR_NOMEM;
    }
    wl_status st = run_passes(m, wl_o2_wave_cse, err, errcap);
    if (st)
        return st;
    wl_opt_fold_lane_bits(m, 1 << 20); /* every bit expression: the ballots it frees cost k subgroup ballots */
    /* after the lane bits: a carry-in is then the compare */
    if (wl_opt_fold_pair_phis(m) < 0) {
        if (errcap)
            snprintf(err, errcap, "register pairs: out of memory");
        return WL_ERR_NOMEM;
    }
    if (fold_masked >= 0)
        wl_opt_fold_masked_selects(m); /* before the pairs: a 64-bit address then reads as one add */
    wl_opt_fold_add64(m);
    st = run_passes(m, wl_o2_wave_clean, err, errcap);
    if (!st) {
        wl_opt_fold_odd_widths(m); /* after the last InstCombine, which makes them */
        wl_opt_fold_lane_bits(m, 1); /* again: InstCombine makes uniform masks sext(i1) and selects */
        wl_wir_info wi;
        if (wl_wir_program_info(m, &wi) == 0) /* EXEC tests of ands of ballots: one ballot, one subgroup any */
            wl_opt_fold_ballot_tests(m, wi.wave_size);
    }
    return st;
}

static wl_status run_module(LLVMModuleRef m, const wl_translate_options *opt, uint32_t **words, size_t *nwords,
                            wl_translate_info *info, char *err, size_t errcap)
{
    double t0 = now_ms();
    wl_status st = wl_wir_verify(m, err, errcap);
    double t1 = now_ms();
    info->ms_verify = t1 - t0;
    info->llvm_lifted = count(m);
    if (st)
        return st; /* the verifier's message names the rule */
    /* ---- the loop budget (D949, lower/budget.c; owner: helper `addr`) ---- */
    uint32_t budget = opt->loop_budget ? opt->loop_budget
                      : opt->model == WL_MODEL_WAVE ? WL_LOOP_BUDGET_DEFAULT_WAVE
                                                    : WL_LOOP_BUDGET_DEFAULT;
    st = wl_lower_loop_budget(m, budget, NULL, err, errcap);
    if (st)
        return st;
    /* ---- end of the loop budget ---- */

    wl_lower_options lo;
    memset(&lo, 0, sizeof lo);
    lo.subgroup_size = opt->subgroup_size;
    memcpy(lo.local_size, opt->local_size, sizeof lo.local_size);
    lo.force_merge_stores = opt->force_merge_stores;
    lo.force_atomic64_lock = opt->force_atomic64_lock;
    lo.helper_calls = opt->helper_calls; /* lower/memory/helper_calls.c */
    lo.lds_limit = opt->lds_limit; /* device-memory LDS (lower/memory/lds.c) */
    lo.force_lds_buffer = opt->force_lds_buffer;
    lo.force_lds_atomic64_lock = opt->force_lds_atomic64_lock;
    lo.scratch_limit = opt->scratch_limit; /* device-memory scratch (lower/memory/scratch.c) */
    lo.force_scratch_buffer = opt->force_scratch_buffer;
    lo.mapping_pages = opt->mapping_pages; /* the page table (lower/memory/page_table.c) */
    lo.opt_level = opt->opt_level; /* the wave model's preparation (lower/wave/prepare.c) */
    wl_lower_info li;
    int lanes_o2 = opt->opt_level >= 2 && opt->model != WL_MODEL_WAVE;
    double ms_pre = 0;
    if (lanes_o2) {
        st = wave_ir_o2(m, &lo, opt->fold_masked, err, errcap);
        ms_pre = now_ms() - t1;
        if (st)
            return st;
        if (opt->stage_hook)
            opt->stage_hook(opt->stage_user, "wave", m);
    }
    /* ---- the model (wave: lower/wave*.c, D956; owner: helper `wave`) ---- */
    if (opt->model == WL_MODEL_WAVE)
        st = wl_lower_wave(m, &lo, &li, err, errcap);
    else
        st = wl_lower_lanes(m, &lo, &li, err, errcap);
    double t2 = now_ms();
    info->ms_lower = t2 - t1 - ms_pre;
    if (st)
        return st;
    info->model = opt->model == WL_MODEL_WAVE ? WL_MODEL_WAVE : WL_MODEL_LANES;
    info->lane_loops = li.lane_loops;
    info->lanes_per_invocation = li.lanes_per_invocation;
    info->wave_size = opt->model == WL_MODEL_WAVE ? li.lanes_per_invocation
                                                  : li.lanes_per_invocation * opt->subgroup_size;
    /* ---- end of the model branch ---- */
    info->waves_per_group = li.waves_per_group;
    memcpy(info->host_local_size, li.host_local_size, sizeof li.host_local_size);
    info->scratch_bytes_per_invocation = li.scratch_bytes_per_invocation;
    info->llvm_lowered = count(m);
    char *msg = NULL;
    if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
        if (errcap)
            snprintf(err, errcap, "lowered module does not verify: %s", msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return WL_ERR_INVALID;
    }
    LLVMDisposeMessage(msg);
    if (opt->stage_hook)
        opt->stage_hook(opt->stage_user, "lowered", m);
    if (lanes_o2) {
        st = run_passes(m, wl_o2_host, err, errcap);
        if (!st && opt->vectorize >= 0) {
            /* llvm-passes/vectorize_lanes/vec_lanes.c: the k lane clones as vector instructions */
            msg = NULL;
            if (wl_opt_vectorize_lanes(m, li.lanes_per_invocation, opt->subgroup_size) < 0) {
                if (errcap)
                    snprintf(err, errcap, "vectorizing lane clones: out of memory");
                st = WL_ERR_NOMEM;
            } else if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
                /* never emit what the rewrite got wrong: refuse, naming it */
                if (errcap)
                    snprintf(err, errcap, "vectorizing lane clones left an invalid module: %s", msg ? msg : "?");
                st = WL_ERR_INVALID;
            } else {
                st = run_passes(m, wl_o2_host_vec, err, errcap);
            }
            LLVMDisposeMessage(msg);
        }
    } else if (opt->opt_level >= 2) {
        /* default<O2> without the vectorizers (o2_pipeline.inc) */
        st = run_passes(m, wl_o2_pipeline, err, errcap);
    }
    if (!st && opt->opt_level >= 2 && wl_opt_merge_loads(m) < 0) { /* llvm-passes/merge_loads.c */
        if (errcap)
            snprintf(err, errcap, "merging dword loads: out of memory");
        st = WL_ERR_NOMEM;
    }
    if (!st && opt->opt_level >= 2 && wl_opt_fold_pair64(m) < 0) { /* llvm-passes/fold_pair64.c */
        if (errcap)
            snprintf(err, errcap, "register pairs as vectors: out of memory");
        st = WL_ERR_NOMEM;
    }
    if (st)
        return st;
    double t3 = now_ms();
    info->ms_opt = t3 - t2 + ms_pre;
    info->llvm_optimized = count(m);
    if (opt->stage_hook)
        opt->stage_hook(opt->stage_user, "host", m);

    wl_emit_options eo;
    memset(&eo, 0, sizeof eo);
    eo.entry = "main";
    memcpy(eo.local_size, li.host_local_size, sizeof eo.local_size);
    eo.validate = opt->validate;
    wl_emit_info ei;
    st = wl_emit_spirv(m, &eo, words, nwords, &ei, err, errcap);
    info->ms_emit = now_ms() - t3;
    if (st)
        return prefixed(err, errcap, st, "backend");
    info->spirv_words = *nwords;
    info->features = ei.features;
    info->bindings = ei.bindings;
    info->push_bytes = ei.push_bytes;
    return WL_OK;
}

static wl_status check_opts(const wl_translate_options *opt, uint32_t **words, size_t *nwords, char *err,
                            size_t errcap)
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
    return WL_OK;
}

wl_status wl_translate_module(LLVMModuleRef wave_ir, const wl_translate_options *opt, uint32_t **words,
                              size_t *nwords, wl_translate_info *info, char *err, size_t errcap)
{
    wl_translate_info tmp;
    if (!info)
        info = &tmp;
    memset(info, 0, sizeof *info);
    wl_status st = check_opts(opt, words, nwords, err, errcap);
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
    return st;
}

wl_status wl_translate(const wl_lift_program *prog, const wl_translate_options *opt, uint32_t **words,
                       size_t *nwords, wl_translate_info *info, char *err, size_t errcap)
{
    wl_translate_info tmp;
    if (!info)
        info = &tmp;
    memset(info, 0, sizeof *info);
    wl_status st = check_opts(opt, words, nwords, err, errcap);
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
    st = wl_lift(ctx, prog, &m, err, errcap);
    info->ms_lift = now_ms() - t0;
    if (!st)
        st = run_module(m, opt, words, nwords, info, err, errcap);
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    info->ms_total = now_ms() - t0;
    return st;
}
