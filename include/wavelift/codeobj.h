/* wavelift: AMDGPU code objects (HSA code object v4/v5, as clang-19 writes
 * them): kernels, their 64-byte descriptors and the AMDHSA metadata note. */
#ifndef WAVELIFT_CODEOBJ_H
#define WAVELIFT_CODEOBJ_H

#include "wavelift/api.h"

#include "wavelift/decode.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The kernel descriptor (AMDHSA, 64 bytes), field by field.
 *
 *   byte  0  u32 group_segment_fixed_size
 *   byte  4  u32 private_segment_fixed_size
 *   byte  8  u32 kernarg_size
 *   byte 12  4 bytes reserved
 *   byte 16  i64 kernel_code_entry_byte_offset (entry = descriptor address + it)
 *   byte 24  20 bytes reserved
 *   byte 44  u32 compute_pgm_rsrc3
 *   byte 48  u32 compute_pgm_rsrc1
 *   byte 52  u32 compute_pgm_rsrc2
 *   byte 56  u16 kernel_code_properties
 *   byte 58  u16 kernarg_preload (LENGTH 6:0, OFFSET 15:7)
 *   byte 60  4 bytes reserved
 */
typedef struct wl_kernel_descriptor {
    uint32_t group_segment_fixed_size;
    uint32_t private_segment_fixed_size;
    uint32_t kernarg_size;
    int64_t kernel_code_entry_byte_offset; /* relative to the descriptor */
    uint32_t compute_pgm_rsrc3;
    uint32_t compute_pgm_rsrc1;
    uint32_t compute_pgm_rsrc2;
    uint16_t kernel_code_properties;
    uint16_t kernarg_preload;
    uint8_t raw[64];
} wl_kernel_descriptor;

/* The descriptor's bit fields, decoded (gfx10 layout). Reserved bits are
 * not checked: clang-19 sets some that llvm-objdump-19 rejects. */
typedef struct wl_kernel_launch_info {
    /* kernel_code_properties */
    int wave32;                /* ENABLE_WAVEFRONT_SIZE32 (bit 10) */
    int user_sgpr_private_segment_buffer; /* bit 0 */
    int user_sgpr_dispatch_ptr;           /* bit 1 */
    int user_sgpr_queue_ptr;              /* bit 2 */
    int user_sgpr_kernarg_segment_ptr;    /* bit 3 */
    int user_sgpr_dispatch_id;            /* bit 4 */
    int user_sgpr_flat_scratch_init;      /* bit 5 */
    int user_sgpr_private_segment_size;   /* bit 6 */
    int uses_dynamic_stack;               /* bit 11 */
    /* compute_pgm_rsrc2 */
    int enable_private_segment;    /* bit 0 (private segment wavefront offset SGPR) */
    unsigned user_sgpr_count;      /* 5:1 */
    int enable_trap_handler;       /* 6 */
    int enable_sgpr_workgroup_id[3]; /* 7, 8, 9 */
    int enable_sgpr_workgroup_info;  /* 10 */
    unsigned enable_vgpr_workitem_id; /* 12:11 (0: x, 1: x,y, 2: x,y,z) */
    int exception_address_watch;   /* 13 */
    int exception_memory;          /* 14 */
    unsigned granulated_lds_size;  /* 23:15 */
    int exception_fp_ieee_invalid_op; /* 24 */
    int exception_fp_denorm_src;      /* 25 */
    int exception_fp_ieee_div_zero;   /* 26 */
    int exception_fp_ieee_overflow;   /* 27 */
    int exception_fp_ieee_underflow;  /* 28 */
    int exception_fp_ieee_inexact;    /* 29 */
    int exception_int_div_zero;       /* 30 */
    /* compute_pgm_rsrc1 */
    unsigned vgpr_granules;    /* 5:0 GRANULATED_WORKITEM_VGPR_COUNT */
    unsigned sgpr_granules;    /* 9:6 GRANULATED_WAVEFRONT_SGPR_COUNT */
    unsigned priority;         /* 11:10 */
    unsigned float_round_mode_32;    /* 13:12 */
    unsigned float_round_mode_16_64; /* 15:14 */
    unsigned float_denorm_mode_32;   /* 17:16 */
    unsigned float_denorm_mode_16_64; /* 19:18 */
    int priv;                  /* 20 */
    int dx10_clamp;            /* 21 */
    int debug_mode;            /* 22 */
    int ieee_mode;             /* 23 */
    int bulky;                 /* 24 */
    int cdbg_user;             /* 25 */
    int fp16_overflow;         /* 26 */
    int wgp_mode;              /* 29 (workgroup processor mode) */
    int mem_ordered;           /* 30 */
    int fwd_progress;          /* 31 */
    /* compute_pgm_rsrc3 */
    unsigned shared_vgpr_count; /* 3:0 */
    /* kernarg_preload */
    unsigned kernarg_preload_length; /* dwords, 6:0 */
    unsigned kernarg_preload_offset; /* dwords, 15:7 */
} wl_kernel_launch_info;

