/* wl_rt_pagetable_create (runtime.h): the paged guest mapping's table,
 * built by runtime/guest/pagetable_build.c (wavelift/guest.h), in a new
 * buffer of the context. */
#include "rt_internal.h"

#include <stdlib.h>

wl_rt_status wl_rt_pagetable_create(wl_rt *rt, const wl_rt_mapping *ranges, size_t n, uint32_t max_leaves,
                                    wl_rt_buffer **out, uint32_t words[WL_RT_MAPPING_WORDS])
{
    if (!rt)
        return WL_RT_ERR_USAGE;
    if (!out || !words)
        return wl_rt_fail(rt, WL_RT_ERR_USAGE, "wl_rt_pagetable_create: out or words is NULL");
    *out = NULL;
    char msg[512] = "";
    uint64_t bytes = wl_rt_pagetable_bytes(ranges, n, max_leaves, msg, sizeof msg);
    if (!bytes)
        return wl_rt_fail(rt, WL_RT_ERR_USAGE, "%s", msg);
    wl_rt_buffer *b = NULL;
    wl_rt_status st = wl_rt_buffer_create(rt, bytes, &b);
    uint8_t *t = NULL;
    if (!st && (st = wl_rt_pagetable_build(ranges, n, max_leaves, wl_rt_buffer_address(b), &t, &bytes, msg,
                                           sizeof msg)))
        wl_rt_fail(rt, st, "%s", msg);
    if (!st)
        st = wl_rt_buffer_upload(rt, b, 0, t, bytes);
    free(t);
    if (!st)
        st = wl_rt_pagetable_encode(wl_rt_buffer_address(b), words);
    if (st) {
        wl_rt_buffer_destroy(rt, b);
        return st;
    }
    *out = b;
    return WL_RT_OK;
}
