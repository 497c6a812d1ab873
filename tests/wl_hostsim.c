/* wl_hostsim: runs lanes-model dispatch bundles (docs/bundle.md) that carry
 * their module's host-stage IR (`host-ir FILE`, written by test_aco_run
 * --write-bundles) on the CPU at the bundle's subgroup size (tests/hostsim.h),
 * and compares their outputs with the expected files as wl_bundlerun does.
 * The oracle for S = 32 and 64, which lavapipe cannot run.
 *
 *   wl_hostsim [--max-groups N] BUNDLE_DIR...
 *
 * One line a bundle: match, MISMATCH (the first word), REFUSED (an escape
 * the module recorded), ERROR (what the simulator found undefined or could
 * not run). Exit 0 when every bundle matched, 1 otherwise, 2 usage. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/mman.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>

#include "bench/bundle_manifest.h"
#include "hostsim.h"
#include "wavelift/abi.h"
#include "wavelift/guest.h"

enum { R_MATCH, R_MISMATCH, R_ERROR, R_ESCAPE };

static int run_one(const char *dir, unsigned max_groups, char *msg, size_t cap)
{
    bundle *b = calloc(1, sizeof *b);
    uint8_t *bytes[MAX_BUFS] = {0}, *arena = NULL, sink[WL_SINK_BYTES] __attribute__((aligned(16))) = {0};
    int res = R_ERROR;
    if (!b) {
        snprintf(msg, cap, "out of memory");
        return R_ERROR;
    }
    bundle_init(b, dir);
    if (bundle_load(b, msg, cap))
        goto out;
    if (b->model != M_LANES || !b->host_ir[0] || !b->local[0] || b->npr) {
        snprintf(msg, cap, "ERROR: needs a lanes-model bundle (format 1 or 2) with `host-ir` and `host-local` lines");
        goto out;
    }
    wlt_hostsim_launch L;
    memset(&L, 0, sizeof L);
    L.subgroup = b->subgroup;
    memcpy(L.local, b->local, sizeof L.local);
    memcpy(L.groups, b->groups, sizeof L.groups);
    L.max_groups = max_groups;
    size_t n = 0;
    uint8_t *pf = bundle_read(b->dir, b->push_file, &n);
    if (!pf || n != b->push_bytes) {
        snprintf(msg, cap, "ERROR: %s: missing or not %u bytes", b->push_file, b->push_bytes);
        free(pf);
        goto out;
    }
    memcpy(L.push, pf, n);
    free(pf);
    /* the guest arena in this process, mapped onto its own addresses */
    if (b->arena_bytes) {
        arena = mmap(NULL, b->arena_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (arena == MAP_FAILED) {
            arena = NULL;
            snprintf(msg, cap, "ERROR: no memory for an arena of %llu bytes", (unsigned long long)b->arena_bytes);
            goto out;
        }
        wl_rt_mapping map = {b->arena_guest, b->arena_bytes, (uint64_t)(uintptr_t)arena};
        uint32_t mw[WL_RT_MAPPING_WORDS];
        if (wl_rt_mapping_encode(&map, mw) != WL_RT_OK) {
            snprintf(msg, cap, "ERROR: the arena cannot be mapped");
            goto out;
        }
        memcpy(L.push + b->arena_push, mw, sizeof mw);
    }
    uint64_t addr[MAX_BUFS];
    for (unsigned i = 0; i < b->nbuf; i++) {
        int placed = b->place[i] != UINT64_MAX && arena;
        if (placed)
            bytes[i] = arena + b->place[i];
        else if (!(bytes[i] = calloc(1, b->size[i] + 16))) {
            snprintf(msg, cap, "out of memory");
            goto out;
        }
        addr[i] = placed ? b->arena_guest + b->place[i] : (uint64_t)(uintptr_t)bytes[i];
    }
    char why[600];
    if (bundle_fill(b, bytes, addr, L.push, why, sizeof why)) {
        snprintf(msg, cap, "ERROR: %s", why);
        goto out;
    }
    uint64_t sp = (uint64_t)(uintptr_t)sink;
    memcpy(L.push + WL_PUSH_SINK_OFFSET, &sp, 8);
    for (int i = 0; i < 8 && i < WL_RT_MAX_BINDINGS; i++)
        L.binding[i] = b->binding[i] >= 0 ? bytes[b->binding[i]] : NULL;
    /* the module */
    char path[1400];
    snprintf(path, sizeof path, "%s/%s", b->dir, b->host_ir);
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef mb = NULL;
    LLVMModuleRef m = NULL;
    char *e = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &mb, &e) || LLVMParseBitcodeInContext2(ctx, mb, &m)) {
        snprintf(msg, cap, "ERROR: %.600s: %.400s", path, e ? e : "not bitcode");
        LLVMDisposeMessage(e);
        if (mb)
            LLVMDisposeMemoryBuffer(mb);
        LLVMContextDispose(ctx);
        goto out;
    }
    LLVMDisposeMemoryBuffer(mb);
    char err[1024];
    int rc = wlt_hostsim_run(m, &L, err, sizeof err);
    LLVMContextDispose(ctx);
    if (rc) {
        snprintf(msg, cap, "ERROR: %s", err);
        goto out;
    }
    uint32_t sw[6];
    memcpy(sw, L.binding[0], sizeof sw);
    if (sw[0]) {
        snprintf(msg, cap, "REFUSED: escape %u (%s) at guest offset 0x%x, lane %u", sw[0], wl_rt_escape_name(sw[0]),
                 sw[1], sw[2]);
        res = R_ESCAPE;
        goto out;
    }
    res = R_MATCH;
    for (unsigned c = 0; c < b->nsave && res == R_MATCH; c++) /* as wl_bundlerun saves them */
        if (bundle_save(b, c, bytes[b->save_buf[c]], msg, cap))
            res = R_ERROR;
    for (unsigned c = 0; c < b->ncheck && res == R_MATCH; c++) {
        int r = bundle_check(b, c, bytes[b->check_buf[c]], msg, cap);
        res = r < 0 ? R_ERROR : r ? R_MISMATCH : R_MATCH;
    }
    if (res == R_MATCH)
        snprintf(msg, cap, "match (S = %u, %u x %u x %u groups of %u)", b->subgroup, b->groups[0], b->groups[1],
                 b->groups[2], b->local[0] * b->local[1] * b->local[2]);
    else if (res == R_MISMATCH || res == R_ERROR) {
        char t[1200];
        snprintf(t, sizeof t, "%.1100s", msg);
        snprintf(msg, cap, "%s: %.1100s", res == R_ERROR ? "ERROR" : "MISMATCH", t);
    }
out:
    for (unsigned i = 0; i < b->nbuf; i++)
        if (!(arena && b->place[i] != UINT64_MAX))
            free(bytes[i]);
    if (arena)
        munmap(arena, b->arena_bytes);
    free(b);
    return res;
}

int main(int argc, char **argv)
{
    unsigned max_groups = 0;
    int a = 1, bad = 0;
    if (a + 1 < argc && !strcmp(argv[a], "--max-groups"))
        max_groups = (unsigned)strtoul(argv[a + 1], NULL, 10), a += 2;
    if (a >= argc || argv[a][0] == '-') {
        fprintf(stderr, "usage: wl_hostsim [--max-groups N] BUNDLE_DIR...\n");
        return 2;
    }
    for (; a < argc; a++) {
        char msg[1200];
        int r = run_one(argv[a], max_groups, msg, sizeof msg);
        const char *slash = strrchr(argv[a], '/');
        printf("%-32s %s\n", slash && slash[1] ? slash + 1 : argv[a], msg);
        fflush(stdout);
        bad |= r != R_MATCH;
    }
    return bad ? 1 : 0;
}
