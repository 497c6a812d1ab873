/* wl_status_name (wavelift/decode.h): the one status's names, and
 * wl_rt_format_err, in the library and the runtime alike (runtime/guest/). */
#include "wavelift/decode.h"
#include "guest_internal.h"

#include <stdarg.h>
#include <stdio.h>

const char *wl_status_name(wl_status s)
{
    switch (s) {
    case WL_OK: return "ok";
    case WL_ERR_TRUNCATED: return "instruction cut off at the end of the code";
    case WL_ERR_INVALID: return "invalid instruction encoding";
    case WL_ERR_NOMEM: return "out of memory";
    case WL_ERR_IO: return "I/O error";
    case WL_ERR_FORMAT: return "malformed input";
    case WL_ERR_NOT_FOUND: return "not found";
    case WL_ERR_USAGE: return "usage error";
    case WL_ERR_UNSUPPORTED: return "unsupported";
    case WL_ERR_ESCAPE: return "the dispatch escaped: result refused";
    case WL_ERR_VULKAN: return "a Vulkan call failed";
    case WL_ERR_NO_DEVICE: return "no Vulkan device";
    }
    return "unknown error";
}

void wl_rt_format_err(char *err, size_t errcap, const char *fmt, ...)
{
    if (!err || errcap == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errcap, fmt, ap);
    va_end(ap);
}
