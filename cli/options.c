/* The option table of the command line, its parser and the help written
 * from it (options.h). */
#include "options.h"
#include "replay.h"

#include "wavelift.h"
#include "wavelift/runtime.h"
#include "wavelift/translate.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DIS (1u << CLI_DIS)
#define LIFT (1u << CLI_LIFT)
#define RUN (1u << CLI_RUN)
#define REPLAY (1u << CLI_REPLAY)
#define SIZE (1u << CLI_SIZE)
#define ALL (DIS | LIFT | RUN | REPLAY | SIZE)

typedef enum opt_kind {
    OPT_FLAG,   /* no value: the int field gets ival */
    OPT_STR,    /* the const char * field gets the value */
    OPT_U32,    /* the uint32_t field gets a decimal number in [1, max] */
    OPT_CHOICE, /* the int field gets the value of one of choices, by name */
    OPT_FN,     /* fn checks and sets */
    OPT_HELP    /* prints the subcommand's help */
} opt_kind;

typedef struct opt_choice {
    const char *name;
    int value;
} opt_choice;

typedef struct cli_opt {
    const char *name;
    const char *metavar; /* the value's name in the help; NULL: a flag */
    unsigned cmds;       /* the subcommands that accept it */
    opt_kind kind;
    size_t field;        /* offsetof(cli_options, ...) */
    int ival;            /* OPT_FLAG */
    uint32_t max;        /* OPT_U32 */
    const opt_choice *choices; /* OPT_CHOICE, ended by a NULL name */
    /* OPT_FN: returns 0 or an exit status (message on stderr) */
    int (*fn)(cli_options *o, const char *value);
    const char *help;
    unsigned alt_cmds;   /* these subcommands get alt_help in place of help */
    const char *alt_help;
} cli_opt;

#define F(x) .field = offsetof(cli_options, x)

/* ---- handlers ------------------------------------------------------------ */
static int set_subgroup(cli_options *o, const char *v)
{
    if (cli_parse_subgroup(v, &o->subgroup))
        return cli_usage_error("--subgroup-size must be 4, 8, 16, 32 or 64", v);
    return 0;
}

/* --code-address A, --entry OFF: numbers (decimal or 0x hex) */
static int parse_u64(const char *v, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long u = strtoull(v, &end, 0);
    if (!*v || *end || v[0] == '-' || errno)
        return -1;
    *out = u;
    return 0;
}

static int set_code_address(cli_options *o, const char *v)
{
    if (parse_u64(v, &o->code_address) || (o->code_address & 3))
        return cli_usage_error("--code-address must be a number (decimal or 0x hex), a multiple of 4", v);
    return 0;
}

static int set_entry(cli_options *o, const char *v)
{
    uint64_t e;
    if (parse_u64(v, &e) || (e & 3) || e > UINT32_MAX)
        return cli_usage_error("--entry must be a byte offset, a multiple of 4", v);
    o->entry = (uint32_t)e;
    return 0;
}

static int set_local(cli_options *o, const char *v)
{
    if (cli_parse_dims(v, o->local, &o->local_dims))
        return cli_usage_error("bad --local", v);
    /* AMDHSA's largest work-group (and Vulkan's guaranteed minimum) */
    if ((uint64_t)o->local[0] * o->local[1] * o->local[2] > 1024)
        return cli_usage_error("--local: a work-group has at most 1024 work-items", v);
    return 0;
}

static int set_global(cli_options *o, const char *v)
{
    if (cli_parse_dims(v, o->global, &o->global_dims))
        return cli_usage_error("bad --global", v);
    return 0;
}

static int set_scratch(cli_options *o, const char *v)
{
    if (cli_parse_scratch(v, &o->scratch_limit, &o->force_scratch_buffer))
        return cli_usage_error("--scratch must be auto, private, device or device:BYTES", v);
    return 0;
}

/* --fused-fma W[,W]: f32, f64, all, f32-ftz (WL_FMA_*) */
static int set_fused_fma(cli_options *o, const char *v)
{
    o->fused_fma = cli_parse_fused_fma(v);
    if (o->fused_fma < 0)
        return cli_usage_error("--fused-fma takes f32, f64, all and f32-ftz, separated by commas", v);
    return o->fused_fma ? 0 : cli_usage_error("--fused-fma names no width", v);
}

static int set_o0(cli_options *o, const char *v)
{
    (void)v;
    o->opt_level = 0;
    o->opt_mask |= 1u << 0;
    return 0;
}

