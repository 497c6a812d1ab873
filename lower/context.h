/* lower/: the lanes model's internal interface (docs/lanes.md).
 *
 * One wl_lower_ctx holds a lowering in progress: the module, k = W / S, the value
 * map from each varying value to its k clones, and the launch values
 * (subgroup id, place in the subgroup) every replacement uses. */
#ifndef WL_LOWER_INTERNAL_H
#define WL_LOWER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <llvm-c/Core.h>

#include "wavelift/lower.h"

#include "ir/ptrmap.h"
#include "ir/wave_ir.h" /* escape kinds (frontend/) */

/* the bits of a scalar integer or floating-point type, 0 for another */
static inline unsigned wl_lc_type_bits(LLVMTypeRef t)
{
    switch (LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind: return LLVMGetIntTypeWidth(t);
    case LLVMHalfTypeKind: return 16;
    case LLVMFloatTypeKind: return 32;
    case LLVMDoubleTypeKind: return 64;
    default: return 0;
    }
}

#define WL_LC_MERGE_ROUNDS 1024 /* a sub-word store's swap rounds before WL_ESC_MERGE_ROUNDS (D977) */
#define WL_LC_LOCK_ROUNDS (1u << 20) /* tries at the 64-bit atomic lock before WL_ESC_MERGE_ROUNDS */
#define WL_LC_LOCK_BYTE WL_STATUS_LOCK_BYTE /* the lock: status word 7 (docs/memory.md) */

typedef struct wl_lower_ctx {
    LLVMContextRef ctx;
    LLVMModuleRef m;
    LLVMValueRef fn;
    LLVMBuilderRef b;
    LLVMTypeRef t_void, i1, i8, i32, i64, v4i32, ptr0;
    unsigned W, S, k, log2S;
    uint32_t lds_bytes, scratch_bytes, user_sgprs;
    uint32_t local[3];
    unsigned waves;
    int merge_stores;   /* global b8/b16 stores by compare-and-swap (opt->force_merge_stores) */
    int atomic64_lock;  /* 64-bit global atomics under a lock (opt->force_atomic64_lock) */
    unsigned helper_calls; /* helpers called this often stay functions (0: none; helper_calls.c) */
    int lds_buffer;     /* the LDS lives in device memory (memory/lds.c) */
    int lds_lock_shared; /* workgroup-memory LDS: 64-bit atomics under a lock */
    int lds_lock;       /* set by wl_lc_link_helpers: the LDS atomics take the lock in the spare dword */
    int lds_spare;      /* @wl.group has the spare bytes (WL_LDS_SPARE_BYTE): LDS loads and stores without a branch */
    int scratch_buffer; /* scratch lives in device memory (scratch.c) */
    uint32_t lane_array_bytes; /* the wave model's lane arrays in the wave's device segment, after
                                * the scratch's lane segments (wave/device_arrays.c) */
    int wave_model;     /* lowering for the wave model (wave.c): the wave's index is its invocation's */
    int mapping_pages;  /* @wl.h.gmap reads the page table (lower/memory/helpers/map.ll; opt->mapping_pages) */

    /* varying values: open-addressing map key -> index; clones[idx*k + j] */
    LLVMValueRef *keys;
    uint32_t *vals;
    size_t cap, nkeys;
    LLVMValueRef *clones;
    size_t nvar, capvar;

    LLVMValueRef *dead;   /* replaced calls, erased after all are replaced */
    size_t ndead, capdead;

    LLVMValueRef p, sid;  /* subgroup_local_invocation_id, subgroup_id (entry block) */

    /* memory.c's span index of one block (lanes model only: there the calls
     * of a block stay put while they are lowered); NULL when off */
    struct wl_span_index *spans;

    /* lds_order.c: the wave IR's LDS accesses a subgroup barrier follows */
    wl_ptrmap lds_barrier_after;

    char *err;
    size_t errcap;
} wl_lower_ctx;

