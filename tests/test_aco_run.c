/* GLSL compute shaders compiled by Mesa's ACO (tests/aco/, regen.sh),
 * lifted by wavelift, run on lavapipe, and compared with the original GLSL
 * run natively on the same device (docs/aco.md).
 *
 * For each shader of the table and each of its NAME.wW.words (ACO's wave64
 * code, and its wave32 code where regen.sh made one), in a child process
 * per lavapipe subgroup size S (8 and 16, LP_NATIVE_VECTOR_WIDTH 256 and
 * 512):
 *   - the words are lifted with a wl_lift_program filled as RADV launches
 *     the shader (../shared/radv-abi.md): user SGPRs s0..s2 (scratch ring,
 *     set 0's address), workgroup id x, the workgroup-info SGPR where the
 *     shader reads gl_SubgroupID, the scratch wave offset; v0..v2 the local
 *     ids; the LDS size and work-group size from the dump (regen.sh records
 *     them with ACO's p_startpgm, whose SGPR count is checked here); fp32
 *     denormals flushed and IEEE mode off, as RADV sets them;
 *   - guest memory is one window at guest address 0x8000_0000_0000 (the
 *     48-bit address RADV's 32-bit pointers and V#s name): the descriptor
 *     set with the two buffers' V#s, the input, the output, reached through
 *     the runtime's guest mapping (wl_rt_mapping_encode, docs/memory.md:
 *     bits 63:48 ignored, so RADV's 0xffff8000 high halves and the V#s'
 *     0x8000 name the same memory);
 *   - translated by wl_translate_module for S at -O2, dispatched, and the
 *     output compared word for word with the GLSL compiled by
 *     glslangValidator at test time and run natively at the same S.
 *
 * The shaders are written so that their outputs do not depend on the
 * subgroup size (work-group results built from subgroup operations,
 * exchanges inside 8-lane blocks), and their floats are multiples of a
 * power of two small enough that every sum is exact: every word must be
 * equal, floats included. The inputs hold no denormals (the fp32 flush ACO
 * asks for is then irrelevant).
 *
 * Each words file also runs in the wave model (one invocation a wave, no
 * subgroup; S does not matter), once, in the S = 8 child.
 *
 * Shaders using images (image.comp, atomics.comp) must lift. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>

#include "support.h"
#include "wlt_aco.h"
#include "wavelift/lift.h"
#include "wavelift/runtime.h"
#include "wavelift/translate.h"

/* ---- one lifted run --------------------------------------------------------- */

/* Runs the lifted program; 0 when it ran without escape. */
static int run_lifted(wl_rt *rt, const uint32_t *spv, size_t nw, const wl_translate_info *info,
                      unsigned S, unsigned groups, run_io *io, char *msg, size_t msgcap)
