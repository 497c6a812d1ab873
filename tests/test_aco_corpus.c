/* A corpus of third-party GLSL compute programs: piglit's compute tests
 * (Debian package piglit, extracted at install time by
 * scripts/install-piglit.sh, never committed), rewritten into Vulkan GLSL
 * by tests/aco/piglit_cs.py, compiled by Mesa's ACO through RADV's null
 * device (navi21, wave64 and wave32) at test time, lifted by wavelift and
 * run on lavapipe (docs/aco.md, "The piglit corpus").
 *
 * For each program and each wave size, in a child process per lavapipe
 * subgroup size S = 4, 8, 16: the lanes model at S (k = W / S), and in the
 * S = 8 child the wave model too. Every piglit "compute" line is one
 * dispatch of the same pipeline, with the uniform values the test sets
 * before it; after each dispatch:
 *   - piglit's probes (its expected values: texels within piglit's default
 *     probe tolerance 0.01 per channel, atomic counters exactly) are
 *     checked on the lifted run's output (and on the native run's: the
 *     oracle must hold on lavapipe itself);
 *   - the built-in function tests' "result" (stored by the adapter) is
 *     compared with piglit's uniform "expected" as the test's own verdict
 *     does: floats by distance() <= the uniform "tolerance" (piglit's
 *     generator sets it per function from the GLSL spec's precision), or
 *     exactly where the test compares with ==; integers and booleans
 *     exactly;
 *   - every output (texels, counters, storage buffers, results) is
 *     compared with the same Vulkan GLSL run natively on lavapipe at the
 *     same S: words exactly, except results of float type that the test
 *     compares within a tolerance: those within that tolerance per
 *     component (ACO's v_sin_f32, v_exp_f32... and lavapipe's libm-based
 *     code differ in the last bits, both inside the GLSL precision).
 *
 * A refusal (an instruction not lifted) passes only with its reason
 * listed in allowed_refusals; a wrong result, an escape or a failure fails.
 * WL_SUITE_QUICK=1 (the sanitizer build): every fourth program, S = 8 only.
 * Debugging: ACO_CORPUS_ONLY=NAME (one program), ACO_CORPUS_KNOWN=1 (run
 * the known configurations too), ACO_CORPUS_BUDGET=N (the loop budget of
 * every lifted dispatch, push constant WL_PUSH_LOOP_BUDGET_OFFSET).
 * The test prints the table: program, instructions, one column per
 * configuration. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <llvm-c/Core.h>

#include "support.h"
#include "wlt_aco_words.h"
#include "wavelift/lift.h"
#include "wavelift/runtime.h"
#include "wavelift/translate.h"

#ifndef WL_PIGLIT_DIR
#define WL_PIGLIT_DIR ""
#endif
#ifndef WL_ACO_DUMP
#define WL_ACO_DUMP ""
#endif

#define PIGLIT_SUB "/usr/lib/x86_64-linux-gnu/piglit/"
#define PIGLIT_COPYRIGHT "/usr/share/doc/piglit/copyright"

/* The programs, relative to piglit's directory (".shader_test" added). */
static const char *const corpus[] = {
    /* arb_compute_shader/execution: ids, atomics, shared memory, barriers */
    "tests/spec/arb_compute_shader/execution/atomic-counter",
    "tests/spec/arb_compute_shader/execution/basic-global-id",
    "tests/spec/arb_compute_shader/execution/basic-group-id",
    "tests/spec/arb_compute_shader/execution/basic-group-id-x",
    "tests/spec/arb_compute_shader/execution/basic-group-id-y",
    "tests/spec/arb_compute_shader/execution/basic-group-id-z",
    "tests/spec/arb_compute_shader/execution/basic-local-id-atomic",
    "tests/spec/arb_compute_shader/execution/basic-local-index",
    "tests/spec/arb_compute_shader/execution/basic-ssbo",
    "tests/spec/arb_compute_shader/execution/basic-uniform-access",
    "tests/spec/arb_compute_shader/execution/basic-uniform-access-atomic",
    "tests/spec/arb_compute_shader/execution/multiple-workgroups",
    "tests/spec/arb_compute_shader/execution/min-dvec4-double-large-group-size",
    "tests/spec/arb_compute_shader/execution/shared-atomicAdd-int",
    "tests/spec/arb_compute_shader/execution/shared-atomicCompSwap-int",
    "tests/spec/arb_compute_shader/execution/shared-atomicExchange-int",
    "tests/spec/arb_compute_shader/execution/shared-atomicMax-int",
    "tests/spec/arb_compute_shader/execution/shared-atomicMin-uint",
    "tests/spec/arb_compute_shader/execution/shared-atomics",
    "tests/spec/arb_compute_shader/execution/simple-barrier",
    "tests/spec/arb_compute_shader/execution/simple-barrier-atomics",
    /* arb_shader_group_vote */
    "tests/spec/arb_shader_group_vote/cs-all",
    "tests/spec/arb_shader_group_vote/cs-any",
    "tests/spec/arb_shader_group_vote/cs-eq",
    /* glsl-4.30 built-in functions and operators (generated) */
#define B430 "generated_tests/spec/glsl-4.30/execution/built-in-functions/cs-"
    B430 "sin-vec4",
    B430 "cos-vec3",
    B430 "tan-vec2",
    B430 "asin-vec4",
    B430 "atan-vec2-vec2",
    B430 "sinh-vec3",
    B430 "tanh-vec4",
    B430 "exp-vec4",
    B430 "exp2-vec3",
    B430 "log-vec4",
    B430 "log2-vec2",
    B430 "pow-vec4-vec4",
    B430 "sqrt-vec4",
    B430 "inversesqrt-vec3",
    B430 "fract-vec4",
    B430 "mod-vec4-vec4",
    B430 "roundEven-vec4",
    B430 "trunc-vec3",
    B430 "smoothstep-vec4-vec4-vec4",
    B430 "mix-vec4-vec4-bvec4",
    B430 "sign-ivec4",
    B430 "clamp-uvec4-uint-uint",
    B430 "max-ivec4-ivec4",
    B430 "op-div-ivec4-ivec4",
    B430 "op-div-uvec4-uint",
    B430 "op-mod-ivec4-int",
    B430 "op-rshift-ivec4-ivec4",
    B430 "op-complement-uvec4",
    B430 "op-mult-mat3x4-mat4x3",
    B430 "determinant-mat4",
    B430 "inverse-mat3",
    B430 "transpose-mat2x3",
    B430 "outerProduct-vec4-vec3",
    B430 "refract-vec3-vec3-float",
    B430 "faceforward-vec4-vec4-vec4",
    B430 "cross-vec3-vec3",
    B430 "all-bvec3",
    B430 "op-selection-bool-ivec4-ivec4",
    B430 "lessThanEqual-uvec4-uvec4",
    /* arb_gpu_shader_int64 (generated) */
#define B64 "generated_tests/spec/arb_gpu_shader_int64/execution/built-in-functions/cs-"
    B64 "abs-i64vec2",
    B64 "op-div-i64vec3-i64vec3",
    B64 "op-mod-u64vec2-uint64_t",
    B64 "op-mult-int64_t-i64vec4",
    B64 "op-rshift-int64_t-uint",
    B64 "clamp-i64vec4-int64_t-int64_t",
    B64 "sign-i64vec3",
    /* refused by the adapter, by name (allowed_adapter below) */
    "tests/spec/arb_compute_shader/execution/basic-texelFetch",
    "tests/spec/arb_compute_shader/execution/border-color",
    "tests/spec/arb_compute_shader/execution/multiple-texture-reading",
    "tests/spec/arb_compute_shader/execution/separate-global-id",
    "tests/spec/arb_compute_shader/execution/separate-global-id-2",
    "tests/spec/glsl-es-3.10/execution/cs-image-atomic-if-else",
    "tests/spec/glsl-es-3.10/execution/cs-image-load-if-else",
};
#define NCORPUS (sizeof corpus / sizeof corpus[0])

