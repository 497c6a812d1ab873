/* wavelift run: translates one kernel for the device's subgroup size and
 * runs it through Vulkan, the way the ROCm runtime would launch it.
 *
 *   wavelift run CODE_OBJECT --kernel NAME --global X[,Y[,Z]] --local X[,Y[,Z]]
 *                [--arg SPEC]... [--out N:FILE]... [--device D]
 *                [--subgroup-size S] [--model lanes|wave|auto] [-O0|-O2] [--vectorize|--no-vectorize] [--runs N] [--timeout-ms MS]
 *                [--bundle DIR [--merge-stores] [--lds-limit BYTES]] [--capture DIR] [--loop-budget N]
 *                [--scratch auto|private|device|device:BYTES]
 *                [--pages]
 *
 * With --bundle DIR it translates for --subgroup-size S (required unless
 * --model wave; no device is used) and writes the dispatch as files instead of running it
 * (docs/bundle.md; bench/wl_bundlerun.c runs them); --out N:FILE then says
 * that buffer argument N is to be compared with DIR/FILE, --merge-stores
 * translates for a device without 8- and 16-bit storage access, --lds-limit
 * for one whose maxComputeSharedMemorySize is BYTES (a larger LDS then lives
 * in device memory, docs/memory.md).
 *
 * SPEC: u32:N i32:N u64:N i64:N f32:X f64:X buf:FILE zero:BYTES local:BYTES,
 * one per explicit kernel argument in order. --out N:FILE writes buffer
 * argument N (counting every --arg from 0) after the run.
 *
 * The program's memory is one guest arena at CLI_GUEST_BASE (launch.h),
 * mapped to one host buffer (docs/memory.md), the code object's loaded
 * segments first (image.c: .rodata reached through s_getpc is there);
 * --loop-budget N is the
 * backward edges an invocation may take (D949, docs/escapes.md). --pages
 * maps each buffer on pages of its own through the page table instead
 * (pages.c; bundles of format 3; with --capture the ranges keep the spread
 * addresses).
 *
 * With --capture DIR it also writes the dispatch as a capture
 * (capture_out.c, docs/capture.md) that `wavelift replay` runs.
 *
 * Prints the model, k, the SPIR-V words, the pipeline build and dispatch
 * times. Exit: 0 success; 3 the result was refused: the module recorded an
 * escape (status word 0 non-zero; no --out file is written) or the
 * translator refused the program by name; 2 usage; 1 otherwise. */
#include "options.h"
#include "replay.h"

#include "wavelift/runtime.h"
#include "wavelift/translate.h"

#include <errno.h>
#include <sys/stat.h>

#include <llvm-c/BitWriter.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>



#define MAX_ARGS CLI_LAUNCH_MAX_ARGS

/* What run requires beyond the table (options.c), and how its options
 * combine; *g gets the geometry. */
static int check(const cli_options *o, wl_hsa_geometry *g)
{
    if (!o->kernel)
        return cli_usage_error("run needs --kernel NAME", NULL);
    if (!o->global_dims || !o->local_dims)
        return cli_usage_error("run needs --global and --local", NULL);
    memcpy(g->global, o->global, sizeof(g->global));
    memcpy(g->local, o->local, sizeof(g->local));
    g->dims = o->global_dims > o->local_dims ? o->global_dims : o->local_dims;
    for (size_t i = 0; i < o->nouts; i++) {
        unsigned n = o->out_arg[i];
        if (n >= o->nargs || (o->args[n].kind != WL_HSA_ARG_BUF && o->args[n].kind != WL_HSA_ARG_ZERO))
            return cli_usage_error("--out names no buffer argument", o->out_file[i]);
        if (o->bundle && o->img[n].fmt)
            return cli_usage_error("--bundle: an image argument's output is not written by bundles", o->out_file[i]);
        if (o->bundle && strpbrk(o->out_file[i], " \t\n"))
            return cli_usage_error("--bundle: an --out FILE may not hold white space", o->out_file[i]);
    }
    if (o->bundle && o->state_in_buffer)
        return cli_usage_error("--state-in-buffer runs on the device here: a bundle's runner pushes the state", NULL);
    if (o->bundle && !o->subgroup && o->model != WL_MODEL_WAVE)
        return cli_usage_error("--bundle needs --subgroup-size (or --model wave)", NULL);
    if (o->merge_stores && !o->bundle)
        return cli_usage_error("--merge-stores goes with --bundle", NULL);
    if (o->lds_limit && !o->bundle)
        return cli_usage_error("--lds-limit goes with --bundle", NULL);
    return 0;
}