/* (the wave model: no required subgroup size, no full subgroups) */
{
    uint64_t in_off = WIN_DATA, in_bytes = io->in_words * 4;
    uint64_t out_off = (in_off + in_bytes + 255) & ~255ull, out_bytes = io->out_words * 4;
    uint64_t win_bytes = out_off + out_bytes + 4096;
    wl_rt_buffer *win = NULL, *status = NULL, *seg = NULL;
    wl_rt_pipeline *pipe = NULL;
    int rc = -1;
    if (wl_rt_buffer_create(rt, win_bytes, &win) || wl_rt_buffer_create(rt, 256, &status)) {
        snprintf(msg, msgcap, "buffers: %s", wl_rt_error(rt));
        goto out;
    }
    /* the descriptor set: binding b's V# at WIN_SET + 16 b (radv-abi.md) */
    uint32_t set[8];
    wlt_aco_set(set, GUEST_BASE + in_off, in_bytes, GUEST_BASE + out_off, out_bytes);
    uint64_t host = wl_rt_buffer_address(win);
    uint32_t push[WL_PUSH_BYTES / 4] = {0};
    push[2] = (uint32_t)(GUEST_BASE + WIN_SET); /* s2: set 0, high half 0xffff8000 in the code */
    wl_rt_mapping map = {GUEST_BASE + WIN_SET, win_bytes - WIN_SET, host + WIN_SET};
    if (wl_rt_mapping_encode(&map, push + WL_PUSH_MAP_OFFSET / 4) != WL_RT_OK) {
        snprintf(msg, msgcap, "the mapping cannot be encoded");
        goto out;
    }
    if (wl_rt_buffer_upload(rt, win, WIN_SET, set, sizeof set) ||
        wl_rt_buffer_upload(rt, win, in_off, io->in, in_bytes)) {
        snprintf(msg, msgcap, "upload: %s", wl_rt_error(rt));
        goto out;
    }
    int wave = info->model == WL_MODEL_WAVE;
    wl_rt_pipeline_desc pd = {.words = spv, .nwords = nw, .subgroup_size = wave ? 0 : S,
                              .require_full_subgroups = !wave};
    if (wl_rt_pipeline_create(rt, &pd, &pipe)) {
        snprintf(msg, msgcap, "pipeline: %s", wl_rt_error(rt));
        goto out;
    }
    if (info->bindings & (1u << WL_RT_BINDING_LDS)) {
        snprintf(msg, msgcap, "device-memory LDS not set up by this test");
        goto out;
    }
    if (getenv("ACO_RUN_DEBUG"))
        printf("  pipeline created; dispatching\n");
    if (wlt_segment(rt, info, groups, push, &seg)) {
        snprintf(msg, msgcap, "device segment: %s", wl_rt_error(rt));
        goto out;
    }
    wl_rt_dispatch_desc d = {.groups = {groups, 1, 1}, .push_constants = push,
                             .push_constant_size = WL_PUSH_BYTES, .runs = 1};
    d.bindings[WL_RT_BINDING_STATUS] = status;
    if (wl_rt_dispatch(rt, pipe, &d, NULL)) {
        snprintf(msg, msgcap, "dispatch: %s", wl_rt_error(rt));
        goto out;
    }
    uint32_t sw[4];
    uint8_t guard[WIN_SET];
    if (wl_rt_buffer_download(rt, status, 0, sw, sizeof sw) ||
        wl_rt_buffer_download(rt, win, out_off, io->out, out_bytes) ||
        wl_rt_buffer_download(rt, win, 0, guard, sizeof guard)) {
        snprintf(msg, msgcap, "download: %s", wl_rt_error(rt));
        goto out;
    }
    if (sw[0]) {
        snprintf(msg, msgcap, "escape kind %u at guest offset 0x%x, lane %u, group %u", sw[0], sw[1],
                 sw[2], sw[3]);
        goto out;
    }
    for (size_t i = 0; i < sizeof guard; i++)
        if (guard[i]) {
            snprintf(msg, msgcap, "the guard page was written");
            goto out;
        }
    rc = 0;
out:
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

/* WL_ACO_STAGES=PREFIX: each stage's module to PREFIX.STAGE.ll (reading the IR) */
static void write_stage(void *user, const char *stage, LLVMModuleRef m)
{
    char path[600];
    snprintf(path, sizeof path, "%s.%s.ll", (const char *)user, stage);
    char *msg = NULL;
    if (LLVMPrintModuleToFile(m, path, &msg))
        fprintf(stderr, "%s: %s\n", path, msg ? msg : "cannot write");
    LLVMDisposeMessage(msg);
}

/* the host stage as bitcode at user (a path): wl_hostsim's input */
static void write_host_bc(void *user, const char *stage, LLVMModuleRef m)
{
    if (strcmp(stage, "host") == 0 && LLVMWriteBitcodeToFile(m, (const char *)user))
        fprintf(stderr, "%s: cannot write\n", (const char *)user);
}

/* Lifts and translates one words file; the SPIR-V or NULL with msg.
 * fused: wl_translate_options.fused_fma (WL_FMA_* bits), MAXREC_BIT for
 * maximal_reconvergence and LOOPLIMIT_BIT for lavapipe's
 * loop_iteration_limit. */
#define MAXREC_BIT 0x100u
#define LOOPLIMIT_BIT 0x200u
static uint32_t *translate(const words_file *wf, const shader *sh, unsigned W, unsigned S, int model, unsigned fused,
                           const char *host_bc, size_t *nw, wl_translate_info *info, wl_status *st, char *msg,
                           size_t msgcap)
{
    wl_lift_program p;
    fill_program(&p, wf, sh, W);
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = NULL;
    uint32_t *words = NULL;
    *st = wl_lift(ctx, &p, &m, msg, msgcap);
    if (*st == WL_OK) {
        wl_translate_options o = {.struct_size = sizeof(wl_translate_options), .subgroup_size = S, .local_size = {wf->local[0], wf->local[1], wf->local[2]},
                                  .opt_level = 2, .validate = 1, .model = model,
                                  .fused_fma = (int)(fused & ~(MAXREC_BIT | LOOPLIMIT_BIT)),
                                  .maximal_reconvergence = (fused & MAXREC_BIT) != 0,
                                  .loop_iteration_limit = fused & LOOPLIMIT_BIT ? WL_LAVAPIPE_LOOP_LIMIT : 0};
        char prefix[400];
        if (getenv("WL_ACO_STAGES")) {
            snprintf(prefix, sizeof prefix, "%s.%s.w%u.S%u.%s", getenv("WL_ACO_STAGES"), sh->name, W, S,
                     model == WL_MODEL_WAVE ? "wave" : "lanes");
            o.stage_hook = write_stage;
            o.stage_user = prefix;
        } else if (host_bc) {
            o.stage_hook = write_host_bc;
            o.stage_user = (void *)host_bc;
        }
        *st = wl_translate_module(m, &o, &words, nw, info, msg, msgcap);
    }
    LLVMContextDispose(ctx);
    return *st == WL_OK ? words : NULL;
}

static int child_main(unsigned S)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* a run that hangs still shows the ones before it */
    char err[2048];
    wl_rt *rt = NULL;
    if (wl_rt_create(&(wl_rt_options){.timeout_ms = 300000} /* lavapipe compiles at the first dispatch; a loaded machine is slow */, &rt, err, sizeof err) != WL_RT_OK) {
        printf("child: no device: %s\n", err);
        return 1;
    }
    char *tmp = wlt_tmpdir();
    assert_non_null(tmp);
    int runs = 0, matched = 0;
    const char *only = getenv("ACO_RUN_ONLY"); /* debugging: one shader */
    for (size_t si = 0; si < sizeof wlt_aco_shaders / sizeof wlt_aco_shaders[0]; si++) {
        const shader *sh = &wlt_aco_shaders[si];
        if (only && strcmp(only, sh->name) != 0)
            continue;
        char path[512];
        words_file wf;
        snprintf(path, sizeof path, "%s/%s.w64.words", ACO_DIR, sh->name);
        if (read_words(path, &wf) || !wf.have_local) {
            printf("%s: cannot read %s\n", sh->name, path);
            runs++;
            continue;
        }
        size_t items = (size_t)wf.local[0] * wf.local[1] * wf.local[2] * sh->groups;
        size_t out_words = wlt_aco_out_words(sh, items);
        uint32_t *in = malloc(items * 4), *ref = calloc(out_words, 4), *got = calloc(out_words, 4);
        assert_true(in && ref && got);
        make_input(sh, in, items);
        free(wf.code);
        run_io nio = {in, items, ref, out_words};
        if (run_native(rt, tmp, sh, S, &nio, err, sizeof err)) {
            printf("%-12s S=%-2u native: FAILED: %s\n", sh->name, S, err);
            runs++;
            free(in), free(ref), free(got);
            continue;
        }
        size_t nonzero = 0;
        for (size_t i = 0; i < out_words; i++)
            nonzero += ref[i] != 0;
        /* an output of zeros would compare vacuously */
        if (nonzero < out_words / 4) {
            printf("%-12s S=%-2u native: only %zu of %zu words non-zero\n", sh->name, S, nonzero, out_words);
            runs++;
            free(in), free(ref), free(got);
            continue;
        }
        for (unsigned W = 64; W >= 32; W /= 2) {
            snprintf(path, sizeof path, "%s/%s.w%u.words", ACO_DIR, sh->name, W);
            if (access(path, R_OK) != 0)
                continue;
            runs++;
            int ok = 0;
            read_words(path, &wf);
            unsigned want_args = 3u + (unsigned)sh->tg_size + 1u; /* ring, set 0, wg x, [tg], scratch */
            if (!wf.have_lds || !wf.have_args || wf.sgpr_args != want_args) {
                printf("%-12s w%u S=%-2u: the dump's launch (%u SGPR arguments) is not the one replayed (%u)\n",
                       sh->name, W, S, wf.sgpr_args, want_args);
                free(wf.code);
                continue;
            }
            /* the lanes model at S; the wave model (one invocation a wave,
             * no subgroup: S does not matter) in the first child only */
            for (int model = WL_MODEL_LANES; model <= (S == 8 ? WL_MODEL_WAVE : WL_MODEL_LANES); model++) {
                if (model == WL_MODEL_WAVE && sh->no_wave) {
                    printf("%-12s w%u wave model: not run: %s\n", sh->name, W, sh->no_wave);
                    continue;
                }
                runs += model == WL_MODEL_WAVE;
                char where[32];
                if (model == WL_MODEL_WAVE)
                    snprintf(where, sizeof where, "wave model");
                else
                    snprintf(where, sizeof where, "S=%-2u k=%-2u", S, W / S);
                size_t nw = 0;
                wl_translate_info info;
                wl_status st;
                unsigned bits = wl_rt_profile(rt)->loop_iteration_limit ? LOOPLIMIT_BIT : 0; /* lavapipe */
                uint32_t *spv = translate(&wf, sh, W, S, model, bits, NULL, &nw, &info, &st, err, sizeof err);
                if (!spv) {
                    printf("%-12s w%u %s: %s: %s\n", sh->name, W, where,
                           st == WL_ERR_UNSUPPORTED ? "refused" : "translation FAILED", err);
                } else {
                    if (getenv("ACO_RUN_DEBUG"))
                        printf("%-12s w%u %s: %zu SPIR-V words, %u lane loops, %.0f ms translation; running\n",
                               sh->name, W, where, nw, info.lane_loops, info.ms_total);
                    memset(got, 0, out_words * 4);
                    run_io lio = {in, items, got, out_words};
                    if (run_lifted(rt, spv, nw, &info, S, sh->groups, &lio, err, sizeof err)) {
                        printf("%-12s w%u %s: run FAILED: %s\n", sh->name, W, where, err);
                    } else {
                        size_t bad = 0, first = 0;
                        for (size_t i = 0; i < out_words; i++)
                            if (got[i] != ref[i] && bad++ == 0)
                                first = i;
                        printf("%-12s w%u %s: %zu guest bytes, %zu SPIR-V "
                               "words, %.0f ms translation; %zu words (%zu non-zero): %s",
                               sh->name, W, where, wf.size, nw, info.ms_total,
                               out_words, nonzero, bad ? "MISMATCH" : "match");
                        if (bad)
                            printf(" (%zu differ; first word %zu: lifted 0x%08x, native 0x%08x)", bad, first,
                                   got[first], ref[first]);
                        if (bad && getenv("ACO_RUN_DEBUG"))
                            for (size_t i = 0; i < out_words && i < 400; i++)
                                if (got[i] != ref[i])
                                    printf("\n  word %zu (%zu mod %u): in 0x%08x, lifted 0x%08x, native 0x%08x", i,
                                           i % sh->out_words, sh->out_words, in[i / sh->out_words], got[i], ref[i]);
                        printf("\n");
                        ok += bad == 0;
                    }
                    free(spv);
                }
            }
            matched += ok;
            free(wf.code);
        }
        free(in), free(ref), free(got);
    }
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    int st;
    free(wlt_run(cmd, &st));
    free(tmp);
    wl_rt_destroy(rt);
    printf("S=%u: %d lifted runs, %d match the native run\n", S, runs, matched);
    return runs > 0 && matched == runs ? 0 : 1;
}

