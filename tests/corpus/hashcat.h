/* Ours: what hashcat's host code passes to its OpenCL C library (the
 * hashcat-data package's /usr/share/hashcat/OpenCL, included through -I):
 * scalar code (VECT_SIZE 1), the kernels' static build (KERNEL_STATIC), no
 * vendor (IS_GENERIC: the portable paths, the same source for PoCL and
 * amdgcn), and the digest layout hash_comp reads. Functions are
 * `inline static`, as inc_vendor.h makes them for AMD GPUs, so that only
 * what a kernel calls is compiled. */
#define VECT_SIZE 1
#define KERNEL_STATIC
#define DGST_ELEM 4
#define DGST_R0 0
#define DGST_R1 1
#define DGST_R2 2
#define DGST_R3 3
#include "inc_vendor.h"
#undef DECLSPEC
#define DECLSPEC inline static
#include "inc_types.h"
#include "inc_platform.cl"
#include "inc_common.cl"
#include "corpus.h"
