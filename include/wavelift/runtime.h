/* wavelift runtime: runs translated SPIR-V compute modules through Vulkan.
 *
 * Links libvulkan and libc only (no LLVM), so that a translated artifact runs
 * where LLVM is not: the NVIDIA machine, an emulator's process.
 *
 * One context (wl_rt) owns a Vulkan instance, one device with one compute
 * queue, a command pool, a descriptor pool and a timestamp query pool. Every
 * object it hands out (buffers, pipelines) is freed by wl_rt_destroy at the
 * latest. A context is not thread-safe: use it from one thread at a time.
 *
 * Errors: every call returns a wl_rt_status; on anything but WL_RT_OK the
 * context's message (wl_rt_error) says what failed, naming the Vulkan result
 * (e.g. "vkCreateComputePipelines: VK_ERROR_UNKNOWN"). No Vulkan result is
 * ignored.
 *
 * Binding convention for the module's own buffers (docs/runtime.md):
 *   descriptor set 0, storage buffers (StorageBuffer storage class, Block),
 *     binding 0  WL_RT_BINDING_STATUS     escape status words (D950)
 *     binding 1  WL_RT_BINDING_PAGE_TABLE guest -> host page table (D961/D964)
 *     binding 2  WL_RT_BINDING_LDS        device-memory LDS slices (seed PR)
 *     binding 3..WL_RT_MAX_BINDINGS-1     free for the module
 *   push constants: one block at offset 0, at most WL_RT_PUSH_CONSTANT_BYTES
 *     bytes (64-bit guest addresses and ints; the module fixes the layout).
 * Guest memory itself is reached by 64-bit device addresses
 * (PhysicalStorageBuffer64), from wl_rt_buffer_address.
 */
#ifndef WAVELIFT_RUNTIME_H
#define WAVELIFT_RUNTIME_H

#include "wavelift/api.h"
#include "wavelift/host.h"
#include "wavelift/guest.h" /* wl_rt_status, the guest mapping, escape kinds */

#include <stddef.h>
#include <stdint.h>

#include "wavelift/abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the module's side of these is wavelift/abi.h; the runtime's names for it */
enum {
    WL_RT_BINDING_STATUS = WL_BINDING_STATUS,
    WL_RT_BINDING_PAGE_TABLE = WL_BINDING_PAGETABLE,
    WL_RT_BINDING_LDS = WL_BINDING_LDS,
    WL_RT_MAX_BINDINGS = WL_MAX_BINDINGS,
    WL_RT_PUSH_CONSTANT_BYTES = WL_PUSH_BYTES, /* Vulkan's guaranteed minimum */
    /* bytes 120..127 of every dispatch's push constants are the runtime's:
     * the device address of its sink, WL_RT_SINK_BYTES it owns; the first
     * 128 bytes are zero and no module writes them (the loads of masked-off
     * lanes read them), the rest takes the stores of masked-off lanes
     * (docs/runtime.md, docs/memory.md) */
    WL_RT_PUSH_SINK_OFFSET = WL_PUSH_SINK_OFFSET,
    WL_RT_SINK_BYTES = WL_SINK_BYTES,
    WL_RT_MAX_TIMED_RUNS = 64
};


WL_API const char *wl_rt_status_name(wl_rt_status s);
/* "VK_ERROR_DEVICE_LOST", "VK_SUCCESS", ...; "VK_RESULT(<n>)" for unknown. */
WL_API const char *wl_rt_vk_result_name(int vk_result);

/* What the host device offers: read once at wl_rt_create and handed to the
 * translator (lower/ picks its models and memory forms from it). Booleans are
 * 0 or 1. */
/* lavapipe's (gallivm's) limit of loop iterations an invocation
 * (wl_host_profile.loop_iteration_limit) */
#define WL_LAVAPIPE_LOOP_LIMIT 65535u

