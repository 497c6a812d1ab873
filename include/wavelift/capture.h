/* wavelift: dispatch captures (docs/capture.md).
 *
 * A capture is one compute dispatch as data, independent of code objects:
 * the code bytes and their guest address, the target and wave size, the
 * workgroup and grid size, the initial user SGPRs and which system SGPRs
 * and thread-id VGPRs the launch enables, LDS and scratch sizes, the float
 * mode, and the guest memory ranges the dispatch may touch with their
 * contents and whether they may be written. It is what an emulator hands
 * over and what `wavelift replay` runs.
 *
 * A replay keeps every range at its guest address and translates through
 * the runtime's guest mapping (docs/capture.md), so guest addresses stored
 * in the launch need no rewriting. Address fields (guest addresses in the
 * user SGPRs or in the ranges' bytes) are optional: they are checked, and a
 * replay through the identity mapping (asked for explicitly) rewrites them
 * to host addresses (wl_capture_relocate). Guest addresses are 48 bits:
 * bits 63:48 are ignored, as the hardware ignores them. The launch
 * convention (`launch radv|amdhsa`) names the launch's pointers in the user
 * SGPRs without fields (wl_capture_launch_pointers).
 *
 * Everything here is plain C (no LLVM, no Vulkan): the reader, the writer
 * and the builder. A capture owns all its memory; wl_capture_free frees it.
 * The reader refuses malformed input with a message naming the line (or
 * the file) and never crashes. */
#ifndef WAVELIFT_CAPTURE_H
#define WAVELIFT_CAPTURE_H

#include "wavelift/api.h"

#include <stddef.h>
#include <stdint.h>

#include "wavelift/decode.h"
#include "wavelift/lift.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WL_CAPTURE_VERSION 1
#define WL_CAPTURE_NAME_MAX 64          /* a range's name, NUL included */
#define WL_CAPTURE_MAX_USER_SGPRS 16    /* what the push constants carry (lower.h) */
#define WL_CAPTURE_MAX_RANGES 4096
#define WL_CAPTURE_MAX_FIELDS 65536
#define WL_CAPTURE_MAX_CODE (64u << 20)           /* bytes */
#define WL_CAPTURE_MAX_RANGE_BYTES (1ull << 30)   /* one range */
#define WL_CAPTURE_MAX_TOTAL_BYTES (2ull << 30)   /* all ranges */

/* A guest memory range: `size` bytes at guest `address`. */
typedef struct wl_capture_range {
    char name[WL_CAPTURE_NAME_MAX]; /* [A-Za-z0-9_.-]+, unique in the capture */
    uint64_t address;
    uint64_t size;                  /* > 0 */
    uint8_t *data;                  /* size bytes, owned by the capture */
    int writable;                   /* the dispatch may write it */
} wl_capture_range;

typedef enum wl_capture_field_kind {
    WL_CAPTURE_FIELD_U64 = 0,   /* a little-endian 64-bit address (8 bytes; two SGPRs) */
    WL_CAPTURE_FIELD_VSHARP = 1 /* a buffer descriptor's 48-bit base: dword 0 and the low
                                   16 bits of dword 1 (the rest of dword 1 is kept) */
} wl_capture_field_kind;

/* "At byte `offset` of range `range` (-1: of the user SGPRs, 4 bytes an
 * SGPR) there is a guest address of kind `kind`." Its value must lie in a
 * range (from its first byte to one past its last). */
typedef struct wl_capture_field {
    wl_capture_field_kind kind;
    int range;
    uint64_t offset;
} wl_capture_field;

/* The launch convention (manifest `launch`, docs/capture.md): which user
 * SGPRs hold pointers, so that they are checked (each must lie in a range)
 * without address fields. */
typedef enum wl_capture_launch_kind {
    WL_CAPTURE_LAUNCH_NONE = 0,
    /* RADV (radv-abi.md): s[0:1] the scratch ring, then launch_pointers
     * 32-bit pointers from s2 (descriptor sets, a set table, the
     * push-constant pointer), bits 63:32 given by the code (launch_high,
     * RADV's 0xffff8000: `s_movk_i32 sN, 0x8000`) */
    WL_CAPTURE_LAUNCH_RADV = 1,
    /* AMDHSA: after the private segment buffer (when enabled), the user
     * SGPRs the kernel descriptor enables (launch_hsa, WL_CAPTURE_HSA_*),
     * in the descriptor's order; the pointers are 64 bits */
    WL_CAPTURE_LAUNCH_AMDHSA = 2
} wl_capture_launch_kind;

