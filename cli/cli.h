/* wavelift command line: what the subcommands share (cli/main.c dispatches;
 * options.c holds the option table and its parser; cmd_dis.c, cmd_lift.c,
 * cmd_run.c, cmd_replay.c implement; args.c parses option values and
 * argument specs; kernarg.c fills the kernarg segment and the launch SGPRs). */
#ifndef WL_CLI_H
#define WL_CLI_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "wavelift/codeobj.h"

/* Exit statuses (README, issue 4). */
#define EXIT_BAD_INPUT 1 /* anything that is not usage nor a refusal */
#define EXIT_USAGE 2
#define EXIT_REFUSED 3 /* the run's result was refused: an escape */

int cli_usage_error(const char *msg, const char *arg);
/* Reads a whole file (malloc'ed). NULL on failure (message on stderr). */
uint8_t *cli_read_file(const char *path, size_t *size);
int cli_write_file(const char *path, const void *data, size_t size);

/* Loads FILE and finds kernel NAME (messages on stderr); 0 or an exit status. */
int cli_open_kernel(const char *file, const char *name, wl_codeobj **co,
                    const wl_kernel **k);

/* ---- argument specs (--arg SPEC) ---------------------------------------- */
typedef enum cli_arg_kind {
    CLI_ARG_U32, CLI_ARG_I32, CLI_ARG_U64, CLI_ARG_I64, CLI_ARG_F32, CLI_ARG_F64,
    CLI_ARG_BUF,   /* buf:FILE: a global buffer filled from FILE */
    CLI_ARG_ZERO,  /* zero:BYTES: a zeroed global buffer */
    CLI_ARG_LOCAL  /* local:BYTES: dynamic LDS */
} cli_arg_kind;

typedef struct cli_arg {
    cli_arg_kind kind;
    uint64_t bits;      /* scalar value's bytes (little-endian), by size */
    uint32_t size;      /* scalar size: 4 or 8 */
    const char *file;   /* buf: */
    uint64_t bytes;     /* zero:, local:, and buf: once read */
} cli_arg;

/* Parses SPEC into *a. Returns 0, or -1 with a message in err. */
int cli_parse_arg(const char *spec, cli_arg *a, char *err, size_t errcap);
/* Parses "X[,Y[,Z]]" into v[3] (missing ones 1); *dims gets 1..3. */
int cli_parse_dims(const char *s, uint32_t v[3], unsigned *dims);
/* Parses a host subgroup size (4, 8, 16, 32 or 64). Returns 0, or -1. */
int cli_parse_subgroup(const char *s, unsigned *subgroup);
/* --model: the lowering (docs/wave-model.md). CLI_MODEL_AUTO or the
 * WL_MODEL_* of include/wavelift/translate.h (0 lanes, 1 wave). */
#define CLI_MODEL_AUTO (-1)
/* --scratch auto|private|device[:BYTES] (docs/memory.md, "Scratch"): where
 * the private segment lives. auto: private arrays where an invocation's
 * array is at most WL_SCRATCH_LIMIT_DEFAULT bytes (a lane's segment in the
 * lanes model, the wave's in the wave model), device memory beyond;
 * private: always private arrays; device: always device memory;
 * device:BYTES: device memory beyond BYTES. Sets the two translate options. */
int cli_parse_scratch(const char *s, uint32_t *scratch_limit, int *force_scratch_buffer);
/* the device segment's lines of lift and run (wl_translate_info's
 * scratch_bytes_per_invocation, lane_array_bytes): device-memory scratch,
 * the wave model's lane arrays moved there */
void cli_print_segment(FILE *f, uint32_t per_invocation, uint32_t lane_array_bytes);
/* The model for a wave of W lanes on a host subgroup of S (the one asked
 * for, or the device's), where the device offers sizes min_s..max_s
 * (min_s == max_s == S without subgroup size control): the lanes model
 * where S divides W, S >= 4 and S is offered, else the wave model. A
 * requested model other than CLI_MODEL_AUTO is kept. why gets the reason. */
int cli_choose_model(int requested, unsigned W, unsigned S, unsigned min_s, unsigned max_s, char *why,
                     size_t whycap);
/* "lanes" or "wave" */
const char *cli_model_name(int model);
/* Parses "N:FILE". */
int cli_parse_out(const char *s, unsigned *n, const char **file);

/* ---- the kernarg segment and the launch ---------------------------------- */
typedef struct cli_geometry {
    uint32_t global[3]; /* work-items */
    uint32_t local[3];  /* work-items a group */
    unsigned dims;
} cli_geometry;

/* Device addresses the launch needs (0 where not made). */
typedef struct cli_addresses {
    uint64_t kernarg;
    uint64_t dispatch_packet;
    uint64_t queue;
    const uint64_t *arg;      /* per --arg: its buffer's address (buffers only) */
} cli_addresses;

/* The explicit (non-hidden) arguments of a kernel, in order. Checks that the
 * specs match them (count, kind, size). Returns 0 or -1 with a message. */
int cli_check_args(const wl_kernel *k, const cli_arg *args, size_t nargs,
                   char *err, size_t errcap);
/* Bytes of dynamic LDS the local: arguments need, each placed after the
 * static group segment, aligned to 16 (writes each one's offset into
 * lds_off[i] for local: args). */
uint32_t cli_dynamic_lds(const wl_kernel *k, const cli_arg *args, size_t nargs,
                         uint32_t *lds_off);
/* Fills the kernarg segment (seg, k->kernarg_segment_size bytes, zeroed
 * first): explicit args and every hidden argument the metadata lists.
 * Refuses by name what it cannot provide (printf, hostcall, ...). */
int cli_fill_kernarg(const wl_kernel *k, const cli_arg *args, size_t nargs,
                     const cli_addresses *addr, const uint32_t *lds_off,
                     const cli_geometry *g, uint32_t dynamic_lds,
                     uint8_t *seg, size_t segsize, char *err, size_t errcap);
/* An hsa_kernel_dispatch_packet_t (64 bytes). */
#define CLI_DISPATCH_PACKET_BYTES 64
#define CLI_QUEUE_BYTES 256
void cli_fill_dispatch_packet(const wl_kernel *k, const cli_geometry *g,
                              uint64_t kernarg_addr, uint32_t group_bytes,
                              uint8_t pkt[CLI_DISPATCH_PACKET_BYTES]);
/* An amd_queue_t's aperture fields (the rest zero). */
void cli_fill_queue(uint8_t q[CLI_QUEUE_BYTES]);
/* The initial user SGPRs as the descriptor enables them, in hardware order.
 * Returns the count, or -1 with a message (more than 16, or one that cannot
 * be provided). */
int cli_user_sgprs(const wl_kernel *k, const cli_addresses *addr,
                   uint32_t sgpr[16], char *err, size_t errcap);

#endif