/* ---- bundles for the device (scripts/native_vs_lifted.py, docs/native.md) --- */

/* DIR/NAME written (support.c's writer), or 1 with a message */
static int put_file(const char *dir, const char *name, const void *data, size_t n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int bad = wlt_write_file(path, data, n) != 0;
    if (bad)
        fprintf(stderr, "%s: cannot write\n", path);
    return bad;
}

/* DIR/TAG: the lifted bundle (docs/bundle.md, format 2) of shader sh's
 * ACO code at wave W in `model` (lanes: S = 32), `groups` work-groups, its
 * input the file IN (relative to the bundle), compared with REF: the
 * descriptor set, the input and the output in one arena at the guest
 * addresses test_aco_run uses, status at binding 0, the device segment
 * where the translation has one. */
static int lifted_bundle(const char *dir, const char *tag, const shader *sh, const words_file *wf, unsigned W,
                         unsigned S, int model, unsigned fused, uint64_t in_bytes, uint64_t out_bytes, const char *in,
                         const char *ref)
{
    unsigned groups = sh->groups;
    size_t nw = 0;
    wl_translate_info info;
    wl_status st;
    char err[2048], bdir[900], hbc[1000];
    snprintf(bdir, sizeof bdir, "%s/%s", dir, tag);
    mkdir(bdir, 0777);
    snprintf(hbc, sizeof hbc, "%s/host.bc", bdir);
    uint32_t *spv = translate(wf, sh, W, S, model, fused, model == WL_MODEL_LANES ? hbc : NULL, &nw, &info, &st, err,
                              sizeof err);
    if (!spv) {
        printf("%s: not bundled: %s\n", tag, err);
        return 1;
    }
    if (info.bindings & (1u << WL_RT_BINDING_LDS)) {
        printf("%s: not bundled: device-memory LDS\n", tag);
        free(spv);
        return 1;
    }
    uint64_t in_off = WIN_DATA - WIN_SET, out_off = (in_off + in_bytes + 255) & ~255ull;
    uint64_t arena = out_off + out_bytes + 4096;
    uint32_t set[8];
    wlt_aco_set(set, GUEST_BASE + WIN_SET + in_off, in_bytes, GUEST_BASE + WIN_SET + out_off, out_bytes);
    uint32_t push[WL_PUSH_BYTES / 4] = {0};
    push[2] = (uint32_t)(GUEST_BASE + WIN_SET); /* s2: set 0 (radv-abi.md) */
    uint64_t seg = 0;
    if (info.scratch_bytes_per_invocation) {
        uint32_t stride = info.scratch_bytes_per_invocation;
        memcpy((uint8_t *)push + WL_PUSH_SCRATCH_STRIDE_OFFSET, &stride, 4);
        seg = (uint64_t)groups * info.host_local_size[0] * info.host_local_size[1] * info.host_local_size[2] * stride;
    }
    char man[4096];
    int n = snprintf(man, sizeof man,
                     "wavelift-bundle 2\n# written by test_aco_run --write-bundles (docs/native.md)\n"
                     "kernel %s\ncode-object tests/aco/%s.w%u.words\nwave %u\nk %u\nlocal %u %u %u\n"
                     "model %s\nsubgroup %u\nlane-loops %u\ntranslate-ms %.3f\nmerge-stores 0\n"
                     "spirv module.spv %zu\n%shost-local %u %u %u\ngroups %u 1 1\npush %u push.bin\n"
                     "buffer 0 32 set.bin set\nbuffer 1 %llu %s arg0\nbuffer 2 %llu - arg1\n"
                     "buffer 3 %u - status\n",
                     sh->name, sh->name, W, W, model == WL_MODEL_WAVE ? W : W / S, wf->local[0], wf->local[1],
                     wf->local[2], model == WL_MODEL_WAVE ? "wave" : "lanes", model == WL_MODEL_WAVE ? 0 : S,
                     info.lane_loops, info.ms_total, nw, model == WL_MODEL_LANES ? "host-ir host.bc\n" : "", info.host_local_size[0],
                     info.host_local_size[1], info.host_local_size[2], groups,
                     (unsigned)WL_PUSH_BYTES,
                     (unsigned long long)in_bytes, in, (unsigned long long)out_bytes, (unsigned)WL_RT_STATUS_BYTES);
    if (seg)
        n += snprintf(man + n, sizeof man - (size_t)n, "buffer 4 %llu - scratch\nreloc push %d 4 0\n",
                      (unsigned long long)((seg + 15) & ~15ull), WL_PUSH_SCRATCH_BASE_OFFSET);
    if (fused & ~MAXREC_BIT) /* wl_bundlerun runs it only where the device's probe finds these widths exact */
        n += snprintf(man + n, sizeof man - (size_t)n, "fused-fma %u\n", fused & ~MAXREC_BIT);
    n += snprintf(man + n, sizeof man - (size_t)n,
                  "arena %llu %llu %d\nplace 0 0\nplace 1 %llu\nplace 2 %llu\nbinding 0 3\ncheck 2 %s\n",
                  (unsigned long long)(GUEST_BASE + WIN_SET), (unsigned long long)arena, WL_PUSH_MAP_OFFSET,
                  (unsigned long long)in_off, (unsigned long long)out_off, ref);
    int bad = put_file(bdir, "module.spv", spv, nw * 4) || put_file(bdir, "push.bin", push, sizeof push) ||
              put_file(bdir, "set.bin", set, sizeof set) || put_file(bdir, "manifest.txt", man, (size_t)n);
    free(spv);
    printf("%s: %zu words\n", tag, nw);
    return bad;
}

