/* The lanes model (lower/, D973 with k = W / S) and the translate pipeline.
 *
 * Hand-written wave IR (the .ll files of tests/lower/) is lowered at subgroup sizes 4, 8
 * and 16 (lavapipe, each size in a child process with its own
 * LP_NATIVE_VECTOR_WIDTH), for waves of 64 and 32 (k = 16 .. 2), at -O0 and
 * -O2, emitted, validated, run, and every output word compared with values
 * computed here in C. Refusals name what they refuse. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

#include <llvm-c/Core.h>

#include "support.h"
#include "wavelift/codeobj.h"
#include "wavelift/runtime.h"
#include "wavelift/translate.h"


/* ---- helpers ---------------------------------------------------------------- */

static char *read_text(const char *name)
{
    char path[1024];
    size_t len;
    snprintf(path, sizeof path, "%s/tests/lower/%s", WL_SOURCE_DIR, name);
    uint8_t *t = wlt_read_file(path, &len);
    if (!t)
        return NULL;
    char *s = malloc(len + 1);
    memcpy(s, t, len);
    s[len] = 0;
    free(t);
    return s;
}

/* text with every @W@ replaced by w */
static char *with_wave(const char *src, unsigned w)
{
    size_t n = strlen(src);
    char *out = malloc(n + 64);
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        if (!strncmp(src + i, "@W@", 3)) {
            o += (size_t)sprintf(out + o, "%u", w);
            i += 3;
        } else {
            out[o++] = src[i++];
        }
    }
    out[o] = 0;
    return out;
}

/* calls in the lowered module to spv.subgroup.any (stage hook) */
static void count_anys(void *user, const char *stage, LLVMModuleRef m)
{
    if (strcmp(stage, "lowered"))
        return;
    unsigned *n = user;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        size_t len = 0;
        const char *name = LLVMGetValueName2(f, &len);
        if (len != 16 || memcmp(name, "spv.subgroup.any", 16))
            continue;
        for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u))
            (*n)++;
    }
}

/* Translates wave IR text; words malloc'ed or NULL with err. *anys (if
 * not NULL) gets the lowered module's calls to spv.subgroup.any. */
static uint32_t *translate_text(const char *ir, unsigned S, const uint32_t local[3], int o2, size_t *nw,
                                wl_translate_info *info, wl_status *st, char *err, size_t errcap, unsigned *anys)
{
    wl_translate_options o;
    wl_translate_options_init(&o);
    if (anys) {
        *anys = 0;
        o.stage_hook = count_anys;
        o.stage_user = anys;
    }
    o.subgroup_size = S;
    memcpy(o.local_size, local, sizeof o.local_size);
    o.opt_level = o2 ? 2 : 0;
    o.validate = 1;
    return wlt_translate_text(ir, &o, nw, info, st, err, errcap);
}

/* ---- mix.ll: the C model ---------------------------------------------------- */

#include "wlt_mix.h"

#define GROUPS MIX_GROUPS
#define LOCAL MIX_LOCAL
#define ITEMS MIX_ITEMS
#define OUT_BYTE MIX_OUT_BYTE
#define REGION_BYTE MIX_REGION_BYTE
#define BUF_BYTES MIX_BUF_BYTES


