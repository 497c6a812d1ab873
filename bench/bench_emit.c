/* Benchmark of the backend: for each IR program in a directory (default
 * tests/backend), the SPIR-V words, the emission time, and through the
 * runtime (the first GPU, else lavapipe; WAVELIFT_DEVICE picks one) the
 * pipeline build time and the dispatch time; then a generated module of at
 * least 100,000 LLVM instructions (diamonds of arithmetic in a loop), its
 * emission rate in LLVM instructions per second.
 *
 *   wl_bench_emit [DIR] [INSTRUCTIONS]
 *
 * Times are the best of several runs; "prepare" is the structurizing passes
 * (LLVM), "emit" the emitter alone, "validate" SPIRV-Tools, "pipeline" the
 * host time in vkCreateComputePipelines (best of 3, no pipeline cache),
 * "dispatch" the median device time of 20 dispatches (timestamp queries).
 * Only the programs with an "; exec:" line (tests/test_backend_exec.c) are
 * dispatched: that line gives the workgroup size and count and the buffer
 * sizes; their memory starts as small numbers, results are not checked. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>

#include "wavelift/backend.h"
#include "wavelift/runtime.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static LLVMModuleRef parse(LLVMContextRef ctx, const char *path)
{
    LLVMMemoryBufferRef mb;
    char *msg = NULL;
    LLVMModuleRef m = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &mb, &msg)) {
        fprintf(stderr, "%s: %s\n", path, msg);
        LLVMDisposeMessage(msg);
        return NULL;
    }
    if (LLVMParseIRInContext(ctx, mb, &m, &msg)) {
        fprintf(stderr, "%s: %s\n", path, msg);
        LLVMDisposeMessage(msg);
        return NULL;
    }
    return m;
}

typedef struct result {
    size_t words, insts;
    double prepare, emit, validate;
    uint32_t *spirv; /* the last emitted module (malloc'ed) */
} result;

/* Prepares once, then emits `reps` times (the module is already prepared);
 * keeps the best times. */
static int measure(LLVMModuleRef m, int reps, result *r)
{
    char err[1024];
    double t0 = now();
    if (wl_prepare_module(m, err, sizeof err) != WL_OK) {
        fprintf(stderr, "prepare: %s\n", err);
        return 0;
    }
    r->prepare = now() - t0;
    r->emit = r->validate = 1e30;
    for (int i = 0; i < reps; i++) {
        wl_emit_options opt = {0};
        opt.local_size[0] = 64;
        opt.skip_prepare = 1;
        uint32_t *w = NULL;
        size_t n = 0;
        wl_emit_info info;
        t0 = now();
        wl_status s = wl_emit_spirv(m, &opt, &w, &n, &info, err, sizeof err);
        double t1 = now();
        if (s != WL_OK) {
            fprintf(stderr, "emit: %s\n", err);
            return 0;
        }
        s = wl_validate_spirv(w, n, err, sizeof err);
        double t2 = now();
        if (s != WL_OK) {
            fprintf(stderr, "validate: %s\n", err);
            free(w);
            return 0;
        }
        if (t1 - t0 < r->emit)
            r->emit = t1 - t0;
        if (t2 - t1 < r->validate)
            r->validate = t2 - t1;
        r->words = n;
        r->insts = info.llvm_instructions;
        free(r->spirv);
        r->spirv = w;
    }
    return 1;
}

/* A module of about `target` instructions: a loop over blocks of diamonds,
 * each arm a chain of integer and float arithmetic, loads and stores through
 * device addresses and a private array. */