/* What the adapter may refuse, by program, and why. */
static const struct { const char *name, *reason; } allowed_adapter[] = {
    {"basic-texelFetch", "samplers (the harness creates no images: issue 18)"},
    {"border-color", "samplers (the harness creates no images: issue 18)"},
    {"multiple-texture-reading", "image loads (the harness creates no images: issue 18)"},
    {"separate-global-id", "2 compute shaders linked"},
    {"separate-global-id-2", "2 compute shaders linked"},
    {"cs-image-atomic-if-else", "image atomics (the harness creates no images: issue 18)"},
    {"cs-image-load-if-else", "image loads (the harness creates no images: issue 18)"},
};

/* What the translator may refuse (a substring of its message), and why. */
static const struct { const char *name, *what, *reason; } allowed_refusals[] = {
    {NULL, NULL, NULL},
};

/* Configurations not run, each with its reason (reported in the table as
 * "known"; the wave model's speed is issue 15 item 2, another branch). */
static const struct { const char *name, *config, *reason; } known[] = {
    {"cs-op-mod-u64vec2-uint64_t", "w64.wave",
     "lavapipe's LLVM 15 compiling the wave model of ACO's 64-bit urem loops (1191 instructions, 18 lanes) "
     "did not finish in 5 minutes: its stack sampled with gdb at 100 s is deep in ScalarEvolution::isKnownPredicate "
     "/ isLoopBackedgeGuardedByCond recursion, before the first dispatch runs; with GALLIVM_PERF=no_opt "
     "still compiling after 13 minutes (2026-12-02)"},
    {"cs-op-mod-u64vec2-uint64_t", "w32.wave", "as w64.wave"},
};

static const char *known_reason(const char *name, const char *config)
{
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(known[i].name, name) == 0 && strcmp(known[i].config, config) == 0)
            return known[i].reason;
    return NULL;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* ---- the plan (piglit_cs.py) ------------------------------------------------ */

enum { B_UNIFORMS, B_IMAGE, B_RAW, B_COUNTERS, B_SSBO };
#define MAX_B 6
#define MAX_DISPATCH 64
#define MAX_PROBES 64

typedef struct probe {
    int kind; /* 0 image texel (x < 0: all), 1 counter */
    int x, y;
    float rgba[4];
    uint32_t counter, value;
} probe;

typedef struct dispatch {
    uint32_t groups[3];
    uint32_t *uniforms;
    probe probes[MAX_PROBES];
    int nprobes;
} dispatch;

typedef struct plan {
    uint32_t local[3];
    int nb;
    int kind[MAX_B];
    uint32_t bytes[MAX_B];
    uint32_t img_w, img_h;
    char raw_kind[8];
    uint32_t raw_stride;
    int exp_off, tol_off;
    int raw_offs[64], nraw_offs;
    struct { int b; uint32_t off, word; } *init;
    int ninit;
    dispatch d[MAX_DISPATCH];
    int nd;
} plan;

static void plan_free(plan *p)
{
    for (int i = 0; i < p->nd; i++)
        free(p->d[i].uniforms);
    free(p->init);
}

