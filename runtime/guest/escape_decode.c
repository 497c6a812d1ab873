/* Escapes as data (wavelift/guest.h, docs/escapes.md): the status words
 * decoded, and each kind's name. Plain C; the runtime's wl_rt_escape_check
 * reads the words from its buffer and decodes them here. */
#include "wavelift/guest.h"

#include <string.h>

const char *wl_rt_escape_name(uint32_t kind)
{
    switch (kind) {
    case WL_RT_ESC_ADDRESS:
        return "address outside the mapping";
    case WL_RT_ESC_MERGE_ROUNDS:
        return "sub-word store merge rounds exhausted";
    case WL_RT_ESC_LOOP_BUDGET:
        return "loop budget exhausted";
    case WL_RT_ESC_UNALIGNED64:
        return "unaligned 64-bit LDS atomic";
    case WL_RT_ESC_INSTRUCTION:
        return "instruction translated as an escape";
    case WL_RT_ESC_APERTURE:
        return "flat access into an unhandled aperture";
    default:
        return "unknown escape kind";
    }
}

uint32_t wl_rt_escape_decode(const uint32_t *w, wl_rt_escape *e)
{
    wl_rt_escape tmp;
    if (!e)
        e = &tmp;
    memset(e, 0, sizeof *e);
    if (!w)
        return 0;
    e->kind = w[0];
    e->guest_offset = w[1];
    e->lane = w[2];
    e->group_x = w[3];
    e->address = (uint64_t)w[5] << 32 | w[4];
    return e->kind;
}
