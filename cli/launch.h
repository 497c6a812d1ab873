/* One dispatch of a translated kernel as data: the buffers (size, initial
 * bytes, role), the push constants, and the relocations that put buffers'
 * device addresses into those bytes. `wavelift run` builds it and realizes
 * it with the runtime (cmd_run.c); `wavelift run --bundle DIR` writes it as
 * files (bundle.c, docs/bundle.md) for bench/wl_bundlerun.c, which realizes
 * it the same way on a machine without LLVM. */
#ifndef WL_CLI_LAUNCH_H
#define WL_CLI_LAUNCH_H

#include "cli.h"

#include "wavelift/lower.h" /* WL_PUSH_* */
#include "wavelift/runtime.h" /* wl_rt_mapping */
#include "wavelift/translate.h"

#define CLI_LAUNCH_MAX_ARGS 64
#define CLI_LAUNCH_MAX_BUFFERS (CLI_LAUNCH_MAX_ARGS + 8)
#define CLI_LAUNCH_MAX_RELOCS 256

typedef enum cli_buffer_role {
    CLI_BUF_ARG,     /* a buf: or zero: kernel argument */
    CLI_BUF_KERNARG, /* the kernarg segment */
    CLI_BUF_PACKET,  /* the hsa_kernel_dispatch_packet_t */
    CLI_BUF_QUEUE,   /* the amd_queue_t */
    CLI_BUF_STATUS,  /* binding 0: the status words */
    CLI_BUF_SCRATCH, /* scratch, its address in push constants 64..71 */
    CLI_BUF_LDS,     /* binding 2: device-memory LDS */
    CLI_BUF_IMAGE    /* the code object's loaded image (cli_image), just below CLI_GUEST_BASE */
} cli_buffer_role;

typedef struct cli_launch_buffer {
    cli_buffer_role role;
    unsigned arg;  /* CLI_BUF_ARG: the --arg number */
    uint64_t size; /* bytes: at least 16, a multiple of 16 */
    uint8_t *init; /* the initial bytes (size of them; relocation fields 0), NULL: zeros */
} cli_launch_buffer;

/* "At byte `offset` of buffer `in` (-1: of the push constants) put the
 * device address of buffer `target` plus `addend`, as a little-endian u64." */
typedef struct cli_reloc {
    int in;
    uint32_t offset;
    unsigned target;
    uint64_t addend;
} cli_reloc;

typedef struct cli_launch {
    cli_launch_buffer buf[CLI_LAUNCH_MAX_BUFFERS];
    unsigned nbuf;
    cli_reloc rel[CLI_LAUNCH_MAX_RELOCS];
    unsigned nrel;
    uint8_t push[WL_PUSH_BYTES]; /* relocation fields 0 */
    uint32_t groups[3];          /* workgroup counts */
    int status, lds;             /* the buffers at bindings 0 and 2 (-1: none) */
    int arg_buf[CLI_LAUNCH_MAX_ARGS]; /* per --arg: its buffer, or -1 */
    int image;                   /* the image's buffer (-1: none) */
    int image_writable;          /* cli_image.writable */
    /* Guest memory (docs/memory.md): the buffers the program reaches by
     * address (the image, arguments, kernarg segment, packet, queue) lie in one arena
     * at guest address guest_base; a relocation then names guest_base +
     * arena_off[target] + addend, and the dispatch maps the arena's
     * arena_bytes to its host buffer. arena_off[b] is CLI_NOT_IN_ARENA for
     * the others (status, scratch, LDS: bindings or host addresses). */
    uint64_t guest_base, arena_bytes;
    uint64_t arena_off[CLI_LAUNCH_MAX_BUFFERS];
} cli_launch;

#define CLI_GUEST_BASE 0x100000000000ull /* 2^44: guest addresses unlike any host's */
#define CLI_NOT_IN_ARENA UINT64_MAX

/* The code object's loaded image (image.c): its PT_LOAD segments as the
 * ROCm loader lays them out, segment i at image base + p_vaddr (bytes
 * [0, size) of the image are ELF addresses [0, size)). A launch with an
 * image starts the arena with it, ending at CLI_GUEST_BASE (so the other
 * buffers keep their places): its base, cli_image_base(), is
 * CLI_GUEST_BASE - cli_image_span(), aligned as its segments ask. The
 * lifter's prog.address (the guest address of code[0]) is then that base
 * + the code's ELF address, known before the translation, and
 * s_getpc-relative reads of .rodata hit the loaded copy; the dispatch
 * packet's kernel_object is the base + the descriptor's address. */