static int read_plan(const char *path, plan *p, char *msg, size_t cap)
{
    memset(p, 0, sizeof *p);
    p->exp_off = p->tol_off = -1;
    size_t n;
    char *text = (char *)wlt_read_file(path, &n);
    if (!text) {
        snprintf(msg, cap, "cannot read %s", path);
        return -1;
    }
    int b_uni = -1;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        int b;
        uint32_t v;
        char kind[16];
        if (sscanf(line, "local %u %u %u", &p->local[0], &p->local[1], &p->local[2]) == 3)
            continue;
        if (sscanf(line, "binding %d %15s %u", &b, kind, &v) == 3 && b >= 0 && b < MAX_B) {
            p->nb = b + 1 > p->nb ? b + 1 : p->nb;
            p->bytes[b] = v;
            if (strcmp(kind, "uniforms") == 0) {
                p->kind[b] = B_UNIFORMS;
                b_uni = b;
            } else if (strcmp(kind, "image") == 0) {
                p->kind[b] = B_IMAGE;
                sscanf(line, "binding %*d image %u %u", &p->img_w, &p->img_h);
                p->bytes[b] = p->img_w * p->img_h * 16;
            } else if (strcmp(kind, "raw") == 0) {
                p->kind[b] = B_RAW;
                char offs[512] = "";
                if (sscanf(line, "binding %*d raw %*u %7s %u %d %d %511s", p->raw_kind, &p->raw_stride, &p->exp_off,
                           &p->tol_off, offs) != 5)
                    goto bad;
                for (char *q = offs; *q && p->nraw_offs < 64;) {
                    p->raw_offs[p->nraw_offs++] = (int)strtol(q, &q, 10);
                    if (*q == ',')
                        q++;
                }
            } else if (strcmp(kind, "counters") == 0)
                p->kind[b] = B_COUNTERS;
            else if (strcmp(kind, "ssbo") == 0)
                p->kind[b] = B_SSBO;
            else
                goto bad;
            continue;
        }
        uint32_t off, word;
        if (sscanf(line, "init %d %u 0x%x", &b, &off, &word) == 3) {
            void *q = realloc(p->init, (size_t)(p->ninit + 1) * sizeof *p->init);
            if (!q)
                goto bad;
            p->init = q;
            p->init[p->ninit].b = b;
            p->init[p->ninit].off = off;
            p->init[p->ninit++].word = word;
            continue;
        }
        uint32_t g[3];
        if (sscanf(line, "dispatch %u %u %u", &g[0], &g[1], &g[2]) == 3) {
            if (p->nd == MAX_DISPATCH)
                goto bad;
            dispatch *d = &p->d[p->nd++];
            memcpy(d->groups, g, sizeof g);
            continue;
        }
        if (line[0] == 'u' && line[1] == ' ' && p->nd > 0 && b_uni >= 0) {
            dispatch *d = &p->d[p->nd - 1];
            uint32_t nw = p->bytes[b_uni] / 4;
            d->uniforms = calloc(nw, 4);
            char *q = line + 2;
            for (uint32_t i = 0; i < nw; i++)
                d->uniforms[i] = (uint32_t)strtoul(q, &q, 16);
            continue;
        }
        if (p->nd > 0 && strncmp(line, "probe ", 6) == 0) {
            dispatch *d = &p->d[p->nd - 1];
            if (d->nprobes == MAX_PROBES)
                goto bad;
            probe *pr = &d->probes[d->nprobes];
            if (sscanf(line, "probe image %d %d %f %f %f %f", &pr->x, &pr->y, &pr->rgba[0], &pr->rgba[1],
                       &pr->rgba[2], &pr->rgba[3]) == 6)
                pr->kind = 0;
            else if (sscanf(line, "probe counter %u %u", &pr->counter, &pr->value) == 2)
                pr->kind = 1;
            else
                goto bad;
            d->nprobes++;
            continue;
        }
        goto bad;
    bad:
        snprintf(msg, cap, "%s: bad line: %.80s", path, line);
        free(text);
        return -1;
    }
    free(text);
    return 0;
}

/* ---- one run: the outputs after each dispatch ------------------------------- */

typedef struct outputs {
    uint32_t *words[MAX_DISPATCH][MAX_B]; /* NULL for the uniforms */
} outputs;

static void outputs_free(outputs *o, const plan *p)
{
    for (int i = 0; i < p->nd; i++)
        for (int b = 0; b < p->nb; b++)
            free(o->words[i][b]);
}

static void initial_contents(const plan *p, int b, uint32_t *w)
{
    memset(w, 0, p->bytes[b]);
    if (p->kind[b] == B_IMAGE) {
        float m1 = -1.0f;
        for (uint32_t i = 0; i < p->bytes[b] / 4; i++)
            memcpy(&w[i], &m1, 4);
    }
    for (int i = 0; i < p->ninit; i++)
        if (p->init[i].b == b && p->init[i].off + 4 <= p->bytes[b])
            w[p->init[i].off / 4] = p->init[i].word;
}

#define GUEST_BASE 0x800000000000ull
#define WIN_SET 0x1000u
#define WIN_DATA 0x2000u
#define VSHARP_W3 0x31016FACu

/* The lifted program: one guest window (a guard page, set 0's V#s, the
 * buffers), reached through the runtime's guest mapping. */
