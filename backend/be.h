/* The backend's internal interface: one emitter state (wl_em) owns everything
 * an emission allocates, so every error path frees it all in wl_em_free.
 * Errors are sticky: the first one sets e->failed and the message, and the
 * emission stops at the next instruction boundary. */
#ifndef WL_BACKEND_BE_H
#define WL_BACKEND_BE_H

#include <stddef.h>
#include <stdint.h>

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include "wavelift/backend.h"
#include "spv.h"

/* A growable array of words. */
typedef struct wl_wbuf {
    uint32_t *w;
    size_t n, cap;
} wl_wbuf;

/* Pointer-keyed hash map: key -> (a, b). */
typedef struct wl_pent {
    const void *key;
    uint32_t a, b;
} wl_pent;
typedef struct wl_pmap {
    wl_pent *e;
    size_t cap, n;
} wl_pmap;

/* Key-word map for SPIR-V types and constants: 6 words -> id. */
typedef struct wl_kent {
    uint32_t k[6];
    uint32_t val;
} wl_kent;
typedef struct wl_kmap {
    wl_kent *e;
    size_t cap, n;
} wl_kmap;

/* A word-memory object (docs/host-ir.md): a variable holding an array of
 * 32- or 64-bit units. Pointers into it are (object, byte offset). */
typedef struct wl_mobj {
    LLVMValueRef v;    /* the alloca or global */
    uint32_t var;      /* OpVariable */
    uint32_t sc;       /* storage class */
    uint32_t unit;     /* 4 or 8 bytes */
    uint64_t nunits;   /* 0: runtime array */
    uint32_t uptr;     /* pointer-to-unit type in sc */
    int block;         /* Block struct around the array: chain starts with 0 */
    int readonly;
    int pstruct;       /* the push constants as a struct (push.c): member by word */
    uint32_t ptr64;    /* pointer-to-u64 type (pstruct) */
    uint8_t pmember[64], pkind[64]; /* word -> member, 4 (u32) or 8 (u64 from here) */
} wl_mobj;

struct wl_cfg;

typedef struct wl_em {
    LLVMModuleRef mod;
    LLVMContextRef ctx;
    LLVMTargetDataRef td;
    LLVMValueRef fn;    /* the function being emitted */
    LLVMValueRef entry; /* the entry point's function */
    const wl_emit_options *opt;
    wl_emit_info info;
    uint32_t next_id;
    struct wl_cse_ent *cse; /* blockcse.c: the function's pure instructions (cse_cap slots) */
    size_t cse_cap, cse_live; /* slots (a power of 2), entries taken */
    uint32_t cse_gen;       /* entries of another generation are empty */
    int cse_block;          /* the block being written (its index in e->cfg), -1: none */
    int sg_synced;          /* a subgroup barrier written in this block (intrin.c) */
    uint32_t fresh_id;  /* the result id of the last word in body when wl_op wrote it, else 0 */
    size_t fresh_pos;   /* where in body that id word is (wl_bind may rename it) */
    wl_wbuf names, decor, types, body, fvars;
    wl_wbuf fsig;      /* function signatures: [n, OpTypeFunction id, return, params] records */
    uint32_t caps[40];
    int ncaps;
    int uses_psb;
    uint32_t strided[8]; /* device-memory pointer types given an ArrayStride (memory.c's elem_ptr) */
    int nstrided;
    int uses_f32;      /* a 32-bit float type was made (the float modes are for floats only) */
    uint32_t glsl;     /* GLSL.std.450 import id, 0 if not yet */
    wl_pmap vals;      /* LLVMValueRef -> (id, mobj index + 1) */
    wl_pmap tys;       /* LLVMTypeRef -> id */
    wl_pmap scaled;    /* id of a 32-bit `shl nuw x, k` (key: the id as a pointer) -> (x's id, k):
                        * memory.c's unit index of that byte offset is x itself where k is the
                        * unit's shift (a lane array's lane * 4) */
    wl_kmap keys;      /* internal types and constants */
    wl_mobj *mo;
    size_t nmo, capmo;
    uint32_t iface[64];
    int niface;
    uint32_t builtin[48]; /* BuiltIn -> Input variable */
    struct wl_cfg *cfg;
    char *err;
    size_t errcap;
    int failed;
    wl_status status; /* what failed is: WL_ERR_INVALID (wl_fail), WL_ERR_NOMEM (wl_fail_nomem) */
    LLVMValueRef cur;  /* instruction being emitted (for messages) */
    uint32_t koff_id, koff; /* a word-memory offset known constant (memory.c mobj_of): its id, its value */
    LLVMBasicBlockRef ucount_bb; /* the block whose unaligned loads ucount counts */
    wl_pmap ucount;              /* base -> (its unaligned 32/64-bit loads in ucount_bb, -) */
} wl_em;

