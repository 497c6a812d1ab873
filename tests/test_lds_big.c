/* LDS beyond the host's shared memory and the 64-bit atomic locks
 * (docs/memory.md, lower/memory/lds.c; the seed pull request on
 * device-memory LDS).
 *
 * The seed's lock-budget case, as wave IR built below: a group of 256
 * work-items (wave64: 4 waves, wave32: 8), 3 groups; work-item 0 clears
 * two slots at the LDS's end, a barrier, every lane adds a 64-bit value
 * (t << 32 | t * 7 + group) to the first slot and, mixed on the second slot,
 * a 64-bit add of its low 16 bits and 32-bit adds of 1 to each dword, a
 * barrier, and work-item 0 writes both slots out. The sums must be exact
 * (the seed's failure read half of one). Run on lavapipe (S = 8, -O2) in
 * both models and four places:
 *   - a 64 KiB LDS with lds_limit = the device's maxComputeSharedMemorySize
 *     (32 KiB): device memory chosen by size, not forced; with 64-bit
 *     buffer atomics, and with force_atomic64_lock (the lock in the slice's
 *     spare dword);
 *   - a 4 KiB LDS in workgroup memory, 64-bit units, and with
 *     force_lds_atomic64_lock (the lock after the LDS).
 * The device-memory slices start as garbage (the hardware's LDS is
 * undefined at start). Each run checks that its module took the path asked
 * for (binding 2 used or not; no Int64Atomics under a lock).
 * And the 64-bit global atomic lock (force_atomic64_lock, status word 7):
 * every lane of the dispatch adds into one qword of device memory; exact,
 * no escape, no Int64Atomics in the module. The C model is the sum. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support.h"
#include "wavelift/backend.h"
#include "wavelift/runtime.h"
#include "wavelift/translate.h"

#define LOCAL 256u
#define GROUPS 3u
#define S_LANES 8u

/* The program: LDS of `lds` bytes, slots at lds - 16 and lds - 8; out[g]
 * (two u64 at base + 16 g) from work-item 0. `global` 1: the adds go to
 * the qword at base + 64 instead (the global lock case). */