static int run_lifted(wl_rt *rt, const plan *p, const wlt_aco_words *wf, const uint32_t *spv, size_t nw,
                      const wl_translate_info *info, unsigned S, int model, outputs *out, char *msg, size_t cap)
{
    uint64_t off[MAX_B], o = WIN_DATA;
    for (int b = 0; b < p->nb; b++) {
        off[b] = o;
        o = (o + p->bytes[b] + 255) & ~255ull;
    }
    uint64_t win_bytes = o + 4096;
    wl_rt_buffer *win = NULL, *status = NULL, *seg = NULL;
    wl_rt_pipeline *pipe = NULL;
    int rc = -1;
    if (wl_rt_buffer_create(rt, win_bytes, &win) || wl_rt_buffer_create(rt, 256, &status)) {
        snprintf(msg, cap, "buffers: %s", wl_rt_error(rt));
        goto done;
    }
    uint32_t set[4 * MAX_B];
    for (int b = 0; b < p->nb; b++) {
        uint64_t a = GUEST_BASE + off[b];
        set[4 * b] = (uint32_t)a;
        set[4 * b + 1] = (uint32_t)(a >> 32) & 0xffff;
        set[4 * b + 2] = (p->bytes[b] + 3) & ~3u;
        set[4 * b + 3] = VSHARP_W3;
        uint32_t *init = malloc(p->bytes[b] + 4);
        if (!init)
            goto done;
        initial_contents(p, b, init);
        int bad = p->bytes[b] && wl_rt_buffer_upload(rt, win, off[b], init, p->bytes[b]);
        free(init);
        if (bad) {
            snprintf(msg, cap, "upload: %s", wl_rt_error(rt));
            goto done;
        }
    }
    if (wl_rt_buffer_upload(rt, win, WIN_SET, set, 16u * (unsigned)p->nb)) {
        snprintf(msg, cap, "upload: %s", wl_rt_error(rt));
        goto done;
    }
    wl_rt_pipeline_desc pd = {.words = spv, .nwords = nw, .subgroup_size = model == WL_MODEL_WAVE ? 0 : S,
                              .require_full_subgroups = model != WL_MODEL_WAVE};
    if (wl_rt_pipeline_create(rt, &pd, &pipe)) {
        snprintf(msg, cap, "pipeline: %s", wl_rt_error(rt));
        goto done;
    }
    uint64_t host = wl_rt_buffer_address(win);
    for (int i = 0; i < p->nd; i++) {
        const dispatch *d = &p->d[i];
        uint32_t push[WL_PUSH_BYTES / 4] = {0};
        push[2] = (uint32_t)(GUEST_BASE + WIN_SET); /* s2: set 0, its high half from the code */
        if (getenv("ACO_CORPUS_BUDGET")) /* debugging: the loop budget of each dispatch */
            push[WL_PUSH_LOOP_BUDGET_OFFSET / 4] = (uint32_t)strtoul(getenv("ACO_CORPUS_BUDGET"), NULL, 0);
        if (wf->numwg)
            for (int k = 0; k < 3; k++)
                push[3 + k] = d->groups[k];
        wl_rt_mapping map = {GUEST_BASE + WIN_SET, win_bytes - WIN_SET, host + WIN_SET};
        if (wl_rt_mapping_encode(&map, push + WL_PUSH_MAP_OFFSET / 4) != WL_RT_OK) {
            snprintf(msg, cap, "the mapping cannot be encoded");
            goto done;
        }
        for (int b = 0; b < p->nb; b++)
            if (p->kind[b] == B_UNIFORMS && d->uniforms &&
                wl_rt_buffer_upload(rt, win, off[b], d->uniforms, p->bytes[b])) {
                snprintf(msg, cap, "upload: %s", wl_rt_error(rt));
                goto done;
            }
        if (seg)
            wl_rt_buffer_destroy(rt, seg);
        if (wlt_segment(rt, info, (uint64_t)d->groups[0] * d->groups[1] * d->groups[2], push, &seg)) {
            snprintf(msg, cap, "device segment: %s", wl_rt_error(rt));
            goto done;
        }
        wl_rt_dispatch_desc dd = {.groups = {d->groups[0], d->groups[1], d->groups[2]}, .push_constants = push,
                                  .push_constant_size = WL_PUSH_BYTES, .runs = 1};
        dd.bindings[WL_RT_BINDING_STATUS] = status;
        if (wl_rt_dispatch(rt, pipe, &dd, NULL)) {
            snprintf(msg, cap, "dispatch %d: %s", i, wl_rt_error(rt));
            goto done;
        }
        uint32_t sw[4];
        if (wl_rt_buffer_download(rt, status, 0, sw, sizeof sw)) {
            snprintf(msg, cap, "download: %s", wl_rt_error(rt));
            goto done;
        }
        if (sw[0]) {
            snprintf(msg, cap, "dispatch %d: escape kind %u at guest offset 0x%x, lane %u, group %u", i, sw[0],
                     sw[1], sw[2], sw[3]);
            goto done;
        }
        for (int b = 0; b < p->nb; b++) {
            if (p->kind[b] == B_UNIFORMS)
                continue;
            out->words[i][b] = malloc(p->bytes[b] + 4);
            if (!out->words[i][b] || wl_rt_buffer_download(rt, win, off[b], out->words[i][b], p->bytes[b])) {
                snprintf(msg, cap, "download: %s", wl_rt_error(rt));
                goto done;
            }
        }
    }
    uint8_t guard[WIN_SET];
    if (wl_rt_buffer_download(rt, win, 0, guard, sizeof guard)) {
        snprintf(msg, cap, "download: %s", wl_rt_error(rt));
        goto done;
    }
    for (size_t i = 0; i < sizeof guard; i++)
        if (guard[i]) {
            snprintf(msg, cap, "the guard page was written");
            goto done;
        }
    rc = 0;
done:
    if (pipe)
        wl_rt_pipeline_destroy(rt, pipe);
    if (win)
        wl_rt_buffer_destroy(rt, win);
    if (status)
        wl_rt_buffer_destroy(rt, status);
    if (seg)
        wl_rt_buffer_destroy(rt, seg);
    return rc;
}

