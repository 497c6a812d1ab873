/* wavelift: the contract between a translated module and whoever runs it
 * (the runtime, an emulator): push constants, descriptor bindings, the
 * status words and their escape kinds, the sink, the device-memory LDS and
 * scratch layouts, and the launch constants the lifter bakes in. Plain C,
 * no LLVM; the translator (lower/, backend/) and the runtime both read it
 * from here (docs/runtime.md, docs/memory.md, docs/escapes.md). */
#ifndef WAVELIFT_ABI_H
#define WAVELIFT_ABI_H

#include <stdint.h>

/* ---- push constants: one block at offset 0 (@wl.push) -------------------- */
#define WL_PUSH_USER_SGPRS 16            /* dwords 0..15: initial user SGPRs */
#define WL_PUSH_SCRATCH_BASE_OFFSET 64   /* u64: device address of the scratch buffer */
#define WL_PUSH_SCRATCH_STRIDE_OFFSET 72 /* u32: bytes per invocation slice */
/* The guest mapping (docs/memory.md): three u64 the runtime encodes
 * (wl_rt_mapping_encode); all zero is the identity over 48 bits. */
#define WL_PUSH_MAP_OFFSET 80            /* u64 guest base, u64 ~limit, u64 host base; paged: u64 table address */
#define WL_PUSH_MAP_BYTES 24
#define WL_PUSH_LOOP_BUDGET_OFFSET 104   /* u32: backward edges an invocation may take (0: the module's default) */
/* u64: the device address of the runner's sink, WL_SINK_BYTES it owns:
 * bytes 0..127 read 0 (no module writes them; masked-off lanes' loads read
 * them), the rest takes the stores of masked-off and out-of-mapping
 * accesses, each at 128 + (its host address & 0xffff) (+ at most 127 more
 * in a span): spread, so that the stores of a dispatch's inactive lanes
 * meet on no single address (docs/memory.md). Written at every dispatch. */
#define WL_PUSH_SINK_OFFSET 120
#define WL_PUSH_BYTES 128                /* Vulkan's guaranteed minimum, all of it */
#define WL_SINK_BYTES (128 + 65536 + 128)

/* ---- descriptor bindings of the module's own buffers (set 0) -------------- */
#define WL_DESCRIPTOR_SET 0
#define WL_BINDING_STATUS 0    /* @wl.status: the status words (D950) */
#define WL_BINDING_PAGETABLE 1 /* @wl.pagetable: the guest page table (D961/D964) */
#define WL_BINDING_LDS 2       /* @wl.lds / @wl.lds64: device-memory LDS slices */
/* @wl.push in a storage buffer instead of push constants
 * (wl_translate_options.state_in_buffer): the same WL_PUSH_BYTES block,
 * read-only, so that the host keeps the push constants */
#define WL_BINDING_STATE 3
/* the module's own buffers by binding, as remap_binding and wl_reflect
 * name them */
#define WL_OWN_BUFFERS 4
#define WL_OWN_BUFFER_NAMES {"status", "pagetable", "lds", "state"}
#define WL_MAX_BINDINGS 8

/* ---- the status words (binding WL_BINDING_STATUS, zeroed before the
 * dispatch): the dispatch's first escape: word 0 its kind (0: none), 1 the
 * guest offset, 2 the lane, 3 the workgroup x, 4-5 the guest address
 * (address escapes); word 7 the lock of 64-bit atomics under a lock. */
#define WL_STATUS_BYTES 32
#define WL_STATUS_LOCK_BYTE 28

/* Kinds of @wl.escape(i32 kind, i32 guest_offset, i1 active), word 0. */
enum wl_escape_kind {
    WL_ESC_NONE = 0,
    WL_ESC_ADDRESS = 1,       /* an address outside the guest mapping */
    WL_ESC_MERGE_ROUNDS = 2,  /* a sub-word store merge ran out of rounds (D977) */
    WL_ESC_LOOP_BUDGET = 3,   /* the loop budget ran out (D949) */
    WL_ESC_UNALIGNED64 = 4,   /* a 64-bit LDS atomic at a 4- but not 8-byte aligned address */
    WL_ESC_INSTRUCTION = 5,   /* an instruction translated as an escape */
    WL_ESC_APERTURE = 6       /* a flat access into the LDS or private aperture not handled */
};

