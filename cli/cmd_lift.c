/* wavelift lift: translates one kernel of a code object to a Vulkan SPIR-V
 * module, offline (no device).
 *
 *   wavelift lift CODE_OBJECT --kernel NAME [--subgroup-size S] [--local X[,Y[,Z]]]
 *                 [--model lanes|wave|auto] [-O0|-O2] [--vectorize|--no-vectorize] [--emit-llvm]
 *                 [--scratch auto|private|device|device:BYTES] -o OUT.spv
 *
 * --model (default auto: cli_choose_model) picks the lowering; the choice
 * and its reason are printed.
 *
 * Prints the SPIR-V words and the translation time. --emit-llvm also writes
 * the lifted wave IR (docs/wave-ir.md) as text to OUT.spv's name with ".ll"
 * in place of ".spv" (or appended). Exit: 0, 3 when the translator refuses
 * the program (an instruction it does not translate, named), 2 usage, 1
 * otherwise. --emit-stages writes the module after each stage of the
 * pipeline (wl_translate_options.stage_hook) to OUT.spv's name with
 * ".STAGE.ll" in place of ".spv": wave, lowered, host. */
#include "options.h"

#include "wavelift/capture.h"
#include "wavelift/translate.h"

#include <llvm-c/Core.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* What lift requires beyond the table (options.c). */
/* What the module needs from its host (wl_reflect; docs/embedding.md,
 * "Reflection"), three lines of the report. */
static void print_reflection(FILE *f, const wl_translate_info *info, const wl_translate_options *t)
{
    wl_reflection r = {.struct_size = sizeof r};
    if (wl_reflect(info, t, &r) != WL_OK)
        return;
    fprintf(f, "needs:");
    for (uint32_t i = 0; i < r.nfeatures; i++)
        fprintf(f, "%s %s", i ? "," : "", r.features[i]);
    for (uint32_t i = 0; i < r.nextensions; i++)
        fprintf(f, "%s %s", i || r.nfeatures ? "," : "", r.extensions[i]);
    if (r.subgroup_operations)
        fprintf(f, "; subgroup operations 0x%x", r.subgroup_operations);
    if (r.required_subgroup_size)
        fprintf(f, "; subgroup size %u required, full subgroups", r.required_subgroup_size);
    fprintf(f, "\nbindings:");
    for (uint32_t i = 0; i < r.nbindings; i++)
        fprintf(f, "%s set %u binding %u (%s)", i ? "," : "", r.bindings[i].set, r.bindings[i].binding,
                r.bindings[i].name);
    if (!r.nbindings)
        fprintf(f, " none");
    fprintf(f, "\npush constants: ");
    if (r.push_size)
        fprintf(f, "bytes %u..%u", r.push_offset, r.push_offset + r.push_size - 1);
    else
        fprintf(f, "none");
    fprintf(f, "; shared memory %u bytes\n", r.workgroup_bytes);
}

static int check(const cli_options *o)
{
    if (!o->kernel)
        return cli_usage_error("lift needs --kernel NAME", NULL);
    if (!o->out)
        return cli_usage_error("lift needs -o OUT.spv", NULL);
    return 0;
}

/* OUT.spv's name with `suffix` in place of ".spv" (or appended); NULL: out of memory */
static char *sibling_path(const char *spv_path, const char *suffix)
{
    size_t n = strlen(spv_path);
    char *path = malloc(n + strlen(suffix) + 1);
    if (!path)
        return NULL;
    memcpy(path, spv_path, n + 1);
    if (n > 4 && strcmp(path + n - 4, ".spv") == 0)
        path[n - 4] = 0;
    strcat(path, suffix);
    return path;
}

typedef struct stage_sink {
    const char *spv_path;
    int failed;
} stage_sink;

/* wl_translate_options.stage_hook: the module as text, OUT.STAGE.ll */
static void write_stage(void *user, const char *stage, LLVMModuleRef m)
{
    stage_sink *s = user;
    char suffix[32];
    snprintf(suffix, sizeof suffix, ".%s.ll", stage);
    char *path = sibling_path(s->spv_path, suffix);
    char *msg = NULL;
    if (!path || LLVMPrintModuleToFile(m, path, &msg)) {
        fprintf(stderr, "wavelift: %s: %s\n", path ? path : stage, msg ? msg : "cannot write");
        s->failed = 1;
    }
    LLVMDisposeMessage(msg);
    free(path);
}

/* Writes the lifted wave IR of the program as text. */
static int emit_llvm(const wl_lift_program *p, const char *spv_path)
{
    char *path = sibling_path(spv_path, ".ll");
    if (!path)
        return EXIT_BAD_INPUT;
    char err[1024];
    int rc = 0;
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = NULL;
    if (wl_lift(ctx, p, &m, err, sizeof(err)) != WL_OK) {
        fprintf(stderr, "wavelift: %s\n", err);
        rc = EXIT_REFUSED;
    } else {
        char *msg = NULL;
        if (LLVMPrintModuleToFile(m, path, &msg)) {
            fprintf(stderr, "wavelift: %s: %s\n", path, msg ? msg : "cannot write");
            rc = EXIT_BAD_INPUT;
        }
        LLVMDisposeMessage(msg);
        LLVMDisposeModule(m);
    }
    LLVMContextDispose(ctx);
    free(path);
    return rc;
}

