/* wl_pipebuild: the host driver's pipeline build time of SPIR-V modules
 * (issue 17: the ten largest modules of the benchmark, both models, on the
 * NVIDIA machine). Links the runtime library, libvulkan and libc only (no
 * LLVM), like wl_vkrun and wl_bundlerun.
 *
 *   wl_pipebuild [--builds N] LIST
 *
 * LIST has one module a line (# starts a comment):
 *   NAME FILE.spv SUBGROUP_SIZE
 * FILE relative to LIST's directory; SUBGROUP_SIZE 0 lets the driver choose
 * (the wave model), else the pipeline requires it with full subgroups (the
 * lanes model). Each module's pipeline is built N times (default 3), no
 * pipeline cache (set __GL_SHADER_DISK_CACHE=0 for NVIDIA's disk cache);
 * printed: the words, the first build's time and the fastest, in ms (host
 * clock around vkCreateComputePipelines). Exit 0 when every pipeline was
 * built. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_file.h"
#include "wavelift/runtime.h"

/* a SPIR-V module's words (n: how many whole words), NULL where unreadable */
static uint32_t *read_words(const char *path, size_t *n)
{
    size_t bytes = 0;
    uint8_t *d = wl_bench_read_file(path, &bytes);
    *n = bytes / 4;
    return (uint32_t *)d;
}

int main(int argc, char **argv)
{
    int builds = 3;
    const char *list = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--builds") && i + 1 < argc)
            builds = atoi(argv[++i]);
        else if (argv[i][0] != '-' && !list)
            list = argv[i];
        else {
            fprintf(stderr, "usage: wl_pipebuild [--builds N] LIST\n");
            return 2;
        }
    }
    if (!list || builds < 1) {
        fprintf(stderr, "usage: wl_pipebuild [--builds N] LIST\n");
        return 2;
    }
    FILE *lf = fopen(list, "r");
    if (!lf) {
        fprintf(stderr, "wl_pipebuild: cannot read %s\n", list);
        return 2;
    }
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", list);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[1] = 0;
    else
        dir[0] = 0;
    wl_rt *rt = NULL;
    char err[512];
    if (wl_rt_create(NULL, &rt, err, sizeof err) != WL_RT_OK) {
        fprintf(stderr, "wl_pipebuild: no Vulkan device (%s)\n", err);
        fclose(lf);
        return 1;
    }
    const wl_host_profile *hp = wl_rt_profile(rt);
    printf("device: %s (%s), subgroup size %u\n", hp->device_name, hp->driver_info, hp->subgroup_size);
    printf("%-44s %9s %4s %10s %10s\n", "module", "words", "S", "first ms", "best ms");
    char line[8192];
    int bad = 0, done = 0;
    while (fgets(line, sizeof line, lf)) {
        char name[1024], file[2048];
        unsigned S = 0;
        if (line[0] == '#' || sscanf(line, "%1023s %2047s %u", name, file, &S) != 3)
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s%s", file[0] == '/' ? "" : dir, file);
        size_t n = 0;
        uint32_t *w = read_words(path, &n);
        if (!w) {
            printf("%-44s cannot read %s\n", name, path);
            bad++;
            continue;
        }
        double first = -1, best = -1;
        for (int b = 0; b < builds; b++) {
            wl_rt_pipeline_desc pd = {.words = w, .nwords = n, .subgroup_size = S, .require_full_subgroups = S != 0};
            wl_rt_pipeline *pl = NULL;
            if (wl_rt_pipeline_create(rt, &pd, &pl) != WL_RT_OK) {
                printf("%-44s %9zu %4u pipeline FAILED: %s\n", name, n, S, wl_rt_error(rt));
                bad++;
                first = -2;
                break;
            }
            double ms = (double)wl_rt_pipeline_create_ns(pl) * 1e-6;
            wl_rt_pipeline_destroy(rt, pl);
            if (b == 0)
                first = ms;
            if (best < 0 || ms < best)
                best = ms;
        }
        if (first >= 0) {
            printf("%-44s %9zu %4u %10.1f %10.1f\n", name, n, S, first, best);
            done++;
        }
        free(w);
    }
    fclose(lf);
    wl_rt_destroy(rt);
    printf("%d pipelines built, %d failed\n", done, bad);
    return bad ? 1 : 0;
}
