/* wavelift: the translate pipeline, a guest program to Vulkan SPIR-V.
 *
 *   wl_lift (frontend/) -> wl_wir_verify -> wl_lower_lanes (lower/)
 *   -> LLVMVerifyModule -> default<O2> (opt_level 2) -> wl_emit_spirv (backend/)
 *
 * Everything runs in an LLVM context of its own, created and freed by the
 * call; nothing is kept between calls (the function is reentrant). */
#ifndef WAVELIFT_TRANSLATE_H
#define WAVELIFT_TRANSLATE_H

#include "wavelift/api.h"

#include <stddef.h>
#include <stdint.h>

#include "wavelift/decode.h"
#include "wavelift/lift.h"
#include "wavelift/backend.h" /* WL_FMA_* */
#include "wavelift/lower.h"
#include "wavelift/host.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wl_translate_options {
    /* sizeof(wl_translate_options) of the caller's headers
     * (wl_translate_options_init sets it): fields past it read as zero, so a
     * program built against older headers keeps working with a newer
     * library; 0 is refused (WL_ERR_USAGE). Every field's zero is its
     * default. */
    uint32_t struct_size;
    unsigned subgroup_size;   /* S: the host subgroup size the pipeline will require */
    uint32_t local_size[3];   /* the guest workgroup size in work-items (0 reads as 1) */
    int opt_level;            /* 0: no optimization; 2: LLVM's default<O2> after lowering */
    int validate;             /* validate the SPIR-V (SPIRV-Tools, Vulkan 1.3) */
    int force_merge_stores;   /* sub-word stores by compare-and-swap (D977): set it where the
                               * host lacks storageBuffer8/16BitAccess; else native stores */
    int force_atomic64_lock;  /* 64-bit global atomics under a lock, 32-bit accesses only: set
                               * it where the host lacks shaderBufferInt64Atomics (docs/memory.md) */
    uint32_t lds_limit;       /* maxComputeSharedMemorySize: a larger LDS lives in a storage buffer
                               * (binding 2, WL_LDS_SLICE_BYTES per group; docs/memory.md); 0: none */
    int force_lds_atomic64_lock; /* 64-bit atomics on workgroup-memory LDS under a lock: set it
                               * where the host lacks shaderSharedInt64Atomics */
    uint32_t scratch_limit;   /* scratch lives in device memory where an invocation's private
                               * array would be larger than this: a lane's bytes (lanes model),
                               * W lanes' (wave model); docs/memory.md; 0: WL_SCRATCH_LIMIT_DEFAULT;
                               * 0xffffffff: never */
    int force_scratch_buffer; /* device-memory scratch whatever its size (tests) */
    uint32_t private_limit;   /* the wave model: bytes of private arrays an invocation may
                               * hold (the host compiler's bound; NVIDIA's is about 16 KiB);
                               * the least used lane arrays past it live in device memory
                               * beside device-memory scratch (docs/wave-model.md); 0:
                               * WL_PRIVATE_LIMIT_DEFAULT; 0xffffffff: no limit */
    int fused_fma;            /* where the host's Fma (GLSL.std.450) is an exact fused one, as
                               * wl_rt_probe_fma finds: WL_FMA_F32 (float), WL_FMA_F64
                               * (double; wavelift/backend.h); llvm.fma of those widths is one
                               * Fma; else (0, the default) it is computed exactly
                               * (backend/fma.c), the routine emitted once a type and called
                               * (llvm-passes/outline_fma.c) */
    int model;                /* WL_MODEL_LANES (0) or WL_MODEL_WAVE (1; subgroup_size unused) */
    uint32_t loop_budget;     /* backward edges an invocation may take before WL_ESC_LOOP_BUDGET
                               * (D949); 0: WL_LOOP_BUDGET_DEFAULT (the wave model:
                               * WL_LOOP_BUDGET_DEFAULT_WAVE). The push constant at
                               * WL_PUSH_LOOP_BUDGET_OFFSET overrides it at dispatch when non-zero. */
    int mapping_pages;        /* guest addresses through a page table for sparse ranges (the runtime's
                               * wl_rt_pagetable_*; docs/memory.md); 0: one contiguous range */
    int maximal_reconvergence; /* the host has VK_KHR_shader_maximal_reconvergence enabled: the
                               * module declares MaximallyReconvergesKHR (wl_emit_options) */
    uint32_t loop_iteration_limit; /* the host ends an invocation's loops once they ran this many
                               * iterations in all (lavapipe: 65,535,
                               * WL_LAVAPIPE_LOOP_LIMIT of wavelift/runtime.h); the wave
                               * model at -O2 then runs four lanes an iteration in the lane loops
                               * of guest loops (docs/wave-model.md); 0: no limit, no unrolling */
    /* The host's descriptor slots for the module's own buffers (status,
     * pagetable, lds, state; wavelift/backend.h wl_binding_fn): called for
     * each the module uses; it may refuse one, and the translation is then
     * refused naming it. NULL: set 0, bindings WL_BINDING_* (abi.h). It
     * must answer the same for the same name: wl_translate_key asks it too. */
    wl_binding_fn remap_binding;
    void *remap_user;
    /* The translator's per-dispatch state (the WL_PUSH_BYTES block of
     * abi.h: user SGPRs, scratch, mapping, loop budget, sink) in a
     * read-only storage buffer at the "state" binding instead of the push
     * constants, which are then all the host's (docs/embedding.md). */
    int state_in_buffer;
    /* The pipeline's debug option (docs/architecture.md "The pipeline"), or
     * NULL: items separated by commas: `verify` (LLVM's verifier after
     * every pass that made progress; the wave-IR verifier checks the lifted
     * module, before the passes, always), `time` (each pass's time on stderr), `list`
     * (the table on stderr), `skip=NAME` (an optional pass not run: e.g.
     * skip=vectorize-lanes, skip=fold-masked-selects), `run=NAME` (a pass
     * that is off by default run: run=subgroup-reduce), `print-after=NAME`
     * (the module on stderr after pass NAME; `all`), and the knobs of tests and
     * measurements: `lds-buffer` (device-memory LDS whatever its size) and
     * `helper-calls=N` (memory helpers called at least N times stay SPIR-V
     * functions: docs/benchmarks.md, "Experiments"). The environment
     * variable WAVELIFT_PASSES adds to it. Part of the cache key. */
    const char *passes;
    /* For looking at the pipeline (`wavelift lift --emit-stages`): when set,
     * called with the module after each stage, in order: "wave" (the wave IR
     * after -O2's preparation; lanes model at -O2 only), "lowered" and
     * "host" (what the backend emits). The hook must not change the module. */
    void (*stage_hook)(void *user, const char *stage, LLVMModuleRef m);
    void *stage_user;
    /* Where the library writes what it has to say (NULL: stderr for the
     * debug option's lines, nothing else): each line of the debug option
     * (`list`, `time`, `print-after`) and, when a translation fails or is
     * refused, its message (the same text as err). Called on the
     * translating thread. */
    void (*log)(void *user, const char *line);
    void *log_user;
} wl_translate_options;

