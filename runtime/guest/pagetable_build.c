/* The paged guest mapping's table (runtime.h, docs/memory.md "The paged
 * mapping").
 *
 * Two levels over the 48 guest address bits, 64 KiB pages:
 *   root  at byte 0: 2^16 u64, entry r (address bits 47:32) the device
 *         address of the leaf for those 4 GiB; at WL_RT_PT_ROOT_BYTES the
 *         empty leaf (every entry 0: not mapped), which every unused root
 *         entry names (the root holds addresses, not offsets: one add and
 *         one conversion fewer in every access)
 *   leaf  2^16 u64, entry i (bits 31:16): the host device address of the
 *         page's first byte, | WL_RT_PT_VALID, | WL_RT_PT_NEXT where page
 *         + 1 is mapped and its host address is this one's + 64 KiB
 * A module reads one leaf entry per access: the page of the access's first
 * byte; an access crossing into the next page needs WL_RT_PT_NEXT too
 * (lower/memory/helpers/map.ll). The table is bounded by max_leaves: 1 MiB for
 * the root and the empty leaf, plus 512 KiB a leaf. Plain C (wavelift/guest.h):
 * the runtime's wl_rt_pagetable_create uploads what this builds. */
#include "wavelift/guest.h"

#include "guest_internal.h"

#include <stdlib.h>
#include <string.h>

#define PAGE ((uint64_t)1 << WL_RT_PT_PAGE_BITS)
#define TOP ((uint64_t)1 << 48)

static int by_guest(const void *x, const void *y)
{
    const wl_rt_mapping *a = *(const wl_rt_mapping *const *)x, *b = *(const wl_rt_mapping *const *)y;
    return a->guest_base < b->guest_base ? -1 : a->guest_base > b->guest_base;
}

/* the leaf entry of guest page number pg (pg < 2^32) in the table t
 * built for device address base */
static uint64_t *entry(uint8_t *t, uint64_t base, uint64_t pg)
{
    uint64_t leaf;
    memcpy(&leaf, t + 8 * (pg >> 16), 8);
    return (uint64_t *)(void *)(t + (leaf - base)) + (pg & 0xffff);
}

/* Checks one range; 0 when it can be represented. */
static int range_ok(const wl_rt_mapping *m, size_t i, char *err, size_t errcap)
{
    const char *why = NULL;
    if (m->size == 0)
        why = "size 0";
    else if ((m->guest_base | m->size) & (PAGE - 1))
        why = "guest_base and size must be multiples of the 64 KiB page";
    else if (m->guest_base >= TOP || m->size > TOP - m->guest_base)
        why = "the range passes 2^48";
    else if (m->host_base & 15)
        why = "host_base must be a multiple of 16";
    else if (m->host_base + m->size < m->host_base)
        why = "host_base + size wraps";
    if (!why)
        return 1;
    wl_rt_format_err(err, errcap, "page table: range %zu (guest 0x%llx, 0x%llx bytes, host 0x%llx) refused: %s", i,
                     (unsigned long long)m->guest_base, (unsigned long long)m->size,
                     (unsigned long long)m->host_base, why);
    return 0;
}

/* Checks the ranges and counts the leaves; sorted (malloc'ed, by guest
 * base) when out is not NULL. 0 leaves and a message where refused
 * (*st says why); the empty leaf is not counted. */
