/* wavelift: lowering the wave IR (docs/wave-ir.md) to the host IR profile
 * (docs/host-ir.md): the lanes model (D973, k = W / S lanes an invocation). */
#ifndef WAVELIFT_LOWER_H
#define WAVELIFT_LOWER_H

#include "wavelift/api.h"

#include <stddef.h>
#include <stdint.h>

#include <llvm-c/Types.h>

#include "wavelift/abi.h" /* push constants, LDS and scratch layouts */
#include "wavelift/decode.h"

#ifdef __cplusplus
extern "C" {
#endif


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
    uint32_t private_limit;     /* the wave model: the private arrays an invocation may hold, in
                                 * bytes; the least used lane arrays past it live in device memory
                                 * (docs/wave-model.md); 0: WL_PRIVATE_LIMIT_DEFAULT; 0xffffffff:
                                 * no limit */
    int opt_level;              /* the wave model: >= 2 runs the lanes model's cleaning passes
                                 * on the wave IR before its loops (docs/wave-model.md) */
    int mapping_pages;          /* guest addresses through the runtime's page table (docs/memory.md) */
    uint32_t loop_iteration_limit; /* the wave model: the host's limit of loop iterations an
                                 * invocation (wl_translate_options); non-zero: lane loops in guest
                                 * loops unrolled four times at -O2 */
} wl_lower_options;



typedef struct wl_lower_info {
    unsigned lanes_per_invocation;  /* k */
    unsigned waves_per_group;
    uint32_t host_local_size[3];    /* the host workgroup: waves * W / k invocations, in x */
    uint32_t scratch_bytes_per_invocation; /* device-memory scratch: its bytes a host invocation
                                            * (0: none, or private arrays) */
    unsigned lane_loops;            /* the wave model's loops over the lanes (0 in the lanes model) */
    uint32_t lane_array_bytes;      /* the wave model: lane arrays in device memory, bytes a wave
                                     * (part of scratch_bytes_per_invocation) */
} wl_lower_info;

/* Lowers the module in place: @wl.wave becomes a host-IR entry function
 * named "main". WL_ERR_UNSUPPORTED with a message for what it cannot lower. */
WL_API wl_status wl_lower_lanes(LLVMModuleRef m, const wl_lower_options *opt,
                         wl_lower_info *info, char *err, size_t errcap);

/* The wave model (D956, docs/wave-model.md) is not one call: its steps
 * are passes of the translate pipeline (lower/models.h), the wave-IR
 * passes between them (lower/pipeline.c). */

#ifdef __cplusplus
}
#endif
#endif