/* map */
long wl_lc_find(const wl_lower_ctx *L, LLVMValueRef v);         /* index, -1 if uniform */
void wl_lc_forget(wl_lower_ctx *L, LLVMValueRef v);             /* before erasing v: its entry reads uniform */
long wl_lc_add(wl_lower_ctx *L, LLVMValueRef v);                /* new varying value (clones zeroed) */
int wl_lc_alias(wl_lower_ctx *L, LLVMValueRef v, long idx);     /* another key for the same clones */
static inline LLVMValueRef *wl_lc_clones(wl_lower_ctx *L, long idx) { return L->clones + (size_t)idx * L->k; }
/* The value of clone j of v: v itself when uniform. */
LLVMValueRef wl_lc_get(wl_lower_ctx *L, LLVMValueRef v, unsigned j);

wl_status wl_lc_fail(wl_lower_ctx *L, wl_status st, LLVMValueRef at, const char *fmt, ...);

/* context.c: fills the map with every varying instruction of L->fn. */
wl_status wl_lc_uniformity(wl_lower_ctx *L);

/* the callee's name of a call to a declared function, or NULL */
const char *wl_lc_callee(LLVMValueRef call, size_t *len);
int wl_lc_prefix(const char *s, size_t len, const char *pre);
/* helper_calls.c: the helpers kept as functions (noinline, internal) */
void wl_lc_outline_helpers(LLVMModuleRef m, unsigned min_calls);
int wl_lc_is_outlined(LLVMValueRef f);

/* Reads !wl.program into L (W, LDS, scratch, user SGPRs): 1 when it is
 * there and W is 32 or 64, else 0. */
int wl_lc_read_program(wl_lower_ctx *L);

/* spv.* and intrinsic declarations */
LLVMValueRef wl_lc_decl(wl_lower_ctx *L, const char *name, LLVMTypeRef fty);
LLVMValueRef wl_lc_call(wl_lower_ctx *L, const char *name, LLVMTypeRef ret, LLVMValueRef *args, unsigned n);

/* launch.c: launch state and lane operations. Replaces the call (clone j of
 * the wl.* call `orig`; `call` is that clone) and returns WL_OK, or
 * WL_ERR_NOT_FOUND when the name is not one of its. */
wl_status wl_lc_launch_setup(wl_lower_ctx *L);
wl_status wl_lc_lower_lane_call(wl_lower_ctx *L, LLVMValueRef orig, const char *name, size_t len);
void wl_lc_push_pairs(wl_lower_ctx *L); /* after the lowering: user-SGPR pairs read as one i64 push load */

/* memory.c: the helper functions (the .ll files of lower/memory/helpers/, IR text for LDS
 * and scratch) and memory calls. */
wl_status wl_lc_link_helpers(wl_lower_ctx *L);
wl_status wl_lc_lower_mem_call(wl_lower_ctx *L, LLVMValueRef orig, const char *name, size_t len);
LLVMValueRef wl_lc_sload(wl_lower_ctx *L, LLVMValueRef orig, LLVMValueRef clone); /* memory.c: @wl.sload.b32 */
wl_status wl_lc_finish(wl_lower_ctx *L); /* always-inline, drop the helpers and wl.* declarations */
int wl_lc_spans_begin(wl_lower_ctx *L);   /* index spans per block from here on (0: out of memory) */
void wl_lc_spans_end(wl_lower_ctx *L);
/* lds_order.c: fills L->lds_barrier_after from the wave IR (before any
 * lowering; 0: out of memory) */
int wl_lc_lds_order_plan(wl_lower_ctx *L);

/* bad_note.c: after inlining, the @wl.note calls of the guest mapping
 * (lower/memory/helpers/map.ll) become variables (docs/escapes.md). wl_lc_bad_place
 * makes them (*out NULL: no note in the module); at the builder,
 * wl_lc_bad_read reads the invocation's note (lane + 1, 0 for none, and
 * its offset) and wl_lc_bad_address makes the offset the address's bits
 * 47:0. */