/* The same Vulkan GLSL (its SPIR-V from regen.sh) run natively at S. */
static int run_native(wl_rt *rt, const plan *p, const char *spv_path, unsigned S, outputs *out, char *msg,
                      size_t cap)
{
    uint32_t *w = NULL;
    size_t nw = 0;
    if (wl_rt_spirv_read_file(spv_path, &w, &nw, msg, cap))
        return -1;
    wl_rt_buffer *buf[MAX_B] = {0};
    wl_rt_pipeline *pipe = NULL;
    int rc = -1;
    /* A required size allows at most 32 subgroups a group on lavapipe:
     * larger groups (none of them uses subgroup operations) run at the
     * driver's size, which is S too (LP_NATIVE_VECTOR_WIDTH). */
    uint32_t inv = p->local[0] * p->local[1] * p->local[2];
    int full = p->local[0] % S == 0 && inv <= 32 * S;
    wl_rt_pipeline_desc pd = {.words = w, .nwords = nw, .subgroup_size = inv <= 32 * S ? S : 0,
                              .require_full_subgroups = full};
    if (wl_rt_pipeline_create(rt, &pd, &pipe)) {
        snprintf(msg, cap, "native pipeline: %s", wl_rt_error(rt));
        goto done;
    }
    for (int b = 0; b < p->nb; b++) {
        uint32_t *init = malloc(p->bytes[b] + 4);
        if (!init || wl_rt_buffer_create(rt, p->bytes[b] + 16, &buf[b])) {
            free(init);
            snprintf(msg, cap, "native buffers: %s", wl_rt_error(rt));
            goto done;
        }
        initial_contents(p, b, init);
        int bad = wl_rt_buffer_upload(rt, buf[b], 0, init, p->bytes[b]);
        free(init);
        if (bad) {
            snprintf(msg, cap, "native upload: %s", wl_rt_error(rt));
            goto done;
        }
    }
    for (int i = 0; i < p->nd; i++) {
        const dispatch *d = &p->d[i];
        wl_rt_dispatch_desc dd = {.groups = {d->groups[0], d->groups[1], d->groups[2]}, .runs = 1};
        for (int b = 0; b < p->nb; b++) {
            dd.bindings[b] = buf[b];
            if (p->kind[b] == B_UNIFORMS && d->uniforms && wl_rt_buffer_upload(rt, buf[b], 0, d->uniforms, p->bytes[b])) {
                snprintf(msg, cap, "native upload: %s", wl_rt_error(rt));
                goto done;
            }
        }
        if (wl_rt_dispatch(rt, pipe, &dd, NULL)) {
            snprintf(msg, cap, "native dispatch %d: %s", i, wl_rt_error(rt));
            goto done;
        }
        for (int b = 0; b < p->nb; b++) {
            if (p->kind[b] == B_UNIFORMS)
                continue;
            out->words[i][b] = malloc(p->bytes[b] + 4);
            if (!out->words[i][b] || wl_rt_buffer_download(rt, buf[b], 0, out->words[i][b], p->bytes[b])) {
                snprintf(msg, cap, "native download: %s", wl_rt_error(rt));
                goto done;
            }
        }
    }
    rc = 0;
done:
    if (pipe)
        wl_rt_pipeline_destroy(rt, pipe);
    for (int b = 0; b < p->nb; b++)
        if (buf[b])
            wl_rt_buffer_destroy(rt, buf[b]);
    free(w);
    return rc;
}

/* ---- the checks --------------------------------------------------------------- */

static double comp_value(const char *kind, const uint8_t *at)
{
    if (strcmp(kind, "f32") == 0) {
        float f;
        memcpy(&f, at, 4);
        return f;
    }
    double d;
    memcpy(&d, at, 8);
    return d;
}

static int is_float(const char *kind) { return strcmp(kind, "f32") == 0 || strcmp(kind, "f64") == 0; }
static size_t comp_size(const char *kind) { return kind[1] == '6' ? 8 : 4; }

/* piglit's probes on one run's outputs after dispatch i; 0 when all hold. */
static int check_probes(const plan *p, const outputs *o, int i, char *msg, size_t cap)
{
    const dispatch *d = &p->d[i];
    for (int q = 0; q < d->nprobes; q++) {
        const probe *pr = &d->probes[q];
        for (int b = 0; b < p->nb; b++) {
            const uint32_t *w = o->words[i][b];
            if (pr->kind == 0 && p->kind[b] == B_IMAGE) {
                for (uint32_t y = 0; y < p->img_h; y++)
                    for (uint32_t x = 0; x < p->img_w; x++) {
                        if (pr->x >= 0 && (x != (uint32_t)pr->x || y != (uint32_t)pr->y))
                            continue;
                        float t[4];
                        memcpy(t, &w[4 * (y * p->img_w + x)], 16);
                        for (int c = 0; c < 4; c++)
                            if (!isnan(pr->rgba[c]) && !(fabsf(t[c] - pr->rgba[c]) <= 0.01f)) {
                                snprintf(msg, cap, "dispatch %d: texel (%u, %u) is (%g %g %g %g), piglit expects (%g %g %g %g)",
                                         i, x, y, t[0], t[1], t[2], t[3], pr->rgba[0], pr->rgba[1], pr->rgba[2],
                                         pr->rgba[3]);
                                return -1;
                            }
                    }
            }
            if (pr->kind == 1 && p->kind[b] == B_COUNTERS && w[pr->counter] != pr->value) {
                snprintf(msg, cap, "dispatch %d: atomic counter %u is %u, piglit expects %u", i, pr->counter,
                         w[pr->counter], pr->value);
                return -1;
            }
        }
    }
    return 0;
}

/* The results against piglit's "expected" after dispatch i. */
static int check_piglit_expected(const plan *p, const outputs *o, int i, char *msg, size_t cap)
{
    if (p->exp_off < 0 || !p->d[i].uniforms)
        return 0;
    const uint8_t *u = (const uint8_t *)p->d[i].uniforms;
    float tol = 0;
    if (p->tol_off >= 0)
        memcpy(&tol, u + p->tol_off, 4);
    uint32_t n = p->local[0] * p->local[1] * p->local[2];
    for (int b = 0; b < p->nb; b++) {
        if (p->kind[b] != B_RAW)
            continue;
        for (uint32_t e = 0; e < n; e++) {
            const uint8_t *r = (const uint8_t *)o->words[i][b] + (size_t)e * p->raw_stride;
            double sq = 0;
            int exact = 1;
            for (int c = 0; c < p->nraw_offs; c++) {
                const uint8_t *x = r + p->raw_offs[c], *y = u + p->exp_off + p->raw_offs[c];
                if (is_float(p->raw_kind)) {
                    double dx = comp_value(p->raw_kind, x) - comp_value(p->raw_kind, y);
                    sq += dx * dx;
                    exact &= comp_value(p->raw_kind, x) == comp_value(p->raw_kind, y);
                } else if (strcmp(p->raw_kind, "b32") == 0) {
                    uint32_t a, bb;
                    memcpy(&a, x, 4);
                    memcpy(&bb, y, 4);
                    exact &= (a != 0) == (bb != 0);
                } else
                    exact &= memcmp(x, y, comp_size(p->raw_kind)) == 0;
            }
            int ok = p->tol_off >= 0 && is_float(p->raw_kind) ? sqrt(sq) <= tol : exact;
            if (!ok) {
                snprintf(msg, cap, "dispatch %d, invocation %u: the result differs from piglit's expected value%s",
                         i, e, p->tol_off >= 0 ? " beyond its tolerance" : "");
                return -1;
            }
        }
    }
    return 0;
}