static char *program(unsigned W, unsigned lds, int global)
{
    char *t = malloc(8192);
    assert_non_null(t);
    const char *atomics =
        global ? "  %ga = add i64 %base, 64\n"
                 "  %r1 = call i64 @wl.atomic.global.add.b64(i64 %ga, i64 %v, i1 %act)\n"
               : "  %r1 = call i64 @wl.atomic.lds.add.b64(i32 A1, i64 %v, i1 %act)\n"
                 "  %r2 = call i64 @wl.atomic.lds.add.b64(i32 A2, i64 %v16, i1 %act)\n"
                 "  %r3 = call i32 @wl.atomic.lds.add.b32(i32 A2, i32 1, i1 %act)\n"
                 "  %r4 = call i32 @wl.atomic.lds.add.b32(i32 A2H, i32 1, i1 %act)\n";
    snprintf(t, 8192,
             "define void @wl.wave() {\nentry:\n  %%exec = call i64 @wl.launch_exec()\n"
             "  %%act = call i1 @wl.lane_active(i64 %%exec)\n  %%lo = call i32 @wl.user_sgpr(i32 0)\n"
             "  %%hi = call i32 @wl.user_sgpr(i32 1)\n  %%lo64 = zext i32 %%lo to i64\n  %%hi64 = zext i32 %%hi to i64\n"
             "  %%his = shl i64 %%hi64, 32\n  %%base = or i64 %%lo64, %%his\n  %%t = call i32 @wl.thread_id(i32 0)\n"
             "  %%g = call i32 @wl.workgroup_id(i32 0)\n  %%t0 = icmp eq i32 %%t, 0\n  %%act0 = and i1 %%act, %%t0\n"
             "  call void @wl.store.lds.b64(i32 A1, i64 0, i1 %%act0)\n"
             "  call void @wl.store.lds.b64(i32 A2, i64 0, i1 %%act0)\n  call void @wl.barrier()\n"
             "  %%t64 = zext i32 %%t to i64\n  %%th = shl i64 %%t64, 32\n  %%t7 = mul i64 %%t64, 7\n"
             "  %%g64 = zext i32 %%g to i64\n  %%tl = add i64 %%t7, %%g64\n  %%v = or i64 %%th, %%tl\n"
             "  %%v16 = and i64 %%v, 65535\n%s"
             "  call void @wl.barrier()\n  %%s1 = call i64 @wl.load.lds.b64(i32 A1, i1 %%act0)\n"
             "  %%s2 = call i64 @wl.load.lds.b64(i32 A2, i1 %%act0)\n  %%g16 = shl i32 %%g, 4\n"
             "  %%go = zext i32 %%g16 to i64\n  %%oa = add i64 %%base, %%go\n  %%ob = add i64 %%oa, 8\n"
             "  call void @wl.store.global.b64(i64 %%oa, i64 %%s1, i1 %%act0)\n"
             "  call void @wl.store.global.b64(i64 %%ob, i64 %%s2, i1 %%act0)\n  ret void\n}\n"
             "declare i64 @wl.launch_exec()\ndeclare i1 @wl.lane_active(i64)\ndeclare i32 @wl.user_sgpr(i32)\n"
             "declare i32 @wl.thread_id(i32)\ndeclare i32 @wl.workgroup_id(i32)\ndeclare void @wl.barrier()\n"
             "declare void @wl.store.lds.b64(i32, i64, i1)\ndeclare i64 @wl.load.lds.b64(i32, i1)\n"
             "declare i64 @wl.atomic.lds.add.b64(i32, i64, i1)\ndeclare i32 @wl.atomic.lds.add.b32(i32, i32, i1)\n"
             "declare i64 @wl.atomic.global.add.b64(i64, i64, i1)\ndeclare void @wl.store.global.b64(i64, i64, i1)\n"
             "!wl.program = !{!0}\n!0 = !{i32 %u, i32 %u, i32 0, i32 2}\n",
             atomics, W, lds);
    /* the slot addresses */
    char *out = malloc(9000);
    assert_non_null(out);
    char *o = out;
    for (const char *p = t; *p;) {
        if (!strncmp(p, "A2H", 3)) {
            o += sprintf(o, "%u", lds - 4);
            p += 3;
        } else if (!strncmp(p, "A1", 2) || !strncmp(p, "A2", 2)) {
            o += sprintf(o, "%u", p[1] == '1' ? lds - 16 : lds - 8);
            p += 2;
        } else {
            *o++ = *p++;
        }
    }
    *o = 0;
    free(t);
    return out;
}

typedef struct cfg {
    const char *name;
    unsigned lds;
    int buffer, lock, global;
} cfg;

static const cfg cfgs[] = {
    {"64 KiB LDS in device memory (by size), 64-bit view", 65536, 1, 0, 0},
    {"64 KiB LDS in device memory (by size), lock", 65536, 1, 1, 0},
    {"4 KiB LDS in workgroup memory, 64-bit units", 4096, 0, 0, 0},
    {"4 KiB LDS in workgroup memory, lock", 4096, 0, 1, 0},
    {"64-bit global atomics, lock", 64, 0, 1, 1},
};