static int set_o2(cli_options *o, const char *v)
{
    (void)v;
    o->opt_level = 2;
    o->opt_mask |= 1u << 2;
    return 0;
}

/* --models lanes,wave,auto (any of them, comma-separated) */
/* --host: offline, the host the modules are for (docs/cli.md) */
static const struct {
    const char *name;
    unsigned subgroup;
    int fused; /* WL_FMA_* its Fma is exact for (wl_rt_probe_fma on the machine) */
    int maxrec; /* VK_KHR_shader_maximal_reconvergence */
    uint32_t loop_limit; /* the driver's loop iterations an invocation (0: no limit) */
    const char *what;
} hosts[] = {
    {"generic", 32, 0, 0, 0, "a GPU with subgroups of 32, its Fma not assumed exact"},
    {"nvidia", 32, WL_FMA_F64 | WL_FMA_F32_NORMAL, 1, 0,
     "NVIDIA (subgroup 32; the probe finds double Fma exact, float Fma exact for normal operands and results: "
     "checked, the exact routine below; maximal reconvergence)"},
    {"amd", 32, 0, 0, 0, "AMD RDNA through RADV (subgroup 32)"},
    {"lavapipe", 8, 0, 0, WL_LAVAPIPE_LOOP_LIMIT,
     "Mesa's lavapipe (subgroup 8 with 256-bit vectors; it ends an invocation's loops after 65,535 iterations)"},
};

static int set_host(cli_options *o, const char *v)
{
    for (size_t i = 0; i < sizeof hosts / sizeof hosts[0]; i++)
        if (!strcmp(v, hosts[i].name)) {
            o->host = hosts[i].name;
            o->host_from_file = 0;
            return 0;
        }
    if (!strchr(v, '/') && !strchr(v, '.'))
        return cli_usage_error("--host must be generic, nvidia, amd, lavapipe or a host description's file", v);
    size_t n = 0;
    uint8_t *text = cli_read_file(v, &n);
    char err[300];
    if (!text) {
        fprintf(stderr, "wavelift: --host %s: cannot read it\n", v);
        return EXIT_BAD_INPUT;
    }
    int bad = cli_host_file_parse((const char *)text, n, &o->host_file, err, sizeof err);
    free(text);
    if (bad) {
        fprintf(stderr, "wavelift: --host %s: %s\n", v, err);
        return EXIT_BAD_INPUT;
    }
    o->host = v;
    o->host_from_file = 1;
    return 0;
}

void cli_apply_host(cli_options *o, char *desc, size_t cap)
{
    size_t h = 0;
    for (size_t i = 0; i < sizeof hosts / sizeof hosts[0]; i++)
        if (o->host && !strcmp(o->host, hosts[i].name))
            h = i;
    int sg = cli_given(o, "--subgroup-size"), fu = cli_given(o, "--fused-fma");
    const cli_host_file *hf = o->host_from_file ? &o->host_file : NULL;
    if (!sg)
        o->subgroup = hf && hf->subgroup ? hf->subgroup : hosts[h].subgroup;
    if (!fu)
        o->fused_fma = hf ? (hf->fused_fma > 0 ? hf->fused_fma : 0) : hosts[h].fused;
    o->maximal_reconvergence = hf ? hf->maximal_reconvergence > 0 : hosts[h].maxrec;
    o->loop_iteration_limit = hf ? hf->loop_iteration_limit : hosts[h].loop_limit;
    if (hf)
        snprintf(desc, cap, "%s (%s): subgroup %u, fused fma 0x%x, shared memory %u, 64-bit atomics %s, shared %s, "
                 "8/16-bit storage %s%s%s",
                 o->host, hf->name[0] ? hf->name : "a host description", o->subgroup, (unsigned)o->fused_fma,
                 hf->lds_limit ? hf->lds_limit : 65536, hf->int64_atomics ? "yes" : "no",
                 hf->shared_int64_atomics ? "yes" : "no", hf->storage_8_16 ? "yes" : "no",
                 sg ? "; --subgroup-size given" : "", fu ? "; --fused-fma given" : "");
    else
        snprintf(desc, cap, "%s: %s%s%s", hosts[h].name, hosts[h].what, sg ? "; --subgroup-size given" : "",
                 fu ? "; --fused-fma given" : "");
}