typedef struct wl_lc_bad wl_lc_bad;
wl_status wl_lc_bad_place(wl_lower_ctx *L, wl_lc_bad **out);
void wl_lc_bad_read(wl_lc_bad *N, LLVMValueRef *lane1, LLVMValueRef *off);
LLVMValueRef wl_lc_bad_address(wl_lower_ctx *L, LLVMValueRef off);
void wl_lc_bad_free(wl_lc_bad *N);
/* the note variables: an alloca of the kernel's entry block, or a private
 * global (for the helpers kept as functions), both 0 at first */
LLVMValueRef wl_lc_entry_var(wl_lower_ctx *L, LLVMTypeRef t, const char *name);
LLVMValueRef wl_lc_private_var(wl_lower_ctx *L, LLVMTypeRef t, const char *name);
/* L->p where it is the lanes model's launch lane of the entry block, else NULL */
LLVMValueRef wl_lc_launch_lane(wl_lower_ctx *L);

/* memory/escape_records.c: after inlining, every escape site (@wl.esc, the body of
 * memory.c's @wl.h.escape) a select into the invocation's escape note; the
 * kernel's returns one; there, one record of the invocation's first escape
 * (or its bad address) into @wl.status (docs/escapes.md). */
wl_status wl_lc_record_escapes(wl_lower_ctx *L);

/* Helper IR text handed out piece by piece (memory/lds.c, scratch.c):
 * wl_lc_put formats one piece (at most 2 KiB) and gives it to out. */
typedef struct wl_lc_txt {
    void (*out)(void *ctx, const char *text);
    void *ctx;
} wl_lc_txt;
void wl_lc_put(wl_lc_txt *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* memory/lds.c: device-memory LDS and the LDS lock (docs/memory.md). */
void wl_lc_lds_options(wl_lower_ctx *L, const wl_lower_options *opt); /* sets lds_buffer, lds_spare, lds_lock_shared */
/* The helpers' text for LDS atomics under the lock in the spare dword (the
 * word after the LDS, byte WL_LDS_LOCK_BYTE(lds)), each piece handed to out. */
#define WL_LDS_LOCK_BYTE(lds) ((((uint32_t)(lds) + 3) / 4) * 4)
void wl_lc_gen_lds_lock(wl_lower_ctx *L, void (*out)(void *ctx, const char *text), void *ctx);
/* After inlining: the lock's first value (L->lds_lock), and @wl.group
 * becomes the workgroup's slice of @wl.lds / @wl.lds64 (binding 2) when
 * L->lds_buffer. */
wl_status wl_lc_lds_finish(wl_lower_ctx *L);

/* scratch.c: the scratch helpers' text (docs/memory.md, "Scratch"), each
 * piece handed to out. */
void wl_lc_gen_scratch(wl_lower_ctx *L, void (*out)(void *ctx, const char *text), void *ctx);
/* Sets L->scratch_buffer from the options and L->scratch_bytes (read first). */
wl_status wl_lc_scratch_options(wl_lower_ctx *L, const wl_lower_options *opt);
/* After inlining: @wl.scratch.segment() becomes the wave's segment address,
 * computed once in each function that calls it. */
wl_status wl_lc_scratch_finish(wl_lower_ctx *L);
/* a wave's device segment: the scratch's lane segments where scratch is in
 * device memory, then the wave model's lane arrays moved there (0: none) */
uint64_t wl_lc_segment_bytes(const wl_lower_ctx *L);
/* the bytes the runtime allocates a host invocation (0: no device segment) */
uint32_t wl_lc_scratch_invocation_bytes(const wl_lower_ctx *L);

/* replaces clone j of orig (the call `c`) by `v` (NULL for void); c is
 * erased at the end (so no pointer the map holds is reused meanwhile) */
wl_status wl_lc_replace(wl_lower_ctx *L, LLVMValueRef orig, unsigned j, LLVMValueRef c, LLVMValueRef v);

#endif
