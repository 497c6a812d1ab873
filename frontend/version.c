/* The library's version strings. */
#include "wavelift.h"

#include <llvm-c/Core.h>
#include <stdio.h>

const char *wl_version(void)
{
    return WAVELIFT_VERSION_STRING;
}

const char *wl_llvm_version(void)
{
    return WL_LLVM_VERSION_STRING;
}

void wl_version_numbers(unsigned *major, unsigned *minor, unsigned *patch)
{
    if (major)
        *major = WAVELIFT_VERSION_MAJOR;
    if (minor)
        *minor = WAVELIFT_VERSION_MINOR;
    if (patch)
        *patch = WAVELIFT_VERSION_PATCH;
}
