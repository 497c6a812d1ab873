/* One model's replay of a capture (replay.h): host buffers for the
 * capture's ranges with the address fields relocated, the translation, the
 * translation's own buffers (status words, scratch, device-memory LDS), one
 * dispatch whose results are kept, then runs - 1 warm dispatches that are
 * only timed.
 *
 * THE MODEL HOOK: set_model() below is the only place that knows how a
 * model reaches the translator. It uses wl_translate_options.model when
 * translate.h defines WL_MODEL_WAVE (the wave model, issue 5); in a tree
 * without it the wave model is refused by name. */
#include "replay.h"

#include "wavelift/translate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STATUS_BYTES 256

const char *replay_model_name(replay_model m)
{
    return m == REPLAY_WAVE ? "wave" : m == REPLAY_LANES ? "lanes" : "auto";
}

replay_model replay_choose_model(const wl_host_profile *hp, unsigned wave, unsigned subgroup,
                                 char *why, size_t whycap)
{
    /* the rule `run --model auto` uses (cli/args.c) */
    unsigned S = subgroup ? subgroup : hp->subgroup_size;
    unsigned smin = hp->subgroup_size_control ? hp->min_subgroup_size : hp->subgroup_size;
    unsigned smax = hp->subgroup_size_control ? hp->max_subgroup_size : hp->subgroup_size;
    return cli_choose_model(CLI_MODEL_AUTO, wave, S, smin, smax, why, whycap) == 1 ? REPLAY_WAVE
                                                                                  : REPLAY_LANES;
}

static int set_model(wl_translate_options *t, replay_model m)
{
#ifdef WL_MODEL_WAVE
    t->model = m == REPLAY_WAVE ? WL_MODEL_WAVE : WL_MODEL_LANES;
    return 0;
#else
    (void)t;
    if (m == REPLAY_WAVE) {
        fprintf(stderr, "wavelift: replay: refused: the wave model is not built in this tree "
                        "(wl_translate_options has no model field; cli/replay_run.c set_model)\n");
        return EXIT_REFUSED;
    }
    return 0;
#endif
}

void replay_result_free(replay_result *res)
{
    if (res->bytes)
        for (size_t i = 0; i < res->nranges; i++)
            free(res->bytes[i]);
    free(res->bytes);
    res->bytes = NULL;
}

/* Everything one replay holds on the device; freed by release(). */
typedef struct replay_state {
    wl_rt *rt;
    wl_rt_buffer **buf; /* per range */
    size_t nbuf;
    wl_rt_buffer *status, *scratch, *lds;
    wl_rt_pipeline *pipe;
    uint64_t *host;
    uint8_t **copy;
    uint32_t *words;
} replay_state;

static void release(replay_state *s)
{
    for (size_t i = 0; i < s->nbuf; i++) {
        if (s->buf[i])
            wl_rt_buffer_destroy(s->rt, s->buf[i]);
        if (s->copy)
            free(s->copy[i]);
    }
    if (s->status)
        wl_rt_buffer_destroy(s->rt, s->status);
    if (s->scratch)
        wl_rt_buffer_destroy(s->rt, s->scratch);
    if (s->lds)
        wl_rt_buffer_destroy(s->rt, s->lds);
    if (s->pipe)
        wl_rt_pipeline_destroy(s->rt, s->pipe);
    free(s->buf);
    free(s->host);
    free(s->copy);
    free(s->words);
}

static int rt_fail(wl_rt *rt, const char *what)
{
    fprintf(stderr, "wavelift: replay: %s: %s\n", what, wl_rt_error(rt));
    return EXIT_BAD_INPUT;
}

static uint64_t padded(uint64_t n)
{
    return n < 16 ? 16 : (n + 15) & ~(uint64_t)15;
}

