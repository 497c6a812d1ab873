/* wavelift: the guest side of a dispatch as data (docs/embedding.md): the
 * guest mapping's push-constant words, the paged mapping's table, and the
 * escape status words decoded and named. Plain C, no LLVM, no Vulkan: in
 * libwavelift for a host on its own device, and in the runtime
 * (wavelift/runtime.h includes this) for its dispatches; the same code
 * (runtime/guest/). */
#ifndef WAVELIFT_GUEST_H
#define WAVELIFT_GUEST_H

#include <stddef.h>
#include <stdint.h>

#include "wavelift/abi.h"
#include "wavelift/api.h"
#include "wavelift/decode.h" /* wl_status */

#ifdef __cplusplus
extern "C" {
#endif

/* The runtime's status is the library's (wavelift/decode.h wl_status: one
 * status enum for both); its names, kept: */
typedef wl_status wl_rt_status;
#define WL_RT_OK WL_OK
#define WL_RT_ERR_VULKAN WL_ERR_VULKAN           /* a Vulkan call failed: wl_rt_vk_result() has it */
#define WL_RT_ERR_NO_DEVICE WL_ERR_NO_DEVICE     /* no Vulkan device, or none matches the choice */
#define WL_RT_ERR_UNSUPPORTED WL_ERR_UNSUPPORTED /* the device lacks something the call needs */
#define WL_RT_ERR_USAGE WL_ERR_USAGE             /* a bad argument */
#define WL_RT_ERR_NOMEM WL_ERR_NOMEM             /* host allocation failed */
#define WL_RT_ERR_IO WL_ERR_IO                   /* a file could not be read */
#define WL_RT_ERR_FORMAT WL_ERR_FORMAT           /* malformed input (SPIR-V words, manifest) */
#define WL_RT_ERR_ESCAPE WL_ERR_ESCAPE           /* the dispatch recorded an escape (wl_rt_escape_check) */

/* ---- the guest mapping (D961/D964, docs/memory.md) -------------------------
 * Guest addresses (bits 47:0; 63:48 are ignored as the hardware does) from
 * guest_base to guest_base + size - 1 reach host device address host_base
 * onwards; any other address is an escape (WL_ESC_ADDRESS) whose load
 * reads 0 and whose store is dropped. A module reads the mapping from its
 * push constants: WL_RT_MAPPING_WORDS words at WL_PUSH_MAP_OFFSET
 * (lower.h), as wl_rt_mapping_encode writes them. m NULL: the identity (all
 * zero words, what a dispatch that sets nothing gets); size 0: nothing
 * mapped. Otherwise size >= 8 and a multiple of 4, guest_base and
 * host_base multiples of 16, the range below 2^48; else WL_RT_ERR_USAGE. */
enum { WL_RT_MAPPING_WORDS = 6 };
typedef struct wl_rt_mapping {
    uint64_t guest_base, size, host_base;
} wl_rt_mapping;
WL_API wl_rt_status wl_rt_mapping_encode(const wl_rt_mapping *m, uint32_t words[WL_RT_MAPPING_WORDS]);

/* ---- the paged guest mapping (translate option mapping_pages) -------------
 * Guest memory in several ranges at arbitrary guest addresses, with holes
 * between them: each wl_rt_mapping of the list maps guest_base ..
 * guest_base + size - 1 to host_base onwards. A module translated with
 * mapping_pages reads a two-level table (docs/memory.md, "The paged
 * mapping") at the device address in the first u64 at WL_PUSH_MAP_OFFSET:
 *   root   WL_RT_PT_ROOT_ENTRIES u64, indexed by address bits 47:32: the
 *          device address of the leaf (the empty leaf's, all zero, when no
 *          page of those 4 GiB is mapped)
 *   leaves WL_RT_PT_LEAF_ENTRIES u64 each, indexed by bits 31:16: the host
 *          device address of the page's first byte | WL_RT_PT_VALID
 *          | WL_RT_PT_NEXT (the next page is mapped and follows on the host)
 * Pages are 64 KiB (WL_RT_PT_PAGE_BITS). Each range's guest_base and size
 * are multiples of the page size, host_base a multiple of 16, the range
 * below 2^48; ranges do not overlap; at most max_leaves leaves (4 GiB of
 * guest addresses each; 0: WL_RT_PT_MAX_LEAVES_DEFAULT): else
 * WL_RT_ERR_USAGE and a message naming the range. An access of n bytes is
 * inside when its first byte's page is mapped and, where its bytes cross
 * into the next page, that page follows on the host (one range, or ranges
 * whose host memory is contiguous); any other access is WL_ESC_ADDRESS. */
enum {
    WL_RT_PT_PAGE_BITS = 16,
    WL_RT_PT_ROOT_ENTRIES = 1 << 16,
    WL_RT_PT_LEAF_ENTRIES = 1 << 16,
    WL_RT_PT_ROOT_BYTES = 8 << 16,
    WL_RT_PT_LEAF_BYTES = 8 << 16,
    WL_RT_PT_MAX_LEAVES = 4095, /* a table below 2 GiB */
    WL_RT_PT_MAX_LEAVES_DEFAULT = 64,
    WL_RT_PT_VALID = 1,
    WL_RT_PT_NEXT = 2
};
/* The table's size for these ranges (0 and a message where they are
 * refused): WL_RT_PT_ROOT_BYTES + (1 + leaves) * WL_RT_PT_LEAF_BYTES. */
WL_API uint64_t wl_rt_pagetable_bytes(const wl_rt_mapping *ranges, size_t n, uint32_t max_leaves, char *err,
                               size_t errcap);
/* Builds the table in host memory for a copy at device address
 * table_address (16-aligned; the root holds the leaves' device
 * addresses): *table (free() it) holds *bytes bytes. n = 0 maps nothing.
 * err (if errcap > 0) names what is refused. */
WL_API wl_rt_status wl_rt_pagetable_build(const wl_rt_mapping *ranges, size_t n, uint32_t max_leaves,
                                   uint64_t table_address, uint8_t **table, uint64_t *bytes, char *err,
                                   size_t errcap);
/* The push-constant words of a paged module: the table's device address
 * (a multiple of 16; 0 refused) then zeros. */
WL_API wl_rt_status wl_rt_pagetable_encode(uint64_t table_address, uint32_t words[WL_RT_MAPPING_WORDS]);
/* ---- escapes (D950, docs/escapes.md) -------------------------------------
 * The status buffer (binding WL_RT_BINDING_STATUS, at least
 * WL_RT_STATUS_BYTES, zeroed before the dispatch) holds the dispatch's first
 * escape: word 0 its kind (0: none), 1 the guest offset, 2 the lane, 3 the
 * workgroup x, 4-5 the guest address (address escapes). Kinds as the
 * translator's (ir/wave_ir.h's WL_ESC_*). */
enum {
    WL_RT_ESC_ADDRESS = WL_ESC_ADDRESS,
    WL_RT_ESC_MERGE_ROUNDS = WL_ESC_MERGE_ROUNDS,
    WL_RT_ESC_LOOP_BUDGET = WL_ESC_LOOP_BUDGET,
    WL_RT_ESC_UNALIGNED64 = WL_ESC_UNALIGNED64,
    WL_RT_ESC_INSTRUCTION = WL_ESC_INSTRUCTION,
    WL_RT_ESC_APERTURE = WL_ESC_APERTURE,
    WL_RT_STATUS_BYTES = WL_STATUS_BYTES
};
typedef struct wl_rt_escape {
    uint32_t kind, guest_offset, lane, group_x;
    uint64_t address;
} wl_rt_escape;
/* "address outside the mapping", "loop budget exhausted", ...; "unknown
 * escape kind" otherwise. */
WL_API const char *wl_rt_escape_name(uint32_t kind);
/* The status words (at least the first 6 of WL_RT_STATUS_BYTES, as read
 * back after a dispatch) as *e; its kind (0: no escape). */
WL_API uint32_t wl_rt_escape_decode(const uint32_t *words, wl_rt_escape *e);

#ifdef __cplusplus
}
#endif
#endif
