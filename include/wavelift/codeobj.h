/* wavelift: AMDGPU code objects (HSA code object v4/v5, as clang-19 writes
 * them): kernels, their 64-byte descriptors and the AMDHSA metadata note. */
#ifndef WAVELIFT_CODEOBJ_H
#define WAVELIFT_CODEOBJ_H

#include "wavelift/decode.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The kernel descriptor (AMDHSA, 64 bytes), field by field. */
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

/* Decoded bits of the descriptor that matter to a launch. */
typedef struct wl_kernel_launch_info {
    int wave32;                /* kernel_code_properties ENABLE_WAVEFRONT_SIZE32 */
    unsigned user_sgpr_count;  /* rsrc2 USER_SGPR_COUNT */
    unsigned vgpr_granules;    /* rsrc1 GRANULATED_WORKITEM_VGPR_COUNT */
    unsigned sgpr_granules;    /* rsrc1 GRANULATED_WAVEFRONT_SGPR_COUNT */
    int enable_private_segment;    /* rsrc2 ENABLE_PRIVATE_SEGMENT */
    int enable_sgpr_workgroup_id[3];
    int enable_sgpr_workgroup_info;
    unsigned enable_vgpr_workitem_id; /* 0: x, 1: x,y, 2: x,y,z */
    int user_sgpr_private_segment_buffer;
    int user_sgpr_dispatch_ptr;
    int user_sgpr_queue_ptr;
    int user_sgpr_kernarg_segment_ptr;
    int user_sgpr_dispatch_id;
    int user_sgpr_flat_scratch_init;
    int user_sgpr_private_segment_size;
    int uses_dynamic_stack;
} wl_kernel_launch_info;

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
    int abi_version;         /* HSA code object version: 4, 5 (ELF EI_ABIVERSION + 2) */
    uint32_t e_flags;        /* EF_AMDGPU_MACH and the feature bits */
    int target;              /* wl_target, or -1 when EF_AMDGPU_MACH is not a gfx10 target */
    char mach_name[16];      /* "gfx1030", ... */
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
wl_status wl_codeobj_read(const uint8_t *data, size_t size, wl_codeobj **out,
                          char *err, size_t errcap);
/* Reads a code object from a file. */
wl_status wl_codeobj_load(const char *path, wl_codeobj **out, char *err,
                          size_t errcap);
void wl_codeobj_free(wl_codeobj *co);

const wl_kernel *wl_codeobj_find_kernel(const wl_codeobj *co, const char *name);
/* The code bytes of a kernel (inside co->data). */
const uint8_t *wl_kernel_code(const wl_codeobj *co, const wl_kernel *k);

#ifdef __cplusplus
}
#endif
#endif
