/* wavelift: lowering the wave IR (docs/wave-ir.md) to the host IR profile
 * (docs/host-ir.md): the lanes model (D973, k = W / S lanes an invocation). */
#ifndef WAVELIFT_LOWER_H
#define WAVELIFT_LOWER_H

#include <stddef.h>
#include <stdint.h>

#include <llvm-c/Types.h>

#include "wavelift/decode.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The push-constant block of a lowered module (@wl.push), as the runtime
 * fills it at dispatch. */
#define WL_PUSH_USER_SGPRS 16            /* dwords 0..15: initial user SGPRs */
#define WL_PUSH_SCRATCH_BASE_OFFSET 64   /* u64: device address of the scratch buffer */
#define WL_PUSH_SCRATCH_STRIDE_OFFSET 72 /* u32: bytes per invocation slice */
/* The guest mapping (docs/memory.md): three u64 the runtime encodes
 * (wl_rt_mapping_encode); all zero is the identity over 48 bits. */
#define WL_PUSH_MAP_OFFSET 80            /* u64 guest base, u64 ~limit, u64 host base; paged: u64 table address */
#define WL_PUSH_MAP_BYTES 24
#define WL_PUSH_LOOP_BUDGET_OFFSET 104   /* u32: backward edges an invocation may take (0: the module's default) */
/* u64: the runtime's sink (WL_RT_PUSH_SINK_OFFSET, include/wavelift/runtime.h):
 * bytes 0..127 read 0, 128..255 take stores; the runtime writes it at every
 * dispatch. Masked-off and out-of-mapping accesses are redirected there. */
#define WL_PUSH_SINK_OFFSET 120
#define WL_PUSH_BYTES 128

typedef struct wl_lower_options {
    unsigned subgroup_size;     /* S: the host subgroup size the pipeline requires */
    uint32_t local_size[3];     /* the guest workgroup size in work-items */
    int force_merge_stores;     /* sub-word stores by compare-and-swap even where native (D977) */
    int force_atomic64_lock;    /* 64-bit global atomics under a lock (no shaderBufferInt64Atomics);
                                 * on device-memory LDS too (docs/memory.md) */
    uint32_t lds_limit;         /* the host's maxComputeSharedMemorySize: a larger LDS lives in a
                                 * storage buffer (binding 2, WL_LDS_SLICE_BYTES a group); 0: none */
    int force_lds_buffer;       /* device-memory LDS whatever its size */
    int force_lds_atomic64_lock; /* 64-bit atomics on workgroup-memory LDS under a lock (no
                                  * shaderSharedInt64Atomics) */
    unsigned helper_calls;      /* a memory helper called at least this often stays a SPIR-V
                                 * function (lower/memory/helper_calls.c); 0: all inlined (default) */
    uint32_t scratch_limit;     /* scratch lives in device memory (WL_PUSH_SCRATCH_BASE_OFFSET;
                                 * docs/memory.md) where an invocation's private array would be
                                 * larger: a lane's bytes (lanes model), W lanes' (wave model);
                                 * 0: WL_SCRATCH_LIMIT_DEFAULT; 0xffffffff: always private arrays */
    int force_scratch_buffer;   /* device-memory scratch whatever its size (tests) */
    int opt_level;              /* the wave model: >= 2 runs the lanes model's cleaning passes
                                 * on the wave IR before its loops (docs/wave-model.md) */
    int mapping_pages;          /* guest addresses through the runtime's page table (docs/memory.md) */
} wl_lower_options;

/* Device-memory LDS (docs/memory.md): one slice a workgroup of the dispatch
 * at byte offset (flattened group id) * WL_LDS_SLICE_BYTES(lds), in the
 * buffer at binding 2: the LDS's dwords, a spare dword (the lock), rounded
 * up to an even count so that 64-bit units stay 8-byte aligned, then
 * WL_LDS_SPARE_BYTES spare bytes from WL_LDS_SPARE_BYTE(lds): where an LDS
 * load or store that is off or outside the LDS goes instead of a branch
 * around it (8 bytes for loads and stores, 8 for sub-unit merges with an
 * empty mask; never read for a value that is used). Workgroup-memory LDS
 * has the same layout where it fits the host's limit. */
#define WL_LDS_SPARE_BYTE(lds) (((((uint64_t)(lds) + 3) / 4 + 2) & ~(uint64_t)1) * 4)
#define WL_LDS_SPARE_BYTES 16u
#define WL_LDS_SLICE_BYTES(lds) (WL_LDS_SPARE_BYTE(lds) + WL_LDS_SPARE_BYTES)

/* Device-memory scratch (docs/memory.md, "Scratch"): a segment a wave of
 * the dispatch, at (flattened group id * waves + wave) * the segment's bytes
 * from the push constant WL_PUSH_SCRATCH_BASE_OFFSET; word e of lane l at
 * byte 4 * (e * W + l) of it. scratch_bytes_per_invocation (wl_lower_info)
 * is the segment over the wave's host invocations: the buffer is that times
 * the dispatch's invocations. A lane's words are followed by
 * WL_SCRATCH_SPARE_WORDS spare ones (private arrays too), where an access
 * that is off or outside the segment goes instead of a branch around it. */
#define WL_SCRATCH_LIMIT_DEFAULT 1024u
#define WL_SCRATCH_SPARE_WORDS 2u
#define WL_SCRATCH_SEGMENT_BYTES(lane_bytes, wave)                                                                   \
    ((((uint64_t)(lane_bytes) + 3) / 4 + WL_SCRATCH_SPARE_WORDS) * 4 * (uint64_t)(wave))

typedef struct wl_lower_info {
    unsigned lanes_per_invocation;  /* k */
    unsigned waves_per_group;
    uint32_t host_local_size[3];    /* the host workgroup: waves * W / k invocations, in x */
    uint32_t scratch_bytes_per_invocation; /* device-memory scratch: its bytes a host invocation
                                            * (0: none, or private arrays) */
    unsigned lane_loops;            /* the wave model's loops over the lanes (0 in the lanes model) */
} wl_lower_info;

/* Lowers the module in place: @wl.wave becomes a host-IR entry function
 * named "main". WL_ERR_UNSUPPORTED with a message for what it cannot lower. */
wl_status wl_lower_lanes(LLVMModuleRef m, const wl_lower_options *opt,
                         wl_lower_info *info, char *err, size_t errcap);

/* The wave model (D956, docs/wave-model.md) is not one call: its steps
 * are passes of the translate pipeline (lower/models.h), the wave-IR
 * passes between them (lower/pipeline.c). */

#ifdef __cplusplus
}
#endif
#endif