/* module.c: buffers, ids, maps, types, constants, final assembly */
void wl_wb_push(wl_em *e, wl_wbuf *b, uint32_t w);
/* blockcse.c: a pure instruction of the current block with these words, or 0 */
#define WL_CSE_SLOTS 4096u        /* to start with; doubled when half full */
#define WL_CSE_MAX_SLOTS 262144u  /* at most (11.5 MB) */
typedef struct wl_cse_ent wl_cse_ent;
uint32_t wl_cse_find(wl_em *e, uint32_t opc, uint32_t ty, int n, const uint32_t *ops);
void wl_cse_note(wl_em *e, uint32_t opc, uint32_t ty, int n, const uint32_t *ops, uint32_t id);
void wl_cse_clear(wl_em *e); /* a new block (OpLabel) or function */
/* the instruction with these words now defines new_id, not old_id (wl_bind) */
void wl_cse_rename(wl_em *e, uint32_t opc, uint32_t ty, int n, const uint32_t *ops, uint32_t old_id, uint32_t new_id);
/* prune.c: drops the constants of `types` that no word of it or of others names */
void wl_prune_constants(wl_em *e, wl_wbuf *types, const wl_wbuf *const *others, int nothers);
/* dce.c: drops the instructions of `funcs` without side effects whose
 * result no word of funcs or `others` names (run before prune_constants) */
void wl_drop_unread(wl_em *e, wl_wbuf *funcs, const wl_wbuf *const *others, int nothers);
void wl_wb_ins(wl_em *e, wl_wbuf *b, uint32_t op, int n, const uint32_t *ops);
void wl_wb_str(wl_em *e, wl_wbuf *b, uint32_t op, uint32_t first, const char *s, size_t len);
uint32_t wl_id(wl_em *e);
uint32_t wl_op(wl_em *e, uint32_t opc, uint32_t ty, int n, const uint32_t *ops);
void wl_op_to(wl_em *e, uint32_t id, uint32_t opc, uint32_t ty, int n, const uint32_t *ops);
#define WL_OPS(...) (int)(sizeof((uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t)), (uint32_t[]){__VA_ARGS__}
#define OP(e, opc, ty, ...) wl_op((e), (opc), (ty), WL_OPS(__VA_ARGS__))
#define INS(e, buf, opc, ...) wl_wb_ins((e), (buf), (opc), WL_OPS(__VA_ARGS__))
int wl_fail(wl_em *e, const char *fmt, ...);
/* the same for an allocation that failed: status WL_ERR_NOMEM */
int wl_fail_nomem(wl_em *e);
int wl_refuse(wl_em *e, LLVMValueRef v, const char *why);
void wl_cap(wl_em *e, uint32_t cap);
uint32_t wl_glsl_import(wl_em *e);
uint32_t wl_glsl(wl_em *e, uint32_t ty, uint32_t inst, int n, const uint32_t *args);

wl_pent *wl_pmap_get(wl_pmap *m, const void *key);
wl_pent *wl_pmap_put(wl_em *e, wl_pmap *m, const void *key);
void wl_pmap_free(wl_pmap *m);

uint32_t wl_ty_void(wl_em *e);
uint32_t wl_ty_bool(wl_em *e);
uint32_t wl_ty_int(wl_em *e, uint32_t width);
uint32_t wl_ty_float(wl_em *e, uint32_t width);
uint32_t wl_ty_vec(wl_em *e, uint32_t comp, uint32_t n);
uint32_t wl_ty_ptr(wl_em *e, uint32_t sc, uint32_t pointee);
uint32_t wl_ty_array(wl_em *e, uint32_t el, uint32_t n);
uint32_t wl_ty_struct2(wl_em *e, uint32_t a, uint32_t b);
uint32_t wl_ty_llvm(wl_em *e, LLVMTypeRef t);
uint32_t wl_c_int(wl_em *e, uint32_t width, uint64_t v);
uint32_t wl_c_u32(wl_em *e, uint32_t v);
uint32_t wl_c_bool(wl_em *e, int v);
uint32_t wl_c_null(wl_em *e, uint32_t ty);
uint32_t wl_c_undef(wl_em *e, LLVMTypeRef t, uint32_t ty);
uint32_t wl_c_splat(wl_em *e, uint32_t vty, uint32_t n, uint32_t scalar);
uint32_t wl_c_float(wl_em *e, uint32_t width, double v);
uint32_t wl_c_fbits(wl_em *e, uint32_t width, uint64_t bits);
uint32_t wl_const(wl_em *e, LLVMValueRef c);

