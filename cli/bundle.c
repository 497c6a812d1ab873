/* wavelift run --bundle DIR: writes the launch (launch.h) and the SPIR-V
 * as files, so that bench/wl_bundlerun.c can recreate the dispatch on a
 * machine without LLVM. The format is docs/bundle.md; either model
 * (`model lanes` with the subgroup size to require, `model wave` with
 * `subgroup 0` and its lane loops). The guest arena (launch.h: the code
 * object's loaded image, the arguments, the kernarg segment, the packet,
 * the queue) is an `arena` line and a `place` line per buffer in it: the
 * runner makes one device buffer, the others views of it, and maps it. */
#include "launch.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static const char *role_name(const cli_launch_buffer *b, char *tmp, size_t cap)
{
    static const char *const n[] = {"arg", "kernarg", "packet", "queue", "status", "scratch", "lds", "image"};
    if (b->role == CLI_BUF_ARG) {
        snprintf(tmp, cap, "arg%u", b->arg);
        return tmp;
    }
    return n[b->role];
}

static int write_in(const char *dir, const char *name, const void *data, size_t n)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    return cli_write_file(path, data, n) ? EXIT_BAD_INPUT : 0;
}

int cli_bundle_write(const char *dir, const cli_launch *L, const uint32_t *words,
                     size_t nwords, const cli_bundle_meta *m)
{
    if (mkdir(dir, 0777) && errno != EEXIST) {
        fprintf(stderr, "wavelift: %s: cannot create the bundle folder: %s\n", dir, strerror(errno));
        return EXIT_BAD_INPUT;
    }
    int rc;
    if ((rc = write_in(dir, "module.spv", words, nwords * 4)) ||
        (rc = write_in(dir, "push.bin", L->push, sizeof(L->push))))
        return rc;
    char path[4096], name[64], role[32];
    for (unsigned b = 0; b < L->nbuf; b++) {
        snprintf(name, sizeof(name), "buf.%u.bin", b);
        if (L->buf[b].init && (rc = write_in(dir, name, L->buf[b].init, L->buf[b].size)))
            return rc;
    }
    snprintf(path, sizeof(path), "%s/manifest.txt", dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "wavelift: %s: cannot open\n", path);
        return EXIT_BAD_INPUT;
    }
    /* format 2: the buffers the program reaches by address lie in one
     * guest arena (the code object's image first) with its mapping; a
     * reader of format 1 would give them separate buffers and no mapping,
     * so it must refuse the bundle */
    /* format 3: the arena mapped by the page table (`page-range` lines) */
    fprintf(f, "wavelift-bundle %d\n", m->pages && L->arena_bytes ? 3 : L->arena_bytes ? 2 : 1);
    fprintf(f, "# written by wavelift run --bundle; the format is docs/bundle.md\n");
    fprintf(f, "kernel %s\n", m->kernel);
    fprintf(f, "code-object %s\n", m->code_object);
    fprintf(f, "wave %u\n", m->wave);
    fprintf(f, "k %u\n", m->k);
    fprintf(f, "local %u %u %u\n", m->local[0], m->local[1], m->local[2]);
    fprintf(f, "model %s\n", m->model == WL_MODEL_WAVE ? "wave" : "lanes");
    fprintf(f, "subgroup %u\n", m->model == WL_MODEL_WAVE ? 0 : m->subgroup);
    fprintf(f, "lane-loops %u\n", m->model == WL_MODEL_WAVE ? m->lane_loops : 0);
    fprintf(f, "translate-ms %.3f\n", m->translate_ms);
    fprintf(f, "merge-stores %d\n", m->merge_stores);
    if (m->fused_fma) /* 1: float, 2: double, 3: both (WL_FMA_*) */
        fprintf(f, "fused-fma %d\n", m->fused_fma);
    fprintf(f, "spirv module.spv %zu\n", nwords);
    if (m->host_ir)
        fprintf(f, "host-ir host.bc\nhost-local %u %u %u\n", m->host_local[0], m->host_local[1], m->host_local[2]);
    fprintf(f, "groups %u %u %u\n", L->groups[0], L->groups[1], L->groups[2]);
    fprintf(f, "push %zu push.bin\n", sizeof(L->push));
    for (unsigned b = 0; b < L->nbuf; b++) {
        snprintf(name, sizeof(name), "buf.%u.bin", b);
        fprintf(f, "buffer %u %llu %s %s\n", b, (unsigned long long)L->buf[b].size,
                L->buf[b].init ? name : "-", role_name(&L->buf[b], role, sizeof(role)));
    }
    if (L->arena_bytes) {
        /* --pages: the arena from the page boundary below guest_base */
        uint64_t lead = m->pages ? cli_pages_lead(L) : 0;
        fprintf(f, "arena %llu %llu %d\n", (unsigned long long)(L->guest_base - lead),
                (unsigned long long)(lead + L->arena_bytes), WL_PUSH_MAP_OFFSET);
        for (unsigned b = 0; b < L->nbuf; b++)
            if (L->arena_off[b] != CLI_NOT_IN_ARENA)
                fprintf(f, "place %u %llu\n", b, (unsigned long long)(lead + L->arena_off[b]));
        wl_rt_mapping r[CLI_LAUNCH_MAX_BUFFERS];
        size_t n = m->pages ? cli_pages_ranges(L, 0, r, CLI_LAUNCH_MAX_BUFFERS) : 0;
        for (size_t i = 0; i < n; i++)
            fprintf(f, "page-range %llu %llu %llu\n", (unsigned long long)r[i].guest_base,
                    (unsigned long long)r[i].size, (unsigned long long)r[i].host_base);
    }
    for (unsigned r = 0; r < L->nrel; r++) {
        const cli_reloc *x = &L->rel[r];
        if (x->in < 0)
            fprintf(f, "reloc push %u %u %llu\n", x->offset, x->target,
                    (unsigned long long)x->addend);
        else
            fprintf(f, "reloc %d %u %u %llu\n", x->in, x->offset, x->target,
                    (unsigned long long)x->addend);
    }
    fprintf(f, "binding 0 %d\n", L->status);
    if (L->lds >= 0)
        fprintf(f, "binding 2 %d\n", L->lds);
    for (size_t i = 0; i < m->nouts; i++)
        fprintf(f, "check %d %s\n", L->arg_buf[m->out_arg[i]], m->out_file[i]);
    if (fclose(f)) {
        fprintf(stderr, "wavelift: %s: write error\n", path);
        return EXIT_BAD_INPUT;
    }
    return 0;
}