static int child_main(unsigned S)
{
    char err[2048];
    wl_rt *rt = NULL;
    if (wl_rt_create(&(wl_rt_options){.timeout_ms = 300000} /* lavapipe compiles at the first dispatch; a loaded machine is slow */, &rt, err, sizeof err) != WL_RT_OK) {
        printf("child: no device: %s\n", err);
        return 1;
    }
    const wl_host_profile *hp = wl_rt_profile(rt);
    printf("child: %s, default subgroup %u, range %u..%u\n", hp->device_name, hp->subgroup_size,
           hp->min_subgroup_size, hp->max_subgroup_size);
    char *src = read_text("mix.ll");
    if (!src)
        return 1;
    int failed = 0, runs = 0;
    static const unsigned waves[] = {64, 32};
    for (int wi = 0; wi < 2; wi++)
        for (int o2 = 0; o2 < 2; o2++) {
            unsigned W = waves[wi];
            char *ir = with_wave(src, W);
            uint32_t local[3] = {LOCAL, 1, 1};
            wl_translate_info info;
            wl_status st;
            size_t nw = 0;
            uint32_t *w = translate_text(ir, S, local, o2, &nw, &info, &st, err, sizeof err, NULL);
            free(ir);
            runs++;
            if (!w) {
                printf("mix W=%u S=%u O%d: translate failed (%d): %s\n", W, S, o2 ? 2 : 0, st, err);
                failed++;
                continue;
            }
            uint32_t status = 0;
            int bad = mix_run(rt, w, nw, S, W, NULL, &status);
            printf("mix W=%u S=%u k=%u O%d: %zu SPIR-V words, LLVM %zu -> %zu -> %zu, host group %u, "
                   "lower %.1f ms, opt %.1f ms, emit %.1f ms; %d items, %s (status %u)\n",
                   W, S, info.lanes_per_invocation, o2 ? 2 : 0, nw, info.llvm_lifted, info.llvm_lowered,
                   info.llvm_optimized, info.host_local_size[0], info.ms_lower, info.ms_opt, info.ms_emit, ITEMS,
                   bad == 0 ? "all words match" : "MISMATCH", status);
            if (bad != 0 || status != 0)
                failed++;
            free(w);
        }
    free(src);
    wl_rt_destroy(rt);
    printf("child S=%u: %d runs, %d match\n", S, runs, runs - failed);
    return failed ? 1 : 0;
}

/* ---- tests ------------------------------------------------------------------ */

static void lanes_run(void **state)
{
    (void)state;
    /* One child process per lavapipe subgroup size (4, 8, 16). */
    static const unsigned sizes[] = {4, 8, 16};
    assert_int_equal(wlt_run_children(sizes, sizeof sizes / sizeof sizes[0]), 0);
}

/* The lowering refuses by name what it cannot carry. */
static void refusals(void **state)
{
    (void)state;
    static const struct {
        const char *body, *decls, *want;
    } cases[] = {
        {"  %l = call i32 @wl.lane_id()\n  %c = icmp eq i32 %l, 0\n  br i1 %c, label %a, label %a\na:\n",
         "declare i32 @wl.lane_id()\n", "varying condition"},
        {"  %r = call i32 @wl.user_sgpr(i32 40)\n", "declare i32 @wl.user_sgpr(i32)\n", "user SGPR"},
    };
    int good = 0;
    size_t n = sizeof cases / sizeof cases[0];
    for (size_t i = 0; i < n; i++) {
        char ir[2048];
        snprintf(ir, sizeof ir, "define void @wl.wave() {\nentry:\n%s  ret void\n}\n%s!wl.program = !{!0}\n"
                 "!0 = !{i32 64, i32 0, i32 0, i32 2}\n", cases[i].body, cases[i].decls);
        uint32_t local[3] = {64, 1, 1};
        char err[1024] = "";
        wl_status st;
        size_t nw;
        uint32_t *w = translate_text(ir, 8, local, 0, &nw, NULL, &st, err, sizeof err, NULL);
        /* the first is the verifier's (rule 1), the others the lowering's */
        int ok = !w && st != WL_OK && (i == 0 || st == WL_ERR_UNSUPPORTED) && strstr(err, cases[i].want);
        printf("refusal %zu: %s (%s)\n", i, err, ok ? "ok" : "WRONG");
        good += ok;
        free(w);
    }
    /* a subgroup wider than the wave */
    char *src = read_text("mix.ll");
    assert_non_null(src);
    char *ir = with_wave(src, 32);
    uint32_t local[3] = {LOCAL, 1, 1};
    char err[1024] = "";
    wl_status st;
    size_t nw;
    uint32_t *w = translate_text(ir, 64, local, 0, &nw, NULL, &st, err, sizeof err, NULL);
    int ok = !w && st == WL_ERR_UNSUPPORTED && strstr(err, "subgroup size 64");
    printf("refusal S > W: %s (%s)\n", err, ok ? "ok" : "WRONG");
    good += ok;
    free(w);
    free(ir);
    free(src);
    printf("refusals: %zu cases, %d as expected\n", n + 1, good);
    assert_int_equal(good, (int)n + 1);
}

/* Every subgroup size the model allows translates and validates (k = 1 at
 * S = W included), without a device. */