/* DIR/TAG: the original GLSL as a bundle (format 1): its storage buffers
 * moved to bindings 1 and 2 (glslangValidator --shift-ssbo-binding 1),
 * binding 0 a status buffer no one writes; its output saved as REF. */
static int native_bundle(const char *dir, const char *tag, const shader *sh, uint64_t in_bytes, uint64_t out_bytes,
                         const char *in, const char *ref)
{
    char bdir[900], cmd[2400];
    snprintf(bdir, sizeof bdir, "%s/%s", dir, tag);
    mkdir(bdir, 0777);
    snprintf(cmd, sizeof cmd,
             "glslangValidator -V --target-env vulkan1.2 --shift-ssbo-binding 1 -o '%s/module.spv' "
             "'%s/%s.comp' 2>&1",
             bdir, ACO_DIR, sh->name);
    int st = 0;
    char *o = wlt_run(cmd, &st);
    if (!o || st) {
        printf("%s: glslangValidator failed: %s\n", tag, o ? o : "(did not run)");
        free(o);
        return 1;
    }
    free(o);
    char path[1000];
    snprintf(path, sizeof path, "%s/module.spv", bdir);
    uint32_t *w = NULL;
    size_t nw = 0;
    char err[512];
    if (wl_rt_spirv_read_file(path, &w, &nw, err, sizeof err)) {
        printf("%s: %s\n", tag, err);
        return 1;
    }
    free(w);
    uint8_t push[WL_PUSH_BYTES] = {0};
    char man[2048];
    int n = snprintf(man, sizeof man,
                     "wavelift-bundle 1\n# written by test_aco_run --write-bundles (docs/native.md): the GLSL "
                     "compiled by glslangValidator\nkernel %s\nmodel wave\nsubgroup 0\nspirv module.spv %zu\n"
                     "groups %u 1 1\npush %u push.bin\nbuffer 0 %u - status\nbuffer 1 %llu %s arg0\n"
                     "buffer 2 %llu - arg1\nbinding 0 0\nbinding 1 1\nbinding 2 2\nsave 2 %s\n",
                     sh->name, nw, sh->groups, (unsigned)WL_PUSH_BYTES, (unsigned)WL_RT_STATUS_BYTES,
                     (unsigned long long)in_bytes, in, (unsigned long long)out_bytes, ref);
    return put_file(bdir, "push.bin", push, sizeof push) || put_file(bdir, "manifest.txt", man, (size_t)n);
}