/* The ranges as host buffers holding their relocated bytes. */
static int place_ranges(replay_state *s, const wl_capture *c, uint32_t *sgpr)
{
    size_t n = c->nranges;
    s->buf = calloc(n ? n : 1, sizeof(*s->buf));
    s->host = calloc(n ? n : 1, sizeof(*s->host));
    s->copy = calloc(n ? n : 1, sizeof(*s->copy));
    if (!s->buf || !s->host || !s->copy)
        return EXIT_BAD_INPUT;
    s->nbuf = n;
    for (size_t i = 0; i < n; i++) {
        const wl_capture_range *r = &c->ranges[i];
        if (wl_rt_buffer_create(s->rt, padded(r->size), &s->buf[i]) != WL_RT_OK)
            return rt_fail(s->rt, r->name);
        s->host[i] = wl_rt_buffer_address(s->buf[i]);
        if (!(s->copy[i] = malloc(r->size)))
            return EXIT_BAD_INPUT;
        memcpy(s->copy[i], r->data, r->size);
    }
    char err[512];
    if (wl_capture_relocate(c, s->host, sgpr, s->copy, err, sizeof(err)) != WL_OK) {
        fprintf(stderr, "wavelift: replay: %s\n", err);
        return EXIT_BAD_INPUT;
    }
    for (size_t i = 0; i < n; i++)
        if (wl_rt_buffer_upload(s->rt, s->buf[i], 0, s->copy[i], c->ranges[i].size) != WL_RT_OK)
            return rt_fail(s->rt, c->ranges[i].name);
    return 0;
}

static int translate(replay_state *s, const wl_capture *c, replay_model model,
                     const replay_opts *o, replay_result *res, wl_translate_info *info)
{
    const wl_host_profile *hp = wl_rt_profile(s->rt);
    char err[2048];
    wl_lift_program prog;
    if (wl_capture_lift_program(c, &prog, err, sizeof(err)) != WL_OK) {
        fprintf(stderr, "wavelift: replay: %s\n", err);
        return EXIT_BAD_INPUT;
    }
    uint64_t code_host;
    if (wl_capture_code_host_address(c, s->host, &code_host))
        prog.address = code_host; /* s_getpc then reaches the range's copy */
    unsigned S = o->subgroup ? o->subgroup : hp->subgroup_size;
    wl_translate_options t = {
        .subgroup_size = S,
        .local_size = {c->local[0], c->local[1], c->local[2]},
        .opt_level = o->opt_level,
        .validate = 1,
        .force_merge_stores = !hp->storage_buffer_8bit_access || !hp->storage_buffer_16bit_access,
        .force_atomic64_lock = !hp->shader_buffer_int64_atomics,
        .lds_limit = hp->max_compute_shared_memory_size, /* device-memory LDS beyond it */
        .force_lds_atomic64_lock = !hp->shader_shared_int64_atomics,
    };
    int rc = set_model(&t, model);
    if (rc)
        return rc;
    size_t nwords = 0;
    memset(info, 0, sizeof(*info));
    wl_status st = wl_translate(&prog, &t, &s->words, &nwords, info, err, sizeof(err));
    if (st != WL_OK) {
        fprintf(stderr, "wavelift: replay (%s model): %s: %s\n", replay_model_name(model),
                st == WL_ERR_UNSUPPORTED ? "refused" : "translation failed", err);
        return st == WL_ERR_UNSUPPORTED ? EXIT_REFUSED : EXIT_BAD_INPUT;
    }
    res->words = nwords;
    res->ms_translate = info->ms_total;
    res->subgroup = model == REPLAY_LANES ? S : 0;
    res->k = model == REPLAY_LANES ? info->lanes_per_invocation : 0;
    return 0;
}

/* Status words, scratch and device-memory LDS, as cli/launch.c makes them. */
static int own_buffers(replay_state *s, const wl_capture *c, const wl_translate_info *info,
                       uint8_t push[WL_PUSH_BYTES])
{
    uint64_t groups = (uint64_t)c->groups[0] * c->groups[1] * c->groups[2];
    if (wl_rt_buffer_create(s->rt, STATUS_BYTES, &s->status) != WL_RT_OK)
        return rt_fail(s->rt, "status buffer");
    if (info->scratch_bytes_per_invocation) {
        uint64_t inv = (uint64_t)info->host_local_size[0] * info->host_local_size[1] *
                       info->host_local_size[2] * groups;
        if (wl_rt_buffer_create(s->rt, padded(inv * info->scratch_bytes_per_invocation),
                                &s->scratch) != WL_RT_OK)
            return rt_fail(s->rt, "scratch buffer");
        uint64_t base = wl_rt_buffer_address(s->scratch);
        uint32_t stride = info->scratch_bytes_per_invocation;
        memcpy(push + WL_PUSH_SCRATCH_BASE_OFFSET, &base, 8);
        memcpy(push + WL_PUSH_SCRATCH_STRIDE_OFFSET, &stride, 4);
    }
    if (info->bindings & (1u << WL_RT_BINDING_LDS)) {
        /* device-memory LDS: one slice a workgroup (lower.h) */
        if (wl_rt_buffer_create(s->rt, padded(WL_LDS_SLICE_BYTES(c->lds_bytes) * groups), &s->lds) != WL_RT_OK)
            return rt_fail(s->rt, "LDS buffer");
    }
    return 0;
}