static int set_models(cli_options *o, const char *v)
{
    o->model_mask = 0;
    for (const char *p = v; *p;) {
        size_t n = strcspn(p, ",");
        if (n == 5 && !strncmp(p, "lanes", 5))
            o->model_mask |= 1u;
        else if (n == 4 && !strncmp(p, "wave", 4))
            o->model_mask |= 2u;
        else if (n == 4 && !strncmp(p, "auto", 4))
            o->model_mask |= 4u;
        else
            return cli_usage_error("--models takes lanes, wave and auto, separated by commas", v);
        p += n;
        if (*p == ',')
            p++;
    }
    return o->model_mask ? 0 : cli_usage_error("--models names no model", v);
}

static int add_arg(cli_options *o, const char *v)
{
    char err[512];
    if (o->nargs == CLI_LAUNCH_MAX_ARGS)
        return cli_usage_error("too many --arg", NULL);
    size_t i = o->nargs++;
    if (cli_parse_arg(v, &o->args[i], &o->img[i], err, sizeof(err)))
        return cli_usage_error(err, NULL);
    return 0;
}

static int add_out(cli_options *o, const char *v)
{
    if (o->nouts == CLI_MAX_OUTS)
        return cli_usage_error("too many --out", NULL);
    if (cli_parse_out(v, &o->out_arg[o->nouts], &o->out_file[o->nouts]))
        return cli_usage_error("bad --out (N:FILE)", v);
    o->nouts++;
    return 0;
}

/* Decimal in [1, max]; -1 otherwise. */
static int parse_u32(const char *v, uint32_t max, uint32_t *out)
{
    char *end;
    unsigned long n = strtoul(v, &end, 10);
    if (*end || n == 0 || n > max)
        return -1;
    *out = (uint32_t)n;
    return 0;
}

/* run: the dispatch N times; replay: one, then N - 1 warm ones timed */
static int set_runs(cli_options *o, const char *v)
{
    uint32_t n;
    if (parse_u32(v, o->cmd == CLI_REPLAY ? WL_RT_MAX_TIMED_RUNS + 1 : WL_RT_MAX_TIMED_RUNS, &n))
        return cli_usage_error("bad --runs", v);
    o->runs = n;
    return 0;
}

static const opt_choice model_choices[] = {
    {"auto", CLI_MODEL_AUTO}, {"lanes", WL_MODEL_LANES}, {"wave", WL_MODEL_WAVE}, {NULL, 0}};
static const opt_choice mapping_choices[] = {{"auto", REPLAY_MAP_AUTO},
                                             {"window", REPLAY_MAP_WINDOW},
                                             {"pages", REPLAY_MAP_PAGES},
                                             {"identity", REPLAY_MAP_IDENTITY},
                                             {NULL, 0}};

