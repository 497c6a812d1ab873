/* The translate pipeline (include/wavelift/translate.h):
 *   wl_lift -> wl_wir_verify -> wl_lower_lanes -> LLVMVerifyModule
 *   -> default<O2> less the vectorizers (opt_level 2) -> wl_emit_spirv.
 * Each stage is timed; everything is freed on every path. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "wavelift/backend.h"
#include "wavelift/translate.h"

#include "o2_pipeline.inc"

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

    wl_lower_options lo;
    memset(&lo, 0, sizeof lo);
    lo.subgroup_size = opt->subgroup_size;
    memcpy(lo.local_size, opt->local_size, sizeof lo.local_size);
    lo.force_merge_stores = opt->force_merge_stores;
    wl_lower_info li;
    st = wl_lower_lanes(m, &lo, &li, err, errcap);
    double t2 = now_ms();
    info->ms_lower = t2 - t1;
    if (st)
        return st;
    info->lanes_per_invocation = li.lanes_per_invocation;
    info->wave_size = li.lanes_per_invocation * opt->subgroup_size;
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
    if (opt->opt_level >= 2) {
        /* default<O2> without the vectorizers (o2_pipeline.inc) */
        LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
        LLVMPassBuilderOptionsSetLoopVectorization(po, 0);
        LLVMPassBuilderOptionsSetSLPVectorization(po, 0);
        LLVMPassBuilderOptionsSetLoopInterleaving(po, 0);
        LLVMErrorRef e = LLVMRunPasses(m, wl_o2_pipeline, NULL, po);
        LLVMDisposePassBuilderOptions(po);
        if (e) {
            char *em = LLVMGetErrorMessage(e);
            if (errcap)
                snprintf(err, errcap, "O2 pipeline: %s", em);
            LLVMDisposeErrorMessage(em);
            return WL_ERR_INVALID;
        }
    }
    double t3 = now_ms();
    info->ms_opt = t3 - t2;
    info->llvm_optimized = count(m);

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