typedef struct wl_host_profile {
    char device_name[256];
    char driver_name[256];   /* VkPhysicalDeviceDriverProperties::driverName */
    char driver_info[256];   /* ::driverInfo (version string) */
    uint32_t device_index;   /* in vkEnumeratePhysicalDevices order */
    uint32_t vendor_id, device_id, driver_id;
    uint32_t api_version;    /* VK_MAKE_API_VERSION form */
    uint32_t driver_version;
    int device_type;         /* VkPhysicalDeviceType: 1 integrated, 2 discrete, 3 virtual, 4 cpu */
    int is_cpu;

    /* subgroups */
    uint32_t subgroup_size;              /* the default subgroup size */
    uint32_t subgroup_supported_ops;     /* VkSubgroupFeatureFlags */
    int subgroup_size_control;           /* requiredSubgroupSize is honoured for compute */
    uint32_t min_subgroup_size, max_subgroup_size;
    int compute_full_subgroups;          /* REQUIRE_FULL_SUBGROUPS supported */
    uint32_t max_compute_workgroup_subgroups;
    int subgroup_extended_types;         /* 8/16/64-bit types in subgroup ops */

    /* compute limits */
    uint32_t max_compute_shared_memory_size;
    uint32_t max_compute_workgroup_size[3];
    uint32_t max_compute_workgroup_invocations;
    uint32_t max_compute_workgroup_count[3];
    uint32_t max_push_constants_size;
    uint32_t max_storage_buffer_range;
    uint64_t min_storage_buffer_offset_alignment;

    /* features */
    int shader_buffer_int64_atomics;
    int shader_shared_int64_atomics;
    int storage_buffer_8bit_access;
    int storage_buffer_16bit_access;
    int storage_push_constant_8;
    int storage_push_constant_16;
    int shader_int8, shader_int16, shader_int64;
    int shader_float16, shader_float64;
    int buffer_device_address;
    int vulkan_memory_model, vulkan_memory_model_device_scope;
    int workgroup_memory_explicit_layout;          /* VK_KHR_workgroup_memory_explicit_layout */
    int workgroup_memory_explicit_layout_8bit;
    int workgroup_memory_explicit_layout_16bit;
    int workgroup_memory_explicit_layout_scalar;

    /* what Vulkan leaves open, found by wl_rt_probe_fma (0 until then) */
    int fma_probed;
    int fma_fused_f32, fma_fused_f64; /* GLSL.std.450 Fma is an exact fused one on the probe's cases */
    /* the probe's cases it missed, bit i case i (runtime/probe.c: 0 a
     * cancellation, fused or rounded, 1 a subnormal operand, 2 a subnormal
     * result, 3 a subnormal sum, 4 and 5 a zero's sign, 6 the product's
     * rounding error, 7 a product past the range, 8 a result that rounds up
     * to the least normal) */
    unsigned fma_missed_f32, fma_missed_f64;
    /* the float Fma is exact but for flushing subnormal operands and
     * results (WL_FMA_F32_FTZ), or exact; the cases a flushing Fma's
     * results missed */
    int fma_ftz_f32;
    unsigned fma_missed_ftz_f32;
    /* the float Fma is fused and correctly rounded where operands and
     * result are normal (cases 0, 6 and 7 met; WL_FMA_F32_NORMAL) */
    int fma_normal_f32;

    /* VK_KHR_shader_maximal_reconvergence enabled on the device (the
     * modules may then declare MaximallyReconvergesKHR) */
    int maximal_reconvergence;
    /* the driver ends an invocation's loops after this many iterations in
     * all (lavapipe: WL_LAVAPIPE_LOOP_LIMIT); 0: no known limit
     * (wl_translate_options.loop_iteration_limit) */
    uint32_t loop_iteration_limit;

    /* timing */
    int timestamps;             /* the compute queue has timestampValidBits > 0 */
    double timestamp_period_ns; /* ns per timestamp tick */

    /* memory */
    uint64_t device_local_bytes; /* size of the largest device-local heap */
    int host_visible_device_local; /* buffers can be mapped directly */
} wl_host_profile;

typedef struct wl_rt_options {
    /* Device choice: an index ("1") or a case-insensitive substring of the
     * device name ("llvmpipe", "H200"). NULL: $WAVELIFT_DEVICE; unset or
     * empty: the first GPU (discrete, integrated, virtual), else the first
     * CPU device (lavapipe). Devices below Vulkan 1.3 are skipped by the
     * default choice and refused when named. */
    const char *device;
    /* Enable VK_LAYER_KHRONOS_validation when it is installed (else ignored;
     * wl_rt_validation_enabled says whether it is on). Validation messages
     * of severity error make the next call fail with WL_RT_ERR_VULKAN. */
    int validation;
    /* How long a submission may take before the call fails with VK_TIMEOUT
     * (0: 60000 ms). The device may still be busy afterwards. */
    uint32_t timeout_ms;
    /* Copy through staging buffers even where buffer memory could be mapped
     * (the discrete-GPU path, testable on lavapipe). */
    int force_staging;
} wl_rt_options;

