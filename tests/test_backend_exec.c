/* The backend's modules run on lavapipe: every IR program of tests/backend/
 * with an "; exec:" line (control-flow shapes, memory kinds, atomics under
 * contention, subgroup operations, 64-bit integers and doubles, the
 * optimizer's intrinsics) is emitted, validated (SPIRV-Tools, Vulkan 1.3),
 * dispatched and its whole memory compared with the C model of
 * tests/backend/exec_models.h, as written and after LLVM's default<O2>, at
 * required subgroup sizes 4, 8 and 16 with full subgroups. lavapipe reads
 * LP_NATIVE_VECTOR_WIDTH once, so each size runs in a child process of this
 * program (--child S, at width 32 S).
 *
 *   test_backend_exec --child S            run every program at subgroup size S
 *   test_backend_exec --write-suite DIR S  write the programs for bench/wl_vkrun:
 *       DIR/suite.txt and per program NAME.spv, .in, .want, .mask
 *
 * Skipped when lavapipe is not installed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "backend/exec_models.h"
#include "support.h"
#include "wavelift/backend.h"
#include "wavelift/runtime.h"

#if defined(__SANITIZE_ADDRESS__)
#define WL_ASAN 1
#include <dlfcn.h>
#else
#define WL_ASAN 0
#endif

#define LVP_LIB "/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so"
#define NCASES (sizeof xcases / sizeof xcases[0])
#define MAX_SHOWN 20
#define NSEEDS 3 /* inputs per program, version and subgroup size */

static char *read_program(const char *name)
{
    char path[1024];
    size_t len;
    snprintf(path, sizeof path, "%s/tests/backend/%s", WL_SOURCE_DIR, name);
    return (char *)wlt_read_file(path, &len);
}

/* The "; exec: local L groups G mem W [status W] [lds W] [n N]" line. */
static int parse_geom(const char *ir, xgeom *g)
{
    memset(g, 0, sizeof *g);
    const char *p = strstr(ir, "; exec:");
    if (!p)
        return 0;
    p += 7;
    char key[16];
    unsigned val;
    int used;
    while (sscanf(p, " %15[a-z] %u%n", key, &val, &used) == 2) {
        if (!strcmp(key, "local"))
            g->local = val;
        else if (!strcmp(key, "groups"))
            g->groups = val;
        else if (!strcmp(key, "mem"))
            g->mem = val;
        else if (!strcmp(key, "status"))
            g->status = val;
        else if (!strcmp(key, "lds"))
            g->lds = val;
        else if (!strcmp(key, "n"))
            g->n = val;
        else
            return 0;
        p += used;
    }
    return g->local && g->groups && g->mem;
}

/* Emits the IR text (default<O2> first when asked), validated. */
static uint32_t *emit(const char *ir, const char *name, int o2, uint32_t local, size_t *nwords, wl_emit_info *info)
{
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), name);
    LLVMModuleRef m = NULL;
    char *msg = NULL;
    uint32_t *w = NULL;
    if (LLVMParseIRInContext(ctx, mb, &m, &msg)) {
        printf("%s: parse: %s\n", name, msg);
        LLVMDisposeMessage(msg);
        LLVMContextDispose(ctx);
        return NULL;
    }
    if (o2) {
        LLVMPassBuilderOptionsRef o = LLVMCreatePassBuilderOptions();
        LLVMErrorRef r = LLVMRunPasses(m, "default<O2>", NULL, o);
        LLVMDisposePassBuilderOptions(o);
        if (r) {
            char *e = LLVMGetErrorMessage(r);
            printf("%s: O2: %s\n", name, e);
            LLVMDisposeErrorMessage(e);
        }
    }
    wl_emit_options opt = {0};
    opt.local_size[0] = local;
    opt.validate = 1;
    char err[1024];
    if (wl_emit_spirv(m, &opt, &w, nwords, info, err, sizeof err) != WL_OK)
        printf("%s%s: emit: %s\n", name, o2 ? " (O2)" : "", err);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    return w;
}

static size_t state_words(const xgeom *g) { return (size_t)g->mem + g->status + g->lds; }

