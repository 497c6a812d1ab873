/* The lifter with the translation's own switches (lower/pipeline.c); not
 * part of the API: wl_lift is this with none. */
#ifndef WL_LIFT_EX_H
#define WL_LIFT_EX_H

#include "wavelift/lift.h"

enum {
    /* the call plan per function marks its calls and returns for
     * llvm-passes/outline_calls.c (the debug option's `outline-calls`) */
    WL_LIFT_OUTLINE_CALLS = 1u << 0,
};

wl_status wl_lift_ex(LLVMContextRef ctx, const wl_lift_program *p, unsigned flags, LLVMModuleRef *out, char *err,
                     size_t errcap);

#endif
