/* The lifter's program map (discovery's result, lift.c), its call-target
 * tracker (lift_track.c) and its call plan (lift_calls.c): which copies of
 * the code are lifted ("contexts"; docs/wave-ir.md, "Calls").
 *
 * Per call site, every call gets its own copy of the callee and a return
 * (s_setpc_b64) compares against the one return site of that call; per
 * function, one copy a callee whose returns compare against the return
 * sites of the calls that reach it. Past the limits, the general plan: one
 * context holding every decoded instruction, where a return compares
 * against every return site of the program. */
#ifndef WL_LIFT_CALLS_H
#define WL_LIFT_CALLS_H

#include "lift_internal.h"

#include <stddef.h>
#include <stdint.h>

/* One lifted copy of code: the root (the kernel, parent -1) or a callee
 * reached from call site `site` of context `parent`. */
typedef struct wl_call_ctx {
    int32_t parent;
    size_t site;              /* the parent's s_swappc_b64 word */
    size_t start;             /* the callee's first word */
    size_t ret;               /* the return site: the word after `site` */
    size_t *words;            /* the words this copy lifts, ascending */
    LLVMBasicBlockRef *bb;    /* per entry of words: its block, made on first use */
    size_t nwords;
    size_t edge0, nedges;     /* its calls: plan edges [edge0, edge0 + nedges) */
} wl_call_ctx;

/* A call edge: the s_swappc_b64 at `site` of a context may go to `target`,
 * lifted as context `to`. */
typedef struct wl_call_edge {
    size_t site, ret, target;
    uint32_t from, to;
} wl_call_edge;

typedef struct wl_prog_map {
    size_t nwords;
    int32_t *at;       /* per word: index into insts, -1 unseen, -2 inside an instruction */
    uint8_t *leader;   /* per word */
    wl_inst *insts;
    int64_t *jump;     /* per instruction: s_setpc/s_swappc target word found by the tracker,
                          -1 none, -2 known but outside the code */
    size_t ninsts, cap;
    size_t *rets;      /* return sites: the words after each s_swappc_b64 */
    size_t nrets, retcap;
    /* The plan (wl_lift_calls_plan). */
    int inlined;               /* 1: calls inline; 0: the general plan */
    int shared;                /* inline plan with one copy a function */
    const char *general_why;   /* why the general plan was taken (NULL: no calls) */
    wl_call_ctx *ctx;
    size_t nctx;
    wl_call_edge *edges;
    size_t nedges;
    size_t lifted;             /* instructions over all contexts */
    size_t cur;                /* the context being lifted */
    uint8_t *retsite;          /* per word: the word after an s_swappc_b64 */
    /* The plan per function without recursion, where a callee has several
     * calls: each call goes through a block wl.call.<edge> and each return
     * through a block wl.ret.<edge>, and a pseudo-register names the call
     * that entered the callee, so that the host IR can make each callee a
     * function of its own (llvm-passes/outline_calls.c). */
    int outline;
} wl_prog_map;

enum { WL_CF_NONE = 0, WL_CF_END, WL_CF_BRANCH, WL_CF_CBRANCH, WL_CF_STOP, WL_CF_SETPC, WL_CF_SWAPPC };

/* The call-target tracker (lift_track.c): constants along one discovery
 * path. Only a hint (a wrong guess escapes at run time). */
enum { WL_CT_LANES = 96 };
struct wl_ct_lane {
    uint32_t key;   /* a VGPR, or a frame slot (soffset SGPR, offset) */
    uint32_t lane;
    uint32_t val;
};
typedef struct wl_ctrack {
    uint8_t known[WL_SRC_SGPR_MAX + 1];
    uint32_t val[WL_SRC_SGPR_MAX + 1];
    int scc_known, scc;
    struct wl_ct_lane lane[WL_CT_LANES];
    unsigned nlane;
} wl_ctrack;
int wl_ct_get(const wl_ctrack *c, const wl_operand *o, uint32_t *v);
int wl_ct_get64(const wl_ctrack *c, const wl_operand *o, uint64_t *v);
/* The state after instruction `in` (address: the code's guest address). */
void wl_ct_step(wl_ctrack *c, const wl_inst *in, uint64_t address);

/* The control-flow kind of an instruction (lift.c). */
int wl_lift_cf_kind(const wl_inst *in);
/* The word a SOPP branch goes to (may be outside the code; lift.c). */
int64_t wl_lift_branch_target(const wl_inst *in);

/* Plans the contexts after discovery: inline when the program has calls
 * and inlining fits (at most WL_CALLS_MAX_CTX contexts and
 * WL_CALLS_MAX_INSTS lifted instructions, no recursion), else the general
 * plan. WL_OK or WL_ERR_NOMEM. */
enum { WL_CALLS_MAX_CTX = 4096, WL_CALLS_MAX_INSTS = 400000 };
wl_status wl_lift_calls_plan(wl_prog_map *m, size_t entry_word);
/* Whether s_setpc_b64 instruction idx of context c continues in c at the
 * tracker's target: a known target that is not a return site (a return site
 * is reached as the return of the context instead), or any known target in
 * the root. */
int wl_lift_setpc_local(const wl_prog_map *m, const wl_call_ctx *c, size_t idx);
/* The index in c->words of word w, or -1. */
long wl_lift_ctx_find(const wl_call_ctx *c, size_t w);
void wl_lift_calls_free(wl_prog_map *m);

#endif