/* Everything one run holds; freed by run_free. */
typedef struct run_state {
    wl_codeobj *co;
    const wl_kernel *k;
    wl_rt *rt;
    uint32_t *words;
    cli_launch launch;
    uint8_t *bytes; /* a buffer's initial bytes with addresses */
    wl_rt_buffer *buf[CLI_LAUNCH_MAX_BUFFERS];
    wl_rt_buffer *arena; /* the guest memory the buffers in it are views of */
    uint32_t lds_off[MAX_ARGS];
    uint32_t loop_budget; /* pushed (0: the module's default) */
    cli_image image;      /* the code object's loaded segments */
    int pages;            /* --pages (pages.c) */
} run_state;

static void run_free(run_state *s)
{
    wl_rt_destroy(s->rt); /* frees its buffers and pipelines */
    free(s->words);
    free(s->bytes);
    cli_launch_free(&s->launch);
    cli_image_free(&s->image);
    wl_codeobj_free(s->co);
}

static int rt_fail(run_state *s, const char *what)
{
    fprintf(stderr, "wavelift: %s: %s\n", what, wl_rt_error(s->rt));
    return EXIT_BAD_INPUT;
}

/* Puts the relocations of region `in` (-1: the push constants) into bytes,
 * given the buffers' addresses. */
static void patch(const cli_launch *L, int in, uint8_t *bytes, const uint64_t *addr)
{
    for (unsigned r = 0; r < L->nrel; r++)
        if (L->rel[r].in == in) {
            uint64_t v = addr[L->rel[r].target] + L->rel[r].addend;
            memcpy(bytes + L->rel[r].offset, &v, 8);
        }
}

/* Creates the launch's buffers, puts the addresses in, uploads. */
static int realize(run_state *s, uint8_t push[WL_PUSH_BYTES])
{
    const cli_launch *L = &s->launch;
    uint64_t addr[CLI_LAUNCH_MAX_BUFFERS]; /* what the program sees: guest addresses in the arena */
    uint64_t lead = s->pages ? cli_pages_lead(L) : 0; /* --pages: the arena from a page boundary */
    if (L->arena_bytes && wl_rt_buffer_create(s->rt, lead + L->arena_bytes, &s->arena) != WL_RT_OK)
        return rt_fail(s, "guest memory");
    for (unsigned b = 0; b < L->nbuf; b++) {
        int in = L->arena_off[b] != CLI_NOT_IN_ARENA;
        if ((in ? wl_rt_buffer_view(s->rt, s->arena, lead + L->arena_off[b], L->buf[b].size, &s->buf[b])
                : wl_rt_buffer_create(s->rt, L->buf[b].size, &s->buf[b])) != WL_RT_OK)
            return rt_fail(s, "buffer");
        addr[b] = in ? L->guest_base + L->arena_off[b] : wl_rt_buffer_address(s->buf[b]);
    }
    for (unsigned b = 0; b < L->nbuf; b++) {
        if (!L->buf[b].init)
            continue;
        free(s->bytes);
        if (!(s->bytes = malloc(L->buf[b].size)))
            return EXIT_BAD_INPUT;
        memcpy(s->bytes, L->buf[b].init, L->buf[b].size);
        patch(L, (int)b, s->bytes, addr);
        if (wl_rt_buffer_upload(s->rt, s->buf[b], 0, s->bytes, L->buf[b].size) != WL_RT_OK)
            return rt_fail(s, "upload");
    }
    memcpy(push, L->push, WL_PUSH_BYTES);
    patch(L, -1, push, addr);
    /* the guest mapping: the arena, nothing else (docs/memory.md) */
    wl_rt_mapping map = {L->guest_base, L->arena_bytes, s->arena ? wl_rt_buffer_address(s->arena) : 0};
    uint32_t mw[WL_RT_MAPPING_WORDS];
    wl_rt_mapping ranges[CLI_LAUNCH_MAX_BUFFERS];
    wl_rt_buffer *table;
    if (s->pages) { /* one range a buffer (pages.c) */
        size_t n = 0;
        if (s->arena)
            n = cli_pages_ranges(L, wl_rt_buffer_address(s->arena), ranges, CLI_LAUNCH_MAX_BUFFERS);
        if (wl_rt_pagetable_create(s->rt, ranges, n, 0, &table, mw) != WL_RT_OK)
            return rt_fail(s, "page table");
    } else if (wl_rt_mapping_encode(&map, mw) != WL_RT_OK) {
        fprintf(stderr, "wavelift: the guest mapping cannot be encoded\n");
        return EXIT_BAD_INPUT;
    }
    memcpy(push + WL_PUSH_MAP_OFFSET, mw, sizeof mw);
    memcpy(push + WL_PUSH_LOOP_BUDGET_OFFSET, &s->loop_budget, 4);
    return 0;
}