/* Decodes the 64 descriptor bytes into kd and launch (no validation). */
WL_API void wl_kernel_descriptor_decode(const uint8_t raw[64], wl_kernel_descriptor *kd,
                                 wl_kernel_launch_info *launch);

/* One kernel argument from the metadata note. */
typedef struct wl_kernel_arg {
    char *name;          /* .name, or NULL */
    char *type_name;     /* .type_name, or NULL */
    char *value_kind;    /* .value_kind: global_buffer, by_value, hidden_* ... */
    char *address_space; /* .address_space, or NULL */
    uint32_t offset;
    uint32_t size;
} wl_kernel_arg;

typedef struct wl_kernel {
    char *name;                 /* the kernel's name (the .kd symbol without ".kd") */
    uint64_t kd_address;        /* virtual address of the descriptor */
    uint64_t code_address;      /* virtual address of the first instruction */
    uint64_t code_offset;       /* file offset of the first instruction */
    uint64_t code_size;         /* bytes: from the entry to the end of its symbol,
                                   or to the next symbol/section end */
    wl_kernel_descriptor kd;
    wl_kernel_launch_info launch;
    /* From the metadata note (zero / NULL where the note lacks them). */
    wl_kernel_arg *args;
    size_t nargs;
    uint32_t kernarg_segment_size;
    uint32_t kernarg_segment_align;
    uint32_t group_segment_fixed_size;
    uint32_t private_segment_fixed_size;
    uint32_t wavefront_size;
    uint32_t sgpr_count, vgpr_count;
    uint32_t max_flat_workgroup_size;
    int has_metadata;
    int has_code_symbol;        /* code_size came from the kernel's STT_FUNC symbol */
} wl_kernel;

/* A function that is not a kernel (called by kernels), kept with its code. */
typedef struct wl_function {
    char *name;
    uint64_t address;
    uint64_t code_offset;
    uint64_t size;
} wl_function;

typedef struct wl_codeobj {
    /* The file's bytes, owned. */
    uint8_t *data;
    size_t size;
    int abi_version;         /* HSA code object version: 4, 5, 6 (ELF EI_ABIVERSION + 2) */
    uint32_t e_flags;        /* EF_AMDGPU_MACH and the feature bits */
    unsigned mach;           /* e_flags & 0xff (EF_AMDGPU_MACH) */
    int target;              /* wl_target, or -1 when EF_AMDGPU_MACH is not a gfx10
                                target; gfx10-1-generic gives WL_GFX1010 and
                                gfx10-3-generic WL_GFX1030 */
    char mach_name[16];      /* "gfx1030", "gfx10-3-generic", ..., or "mach-0x.." */
    int xnack;               /* EF_AMDGPU_FEATURE_XNACK_V4: 0 unsupported, 1 any, 2 off, 3 on */
    int sramecc;             /* EF_AMDGPU_FEATURE_SRAMECC_V4, same encoding */
    unsigned generic_version; /* EF_AMDGPU_GENERIC_VERSION (v6), else 0 */
    /* From the metadata note: amdhsa.target, amdhsa.version (NULL / 0 without one). */
    char *metadata_target;
    unsigned metadata_version[2];
    /* .text */
    uint64_t text_address;
    uint64_t text_offset;
    uint64_t text_size;
    wl_kernel *kernels;
    size_t nkernels;
    wl_function *functions;
    size_t nfunctions;
} wl_codeobj;

/* Reads a code object from memory (the bytes are copied). On error returns
 * non-WL_OK and writes a message (no file name) into err[0..errcap). */
WL_API wl_status wl_codeobj_read(const uint8_t *data, size_t size, wl_codeobj **out,
                          char *err, size_t errcap);
/* Reads a code object from a file. */
WL_API wl_status wl_codeobj_load(const char *path, wl_codeobj **out, char *err,
                          size_t errcap);
WL_API void wl_codeobj_free(wl_codeobj *co);

WL_API const wl_kernel *wl_codeobj_find_kernel(const wl_codeobj *co, const char *name);
/* The code bytes of a kernel (inside co->data). */
WL_API const uint8_t *wl_kernel_code(const wl_codeobj *co, const wl_kernel *k);

#ifdef __cplusplus
}
#endif
#endif
