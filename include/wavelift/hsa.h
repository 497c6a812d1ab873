/* wavelift: the HSA launch of an AMDHSA kernel, as the ROCm runtime makes
 * it (docs/embedding.md, "The launch"): the kernarg segment (explicit
 * arguments and the hidden ones the kernel's metadata lists, code object v4
 * and v5), the dispatch packet, the queue's aperture fields, and the
 * initial user SGPRs as the kernel descriptor enables them. Plain C, no
 * LLVM. An emulator that launches code objects fills these into guest
 * memory and hands the user SGPRs to the translation's push constants
 * (wavelift/abi.h, WL_PUSH_USER_SGPRS); `wavelift run` does. */
#ifndef WAVELIFT_HSA_H
#define WAVELIFT_HSA_H

#include <stddef.h>
#include <stdint.h>

#include "wavelift/api.h"
#include "wavelift/codeobj.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One explicit kernel argument. */
typedef enum wl_hsa_arg_kind {
    WL_HSA_ARG_U32, WL_HSA_ARG_I32, WL_HSA_ARG_U64, WL_HSA_ARG_I64, WL_HSA_ARG_F32, WL_HSA_ARG_F64,
    WL_HSA_ARG_BUF,   /* a global buffer with contents (its address: wl_hsa_addresses.arg); for an
                       * argument of value kind `image`, the buffer holding its T# */
    WL_HSA_ARG_ZERO,  /* a zeroed global buffer of `bytes` */
    WL_HSA_ARG_LOCAL  /* dynamic LDS of `bytes` */
} wl_hsa_arg_kind;

typedef struct wl_hsa_arg {
    wl_hsa_arg_kind kind;
    uint64_t bits;      /* a scalar's bytes (little-endian), by size */
    uint32_t size;      /* a scalar's size: 4 or 8 */
    const char *file;   /* the caller's note (the command line: buf:FILE); not read here */
    uint64_t bytes;     /* zero:, local:, and a buffer's size */
} wl_hsa_arg;

typedef struct wl_hsa_geometry {
    uint32_t global[3]; /* work-items */
    uint32_t local[3];  /* work-items a group */
    unsigned dims;
} wl_hsa_geometry;

/* Guest addresses of what the launch points at (0 where not made). */
typedef struct wl_hsa_addresses {
    uint64_t kernarg;
    uint64_t dispatch_packet;
    uint64_t queue;
    const uint64_t *arg;      /* per explicit argument: its buffer's address (buffers only) */
} wl_hsa_addresses;

#define WL_HSA_DISPATCH_PACKET_BYTES 64 /* hsa_kernel_dispatch_packet_t */
#define WL_HSA_QUEUE_BYTES 256          /* amd_queue_t's part a kernel reads */

/* The explicit (non-hidden) arguments of a kernel, in order, against args:
 * count, kind and size. 0, or -1 with a message in err. */
WL_API int wl_hsa_check_args(const wl_kernel *k, const wl_hsa_arg *args, size_t nargs, char *err, size_t errcap);
/* Bytes of dynamic LDS the local arguments take, each after the static
 * group segment, 16-aligned; lds_off[i] gets a local argument's offset. */
WL_API uint32_t wl_hsa_dynamic_lds(const wl_kernel *k, const wl_hsa_arg *args, size_t nargs, uint32_t *lds_off);
/* Fills the kernarg segment (seg, segsize bytes, zeroed first): explicit
 * arguments and every hidden argument the metadata lists. Refuses by name
 * what it cannot provide (printf, hostcall, ...): -1 with a message. */
WL_API int wl_hsa_fill_kernarg(const wl_kernel *k, const wl_hsa_arg *args, size_t nargs,
                               const wl_hsa_addresses *addr, const uint32_t *lds_off, const wl_hsa_geometry *g,
                               uint32_t dynamic_lds, uint8_t *seg, size_t segsize, char *err, size_t errcap);
/* The dispatch packet of the launch. */
WL_API void wl_hsa_fill_dispatch_packet(const wl_kernel *k, const wl_hsa_geometry *g, uint64_t kernarg_addr,
                                        uint32_t group_bytes, uint8_t pkt[WL_HSA_DISPATCH_PACKET_BYTES]);
/* The queue's aperture fields (the rest zero). */
WL_API void wl_hsa_fill_queue(uint8_t q[WL_HSA_QUEUE_BYTES]);
/* The initial user SGPRs as the descriptor enables them, in hardware
 * order: the count, or -1 with a message (more than 16, or one that cannot
 * be provided). */
WL_API int wl_hsa_user_sgprs(const wl_kernel *k, const wl_hsa_addresses *addr, uint32_t sgpr[16], char *err,
                             size_t errcap);

#ifdef __cplusplus
}
#endif
#endif
