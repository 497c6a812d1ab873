/* The shape of every project pass of the translate pipeline (lower/pipeline.c,
 * docs/architecture.md "The pipeline").
 *
 * A pass is `int pass(wl_pass_ctx *P, unsigned arg)`: it works on P->m with
 * what it needs from P (the lowering's options, the model's state), `arg` is
 * the table entry's parameter, and it returns the number of changes it made
 * (0: none; the pipeline verifies only after progress), or -1 after
 * wl_pass_fail has recorded the status and the message: the one error path. */
#ifndef WL_LLVM_PASSES_PASS_H
#define WL_LLVM_PASSES_PASS_H

#include <stddef.h>

#include <llvm-c/Core.h>

#include "wavelift/lower.h"

typedef struct wl_pass_ctx {
    LLVMModuleRef m;
    const wl_lower_options *lo; /* what the lowering gets (fold_prepare reads the workgroup size) */
    wl_lower_info li;           /* what the model's lowering left: lanes an invocation, ... */
    unsigned subgroup_size;     /* S (lanes model) */
    int fused_fma;              /* the host's Fma is fused (wl_translate_options.fused_fma) */
    void *model;                /* the wave model's state between its steps (lower/wave/wave.c) */
    wl_status status;           /* set by wl_pass_fail */
    char *err;
    size_t errcap;
} wl_pass_ctx;

typedef int (*wl_pass_fn)(wl_pass_ctx *P, unsigned arg);

/* Records st and the message (printf format) in P; returns -1. Where err
 * already holds a message (a lowering's own), pass fmt NULL to keep it. */
int wl_pass_fail(wl_pass_ctx *P, wl_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* A context for running passes outside the pipeline (tests): module m,
 * no options, the message buffer err. */
void wl_pass_ctx_init(wl_pass_ctx *P, LLVMModuleRef m, const wl_lower_options *lo, char *err, size_t errcap);

#endif
