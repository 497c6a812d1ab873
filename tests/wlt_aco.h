/* The ACO corpus's shaders (tests/aco/, docs/aco.md) for the tests that
 * run them: the shader table, NAME.wW.words read with their launch facts,
 * the wl_lift_program RADV's launch gives them (radv-abi.md), their inputs,
 * and the original GLSL compiled by glslangValidator and run natively
 * (the oracle). Used by test_aco_run (the library path) and test_replay
 * (captures replayed by the CLI). Include after cmocka.h and support.h. */
#ifndef WLT_ACO_H
#define WLT_ACO_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wavelift/lift.h"
#include "wavelift/runtime.h"
#include "wlt_aco_words.h"

#define ACO_DIR WL_SOURCE_DIR "/tests/aco"

/* The guest window: 48-bit guest address GUEST_BASE + offset is host
 * address window + offset. Offsets below WIN_SET are a guard page outside
 * the mapping: an access there records an escape (WL_ESC_ADDRESS) and
 * leaves it untouched. */
#define GUEST_BASE 0x800000000000ull
#define WIN_SET 0x1000u
#define WIN_DATA 0x2000u
#define VSHARP_W3 0x31016FACu /* RADV's word 3 of a storage-buffer V# */

typedef struct shader {
    const char *name;
    unsigned groups;    /* 1-D grid in work-groups */
    int tg_size;        /* reads gl_SubgroupID: the workgroup-info SGPR */
    unsigned out_words; /* per work-group */
    int out_per_item;   /* out_words counts per invocation instead */
    const char *no_wave; /* why the wave model is not run (NULL: it is) */
} shader;

static const shader wlt_aco_shaders[] = {
    {"wg_reduce", 4, 1, 12, 0, NULL},
    {"wg_scan", 4, 1, 6, 1, NULL},
    {"compact", 4, 1, 264, 0, NULL},
    {"quad_shuffle", 2, 0, 16, 1,
     "lavapipe's LLVM 15 compiling its wave64 module (15,882 words, 66 lane loops in sequence) at the first "
     "dispatch did not finish in 15 minutes: its stack sampled with gdb at 40 s is deep in "
     "ScalarEvolution::isLoopBackedgeGuardedByCond / isKnownViaInduction recursion (as cs-op-mod-u64vec2 "
     "in test_aco_corpus); the lanes model of the same code matches"},
    {"histogram", 4, 0, 50, -1, NULL}, /* -1: 50 words for the whole grid */
    {"pk_const", 2, 0, 10, 1, NULL},   /* packed constants through op_sel/op_sel_hi */
    {"nbody", 4, 0, 4, 1, NULL},
};

/* ---- NAME.wW.words --------------------------------------------------------- */

/* NAME.wW.words and RADV's launch of it: tests/wlt_aco_words.h (shared with
 * test_aco_corpus); these shaders take set 0 in s2 and the workgroup id x */
typedef wlt_aco_words words_file;

static inline int read_words(const char *path, words_file *w)
{
    return wlt_aco_read_words(path, w);
}

static inline void fill_program(wl_lift_program *p, const words_file *w, const shader *sh, unsigned W)
{
    static const int wgid[3] = {1, 0, 0};
    wlt_aco_fill(p, w, W, sh->tg_size, wgid, 3);
}

static inline uint32_t hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

static inline void make_input(const shader *sh, uint32_t *in, size_t n)
{
    uint32_t seed = hash32((uint32_t)strlen(sh->name) * 977u + (uint32_t)sh->name[0]);
    for (size_t i = 0; i < n; i++)
        in[i] = hash32((uint32_t)i ^ seed);
    if (strcmp(sh->name, "compact") == 0 && n > 300) {
        in[37] = 0x12345u; /* subgroupAny */
        in[300] = 7u;      /* !subgroupAll */
    }
}

typedef struct run_io {
    const uint32_t *in;
    size_t in_words;
    uint32_t *out;
    size_t out_words;
} run_io;

/* The original GLSL, compiled by glslangValidator, run natively. */
static inline int run_native(wl_rt *rt, const char *tmp, const shader *sh, unsigned S, run_io *io,
                      char *msg, size_t msgcap)
{
    char spv_path[512], cmd[1200];
    snprintf(spv_path, sizeof spv_path, "%s/%s.spv", tmp, sh->name);
    snprintf(cmd, sizeof cmd, "glslangValidator -V --target-env vulkan1.2 -o '%s' '%s/%s.comp' 2>&1",
             spv_path, ACO_DIR, sh->name);
    int st = 0;
    char *o = wlt_run(cmd, &st);
    if (!o || st != 0) {
        snprintf(msg, msgcap, "glslangValidator failed: %s", o ? o : "(did not run)");
        free(o);
        return -1;
    }
    free(o);
    uint32_t *w = NULL;
    size_t nw = 0;
    if (wl_rt_spirv_read_file(spv_path, &w, &nw, msg, msgcap))
        return -1;
    wl_rt_buffer *in = NULL, *out = NULL;
    wl_rt_pipeline *pipe = NULL;
    int rc = -1;
    wl_rt_pipeline_desc pd = {.words = w, .nwords = nw, .subgroup_size = S, .require_full_subgroups = 1};
    wl_rt_dispatch_desc d = {.groups = {sh->groups, 1, 1}, .runs = 1};
    if (wl_rt_buffer_create(rt, io->in_words * 4, &in) || wl_rt_buffer_create(rt, io->out_words * 4, &out) ||
        wl_rt_buffer_upload(rt, in, 0, io->in, io->in_words * 4) || wl_rt_pipeline_create(rt, &pd, &pipe)) {
        snprintf(msg, msgcap, "native setup: %s", wl_rt_error(rt));
        goto done;
    }
    d.bindings[0] = in;
    d.bindings[1] = out;
    if (wl_rt_dispatch(rt, pipe, &d, NULL) || wl_rt_buffer_download(rt, out, 0, io->out, io->out_words * 4)) {
        snprintf(msg, msgcap, "native run: %s", wl_rt_error(rt));
        goto done;
    }
    rc = 0;
done:
    if (pipe)
        wl_rt_pipeline_destroy(rt, pipe);
    if (in)
        wl_rt_buffer_destroy(rt, in);
    if (out)
        wl_rt_buffer_destroy(rt, out);
    free(w);
    return rc;
}

/* The words shader sh writes for `items` invocations in all. */
static inline size_t wlt_aco_out_words(const shader *sh, size_t items)
{
    return sh->out_per_item < 0 ? sh->out_words
           : sh->out_per_item  ? sh->out_words * items
                               : sh->out_words * sh->groups;
}

/* Set 0 as RADV writes it (radv-abi.md): binding 0's and 1's storage-buffer
 * V#s, {lo32(A), A[47:32], size, VSHARP_W3}, for the input and the output
 * at guest addresses in_at and out_at. */
static inline void wlt_aco_set(uint32_t set[8], uint64_t in_at, uint64_t in_bytes, uint64_t out_at,
                               uint64_t out_bytes)
{
    const uint32_t s[8] = {
        (uint32_t)in_at, (uint32_t)(in_at >> 32) & 0xffff, (uint32_t)in_bytes, VSHARP_W3,
        (uint32_t)out_at, (uint32_t)(out_at >> 32) & 0xffff, (uint32_t)out_bytes, VSHARP_W3,
    };
    memcpy(set, s, sizeof s);
}

#endif