/* Zeroes *o (every field's default) and sets struct_size. */
WL_API void wl_translate_options_init(wl_translate_options *o);

#define WL_LOOP_BUDGET_DEFAULT (1u << 20) /* docs/escapes.md: why this much */
/* The wave model's: one invocation does a whole wave's lane work for every
 * backward edge, so each costs up to W times more (H200: 2^20 took 5.2 s). */
#define WL_LOOP_BUDGET_DEFAULT_WAVE (1u << 16)

#define WL_MODEL_LANES 0 /* lanes per invocation (D973): wl_lower_lanes, needs subgroup size S */
#define WL_MODEL_WAVE 1  /* a wave per invocation, lane loops (D956): wl_lower_wave, no subgroup */
#define WL_MODEL_AUTO (-1) /* wl_translate_options_for_host chooses */

typedef struct wl_translate_info {
    unsigned wave_size;             /* W */
    unsigned lanes_per_invocation;  /* k = W / S */
    unsigned waves_per_group;
    uint32_t host_local_size[3];    /* the LocalSize of the module: waves * S, 1, 1 (the wave
                                     * model: the waves, at least 2) */
    uint32_t scratch_bytes_per_invocation; /* device-memory scratch: bytes a host invocation of the
                                            * dispatch (WL_PUSH_SCRATCH_BASE_OFFSET); 0: none */
    size_t spirv_words;
    size_t llvm_lifted;             /* instructions of @wl.wave after lifting */
    size_t llvm_lowered;            /* ... after lowering */
    size_t llvm_optimized;          /* ... after the passes (= lowered at -O0) */
    uint32_t features;              /* WL_FEAT_* the module needs (backend.h) */
    uint32_t bindings;              /* descriptor bindings it uses */
    uint32_t push_bytes;            /* its push-constant block (lower.h's layout) */
    uint32_t workgroup_bytes;       /* the shared memory it declares */
    uint32_t binding_set[8], binding_slot[8]; /* where its buffer WL_BINDING_* b is (bindings bit b) */
    double ms_lift, ms_verify, ms_lower, ms_opt, ms_emit, ms_total;
    int model;                      /* the model translated for (WL_MODEL_*) */
    unsigned lane_loops;            /* the wave model's loops over the lanes */
    uint32_t lane_array_bytes;      /* the wave model: bytes of lane arrays a wave keeps in device
                                     * memory (over private_limit), included in
                                     * scratch_bytes_per_invocation; 0: all private */
    size_t guest_instructions;      /* guest instructions lifted: the entry's and those of every
                                     * function it calls (0: a module not from wl_lift) */
} wl_translate_info;

/* Translates one program. On WL_OK *words (free() it) holds *nwords SPIR-V
 * words whose entry point "main" runs one guest workgroup per host
 * workgroup with info->host_local_size; the pipeline must require subgroup
 * size opt->subgroup_size with full subgroups. info may be NULL. An
 * instruction not lifted, or wave IR the lowering cannot carry, gives
 * WL_ERR_UNSUPPORTED with a message naming it; other failures
 * WL_ERR_INVALID. */
