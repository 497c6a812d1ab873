/* wavelift replay: runs a dispatch capture (docs/capture.md).
 *
 *   wavelift replay CAPTURE [--model auto|lanes|wave] [--both] [--device D]
 *                   [--out-dir DIR] [--subgroup-size S] [-O0|-O2] [--runs N]
 *                   [--timeout-ms MS] [--mapping auto|window|pages|identity]
 *
 * The ranges keep their guest addresses: the translation reaches them
 * through the guest mapping (one window, or the page table where they lie
 * far apart: replay_run.c plan), and an address outside them is an escape
 * naming it. --mapping identity is the old replay: the ranges where the
 * host puts them, the address fields rewritten (docs/capture.md).
 *
 * Runs the capture in one model (auto: chosen from the device, the choice
 * and its reason printed) or, with --both, in the lanes and the wave model,
 * and compares every byte of every writable range between the two. Either
 * way a read-only range must come back unchanged. --out-dir writes each
 * writable range as DIR/NAME.bin (the first model's; with --both and a
 * difference also DIR/NAME.MODEL.bin for each model).
 *
 * Exit: 0 success (and, with --both, no difference); 3 refused: the
 * translator refused the program, a model is not built, or the module
 * recorded an escape, or a store outside every range was found; 2 usage; 1 anything else (a bad capture, a Vulkan
 * error, a difference between the models, a read-only range written). */
#include "options.h"
#include "replay.h"

#include "wavelift/translate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>

typedef struct replay_cli {
    const char *capture, *device, *out_dir;
    replay_model model;
    int both;
    replay_opts o;
    uint32_t timeout_ms;
} replay_cli;

/* replay's options from the table (options.c), and how they combine */
static int from_options(const cli_options *o, replay_cli *a)
{
    memset(a, 0, sizeof(*a));
    a->capture = o->file;
    a->device = o->device;
    a->out_dir = o->out_dir;
    a->model = o->model == WL_MODEL_WAVE    ? REPLAY_WAVE
               : o->model == WL_MODEL_LANES ? REPLAY_LANES
                                            : REPLAY_AUTO;
    a->both = o->both;
    a->timeout_ms = o->timeout_ms;
    a->o.subgroup = o->subgroup;
    a->o.mapping = (replay_mapping)o->mapping;
    a->o.state_in_buffer = o->state_in_buffer;
    a->o.opt_level = o->opt_level;
    a->o.runs = o->runs;
    if (a->both && cli_given(o, "--model"))
        return cli_usage_error("--both runs both models: it takes no --model", NULL);
    return 0;
}

static void print_ms(double ms)
{
    if (ms < 0)
        printf(" %10s", "-");
    else
        printf(" %10.3f", ms);
}

static void print_table(const replay_result *r, size_t n)
{
    printf("%-6s %3s %3s %12s %10s %10s %10s %10s %10s\n", "model", "S", "k", "SPIR-V words",
           "xlate ms", "pipe ms", "first ms", "first host", "warm ms");
    for (size_t i = 0; i < n; i++) {
        printf("%-6s", replay_model_name(r[i].model));
        if (r[i].model == REPLAY_LANES)
            printf(" %3u %3u", r[i].subgroup, r[i].k);
        else
            printf(" %3s %3s", "-", "-");
        printf(" %12zu", r[i].words);
        print_ms(r[i].ms_translate);
        print_ms(r[i].ms_pipeline);
        print_ms(r[i].ms_first_device);
        print_ms(r[i].ms_first_host);
        print_ms(r[i].ms_warm);
        printf("\n");
    }
}

/* A read-only range must come back as it went in. */
static int check_read_only(const wl_capture *c, const replay_result *r)
{
    int bad = 0;
    for (size_t i = 0; i < c->nranges; i++) {
        const wl_capture_range *g = &c->ranges[i];
        if (g->writable)
            continue;
        for (uint64_t b = 0; b < g->size; b++)
            if (r->bytes[i][b] != g->data[b]) {
                fprintf(stderr, "wavelift: replay (%s model): read-only range %s was written "
                                "(first at byte %llu: 0x%02x, was 0x%02x)\n",
                        replay_model_name(r->model), g->name, (unsigned long long)b,
                        r->bytes[i][b], g->data[b]);
                bad = 1;
                break;
            }
    }
    return bad;
}

/* Every byte either model may have written: the writable ranges. */
static int compare(const wl_capture *c, const replay_result *a, const replay_result *b)
{
    int bad = 0;
    uint64_t total = 0;
    for (size_t i = 0; i < c->nranges; i++) {
        const wl_capture_range *g = &c->ranges[i];
        if (!g->writable)
            continue;
        uint64_t diff = 0, first = 0;
        for (uint64_t x = 0; x < g->size; x++)
            if (a->bytes[i][x] != b->bytes[i][x] && diff++ == 0)
                first = x;
        total += g->size;
        if (diff) {
            printf("DIFFERENT: range %s: %llu of %llu bytes differ, first at byte %llu: "
                   "%s 0x%02x, %s 0x%02x\n",
                   g->name, (unsigned long long)diff, (unsigned long long)g->size,
                   (unsigned long long)first, replay_model_name(a->model), a->bytes[i][first],
                   replay_model_name(b->model), b->bytes[i][first]);
            bad = 1;
        }
    }
    if (!bad)
        printf("same: %llu writable bytes in both models\n", (unsigned long long)total);
    return bad;
}

