/* A batch's records (docs/cli.md, "Records"): what one translation of
 * `wavelift lift` reports, the readers of its JSON (for `wavelift size
 * RECORDS.json`) and of a --cache entry. Plain C, no LLVM: the fuzz target
 * fuzz/fuzz_records.c runs the readers. */
#ifndef WL_CLI_RECORDS_H
#define WL_CLI_RECORDS_H

#include <stddef.h>
#include <stdint.h>

enum { JS_OK, JS_REFUSED, JS_BAD_INPUT, JS_FAILED, JS_TIMEOUT, JS_MEMORY, JS_CRASHED, JS_INTERRUPTED, JS_N };
extern const char *const cli_status_names[JS_N]; /* "lifted", "refused", ... */

/* What a batch's child sends (one write, under PIPE_BUF) and the parent
 * completes; a --cache entry holds one. */
typedef struct rec {
    int status;
    unsigned wave, subgroup, k, lane_loops;
    int model, opt; /* WL_MODEL_LANES or WL_MODEL_WAVE; 0 or 2 */
    uint64_t guest, words, llvm_lifted, llvm_lowered, llvm_optimized;
    uint32_t features;
    /* where the module's words lie: declarations (capabilities, types,
     * constants, decorations, variables), the entry point's function, the
     * other functions (routines: emulated arithmetic, unaligned accesses,
     * locks), and how many routines */
    uint64_t w_decl, w_entry, w_routines;
    unsigned routines;
    double ms_lift, ms_lower, ms_opt, ms_emit, ms_total;
    char reason[480];
} rec;
_Static_assert(sizeof(rec) <= 1024, "a record is sent in one write");

/* Splits a SPIR-V module's words (cli/records.c): r's w_decl, w_entry,
 * w_routines and routines. */
void cli_words_split(const uint32_t *w, size_t n, rec *r);

/* A --cache entry's record file: a magic word, the record's size, the record. */
#define CLI_CACHE_MAGIC 0x31435257u /* "WRC1" */
/* The record of a cache entry's bytes; 0, or -1 where they are not one a
 * batch wrote (cut short, another size, a status not cached, a model that
 * is none, text not ended: the entry is a miss). */
int cli_cache_rec_parse(const void *data, size_t n, rec *r);

/* One record of a batch's JSON file ("wavelift-batch 1"). */
typedef struct cli_record {
    char *source, *name, *kernel, *output; /* name: the source's place under the output directory ("": absent) */
    rec r; /* r.reason, cut to its size */
    double wall_ms;
    long peak_kib;
    int cached;
} cli_record;

/* Reads a batch's JSON (text of n bytes, not NUL-ended): *out its records
 * (free with cli_records_free), *subgroup the host subgroup it names.
 * 0, or -1 with err saying what and where (the byte offset). */
int cli_records_parse(const char *text, size_t n, cli_record **out, size_t *count, unsigned *subgroup, char *err,
                      size_t errcap);
void cli_records_free(cli_record *r, size_t count);

/* An offline host description for `--host FILE` (docs/cli.md). */
typedef struct cli_host_file {
    unsigned subgroup;        /* 0: not given */
    int fused_fma;            /* WL_FMA_* bits; -1: not given */
    uint32_t lds_limit;       /* shared memory bytes; 0: not given */
    int int64_atomics;        /* -1: not given */
    int shared_int64_atomics; /* -1: not given */
    int storage_8_16;         /* 8- and 16-bit storage buffer access; -1: not given */
    int maximal_reconvergence; /* VK_KHR_shader_maximal_reconvergence; -1: not given (no) */
    uint32_t loop_iteration_limit; /* the driver's loop limit an invocation; 0: not given (none) */
    char name[64];
} cli_host_file;
/* --fused-fma's and the host description's widths: none, f32, f64, all,
 * f32-ftz, separated by commas; WL_FMA_* bits, or -1. */
int cli_parse_fused_fma(const char *v);
/* Reads one: 0, or -1 with err naming the line. */
int cli_host_file_parse(const char *text, size_t n, cli_host_file *h, char *err, size_t errcap);

#endif