/* test_aco_run --write-bundles DIR [--fused-fma BITS] [--maximal-reconvergence] [--subgroup S] NAME=GROUPS...:
 * for each shader named,
 * at GROUPS work-groups (the wave model at a sixteenth), the native bundle
 * and the lifted ones (lanes at S = 32, or --subgroup's S up to the wave
 * size, with the host-stage IR for wl_hostsim; the wave model; each wave size
 * ACO compiled) in DIR; DIR/glsl.txt lists them for the run script:
 * `NAME TAG GROUPS IN_BYTES` a line, the native bundle of a grid first. */
static int write_bundles(const char *dir, int argc, char **argv)
{
    unsigned fused = 0; /* WL_FMA_* bits: translated for a device whose Fma is exact there */
    if (argc >= 2 && !strcmp(argv[0], "--fused-fma")) {
        fused = (unsigned)strtoul(argv[1], NULL, 0) & (WL_FMA_F32 | WL_FMA_F64 | WL_FMA_F32_FTZ | WL_FMA_F32_NORMAL);
        argc -= 2;
        argv += 2;
    }
    if (argc >= 1 && !strcmp(argv[0], "--maximal-reconvergence")) { /* for a host that enables it */
        fused |= MAXREC_BIT;
        argc--;
        argv++;
    }
    unsigned S = 32;
    if (argc >= 2 && !strcmp(argv[0], "--subgroup")) {
        S = (unsigned)strtoul(argv[1], NULL, 10);
        if (S != 4 && S != 8 && S != 16 && S != 32 && S != 64) {
            fprintf(stderr, "--subgroup %s: 4, 8, 16, 32 or 64\n", argv[1]);
            return 1;
        }
        argc -= 2;
        argv += 2;
    }
    mkdir(dir, 0777);
    char list[1024];
    snprintf(list, sizeof list, "%s/glsl.txt", dir);
    FILE *lf = fopen(list, "w");
    if (!lf)
        return 1;
    int bad = 0;
    for (int a = 0; a < argc; a++) {
        char name[64];
        unsigned groups = 0;
        if (sscanf(argv[a], "%63[^=]=%u", name, &groups) != 2 || !groups) {
            fprintf(stderr, "%s: want NAME=GROUPS\n", argv[a]);
            bad = 1;
            continue;
        }
        const shader *sh0 = NULL;
        for (size_t i = 0; i < sizeof wlt_aco_shaders / sizeof wlt_aco_shaders[0]; i++)
            if (!strcmp(wlt_aco_shaders[i].name, name))
                sh0 = &wlt_aco_shaders[i];
        if (!sh0) {
            fprintf(stderr, "%s: no such shader\n", name);
            bad = 1;
            continue;
        }
        /* the work-group size, from the wave64 dump's launch facts */
        char path[512];
        words_file wf;
        snprintf(path, sizeof path, "%s/%s.w64.words", ACO_DIR, name);
        if (read_words(path, &wf) || !wf.have_local) {
            bad = 1;
            continue;
        }
        free(wf.code);
        uint64_t local = (uint64_t)wf.local[0] * wf.local[1] * wf.local[2];
        for (int wave_grid = 0; wave_grid <= 1; wave_grid++) {
            shader sh = *sh0;
            sh.groups = wave_grid ? (groups / 16 ? groups / 16 : 1) : groups;
            const char *gtag = wave_grid ? "wave" : "lanes";
            uint64_t items = local * sh.groups;
            uint64_t in_bytes = items * 4, out_bytes = ((uint64_t)wlt_aco_out_words(&sh, items) * 4 + 15) & ~15ull;
            char in[64], ref[64], tag[128];
            snprintf(in, sizeof in, "../in.%llu", (unsigned long long)in_bytes);
            snprintf(ref, sizeof ref, "../native.glsl_%s.%s.bin", sh.name, gtag);
            snprintf(tag, sizeof tag, "glsl_%s.native.%s", sh.name, gtag);
            bad |= native_bundle(dir, tag, &sh, in_bytes, out_bytes, in, ref);
            fprintf(lf, "glsl_%s %s %s %u %llu\n", sh.name, tag, gtag, sh.groups, (unsigned long long)in_bytes);
            for (unsigned W = 64; W >= 32; W /= 2) {
                snprintf(path, sizeof path, "%s/%s.w%u.words", ACO_DIR, sh.name, W);
                if (access(path, R_OK) != 0 || read_words(path, &wf))
                    continue;
                int model = wave_grid ? WL_MODEL_WAVE : WL_MODEL_LANES;
                if (!(model == WL_MODEL_WAVE && sh.no_wave) && !(model == WL_MODEL_LANES && S > W)) {
                    snprintf(tag, sizeof tag, "glsl_%s.w%u.%s", sh.name, W, gtag);
                    if (!lifted_bundle(dir, tag, &sh, &wf, W, S, model, fused, in_bytes, out_bytes, in, ref))
                        fprintf(lf, "glsl_%s %s %s %u %llu\n", sh.name, tag, gtag, sh.groups,
                                (unsigned long long)in_bytes);
                }
                free(wf.code);
            }
        }
    }
    fclose(lf);
    return bad;
}