/* ---- the table: in the order the help lists them ------------------------- */
static const cli_opt table[] = {
    /* dis */
    {"--mcpu", "NAME", DIS, OPT_STR, F(mcpu),
     .help = "target (gfx1010, gfx1011, gfx1012, gfx1013, gfx1030..gfx1036); default: the code "
             "object's, or gfx1030 for raw code"},
    {"--wave32", NULL, DIS, OPT_FLAG, F(wave), .ival = 32, .help = "decode for wave32"},
    {"--wave64", NULL, DIS, OPT_FLAG, F(wave), .ival = 64,
     .help = "decode for wave64 (default: the kernel's wave size; wave64 for raw code)"},
    {"--kernel", "NAME", DIS | LIFT | RUN | SIZE, OPT_STR, F(kernel),
     .help = "the kernel (required)",
     .alt_cmds = DIS,
     .alt_help = "only this kernel, or this function (a symbol of the code the kernels call, as "
                 "llvm-objdump --disassemble-symbols takes it)"},
    {"--asm-only", NULL, DIS, OPT_FLAG, F(asm_only), .ival = 1, .help = "print only the instructions"},
    {"--raw", NULL, DIS, OPT_FLAG, F(raw), .ival = 1,
     .help = "FILE is raw code bytes, not an ELF code object"},
    /* lift, run, replay */
    {"-o", "OUT.spv", LIFT, OPT_STR, F(out), .help = "the SPIR-V module to write (required)"},
    {"--global", "X[,Y[,Z]]", RUN, OPT_FN, .fn = set_global,
     .help = "the grid, in work-items (required)"},
    {"--local", "X[,Y[,Z]]", LIFT | RUN | SIZE, OPT_FN, .fn = set_local,
     .help = "workgroup size (required)", .alt_cmds = LIFT,
     .alt_help = "workgroup size (default: one wave)"},
    {"--arg", "SPEC", RUN, OPT_FN, .fn = add_arg,
     .help = "the next kernel argument: u32:N i32:N u64:N i64:N f32:X f64:X buf:FILE (a buffer "
             "filled from FILE) zero:BYTES (a zeroed buffer) local:BYTES (dynamic LDS) img1d:FORMAT:W:FILE "
             "img2d:FORMAT:W:H:FILE (a linear image, FORMAT as wavelift/image.h names it: 8_8_8_8_UNORM...)"},
    {"--out", "N:FILE", RUN, OPT_FN, .fn = add_out,
     .help = "write buffer argument N (from 0) to FILE after the run"},
    {"--device", "D", RUN | REPLAY, OPT_STR, F(device),
     .help = "device index or name substring (default $WAVELIFT_DEVICE, else the first GPU, else "
             "lavapipe)"},
    {"--subgroup-size", "S", LIFT | RUN | SIZE | REPLAY, OPT_FN, .fn = set_subgroup,
     .help = "require this host subgroup size: 4, 8, 16, 32 or 64 (default: the device's)",
     .alt_cmds = LIFT | SIZE, .alt_help = "host subgroup size 4, 8, 16, 32 or 64 (default: --host's, 32)"},
    {"--launch", "FILE", LIFT | SIZE, OPT_STR, F(launch),
     .help = "the operands named are raw code (a shader dump's bytes), launched as FILE describes: a capture's "
             "manifest without its code line (docs/capture.md); its kernel is named capture"},
    {"--code-address", "A", LIFT | SIZE, OPT_FN, .fn = set_code_address,
     .help = "--launch: the raw code's guest address (default 0)"},
    {"--entry", "OFF", LIFT | SIZE, OPT_FN, .fn = set_entry,
     .help = "--launch: the entry's byte offset in the raw code (default 0)"},
    {"--host", "H", LIFT | SIZE, OPT_FN, .fn = set_host,
     .help = "offline, the host the modules are for: generic (the default: subgroup 32), nvidia (32, "
             "double Fma exact, float Fma checked, maximal reconvergence), amd (32), lavapipe (8, its loop "
             "limit), or a host description's FILE (KEY VALUE lines: subgroup-size, fused-fma, shared-memory, "
             "int64-atomics, shared-int64-atomics, storage-8bit-16bit, maximal-reconvergence, "
             "loop-iteration-limit, name; docs/cli.md); --subgroup-size and --fused-fma override it"},
    {"--model", "M", LIFT | RUN | SIZE | REPLAY, OPT_CHOICE, F(model), .choices = model_choices,
     .help = "how a wave runs on the host: auto (default: the lanes model where the subgroup "
             "carries the wave, else the wave model; the choice and its reason are printed), "
             "lanes or wave (docs/wave-model.md)"},
    {"-O0", NULL, LIFT | RUN | REPLAY, OPT_FN, .fn = set_o0, .help = "no LLVM optimization after lowering",
     .alt_cmds = LIFT, .alt_help = "no LLVM optimization after lowering (a batch given -O0 and -O2 translates at both)"},
    {"-O2", NULL, LIFT | RUN | REPLAY, OPT_FN, .fn = set_o2,
     .help = "LLVM optimization after lowering (the default)"},
    {"--vectorize", NULL, LIFT | RUN, OPT_FLAG, F(vectorize), .ival = 1,
     .help = "-O2, lanes model: the k lane clones as vector instructions (the default)"},
    {"--no-vectorize", NULL, LIFT | RUN, OPT_FLAG, F(vectorize), .ival = -1,
     .help = "-O2, lanes model: every lane clone a scalar instruction"},
    {"--fused-fma", "W[,W]", LIFT | RUN | SIZE, OPT_FN, .fn = set_fused_fma,
     .help = "translating offline (lift, run --bundle) for a device whose Fma is exact for widths W "
             "(f32, f64 or all; f32-ftz: exact but flushing subnormals, used where the program's float "
             "mode flushes them too): llvm.fma of those as its Fma, not the exact routine (run on a "
             "device probes it: wl_rt_probe_fma)"},
    {"--no-fold-masked", NULL, LIFT, OPT_FLAG, F(fold_masked), .ival = -1,
     .help = "-O2, lanes model: keep every write under EXEC as a select (by default one no lane "
             "reads where EXEC is off is the plain value)"},
    {"--scratch", "WHERE", LIFT | RUN | SIZE, OPT_FN, .fn = set_scratch,
     .help = "the private segment: auto (default: private arrays up to 1024 bytes an invocation: "
             "a lane's, or a wave's in the wave model; device memory beyond), private, device, "
             "device:BYTES (device memory beyond BYTES)"},
    {"--private-limit", "BYTES", LIFT | RUN | SIZE, OPT_U32, F(private_limit), .max = 0xffffffffu,
     .help = "the wave model: the private arrays an invocation may hold (default 14336; NVIDIA "
             "refuses pipelines near 16 KiB); the least used lane arrays past it live in device "
             "memory (docs/wave-model.md)"},
    {"--emit-llvm", NULL, LIFT, OPT_FLAG, F(emit_llvm), .ival = 1,
     .help = "also write the lifted wave IR to OUT.ll"},
    {"--emit-stages", NULL, LIFT, OPT_FLAG, F(emit_stages), .ival = 1,
     .help = "also write the module after each stage: OUT.wave.ll, OUT.lowered.ll, OUT.host.ll"},
    /* lift: a batch (cmd_batch.c) */
    {"--models", "M[,M]", LIFT | SIZE, OPT_FN, .fn = set_models,
     .help = "a batch: translate in each model named (lanes, wave, auto; default: --model's)"},
    {"-j", "N", LIFT | SIZE, OPT_U32, F(jobs), .max = 1024,
     .help = "a batch: N translations at a time (default: the machine's cores)"},
    {"--json", "FILE", LIFT | SIZE, OPT_STR, F(json),
     .help = "a batch: one record a translation, as JSON (docs/cli.md: the schema; - for stdout)"},
    {"--csv", "FILE", LIFT | SIZE, OPT_STR, F(csv), .help = "a batch: the same records as CSV (- for stdout)"},
    {"--timeout", "SECONDS", LIFT | SIZE, OPT_U32, F(timeout_s), .max = 86400,
     .help = "a batch: a translation taking longer is stopped and reported (default: none)"},
    {"--max-memory", "MIB", LIFT | SIZE, OPT_U32, F(max_memory_mib), .max = 1u << 24,
     .help = "a batch: a translation's address space limit; one that needs more is reported"},
    {"--quiet", NULL, LIFT | SIZE, OPT_FLAG, F(quiet), .ival = 1, .help = "a batch: no progress line"},
    {"--cache", "DIR", LIFT | SIZE, OPT_STR, F(cache),
     .help = "a batch: keep each translation (lifted or refused) in DIR under its key (wl_translate_key) "
             "and take it from there next time"},
    {"--svg", "FILE", SIZE, OPT_STR, F(svg),
     .help = "the plot: -O2 against -O0 words, and words a guest instruction against the program's size"},
    {"--runs", "N", RUN | REPLAY, OPT_FN, .fn = set_runs,
     .help = "run the dispatch N times (timing: the median)", .alt_cmds = REPLAY,
     .alt_help = "one dispatch for the results, N - 1 warm ones timed (default 3)"},
    {"--timeout-ms", "MS", RUN | REPLAY, OPT_U32, F(timeout_ms), .max = 3600000,
     .help = "how long a submission may take (default 60000)"},
    {"--loop-budget", "N", RUN, OPT_U32, F(loop_budget), .max = 0xffffffffu,
     .help = "the backward edges an invocation may take before the loop-budget escape (default "
             "2^20, in the wave model 2^16; docs/escapes.md)"},
    {"--pages", NULL, RUN, OPT_FLAG, F(pages), .ival = 1,
     .help = "each buffer on pages of its own, through the page table"},
    {"--capture", "DIR", RUN, OPT_STR, F(capture),
     .help = "also write the dispatch as a capture to DIR (docs/capture.md)"},
    {"--bundle", "DIR", RUN, OPT_STR, F(bundle),
     .help = "do not run: write the dispatch to DIR for wl_bundlerun (needs --subgroup-size or "
             "--model wave; --out N:FILE then names the expected DIR/FILE; docs/bundle.md)"},
    {"--merge-stores", NULL, RUN, OPT_FLAG, F(merge_stores), .ival = 1,
     .help = "with --bundle: for a device without 8/16-bit storage"},
    {"--lds-limit", "BYTES", RUN, OPT_U32, F(lds_limit), .max = 0xffffffffu,
     .help = "with --bundle: for a device whose shared memory is BYTES (a larger LDS lives in "
             "device memory)"},
    /* replay */
    {"--state-in-buffer", NULL, RUN | REPLAY, OPT_FLAG, F(state_in_buffer), .ival = 1,
     .help = "the translation's per-dispatch state in a storage buffer, not the push constants "
             "(wl_translate_options.state_in_buffer, as an emulator keeping its push constants asks)"},
    {"--both", NULL, REPLAY, OPT_FLAG, F(both), .ival = 1,
     .help = "run both models and compare every writable byte"},
    {"--out-dir", "DIR", REPLAY, OPT_STR, F(out_dir),
     .help = "write each writable range to DIR/NAME.bin"},
    {"--mapping", "M", REPLAY, OPT_CHOICE, F(mapping), .choices = mapping_choices,
     .help = "auto (default: the ranges at their guest addresses, one window or the page table), "
             "window, pages, or identity (host buffers, address fields rewritten; "
             "docs/capture.md)"},
    {"--help", NULL, ALL, OPT_HELP, .help = "this text"},
};
#define NOPTS (sizeof(table) / sizeof(table[0]))
_Static_assert(NOPTS <= sizeof(((cli_options *)0)->given), "cli_options.given holds a flag an option");

