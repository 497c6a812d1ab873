/* Escapes (D950, docs/escapes.md): reading a dispatch's status buffer and
 * refusing its result by name. */
#include "rt_internal.h"

#include <string.h>

wl_rt_status wl_rt_escape_check(wl_rt *rt, wl_rt_buffer *status, wl_rt_escape *e)
{
    wl_rt_escape tmp;
    if (!e)
        e = &tmp;
    memset(e, 0, sizeof *e);
    if (!rt)
        return WL_RT_ERR_USAGE;
    if (!status || wl_rt_buffer_size(status) < WL_RT_STATUS_BYTES)
        return wl_rt_fail(rt, WL_RT_ERR_USAGE, "wl_rt_escape_check: no status buffer of %d bytes",
                          WL_RT_STATUS_BYTES);
    uint32_t w[6];
    wl_rt_status st = wl_rt_buffer_download(rt, status, 0, w, sizeof w);
    if (st)
        return st;
    if (!wl_rt_escape_decode(w, e))
        return WL_RT_OK;
    if (e->kind == WL_RT_ESC_ADDRESS)
        return wl_rt_fail(rt, WL_RT_ERR_ESCAPE,
                          "refused: escape: %s: address 0x%llx, lane %u, group %u", wl_rt_escape_name(e->kind),
                          (unsigned long long)e->address, e->lane, e->group_x);
    return wl_rt_fail(rt, WL_RT_ERR_ESCAPE, "refused: escape: %s at guest offset 0x%x, lane %u, group %u",
                      wl_rt_escape_name(e->kind), e->guest_offset, e->lane, e->group_x);
}