int cmd_lift(cli_options *o)
{
    char host[256];
    cli_apply_host(o, host, sizeof host);
    if (o->launch && !o->kernel) /* raw code's one kernel */
        o->kernel = "capture";
    if (cli_is_batch(o))
        return cli_batch(o);
    int rc = check(o);
    if (rc)
        return rc;
    wl_codeobj *co = NULL;
    wl_capture *cap = NULL;
    const wl_kernel *k = NULL;
    char err[2048], capdir[4096];
    wl_lift_program prog;
    wl_status pst;
    if (o->launch) { /* raw code, launched as --launch says */
        if (strcmp(o->kernel, "capture")) {
            fprintf(stderr, "wavelift: %s: raw code's kernel is named capture\n", o->file);
            return EXIT_BAD_INPUT;
        }
        if (cli_read_raw_launch(o, o->file, &cap, err, sizeof err)) {
            fprintf(stderr, "wavelift: %s: %s\n", o->file, err);
            return EXIT_BAD_INPUT;
        }
        pst = wl_capture_lift_program(cap, &prog, err, sizeof(err));
    } else if (cli_capture_of(o->file, capdir, sizeof capdir)) { /* a capture: its one kernel, "capture" */
        if (strcmp(o->kernel, "capture")) {
            fprintf(stderr, "wavelift: %s: a capture's kernel is named capture\n", o->file);
            return EXIT_BAD_INPUT;
        }
        if (wl_capture_read(capdir, &cap, err, sizeof err) != WL_OK) {
            fprintf(stderr, "wavelift: %s: %s\n", capdir, err);
            return EXIT_BAD_INPUT;
        }
        pst = wl_capture_lift_program(cap, &prog, err, sizeof(err));
    } else {
        if ((rc = cli_open_kernel(o->file, o->kernel, &co, &k)))
            return rc;
        pst = wl_lift_program_from_kernel(co, k, &prog, err, sizeof(err));
    }
    if (pst != WL_OK) {
        fprintf(stderr, "wavelift: %s: kernel %s: %s%s\n", o->file, o->kernel,
                pst == WL_ERR_UNSUPPORTED ? "refused: " : "", err);
        wl_codeobj_free(co);
        wl_capture_free(cap);
        return pst == WL_ERR_UNSUPPORTED ? EXIT_REFUSED : EXIT_BAD_INPUT;
    }
    uint32_t local[3] = {o->local[0], o->local[1], o->local[2]};
    if (!o->local_dims && cap) { /* the capture's */
        memcpy(local, cap->local, sizeof local);
    } else if (!o->local_dims) { /* one wave */
        local[0] = prog.wave_size;
        local[1] = local[2] = 1;
    }
    /* offline: the subgroup size is --host's or --subgroup-size's */
    char why[256];
    int model = cli_choose_model(o->model, prog.wave_size, o->subgroup, 4, 64, why, sizeof(why));
    wl_translate_options topt = cli_offline_options(o, model, o->subgroup, local, o->opt_level);
    stage_sink sink = {o->out, 0};
    if (o->emit_stages) {
        topt.stage_hook = write_stage;
        topt.stage_user = &sink;
    }
    uint32_t *words = NULL;
    size_t nwords = 0;
    wl_translate_info info;
    memset(&info, 0, sizeof(info));
    wl_status st = wl_translate(&prog, &topt, &words, &nwords, &info, err, sizeof(err));
    /* -o -: the module on stdout, the report on stderr */
    int to_stdout = !strcmp(o->out, "-");
    FILE *rep = to_stdout ? stderr : stdout;
    if (st != WL_OK) {
        fprintf(stderr, "wavelift: %s: kernel %s: %s: %s\n", o->file, o->kernel,
                st == WL_ERR_UNSUPPORTED ? "refused" : "translation failed", err);
        rc = st == WL_ERR_UNSUPPORTED ? EXIT_REFUSED : EXIT_BAD_INPUT;
    } else if (sink.failed ||
               (to_stdout ? fwrite(words, 4, nwords, stdout) != nwords || fflush(stdout)
                          : cli_write_file(o->out, words, nwords * 4))) {
        rc = EXIT_BAD_INPUT;
    } else {
        fprintf(rep, "host: %s\n", host);
        fprintf(rep, "kernel: %s (wave%u)\n", o->kernel, prog.wave_size);
        fprintf(rep, "model: %s (%s)\n", cli_model_name(model), why);
        if (model == WL_MODEL_WAVE) {
            fprintf(rep, "lane loops: %u\n", info.lane_loops);
        } else {
            fprintf(rep, "subgroup size: %u\n", o->subgroup);
            fprintf(rep, "k: %u\n", info.lanes_per_invocation);
        }
        fprintf(rep, "SPIR-V words: %zu\n", nwords);
        print_reflection(rep, &info, &topt);
        if (info.scratch_bytes_per_invocation)
            cli_print_segment(rep, info.scratch_bytes_per_invocation, info.lane_array_bytes);
        fprintf(rep, "translation ms: %.3f\n", info.ms_total);
    }
    /* a failed lift leaves no older module in the output's place */
    if (rc && !to_stdout)
        remove(o->out);
    free(words);
    if (!rc && o->emit_llvm)
        rc = emit_llvm(&prog, o->out);
    wl_codeobj_free(co);
    wl_capture_free(cap);
    return rc;
}