enum { /* launch_hsa bits, in the order of their SGPRs */
    WL_CAPTURE_HSA_DISPATCH_PTR = 1,         /* 2 SGPRs, a pointer */
    WL_CAPTURE_HSA_QUEUE_PTR = 2,            /* 2 SGPRs, a pointer */
    WL_CAPTURE_HSA_KERNARG_PTR = 4,          /* 2 SGPRs, a pointer */
    WL_CAPTURE_HSA_DISPATCH_ID = 8,          /* 2 SGPRs */
    WL_CAPTURE_HSA_FLAT_SCRATCH_INIT = 16,   /* 2 SGPRs */
    WL_CAPTURE_HSA_PRIVATE_SEGMENT_SIZE = 32 /* 1 SGPR */
};

#define WL_CAPTURE_RADV_HIGH 0xffff8000u /* RADV's address32_hi */
#define WL_CAPTURE_ADDRESS_MASK 0xffffffffffffull /* guest addresses: bits 47:0 */

typedef struct wl_capture {
    wl_target target;
    unsigned wave_size;            /* 32 or 64 */
    uint8_t *code;                 /* code_size bytes (owned): the entry and what it calls */
    size_t code_size;
    size_t entry;                  /* byte offset of the entry point (a multiple of 4) */
    uint64_t code_address;         /* guest address of code[0] */
    uint32_t local[3];             /* workgroup size in work-items (each >= 1) */
    uint32_t groups[3];            /* workgroup counts of the dispatch (each >= 1) */
    unsigned user_sgpr_count;      /* <= WL_CAPTURE_MAX_USER_SGPRS */
    uint32_t user_sgpr[WL_CAPTURE_MAX_USER_SGPRS];
    /* s[0:3] are the private segment buffer V# (AMDHSA): the translation
     * places scratch itself (wl_lift_program.private_segment_buffer). */
    int private_segment_buffer;
    int enable_workgroup_id[3];    /* system SGPRs after the user SGPRs, in this order */
    int enable_workgroup_info;     /* tg_size */
    int enable_scratch_wave_offset;
    unsigned vgpr_workitem_ids;    /* 1..3: v0..v2 hold the thread ids x, y, z */
    uint32_t lds_bytes;            /* group segment, static + dynamic */
    uint32_t scratch_bytes;        /* private segment per lane */
    int float_mode_known;          /* 0: clang-19's defaults (wl_lift_program) */
    unsigned float_round_mode_32, float_round_mode_16_64;
    unsigned float_denorm_mode_32, float_denorm_mode_16_64;
    int dx10_clamp, ieee_mode;
    char *source;                  /* information only (may be NULL; owned) */
    wl_capture_range *ranges;
    size_t nranges;
    wl_capture_field *fields;
    size_t nfields;
    wl_capture_launch_kind launch; /* the launch convention (0: none stated) */
    unsigned launch_pointers;      /* RADV: 32-bit pointers in s2 .. s(1 + n) */
    uint32_t launch_high;          /* RADV: their bits 63:32 */
    unsigned launch_hsa;           /* AMDHSA: WL_CAPTURE_HSA_* */
} wl_capture;

/* A pointer the launch convention names: user SGPR `sgpr` (and sgpr + 1
 * for 64 bits) holds guest address `address` (bits 63:48 as given). */
typedef struct wl_capture_pointer {
    unsigned sgpr, bits; /* bits: 32 (the high half from the code) or 64 */
    uint64_t address;
    const char *what;    /* "set pointer", "kernarg-ptr", ... */
} wl_capture_pointer;
#define WL_CAPTURE_MAX_POINTERS 16

/* ---- building one from raw data ----------------------------------------- */

/* A new capture: a copy of `code` (code_size bytes), the rest zero but
 * wave_size = 64, local = groups = {1,1,1}, vgpr_workitem_ids = 1. The
 * caller then sets the launch fields directly and adds ranges and fields. */
WL_API wl_status wl_capture_create(wl_target target, const uint8_t *code, size_t code_size,
                            uint64_t code_address, size_t entry, wl_capture **out,
                            char *err, size_t errcap);
/* Adds a range (data copied; NULL: zeros). Refuses a bad name, a duplicate
 * name, a zero or too large size, an overlap with another range. */
WL_API wl_status wl_capture_add_range(wl_capture *c, const char *name, uint64_t address,
                               const void *data, uint64_t size, int writable,
                               char *err, size_t errcap);
/* Adds an address field in range `range_name` (NULL: the user SGPRs, the
 * offset then being 4 times the first SGPR's number). */
