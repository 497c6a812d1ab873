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

#ifdef __cplusplus
extern "C" {
#endif
/* The library's version, and the LLVM version it was built with. */
WL_API const char *wl_version(void);
WL_API const char *wl_llvm_version(void);
#ifdef __cplusplus
}
#endif
#endif