/* The lifted outputs against the native run's after dispatch i. */
static int check_native(const plan *p, const outputs *lifted, const outputs *native, int i, char *msg, size_t cap)
{
    float tol = 0;
    if (p->tol_off >= 0 && p->d[i].uniforms)
        memcpy(&tol, (const uint8_t *)p->d[i].uniforms + p->tol_off, 4);
    for (int b = 0; b < p->nb; b++) {
        if (p->kind[b] == B_UNIFORMS)
            continue;
        const uint32_t *a = lifted->words[i][b], *n = native->words[i][b];
        if (p->kind[b] == B_RAW && p->tol_off >= 0 && is_float(p->raw_kind)) {
            uint32_t ne = p->local[0] * p->local[1] * p->local[2];
            for (uint32_t e = 0; e < ne; e++)
                for (int c = 0; c < p->nraw_offs; c++) {
                    size_t at = (size_t)e * p->raw_stride + (size_t)p->raw_offs[c];
                    double x = comp_value(p->raw_kind, (const uint8_t *)a + at);
                    double y = comp_value(p->raw_kind, (const uint8_t *)n + at);
                    if (!(fabs(x - y) <= tol) && !(x == y)) {
                        snprintf(msg, cap, "dispatch %d: result %u component %d is %.9g, native %.9g (tolerance %g)",
                                 i, e, c, x, y, tol);
                        return -1;
                    }
                }
            continue;
        }
        for (uint32_t w = 0; w < p->bytes[b] / 4; w++)
            if (a[w] != n[w]) {
                snprintf(msg, cap, "dispatch %d: binding %d word %u is 0x%08x, native 0x%08x", i, b, w, a[w], n[w]);
                return -1;
            }
    }
    return 0;
}

/* ---- the child: one lavapipe subgroup size ------------------------------------- */

static const char *allowed_refusal(const char *name, const char *err)
{
    for (size_t i = 0; i < sizeof allowed_refusals / sizeof allowed_refusals[0]; i++)
        if (allowed_refusals[i].what && strcmp(allowed_refusals[i].name, name) == 0 &&
            strstr(err, allowed_refusals[i].what))
            return allowed_refusals[i].reason;
    return NULL;
}

static uint32_t *translate(const wlt_aco_words *wf, unsigned W, unsigned S, int model, size_t *nw,
                           wl_translate_info *info, wl_status *st, char *msg, size_t cap)
{
    wl_lift_program lp;
    wlt_aco_fill(&lp, wf, W, wf->tg, wf->wgid, wf->numwg ? 6 : 3);
    lp.vgpr_workitem_ids = wf->vgpr_ids ? wf->vgpr_ids : 3;
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = NULL;
    uint32_t *words = NULL;
    *st = wl_lift(ctx, &lp, &m, msg, cap);
    if (*st == WL_OK) {
        wl_translate_options o = {.struct_size = sizeof(wl_translate_options), .subgroup_size = S, .local_size = {wf->local[0], wf->local[1], wf->local[2]},
                                  .opt_level = 2, .validate = 1, .model = model};
        *st = wl_translate_module(m, &o, &words, nw, info, msg, cap);
    }
    LLVMContextDispose(ctx);
    return *st == WL_OK ? words : NULL;
}

static int quick(void) { return getenv("WL_SUITE_QUICK") && atoi(getenv("WL_SUITE_QUICK")) > 0; }

