/* The command line's options: one table (options.c) that every subcommand
 * parses with, and from which `--help` is written.
 *
 * Each option is declared once: its name, the value it takes (if any),
 * the subcommands that accept it, its help text, and the field of
 * cli_options it sets (or the handler that checks and sets it). One parser
 * (cli_parse_options) reads `--opt VALUE` and `--opt=VALUE` alike for every
 * option that takes a value (and `-o FILE`, `-oFILE` for the one short
 * one); an unknown option, an option of another subcommand, a missing value
 * or a value given to a flag is a usage error naming it (exit 2). What a
 * subcommand requires (lift's --kernel and -o, run's --global and --local)
 * and how options combine are checked by the subcommand after parsing. */
#ifndef WL_CLI_OPTIONS_H
#define WL_CLI_OPTIONS_H

#include "cli.h"
#include "launch.h"
#include "records.h"

#include "wavelift/capture.h"
#include "wavelift/runtime.h"
#include "wavelift/translate.h"

typedef enum cli_cmd { CLI_DIS, CLI_LIFT, CLI_RUN, CLI_REPLAY, CLI_SIZE, CLI_NCMDS } cli_cmd;

#define CLI_MAX_OUTS 64
#define CLI_MAX_INPUTS 4096 /* lift's operands (a batch: cmd_batch.c) */

/* Every subcommand's options; a subcommand reads the ones it accepts.
 * cli_parse_options sets the defaults of the subcommand first. */
typedef struct cli_options {
    cli_cmd cmd;
    const char *file; /* the one operand: FILE, CODE_OBJECT or CAPTURE */
    /* dis */
    const char *mcpu;
    int wave; /* --wave32, --wave64: 32 or 64; 0: the kernel's */
    int asm_only, raw;
    /* dis, lift, run */
    const char *kernel;
    /* lift, run, replay */
    unsigned subgroup; /* lift: 8; run, replay: 0 (the device's) */
    int model;         /* CLI_MODEL_AUTO or WL_MODEL_* (replay: the same values) */
    int opt_level;
    /* lift, run */
    uint32_t local[3];
    unsigned local_dims; /* 0: not given */
    int vectorize;       /* --vectorize 1, --no-vectorize -1, else 0 */
    uint32_t scratch_limit; /* --scratch (cli_parse_scratch) */
    int force_scratch_buffer;
    uint32_t private_limit; /* --private-limit */
    /* lift */
    const char *inputs[CLI_MAX_INPUTS]; /* every operand (file is inputs[0]) */
    size_t ninputs;
    unsigned opt_mask;   /* the -O levels given: bit n for -On (a batch translates at each) */
    unsigned model_mask; /* --models: bit 0 lanes, bit 1 wave, bit 2 auto (a batch) */
    uint32_t jobs;       /* -j N: parallel translations (0: the machine's cores) */
    const char *json, *csv; /* --json FILE, --csv FILE: one record a translation */
    uint32_t timeout_s, max_memory_mib; /* --timeout, --max-memory: a translation's limits */
    int quiet;           /* --quiet: no progress line */
    const char *svg;     /* size: --svg FILE, the plot */
    const char *host;    /* lift, size: --host, the target named (cli_apply_host), or its file */
    int host_from_file;  /* --host FILE: host_file holds it */
    cli_host_file host_file;
    const char *cache;   /* lift, size: --cache DIR (a batch's translations by wl_translate_key) */
    const char *launch;  /* lift, size: --launch FILE: the operands are raw code, launched as FILE says */
    uint64_t code_address; /* --code-address: the raw code's guest address */
    uint32_t entry;        /* --entry: the raw code's entry, a byte offset */
    const char *out; /* -o */
    int emit_llvm, emit_stages;
    int fold_masked; /* --no-fold-masked: -1 */
    /* run, replay */
    const char *device;
    unsigned runs; /* run: 1; replay: 3 */
    uint32_t timeout_ms;
    /* run */
    uint32_t global[3];
    unsigned global_dims;
    wl_hsa_arg args[CLI_LAUNCH_MAX_ARGS];
    cli_img_arg img[CLI_LAUNCH_MAX_ARGS]; /* per --arg: an image's (fmt 0: not one) */
    size_t nargs;
    unsigned out_arg[CLI_MAX_OUTS];
    const char *out_file[CLI_MAX_OUTS];
    size_t nouts;
    const char *bundle, *capture;
    int merge_stores, pages;
    int state_in_buffer; /* run, replay: the translation's state in a buffer (docs/embedding.md) */
    int fused_fma; /* --fused-fma W: offline, llvm.fma of those widths as the host's Fma (WL_FMA_*) */
    int maximal_reconvergence; /* --host: offline, the host has VK_KHR_shader_maximal_reconvergence */
    uint32_t loop_iteration_limit; /* --host: offline, the driver's loop limit an invocation (0: none) */
    uint32_t lds_limit, loop_budget;
    /* replay */
    int both;
    const char *out_dir;
    int mapping; /* replay_mapping (replay.h) */
    /* which options of the table were given (cli_given) */
    unsigned char given[64];
} cli_options;