static LLVMModuleRef generate(LLVMContextRef ctx, size_t target)
{
    LLVMModuleRef m = LLVMModuleCreateWithNameInContext("big", ctx);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx), i64 = LLVMInt64TypeInContext(ctx);
    LLVMTypeRef f32 = LLVMFloatTypeInContext(ctx), gptr = LLVMPointerTypeInContext(ctx, 1);
    LLVMValueRef push = LLVMAddGlobalInAddressSpace(m, LLVMArrayType2(i32, 4), "wl.push", 6);
    LLVMValueRef f = LLVMAddFunction(m, "main", LLVMFunctionType(LLVMVoidTypeInContext(ctx), NULL, 0, 0));
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(ctx, f, "entry");
    LLVMPositionBuilderAtEnd(b, entry);
    LLVMTypeRef arr = LLVMArrayType2(i32, 64);
    LLVMValueRef priv = LLVMBuildAlloca(b, arr, "priv");
    LLVMValueRef base = LLVMBuildIntToPtr(b, LLVMBuildLoad2(b, i64, push, "pa"), gptr, "p");
    LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(ctx, f, "head");
    LLVMBuildBr(b, head);
    LLVMPositionBuilderAtEnd(b, head);
    LLVMValueRef iv = LLVMBuildPhi(b, i32, "i");
    LLVMValueRef acc = LLVMBuildPhi(b, i32, "acc");
    LLVMValueRef cur = acc;
    size_t count = 6;
    int d = 0;
    while (count < target) {
        LLVMValueRef c = LLVMBuildICmp(b, LLVMIntULT, cur, LLVMConstInt(i32, 1000u + (unsigned)d, 0), "c");
        LLVMBasicBlockRef t = LLVMAppendBasicBlockInContext(ctx, f, "t");
        LLVMBasicBlockRef e = LLVMAppendBasicBlockInContext(ctx, f, "e");
        LLVMBasicBlockRef j = LLVMAppendBasicBlockInContext(ctx, f, "j");
        LLVMBuildCondBr(b, c, t, e);
        LLVMValueRef out[2];
        LLVMBasicBlockRef arms[2] = {t, e};
        for (int a = 0; a < 2; a++) {
            LLVMPositionBuilderAtEnd(b, arms[a]);
            LLVMValueRef x = cur;
            for (int k = 0; k < 40; k++) {
                LLVMValueRef idx = LLVMBuildAnd(b, x, LLVMConstInt(i32, 63, 0), "ix");
                LLVMValueRef gi[2] = {LLVMConstInt(i32, 0, 0), idx};
                LLVMValueRef pp = LLVMBuildGEP2(b, arr, priv, gi, 2, "pp");
                LLVMValueRef ld = LLVMBuildLoad2(b, i32, pp, "ld");
                x = LLVMBuildAdd(b, x, ld, "x");
                x = LLVMBuildMul(b, x, LLVMConstInt(i32, 2654435761u, 0), "x");
                LLVMValueRef fx = LLVMBuildUIToFP(b, x, f32, "fx");
                fx = LLVMBuildFMul(b, fx, LLVMConstReal(f32, 0.5), "fx");
                LLVMValueRef xi = LLVMBuildFPToUI(b, fx, i32, "xi");
                x = LLVMBuildXor(b, x, xi, "x");
                LLVMBuildStore(b, x, pp);
                LLVMValueRef ga = LLVMBuildGEP2(b, i32, base, &idx, 1, "ga");
                LLVMValueRef g = LLVMBuildLoad2(b, i32, ga, "g");
                x = LLVMBuildSub(b, x, g, "x");
                count += 12;
            }
            LLVMBuildBr(b, j);
            out[a] = x;
            count += 1;
        }
        LLVMPositionBuilderAtEnd(b, j);
        LLVMValueRef phi = LLVMBuildPhi(b, i32, "m");
        LLVMAddIncoming(phi, out, arms, 2);
        cur = phi;
        count += 3;
        d++;
    }
    LLVMValueRef iv1 = LLVMBuildAdd(b, iv, LLVMConstInt(i32, 1, 0), "i1");
    LLVMValueRef more = LLVMBuildICmp(b, LLVMIntULT, iv1, LLVMConstInt(i32, 4, 0), "more");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(b), done = LLVMAppendBasicBlockInContext(ctx, f, "done");
    LLVMBuildCondBr(b, more, head, done);
    LLVMValueRef zero = LLVMConstInt(i32, 0, 0);
    LLVMAddIncoming(iv, (LLVMValueRef[]){zero, iv1}, (LLVMBasicBlockRef[]){entry, latch}, 2);
    LLVMAddIncoming(acc, (LLVMValueRef[]){zero, cur}, (LLVMBasicBlockRef[]){entry, latch}, 2);
    LLVMPositionBuilderAtEnd(b, done);
    LLVMBuildStore(b, cur, base);
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    return m;
}

