/* wl_translate_options_for_host (include/wavelift/translate.h): a host's
 * description (wavelift/host.h) as translate options, and the model. */
#include <stdio.h>
#include <string.h>

#include "wavelift/translate.h"
#include "lower/options.h"

/* The subgroup size for a wave of W lanes: the one asked for; else the
 * host's default where it divides W; else the largest size it offers (a
 * power of two from max down to min) that does; else the default. */
static unsigned pick_size(const wl_host *h, unsigned W, unsigned asked)
{
    if (asked)
        return asked;
    unsigned S = h->subgroup_size;
    if (S && S <= W && W % S == 0)
        return S;
    for (unsigned s = h->max_subgroup_size; s >= 4 && s >= h->min_subgroup_size; s /= 2)
        if (s <= W && W % s == 0 && (s & (s - 1)) == 0)
            return s;
    return S;
}

wl_status wl_translate_options_for_host(const wl_host *h, unsigned W, wl_translate_options *caller, char *why,
                                        size_t whycap)
{
    /* this version's options; only the caller's struct_size bytes go back */
    wl_translate_options full, *o = &full;
    if (!h || !W || h->struct_size < sizeof *h || !wl_translate_options_read(caller, &full) ||
        (o->model != WL_MODEL_AUTO && o->model != WL_MODEL_LANES && o->model != WL_MODEL_WAVE))
        return WL_ERR_USAGE;
    char tmp[8];
    if (!why || !whycap) {
        why = tmp;
        whycap = sizeof tmp;
    }
    unsigned S = pick_size(h, W, o->subgroup_size);
    unsigned lo = h->min_subgroup_size ? h->min_subgroup_size : h->subgroup_size;
    unsigned hi = h->max_subgroup_size ? h->max_subgroup_size : h->subgroup_size;
    if (o->model != WL_MODEL_AUTO) {
        snprintf(why, whycap, "asked for");
    } else if (S < 4) {
        o->model = WL_MODEL_WAVE;
        snprintf(why, whycap, "auto: a host subgroup of %u is under 4 lanes: one invocation a wave", S);
    } else if (S > W || W % S) {
        o->model = WL_MODEL_WAVE;
        snprintf(why, whycap, "auto: a host subgroup of %u cannot carry a wave of %u: one invocation a wave", S, W);
    } else if (S < lo || S > hi) {
        o->model = WL_MODEL_WAVE;
        snprintf(why, whycap, "auto: the device offers subgroups of %u to %u, not %u: one invocation a wave", lo, hi,
                 S);
    } else {
        o->model = WL_MODEL_LANES;
        snprintf(why, whycap, "auto: a host subgroup of %u carries the wave of %u, %u lanes an invocation", S, W,
                 W / S);
    }
    o->subgroup_size = S;
    o->force_merge_stores = !h->storage_8bit_16bit;
    o->force_atomic64_lock = !h->buffer_int64_atomics;
    o->force_lds_atomic64_lock = !h->shared_int64_atomics;
    o->lds_limit = h->shared_memory_bytes;
    o->loop_iteration_limit = h->loop_iteration_limit;
    o->maximal_reconvergence = h->maximal_reconvergence != 0;
    o->fused_fma = h->fused_fma;
    uint32_t n = caller->struct_size;
    memcpy(caller, o, n < sizeof full ? n : sizeof full);
    caller->struct_size = n;
    return WL_OK;
}