/* ---- device-memory LDS (docs/memory.md): one slice a workgroup of the
 * dispatch at byte offset (flattened group id) * WL_LDS_SLICE_BYTES(lds), in
 * the buffer at WL_BINDING_LDS: the LDS's dwords, a spare dword (the lock),
 * rounded up to an even count so that 64-bit units stay 8-byte aligned, then
 * WL_LDS_SPARE_BYTES spare bytes from WL_LDS_SPARE_BYTE(lds): where an LDS
 * load or store that is off or outside the LDS goes instead of a branch
 * around it. Workgroup-memory LDS has the same layout where it fits. */
#define WL_LDS_SPARE_BYTE(lds) (((((uint64_t)(lds) + 3) / 4 + 2) & ~(uint64_t)1) * 4)
#define WL_LDS_SPARE_BYTES 16u
#define WL_LDS_SLICE_BYTES(lds) (WL_LDS_SPARE_BYTE(lds) + WL_LDS_SPARE_BYTES)

/* ---- device-memory scratch (docs/memory.md, "Scratch"): a segment a wave
 * of the dispatch, at (flattened group id * waves + wave) * the segment's
 * bytes from the push constant WL_PUSH_SCRATCH_BASE_OFFSET; word e of lane l
 * at byte 4 * (e * W + l) of it; a lane's words followed by
 * WL_SCRATCH_SPARE_WORDS spare ones. */
#define WL_SCRATCH_LIMIT_DEFAULT 1024u
#define WL_SCRATCH_SPARE_WORDS 2u
#define WL_SCRATCH_SEGMENT_BYTES(lane_bytes, wave)                                                                   \
    ((((uint64_t)(lane_bytes) + 3) / 4 + WL_SCRATCH_SPARE_WORDS) * 4 * (uint64_t)(wave))
/* The wave model's segment also holds, after those lane segments, the lane
 * arrays moved out of private memory (docs/wave-model.md, "Private
 * memory"); wl_translate_info's scratch_bytes_per_invocation is the whole.
 * The private arrays an invocation may hold before they move: */
#define WL_PRIVATE_LIMIT_DEFAULT 14336u

/* ---- launch constants the lifter bakes in ----------------------------------
 * The apertures src_shared_base / src_private_base (and _limit) read, as
 * 64-bit values (amdkfd's gfx9+ layout: LDS at 1 << 48, scratch at 2 << 48;
 * the 32-bit reads give the high dword). A flat address whose high dword
 * equals WL_APERTURE_SHARED_HI is in the LDS, WL_APERTURE_PRIVATE_HI in the
 * private segment. */
#define WL_APERTURE_SHARED_HI 0x00010000u
#define WL_APERTURE_PRIVATE_HI 0x00020000u

/* The private segment buffer V# a launch gives the program (the user SGPRs
 * of AMDHSA's private segment buffer, s[0:3]): a swizzled V# whose
 * base[47:32] is WL_PRIVATE_VSHARP_BASE_HI. The lifter
 * (frontend/lift/lift_mem_buf.c) turns a buffer access through a swizzled V#
 * with that base into a scratch access at the lane's offset (base[31:0] +
 * soffset) / W + offset (+ stride * index); any other swizzled V# records
 * WL_ESC_INSTRUCTION. Words: */
#define WL_PRIVATE_VSHARP_BASE_HI 0xffffu
#define WL_PRIVATE_VSHARP_W0 0x00000000u
#define WL_PRIVATE_VSHARP_W1 (0x80000000u | WL_PRIVATE_VSHARP_BASE_HI) /* swizzle_enable */
#define WL_PRIVATE_VSHARP_W2 0xffffffffu                                /* num_records */
#define WL_PRIVATE_VSHARP_W3 0x30800000u /* add_tid_enable, oob_select 3 */

#endif