/* The "; exec: local L groups G mem W [status W] [lds W] [n N]" line. */
typedef struct geom {
    uint32_t local, groups, mem, status, lds, n;
} geom;

static int parse_geom(const char *path, geom *g)
{
    memset(g, 0, sizeof *g);
    FILE *f = fopen(path, "r");
    char line[512];
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f)) {
        const char *p = strstr(line, "; exec:");
        if (!p)
            continue;
        p += 7;
        char key[16];
        unsigned val;
        int used;
        while (sscanf(p, " %15[a-z] %u%n", key, &val, &used) == 2) {
            uint32_t *dst = !strcmp(key, "local")    ? &g->local
                            : !strcmp(key, "groups") ? &g->groups
                            : !strcmp(key, "mem")    ? &g->mem
                            : !strcmp(key, "status") ? &g->status
                            : !strcmp(key, "lds")    ? &g->lds
                            : !strcmp(key, "n")      ? &g->n
                                                     : NULL;
            if (dst)
                *dst = val;
            p += used;
        }
        found = g->local && g->groups && g->mem;
    }
    if (f)
        fclose(f);
    return found;
}

/* Pipeline build (best of 3) and dispatch (median of 20) times; 0 on failure. */
static int run_device(wl_rt *rt, const uint32_t *w, size_t nw, const geom *g, double *pipe_ms, double *disp_us)
{
    wl_rt_buffer *buf[3] = {NULL, NULL, NULL};
    uint32_t sizes[3] = {g->mem, g->status, g->lds};
    wl_rt_pipeline *p = NULL;
    int ok = 0;
    *pipe_ms = 1e30;
    for (int i = 0; i < 3; i++) {
        wl_rt_pipeline_desc pd = {w, nw, NULL, 0, 0, 0};
        if (p)
            wl_rt_pipeline_destroy(rt, p);
        p = NULL;
        if (wl_rt_pipeline_create(rt, &pd, &p) != WL_RT_OK)
            goto out;
        double ms = (double)wl_rt_pipeline_create_ns(p) * 1e-6;
        if (ms < *pipe_ms)
            *pipe_ms = ms;
    }
    for (int i = 0; i < 3; i++) {
        if (!sizes[i])
            continue;
        uint32_t *init = malloc(sizes[i] * 4ull);
        if (!init)
            goto out;
        for (uint32_t k = 0; k < sizes[i]; k++)
            init[k] = (k * 2654435761u >> 7) % 13;
        wl_rt_status s = wl_rt_buffer_create(rt, sizes[i] * 4ull, &buf[i]);
        if (s == WL_RT_OK)
            s = wl_rt_buffer_upload(rt, buf[i], 0, init, sizes[i] * 4ull);
        free(init);
        if (s != WL_RT_OK)
            goto out;
    }
    uint64_t addr = wl_rt_buffer_address(buf[0]);
    uint32_t push[4] = {(uint32_t)addr, (uint32_t)(addr >> 32), g->n, 0};
    wl_rt_dispatch_desc d;
    memset(&d, 0, sizeof d);
    d.groups[0] = g->groups;
    d.bindings[WL_RT_BINDING_STATUS] = buf[1];
    d.bindings[WL_RT_BINDING_LDS] = buf[2];
    d.push_constants = push;
    d.push_constant_size = sizeof push;
    d.runs = 20;
    wl_rt_timing t;
    if (wl_rt_dispatch(rt, p, &d, &t) != WL_RT_OK)
        goto out;
    *disp_us = t.runs ? (double)t.median_ns * 1e-3 : (double)t.host_ns * 1e-3 / d.runs;
    ok = 1;
out:
    if (!ok)
        fprintf(stderr, "runtime: %s\n", wl_rt_error(rt));
    for (int i = 0; i < 3; i++)
        if (buf[i])
            wl_rt_buffer_destroy(rt, buf[i]);
    if (p)
        wl_rt_pipeline_destroy(rt, p);
    return ok;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "tests/backend";
    size_t target = argc > 2 ? strtoull(argv[2], NULL, 10) : 120000;
    int fails = 0;
    char rterr[512];
    wl_rt *rt = NULL;
    if (wl_rt_create(NULL, &rt, rterr, sizeof rterr) != WL_RT_OK) {
        fprintf(stderr, "no Vulkan device (%s): no pipeline or dispatch times\n", rterr);
        rt = NULL;
    } else {
        printf("device: %s (%s), default subgroup size %u\n", wl_rt_profile(rt)->device_name,
               wl_rt_profile(rt)->driver_info, wl_rt_profile(rt)->subgroup_size);
    }
    /* the programs, sorted */
    char **names = NULL;
    size_t nnames = 0;
    DIR *dp = opendir(dir);
    if (dp) {
        for (struct dirent *de; (de = readdir(dp));) {
            size_t l = strlen(de->d_name);
            if (l < 4 || strcmp(de->d_name + l - 3, ".ll"))
                continue;
            char **nn = realloc(names, (nnames + 1) * sizeof *names);
            if (!nn)
                break;
            names = nn;
            names[nnames++] = strdup(de->d_name);
        }
        closedir(dp);
        qsort(names, nnames, sizeof *names, by_name);
    } else {
        fprintf(stderr, "%s: no such directory (the IR programs)\n", dir);
    }
    printf("%-22s %6s %6s %10s %9s %11s %11s %11s\n", "program", "insts", "words", "prepare us", "emit us",
           "validate us", "pipeline ms", "dispatch us");
    for (size_t i = 0; i < nnames; i++) {
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        LLVMContextRef ctx = LLVMContextCreate();
        LLVMModuleRef m = parse(ctx, path);
        result r = {0};
        geom g;
        if (m && measure(m, 20, &r)) {
            printf("%-22s %6zu %6zu %10.1f %9.1f %11.1f", names[i], r.insts, r.words, r.prepare * 1e6, r.emit * 1e6,
                   r.validate * 1e6);
            double pms = 0, dus = 0;
            if (rt && parse_geom(path, &g) && run_device(rt, r.spirv, r.words, &g, &pms, &dus))
                printf(" %11.2f %11.1f\n", pms, dus);
            else
                printf(" %11s %11s\n", "-", "-");
        } else {
            fails++;
        }
        free(r.spirv);
        if (m)
            LLVMDisposeModule(m);
        LLVMContextDispose(ctx);
        free(names[i]);
    }
    free(names);
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = generate(ctx, target);
    result r = {0};
    if (measure(m, 5, &r)) {
        printf("generated module: %zu LLVM instructions, %zu words\n", r.insts, r.words);
        printf("  prepare (LLVM passes) %.1f ms, emit %.1f ms, validate %.1f ms\n", r.prepare * 1e3, r.emit * 1e3,
               r.validate * 1e3);
        printf("  emission rate: %.2f M LLVM instructions/s\n", (double)r.insts / r.emit / 1e6);
    } else {
        fails++;
    }
    free(r.spirv);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    wl_rt_destroy(rt);
    return fails ? 1 : 0;
}
