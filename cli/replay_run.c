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
#include "options.h"
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

const char *replay_mapping_name(replay_mapping m)
{
    switch (m) {
    case REPLAY_MAP_WINDOW: return "window";
    case REPLAY_MAP_PAGES: return "pages";
    case REPLAY_MAP_IDENTITY: return "identity";
    default: return "auto";
    }
}

#define PAGE ((uint64_t)1 << WL_RT_PT_PAGE_BITS)
#define A48(a) ((a) & WL_CAPTURE_ADDRESS_MASK)

/* Everything one replay holds on the device; freed by release(). The
 * ranges lie in host buffers ("blocks"): one window, one block a run of
 * ranges sharing 64 KiB pages, or (identity) one arena. */
typedef struct replay_state {
    wl_rt *rt;
    wl_rt_buffer **blk; /* per block */
    uint64_t *blk_guest, *blk_size; /* the block's first guest address (48 bits) and bytes */
    size_t nblk;
    int *rblk;           /* per range: its block */
    uint64_t *roff;      /* per range: its offset in the block */
    size_t *order;       /* the ranges by guest address (identity: as listed) */
    wl_rt_buffer *status, *scratch, *lds, *table;
    wl_rt_pipeline *pipe;
    uint64_t *host;      /* per range: the host address of its first byte */
    uint8_t **copy;
    uint32_t *words;
} replay_state;