typedef struct wl_rt wl_rt;
typedef struct wl_rt_buffer wl_rt_buffer;
typedef struct wl_rt_pipeline wl_rt_pipeline;

/* Creates the context. opt may be NULL (defaults). On failure *out is NULL and
 * err (if errcap > 0) holds the message. */
WL_API wl_rt_status wl_rt_create(const wl_rt_options *opt, wl_rt **out, char *err, size_t errcap);
/* An emulator's own Vulkan device (docs/embedding.md, "On your device"):
 * the runtime makes its command pool, fence, layouts and buffers on it and
 * submits to the queue named here; wl_rt_destroy frees those and leaves the
 * instance, the device and the queue to their owner. The device must be
 * Vulkan 1.3 with bufferDeviceAddress enabled; the runtime calls Vulkan
 * through the loader (libvulkan), so the handles must come from it. The
 * caller must not use the queue from another thread while a wl_rt call
 * runs (Vulkan's external synchronization of a queue). */
typedef struct wl_rt_device_desc {
    uint32_t struct_size;     /* sizeof(wl_rt_device_desc): later versions append fields */
    void *instance;           /* VkInstance */
    void *physical_device;    /* VkPhysicalDevice */
    void *device;             /* VkDevice, created on physical_device */
    uint32_t queue_family;    /* a family with VK_QUEUE_COMPUTE_BIT */
    uint32_t queue_index;     /* the queue of that family the runtime submits to */
    /* The VkPhysicalDeviceFeatures2 chain the device was created with
     * (VkDeviceCreateInfo.pNext: VkPhysicalDeviceVulkan11/12/13Features,
     * the explicit workgroup layout's and maximal reconvergence's features
     * are read; other structures are skipped): the profile says a feature
     * only where the device supports it and it was enabled, so that the
     * modules never use one the device was not created with. Required. */
    const void *enabled_features;
    const char *const *enabled_extensions; /* the device extensions enabled */
    uint32_t enabled_extension_count;
    uint32_t timeout_ms;      /* as wl_rt_options */
    int force_staging;        /* as wl_rt_options */
} wl_rt_device_desc;

/* Creates a context on the caller's device (above). On failure *out is NULL
 * and err holds the message; the caller's objects are untouched. */
WL_API wl_rt_status wl_rt_create_on_device(const wl_rt_device_desc *desc, wl_rt **out, char *err, size_t errcap);

/* Waits for the device, frees every buffer and pipeline still alive, and the
 * context (and the instance and device where wl_rt_create made them). NULL
 * is allowed. */
WL_API void wl_rt_destroy(wl_rt *rt);

/* The last error message of this context ("" when none). */
WL_API const char *wl_rt_error(const wl_rt *rt);
/* The VkResult of the last failed Vulkan call (0 when none). */
WL_API int wl_rt_vk_result(const wl_rt *rt);
WL_API const wl_host_profile *wl_rt_profile(const wl_rt *rt);
WL_API int wl_rt_validation_enabled(const wl_rt *rt);
/* The profile as the translator's host description (wavelift/host.h):
 * subgroup sizes, storage, atomics, shared memory, loop limit, maximal
 * reconvergence, and the Fma widths wl_rt_probe_fma found exact. */
WL_API void wl_rt_host_of(const wl_host_profile *p, wl_host *h);
/* Prints the profile, one "key: value" a line. */
WL_API void wl_host_profile_print(const wl_host_profile *p, void *file /* FILE* */);
/* Finds out, with one dispatch (runtime/probe/fma.comp), whether the
 * device's Fma is an exact fused multiply-add for float and for double
 * (Vulkan lets it round the product, flush subnormals...): eight hard cases
 * a width, each compared bit for bit with the host C library's fma()/fmaf().
 * Records it in the profile (fma_probed, fma_fused_f32, fma_fused_f64);
 * once per context. wl_translate_options.fused_fma may then name the
 * widths found exact (WL_FMA_F32, WL_FMA_F64). */
WL_API wl_rt_status wl_rt_probe_fma(wl_rt *rt);

/* ---- buffers ------------------------------------------------------------
 * A storage buffer with a 64-bit device address (usable as a
 * PhysicalStorageBuffer64 pointer and as a descriptor). Contents start as
 * zeros. Upload/download go through a mapping when the memory is host
 * visible, else through a staging copy; both wait for completion. */