/* ---- tests ----------------------------------------------------------------- */

static void replay(void **state)
{
    (void)state;
    static const unsigned sizes[] = {8, 16};
    assert_int_equal(wlt_run_children(sizes, sizeof sizes / sizeof sizes[0]), 0);
}

/* Shaders with image instructions lift (frontend/lift/lift_mem_img.c):
 * image.comp (storage image loads and stores, samples with explicit LOD
 * and gradients, texel fetch, image atomics) and atomics.comp (image
 * atomics on an r32ui storage image). Not run here: the harness gives no
 * T#. */
static void image_shaders_lift(void **state)
{
    (void)state;
    static const char *const files[] = {"image.w64", "image.w32", "atomics.w64", "atomics.w32"};
    static const shader any = {"image", 1, 0, 0, 0, NULL};
    int as_expected = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[512], err[1024] = "";
        snprintf(path, sizeof path, "%s/%s.words", ACO_DIR, files[i]);
        words_file wf;
        assert_int_equal(read_words(path, &wf), 0);
        wl_lift_program p;
        fill_program(&p, &wf, &any, strstr(files[i], "w32") ? 32 : 64);
        LLVMContextRef ctx = LLVMContextCreate();
        LLVMModuleRef m = NULL;
        wl_status st = wl_lift(ctx, &p, &m, err, sizeof err);
        if (m)
            LLVMDisposeModule(m);
        LLVMContextDispose(ctx);
        free(wf.code);
        printf("%-12s: %s %s\n", files[i], st == WL_OK ? "lifted" : "NOT LIFTED:", st == WL_OK ? "" : err);
        as_expected += st == WL_OK;
    }
    printf("%d of 4 image shaders lifted\n", as_expected);
    assert_int_equal(as_expected, 4);
}

int main(int argc, char **argv)
{
    wlt_use_lavapipe(0);
    if (argc == 3 && strcmp(argv[1], "--child") == 0)
        return child_main((unsigned)strtoul(argv[2], NULL, 10));
    if (argc >= 3 && strcmp(argv[1], "--write-bundles") == 0)
        return write_bundles(argv[2], argc - 3, argv + 3);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(image_shaders_lift),
        cmocka_unit_test(replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