static const struct {
    const char *name;
    const char *operand;   /* named in "needs a ..." */
    const char *too_many;
    const char *synopsis;  /* after "wavelift NAME " */
    const char *summary;
    const char *exits;     /* the exit statuses, for --help */
} cmds[CLI_NCMDS] = {
    {"dis", "FILE", "more than one file", "[options] FILE",
     "list a code object's kernels and functions (or raw code) in LLVM's syntax",
     "0 listed; 1 bad input (unreadable, empty, a directory, not a code object); 2 usage"},
    {"lift", "CODE_OBJECT", "more than 4096 inputs",
     "CODE_OBJECT --kernel NAME -o OUT.spv [options]\n       wavelift lift INPUT... [--kernel PATTERN] [-o DIR] [options]",
     "translate a kernel to a Vulkan SPIR-V module (offline); or a batch: every kernel (or those PATTERN "
     "matches) of code objects and directories of them, in parallel (docs/cli.md)",
     "0 translated (a batch: all); 3 refused by name (a batch: some, none failed); 1 bad input or a "
     "failure (a batch: a crash, --timeout, --max-memory, a bad input); 2 usage"},
    {"run", "CODE_OBJECT", "more than one file",
     "CODE_OBJECT --kernel NAME --global X[,Y[,Z]] --local X[,Y[,Z]] [options]",
     "translate a kernel for the device and run it through Vulkan",
     "0 ran; 3 refused (an instruction not translated, or an escape recorded at run time, named); 1 "
     "bad input or a device error; 2 usage"},
    {"replay", "CAPTURE directory", "more than one capture", "CAPTURE [options]",
     "run a dispatch capture (docs/capture.md)",
     "0 ran (with --both: no difference); 3 refused (an escape, a model not built, or a difference); "
     "1 bad input or a device error; 2 usage"},
    {"size", "INPUT", "more than 4096 inputs", "INPUT... [--kernel PATTERN] [--svg FILE] [options]",
     "the module sizes of a batch at -O0 and -O2: a table sorted by size, totals, median, 90th "
     "percentile, maximum, and a plot (docs/cli.md)",
     "as lift's batch: 0 all translated; 3 some refused; 1 a failure; 2 usage"},
};