/* Parses argv[0..argc) (what follows the subcommand's name) for cmd into
 * *o. Returns 0, EXIT_USAGE (a message on stderr), or -1 when --help was
 * given (the subcommand's help is then on stdout: exit 0). */
int cli_parse_options(cli_cmd cmd, int argc, char **argv, cli_options *o);
/* Whether option `name` (as the table spells it, e.g. "--model") was given. */
int cli_given(const cli_options *o, const char *name);
/* The subcommand named name ("dis", ...), or -1. */
int cli_cmd_find(const char *name);
/* The help text: every subcommand (cmd < 0) or one, from the table. */
void cli_print_help(int cmd);
/* The manual page, roff (wavelift --man; the build writes wavelift.1). */
void cli_print_man(void);

/* The subcommands, once parsed (cmd_*.c). */
int cmd_dis(cli_options *o);
int cmd_lift(cli_options *o);
/* lift's batch (cmd_batch.c); cli_is_batch: whether the options ask for one */
int cli_batch(cli_options *o);
int cli_is_batch(const cli_options *o);
/* Whether path is a capture (docs/capture.md): a folder with manifest.txt,
 * or a file in one that is not ELF (cap/code.bin); its folder to dir. */
int cli_capture_of(const char *path, char *dir, size_t cap);
/* --launch: the raw code at path as a capture (wl_capture_read_launch with
 * --code-address and --entry); 0, or -1 with err. */
int cli_read_raw_launch(const cli_options *o, const char *path, wl_capture **cap, char *err, size_t errcap);
int cmd_size(cli_options *o);
/* lift's translate options, offline (one kernel or a batch's job): the
 * model, S, the work-group size and -O level given, the rest from o
 * (--scratch, --private-limit, --fused-fma, --no-vectorize, --no-fold-masked) */
/* What a device's profile decides of the translate options (run and
 * replay on a device): 8/16-bit storage or merged stores, 64-bit atomics
 * or the lock (buffer and shared), the widths whose Fma is exact (after
 * wl_rt_probe_fma), the shared memory beyond which LDS lives in device
 * memory. */
void cli_host_options(const wl_host_profile *hp, wl_translate_options *t);
wl_translate_options cli_offline_options(const cli_options *o, int model, unsigned S, const uint32_t local[3],
                                         int opt_level);
/* lift, size: --host's subgroup size and fused widths where --subgroup-size
 * and --fused-fma did not say; writes what was chosen to desc */
void cli_apply_host(cli_options *o, char *desc, size_t cap); /* the -O0/-O2 size report of a batch (cmd_batch.c) */
int cmd_run(cli_options *o); /* fills args[i].bytes of buf: arguments (launch.c) */
int cmd_replay(cli_options *o);

#endif