WL_API wl_status wl_capture_add_field(wl_capture *c, wl_capture_field_kind kind,
                               const char *range_name, uint64_t offset,
                               char *err, size_t errcap);
/* Every rule of docs/capture.md ("Rules"): WL_OK, or WL_ERR_FORMAT with
 * the first broken one named. */
WL_API wl_status wl_capture_check(const wl_capture *c, char *err, size_t errcap);
WL_API void wl_capture_free(wl_capture *c);

/* ---- files ---------------------------------------------------------------- */

/* Writes DIR (created if missing): manifest.txt, code.bin and one
 * mem.NAME.bin a range that is not all zeros. Checks the capture first. */
WL_API wl_status wl_capture_write(const wl_capture *c, const char *dir, char *err, size_t errcap);
/* Reads DIR/manifest.txt and the files it names; checks the result. */
WL_API wl_status wl_capture_read(const char *dir, wl_capture **out, char *err, size_t errcap);

/* Raw code with a launch description (wavelift lift --launch): the
 * description is a manifest (the format above) without a 'code' line; the
 * code is `code` (size bytes, copied) at guest address `address`, the
 * entry at byte `entry`. Its ranges' files, if it names any, lie beside it.
 * Messages name the description. */
WL_API wl_status wl_capture_read_launch(const char *launch, const uint8_t *code, uint64_t size,
                                        uint64_t address, uint32_t entry, wl_capture **out, char *err,
                                        size_t errcap);

/* The reader's core, on a manifest in memory. `blob` hands over the bytes
 * of the file `name` (at most `max` bytes; more is an error it reports by
 * returning -1 with a message); the reader copies them and calls `release`
 * (may be NULL) after. */
typedef int (*wl_capture_blob_fn)(void *ctx, const char *name, uint64_t max,
                                  const uint8_t **data, uint64_t *size,
                                  char *err, size_t errcap);
typedef void (*wl_capture_release_fn)(void *ctx, const uint8_t *data);
WL_API wl_status wl_capture_parse(const char *text, size_t len, wl_capture_blob_fn blob,
                           wl_capture_release_fn release, void *ctx, wl_capture **out,
                           char *err, size_t errcap);

/* ---- turning it into a launch --------------------------------------------- */

/* Fills the lifter's description of the program (p->code points into c).
 * p->address is c->code_address; a replay whose code lies in a range sets
 * it to the host address of that byte (wl_capture_code_host_address). */
WL_API wl_status wl_capture_lift_program(const wl_capture *c, wl_lift_program *p,
                                  char *err, size_t errcap);

/* The range holding guest address `g` (one past its end counts), or -1.
 * Addresses are compared in their 48 bits (bits 63:48 ignored). */
WL_API int wl_capture_find_range(const wl_capture *c, uint64_t g);

/* The pointers the launch convention names (at most
 * WL_CAPTURE_MAX_POINTERS, in SGPR order); their count. */
WL_API size_t wl_capture_launch_pointers(const wl_capture *c, wl_capture_pointer *out);
/* The number of user SGPRs the convention takes (radv: 2 + pointers). */
WL_API unsigned wl_capture_launch_sgprs(const wl_capture *c);

/* For a replay through the identity mapping only (docs/capture.md): given
 * the host device address of each range's buffer (host[i] for range
 * i), writes the user SGPRs with their address fields rewritten into
 * sgpr[WL_CAPTURE_MAX_USER_SGPRS] (unused ones 0) and rewrites, in place,
 * the address fields of bytes[i], the caller's copy of range i's data
 * (bytes[i] may be NULL: range i is skipped). The AMDHSA convention's
 * 64-bit pointers are rewritten too (where no field covers them); a RADV
 * 32-bit pointer cannot be (the code supplies its high half):
 * WL_ERR_UNSUPPORTED naming it. */
WL_API wl_status wl_capture_relocate(const wl_capture *c, const uint64_t *host, uint32_t *sgpr,
                              uint8_t *const *bytes, char *err, size_t errcap);
/* The reverse for range i's bytes as read back after a dispatch: every
 * address field whose bytes still hold the host address the relocation
 * put there gets its guest value back, so that untouched bytes read as in
 * the capture. */
WL_API void wl_capture_unrelocate(const wl_capture *c, const uint64_t *host, size_t i, uint8_t *bytes);
/* 1 and *addr = the host address of the code's first byte where a range
 * holds the whole code; else 0. */
WL_API int wl_capture_code_host_address(const wl_capture *c, const uint64_t *host, uint64_t *addr);

#ifdef __cplusplus
}
#endif
#endif