static void all_sizes_validate(void **state)
{
    (void)state;
    char *src = read_text("mix.ll");
    assert_non_null(src);
    int total = 0, good = 0;
    for (unsigned W = 32; W <= 64; W *= 2) {
        char *ir = with_wave(src, W);
        for (unsigned S = 4; S <= W; S *= 2)
            for (int o2 = 0; o2 < 2; o2++) {
                uint32_t local[3] = {LOCAL, 1, 1};
                char err[2048] = "";
                wl_status st;
                size_t nw = 0;
                wl_translate_info info;
                unsigned anys = 0;
                uint32_t *w = translate_text(ir, S, local, o2, &nw, &info, &st, err, sizeof err, &anys);
                total++;
                /* mix.ll's ballot read only by tests against 0 (word 4's
                 * bits 16 and 17) is one subgroup any of the clones' or,
                 * not k ballots (lower/launch.c); lanes_run checks its value */
                if (w && info.lanes_per_invocation == W / S && info.host_local_size[0] == ((LOCAL + W - 1) / W) * S &&
                    anys == 1)
                    good++;
                else
                    printf("W=%u S=%u O%d: %s\n", W, S, o2 ? 2 : 0, w ? "wrong info or not one subgroup any" : err);
                printf("W=%u S=%u k=%u O%d: %zu words, %u subgroup any\n", W, S, W / S, o2 ? 2 : 0, nw, anys);
                free(w);
            }
        free(ir);
    }
    free(src);
    printf("translations: %d, %d valid\n", total, good);
    assert_int_equal(good, total);
}


/* Real programs: every kernel of the OpenCL corpus (clang-19, wave64 and
 * wave32) through wl_translate at S = 8, -O2, validated. A kernel the
 * lifter does not cover yet must be refused by name (WL_ERR_UNSUPPORTED
 * naming the instruction and its offset, or the lowering's reason); any
 * other failure (wave IR that does not verify, a lowered module the backend
 * refuses or SPIRV-Tools rejects) fails the test. */
static void corpus_translate(void **state)
{
    (void)state;
    DIR *d = opendir(WL_KERNEL_DIR);
    assert_non_null(d);
    struct dirent *e;
    int kernels = 0, ok = 0, refused = 0, failed = 0;
    size_t words = 0;
    double ms = 0;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 3, ".co"))
            continue;
        char path[1024], err[2048];
        snprintf(path, sizeof path, "%s/%s", WL_KERNEL_DIR, e->d_name);
        wl_codeobj *co = NULL;
        if (wl_codeobj_load(path, &co, err, sizeof err) != WL_OK) {
            printf("%s: %s\n", e->d_name, err);
            failed++;
            continue;
        }
        for (size_t i = 0; i < co->nkernels; i++) {
            const wl_kernel *k = &co->kernels[i];
            wl_lift_program prog;
            kernels++;
            wl_status st = wl_lift_program_from_kernel(co, k, &prog, err, sizeof err);
            uint32_t *w = NULL;
            size_t nw = 0;
            wl_translate_info info;
            memset(&info, 0, sizeof info);
            if (st == WL_OK) {
                wl_translate_options o;
                wl_translate_options_init(&o);
                o.subgroup_size = 8;
                o.local_size[0] = 64;
                o.local_size[1] = o.local_size[2] = 1;
                o.opt_level = 2;
                o.validate = 1;
                st = wl_translate(&prog, &o, &w, &nw, &info, err, sizeof err);
            }
            if (st == WL_OK) {
                ok++;
                words += nw;
                ms += info.ms_total;
                printf("%s %s: k=%u, %zu SPIR-V words, LLVM %zu -> %zu -> %zu, %.1f ms\n", e->d_name, k->name,
                       info.lanes_per_invocation, nw, info.llvm_lifted, info.llvm_lowered, info.llvm_optimized,
                       info.ms_total);
            } else if (st == WL_ERR_UNSUPPORTED && (strstr(err, " at offset") || strstr(err, "lanes model:"))) {
                refused++;
                printf("%s %s: refused: %s\n", e->d_name, k->name, err);
            } else {
                failed++;
                printf("%s %s: FAILED (%d): %s\n", e->d_name, k->name, st, err);
            }
            free(w);
        }
        wl_codeobj_free(co);
    }
    closedir(d);
    printf("corpus: %d kernels, %d translated (%zu SPIR-V words, %.0f ms), %d refused by name, %d failed\n", kernels,
           ok, words, ms, refused, failed);
    assert_true(kernels > 0);
    assert_int_equal(failed, 0);
}