static int write_outputs(const char *dir, const wl_capture *c, const replay_result *r,
                         int with_model)
{
    /* the folder is made when missing (one level, as `run --capture` does) */
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "wavelift: replay: --out-dir %s: %s\n", dir, strerror(errno));
        return EXIT_BAD_INPUT;
    }
    for (size_t i = 0; i < c->nranges; i++) {
        if (!c->ranges[i].writable)
            continue;
        char path[4096];
        if (with_model)
            snprintf(path, sizeof(path), "%s/%s.%s.bin", dir, c->ranges[i].name,
                     replay_model_name(r->model));
        else
            snprintf(path, sizeof(path), "%s/%s.bin", dir, c->ranges[i].name);
        if (cli_write_file(path, r->bytes[i], c->ranges[i].size))
            return EXIT_BAD_INPUT;
    }
    return 0;
}

static int replay(const replay_cli *a, wl_rt *rt, const wl_capture *c, replay_result *res,
                  size_t *nres)
{
    const wl_host_profile *hp = wl_rt_profile(rt);
    replay_model models[2] = {REPLAY_LANES, REPLAY_WAVE};
    size_t n = a->both ? 2 : 1;
    if (!a->both) {
        models[0] = a->model;
        if (a->model == REPLAY_AUTO) {
            char why[256];
            models[0] = replay_choose_model(hp, c->wave_size, a->o.subgroup, why, sizeof(why));
            printf("model: %s (%s)\n", replay_model_name(models[0]), why);
        } else {
            printf("model: %s\n", replay_model_name(models[0]));
        }
    }
    printf("device: %s\n", hp->device_name);
    printf("capture: %s (%s, wave%u, %zu ranges)\n", a->capture,
           c->source ? c->source : "no source", c->wave_size, c->nranges);
    wl_capture_pointer lp[WL_CAPTURE_MAX_POINTERS];
    size_t np = wl_capture_launch_pointers(c, lp);
    for (size_t i = 0; i < np; i++)
        printf("launch %s: sgpr %u: %s 0x%016llx (range %s)\n",
               c->launch == WL_CAPTURE_LAUNCH_RADV ? "radv" : "amdhsa", lp[i].sgpr, lp[i].what,
               (unsigned long long)lp[i].address,
               c->ranges[wl_capture_find_range(c, lp[i].address)].name);
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        rc = replay_run(rt, c, models[i], &a->o, &res[i]);
        *nres = i + 1;
        if (rc)
            break;
        if (i == 0)
            printf("mapping: %s\n", res[i].mapping_desc);
        if (res[i].status[0]) {
            fprintf(stderr, "wavelift: replay (%s model): %s (escape kind %u; status words "
                            "0x%08x 0x%08x 0x%08x 0x%08x)\n",
                    replay_model_name(models[i]),
                    res[i].escape[0] ? res[i].escape : "refused: escape", res[i].status[0],
                    res[i].status[0], res[i].status[1], res[i].status[2], res[i].status[3]);
            rc = EXIT_REFUSED;
        } else if (res[i].outside_bytes) {
            fprintf(stderr, "wavelift: replay (%s model): refused: a store outside every range: "
                            "%s address 0x%llx (a byte between the ranges, which the %s mapping "
                            "covers, is no longer zero)\n",
                    replay_model_name(models[i]),
                    res[i].mapping == REPLAY_MAP_IDENTITY ? "host" : "guest",
                    (unsigned long long)res[i].outside_address, replay_mapping_name(res[i].mapping));
            rc = EXIT_REFUSED;
        } else if (check_read_only(c, &res[i])) {
            rc = EXIT_BAD_INPUT;
        }
    }
    size_t shown = 0;
    while (shown < *nres && res[shown].bytes)
        shown++;
    if (shown) {
        print_table(res, shown);
        if (!a->both)
            printf("SPIR-V words: %zu\n", res[0].words);
    }
    if (rc)
        return rc;
    int differ = a->both && compare(c, &res[0], &res[1]);
    if (a->out_dir) {
        if ((rc = write_outputs(a->out_dir, c, &res[0], 0)))
            return rc;
        for (size_t i = 0; differ && i < n; i++)
            if ((rc = write_outputs(a->out_dir, c, &res[i], 1)))
                return rc;
    }
    return differ ? EXIT_BAD_INPUT : 0;
}

int cmd_replay(cli_options *o)
{
    replay_cli a;
    int rc = from_options(o, &a);
    if (rc)
        return rc;
    char err[2048];
    wl_capture *c = NULL;
    if (wl_capture_read(a.capture, &c, err, sizeof(err)) != WL_OK) {
        fprintf(stderr, "wavelift: replay: %s\n", err);
        return EXIT_BAD_INPUT;
    }
    wl_rt *rt = NULL;
    wl_rt_options ropt = {.device = a.device, .timeout_ms = a.timeout_ms};
    if (wl_rt_create(&ropt, &rt, err, sizeof(err)) != WL_RT_OK) {
        fprintf(stderr, "wavelift: %s\n", err);
        wl_capture_free(c);
        return EXIT_BAD_INPUT;
    }
    replay_result res[2];
    memset(res, 0, sizeof(res));
    size_t nres = 0;
    rc = replay(&a, rt, c, res, &nres);
    for (size_t i = 0; i < nres; i++)
        replay_result_free(&res[i]);
    wl_rt_destroy(rt);
    wl_capture_free(c);
    return rc;
}
