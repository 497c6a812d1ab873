/* wavelift: lifts AMD RDNA (gfx10) compute programs to Vulkan SPIR-V.
 * The umbrella header. */
#ifndef WAVELIFT_H
#define WAVELIFT_H

#include "wavelift/api.h"

#include "wavelift/decode.h"
#include "wavelift/codeobj.h"

#define WAVELIFT_VERSION_MAJOR 0
#define WAVELIFT_VERSION_MINOR 1
#define WAVELIFT_VERSION_PATCH 0
#define WAVELIFT_VERSION_STRING "0.1.0"
/* the same, shorter; the major version is the shared library's SONAME */
#define WL_VERSION_MAJOR WAVELIFT_VERSION_MAJOR
#define WL_VERSION_MINOR WAVELIFT_VERSION_MINOR
#define WL_VERSION_PATCH WAVELIFT_VERSION_PATCH

#ifdef __cplusplus
extern "C" {
#endif
/* The library's version, and the LLVM version it was built with. */
WL_API const char *wl_version(void);
WL_API const char *wl_llvm_version(void);
/* The library's version as numbers (any pointer may be NULL): a program
 * compares them with the WL_VERSION_* it was built with (the same major
 * is the same ABI). */
WL_API void wl_version_numbers(unsigned *major, unsigned *minor, unsigned *patch);
#ifdef __cplusplus
}
#endif
#endif