/* Prints "@ NAME CONFIG RESULT [detail]" lines for the parent's table. */
static int child_main(unsigned S, const char *dir)
{
    char err[2048];
    wl_rt *rt = NULL;
    if (wl_rt_create(&(wl_rt_options){.timeout_ms = 300000}, &rt, err, sizeof err) != WL_RT_OK) {
        printf("child: no device: %s\n", err);
        return 1;
    }
    const char *only = getenv("ACO_CORPUS_ONLY"); /* debugging: one program */
    int failed = 0;
    for (size_t ci = 0; ci < NCORPUS; ci++) {
        if (quick() && ci % 4 != 0)
            continue;
        const char *name = base_name(corpus[ci]);
        if (only && strcmp(only, name) != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s.plan", dir, name);
        if (access(path, R_OK) != 0)
            continue; /* refused by the adapter: the parent reports it */
        plan p;
        if (read_plan(path, &p, err, sizeof err)) {
            printf("@ %s native FAILED %s\n", name, err);
            failed++;
            continue;
        }
        outputs nat;
        memset(&nat, 0, sizeof nat);
        snprintf(path, sizeof path, "%s/%s.spv", dir, name);
        int nat_ok = run_native(rt, &p, path, S, &nat, err, sizeof err) == 0;
        for (int i = 0; nat_ok && i < p.nd; i++)
            if (check_probes(&p, &nat, i, err, sizeof err) || check_piglit_expected(&p, &nat, i, err, sizeof err))
                nat_ok = 0;
        if (!nat_ok) {
            printf("@ %s native%u FAILED %s\n", name, S, err);
            failed++;
        }
        for (unsigned W = 64; nat_ok && W >= 32; W /= 2) {
            snprintf(path, sizeof path, "%s/%s.w%u.words", dir, name, W);
            wlt_aco_words wf;
            if (access(path, R_OK) != 0 || wlt_aco_read_words(path, &wf)) {
                printf("@ %s w%u FAILED no words\n", name, W);
                failed++;
                continue;
            }
            unsigned want = 2u + 3u * (unsigned)wf.numwg + (unsigned)(wf.wgid[0] + wf.wgid[1] + wf.wgid[2]) +
                            (unsigned)wf.tg + 1u;
            printf("@ %s w%u instructions %zu\n", name, W, wf.instructions);
            for (int model = WL_MODEL_LANES; model <= WL_MODEL_WAVE; model++) {
                if (model == WL_MODEL_WAVE && S != 8)
                    continue;
                char config[32];
                if (model == WL_MODEL_WAVE)
                    snprintf(config, sizeof config, "w%u.wave", W);
                else
                    snprintf(config, sizeof config, "w%u.k%u", W, W / S);
                const char *kr = getenv("ACO_CORPUS_KNOWN") ? NULL : known_reason(name, config); /* debugging */
                if (kr) {
                    printf("@ %s %s known %s\n", name, config, kr);
                    continue;
                }
                if (!wf.have_local || !wf.have_lds || !wf.have_launch || wf.sgpr_args != want) {
                    printf("@ %s %s FAILED the dump's launch (%u SGPR arguments) is not the one replayed (%u)\n",
                           name, config, wf.sgpr_args, want);
                    failed++;
                    continue;
                }
                size_t nw = 0;
                wl_translate_info info;
                wl_status st;
                uint32_t *spv = translate(&wf, W, S, model, &nw, &info, &st, err, sizeof err);
                if (!spv) {
                    const char *why = st == WL_ERR_UNSUPPORTED ? allowed_refusal(name, err) : NULL;
                    printf("@ %s %s %s %s%s%s\n", name, config, why ? "refused" : "FAILED", err, why ? ": " : "",
                           why ? why : "");
                    failed += !why;
                    continue;
                }
                outputs lif;
                memset(&lif, 0, sizeof lif);
                int ok = run_lifted(rt, &p, &wf, spv, nw, &info, S, model, &lif, err, sizeof err) == 0;
                const char *verdict = ok ? "match" : "FAILED";
                for (int i = 0; ok && i < p.nd; i++)
                    if (check_probes(&p, &lif, i, err, sizeof err) || check_piglit_expected(&p, &lif, i, err, sizeof err) ||
                        check_native(&p, &lif, &nat, i, err, sizeof err)) {
                        ok = 0;
                        verdict = "WRONG";
                    }
                printf("@ %s %s %s %s (%zu SPIR-V words, %.0f ms)\n", name, config, verdict, ok ? "" : err, nw,
                       info.ms_total);
                fflush(stdout);
                failed += !ok;
                outputs_free(&lif, &p);
                free(spv);
            }
            free(wf.code);
        }
        outputs_free(&nat, &p);
        plan_free(&p);
    }
    wl_rt_destroy(rt);
    return failed ? 1 : 0;
}

/* ---- the parent: adapt, compile with ACO, run the children, the table ------- */

#define NCONF 8
static const char *const conf_names[NCONF] = {"w64.k16", "w64.k8", "w64.k4", "w64.wave",
                                              "w32.k8",  "w32.k4", "w32.k2", "w32.wave"};

typedef struct row {
    char adapter[160]; /* refusal by the adapter, or "" */
    size_t instr[2];   /* w64, w32 */
    char res[NCONF][32];
    char native[48];
} row;

static void corpus_run(void **state)
{
    (void)state;
    const char *pig = getenv("WL_PIGLIT_DIR") ? getenv("WL_PIGLIT_DIR") : WL_PIGLIT_DIR;
    char root[1024], path[2048], cmd[4096];
    snprintf(root, sizeof root, "%s" PIGLIT_SUB, pig);
    snprintf(path, sizeof path, "%s" PIGLIT_COPYRIGHT, pig);
    if (access(root, R_OK) != 0 || access(path, R_OK) != 0) {
        printf("piglit's tests are not at %s: run scripts/install-deps.sh (it extracts them from Debian's "
               "piglit package)\n", root);
        fail();
    }
    printf("source: Debian 12 package piglit (%s), licences in %s:\n", pig, path);
    snprintf(cmd, sizeof cmd, "grep -E '^(License|Files|Copyright):' '%s' | sort | uniq -c | sort -rn | head -8", path);
    int st = 0;
    char *o = wlt_run(cmd, &st);
    printf("%s", o ? o : "");
    free(o);

    char *tmp = wlt_tmpdir();
    assert_non_null(tmp);
    static row rows[NCORPUS];
    memset(rows, 0, sizeof rows);
    int failed = 0;
    /* 1. the adapter, all programs in one python3 process */
    size_t cap = 4096 + NCORPUS * 1200;
    char *acmd = malloc(cap), *comps = malloc(cap);
    assert_true(acmd && comps);
    size_t alen = (size_t)snprintf(acmd, cap, "python3 '%s/tests/aco/piglit_cs.py' --batch '%s'", WL_SOURCE_DIR, tmp);
    for (size_t ci = 0; ci < NCORPUS; ci++)
        if (!quick() || ci % 4 == 0)
            alen += (size_t)snprintf(acmd + alen, cap - alen, " '%s%s.shader_test'", root, corpus[ci]);
    snprintf(acmd + alen, cap - alen, " 2>&1");
    o = wlt_run(acmd, &st);
    assert_non_null(o);
    size_t clen = 0;
    comps[0] = 0;
    for (size_t ci = 0; ci < NCORPUS; ci++) {
        if (quick() && ci % 4 != 0)
            continue;
        const char *name = base_name(corpus[ci]);
        char key[200];
        snprintf(key, sizeof key, "\n%s: ", name);
        const char *at = strstr(o, key + 1) == o ? o : strstr(o, key);
        if (at && *at == '\n')
            at++;
        const char *res = at ? at + strlen(key) - 1 : "no answer from the adapter";
        if (strncmp(res, "ok\n", 3) == 0) {
            clen += (size_t)snprintf(comps + clen, cap - clen, " '%s/%s.comp'", tmp, name);
            continue;
        }
        const char *why = NULL;
        for (size_t a = 0; a < sizeof allowed_adapter / sizeof allowed_adapter[0]; a++)
            if (strcmp(allowed_adapter[a].name, name) == 0 && strncmp(res, "refused: ", 9) == 0 &&
                strncmp(res + 9, allowed_adapter[a].reason, strlen(allowed_adapter[a].reason)) == 0)
                why = allowed_adapter[a].reason;
        snprintf(rows[ci].adapter, sizeof rows[ci].adapter, "%s%s", why ? "refused: " : "ADAPTER FAILED: ",
                 why ? why : res);
        char *nl = strchr(rows[ci].adapter, '\n');
        if (nl)
            *nl = 0;
        failed += !why;
    }
    free(o);
    free(acmd);
    /* 2. ACO, all programs in one aco_dump process */
    char *regen = malloc(clen + 1024);
    assert_non_null(regen);
    /* aco_dump is a tool: in the sanitizer build, what RADV leaks is not ours */
    snprintf(regen, clen + 1024, "ASAN_OPTIONS=detect_leaks=0 ACO_OUT='%s' ACO_DUMP='%s' sh '%s/tests/aco/regen.sh' %s 2>&1",
             tmp, WL_ACO_DUMP,
             WL_SOURCE_DIR, comps);
    o = wlt_run(regen, &st);
    if (st != 0)
        printf("regen.sh failed:\n%s\n", o ? o : "");
    assert_int_equal(st, 0);
    free(o);
    free(regen);
    free(comps);
    /* 3. the children */
    static const unsigned sizes[] = {4, 8, 16};
    for (size_t si = 0; si < 3; si++) {
        unsigned S = sizes[si];
        if (quick() && S != 8)
            continue;
        char self[512];
        ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
        assert_true(len > 0);
        self[len] = 0;
        snprintf(cmd, sizeof cmd, "LP_NATIVE_VECTOR_WIDTH=%u '%s' --child %u '%s' 2>&1", 32 * S, self, S, tmp);
        o = wlt_run(cmd, &st);
        printf("--- S=%u (exit %d)\n", S, st);
        if (st != 0)
            failed++;
        for (char *line = o ? strtok(o, "\n") : NULL; line; line = strtok(NULL, "\n")) {
            char name[128], config[32], verdict[32];
            if (line[0] != '@') {
                printf("%s\n", line);
                continue;
            }
            if (sscanf(line, "@ %127s %31s %31s", name, config, verdict) != 3)
                continue;
            size_t ci = 0;
            while (ci < NCORPUS && strcmp(base_name(corpus[ci]), name) != 0)
                ci++;
            if (ci == NCORPUS)
                continue;
            if (strcmp(verdict, "instructions") == 0) {
                rows[ci].instr[config[1] == '3'] = strtoul(line + strlen(name) + strlen(config) + 17, NULL, 10);
                continue;
            }
            if (strcmp(verdict, "match") != 0)
                printf("%s\n", line);
            if (strncmp(config, "native", 6) == 0) {
                snprintf(rows[ci].native, sizeof rows[ci].native, "native S=%u FAILED", S);
                continue;
            }
            for (int c = 0; c < NCONF; c++)
                if (strcmp(conf_names[c], config) == 0)
                    snprintf(rows[ci].res[c], sizeof rows[ci].res[c], "%s", verdict);
        }
        free(o);
    }
    /* 4. the table */
    printf("\n%-36s %-8s %5s %5s", "program (piglit)", "suite", "i64", "i32");
    for (int c = 0; c < NCONF; c++)
        printf(" %-8s", conf_names[c]);
    printf("\n");
    int tot_match = 0, tot_ref = 0, tot_known = 0, tot_bad = 0, progs = 0, adapter_ref = 0;
    const char *only = getenv("ACO_CORPUS_ONLY");
    for (size_t ci = 0; ci < NCORPUS; ci++) {
        if ((quick() && ci % 4 != 0) || (only && strcmp(only, base_name(corpus[ci])) != 0))
            continue;
        const char *suite = strstr(corpus[ci], "arb_compute_shader") ? "arb_cs"
                            : strstr(corpus[ci], "group_vote")       ? "vote"
                            : strstr(corpus[ci], "int64")            ? "int64"
                            : strstr(corpus[ci], "glsl-4.30")        ? "glsl430"
                                                                     : "es31";
        printf("%-36.36s %-8s", base_name(corpus[ci]), suite);
        if (rows[ci].adapter[0]) {
            printf(" %s\n", rows[ci].adapter);
            adapter_ref++;
            continue;
        }
        progs++;
        printf(" %5zu %5zu", rows[ci].instr[0], rows[ci].instr[1]);
        for (int c = 0; c < NCONF; c++) {
            /* a configuration that should have run but reported nothing fails */
            int want = !quick() || strstr(conf_names[c], ".wave") || strcmp(conf_names[c], "w64.k8") == 0 ||
                       strcmp(conf_names[c], "w32.k4") == 0;
            const char *r = rows[ci].res[c][0] ? rows[ci].res[c] : want && !rows[ci].native[0] ? "MISSING" : "-";
            printf(" %-8s", r);
            if (strcmp(r, "match") == 0)
                tot_match++;
            else if (strcmp(r, "refused") == 0)
                tot_ref++;
            else if (strcmp(r, "known") == 0)
                tot_known++;
            else if (strcmp(r, "-") != 0)
                tot_bad++;
        }
        printf("%s%s\n", rows[ci].native[0] ? " " : "", rows[ci].native);
    }
    printf("%d programs run (%d refused by the adapter, by name): %d configurations match, %d refused, %d known "
           "(not run), %d WRONG or FAILED\n", progs, adapter_ref, tot_match, tot_ref, tot_known, tot_bad);
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        printf("known: %s %s: %s\n", known[i].name, known[i].config, known[i].reason);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    free(wlt_run(cmd, &st));
    free(tmp);
    assert_int_equal(failed + tot_bad, 0);
}

int main(int argc, char **argv)
{
    wlt_use_lavapipe(0);
    if (argc == 4 && strcmp(argv[1], "--child") == 0)
        return child_main((unsigned)strtoul(argv[2], NULL, 10), argv[3]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(corpus_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
