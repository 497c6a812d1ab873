/* `wavelift run --pages`: the guest memory through the page table
 * (docs/memory.md "The paged mapping", docs/cli.md).
 *
 * The launch's arena (launch.c: the image ending at CLI_GUEST_BASE, then
 * the arguments, kernarg segment, packet and queue 256 bytes apart) is
 * spread out: every buffer after the image starts on a page of its own
 * with one unmapped 64 KiB page before it, and each buffer is a range of
 * its own, its pages rounded out to 64 KiB. The host memory stays one
 * buffer (the arena, with the bytes before the image's base that round its
 * first page down); the guest sees separate ranges with holes between
 * them, and a kernel reaching past a buffer's last page escapes. */
#include "launch.h"

#include <string.h>

#define PAGE ((uint64_t)1 << WL_RT_PT_PAGE_BITS)

static uint64_t up(uint64_t v)
{
    return (v + PAGE - 1) & ~(PAGE - 1);
}

uint64_t cli_pages_lead(const cli_launch *L)
{
    return L->guest_base & (PAGE - 1);
}

void cli_pages_spread(cli_launch *L)
{
    uint64_t lead = cli_pages_lead(L);
    /* relative to the page below guest_base: the end of what is placed */
    uint64_t end = lead + (L->image >= 0 ? L->buf[L->image].size : 0);
    for (unsigned b = 0; b < L->nbuf; b++) {
        if ((int)b == L->image || L->arena_off[b] == CLI_NOT_IN_ARENA)
            continue;
        uint64_t at = up(end) + PAGE; /* one unmapped page first */
        L->arena_off[b] = at - lead;
        end = at + L->buf[b].size;
    }
    L->arena_bytes = up(end) - lead;
}

size_t cli_pages_ranges(const cli_launch *L, uint64_t arena_address, wl_rt_mapping *r, size_t cap)
{
    uint64_t lead = cli_pages_lead(L), g0 = L->guest_base - lead;
    size_t n = 0;
    for (unsigned b = 0; b < L->nbuf && n < cap; b++) {
        if (L->arena_off[b] == CLI_NOT_IN_ARENA)
            continue;
        uint64_t lo = (L->guest_base + L->arena_off[b]) & ~(PAGE - 1);
        uint64_t hi = up(L->guest_base + L->arena_off[b] + L->buf[b].size);
        r[n++] = (wl_rt_mapping){lo, hi - lo, arena_address + (lo - g0)};
    }
    return n;
}