/* wl_translate_options.stage_hook: the host stage as bitcode at user (a path) */
static void write_host_bc(void *user, const char *stage, LLVMModuleRef m)
{
    if (strcmp(stage, "host") == 0 && LLVMWriteBitcodeToFile(m, (const char *)user))
        fprintf(stderr, "wavelift: %s: cannot write\n", (const char *)user);
}

static int do_run(run_state *s, cli_options *o, const wl_hsa_geometry *g)
{
    char err[2048];
    int rc;
    if ((rc = cli_open_kernel(o->file, o->kernel, &s->co, &s->k)))
        return rc;
    const wl_kernel *k = s->k;
    if (wl_hsa_check_args(k, o->args, o->nargs, err, sizeof(err))) {
        fprintf(stderr, "wavelift: %s: %s\n", o->file, err);
        return EXIT_USAGE;
    }
    /* an image spec for each image argument and for nothing else (the
     * check above sees both as buffers) */
    for (size_t i = 0, n = 0; i < k->nargs && n < o->nargs; i++) {
        const char *vk = k->args[i].value_kind ? k->args[i].value_kind : "";
        if (strncmp(vk, "hidden_", 7) == 0)
            continue;
        if ((strcmp(vk, "image") == 0) != (o->img[n].fmt != 0)) {
            fprintf(stderr, "wavelift: %s: argument %zu of %s is %s: --arg gives %s\n", o->file, n, k->name,
                    vk, o->img[n].fmt ? "an image" : "no image (img1d:, img2d:)");
            return EXIT_USAGE;
        }
        n++;
    }
    for (int d = 0; d < 3; d++)
        if (g->global[d] % g->local[d]) {
            fprintf(stderr, "wavelift: --global is not a multiple of --local in dimension %d: "
                            "partial workgroups are not supported\n", d);
            return EXIT_BAD_INPUT;
        }
    wl_lift_program prog;
    if (wl_lift_program_from_kernel(s->co, k, &prog, err, sizeof(err)) != WL_OK) {
        fprintf(stderr, "wavelift: %s: %s\n", o->file, err);
        return EXIT_BAD_INPUT;
    }
    /* The code object is loaded as the ROCm loader loads it (launch.h,
     * cli_image): its segments at cli_image_base() + their ELF addresses, so
     * the code's guest address moves with them and s_getpc-relative reads
     * of .rodata find the copy. A bundle carries the image and the arena
     * too (bundle.c, docs/bundle.md). */
    if (cli_image_load(s->co, &s->image, err, sizeof(err))) {
        fprintf(stderr, "wavelift: %s: %s\n", o->file, err);
        return EXIT_BAD_INPUT;
    }
    if (prog.address > s->image.size || prog.size > s->image.size - prog.address) {
        fprintf(stderr, "wavelift: %s: the kernel's code (ELF address 0x%llx) is not in a "
                        "loadable segment\n", o->file, (unsigned long long)prog.address);
        return EXIT_BAD_INPUT;
    }
    prog.address += cli_image_base(&s->image);
    uint32_t dyn_lds = wl_hsa_dynamic_lds(k, o->args, o->nargs, s->lds_off);
    prog.lds_bytes += dyn_lds;

    wl_rt_options ropt = {.device = o->device, .timeout_ms = o->timeout_ms};
    const wl_host_profile *hp = NULL;
    if (!o->bundle) {
        if (wl_rt_create(&ropt, &s->rt, err, sizeof(err)) != WL_RT_OK) {
            fprintf(stderr, "wavelift: %s\n", err);
            return EXIT_BAD_INPUT;
        }
        /* whether the device's Fma is fused (one dispatch; not fused on error) */
        wl_rt_probe_fma(s->rt);
        hp = wl_rt_profile(s->rt);
    }
    unsigned S = o->subgroup ? o->subgroup : hp ? hp->subgroup_size : 0;
    /* the model (docs/wave-model.md): auto takes the lanes model where the
     * device's subgroup carries the wave */
    char why[256];
    unsigned smin = 4, smax = 64; /* offline (--bundle): any size asked for */
    if (hp) {
        smin = hp->subgroup_size_control ? hp->min_subgroup_size : hp->subgroup_size;
        smax = hp->subgroup_size_control ? hp->max_subgroup_size : hp->subgroup_size;
    }
    int model = cli_choose_model(o->model, prog.wave_size, S, smin, smax, why, sizeof(why));

    wl_translate_options topt = {.struct_size = sizeof(wl_translate_options), 
        .model = model,
        .subgroup_size = S,
        .local_size = {g->local[0], g->local[1], g->local[2]},
        .opt_level = o->opt_level,
        .validate = 1,
        .passes = o->vectorize < 0 ? "skip=vectorize-lanes" : NULL, /* --no-vectorize */
        /* offline (--bundle): the options say what the device has */
        .force_merge_stores = o->merge_stores,
        .fused_fma = o->fused_fma, /* WL_FMA_* bits */
        .lds_limit = o->lds_limit,
        .loop_budget = o->loop_budget,
        .scratch_limit = o->scratch_limit,
        .force_scratch_buffer = o->force_scratch_buffer,
        .private_limit = o->private_limit,
        .mapping_pages = o->pages,
        .state_in_buffer = o->state_in_buffer,
    };
    if (hp) /* on a device its profile decides */
        cli_host_options(hp, &topt);
    /* a lanes-model bundle carries its host-stage IR too: tests/wl_hostsim
     * runs it on the CPU at S = 32 and 64 (docs/bundle.md) */
    char host_bc[4096] = "";
    if (o->bundle && model == WL_MODEL_LANES) {
        if (mkdir(o->bundle, 0777) && errno != EEXIST) {
            fprintf(stderr, "wavelift: %s: cannot create the folder\n", o->bundle);
            return EXIT_BAD_INPUT;
        }
        snprintf(host_bc, sizeof host_bc, "%s/host.bc", o->bundle);
        topt.stage_hook = write_host_bc;
        topt.stage_user = host_bc;
    }
    s->loop_budget = o->loop_budget;
    s->pages = o->pages;
    size_t nwords = 0;
    wl_translate_info info;
    memset(&info, 0, sizeof(info));
    wl_status st = wl_translate(&prog, &topt, &s->words, &nwords, &info, err, sizeof(err));
    if (st != WL_OK) {
        fprintf(stderr, "wavelift: %s: kernel %s: %s: %s\n", o->file, o->kernel,
                st == WL_ERR_UNSUPPORTED ? "refused" : "translation failed", err);
        return st == WL_ERR_UNSUPPORTED ? EXIT_REFUSED : EXIT_BAD_INPUT;
    }

    /* Memory (launch.c): the arguments' buffers, the kernarg segment, the
     * dispatch packet, the queue, the status words, scratch and
     * device-memory LDS, and the push constants. */
    if ((rc = cli_launch_build(k, o->args, o->img, o->nargs, g, prog.lds_bytes, dyn_lds, s->lds_off,
                               &info, &s->image, &s->launch, err,
                               sizeof(err)))) {
        fprintf(stderr, "wavelift: %s: %s\n", o->file, err);
        return rc;
    }
    if (o->pages)
        cli_pages_spread(&s->launch);
    const cli_launch *L = &s->launch;
    if (o->capture) {
        char source[1024];
        snprintf(source, sizeof(source), "kernel %s from %s", o->kernel, o->file);
        if ((rc = cli_capture_write(o->capture, &prog, L, g->local, source, &k->launch)))
            return rc;
    }
    if (o->bundle) {
        cli_bundle_meta m = {
            .kernel = o->kernel, .code_object = o->file, .wave = info.wave_size,
            .subgroup = model == WL_MODEL_WAVE ? 0 : S, .model = model, .lane_loops = info.lane_loops,
            .translate_ms = info.ms_total,
            .k = info.lanes_per_invocation,
            .local = {g->local[0], g->local[1], g->local[2]},
            .merge_stores = topt.force_merge_stores,
            .fused_fma = topt.fused_fma,
            .pages = o->pages,
            .host_ir = host_bc[0] != 0,
            .host_local = {info.host_local_size[0], info.host_local_size[1], info.host_local_size[2]},
            .out_arg = o->out_arg, .out_file = o->out_file, .nouts = o->nouts,
        };
        if ((rc = cli_bundle_write(o->bundle, L, s->words, nwords, &m)))
            return rc;
        printf("bundle: %s\n", o->bundle);
        printf("kernel: %s (wave%u)\n", o->kernel, info.wave_size);
        printf("model: %s (%s)\n", cli_model_name(model), why);
        printf("subgroup size: %u\n", m.subgroup);
        printf("k: %u\n", info.lanes_per_invocation);
        printf("SPIR-V words: %zu\n", nwords);
        printf("buffers: %u, relocations: %u\n", L->nbuf, L->nrel);
        return 0;
    }
    uint8_t push[WL_PUSH_BYTES];
    if ((rc = realize(s, push)))
        return rc;
    wl_rt_buffer *status = s->buf[L->status], *lds = L->lds >= 0 ? s->buf[L->lds] : NULL;

    wl_rt_pipeline_desc pd = {
        .words = s->words, .nwords = nwords, .subgroup_size = S, .require_full_subgroups = 1,
    };
    if (model == WL_MODEL_WAVE) { /* one invocation a wave: no subgroup size required */
        pd.subgroup_size = 0;
        pd.require_full_subgroups = 0;
    }
    wl_rt_pipeline *pipe;
    if (wl_rt_pipeline_create(s->rt, &pd, &pipe) != WL_RT_OK)
        return rt_fail(s, "pipeline");
    wl_rt_dispatch_desc dd = {
        .groups = {L->groups[0], L->groups[1], L->groups[2]},
        .push_constants = push,
        .push_constant_size = sizeof(push),
        .runs = o->runs,
        .state_in_buffer = o->state_in_buffer,
    };
    dd.bindings[WL_RT_BINDING_STATUS] = status;
    dd.bindings[WL_RT_BINDING_LDS] = lds;
    wl_rt_timing t;
    memset(&t, 0, sizeof(t));
    if (wl_rt_dispatch(s->rt, pipe, &dd, &t) != WL_RT_OK)
        return rt_fail(s, "dispatch");

    printf("device: %s\n", hp->device_name);
    printf("kernel: %s (wave%u)\n", o->kernel, info.wave_size);
    printf("model: %s (%s)\n", cli_model_name(model), why);
    if (model == WL_MODEL_WAVE) {
        printf("lane loops: %u\n", info.lane_loops);
    } else {
        printf("subgroup size: %u\n", S);
        printf("k: %u\n", info.lanes_per_invocation);
    }
    printf("SPIR-V words: %zu\n", nwords);
    if (info.scratch_bytes_per_invocation)
        cli_print_segment(stdout, info.scratch_bytes_per_invocation, info.lane_array_bytes);
    if (o->pages)
        printf("mapping: pages\n");
    printf("translation ms: %.3f\n", info.ms_total);
    printf("pipeline build ms: %.3f\n", wl_rt_pipeline_create_ns(pipe) / 1e6);
    printf("dispatch ms: %.3f\n", (t.runs ? t.median_ns : t.host_ns) / 1e6);

    wl_rt_escape esc;
    wl_rt_status est = wl_rt_escape_check(s->rt, status, &esc);
    if (est == WL_RT_ERR_ESCAPE) {
        fprintf(stderr, "wavelift: %s: kernel %s: %s (escape kind %u)\n", o->file, o->kernel,
                wl_rt_error(s->rt), esc.kind);
        return EXIT_REFUSED;
    }
    if (est != WL_RT_OK)
        return rt_fail(s, "status");
    for (size_t i = 0; i < o->nouts; i++) {
        unsigned n = o->out_arg[i];
        uint64_t bytes = o->args[n].bytes;
        uint8_t *data = malloc(bytes ? bytes : 1);
        if (!data)
            return EXIT_BAD_INPUT;
        rc = 0;
        if (bytes && wl_rt_buffer_download(s->rt, s->buf[L->arg_buf[n]], 0, data, bytes) != WL_RT_OK)
            rc = rt_fail(s, o->out_file[i]);
        else if (cli_write_file(o->out_file[i], data,
                                o->img[n].fmt ? cli_img_rows(&o->img[n], data) : bytes)) /* an image: its rows */
            rc = EXIT_BAD_INPUT;
        free(data);
        if (rc)
            return rc;
    }
    return 0;
}

int cmd_run(cli_options *o)
{
    wl_hsa_geometry g;
    memset(&g, 0, sizeof(g));
    int rc = check(o, &g);
    if (!rc) {
        run_state s;
        memset(&s, 0, sizeof(s));
        rc = do_run(&s, o, &g);
        run_free(&s);
    }
    return rc;
}