/* Runs the module on the state (in place). 1 on success. */
static int dispatch(wl_rt *rt, const uint32_t *w, size_t nw, const xgeom *g, uint32_t S, uint32_t *st)
{
    const wl_host_profile *hp = wl_rt_profile(rt);
    wl_rt_pipeline *p = NULL;
    wl_rt_buffer *buf[3] = {NULL, NULL, NULL};
    uint32_t sizes[3] = {g->mem, g->status, g->lds};
    wl_rt_pipeline_desc pd = {w, nw, NULL, 0, 0, 0};
    if (S && hp->subgroup_size_control && S >= hp->min_subgroup_size && S <= hp->max_subgroup_size)
        pd.subgroup_size = S;
    pd.require_full_subgroups = S && g->local % S == 0;
    int ok = 0;
    if (wl_rt_pipeline_create(rt, &pd, &p) != WL_RT_OK)
        goto out;
    size_t off = 0;
    for (int i = 0; i < 3; off += sizes[i], i++)
        if (sizes[i] && (wl_rt_buffer_create(rt, sizes[i] * 4ull, &buf[i]) != WL_RT_OK ||
                         wl_rt_buffer_upload(rt, buf[i], 0, st + off, sizes[i] * 4ull) != WL_RT_OK))
            goto out;
    uint64_t addr = wl_rt_buffer_address(buf[0]);
    uint32_t push[4] = {(uint32_t)addr, (uint32_t)(addr >> 32), g->n, 0};
    wl_rt_dispatch_desc d;
    memset(&d, 0, sizeof d);
    d.groups[0] = g->groups;
    d.bindings[WL_RT_BINDING_STATUS] = buf[1];
    d.bindings[WL_RT_BINDING_LDS] = buf[2];
    d.push_constants = push;
    d.push_constant_size = sizeof push;
    if (wl_rt_dispatch(rt, p, &d, NULL) != WL_RT_OK)
        goto out;
    off = 0;
    for (int i = 0; i < 3; off += sizes[i], i++)
        if (sizes[i] && wl_rt_buffer_download(rt, buf[i], 0, st + off, sizes[i] * 4ull) != WL_RT_OK)
            goto out;
    ok = 1;
out:
    if (!ok)
        printf("runtime: %s\n", wl_rt_error(rt));
    for (int i = 0; i < 3; i++)
        if (buf[i])
            wl_rt_buffer_destroy(rt, buf[i]);
    if (p)
        wl_rt_pipeline_destroy(rt, p);
    return ok;
}

static uint64_t case_seed(size_t c, uint32_t S, int k)
{
    return 0x9e3779b97f4a7c15ull ^ (c * 0x10001ull + S * 977ull + (uint64_t)k * 0x3b9aca07ull + 1);
}

/* Initial state, expectation and mask of case c at subgroup size S. */
static void prepare_state(size_t c, const xgeom *g, uint32_t S, int k, uint32_t *in, uint32_t *want, uint32_t *mask)
{
    size_t n = state_words(g);
    uint64_t seed = case_seed(c, S, k);
    memset(in, 0, n * 4);
    xcases[c].init(in, g, &seed);
    memcpy(want, in, n * 4);
    memset(mask, 0xff, n * 4);
    xcases[c].model(in, want, mask, g, S);
}

/* ---- child: every program at subgroup size S ---- */
static int child_main(uint32_t S)
{
    char err[1024];
    wl_rt *rt = NULL;
    wl_rt_status st = wl_rt_create(NULL, &rt, err, sizeof err);
    if (st != WL_RT_OK) {
        printf("child: %s: %s\n", wl_rt_status_name(st), err);
        return 1;
    }
    const wl_host_profile *hp = wl_rt_profile(rt);
    printf("device %s, default subgroup size %u, requiring %u\n", hp->device_name, hp->subgroup_size, S);
    int bad = 0, shown = 0;
    size_t programs = 0, runs = 0, good_runs = 0, words_checked = 0, words_good = 0;
    for (size_t c = 0; c < NCASES; c++) {
        char *ir = read_program(xcases[c].file);
        xgeom g;
        if (!ir || !parse_geom(ir, &g)) {
            printf("%s: unreadable or no exec line\n", xcases[c].file);
            bad++;
            free(ir);
            continue;
        }
        size_t n = state_words(&g);
        uint32_t *in = malloc(n * 4), *want = malloc(n * 4), *mask = malloc(n * 4), *got = malloc(n * 4);
        size_t checked = 0;
        printf("  %-22s", xcases[c].file);
        programs++;
        for (int o2 = 0; o2 < 2; o2++) {
            size_t nw = 0;
            wl_emit_info info;
            uint32_t *w = emit(ir, xcases[c].file, o2, g.local, &nw, &info);
            if (!w) {
                runs += NSEEDS;
                bad++;
                printf(" %s: EMIT FAILED", o2 ? "O2" : "as written");
                continue;
            }
            if ((info.features & WL_FEAT_INT64_ATOMICS) &&
                !(hp->shader_buffer_int64_atomics && hp->shader_shared_int64_atomics)) {
                printf(" %s: skipped (no 64-bit atomics)", o2 ? "O2" : "as written");
                free(w);
                continue;
            }
            size_t match = 0, good = 0;
            checked = 0;
            for (int k = 0; k < NSEEDS; k++) {
                prepare_state(c, &g, S, k, in, want, mask);
                memcpy(got, in, n * 4);
                size_t m = 0, chk = 0;
                for (size_t i = 0; i < n; i++)
                    chk += mask[i] != 0;
                if (dispatch(rt, w, nw, &g, S, got)) {
                    for (size_t i = 0; i < n; i++) {
                        if (!mask[i])
                            continue;
                        if (((got[i] ^ want[i]) & mask[i]) == 0)
                            m++;
                        else if (shown++ < MAX_SHOWN)
                            printf("\n    MISMATCH %s%s S=%u seed %d word %zu (%s %zu): got %#x want %#x",
                                   xcases[c].file, o2 ? " O2" : "", S, k, i,
                                   i < g.mem ? "mem" : i < g.mem + g.status ? "status" : "lds",
                                   i < g.mem ? i : i < g.mem + g.status ? i - g.mem : i - g.mem - g.status,
                                   got[i], want[i]);
                    }
                }
                runs++;
                good += m == chk;
                bad += m != chk;
                match += m;
                checked += chk;
            }
            good_runs += good;
            words_checked += checked;
            words_good += match;
            printf(" %s: %5zu words, %zu/%d runs, %6zu/%zu match;", o2 ? "O2" : "as written", nw, good, NSEEDS, match,
                   checked);
            free(w);
        }
        printf("\n");
        free(in), free(want), free(mask), free(got), free(ir);
    }
    printf("S=%u: %zu programs, %zu runs (as written and O2, %d inputs each), %zu runs match; %zu words checked, %zu match\n", S,
           programs, runs, NSEEDS, good_runs, words_checked, words_good);
    wl_rt_destroy(rt);
    return bad ? 1 : 0;
}

