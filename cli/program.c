/* Opening a code object's kernel for lift and run, and the translate
 * entry points the CLI calls. */
#include "options.h"

#include <stdio.h>
#include <string.h>

int cli_open_kernel(const char *file, const char *name, wl_codeobj **co,
                    const wl_kernel **k)
{
    char err[512];
    *co = NULL;
    *k = NULL;
    wl_status st = wl_codeobj_load(file, co, err, sizeof(err));
    if (st != WL_OK) {
        fprintf(stderr, "wavelift: %s: %s\n", file, err);
        return EXIT_BAD_INPUT;
    }
    *k = wl_codeobj_find_kernel(*co, name);
    if (!*k) {
        fprintf(stderr, "wavelift: %s: no kernel named %s (kernels:", file, name);
        for (size_t i = 0; i < (*co)->nkernels; i++)
            fprintf(stderr, " %s", (*co)->kernels[i].name);
        fprintf(stderr, ")\n");
        wl_codeobj_free(*co);
        *co = NULL;
        return EXIT_BAD_INPUT;
    }
    if ((*co)->target < 0) {
        fprintf(stderr, "wavelift: %s: target %s is not a gfx10 target\n", file,
                (*co)->mach_name);
        wl_codeobj_free(*co);
        *co = NULL;
        return EXIT_BAD_INPUT;
    }
    return 0;
}

wl_translate_options cli_offline_options(const cli_options *o, int model, unsigned S, const uint32_t local[3],
                                         int opt_level)
{
    wl_translate_options t = {.struct_size = sizeof(wl_translate_options), 
        .model = model,
        .subgroup_size = S,
        .local_size = {local[0], local[1], local[2]},
        .opt_level = opt_level,
        .validate = 1,
        .scratch_limit = o->scratch_limit,
        .force_scratch_buffer = o->force_scratch_buffer,
        .private_limit = o->private_limit,
        .fused_fma = o->fused_fma, /* --fused-fma, --host: WL_FMA_* bits */
        .maximal_reconvergence = o->maximal_reconvergence, /* --host */
        .loop_iteration_limit = o->loop_iteration_limit,   /* --host */
        /* --no-vectorize, --no-fold-masked: the pipeline's debug option */
        .passes = o->vectorize < 0 && o->fold_masked < 0 ? "skip=vectorize-lanes,skip=fold-masked-selects"
                  : o->vectorize < 0                     ? "skip=vectorize-lanes"
                  : o->fold_masked < 0                   ? "skip=fold-masked-selects"
                                                         : NULL,
    };
    if (o->host_from_file) { /* --host FILE: what it says of the host (unsaid: a capable one) */
        const cli_host_file *h = &o->host_file;
        t.lds_limit = h->lds_limit;
        t.force_atomic64_lock = h->int64_atomics == 0;
        t.force_lds_atomic64_lock = h->shared_int64_atomics == 0;
        t.force_merge_stores = h->storage_8_16 == 0;
    }
    return t;
}

void cli_host_options(const wl_host_profile *hp, wl_translate_options *t)
{
    /* the library's: the profile as a host description, its options (the
     * model and subgroup size are set already: kept) */
    wl_host h;
    wl_rt_host_of(hp, &h);
    (void)wl_translate_options_for_host(&h, 64, t, NULL, 0);
}

/* (cli.h) the model: the library's rule, wl_translate_options_for_host */
int cli_choose_model(int requested, unsigned W, unsigned S, unsigned min_s, unsigned max_s, char *why,
                     size_t whycap)
{
    if (requested != CLI_MODEL_AUTO) {
        snprintf(why, whycap, "asked for (--model %s)", cli_model_name(requested));
        return requested;
    }
    /* the library's rule (wl_translate_options_for_host) on a host that
     * offers sizes min_s..max_s and whose subgroup is S */
    wl_host h = {.struct_size = sizeof h, .subgroup_size = S, .min_subgroup_size = min_s, .max_subgroup_size = max_s};
    wl_translate_options o = {.struct_size = sizeof(wl_translate_options), .model = WL_MODEL_AUTO, .subgroup_size = S};
    if (wl_translate_options_for_host(&h, W, &o, why, whycap) != WL_OK) {
        snprintf(why, whycap, "auto: no host description: one invocation a wave");
        return 1;
    }
    return o.model;
}