/* 0: exact; 1: wrong (printed) */
static int run_one(wl_rt *rt, const cfg *c, unsigned W, int model)
{
    const wl_host_profile *hp = wl_rt_profile(rt);
    char err[4096] = "";
    wl_translate_options o;
    wl_translate_options_init(&o);
    o.subgroup_size = S_LANES;
    o.local_size[0] = LOCAL;
    o.opt_level = 2;
    o.validate = 1;
    o.model = model;
    o.lds_limit = hp->max_compute_shared_memory_size; /* 64 KiB does not fit: device memory */
    o.force_atomic64_lock = c->global ? 1 : c->buffer && c->lock;
    o.force_lds_atomic64_lock = !c->buffer && c->lock;
    size_t nw = 0;
    wl_translate_info info;
    char *ir = program(W, c->lds, c->global);
    uint32_t *w = wlt_translate_text(ir, &o, &nw, &info, NULL, err, sizeof err);
    free(ir);
    if (!w) {
        printf("%s, W %u, %s model: translate failed: %s\n", c->name, W, model ? "wave" : "lanes", err);
        return 1;
    }
    int bad = 0;
    int used_buffer = (info.bindings & (1u << WL_RT_BINDING_LDS)) != 0;
    if (used_buffer != c->buffer || (c->lock && (info.features & WL_FEAT_INT64_ATOMICS))) {
        printf("  not the path asked for: bindings %#x features %#x\n", info.bindings, info.features);
        bad++;
    }
    wl_rt_buffer *buf = NULL, *status = NULL;
    assert_int_equal(wl_rt_buffer_create(rt, 4096, &buf), WL_RT_OK);
    wl_rt_timing tm;
    if (wlt_run_lds(rt, w, nw, &info, model ? 0 : S_LANES, GROUPS, buf, c->lds, &status, &tm) != WL_RT_OK)
        fail_msg("%s: dispatch: %s", c->name, wl_rt_error(rt));
    uint64_t out[2 * GROUPS + 8];
    assert_int_equal(wl_rt_buffer_download(rt, buf, 0, out, sizeof out), WL_RT_OK);
    wl_rt_escape esc;
    if (wl_rt_escape_check(rt, status, &esc) != WL_RT_OK) {
        printf("  %s\n", wl_rt_error(rt));
        bad++;
    }
    /* the C model */
    uint64_t gsum = 0;
    for (unsigned g = 0; g < GROUPS; g++) {
        uint64_t s1 = 0, s2 = 0;
        for (uint64_t t = 0; t < LOCAL; t++) {
            uint64_t v = (t << 32) | (t * 7 + g);
            s1 += v;
            s2 += (v & 0xffff) + 1 + (1ull << 32);
        }
        gsum += s1;
        if (c->global)
            continue;
        /* both slots in both models (the wave model's mixed slot was
         * wrong before session 3, on every path) */
        if (out[2 * g] != s1 || out[2 * g + 1] != s2) {
            printf("  group %u: 0x%016llx 0x%016llx, want 0x%016llx 0x%016llx\n", g, (unsigned long long)out[2 * g],
                   (unsigned long long)out[2 * g + 1], (unsigned long long)s1, (unsigned long long)s2);
            bad++;
        }
    }
    if (c->global && out[8] != gsum) {
        printf("  sum 0x%016llx, want 0x%016llx\n", (unsigned long long)out[8], (unsigned long long)gsum);
        bad++;
    }
    printf("%s, W %u, %s model: %zu words, %.0f ms: %s\n", c->name, W, model ? "wave" : "lanes", nw,
           tm.host_ns / 1e6, bad ? "WRONG" : c->global ? "the sum of 768 lanes exact" : "both slots exact in 3 groups");
    wl_rt_buffer_destroy(rt, status);
    wl_rt_buffer_destroy(rt, buf);
    free(w);
    return bad != 0;
}

static void lds_big_run(void **state)
{
    (void)state;
    wl_rt *rt = wlt_rt(300000);
    const wl_host_profile *hp = wl_rt_profile(rt);
    printf("%s: maxComputeSharedMemorySize %u, subgroup %u..%u\n", hp->device_name, hp->max_compute_shared_memory_size,
           hp->min_subgroup_size, hp->max_subgroup_size);
    if (hp->max_compute_shared_memory_size >= 65536 || hp->min_subgroup_size > S_LANES ||
        hp->max_subgroup_size < S_LANES) {
        wl_rt_destroy(rt);
        fail_msg("this test needs lavapipe (32 KiB of workgroup memory, subgroup 8)");
    }
    unsigned runs = 0, failed = 0;
    for (size_t i = 0; i < sizeof cfgs / sizeof cfgs[0]; i++)
        for (unsigned W = 64; W >= 32; W /= 2)
            for (int model = 0; model < 2; model++) {
                runs++;
                failed += (unsigned)run_one(rt, &cfgs[i], W, model);
            }
    wl_rt_destroy(rt);
    printf("%u runs, %u exact\n", runs, runs - failed);
    assert_int_equal(failed, 0);
}

int main(void)
{
    wlt_use_lavapipe(1); /* correctness only: faster compiles */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lds_big_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
