/* The pass shape's error path (pass.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pass.h"

int wl_pass_fail(wl_pass_ctx *P, wl_status st, const char *fmt, ...)
{
    P->status = st ? st : WL_ERR_INVALID;
    if (fmt && P->errcap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(P->err, P->errcap, fmt, ap);
        va_end(ap);
    }
    return -1;
}

void wl_pass_ctx_init(wl_pass_ctx *P, LLVMModuleRef m, const wl_lower_options *lo, char *err, size_t errcap)
{
    memset(P, 0, sizeof *P);
    P->m = m;
    P->lo = lo;
    P->err = err;
    P->errcap = errcap;
    if (errcap)
        err[0] = 0;
}