int cli_cmd_find(const char *name)
{
    for (int c = 0; c < CLI_NCMDS; c++)
        if (strcmp(name, cmds[c].name) == 0)
            return c;
    return -1;
}

/* ---- the help ------------------------------------------------------------ */
#define HELP_COL 22
#define HELP_WIDTH 79

/* text from column `col` (the cursor is there), wrapped at HELP_WIDTH */
static void print_wrapped(const char *text, int col)
{
    int at = col;
    const char *p = text;
    while (*p) {
        size_t w = strcspn(p, " ");
        if (at > col && at + 1 + (int)w > HELP_WIDTH) {
            printf("\n%*s", col, "");
            at = col;
        } else if (at > col) {
            putchar(' ');
            at++;
        }
        printf("%.*s", (int)w, p);
        at += (int)w;
        p += w;
        while (*p == ' ')
            p++;
    }
    putchar('\n');
}

static void print_option(const cli_opt *t, cli_cmd cmd)
{
    int n = printf("  %s%s%s", t->name, t->metavar ? " " : "", t->metavar ? t->metavar : "");
    if (n >= HELP_COL) {
        printf("\n%*s", HELP_COL, "");
    } else {
        printf("%*s", HELP_COL - n, "");
    }
    print_wrapped(t->alt_help && (t->alt_cmds & (1u << cmd)) ? t->alt_help : t->help, HELP_COL);
}

static const char value_note[] =
    "An option's value follows it (--kernel NAME) or an '=' (--kernel=NAME; -oOUT.spv for -o).\n";