WL_API wl_rt_status wl_rt_buffer_create(wl_rt *rt, uint64_t size, wl_rt_buffer **out);
WL_API void wl_rt_buffer_destroy(wl_rt *rt, wl_rt_buffer *buf);
/* The caller's own VkBuffer (vk_buffer) of size bytes as a runtime buffer,
 * for guest memory an emulator allocated: it must have the usages
 * STORAGE_BUFFER, SHADER_DEVICE_ADDRESS, TRANSFER_SRC and TRANSFER_DST and
 * bound memory; mapped: its host-coherent mapping, or NULL (copies then go
 * through staging). wl_rt_buffer_destroy and wl_rt_destroy free only the
 * runtime's record, never the buffer or its memory. Its contents are left
 * as they are. */
WL_API wl_rt_status wl_rt_buffer_wrap(wl_rt *rt, void *vk_buffer, uint64_t size, void *mapped,
                                      wl_rt_buffer **out);
/* A view: size bytes of parent from offset (a multiple of 16), a buffer of
 * its own for addresses, transfers and bindings (as a binding, offset must
 * meet minStorageBufferOffsetAlignment). It owns no memory and is freed
 * with its parent at the latest. One guest memory arena, many buffers in
 * it: what a contiguous guest mapping needs. */
WL_API wl_rt_status wl_rt_buffer_view(wl_rt *rt, wl_rt_buffer *parent, uint64_t offset, uint64_t size,
                               wl_rt_buffer **out);
WL_API uint64_t wl_rt_buffer_address(const wl_rt_buffer *buf);
WL_API uint64_t wl_rt_buffer_size(const wl_rt_buffer *buf);
WL_API wl_rt_status wl_rt_buffer_upload(wl_rt *rt, wl_rt_buffer *buf, uint64_t offset,
                                 const void *data, uint64_t size);
WL_API wl_rt_status wl_rt_buffer_download(wl_rt *rt, wl_rt_buffer *buf, uint64_t offset,
                                   void *data, uint64_t size);
/* Sets size bytes from offset to the 32-bit word value (offset and size
 * multiples of 4; size UINT64_MAX: to the end). */
WL_API wl_rt_status wl_rt_buffer_fill(wl_rt *rt, wl_rt_buffer *buf, uint64_t offset,
                               uint64_t size, uint32_t value);

/* Builds the table and uploads it into a new buffer (*out, freed with the
 * context at the latest), and writes words as wl_rt_pagetable_encode. */
WL_API wl_rt_status wl_rt_pagetable_create(wl_rt *rt, const wl_rt_mapping *ranges, size_t n, uint32_t max_leaves,
                                    wl_rt_buffer **out, uint32_t words[WL_RT_MAPPING_WORDS]);

/* ---- escapes (D950, docs/escapes.md): the kinds, names and decoding are
 * wavelift/guest.h's */
/* Reads the status buffer into *e. WL_RT_OK when no escape was recorded;
 * WL_RT_ERR_ESCAPE when one was, with the context's message naming it
 * ("refused: escape: loop budget exhausted at guest offset 0x1c, lane 3,
 * group 0"); other errors as wl_rt_buffer_download's. e may be NULL. */
WL_API wl_rt_status wl_rt_escape_check(wl_rt *rt, wl_rt_buffer *status, wl_rt_escape *e);

/* ---- pipelines ---------------------------------------------------------- */
typedef struct wl_rt_pipeline_desc {
    const uint32_t *words; /* SPIR-V module */
    size_t nwords;
    const char *entry;     /* entry point name; NULL: "main" */
    /* Required subgroup size (0: the driver's choice). Needs
     * subgroup_size_control and min <= size <= max, else
     * WL_RT_ERR_UNSUPPORTED. */
    uint32_t subgroup_size;
    /* 1: REQUIRE_FULL_SUBGROUPS when the device supports it (the profile's
     * compute_full_subgroups); requested but unsupported is not an error,
     * wl_rt_pipeline_full_subgroups says what was set. The workgroup's x
     * size must then be a multiple of the subgroup size (of the profile's
     * max_subgroup_size when subgroup_size is 0), else WL_RT_ERR_USAGE. */
    int require_full_subgroups;
    /* 1: ask the driver for the pipeline's statistics
     * (VK_KHR_pipeline_executable_properties, where the device has it; the
     * build may take longer): wl_rt_pipeline_statistics */
    int statistics;
} wl_rt_pipeline_desc;

