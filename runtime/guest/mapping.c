/* The guest mapping's push-constant words (runtime.h, docs/memory.md).
 *
 * A translated module turns a guest address a into a host address as
 *   a48 = a & (2^48 - 1); off = a48 - G; inside: off <= ~F - (n - 1);
 *   host = off + H
 * for an access of n bytes, from three u64 in its push constants (G, F, H at
 * WL_PUSH_MAP_OFFSET of lower.h). F is ~(size - 1) so that all-zero words
 * are the identity over the 48 address bits; no mapping at all is G = 2^48,
 * which every a48 lies below. */
#include "wavelift/guest.h"

#include <string.h>

wl_rt_status wl_rt_mapping_encode(const wl_rt_mapping *m, uint32_t words[WL_RT_MAPPING_WORDS])
{
    uint64_t g, f, h;
    if (!words)
        return WL_RT_ERR_USAGE;
    if (!m) { /* identity */
        g = f = h = 0;
    } else if (m->size == 0) { /* nothing mapped */
        g = 1ull << 48;
        f = ~(1ull << 63);
        h = 0;
    } else {
        const uint64_t top = 1ull << 48;
        if (m->size < 8 || (m->size & 3) || (m->guest_base & 15) || (m->host_base & 15) || m->guest_base >= top ||
            m->size > top - m->guest_base)
            return WL_RT_ERR_USAGE;
        g = m->guest_base;
        f = ~(m->size - 1);
        h = m->host_base;
    }
    uint64_t v[3] = {g, f, h};
    memcpy(words, v, sizeof v);
    return WL_RT_OK;
}