static void release(replay_state *s)
{
    for (size_t i = 0; i < s->nblk; i++)
        if (s->blk && s->blk[i])
            wl_rt_buffer_destroy(s->rt, s->blk[i]);
    wl_rt_buffer *own[4] = {s->status, s->scratch, s->lds, s->table};
    for (int i = 0; i < 4; i++)
        if (own[i])
            wl_rt_buffer_destroy(s->rt, own[i]);
    if (s->pipe)
        wl_rt_pipeline_destroy(s->rt, s->pipe);
    free(s->blk);
    free(s->blk_guest);
    free(s->blk_size);
    free(s->rblk);
    free(s->roff);
    free(s->order);
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

/* s->order: the ranges by guest address (48 bits), an insertion sort
 * (at most WL_CAPTURE_MAX_RANGES). */
static void sort_ranges(const wl_capture *c, size_t *order)
{
    for (size_t i = 0; i < c->nranges; i++) {
        size_t j = i, v = i;
        while (j > 0 && A48(c->ranges[order[j - 1]].address) > A48(c->ranges[v].address)) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = v;
    }
}

static int add_block(replay_state *s, uint64_t guest, uint64_t size)
{
    s->blk_guest[s->nblk] = guest;
    s->blk_size[s->nblk] = size;
    return (int)s->nblk++;
}

/* Lays the ranges out in blocks (no device work yet): which mapping, each
 * range's block and offset. Returns 0 or an exit status. */
static int plan(replay_state *s, const wl_capture *c, replay_mapping want, replay_result *res)
{
    size_t n = c->nranges, cap = n ? n : 1;
    s->blk = calloc(cap, sizeof(*s->blk));
    s->blk_guest = calloc(cap, sizeof(uint64_t));
    s->blk_size = calloc(cap, sizeof(uint64_t));
    s->rblk = calloc(cap, sizeof(int));
    s->roff = calloc(cap, sizeof(uint64_t));
    s->order = calloc(cap, sizeof(size_t));
    s->host = calloc(cap, sizeof(uint64_t));
    s->copy = calloc(cap, sizeof(uint8_t *));
    if (!s->blk || !s->blk_guest || !s->blk_size || !s->rblk || !s->roff || !s->order || !s->host ||
        !s->copy)
        return EXIT_BAD_INPUT;
    if (n == 0) { /* nothing mapped: every address escapes */
        res->mapping = want == REPLAY_MAP_PAGES ? REPLAY_MAP_PAGES : REPLAY_MAP_WINDOW;
        snprintf(res->mapping_desc, sizeof(res->mapping_desc), "%s, no ranges: nothing mapped",
                 replay_mapping_name(res->mapping));
        return 0;
    }
    sort_ranges(c, s->order);
    uint64_t lo = A48(c->ranges[s->order[0]].address), hi = 0;
    for (size_t i = 0; i < n; i++) {
        const wl_capture_range *r = &c->ranges[i];
        if (A48(r->address) + r->size > hi)
            hi = A48(r->address) + r->size;
    }
    if (want == REPLAY_MAP_IDENTITY) {
        /* one arena, the ranges 256 bytes apart as listed: relocated */
        uint64_t at = 0;
        add_block(s, 0, 0);
        for (size_t i = 0; i < n; i++) {
            s->order[i] = i;
            s->rblk[i] = 0;
            s->roff[i] = at;
            at = (at + c->ranges[i].size + 255) & ~255ull;
        }
        s->blk_size[0] = padded(at);
        res->mapping = REPLAY_MAP_IDENTITY;
        snprintf(res->mapping_desc, sizeof(res->mapping_desc),
                 "identity (%zu ranges relocated into one %llu-byte arena)", n,
                 (unsigned long long)s->blk_size[0]);
        return 0;
    }
    uint64_t base = lo & ~15ull, span = padded(hi - base);
    if (want == REPLAY_MAP_AUTO) {
        /* the window where the ranges' pages follow each other (no whole
         * unmapped 64 KiB page between two ranges) and span at most
         * REPLAY_WINDOW_AUTO; else the page table, which leaves such pages
         * unmapped */
        int one_run = 1;
        for (size_t k = 1; k < n; k++) {
            const wl_capture_range *p = &c->ranges[s->order[k - 1]], *q = &c->ranges[s->order[k]];
            uint64_t pend = (A48(p->address) + p->size + PAGE - 1) & ~(PAGE - 1);
            one_run &= (A48(q->address) & ~(PAGE - 1)) <= pend;
        }
        want = one_run && span <= REPLAY_WINDOW_AUTO ? REPLAY_MAP_WINDOW : REPLAY_MAP_PAGES;
    }
    res->mapping = want;
    if (want == REPLAY_MAP_WINDOW) {
        if (span > REPLAY_WINDOW_MAX) {
            fprintf(stderr, "wavelift: replay: --mapping window: the ranges span %llu bytes "
                            "(0x%llx to 0x%llx), more than one window of %llu: use --mapping pages\n",
                    (unsigned long long)(hi - lo), (unsigned long long)lo, (unsigned long long)hi,
                    (unsigned long long)REPLAY_WINDOW_MAX);
            return EXIT_BAD_INPUT;
        }
        add_block(s, base, span);
        for (size_t i = 0; i < n; i++)
            s->roff[i] = A48(c->ranges[i].address) - base;
        snprintf(res->mapping_desc, sizeof(res->mapping_desc),
                 "window, guest 0x%llx + %llu bytes, %zu ranges", (unsigned long long)base,
                 (unsigned long long)span, n);
        return 0;
    }
    /* pages: runs of ranges whose 64 KiB pages touch share one block */
    for (size_t k = 0; k < n; k++) {
        size_t i = s->order[k];
        uint64_t a = A48(c->ranges[i].address), plo = a & ~(PAGE - 1);
        uint64_t phi = (a + c->ranges[i].size + PAGE - 1) & ~(PAGE - 1);
        int b = (int)s->nblk - 1;
        if (b < 0 || plo > s->blk_guest[b] + s->blk_size[b])
            b = add_block(s, plo, 0);
        if (phi > s->blk_guest[b] + s->blk_size[b])
            s->blk_size[b] = phi - s->blk_guest[b];
        s->rblk[i] = b;
        s->roff[i] = a - s->blk_guest[b];
    }
    snprintf(res->mapping_desc, sizeof(res->mapping_desc),
             "pages, %zu ranges in %zu runs of 64 KiB pages", n, s->nblk);
    return 0;
}

/* The blocks on the device with the ranges' bytes (identity: relocated),
 * the rest zero; the mapping's words into push. */
static int place_ranges(replay_state *s, const wl_capture *c, uint32_t *sgpr,
                        uint8_t push[WL_PUSH_BYTES], replay_mapping m)
{
    size_t n = c->nranges;
    for (size_t b = 0; b < s->nblk; b++)
        if (!s->blk[b] && wl_rt_buffer_create(s->rt, s->blk_size[b], &s->blk[b]) != WL_RT_OK)
            return rt_fail(s->rt, "guest memory");
    for (size_t i = 0; i < n; i++) {
        s->host[i] = wl_rt_buffer_address(s->blk[s->rblk[i]]) + s->roff[i];
        s->copy[i] = c->ranges[i].data;
    }
    memset(sgpr, 0, WL_CAPTURE_MAX_USER_SGPRS * 4);
    memcpy(sgpr, c->user_sgpr, (size_t)c->user_sgpr_count * 4);
    uint8_t **rel = NULL;
    char err[512];
    if (m == REPLAY_MAP_IDENTITY) {
        if (!(rel = calloc(n ? n : 1, sizeof(*rel))))
            return EXIT_BAD_INPUT;
        int rc = 0;
        for (size_t i = 0; i < n && !rc; i++)
            if (!(rel[i] = malloc(c->ranges[i].size)))
                rc = EXIT_BAD_INPUT;
            else
                memcpy(rel[i], c->ranges[i].data, c->ranges[i].size);
        if (!rc && wl_capture_relocate(c, s->host, sgpr, rel, err, sizeof(err)) != WL_OK) {
            fprintf(stderr, "wavelift: replay: --mapping identity: %s\n", err);
            rc = EXIT_REFUSED;
        }
        for (size_t i = 0; i < n; i++)
            s->copy[i] = rel[i];
        if (rc) {
            for (size_t i = 0; i < n; i++)
                free(rel[i]);
            free(rel);
            memset(s->copy, 0, n * sizeof(*s->copy));
            return rc;
        }
    }
    int rc = 0;
    for (size_t b = 0; b < s->nblk && !rc; b++) {
        uint8_t *img = calloc(1, s->blk_size[b]);
        if (!img) {
            rc = EXIT_BAD_INPUT;
            break;
        }
        for (size_t i = 0; i < n; i++)
            if (s->rblk[i] == (int)b)
                memcpy(img + s->roff[i], s->copy[i], c->ranges[i].size);
        if (wl_rt_buffer_upload(s->rt, s->blk[b], 0, img, s->blk_size[b]) != WL_RT_OK)
            rc = rt_fail(s->rt, "guest memory upload");
        free(img);
    }
    if (rel) {
        for (size_t i = 0; i < n; i++)
            free(rel[i]);
        free(rel);
        memset(s->copy, 0, n * sizeof(*s->copy));
    }
    if (rc)
        return rc;
    uint32_t mw[WL_RT_MAPPING_WORDS];
    if (m == REPLAY_MAP_PAGES) {
        wl_rt_mapping *pr = calloc(s->nblk ? s->nblk : 1, sizeof(*pr));
        if (!pr)
            return EXIT_BAD_INPUT;
        for (size_t b = 0; b < s->nblk; b++)
            pr[b] = (wl_rt_mapping){s->blk_guest[b], s->blk_size[b], wl_rt_buffer_address(s->blk[b])};
        wl_rt_status st = wl_rt_pagetable_create(s->rt, pr, s->nblk, WL_RT_PT_MAX_LEAVES, &s->table, mw);
        free(pr);
        if (st != WL_RT_OK)
            return rt_fail(s->rt, "page table");
    } else {
        /* the window at the ranges' guest addresses; identity: the arena at
         * its own host address, so that only the arena is reached */
        wl_rt_mapping map = {0, 0, 0};
        if (s->nblk) {
            uint64_t h = wl_rt_buffer_address(s->blk[0]);
            map = (wl_rt_mapping){m == REPLAY_MAP_IDENTITY ? h : s->blk_guest[0], s->blk_size[0], h};
        }
        if (wl_rt_mapping_encode(&map, mw) != WL_RT_OK) {
            fprintf(stderr, "wavelift: replay: the guest mapping {0x%llx, %llu bytes, host 0x%llx} "
                            "cannot be encoded\n", (unsigned long long)map.guest_base,
                    (unsigned long long)map.size, (unsigned long long)map.host_base);
            return EXIT_BAD_INPUT;
        }
    }
    memcpy(push + WL_PUSH_MAP_OFFSET, mw, sizeof mw);
    return 0;
}

/* After the dispatch: each range's bytes (identity: guest addresses put
 * back), and the first non-zero byte between ranges, which only a store
 * outside every range can have written. */
static int read_back(replay_state *s, const wl_capture *c, replay_mapping m, replay_result *res)
{
    for (size_t b = 0; b < s->nblk; b++) {
        uint8_t *img = malloc(s->blk_size[b]);
        if (!img)
            return EXIT_BAD_INPUT;
        if (wl_rt_buffer_download(s->rt, s->blk[b], 0, img, s->blk_size[b]) != WL_RT_OK) {
            free(img);
            return rt_fail(s->rt, "guest memory");
        }
        uint64_t pos = 0;
        for (size_t k = 0; k <= c->nranges; k++) {
            size_t i = k < c->nranges ? s->order[k] : 0;
            if (k < c->nranges && s->rblk[i] != (int)b)
                continue;
            uint64_t end = k < c->nranges ? s->roff[i] : s->blk_size[b];
            for (uint64_t x = pos; x < end && !res->outside_bytes; x++)
                if (img[x]) {
                    res->outside_address = (m == REPLAY_MAP_IDENTITY
                                                ? wl_rt_buffer_address(s->blk[b]) : s->blk_guest[b]) + x;
                    uint64_t y = x;
                    while (y < end && img[y])
                        y++;
                    res->outside_bytes = y - x;
                }
            if (k == c->nranges)
                break;
            memcpy(res->bytes[i], img + s->roff[i], c->ranges[i].size);
            if (m == REPLAY_MAP_IDENTITY)
                wl_capture_unrelocate(c, s->host, i, res->bytes[i]);
            pos = s->roff[i] + c->ranges[i].size;
        }
        free(img);
    }
    return 0;
}

static int translate(replay_state *s, const wl_capture *c, replay_model model,
                     const replay_opts *o, replay_result *res, wl_translate_info *info,
                     uint64_t arena_host)
{
    wl_rt_probe_fma(s->rt); /* once a context: is the device's Fma fused */
    const wl_host_profile *hp = wl_rt_profile(s->rt);
    char err[2048];
    wl_lift_program prog;
    if (wl_capture_lift_program(c, &prog, err, sizeof(err)) != WL_OK) {
        fprintf(stderr, "wavelift: replay: %s\n", err);
        return EXIT_BAD_INPUT;
    }
    /* through the guest mapping the code keeps its guest address (s_getpc
     * reaches the range holding it, if any); through the identity mapping
     * the host address of its range's copy */
    uint64_t code_host;
    if (res->mapping == REPLAY_MAP_IDENTITY) {
        for (size_t i = 0; i < c->nranges; i++)
            s->host[i] = arena_host + s->roff[i];
        if (wl_capture_code_host_address(c, s->host, &code_host))
            prog.address = code_host;
    }
    unsigned S = o->subgroup ? o->subgroup : hp->subgroup_size;
    wl_translate_options t = {.struct_size = sizeof(wl_translate_options), 
        .subgroup_size = S,
        .local_size = {c->local[0], c->local[1], c->local[2]},
        .opt_level = o->opt_level,
        .validate = 1,
        .mapping_pages = res->mapping == REPLAY_MAP_PAGES,
        .state_in_buffer = o->state_in_buffer,
    };
    cli_host_options(hp, &t);
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
    if ((rc = plan(&s, c, o->mapping, res)))
        goto out;
    /* the identity mapping's arena first: the code's host address goes
     * into the translation */
    if (res->mapping == REPLAY_MAP_IDENTITY &&
        wl_rt_buffer_create(rt, s.blk_size[0], &s.blk[0]) != WL_RT_OK) {
        rc = rt_fail(rt, "guest memory");
        goto out;
    }
    if ((rc = translate(&s, c, model, o, res, &info,
                        s.nblk && s.blk[0] ? wl_rt_buffer_address(s.blk[0]) : 0)) ||
        (rc = own_buffers(&s, c, &info, push)))
        goto out;
    if ((rc = place_ranges(&s, c, sgpr, push, res->mapping)))
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
        .state_in_buffer = o->state_in_buffer,
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
    if (wl_rt_escape_check(rt, s.status, NULL) == WL_RT_ERR_ESCAPE)
        snprintf(res->escape, sizeof(res->escape), "%s", wl_rt_error(rt));
    res->nranges = c->nranges;
    if (!(res->bytes = calloc(c->nranges ? c->nranges : 1, sizeof(*res->bytes)))) {
        rc = EXIT_BAD_INPUT;
        goto out;
    }
    for (size_t i = 0; i < c->nranges; i++)
        if (!(res->bytes[i] = malloc(c->ranges[i].size))) {
            rc = EXIT_BAD_INPUT;
            goto out;
        }
    if ((rc = read_back(&s, c, res->mapping, res)))
        goto out;
    if (o->runs > 1 && !res->status[0] && !res->outside_bytes) {
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