int replay_run(wl_rt *rt, const wl_capture *c, replay_model model, const replay_opts *o,
               replay_result *res)
{
    memset(res, 0, sizeof(*res));
    res->model = model;
    res->ms_warm = res->ms_first_device = -1;
    replay_state s;
    memset(&s, 0, sizeof(s));
    s.rt = rt;
    uint8_t push[WL_PUSH_BYTES];
    memset(push, 0, sizeof(push));
    uint32_t sgpr[WL_CAPTURE_MAX_USER_SGPRS];
    wl_translate_info info;
    int rc;
    if ((rc = place_ranges(&s, c, sgpr)) || (rc = translate(&s, c, model, o, res, &info)) ||
        (rc = own_buffers(&s, c, &info, push)))
        goto out;
    memcpy(push, sgpr, sizeof(sgpr));

    wl_rt_pipeline_desc pd = {
        .words = s.words, .nwords = res->words,
        .subgroup_size = model == REPLAY_LANES ? res->subgroup : 0,
        .require_full_subgroups = model == REPLAY_LANES,
    };
    if (wl_rt_pipeline_create(rt, &pd, &s.pipe) != WL_RT_OK) {
        rc = rt_fail(rt, "pipeline");
        goto out;
    }
    res->ms_pipeline = wl_rt_pipeline_create_ns(s.pipe) / 1e6;
    wl_rt_dispatch_desc dd = {
        .groups = {c->groups[0], c->groups[1], c->groups[2]},
        .push_constants = push, .push_constant_size = sizeof(push), .runs = 1,
    };
    dd.bindings[WL_RT_BINDING_STATUS] = s.status;
    dd.bindings[WL_RT_BINDING_LDS] = s.lds;
    wl_rt_timing t;
    memset(&t, 0, sizeof(t));
    if (wl_rt_dispatch(rt, s.pipe, &dd, &t) != WL_RT_OK) {
        rc = rt_fail(rt, "dispatch");
        goto out;
    }
    res->ms_first_host = t.host_ns / 1e6;
    if (t.runs)
        res->ms_first_device = t.run_ns[0] / 1e6;
    if (wl_rt_buffer_download(rt, s.status, 0, res->status, sizeof(res->status)) != WL_RT_OK) {
        rc = rt_fail(rt, "status");
        goto out;
    }
    res->nranges = c->nranges;
    if (!(res->bytes = calloc(c->nranges ? c->nranges : 1, sizeof(*res->bytes)))) {
        rc = EXIT_BAD_INPUT;
        goto out;
    }
    for (size_t i = 0; i < c->nranges; i++) {
        if (!(res->bytes[i] = malloc(c->ranges[i].size))) {
            rc = EXIT_BAD_INPUT;
            goto out;
        }
        if (wl_rt_buffer_download(rt, s.buf[i], 0, res->bytes[i], c->ranges[i].size) != WL_RT_OK) {
            rc = rt_fail(rt, c->ranges[i].name);
            goto out;
        }
        wl_capture_unrelocate(c, s.host, i, res->bytes[i]);
    }
    if (o->runs > 1 && !res->status[0]) {
        dd.runs = o->runs - 1;
        memset(&t, 0, sizeof(t));
        if (wl_rt_dispatch(rt, s.pipe, &dd, &t) != WL_RT_OK) {
            rc = rt_fail(rt, "warm dispatch");
            goto out;
        }
        if (t.runs)
            res->ms_warm = t.median_ns / 1e6;
    }
out:
    release(&s);
    return rc;
}