/* Creates a compute pipeline with the layout of the binding convention above.
 * No pipeline cache is used; the host time around vkCreateComputePipelines is
 * recorded (wl_rt_pipeline_create_ns). Malformed words (header, instruction
 * lengths, entry point) are refused before the driver sees them
 * (wl_rt_spirv_check, WL_RT_ERR_FORMAT); a well-formed but invalid module is
 * the driver's to refuse, by name (lavapipe: VK_ERROR_UNKNOWN), so validate
 * modules with backend/ (SPIRV-Tools) first. */
WL_API wl_rt_status wl_rt_pipeline_create(wl_rt *rt, const wl_rt_pipeline_desc *desc,
                                   wl_rt_pipeline **out);
WL_API void wl_rt_pipeline_destroy(wl_rt *rt, wl_rt_pipeline *p);
/* ns spent in vkCreateComputePipelines (host clock; the shader module is
 * created before and not counted). */
WL_API uint64_t wl_rt_pipeline_create_ns(const wl_rt_pipeline *p);
WL_API uint32_t wl_rt_pipeline_subgroup_size(const wl_rt_pipeline *p); /* 0: not required */
WL_API int wl_rt_pipeline_full_subgroups(const wl_rt_pipeline *p);
/* The driver's statistics of p's executables (registers, spills, ...: what
 * the driver reports), "name=value; ..." with the executable's name first
 * where it has several; NULL where desc.statistics was 0 or the device has
 * no VK_KHR_pipeline_executable_properties. Owned by p. */
WL_API const char *wl_rt_pipeline_statistics(const wl_rt_pipeline *p);

/* Reads a SPIR-V binary file (little-endian words as spirv-as writes them).
 * *words is malloc'ed; free() it. */
WL_API wl_rt_status wl_rt_spirv_read_file(const char *path, uint32_t **words, size_t *nwords,
                                   char *err, size_t errcap);

/* What wl_rt_pipeline_create checks before handing words to the driver
 * (the driver is not a validator: full validation is backend/'s job with
 * SPIRV-Tools). Fills the GLCompute entry point's LocalSize (0s when it is
 * given by LocalSizeId). */
typedef struct wl_rt_spirv_info {
    uint32_t version;        /* header word 1, e.g. 0x00010600 */
    uint32_t local_size[3];
} wl_rt_spirv_info;
WL_API wl_rt_status wl_rt_spirv_check(const uint32_t *words, size_t nwords, const char *entry,
                               wl_rt_spirv_info *info, char *err, size_t errcap);

/* ---- dispatch ----------------------------------------------------------- */
typedef struct wl_rt_dispatch_desc {
    uint32_t groups[3];                          /* workgroup counts (0 counts as 1) */
    wl_rt_buffer *bindings[WL_RT_MAX_BINDINGS];  /* NULL: a small zeroed dummy */
    const void *push_constants;                  /* may be NULL */
    uint32_t push_constant_size;                 /* bytes, multiple of 4, <= WL_RT_PUSH_CONSTANT_BYTES */
    /* 1: the module was translated with state_in_buffer: the same block
     * (push_constants, the sink's address added) goes into a buffer of the
     * runtime's, bound at WL_BINDING_STATE (bindings[WL_BINDING_STATE] must
     * be NULL), instead of the push constants */
    int state_in_buffer;
    /* How many times to run the dispatch (0 counts as 1), one after the
     * other with a full memory barrier in between, each timed. Outputs are
     * those of all runs, so programs that accumulate see runs x effect. */
    uint32_t runs;
} wl_rt_dispatch_desc;

typedef struct wl_rt_timing {
    uint32_t runs;       /* timed runs (0 when the queue has no timestamps) */
    uint64_t median_ns;  /* of the runs' device times */
    uint64_t min_ns, max_ns;
    uint64_t run_ns[WL_RT_MAX_TIMED_RUNS]; /* the first runs, in order */
    uint64_t host_ns;    /* submit to fence signalled, host clock, all runs */
} wl_rt_timing;

/* Records, submits and waits. timing may be NULL. */
WL_API wl_rt_status wl_rt_dispatch(wl_rt *rt, wl_rt_pipeline *p, const wl_rt_dispatch_desc *d,
                            wl_rt_timing *timing);

#ifdef __cplusplus
}
#endif
#endif