static void print_cmd(cli_cmd cmd)
{
    printf("%s %s:\n", cmds[cmd].name, cmds[cmd].synopsis);
    for (size_t i = 0; i < NOPTS; i++)
        if (table[i].cmds & (1u << cmd))
            print_option(&table[i], cmd);
}

void cli_print_help(int cmd)
{
    if (cmd >= 0) {
        printf("usage: wavelift %s %s\n", cmds[cmd].name, cmds[cmd].synopsis);
        printf("  %s\n\n%s\n", cmds[cmd].summary, value_note);
        print_cmd((cli_cmd)cmd);
        printf("\nexit status: ");
        print_wrapped(cmds[cmd].exits, 13);
        return;
    }
    printf("usage: wavelift <command> [options] FILE\n"
           "       wavelift <command> --help\n"
           "       wavelift --version\n"
           "\n"
           "commands:\n");
    for (int c = 0; c < CLI_NCMDS; c++)
        printf("  %-8s %s\n", cmds[c].name, cmds[c].summary);
    printf("\n  --help              this text (a command's options: wavelift <command> --help)\n"
           "  --version           the version\n"
           "  --man               the manual page (roff: the build writes wavelift.1)\n");
    printf("\n%s", value_note);
    for (int c = 0; c < CLI_NCMDS; c++) {
        printf("\n");
        print_cmd((cli_cmd)c);
    }
}

/* roff text: backslashes doubled, a leading dot or quote escaped */
static void roff(const char *s)
{
    if (*s == '.' || *s == '\'')
        fputs("\\&", stdout);
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\e", stdout);
        else if (*s == '-')
            fputs("\\-", stdout);
        else
            putchar(*s);
    }
}

/* The manual page (wavelift.1, roff), from the same table as --help. */
void cli_print_man(void)
{
    printf(".TH WAVELIFT 1 \"\" \"wavelift %s\" \"User Commands\"\n", wl_version());
    printf(".SH NAME\nwavelift \\- lift AMD RDNA (gfx10) compute programs to Vulkan SPIR\\-V\n");
    printf(".SH SYNOPSIS\n");
    for (int c = 0; c < CLI_NCMDS; c++) {
        /* a synopsis of two forms has the second after "\n       wavelift NAME " */
        for (const char *syn = cmds[c].synopsis; syn;) {
            const char *nl = strchr(syn, '\n');
            char form[256];
            snprintf(form, sizeof form, "%.*s", nl ? (int)(nl - syn) : (int)strlen(syn), syn);
            printf(".B wavelift %s\n", cmds[c].name);
            roff(form);
            printf("\n.br\n");
            syn = nl ? strstr(nl, "wavelift ") : NULL;
            if (syn)
                syn += strlen("wavelift ") + strlen(cmds[c].name) + 1;
        }
    }
    printf(".SH DESCRIPTION\n");
    roff(value_note);
    for (int c = 0; c < CLI_NCMDS; c++) {
        printf(".SS %s\n", cmds[c].name);
        roff(cmds[c].summary);
        printf(".\n");
        for (size_t i = 0; i < NOPTS; i++) {
            const cli_opt *t = &table[i];
            if (!(t->cmds & (1u << c)))
                continue;
            printf(".TP\n.B ");
            roff(t->name);
            if (t->metavar) {
                printf(" ");
                roff(t->metavar);
            }
            printf("\n");
            roff(t->alt_help && (t->alt_cmds & (1u << c)) ? t->alt_help : t->help);
            printf("\n");
        }
        printf(".PP\nExit status: ");
        roff(cmds[c].exits);
        printf("\n");
    }
    printf(".SH SEE ALSO\nThe docs/ folder of the source: cli.md (options, batches, the record schema), "
           "architecture.md, lanes.md, wave\\-model.md, memory.md, escapes.md.\n");
}

/* ---- the parser ---------------------------------------------------------- */
static int usage(cli_cmd cmd, const char *msg, const char *arg, int len)
{
    fprintf(stderr, "wavelift: %s: %s: %.*s\n", cmds[cmd].name, msg, len, arg);
    fprintf(stderr, "Try 'wavelift %s --help'.\n", cmds[cmd].name);
    return EXIT_USAGE;
}

static const cli_opt *find(const char *name, size_t len)
{
    for (size_t i = 0; i < NOPTS; i++)
        if (strlen(table[i].name) == len && strncmp(table[i].name, name, len) == 0)
            return &table[i];
    return NULL;
}

