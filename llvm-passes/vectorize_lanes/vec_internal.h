/* llvm-passes/vectorize_lanes/vec_lanes.c, vec_choose.c, vec_rewrite.c: the tuples of lane
 * clones (llvm-passes/passes.h; docs/backend.md "Vectors"), shared between the
 * matching, the choice and the rewrite. */
#ifndef WL_LOWER_VEC_INTERNAL_H
#define WL_LOWER_VEC_INTERNAL_H

#include <stddef.h>

#include <llvm-c/Core.h>

#define VL_MAXK 4

typedef struct vl_tuple {
    LLVMValueRef m[VL_MAXK];
    LLVMValueRef vec;   /* the vector (rewrite) */
    LLVMValueRef built; /* spv.construct of the members (a scalar tuple used by vectors) */
    int can;            /* vectorizable opcode and type */
    int on;             /* chosen */
    int barred;         /* left scalar: its vector could not come before a scalar reader */
    int cnode, cround;  /* its construct's node in cut() (of that round) */
    long pos;           /* the vector goes after the original instruction of this ordinal, */
    LLVMValueRef posi;  /* this one (NULL: the block's start) */
} vl_tuple;

typedef struct vl_ent {
    LLVMValueRef key;
    int tup; /* tuple index + 1 (0: free slot) */
    int lane;
    LLVMValueRef splat; /* a uniform value's splat */
    long ord;           /* place in its block (original instructions, from 1) */
    int inserted;       /* made by this pass */
    LLVMValueRef stop;  /* inserted: the original instruction the run it is in ends before (NULL: the block's end) */
    int cnode, cround;  /* its splat's node in cut() (of that round) */
} vl_ent;

typedef struct vl {
    unsigned k;
    vl_tuple *t;
    size_t nt, capt;
    vl_ent *h;
    size_t caph, nh;
    int oom;
    LLVMModuleRef mod;
    LLVMContextRef ctx;
    LLVMBuilderRef b;
} vl;

/* the value table (vec_lanes.c) */
vl_ent *wl_vl_get(vl *V, LLVMValueRef key);
vl_ent *wl_vl_put(vl *V, LLVMValueRef key); /* NULL when out of memory (V->oom) */
int wl_vl_tuple_of(vl *V, LLVMValueRef v, int *lane); /* -1: in no tuple */
int wl_vl_corresponds(vl *V, LLVMValueRef u0, LLVMValueRef uj, unsigned j);

/* the choice (vec_choose.c) */
const char *wl_vl_vector_intrinsic(LLVMValueRef call);
int wl_vl_vector_operand(vl *V, LLVMValueRef I, int i);
enum { VL_SRC_TUPLE, VL_SRC_VALUE, VL_SRC_MIXED };
int wl_vl_source(vl *V, vl_tuple *t, int o, int *src);
long wl_vl_ord_of(vl *V, LLVMValueRef v);
LLVMValueRef wl_vl_last_member(vl *V, vl_tuple *t);
void wl_vl_choose(vl *V);

/* the rewrite (vec_rewrite.c) */
void wl_vl_rewrite(vl *V, LLVMValueRef fn);

#endif