#define CLI_IMAGE_MAX_BYTES (256ull << 20)
#define CLI_IMAGE_MAX_ALIGN (1ull << 20)

typedef struct cli_image {
    uint8_t *bytes;  /* size bytes, owned; relocation fields 0 */
    uint64_t size;   /* the highest segment end, rounded up to 16 */
    uint64_t align;  /* the largest p_align (at least 16) */
    int writable;    /* a PF_W PT_LOAD segment outside PT_GNU_RELRO (.data, .bss) */
    /* R_AMDGPU_RELATIVE64: at byte rel_offset[i] put image base + rel_addend[i] */
    uint64_t *rel_offset, *rel_addend;
    unsigned nrel;
} cli_image;

/* Loads co's image (*img zeroed first). Returns 0, or -1 with a message. */
int cli_image_load(const wl_codeobj *co, cli_image *img, char *err, size_t errcap);
void cli_image_free(cli_image *img);
/* The bytes the image takes in the arena (its size rounded up to its
 * alignment and to 256) and its guest address. */
uint64_t cli_image_span(const cli_image *img);
uint64_t cli_image_base(const cli_image *img);

/* Builds the launch (*L, zeroed first) of kernel k with the given arguments
 * (buf: files are read here: args[i].bytes gets their size) and geometry,
 * for a translation whose info and LDS bytes (static + dynamic_lds) are
 * given. With img (NULL: none, the packet's kernel_object is then the
 * descriptor's ELF address) the image is the arena's first buffer, at
 * cli_image_base(img); its bytes are copied. Returns 0, or an exit status with
 * a message in err. */
int cli_launch_build(const wl_kernel *k, wl_hsa_arg *args, const cli_img_arg *imgs, size_t nargs,
                     const wl_hsa_geometry *g,
                     uint32_t lds_bytes, uint32_t dynamic_lds, const uint32_t *lds_off,
                     const wl_translate_info *info, const cli_image *img, cli_launch *L,
                     char *err, size_t errcap);
void cli_launch_free(cli_launch *L);

/* pages.c, `wavelift run --pages`: the arena's buffers after the image
 * moved onto pages of their own, one unmapped page before each
 * (arena_off, arena_bytes rewritten; the host arena then starts
 * cli_pages_lead() bytes before guest_base, so that guest_base - lead is
 * on a page boundary), and the page table's ranges, one a buffer (at most
 * cap; their count returned). */
uint64_t cli_pages_lead(const cli_launch *L);
void cli_pages_spread(cli_launch *L);
size_t cli_pages_ranges(const cli_launch *L, uint64_t arena_address, wl_rt_mapping *r, size_t cap);

/* What a bundle's manifest records besides the launch. */
typedef struct cli_bundle_meta {
    const char *kernel, *code_object;
    unsigned wave, subgroup, k;
    uint32_t local[3];
    int merge_stores;
    int fused_fma;           /* llvm.fma as the device's Fma: runs only where Fma is fused */
    int pages;               /* --pages: the arena through the page table (format 3) */
    int host_ir;             /* host.bc written (the lanes model): `host-ir` and `host-local` lines */
    uint32_t host_local[3];  /* the module's LocalSize */
    int model;               /* WL_MODEL_LANES or WL_MODEL_WAVE (subgroup 0 for the wave model) */
    unsigned lane_loops;     /* the wave model's lane loops (wl_translate_info) */
    double translate_ms;     /* information: the translation's time */
    const unsigned *out_arg; /* --out N:FILE: compare buffer argument N with DIR/FILE */
    const char *const *out_file;
    size_t nouts;
} cli_bundle_meta;

/* Writes DIR/ (created if missing): manifest.txt, module.spv, push.bin and
 * buf.N.bin for the buffers with initial bytes (docs/bundle.md). Returns 0
 * or an exit status (message on stderr). */
int cli_bundle_write(const char *dir, const cli_launch *L, const uint32_t *words,
                     size_t nwords, const cli_bundle_meta *m);

#endif
