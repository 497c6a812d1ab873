/* wavelift: what a translation needs to know of the host that will run it
 * (docs/embedding.md, "Options from the host"). Plain C, no LLVM, no
 * Vulkan: an emulator fills it from its VkPhysicalDevice and the features
 * it enabled, the runtime from its profile (wl_rt_host_of), the command
 * line from --host; wl_translate_options_for_host (translate.h) turns it
 * into the translate options and chooses the model. */
#ifndef WAVELIFT_HOST_H
#define WAVELIFT_HOST_H

#include <stdint.h>

/* The Fma widths a host computes exactly (wl_host.fused_fma,
 * wl_translate_options.fused_fma). */
#define WL_FMA_F32 1 /* fused_fma: float (a half fma is always computed exactly) */
#define WL_FMA_F64 2 /* fused_fma: double */
/* fused_fma: the float Fma is exact but flushes subnormal operands and
 * results to zeros of their sign (NVIDIA's, measured: wl_rt_probe_fma);
 * used where the program's float mode flushes them anyway (the lifter's
 * !wl.fma_f32_ftz), else the exact routine. */
#define WL_FMA_F32_FTZ 4
/* fused_fma: the float Fma is fused and correctly rounded where its
 * operands are normal (or zero) and its result a finite normal number, but
 * not below (NVIDIA's: tininess before rounding, subnormals flushed):
 * each float fma is the host's Fma, checked, with the exact routine in a
 * branch taken only where the check fails (llvm-passes/outline_fma.c,
 * fma-host-first) */
#define WL_FMA_F32_NORMAL 8

typedef struct wl_host {
    uint32_t struct_size;             /* sizeof(wl_host): later versions append fields */
    unsigned subgroup_size;           /* the device's default subgroup size */
    unsigned min_subgroup_size;       /* the sizes a compute pipeline may require */
    unsigned max_subgroup_size;       /* (subgroupSizeControl); both subgroup_size without it */
    int full_subgroups;               /* computeFullSubgroups */
    int storage_8bit_16bit;           /* storageBuffer8BitAccess and storageBuffer16BitAccess */
    int buffer_int64_atomics;         /* shaderBufferInt64Atomics */
    int shared_int64_atomics;         /* shaderSharedInt64Atomics */
    uint32_t shared_memory_bytes;     /* maxComputeSharedMemorySize (0: 65536) */
    uint32_t loop_iteration_limit;    /* the driver's limit of loop iterations an invocation (lavapipe
                                       * 65,535), 0: none */
    int maximal_reconvergence;        /* VK_KHR_shader_maximal_reconvergence enabled */
    int fused_fma;                    /* WL_FMA_* (backend.h): widths whose Fma is exact (a probe's
                                       * finding: Vulkan does not promise it) */
} wl_host;

#endif
