/* wavelift command line: what the subcommands share (cli/main.c dispatches;
 * options.c holds the option table and its parser; cmd_dis.c, cmd_lift.c,
 * cmd_run.c, cmd_replay.c implement; args.c parses option values and
 * argument specs; the launch itself is the library's, wavelift/hsa.h). */
#ifndef WL_CLI_H
#define WL_CLI_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "wavelift/codeobj.h"
#include "wavelift/hsa.h" /* the launch: kernarg, packet, user SGPRs */

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

/* ---- argument specs (--arg SPEC): wavelift/hsa.h's wl_hsa_arg ------------- */
/* An image argument (img1d:FORMAT:W:FILE, img2d:FORMAT:W:H:FILE): a
 * linear image of gfx10's IMG_FORMAT `fmt` (wavelift/image.h; 1, 2 or 4
 * components of 8, 16 or 32 bits, UNORM, SNORM, UINT, SINT or FLOAT),
 * FILE its texels row after row with no padding. The kernel argument is a
 * pointer to its T#, as clang's OpenCL images are (docs/images.md). */
typedef struct cli_img_arg {
    uint32_t fmt;            /* 0: not an image */
    uint32_t width, height;  /* height 1 for img1d */
    uint32_t bpt;            /* bytes a texel */
    unsigned dims;           /* 1 or 2 */
    unsigned comps, kind, bits; /* the format's components, wl_img_kind, bits a component */
} cli_img_arg;
/* Where an image argument's buffer holds the T# (offset 0, 32 bytes) and
 * the texels (this offset on, rows cli_img_row_bytes apart: the width
 * aligned to 256 bytes, AddrLib's linear pitch). */
#define CLI_IMG_TEXELS 256u
uint32_t cli_img_row_bytes(const cli_img_arg *m);
/* The rows of an image argument's buffer (bytes as laid out above) moved
 * to its start, unpadded; returns their bytes */
uint64_t cli_img_rows(const cli_img_arg *m, uint8_t *buf);
/* Parses SPEC into *a (and *img: zeroed, filled for an image spec; NULL:
 * image specs refused). Returns 0, or -1 with a message in err. */
int cli_parse_arg(const char *spec, wl_hsa_arg *a, cli_img_arg *img, char *err, size_t errcap);
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

#endif