/* ---- the LDS order barriers (lower/memory/lds_order.c) ---------------------- */

/* calls in the lowered module to spv.barrier.subgroup (stage hook) */
static void count_subgroup_barriers(void *user, const char *stage, LLVMModuleRef m)
{
    if (strcmp(stage, "lowered"))
        return;
    LLVMValueRef f = LLVMGetNamedFunction(m, "spv.barrier.subgroup");
    for (LLVMUseRef u = f ? LLVMGetFirstUse(f) : NULL; u; u = LLVMGetNextUse(u))
        (*(unsigned *)user)++;
}

/* Hand-written blocks of LDS accesses and the subgroup barriers each must
 * get, counted by hand from the rule (docs/lanes.md): one after the block's
 * last access where its epoch writes, or where it only loads and a store
 * or atomic that may touch its bytes can follow before a work-group
 * barrier; one before each access that may meet an earlier one of its
 * epoch where either writes; none before the guest's s_barrier (the
 * work-group barrier orders what came before it). %a is (t & 63) * 4: bytes [0, 255]. */
static void lds_order(void **state)
{
    (void)state;
    static const struct {
        const char *what, *body;
        unsigned barriers;
    } cases[] = {
        {"six stores to s[i][sg], 1 KiB apart (ACO's elected partials)",
         "  call void @wl.store.lds.b32(i32 %a, i32 %t, i1 %act)\n  %a1 = add i32 %a, 1024\n"
         "  call void @wl.store.lds.b32(i32 %a1, i32 %t, i1 %act)\n  %a2 = or disjoint i32 %a, 2048\n"
         "  call void @wl.store.lds.b32(i32 %a2, i32 %t, i1 %act)\n  %a3 = add i32 %a, 3072\n"
         "  call void @wl.store.lds.b32(i32 %a3, i32 %t, i1 %act)\n  %a4 = add i32 %a1, 3072\n"
         "  call void @wl.store.lds.b32(i32 %a4, i32 %t, i1 %act)\n  %a5 = add i32 %a, 5120\n"
         "  call void @wl.store.lds.b32(i32 %a5, i32 %t, i1 %act)\n",
         1},
        {"two stores 128 bytes apart (ranges overlap)",
         "  call void @wl.store.lds.b32(i32 %a, i32 %t, i1 %act)\n  %a1 = add i32 %a, 128\n"
         "  call void @wl.store.lds.b32(i32 %a1, i32 %t, i1 %act)\n",
         2},
        {"a store, then a load of other bytes",
         "  call void @wl.store.lds.b32(i32 %a, i32 %t, i1 %act)\n  %a1 = add i32 %a, 256\n"
         "  %x = call i32 @wl.load.lds.b32(i32 %a1, i1 %act)\n",
         1},
        {"load, store elsewhere, load of the stored bytes",
         "  %x = call i32 @wl.load.lds.b32(i32 %a, i1 %act)\n  %a1 = add i32 %a, 1024\n"
         "  call void @wl.store.lds.b32(i32 %a1, i32 %x, i1 %act)\n"
         "  %y = call i32 @wl.load.lds.b32(i32 %a1, i1 %act)\n",
         1},
        {"three loads (reads need no order)",
         "  %x = call i32 @wl.load.lds.b32(i32 %a, i1 %act)\n  %y = call i32 @wl.load.lds.b32(i32 %a, i1 %act)\n"
         "  %z = call i32 @wl.load.lds.b32(i32 %a, i1 %act)\n",
         0},
        {"a load, a store at the address it read (any byte), a load",
         "  %x = call i32 @wl.load.lds.b32(i32 %a, i1 %act)\n  call void @wl.store.lds.b32(i32 %x, i32 %t, i1 %act)\n"
         "  %y = call i32 @wl.load.lds.b32(i32 %a, i1 %act)\n",
         2},
        {"an address selected on the access's active bit (the other side anywhere)",
         "  %u = call i32 @wl.user_sgpr(i32 0)\n  %a1 = add i32 %a, 1024\n"
         "  %s = select i1 %act, i32 %a1, i32 %u\n  call void @wl.store.lds.b32(i32 %s, i32 %t, i1 %act)\n"
         "  call void @wl.store.lds.b32(i32 %a, i32 %t, i1 %act)\n",
         1},
        {"the same select on another bit",
         "  %u = call i32 @wl.user_sgpr(i32 0)\n  %a1 = add i32 %a, 1024\n  %odd = trunc i32 %t to i1\n"
         "  %s = select i1 %odd, i32 %a1, i32 %u\n  call void @wl.store.lds.b32(i32 %s, i32 %t, i1 %act)\n"
         "  call void @wl.store.lds.b32(i32 %a, i32 %t, i1 %act)\n",
         2},
        /* the work-group barrier orders the first store: none before it */
        {"disjoint stores around a workgroup barrier",
         "  call void @wl.store.lds.b32(i32 %a, i32 %t, i1 %act)\n  call void @wl.barrier()\n  %a1 = add i32 %a, 1024\n"
         "  call void @wl.store.lds.b32(i32 %a1, i32 %t, i1 %act)\n",
         1},
        {"a store and a load of its bytes around a workgroup barrier",
         "  call void @wl.store.lds.b32(i32 %a, i32 %t, i1 %act)\n  call void @wl.barrier()\n"
         "  %x = call i32 @wl.load.lds.b32(i32 %a, i1 %act)\n",
         0},
        {"disjoint stores around a shuffle (memory(none))",
         "  call void @wl.store.lds.b32(i32 %a, i32 %t, i1 %act)\n  %sh = call i32 @wl.shuffle.i32(i32 %t, i32 3)\n"
         "  %a1 = add i32 %a, 1024\n  call void @wl.store.lds.b32(i32 %a1, i32 %sh, i1 %act)\n",
         1},
        {"a half at bytes 0..3 and a byte at 4: one 8-byte unit",
         "  %h = and i32 %t, 1\n  %h2 = shl i32 %h, 1\n  call void @wl.store.lds.b16(i32 %h2, i32 %t, i1 %act)\n"
         "  call void @wl.store.lds.b8(i32 4, i32 %t, i1 %act)\n",
         2},
        {"an add that may wrap: any byte",
         "  %a1 = add i32 %t, 4294967040\n  call void @wl.store.lds.b32(i32 %a1, i32 %t, i1 %act)\n"
         "  %a2 = add i32 %a, 1024\n  call void @wl.store.lds.b32(i32 %a2, i32 %t, i1 %act)\n",
         2},
        {"an atomic and a load of other bytes, then a load of its own",
         "  %x = call i32 @wl.atomic.lds.add.b32(i32 %a, i32 1, i1 %act)\n  %a1 = add i32 %a, 1024\n"
         "  %y = call i32 @wl.load.lds.b32(i32 %a1, i1 %act)\n  %z = call i32 @wl.load.lds.b32(i32 %a, i1 %act)\n",
         1},
        /* loads whose block ends: a barrier only where a write may follow */
        {"a loop of loads, then a store of their bytes",
         "  br label %loop\nloop:\n  %i = phi i32 [0, %entry], [%i1, %loop]\n"
         "  %x = call i32 @wl.load.lds.b32(i32 %a, i1 %act)\n  %i1 = add i32 %i, 1\n  %c = icmp ult i32 %i1, 8\n"
         "  br i1 %c, label %loop, label %out\nout:\n  call void @wl.store.lds.b32(i32 %a, i32 %x, i1 %act)\n",
         2},
        {"a loop of loads, a work-group barrier, a store of their bytes",
         "  br label %loop\nloop:\n  %i = phi i32 [0, %entry], [%i1, %loop]\n"
         "  %x = call i32 @wl.load.lds.b32(i32 %a, i1 %act)\n  %i1 = add i32 %i, 1\n  %c = icmp ult i32 %i1, 8\n"
         "  br i1 %c, label %loop, label %out\nout:\n  call void @wl.barrier()\n"
         "  call void @wl.store.lds.b32(i32 %a, i32 %x, i1 %act)\n",
         1},
        {"a loop of loads, then a store of other bytes",
         "  br label %loop\nloop:\n  %i = phi i32 [0, %entry], [%i1, %loop]\n"
         "  %x = call i32 @wl.load.lds.b32(i32 %a, i1 %act)\n  %i1 = add i32 %i, 1\n  %c = icmp ult i32 %i1, 8\n"
         "  br i1 %c, label %loop, label %out\nout:\n  %a1 = add i32 %a, 1024\n"
         "  call void @wl.store.lds.b32(i32 %a1, i32 %x, i1 %act)\n",
         1},
        {"a load, then a store of its bytes on one side of a branch",
         "  %x = call i32 @wl.load.lds.b32(i32 %a, i1 %act)\n  %u = call i32 @wl.user_sgpr(i32 0)\n"
         "  %c = icmp eq i32 %u, 0\n  br i1 %c, label %st, label %out\nst:\n"
         "  call void @wl.store.lds.b32(i32 %a, i32 %x, i1 %act)\n  br label %out\nout:\n",
         2},
        {"a load, then a loop that stores its bytes behind a work-group barrier",
         "  %x = call i32 @wl.load.lds.b32(i32 %a, i1 %act)\n  br label %loop\nloop:\n"
         "  %i = phi i32 [0, %entry], [%i1, %loop]\n  call void @wl.barrier()\n"
         "  call void @wl.store.lds.b32(i32 %a, i32 %x, i1 %act)\n  %i1 = add i32 %i, 1\n  %c = icmp ult i32 %i1, 8\n"
         "  br i1 %c, label %loop, label %out\nout:\n",
         1},
    };
    int good = 0;
    const int n = (int)(sizeof cases / sizeof cases[0]);
    for (int i = 0; i < n; i++) {
        char ir[4096];
        snprintf(ir, sizeof ir,
                 "define void @wl.wave() {\nentry:\n  %%exec = call i64 @wl.launch_exec()\n"
                 "  %%act = call i1 @wl.lane_active(i64 %%exec)\n  %%t = call i32 @wl.thread_id(i32 0)\n"
                 "  %%m = and i32 %%t, 63\n  %%a = shl i32 %%m, 2\n%s  ret void\n}\n"
                 "declare i64 @wl.launch_exec()\ndeclare i1 @wl.lane_active(i64)\ndeclare i32 @wl.thread_id(i32)\n"
                 "declare i32 @wl.user_sgpr(i32)\ndeclare void @wl.barrier()\n"
                 "declare i32 @wl.shuffle.i32(i32, i32) memory(none)\n"
                 "declare void @wl.store.lds.b8(i32, i32, i1)\ndeclare void @wl.store.lds.b16(i32, i32, i1)\n"
                 "declare void @wl.store.lds.b32(i32, i32, i1)\ndeclare i32 @wl.load.lds.b32(i32, i1)\n"
                 "declare i32 @wl.atomic.lds.add.b32(i32, i32, i1)\n"
                 "!wl.program = !{!0}\n!0 = !{i32 64, i32 8192, i32 0, i32 2}\n",
                 cases[i].body);
        for (unsigned S = 16; S <= 32; S *= 2) {
            wl_translate_options o;
            wl_translate_options_init(&o);
            unsigned nb = 0;
            o.stage_hook = count_subgroup_barriers;
            o.stage_user = &nb;
            o.subgroup_size = S;
            o.local_size[0] = 64;
            o.local_size[1] = o.local_size[2] = 1;
            o.validate = 1;
            char err[1024] = "";
            wl_status st;
            size_t nw = 0;
            uint32_t *w = wlt_translate_text(ir, &o, &nw, NULL, &st, err, sizeof err);
            int ok = w && nb == cases[i].barriers;
            printf("%-72s S=%u: %u barriers (want %u)%s%s\n", cases[i].what, S, nb, cases[i].barriers,
                   ok ? "" : " WRONG ", w ? "" : err);
            good += ok;
            free(w);
        }
    }
    assert_int_equal(good, 2 * n);
}

int main(int argc, char **argv)
{
    wlt_use_lavapipe(0);
    if (argc == 3 && strcmp(argv[1], "--child") == 0)
        return child_main((unsigned)strtoul(argv[2], NULL, 10));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(refusals),
        cmocka_unit_test(all_sizes_validate),
        cmocka_unit_test(lanes_run),
        cmocka_unit_test(corpus_translate),
        cmocka_unit_test(lds_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