WL_API wl_status wl_translate(const wl_lift_program *prog, const wl_translate_options *opt,
                       uint32_t **words, size_t *nwords, wl_translate_info *info,
                       char *err, size_t errcap);

/* The same from a module already in the wave IR (docs/wave-ir.md): the call
 * takes the module over and disposes of it on every path; its context stays
 * the caller's. info->ms_lift is then 0. */
WL_API wl_status wl_translate_module(LLVMModuleRef wave_ir, const wl_translate_options *opt,
                              uint32_t **words, size_t *nwords, wl_translate_info *info,
                              char *err, size_t errcap);

/* The cache key of a translation: SHA-256 over everything its module
 * depends on (the library's and LLVM's versions, the program's code bytes,
 * entry, address, target and launch state, every option but stage_hook,
 * and the WAVELIFT_PASSES variable). Equal keys: equal modules. A module
 * cached under the key of (p, o) may stand for wl_translate(p, o).
 * WL_ERR_USAGE without a program, options or key. */
WL_API wl_status wl_translate_key(const wl_lift_program *p, const wl_translate_options *o, uint8_t key[32]);
/* ---- options from the host ------------------------------------------------- */

/* Fills the host-dependent fields of o for a wave of wave_size lanes on
 * host h (docs/embedding.md, "Options from the host"): the model, where
 * o->model is WL_MODEL_AUTO, is the lanes model where a subgroup of
 * o->subgroup_size lanes (0: the host's default, or where that cannot
 * carry the wave the largest size it offers that can) carries the wave,
 * at least 4 lanes and a size the host offers, else the wave model; then
 * o->subgroup_size, merged byte stores without 8/16-bit storage, 64-bit
 * atomics under a lock without them, the shared memory limit, the loop
 * limit, maximal reconvergence and the exact Fma widths. why (may be NULL)
 * gets the model's reason. WL_ERR_USAGE: no host, options or wave size,
 * h->struct_size below sizeof(wl_host), or o->model not one of the
 * three. The other fields of o are left as they are. */
WL_API wl_status wl_translate_options_for_host(const wl_host *h, unsigned wave_size, wl_translate_options *o,
                                               char *why, size_t whycap);

/* ---- reflection: what a translated module needs from its host ------------- */

enum { WL_REFLECT_MAX_NAMES = 24 };

typedef struct wl_reflect_binding {
    uint32_t set, binding;  /* WL_DESCRIPTOR_SET, WL_BINDING_* (wavelift/abi.h) */
    const char *name;       /* "status", "pagetable", "lds" */
    const char *what;       /* one line: what the runner puts there */
} wl_reflect_binding;

typedef struct wl_reflect_push {
    const char *name;       /* "user_sgprs", "scratch_base", ... */
    uint32_t offset, size;  /* bytes in the push-constant block */
} wl_reflect_push;

typedef struct wl_reflection {
    uint32_t struct_size;              /* the caller sets sizeof(wl_reflection) */
    uint32_t nbindings;
    wl_reflect_binding bindings[8];    /* storage buffers the module reads, by binding */
    uint32_t push_offset, push_size;   /* the push-constant range (0, 0: none) */
    uint32_t npush;
    wl_reflect_push push[8];           /* its fields (wavelift/abi.h's layout) */
    uint32_t local_size[3];            /* the module's LocalSize */
    uint32_t required_subgroup_size;   /* the pipeline must require it (0: none, the wave model) */
    int full_subgroups;                /* ... with VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT */
    uint32_t subgroup_operations;      /* VkSubgroupFeatureFlags the module uses */
    uint32_t nfeatures;
    const char *features[WL_REFLECT_MAX_NAMES];   /* Vulkan feature names ("shaderInt64", ...) */
    uint32_t nextensions;
    const char *extensions[WL_REFLECT_MAX_NAMES]; /* device extensions beyond Vulkan 1.3 */
    uint32_t workgroup_bytes;          /* shared memory the module declares */
    uint32_t scratch_bytes_per_invocation; /* device-memory scratch a host invocation (WL_PUSH_SCRATCH_*) */
    int model;                         /* WL_MODEL_* */
    const char *model_name;            /* "lanes" or "wave" */
    unsigned lanes_per_invocation;     /* k (the wave model: W) */
} wl_reflection;

/* What the module of a translation (its info and the options it was made
 * with) needs from the host that runs it: bindings, push constants,
 * work-group and subgroup sizes, Vulkan features and extensions
 * (docs/embedding.md, "Reflection"). The strings are static. WL_ERR_USAGE
 * without info, options or out, or with out->struct_size below
 * sizeof(wl_reflection). */
WL_API wl_status wl_reflect(const wl_translate_info *info, const wl_translate_options *opt, wl_reflection *out);

/* SHA-256 (FIPS 180-4) of n bytes: the key's hash. */
WL_API void wl_sha256(const void *data, size_t n, uint8_t out[32]);

#ifdef __cplusplus
}
#endif
#endif