static uint64_t plan(const wl_rt_mapping *ranges, size_t n, uint32_t max_leaves, const wl_rt_mapping ***out,
                     wl_rt_status *st, char *err, size_t errcap)
{
    *st = WL_RT_ERR_USAGE;
    if (n && !ranges) {
        wl_rt_format_err(err, errcap, "page table: no ranges");
        return 0;
    }
    if (!max_leaves)
        max_leaves = WL_RT_PT_MAX_LEAVES_DEFAULT;
    if (max_leaves > WL_RT_PT_MAX_LEAVES) {
        wl_rt_format_err(err, errcap, "page table: max_leaves %u above %u", max_leaves, (unsigned)WL_RT_PT_MAX_LEAVES);
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        if (!range_ok(&ranges[i], i, err, errcap))
            return 0;
    /* overlaps: sorted by guest base, each must end before the next starts */
    const wl_rt_mapping **sorted = malloc((n ? n : 1) * sizeof *sorted);
    if (!sorted) {
        wl_rt_format_err(err, errcap, "page table: out of host memory");
        *st = WL_RT_ERR_NOMEM;
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        sorted[i] = &ranges[i];
    qsort(sorted, n, sizeof *sorted, by_guest);
    /* the 4 GiB regions used, counted in order (sorted ranges touch
     * regions in ascending order) */
    uint64_t leaves = 0, last_region = UINT64_MAX;
    for (size_t i = 0; i < n; i++) {
        const wl_rt_mapping *m = sorted[i];
        if (i + 1 < n && m->guest_base + m->size > sorted[i + 1]->guest_base) {
            wl_rt_format_err(err, errcap,
                             "page table: ranges overlap: guest 0x%llx + 0x%llx and guest 0x%llx + 0x%llx",
                             (unsigned long long)m->guest_base, (unsigned long long)m->size,
                             (unsigned long long)sorted[i + 1]->guest_base, (unsigned long long)sorted[i + 1]->size);
            free(sorted);
            return 0;
        }
        uint64_t r0 = m->guest_base >> 32, r1 = (m->guest_base + m->size - 1) >> 32;
        leaves += r1 - r0 + 1 - (r0 == last_region);
        last_region = r1;
    }
    if (leaves > max_leaves) {
        wl_rt_format_err(err, errcap,
                         "page table: the ranges touch %llu regions of 4 GiB, each a leaf of 512 KiB; at most %u "
                         "(max_leaves)",
                         (unsigned long long)leaves, max_leaves);
        free(sorted);
        return 0;
    }
    *st = WL_RT_OK;
    if (out)
        *out = sorted;
    else
        free(sorted);
    return WL_RT_PT_ROOT_BYTES + (1 + leaves) * (uint64_t)WL_RT_PT_LEAF_BYTES;
}

uint64_t wl_rt_pagetable_bytes(const wl_rt_mapping *ranges, size_t n, uint32_t max_leaves, char *err, size_t errcap)
{
    wl_rt_status st;
    return plan(ranges, n, max_leaves, NULL, &st, err, errcap);
}

wl_rt_status wl_rt_pagetable_build(const wl_rt_mapping *ranges, size_t n, uint32_t max_leaves,
                                   uint64_t table_address, uint8_t **table, uint64_t *bytes, char *err,
                                   size_t errcap)
{
    if (!table || !bytes) {
        wl_rt_format_err(err, errcap, "page table: no place for the table");
        return WL_RT_ERR_USAGE;
    }
    *table = NULL;
    *bytes = 0;
    if (!table_address || (table_address & 15)) {
        wl_rt_format_err(err, errcap, "page table: its device address 0x%llx is not a non-zero multiple of 16",
                         (unsigned long long)table_address);
        return WL_RT_ERR_USAGE;
    }
    const wl_rt_mapping **sorted = NULL;
    wl_rt_status st;
    uint64_t size = plan(ranges, n, max_leaves, &sorted, &st, err, errcap);
    if (st)
        return st;
    uint8_t *t = calloc(1, size);
    if (!t) {
        wl_rt_format_err(err, errcap, "page table: out of host memory (%llu bytes)", (unsigned long long)size);
        free(sorted);
        return WL_RT_ERR_NOMEM;
    }
    uint64_t empty = table_address + WL_RT_PT_ROOT_BYTES, next_leaf = empty + WL_RT_PT_LEAF_BYTES;
    for (uint32_t r = 0; r < WL_RT_PT_ROOT_ENTRIES; r++)
        memcpy(t + 8 * r, &empty, 8);
    /* the pages */
    for (size_t i = 0; i < n; i++) {
        const wl_rt_mapping *m = sorted[i];
        for (uint64_t r = m->guest_base >> 32; r <= (m->guest_base + m->size - 1) >> 32; r++) {
            uint64_t leaf;
            memcpy(&leaf, t + 8 * r, 8);
            if (leaf == empty) {
                memcpy(t + 8 * r, &next_leaf, 8);
                next_leaf += WL_RT_PT_LEAF_BYTES;
            }
        }
        for (uint64_t pg = m->guest_base >> 16, k = 0; k < m->size >> 16; pg++, k++)
            *entry(t, table_address, pg) = (m->host_base + (k << 16)) | WL_RT_PT_VALID;
    }
    /* the next page's contiguity (a page in one range, or across two
     * ranges whose host memory follows); only on a VALID page */
    for (size_t i = 0; i < n; i++) {
        const wl_rt_mapping *m = sorted[i];
        for (uint64_t pg = m->guest_base >> 16, k = 0; k < m->size >> 16; pg++, k++) {
            if (pg + 1 >= (TOP >> 16))
                continue;
            uint64_t *e = entry(t, table_address, pg), nx = *entry(t, table_address, pg + 1);
            if ((nx & WL_RT_PT_VALID) && (nx & ~(uint64_t)15) == (*e & ~(uint64_t)15) + PAGE)
                *e |= WL_RT_PT_NEXT;
        }
    }
    free(sorted);
    *table = t;
    *bytes = size;
    return WL_RT_OK;
}

wl_rt_status wl_rt_pagetable_encode(uint64_t table_address, uint32_t words[WL_RT_MAPPING_WORDS])
{
    if (!words || !table_address || (table_address & 15))
        return WL_RT_ERR_USAGE;
    uint64_t v[3] = {table_address, 0, 0};
    memcpy(words, v, sizeof v);
    return WL_RT_OK;
}

