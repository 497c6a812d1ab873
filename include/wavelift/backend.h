/* wavelift backend: LLVM IR in the host IR profile (docs/host-ir.md) to
 * Vulkan SPIR-V (SPIR-V 1.6, Vulkan 1.3, one GLCompute entry point).
 *
 * The emitter is the project's own code; it reads the module through the LLVM
 * C API. SPIRV-Tools validates what it writes (wl_validate_spirv). */
#ifndef WAVELIFT_BACKEND_H
#define WAVELIFT_BACKEND_H

#include "wavelift/api.h"

#include <stddef.h>
#include <stdint.h>

#include <llvm-c/Types.h>

#include "wavelift/abi.h" /* the bindings */
#include "wavelift/host.h" /* WL_FMA_* */
#include "wavelift/decode.h" /* wl_status */

#ifdef __cplusplus
extern "C" {
#endif


/* WL_FMA_*: wavelift/host.h */

/* The descriptor slot of one of the module's own buffers, chosen by the host
 * (wl_translate_options.remap_binding; docs/embedding.md): name is "status",
 * "pagetable", "lds" or "state"; *set and *binding hold the defaults
 * (WL_DESCRIPTOR_SET, WL_BINDING_*) and get the host's choice. Return 0, or
 * non-zero with a reason in why (the translation is then refused, naming
 * it). Called during the translation, on its thread. */
typedef int (*wl_binding_fn)(void *user, const char *name, uint32_t *set, uint32_t *binding, char *why,
                             size_t whycap);

typedef struct wl_emit_options {
    const char *entry;        /* function to emit; NULL: the only defined one */
    uint32_t local_size[3];   /* LocalSize; a 0 reads as 1 */
    int debug_names;          /* OpName for the entry, values and blocks */
    int skip_prepare;         /* the module was already wl_prepare_module'd */
    int validate;             /* validate the result (SPIRV-Tools, Vulkan 1.3) */
    int fused_fma_native;     /* llvm.fma as GLSL.std.450 Fma where the device's Fma
                               * is known to be an exact fused one (Vulkan does not
                               * require it), by width: WL_FMA_F32 (float), WL_FMA_F64;
                               * else, and for half always, computed exactly
                               * (backend/fma.c) */
    int maximal_reconvergence; /* declare MaximallyReconvergesKHR (SPV_KHR_maximal_reconvergence):
                               * the host enables VK_KHR_shader_maximal_reconvergence, so the
                               * invocations that a per-lane branch took apart are together
                               * again at its merge, where the lanes model's subgroup
                               * operations follow. Added after validation (Debian 12's
                               * SPIRV-Tools predates the mode). */
    wl_binding_fn remap_binding; /* the host's descriptor slots (NULL: set 0, WL_BINDING_*) */
    void *remap_user;
    int state_in_buffer;      /* @wl.push as a read-only storage buffer (WL_BINDING_STATE) */
} wl_emit_options;

/* What the runtime must provide for the module: device features it uses
 * (WL_FEAT_* bits), the descriptor bindings it reads and its push-constant
 * and memory sizes. */
enum {
    WL_FEAT_INT8 = 1u << 0,
    WL_FEAT_INT16 = 1u << 1,
    WL_FEAT_INT64 = 1u << 2,
    WL_FEAT_FLOAT16 = 1u << 3,
    WL_FEAT_FLOAT64 = 1u << 4,
    WL_FEAT_STORAGE8 = 1u << 5,      /* storageBuffer8BitAccess */
    WL_FEAT_STORAGE16 = 1u << 6,     /* storageBuffer16BitAccess */
    WL_FEAT_INT64_ATOMICS = 1u << 7, /* shaderBufferInt64Atomics / Shared */
    WL_FEAT_BDA = 1u << 8,           /* bufferDeviceAddress */
    WL_FEAT_SUBGROUP_BASIC = 1u << 9,
    WL_FEAT_SUBGROUP_VOTE = 1u << 10,
    WL_FEAT_SUBGROUP_BALLOT = 1u << 11,
    WL_FEAT_SUBGROUP_SHUFFLE = 1u << 12,
    WL_FEAT_SUBGROUP_ARITH = 1u << 13,
    WL_FEAT_SUBGROUP_RELATIVE = 1u << 14,
    WL_FEAT_BUFFER_INT64_ATOMICS = 1u << 15, /* with INT64_ATOMICS: on device memory (shaderBufferInt64Atomics) */
    WL_FEAT_SHARED_INT64_ATOMICS = 1u << 16, /* ... on workgroup memory (shaderSharedInt64Atomics) */
};

typedef struct wl_emit_info {
    uint32_t features;        /* WL_FEAT_* */
    uint32_t bindings;        /* bit b: the module's buffer WL_BINDING_* b is used */
    uint32_t binding_set[8], binding_slot[8]; /* ... at this set and binding (after remap_binding) */
    uint32_t push_bytes;      /* size of the push-constant block, 0 if none */
    uint32_t workgroup_bytes; /* Workgroup memory the module declares */
    uint32_t private_bytes;   /* Function memory per invocation */
    uint32_t local_size[3];
    size_t llvm_instructions; /* instructions of the emitted function */
} wl_emit_info;

/* Makes the module's control flow structurizable, in place: LLVM's passes
 * function(lower-switch,loop-simplify,fix-irreducible,unify-loop-exits,
 * structurizecfg) with mergereturn first, on every defined function. */
WL_API wl_status wl_prepare_module(LLVMModuleRef m, char *err, size_t errcap);

/* Emits the entry function as a SPIR-V module. Unless opt->skip_prepare,
 * first runs wl_prepare_module (the module is changed in place). On WL_OK
 * *words (free() it) holds *nwords words; info, when not NULL, is filled.
 * A module outside the host IR profile gives WL_ERR_INVALID and a message
 * naming the instruction and its function in err. */
WL_API wl_status wl_emit_spirv(LLVMModuleRef m, const wl_emit_options *opt,
                        uint32_t **words, size_t *nwords, wl_emit_info *info,
                        char *err, size_t errcap);

/* Validates a SPIR-V module for Vulkan 1.3 with SPIRV-Tools. WL_OK or
 * WL_ERR_INVALID with the validator's message in err. */
WL_API wl_status wl_validate_spirv(const uint32_t *words, size_t nwords, char *err,
                            size_t errcap);

/* Disassembles (SPIRV-Tools) into a malloc'ed string; NULL on failure. */
WL_API char *wl_disassemble_spirv(const uint32_t *words, size_t nwords);

#ifdef __cplusplus
}
#endif
#endif
