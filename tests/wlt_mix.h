/* tests/lower/mix.ll's C model (the values its comments define), for the
 * tests that run it: what every word of the buffer must hold after a
 * dispatch of GROUPS groups of LOCAL work-items with wave size W. Written
 * from the program's description, not from any lowering. */
#ifndef WLT_MIX_H
#define WLT_MIX_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wavelift/lower.h"
#include "wavelift/runtime.h"
#include "wavelift/translate.h"

#include "support.h" /* wlt_segment */

#define MIX_GROUPS 3
#define MIX_LOCAL 96
#define MIX_ITEMS (MIX_GROUPS * MIX_LOCAL)
#define MIX_OUT_BYTE 16384
#define MIX_REGION_BYTE 8192
#define MIX_BUF_BYTES (MIX_OUT_BYTE + MIX_ITEMS * 64)

static inline uint32_t mix_a_of(unsigned i) { return (i * 2654435761u) ^ (i >> 2) ^ 0x5bd1e995u; }

static inline void mix_expect(unsigned W, uint32_t *want /* MIX_BUF_BYTES/4 */)
{
    memset(want, 0, MIX_BUF_BYTES);
    for (unsigned i = 0; i < MIX_ITEMS; i++)
        want[i] = mix_a_of(i);
    uint8_t *region = (uint8_t *)want + MIX_REGION_BYTE;
    for (unsigned g = 0; g < MIX_GROUPS; g++) {
        uint32_t sum = 0;
        for (unsigned t = 0; t < MIX_LOCAL; t++)
            sum += mix_a_of(g * MIX_LOCAL + t);
        for (unsigned t = 0; t < MIX_LOCAL; t++) {
            unsigned gt = g * MIX_LOCAL + t, w = t / W, lane = t % W;
#define X(l) ((w * W + (l) < MIX_LOCAL) ? mix_a_of(g * MIX_LOCAL + w * W + (l)) : 0u)
            uint32_t x = X(lane);
            uint32_t pc = 0, big = 0;
            for (unsigned l = 0; l < W; l++)
                if (w * W + l < MIX_LOCAL) {
                    pc += X(l) & 1;
                    big |= X(l) > 4250000000u;
                }
            uint32_t *r = want + MIX_OUT_BYTE / 4 + gt * 16;
            r[0] = X(lane ^ 1);
            r[1] = X((lane + 5) % W);
            r[2] = X(7);
            r[3] = X(0);
            r[4] = pc | (big ? 1u << 16 : 1u << 17); /* waves with and without: both occur, W = 64 and 32 */
            r[5] = mix_a_of(g * MIX_LOCAL + (t + 7) % MIX_LOCAL);
            r[6] = 3 * x + lane + 2 * (x ^ lane);
            r[7] = 6 * x;
            r[8] = sum;
            r[9] = w;
            r[10] = lane;
            r[11] = lane;
            uint32_t h = 0xAB00u | lane;
            r[12] = (h & 0xffu) << 24;
            r[13] = (h >> 8) | (lane << (8 * (1 + lane % 3)));
            r[14] = h << 16;
            want[MIX_OUT_BYTE / 4 + (g * MIX_LOCAL) * 16 + 15] += 1; /* every lane of the group */
            region[gt] = (uint8_t)(gt * 7);
#undef X
        }
    }
}

/* Runs the translated mix program: its subgroup size S is required with full
 * subgroups (S = 0: the wave model, no requirement). info (NULL: none): the
 * device segment a host invocation (scratch, the wave model's lane arrays)
 * and the host group. Returns the number of mismatching words (-1: could
 * not run); *status_word gets status word 0. */
static inline int mix_run(wl_rt *rt, const uint32_t *words, size_t nw, unsigned S, unsigned W,
                          const wl_translate_info *info, uint32_t *status_word)
{
    wl_rt_pipeline *p = NULL;
    wl_rt_buffer *buf = NULL, *status = NULL, *seg = NULL;
    uint32_t *mem = calloc(1, MIX_BUF_BYTES), *want = malloc(MIX_BUF_BYTES);
    int bad = -1;
    wl_rt_pipeline_desc pd = {words, nw, "main", S, S != 0, 0};
    if (wl_rt_pipeline_create(rt, &pd, &p) != WL_RT_OK || wl_rt_buffer_create(rt, MIX_BUF_BYTES, &buf) != WL_RT_OK ||
        wl_rt_buffer_create(rt, 64, &status) != WL_RT_OK) {
        printf("runtime: %s\n", wl_rt_error(rt));
        goto out;
    }
    for (unsigned i = 0; i < MIX_ITEMS; i++)
        mem[i] = mix_a_of(i);
    if (wl_rt_buffer_upload(rt, buf, 0, mem, MIX_BUF_BYTES) != WL_RT_OK)
        goto out;
    uint64_t addr = wl_rt_buffer_address(buf);
    uint32_t push[WL_PUSH_BYTES / 4] = {(uint32_t)addr, (uint32_t)(addr >> 32)};
    if (info && wlt_segment(rt, info, MIX_GROUPS, push, &seg)) {
        printf("runtime: %s\n", wl_rt_error(rt));
        goto out;
    }
    wl_rt_dispatch_desc d;
    memset(&d, 0, sizeof d);
    d.groups[0] = MIX_GROUPS;
    d.bindings[WL_RT_BINDING_STATUS] = status;
    d.push_constants = push;
    d.push_constant_size = sizeof push;
    uint32_t st[16];
    if (wl_rt_dispatch(rt, p, &d, NULL) != WL_RT_OK || wl_rt_buffer_download(rt, buf, 0, mem, MIX_BUF_BYTES) != WL_RT_OK ||
        wl_rt_buffer_download(rt, status, 0, st, sizeof st) != WL_RT_OK) {
        printf("runtime: %s\n", wl_rt_error(rt));
        goto out;
    }
    *status_word = st[0];
    mix_expect(W, want);
    bad = 0;
    for (unsigned i = 0; i < MIX_BUF_BYTES / 4; i++)
        if (mem[i] != want[i]) {
            if (bad < 12) {
                unsigned rec = i >= MIX_OUT_BYTE / 4 ? (i - MIX_OUT_BYTE / 4) / 16 : 0;
                printf("  word %u (item %u, field %u): %#x want %#x\n", i, rec, i >= MIX_OUT_BYTE / 4 ? (i - MIX_OUT_BYTE / 4) % 16 : 0,
                       mem[i], want[i]);
            }
            bad++;
        }
out:
    free(mem);
    free(want);
    if (status)
        wl_rt_buffer_destroy(rt, status);
    if (seg)
        wl_rt_buffer_destroy(rt, seg);
    if (buf)
        wl_rt_buffer_destroy(rt, buf);
    if (p)
        wl_rt_pipeline_destroy(rt, p);
    return bad;
}

#endif
