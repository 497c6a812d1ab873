/* tests/lower/mix.ll's C model (the values its comments define), for the
 * tests that run it: what every word of the buffer must hold after a
 * dispatch of GROUPS groups of LOCAL work-items with wave size W. Written
 * from the program's description, not from any lowering. (test_lower.c
 * has the same model inline; it could include this.) */
#ifndef WLT_MIX_H
#define WLT_MIX_H

#include <stdint.h>
#include <string.h>

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
            uint32_t pc = 0;
            for (unsigned l = 0; l < W; l++)
                if (w * W + l < MIX_LOCAL)
                    pc += X(l) & 1;
            uint32_t *r = want + MIX_OUT_BYTE / 4 + gt * 16;
            r[0] = X(lane ^ 1);
            r[1] = X((lane + 5) % W);
            r[2] = X(7);
            r[3] = X(0);
            r[4] = pc;
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

#endif