/* "-oFILE": a one-letter option that takes a value, the value attached */
static const cli_opt *find_attached(const char *arg)
{
    for (size_t i = 0; i < NOPTS; i++)
        if (table[i].name[1] != '-' && strlen(table[i].name) == 2 && table[i].metavar &&
            strncmp(arg, table[i].name, 2) == 0)
            return &table[i];
    return NULL;
}

static void defaults(cli_cmd cmd, cli_options *o)
{
    memset(o, 0, sizeof(*o));
    o->cmd = cmd;
    o->model = CLI_MODEL_AUTO;
    o->opt_level = 2;
    o->subgroup = cmd == CLI_LIFT || cmd == CLI_SIZE ? 32 : 0; /* cli_apply_host */
    o->runs = cmd == CLI_REPLAY ? 3 : 1;
    o->mapping = REPLAY_MAP_AUTO;
}

static int apply(const cli_opt *t, cli_options *o, const char *v)
{
    char *field = (char *)o + t->field;
    switch (t->kind) {
    case OPT_FLAG:
        *(int *)field = t->ival;
        return 0;
    case OPT_STR:
        *(const char **)field = v;
        return 0;
    case OPT_U32: {
        char what[64];
        snprintf(what, sizeof what, "bad %s", t->name);
        return parse_u32(v, t->max, (uint32_t *)field) ? cli_usage_error(what, v) : 0;
    }
    case OPT_CHOICE: {
        for (const opt_choice *c = t->choices; c->name; c++)
            if (strcmp(v, c->name) == 0) {
                *(int *)field = c->value;
                return 0;
            }
        /* "--model must be auto, lanes or wave" */
        char what[160];
        int n = snprintf(what, sizeof what, "%s must be", t->name);
        for (const opt_choice *c = t->choices; c->name; c++) {
            const char *sep = c == t->choices ? " " : c[1].name ? ", " : " or ";
            n += snprintf(what + n, sizeof what - (size_t)n, "%s%s", sep, c->name);
        }
        return cli_usage_error(what, v);
    }
    case OPT_FN:
        return t->fn(o, v);
    case OPT_HELP:
        cli_print_help((int)o->cmd);
        return -1;
    }
    return EXIT_USAGE;
}

int cli_parse_options(cli_cmd cmd, int argc, char **argv, cli_options *o)
{
    defaults(cmd, o);
    for (int i = 0; i < argc; i++) {
        const char *a = strcmp(argv[i], "-h") ? argv[i] : "--help";
        if (a[0] != '-' || a[1] == '\0') { /* the operand ("-" too) */
            if (o->file && ((cmd != CLI_LIFT && cmd != CLI_SIZE) || o->ninputs == CLI_MAX_INPUTS))
                return cli_usage_error(cmds[cmd].too_many, a);
            if (!o->file)
                o->file = a;
            o->inputs[o->ninputs++] = a;
            continue;
        }
        /* --name=VALUE, --name [VALUE], -o [VALUE], -oVALUE */
        const char *eq = a[1] == '-' ? strchr(a, '=') : NULL;
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        const char *value = eq ? eq + 1 : NULL;
        const cli_opt *t = find(a, len);
        if (!t && a[1] != '-' && (t = find_attached(a)) != NULL)
            value = a + 2;
        if (!t)
            return usage(cmd, "unknown option", a, (int)len);
        if (!(t->cmds & (1u << cmd))) {
            char msg[128];
            int n = snprintf(msg, sizeof msg, "unknown option (an option of");
            for (int c = 0, k = 0; c < CLI_NCMDS; c++)
                if (t->cmds & (1u << c))
                    n += snprintf(msg + n, sizeof msg - (size_t)n, "%s %s", k++ ? "," : "", cmds[c].name);
            snprintf(msg + n, sizeof msg - (size_t)n, ")");
            return usage(cmd, msg, a, (int)len);
        }
        if (!t->metavar && value)
            return usage(cmd, "option takes no value", a, (int)strlen(a));
        if (t->metavar && !value) {
            if (i + 1 >= argc)
                return usage(cmd, "option needs a value", a, (int)len);
            value = argv[++i];
        }
        o->given[t - table] = 1;
        int rc = apply(t, o, value);
        if (rc)
            return rc;
    }
    if (!o->file) {
        char msg[64];
        snprintf(msg, sizeof msg, "%s needs a %s", cmds[cmd].name, cmds[cmd].operand);
        return cli_usage_error(msg, NULL);
    }
    return 0;
}

int cli_given(const cli_options *o, const char *name)
{
    const cli_opt *t = find(name, strlen(name));
    return t && o->given[t - table];
}