/* ---- --write-suite DIR S: the programs for bench/wl_vkrun ---- */
static int write_words(const char *dir, const char *name, const char *ext, const uint32_t *w, size_t n)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s%s", dir, name, ext);
    return wlt_write_file(path, w, n * 4);
}

static int write_suite(const char *dir, uint32_t S)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/suite.txt", dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return 1;
    }
    fprintf(f, "# name local groups mem status lds n subgroup_size (bench/wl_vkrun)\n");
    int bad = 0;
    for (size_t c = 0; c < NCASES; c++) {
        char *ir = read_program(xcases[c].file);
        xgeom g;
        if (!ir || !parse_geom(ir, &g)) {
            free(ir);
            bad++;
            continue;
        }
        size_t n = state_words(&g);
        uint32_t *in = malloc(n * 4), *want = malloc(n * 4), *mask = malloc(n * 4);
        prepare_state(c, &g, S, 0, in, want, mask);
        for (int o2 = 0; o2 < 2; o2++) {
            char name[256];
            snprintf(name, sizeof name, "%.*s%s", (int)(strlen(xcases[c].file) - 3), xcases[c].file, o2 ? ".O2" : "");
            size_t nw = 0;
            uint32_t *w = emit(ir, xcases[c].file, o2, g.local, &nw, NULL);
            if (!w || write_words(dir, name, ".spv", w, nw) || write_words(dir, name, ".in", in, n) ||
                write_words(dir, name, ".want", want, n) || write_words(dir, name, ".mask", mask, n)) {
                bad++;
            } else {
                fprintf(f, "%s %u %u %u %u %u %u %u\n", name, g.local, g.groups, g.mem, g.status, g.lds, g.n, S);
                printf("wrote %s (%zu words)\n", name, nw);
            }
            free(w);
        }
        free(in), free(want), free(mask), free(ir);
    }
    fclose(f);
    return bad ? 1 : 0;
}

/* ---- the tests: one child per subgroup size ---- */
static void at_size(int width)
{
    if (access(WLT_LVP_ICD, R_OK) != 0)
        skip();
    char args[32];
    snprintf(args, sizeof args, "--child %d", width / 32);
    assert_int_equal(wlt_run_self_at_width(width, args), 0);
}
static void subgroup_size_4(void **state) { (void)state; at_size(128); }
static void subgroup_size_8(void **state) { (void)state; at_size(256); }
static void subgroup_size_16(void **state) { (void)state; at_size(512); }

int main(int argc, char **argv)
{
    /* lavapipe unless the caller chose a driver. */
    wlt_use_lavapipe(0);
#if WL_ASAN
    /* as test_runtime: LeakSanitizer reads its options at start */
    if (!getenv("LSAN_OPTIONS")) {
        setenv("LSAN_OPTIONS", "suppressions=" WL_SOURCE_DIR "/tests/lsan.supp:print_suppressions=0", 1);
        execv("/proc/self/exe", argv);
        perror("execv");
        return 1;
    }
    dlopen(LVP_LIB, RTLD_NOW | RTLD_NODELETE);
#endif
    if (argc == 3 && !strcmp(argv[1], "--child"))
        return child_main((uint32_t)strtoul(argv[2], NULL, 10));
    if (argc == 4 && !strcmp(argv[1], "--write-suite"))
        return write_suite(argv[2], (uint32_t)strtoul(argv[3], NULL, 10));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(subgroup_size_4),
        cmocka_unit_test(subgroup_size_8),
        cmocka_unit_test(subgroup_size_16),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