/* LLVM type queries */
int wl_is_int(LLVMTypeRef t, unsigned *width);
unsigned wl_scalar_bits(LLVMTypeRef t); /* element bits; 0 for non-scalar */
unsigned wl_vec_len(LLVMTypeRef t);     /* 0 for a scalar */
int wl_ptr_space(LLVMTypeRef t);        /* -1 if not a pointer */
const char *wl_value_name(LLVMValueRef v, char *buf, size_t cap);

/* emit.c: values */
uint32_t wl_val(wl_em *e, LLVMValueRef v);
void wl_bind(wl_em *e, LLVMValueRef v, uint32_t id);
uint32_t wl_bool_to_int(wl_em *e, LLVMTypeRef bt, uint32_t b, unsigned width, int sign);

/* memory.c */
int wl_mem_is_word_space(int as);
int wl_mem_base(wl_em *e, LLVMValueRef ptr);  /* mobj index + 1, 0 if none */
uint32_t wl_mem_alloca(wl_em *e, LLVMValueRef a);
void wl_mem_gep(wl_em *e, LLVMValueRef gep);
uint32_t wl_gep_value(wl_em *e, LLVMValueRef gep, int *mobj);
void wl_mem_load(wl_em *e, LLVMValueRef inst);
void wl_mem_store(wl_em *e, LLVMValueRef inst);
void wl_mem_atomicrmw(wl_em *e, LLVMValueRef inst);
void wl_mem_cmpxchg(wl_em *e, LLVMValueRef inst);
int wl_mem_cmpxchg_split(LLVMValueRef cmpxchg); /* bound to the old value; extractvalue 1 compares */
void wl_mem_fence(wl_em *e, LLVMValueRef inst);
int wl_mem_intrinsic(wl_em *e, LLVMValueRef call, const char *name);
uint32_t wl_builtin(wl_em *e, uint32_t builtin, int vec3);
uint32_t wl_ptr_value(wl_em *e, LLVMValueRef v, int *mobj); /* offset or address */
int wl_mem_const_offset(wl_em *e, LLVMValueRef p, uint64_t *c); /* a constant word-memory pointer's offset */

/* push.c: @wl.push as a struct of the scalars read (1: made, 0: keep the
 * array), and a load from it at the constant byte offset off */
int wl_push_struct(wl_em *e, wl_mobj *m, LLVMValueRef g, uint64_t bytes, uint32_t sc);
/* memory.c: decorates var with the descriptor slot of the module's buffer
 * WL_BINDING_* b (the host's remap_binding); 0 with the failure recorded */
int wl_mem_bind(wl_em *e, uint32_t var, int b);
uint32_t wl_push_load(wl_em *e, LLVMValueRef inst, wl_mobj *m, uint32_t off, LLVMTypeRef t);

/* intrin.c */
void wl_call(wl_em *e, LLVMValueRef call);

/* fma.c: a correctly rounded fma of float scalars or vectors of type t */
uint32_t wl_fma_exact(wl_em *e, LLVMTypeRef t, uint32_t a, uint32_t b, uint32_t c);

/* cfg.c */
typedef struct wl_cfg {
    size_t n;                  /* reachable blocks, in reverse post order */
    LLVMBasicBlockRef *bb;
    int *merge;                /* selection merge: block, -1 none, -2 unreachable */
    int *lmerge;               /* loop header's merge: block, -2 unreachable */
    int *cont;                 /* loop header's continue target (its latch) */
    int *is_loop;              /* loop header */
    uint32_t *label_in, *label_body; /* SPIR-V labels; body != in for loop headers */
    int *dom_pre, *dom_post;   /* the dominator tree's DFS numbers: a dominates b iff pre[a] <= pre[b] && post[b] <= post[a] */
    wl_pmap index;             /* block -> index + 1 */
} wl_cfg;
wl_status wl_cfg_build(wl_em *e, LLVMValueRef fn, wl_cfg *cfg);
/* wl_prepare_module, counting the functions that needed LLVM's structurizecfg
 * (the others were structured as they were). */
wl_status wl_prepare_module_counted(LLVMModuleRef m, unsigned *structurized, char *err, size_t errcap);
void wl_cfg_free(wl_cfg *cfg);
int wl_cfg_index(wl_cfg *cfg, LLVMBasicBlockRef bb);
int wl_cfg_dominates(const wl_cfg *cfg, int a, int b);

#endif
