/* The programs of test_lift_mem.c and their C models: each program's
 * body (memory instructions only, after the common prologue of
 * test_lift_mem.c's expand()) and a function that turns the launch state
 * into the expected state. Output slot K of lane l is the dword at
 * OUT_OFF + K * 0x100 + 4 * l. */
#ifndef TEST_LIFT_MEM_CASES_H
#define TEST_LIFT_MEM_CASES_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ir/wave_ir.h"
#include "wlt_wir_exec.h"

#define IN_OFF 0x0000u   /* s[0:1] */
#define OUT_OFF 0x4000u  /* s[2:3]; s[12:13] +0x800, s[14:15] +0x1000, s[16:17] +0x1800,
                            s[28:29] +0x2000, s[30:31] +0x3000 */
#define BUF_OFF 0x1000u  /* the buffer V#s' base */
#define NUSER 16 /* s[16:31] come from IN+0x900 (s_load_dwordx16) */
#define LDS_BYTES 0x7400u
#define SCRATCH_BYTES 0x40u

/* ---- the C model ---- */

static uint32_t D(unsigned l) { return 0x9e3779b9u * (l + 1) ^ (l << 27) ^ 0x80u * (l & 1); }
static unsigned perm(unsigned l, unsigned W) { return (l * 5 + 3) % W; }
static bool act(const wlx_state *s, unsigned l) { return (s->exec >> l) & 1; }
static uint32_t rd32(const uint8_t *m, uint32_t a) { uint32_t v; memcpy(&v, m + a, 4); return v; }
static void wr32(uint8_t *m, uint32_t a, uint32_t v) { memcpy(m + a, &v, 4); }
static void out(wlx_state *s, unsigned k, unsigned l, uint32_t v)
{
    if (act(s, l))
        wr32(s->g, OUT_OFF + k * 0x100 + 4 * l, v);
}
static uint32_t sx8(uint32_t v) { return (uint32_t)(int32_t)(int8_t)v; }
static uint32_t sx16(uint32_t v) { return (uint32_t)(int32_t)(int16_t)v; }

/* The launch: memory tables, SGPRs, EXEC; guest memory at gb. */
static void launch(wlx_state *s, unsigned W, uint64_t gb, uint64_t exec)
{
    memset(s, 0, sizeof *s);
    s->W = W;
    s->gbase = gb;
    s->exec = exec;
    for (unsigned l = 0; l < 64; l++) {
        s->g[IN_OFF + l] = (uint8_t)(4 * l);
        wr32(s->g, IN_OFF + 0x100 + 4 * l, 8 * l);
        uint64_t p = gb + OUT_OFF + 4 * l;
        memcpy(s->g + IN_OFF + 0x200 + 8 * l, &p, 8);
        uint16_t x16 = (uint16_t)(16 * l);
        memcpy(s->g + IN_OFF + 0x400 + 4 * l, &x16, 2);
        wr32(s->g, IN_OFF + 0x600 + 4 * l, D(l));
        wr32(s->g, IN_OFF + 0x700 + 4 * l, 4 * perm(l, W));
        wr32(s->g, IN_OFF + 0x500 + 4 * l, WL_APERTURE_SHARED_HI);
        wr32(s->g, BUF_OFF + 0x400 + 4 * l, WL_APERTURE_PRIVATE_HI);
        wr32(s->g, BUF_OFF + 0x500 + 4 * l, 0x10);
    }
    for (unsigned i = 0; i < 0x400; i++)
        s->g[BUF_OFF + i] = (uint8_t)(i * 7 + 1);
    uint32_t u[32];
    memset(u, 0, sizeof u);
    u[0] = (uint32_t)(gb + IN_OFF); u[1] = (uint32_t)((gb + IN_OFF) >> 32);
    u[2] = (uint32_t)(gb + OUT_OFF); u[3] = (uint32_t)((gb + OUT_OFF) >> 32);
    /* s[4:7]: raw buffer, 100 bytes, oob_select 3 */
    u[4] = (uint32_t)(gb + BUF_OFF); u[5] = (uint32_t)((gb + BUF_OFF) >> 32) & 0xffff;
    u[6] = 100; u[7] = 3u << 28;
    /* s[8:11]: the private segment buffer */
    u[8] = WL_PRIVATE_VSHARP_W0; u[9] = WL_PRIVATE_VSHARP_W1;
    u[10] = WL_PRIVATE_VSHARP_W2; u[11] = WL_PRIVATE_VSHARP_W3;
    for (unsigned i = 0; i < 3; i++) {
        u[12 + 2 * i] = (uint32_t)(gb + OUT_OFF + 0x800 * (i + 1));
        u[13 + 2 * i] = (uint32_t)((gb + OUT_OFF + 0x800 * (i + 1)) >> 32);
    }
    for (unsigned i = 0; i < 2; i++) { /* s[28:29], s[30:31]: free areas */
        u[28 + 2 * i] = (uint32_t)(gb + OUT_OFF + 0x2000 + 0x1000 * i);
        u[29 + 2 * i] = (uint32_t)((gb + OUT_OFF + 0x2000 + 0x1000 * i) >> 32);
    }
    u[18] = 0x20;   /* a scratch offset */
    u[19] = 8;      /* an soffset */
    /* s[20:23]: structured, stride 12, 20 records, oob_select 0 */
    u[20] = u[4]; u[21] = u[5] | (12u << 16); u[22] = 20; u[23] = 0;
    /* s[24:27]: add_tid, stride 4, 40 records, oob_select 1 */
    u[24] = u[4]; u[25] = u[5] | (4u << 16); u[26] = 40; u[27] = (1u << 23) | (1u << 28);
    memcpy(s->user, u, NUSER * 4);
    memcpy(s->g + IN_OFF + 0x900, u + 16, 64);
}

/* ---- the programs ---- */

typedef struct pcase {
    const char *name;
    const char *body;
    void (*model)(wlx_state *s);  /* the launch state in, the expected state out */
    const char *calls;            /* wl.* calls that must appear */
} pcase;

static const char ds_rw_body[] =
    "ds_write_b32 v1, v3 offset:0x1000\n"
    "ds_write_b8 v0, v3 offset:0x2000\n"
    "ds_write_b16 v1, v3 offset:0x3000\n"
    "ds_write_b16_d16_hi v1, v3 offset:0x3002\n"
    "ds_write_b8_d16_hi v1, v3 offset:0x4000\n"
    "ds_write_b64 v2, v[4:5] offset:0x5000\n"
    "ds_write2_b32 v2, v3, v0 offset1:1\n"
    "ds_write2st64_b32 v1, v0, v3 offset0:24 offset1:40\n"
    "ds_write_b128 v19, v[2:5] offset:0x6000\n"
    "ds_write_b96 v19, v[1:3] offset:0x7000\n"
    "ds_write2_b64 v19, v[2:3], v[4:5] offset0:0x60 offset1:0x61\n"
    "ds_read_b32 v7, v1 offset:0x1000\n out 0 v7\n"
    "ds_read_u8 v7, v0 offset:0x2000\n out 1 v7\n"
    "ds_read_i8 v7, v0 offset:0x2000\n out 2 v7\n"
    "ds_read_u16 v7, v1 offset:0x3002\n out 3 v7\n"
    "ds_read_i16 v7, v1 offset:0x3002\n out 4 v7\n"
    "ds_read_b32 v7, v1 offset:0x3000\n out 5 v7\n"
    "ds_read_u8 v7, v1 offset:0x4000\n out 6 v7\n"
    "ds_read2_b32 v[7:8], v2 offset1:1\n out 7 v7\n out 8 v8\n"
    "ds_read_b64 v[7:8], v2 offset:0x5000\n out 9 v7\n out 10 v8\n"
    "ds_read2st64_b32 v[7:8], v1 offset0:24 offset1:40\n out 11 v7\n out 12 v8\n"
    "ds_read_b128 v[20:23], v19 offset:0x6000\n out 13 v20\n out 14 v21\n out 15 v22\n out 16 v23\n"
    "ds_read_b96 v[20:22], v19 offset:0x7000\n out 17 v20\n out 18 v21\n out 19 v22\n"
    "ds_read_b32 v7, v1 offset:0x1000\n ds_read_u16_d16 v7, v1 offset:0x3002\n out 20 v7\n"
    "ds_read_b32 v7, v1 offset:0x1000\n ds_read_u8_d16_hi v7, v0 offset:0x2000\n out 21 v7\n"
    "ds_read_b32 v7, v1 offset:0x1000\n ds_read_i8_d16 v7, v0 offset:0x2000\n out 22 v7\n"
    "ds_read_b32 v7, v1 offset:0x1000\n ds_read_i8_d16_hi v7, v0 offset:0x2000\n out 23 v7\n"
    "ds_read2st64_b64 v[20:23], v19 offset0:0 offset1:0\n"
    "ds_read2_b64 v[20:23], v19 offset0:0x60 offset1:0x61\n out 24 v20\n out 25 v21\n out 26 v22\n out 27 v23\n";

static void ds_rw_model(wlx_state *s)
{
    for (unsigned l = 0; l < s->W; l++) {
        uint32_t d = D(l), lo = (uint32_t)(s->gbase + OUT_OFF + 4 * l), hi = (uint32_t)(s->gbase >> 32);
        out(s, 0, l, d);
        out(s, 1, l, d & 0xff);
        out(s, 2, l, sx8(d));
        out(s, 3, l, d >> 16);
        out(s, 4, l, sx16(d >> 16));
        out(s, 5, l, d);
        out(s, 6, l, (d >> 16) & 0xff);
        out(s, 7, l, d);
        out(s, 8, l, l);
        out(s, 9, l, lo);
        out(s, 10, l, hi);
        out(s, 11, l, l);
        out(s, 12, l, d);
        out(s, 13, l, 8 * l);
        out(s, 14, l, d);
        out(s, 15, l, lo);
        out(s, 16, l, hi);
        out(s, 17, l, 4 * l);
        out(s, 18, l, 8 * l);
        out(s, 19, l, d);
        out(s, 20, l, (d & 0xffff0000u) | (d >> 16));
        out(s, 21, l, (d & 0xffff) | ((d & 0xff) << 16));
        out(s, 22, l, (d & 0xffff0000u) | (sx8(d) & 0xffff));
        out(s, 23, l, (d & 0xffff) | ((sx8(d) & 0xffff) << 16));
        out(s, 24, l, 8 * l);
        out(s, 25, l, d);
        out(s, 26, l, lo);
        out(s, 27, l, hi);
    }
}

static const char ds_atomic_body[] =
    "ds_write_b32 v1, v3 offset:0x1000\n"
    "ds_add_rtn_u32 v7, v1, v0 offset:0x1000\n out 0 v7\n"
    "ds_sub_rtn_u32 v7, v1, v0 offset:0x1000\n out 1 v7\n"
    "ds_xor_rtn_b32 v7, v1, v1 offset:0x1000\n out 2 v7\n"
    "ds_or_rtn_b32 v7, v1, v3 offset:0x1000\n out 3 v7\n"
    "ds_and_rtn_b32 v7, v1, v2 offset:0x1000\n out 4 v7\n"
    "ds_min_rtn_i32 v7, v1, v3 offset:0x1000\n out 5 v7\n"
    "ds_max_rtn_u32 v7, v1, v3 offset:0x1000\n out 6 v7\n"
    "ds_wrxchg_rtn_b32 v7, v1, v0 offset:0x1000\n out 7 v7\n"
    "ds_inc_rtn_u32 v7, v1, v1 offset:0x1000\n out 8 v7\n"
    "ds_dec_rtn_u32 v7, v1, v0 offset:0x1000\n out 9 v7\n"
    "ds_cmpst_rtn_b32 v7, v1, v0, v3 offset:0x1000\n out 10 v7\n"
    "ds_read_b32 v7, v1 offset:0x1000\n out 11 v7\n"
    "ds_write2_b32 v8, v9, v9 offset0:0x7c offset1:0x7d\n"
    "ds_add_u32 v8, v0 offset:0x1f0\n"
    "ds_max_i32 v8, v3 offset:0x1f4\n"
    "ds_read_b32 v7, v8 offset:0x1f0\n out 12 v7\n"
    "ds_read_b32 v7, v8 offset:0x1f4\n out 13 v7\n"
    "ds_write2_b32 v2, v9, v9 offset1:1\n"
    "ds_wrxchg2_rtn_b32 v[20:21], v2, v0, v3 offset1:1\n out 19 v20\n"
    "ds_read2_b32 v[20:21], v2 offset1:1\n out 20 v20\n out 21 v21\n";

static const char ds_atomic64_body[] =
    "ds_write_b64 v2, v[4:5] offset:0x3000\n"
    "ds_add_rtn_u64 v[20:21], v2, v[2:3] offset:0x3000\n out 14 v20\n out 15 v21\n"
    "ds_cmpst_rtn_b64 v[20:21], v2, v[4:5], v[0:1] offset:0x3000\n out 16 v20\n"
    "ds_min_rtn_u64 v[20:21], v2, v[4:5] offset:0x3000\n"
    "ds_read_b64 v[20:21], v2 offset:0x3000\n out 17 v20\n out 18 v21\n";

static void ds_atomic64_model(wlx_state *s)
{
    for (unsigned l = 0; l < s->W; l++) {
        uint64_t p = s->gbase + OUT_OFF + 4 * l, v = (uint64_t)(8 * l) | (uint64_t)D(l) << 32;
        out(s, 14, l, (uint32_t)p);
        out(s, 15, l, (uint32_t)(p >> 32));
        uint64_t w64 = p + v;
        out(s, 16, l, (uint32_t)w64);
        w64 = w64 < p ? w64 : p;
        out(s, 17, l, (uint32_t)w64);
        out(s, 18, l, (uint32_t)(w64 >> 32));
    }
}

static void ds_atomic_model(wlx_state *s)
{
    uint32_t sum = 0;
    int32_t mx = INT32_MIN;
    for (unsigned l = 0; l < s->W; l++) {
        if (!act(s, l))
            continue;
        uint32_t d = D(l), w = d, r[12];
        r[0] = w; w = w + l;
        r[1] = w; w = w - l;
        r[2] = w; w ^= 4 * l;
        r[3] = w; w |= d;
        r[4] = w; w &= 8 * l;
        r[5] = w; w = (int32_t)w < (int32_t)d ? w : d;
        r[6] = w; w = w > d ? w : d;
        r[7] = w; w = l;
        r[8] = w; w = w >= 4 * l ? 0 : w + 1;
        r[9] = w; w = (w == 0 || w > l) ? l : w - 1;
        r[10] = w; w = w == l ? d : w;
        r[11] = w;
        for (unsigned k = 0; k < 12; k++)
            out(s, k, l, r[k]);
        sum += l;
        mx = (int32_t)d > mx ? (int32_t)d : mx;
        out(s, 19, l, 0); /* the LDS at 8l was zeroed */
        out(s, 20, l, l);
        out(s, 21, l, d);
    }
    for (unsigned l = 0; l < s->W; l++) {
        out(s, 12, l, sum);
        out(s, 13, l, (uint32_t)(mx > 0 ? mx : 0));
    }
}

static const char ds_lane_body[] =
    "ds_bpermute_b32 v7, v6, v3\n out 0 v7\n"
    "ds_permute_b32 v7, v6, v3\n out 1 v7\n"
    "ds_permute_b32 v7, v8, v3 offset:8\n out 2 v7\n"
    "ds_swizzle_b32 v7, v3 offset:swizzle(QUAD_PERM,3,2,1,0)\n out 3 v7\n"
    "ds_swizzle_b32 v7, v3 offset:swizzle(SWAP,1)\n out 4 v7\n"
    "ds_swizzle_b32 v7, v3 offset:0x1078\n out 5 v7\n"
    "ds_swizzle_b32 v7, v3 offset:swizzle(BROADCAST,8,5)\n out 6 v7\n"
    "ds_bpermute_b32 v7, v6, v3 offset:4\n out 7 v7\n";

static uint32_t src_d(const wlx_state *s, unsigned j) { return act(s, j % s->W) ? D(j % s->W) : 0; }

static void ds_lane_model(wlx_state *s)
{
    unsigned W = s->W, last = 0;
    for (unsigned j = 0; j < W; j++)
        if (act(s, j))
            last = j;
    for (unsigned l = 0; l < W; l++) {
        unsigned src = act(s, l) ? perm(l, W) : 0;
        out(s, 0, l, src_d(s, src));
        uint32_t pv = 0;
        for (unsigned j = 0; j < W; j++)
            if (act(s, j) && perm(j, W) == l)
                pv = D(j);
        out(s, 1, l, pv);
        out(s, 2, l, l == 6 ? D(last) : 0);
        out(s, 3, l, src_d(s, (l & ~3u) | (3 - (l & 3))));
        out(s, 4, l, src_d(s, l ^ 1));
        unsigned j5 = ((((l & 31) & 0x18) | 3) ^ 4) | (l & 32);
        out(s, 5, l, src_d(s, j5));
        out(s, 6, l, src_d(s, (l & ~7u) | 5));
        out(s, 7, l, src_d(s, act(s, l) ? (perm(l, W) + 1) % W : 1));
    }
}

static const char global_body[] =
    "global_store_dword v[4:5], v3, off offset:0x100\n"
    "global_store_byte v[4:5], v0, off offset:0x200\n"
    "global_store_short v[4:5], v3, off offset:0x300\n"
    "global_store_short_d16_hi v[4:5], v3, off offset:0x302\n"
    "global_store_byte_d16_hi v[4:5], v3, off offset:0x400\n"
    "global_store_dwordx4 v19, v[2:5], s[28:29]\n"
    "global_store_dwordx3 v19, v[1:3], s[28:29] offset:0x400\n"
    "global_store_dwordx2 v2, v[3:4], s[30:31]\n"
    "global_load_sbyte v7, v0, s[0:1] offset:0x600\n out 0 v7\n"
    "global_load_ubyte v7, v0, s[0:1] offset:0x600\n out 5 v7\n"
    "global_load_sshort v7, v1, s[0:1] offset:0x602\n out 6 v7\n"
    "global_load_ushort v7, v1, s[0:1] offset:0x602\n out 7 v7\n"
    "global_load_dwordx4 v[20:23], v19, s[0:1]\n out 8 v20\n out 9 v21\n out 10 v22\n out 11 v23\n"
    "global_load_dwordx3 v[20:22], v19, s[0:1] offset:4\n out 12 v20\n out 13 v21\n out 14 v22\n"
    "global_load_dwordx2 v[20:21], v[4:5], off offset:0x100\n out 15 v20\n out 16 v21\n"
    "global_load_dword v7, v1, s[0:1] offset:0x600\n global_load_short_d16_hi v7, v1, s[0:1] offset:0x700\n out 17 v7\n"
    "global_load_dword v7, v1, s[0:1] offset:0x600\n global_load_sbyte_d16 v7, v0, s[0:1] offset:0x603\n out 18 v7\n"
    "global_store_dword v1, v3, s[30:31] offset:0x400\n"
    "global_atomic_add v7, v1, v0, s[30:31] offset:0x400 glc\n out 19 v7\n"
    "global_atomic_cmpswap v7, v1, v[2:3], s[30:31] offset:0x400 glc\n out 20 v7\n"
    "global_atomic_umax v1, v2, s[30:31] offset:0x400\n"
    "global_atomic_swap_x2 v[20:21], v2, v[4:5], s[30:31] glc\n out 21 v20\n"
    "global_atomic_add_x2 v[20:21], v2, v[2:3], s[30:31] glc\n out 22 v20\n out 23 v21\n"
    "global_atomic_cmpswap_x2 v[20:21], v2, v[2:5], s[30:31] glc\n out 24 v20\n";

static void global_model(wlx_state *s)
{
    uint8_t in[WLX_GSIZE];
    memcpy(in, s->g, sizeof in);
    const uint32_t X = OUT_OFF + 0x2000, Y = OUT_OFF + 0x3000;
    for (unsigned l = 0; l < s->W; l++) {
        if (!act(s, l))
            continue;
        uint32_t d = D(l), a = OUT_OFF + 4 * l;
        uint32_t lo = (uint32_t)(s->gbase + a), hi = (uint32_t)(s->gbase >> 32);
        wr32(s->g, a + 0x100, d);
        s->g[a + 0x200] = (uint8_t)l;
        wr32(s->g, a + 0x300, d);
        s->g[a + 0x400] = (uint8_t)(d >> 16);
        uint32_t x4[4] = {8 * l, d, lo, hi}, x3[3] = {4 * l, 8 * l, d}, x2[2] = {d, lo};
        memcpy(s->g + X + 16 * l, x4, 16);
        memcpy(s->g + X + 0x400 + 16 * l, x3, 12);
        memcpy(s->g + Y + 8 * l, x2, 8);
    }
    uint8_t mid[WLX_GSIZE];
    memcpy(mid, s->g, sizeof mid);
    for (unsigned l = 0; l < s->W; l++) {
        if (!act(s, l))
            continue;
        uint32_t d = D(l);
        out(s, 0, l, sx8(in[0x600 + l]));
        out(s, 5, l, in[0x600 + l]);
        out(s, 6, l, sx16(d >> 16));
        out(s, 7, l, d >> 16);
        for (unsigned i = 0; i < 4; i++)
            out(s, 8 + i, l, rd32(in, 16 * l + 4 * i));
        for (unsigned i = 0; i < 3; i++)
            out(s, 12 + i, l, rd32(in, 16 * l + 4 + 4 * i));
        out(s, 15, l, rd32(mid, OUT_OFF + 0x100 + 4 * l));
        out(s, 16, l, rd32(mid, OUT_OFF + 0x104 + 4 * l));
        out(s, 17, l, (d & 0xffff) | (rd32(in, 0x700 + 4 * l) << 16));
        out(s, 18, l, (d & 0xffff0000u) | (sx8(in[0x603 + l]) & 0xffff));
    }
    for (unsigned l = 0; l < s->W; l++) {
        if (!act(s, l))
            continue;
        uint32_t d = D(l), a = Y + 0x400 + 4 * l;
        out(s, 19, l, d);
        uint32_t w = d + l;
        out(s, 20, l, w);
        w = w == d ? 8 * l : w;    /* cmpswap: new 8l, compare D */
        w = w > 8 * l ? w : 8 * l; /* umax */
        wr32(s->g, a, w);
        uint32_t b = Y + 8 * l;
        out(s, 21, l, d);          /* the dwordx2 store's low dword */
        uint64_t p = s->gbase + OUT_OFF + 4 * l, v = (uint64_t)(8 * l) | (uint64_t)d << 32;
        out(s, 22, l, (uint32_t)p);
        out(s, 23, l, (uint32_t)(p >> 32));
        uint64_t w64 = p + v;
        out(s, 24, l, (uint32_t)w64); /* cmpswap_x2 compares with p: no swap */
        memcpy(s->g + b, &w64, 8);
    }
}

static const char flat_body[] =
    "global_load_dword v24, v1, s[0:1] offset:0x100\n"  /* 8 lane */
    "global_load_dword v25, v1, s[0:1] offset:0x500\n"  /* LDS aperture */
    "global_load_dword v28, v1, s[4:5] offset:0x500\n"  /* 0x10 */
    "global_load_dword v29, v1, s[12:13] offset:0\n"    /* 0 (OUT2 is zero) */
    "global_load_dword v29, v1, s[4:5] offset:0x400\n"  /* private aperture */
    "flat_store_dword v[24:25], v3\n"
    "ds_read_b32 v7, v2\n out 0 v7\n"
    "flat_load_dword v7, v[24:25]\n out 1 v7\n"
    "flat_store_dword v[28:29], v3 offset:4\n"
    "scratch_load_dword v7, v28, off offset:4\n out 2 v7\n"
    "flat_load_ushort v7, v[28:29] offset:6\n out 3 v7\n"
    "flat_store_dword v[4:5], v0 offset:0x700\n"
    "flat_load_dword v7, v[4:5] offset:0x700\n out 4 v7\n"
    "flat_atomic_add v7, v[24:25], v0 glc\n out 5 v7\n"
    "ds_read_b32 v7, v2\n out 6 v7\n"
    "flat_atomic_swap v7, v[4:5], v3 offset:0x700 glc\n out 14 v7\n"
    "scratch_store_dword off, v3, s18 offset:8\n"
    "scratch_load_dword v7, off, s18 offset:8\n out 8 v7\n"
    "scratch_store_short v28, v3, off offset:0x1e\n"
    "scratch_load_sshort v7, v28, off offset:0x1e\n out 9 v7\n"
    "scratch_store_dwordx3 v28, v[1:3], off offset:-16\n"
    "scratch_store_dword v28, v9, off offset:-4\n"
    "scratch_load_dwordx4 v[20:23], v28, off offset:-16\n out 10 v20\n out 11 v21\n out 12 v22\n out 13 v23\n";

static void flat_model(wlx_state *s)
{
    for (unsigned l = 0; l < s->W; l++) {
        if (!act(s, l))
            continue;
        uint32_t d = D(l);
        out(s, 0, l, d);
        out(s, 1, l, d);
        out(s, 2, l, d);
        out(s, 3, l, d >> 16);
        out(s, 4, l, l);
        out(s, 5, l, d);
        out(s, 6, l, d + l);
        out(s, 14, l, l);
        wr32(s->g, OUT_OFF + 0x700 + 4 * l, d);
        out(s, 8, l, d);
        out(s, 9, l, sx16(d));
        out(s, 10, l, 4 * l);
        out(s, 11, l, 8 * l);
        out(s, 12, l, d);
        out(s, 13, l, 0);
    }
}

static const char buf_body[] =
    "buffer_load_dword v7, v1, s[4:7], 0 offen\n out 0 v7\n"
    "buffer_load_dwordx4 v[20:23], v1, s[4:7], 0 offen offset:80\n out 1 v20\n out 2 v21\n out 3 v22\n out 4 v23\n"
    "buffer_load_ubyte v7, v0, s[4:7], 0 offen offset:90\n out 5 v7\n"
    "buffer_load_dword v7, v0, s[20:23], 0 idxen offset:4\n out 6 v7\n"
    "buffer_load_dword v7, v0, s[20:23], 0 idxen offset:12\n out 7 v7\n"
    "buffer_load_dword v7, v1, s[4:7], s19 offen\n out 8 v7\n"
    "buffer_load_dword v7, off, s[24:27], 0\n out 9 v7\n"
    "buffer_store_dword v3, off, s[8:11], 0 offset:16\n"
    "buffer_load_dword v7, off, s[8:11], 0 offset:16\n out 10 v7\n"
    "global_load_dword v28, v1, s[4:5] offset:0x500\n"  /* 0x10 */
    "scratch_store_dword v28, v3, off offset:8\n"
    "scratch_store_dword v28, v3, off offset:16\n"
    "s_movk_i32 s40, 0x200\n" /* a wave-space soffset: 0x200 / W bytes a lane */
    "buffer_store_dword v0, v28, s[8:11], s40 offen\n"
    "buffer_load_dword v7, v28, s[8:11], s40 offen\n out 11 v7\n"
    "scratch_load_dword v7, v28, off offset:8\n out 12 v7\n"
    "scratch_load_dword v7, v28, off offset:16\n out 16 v7\n"
    "buffer_load_sshort v7, v0, s[20:23], 0 idxen offset:2\n out 13 v7\n"
    "global_load_dword v21, v1, s[0:1] offset:0x100\n"
    "buffer_atomic_add v21, v1, s[4:7], 0 offen glc\n out 14 v21\n"
    "global_load_dword v21, v1, s[0:1] offset:0x100\n"
    "buffer_atomic_add v21, v1, s[4:7], 0 offen offset:0x200 glc\n out 15 v21\n"
    "buffer_store_dword v3, v1, s[4:7], 0 offen offset:0x40\n"
    "buffer_store_byte v0, v0, s[20:23], 0 idxen offset:11\n"
    "buffer_gl0_inv\n";

static void buf_model(wlx_state *s)
{
    uint8_t in[WLX_GSIZE];
    memcpy(in, s->g, sizeof in);
    const uint32_t B = BUF_OFF;
    for (unsigned l = 0; l < s->W; l++) {
        if (!act(s, l))
            continue;
        uint32_t d = D(l);
        out(s, 0, l, 4 * l < 100 ? rd32(in, B + 4 * l) : 0);
        for (unsigned i = 0; i < 4; i++) {
            uint32_t o = 4 * l + 80 + 4 * i;
            out(s, 1 + i, l, o < 100 ? rd32(in, B + o) : 0);
        }
        out(s, 5, l, l + 90 < 100 ? in[B + l + 90] : 0);
        out(s, 6, l, l < 20 ? rd32(in, B + 12 * l + 4) : 0);
        out(s, 7, l, 0);
        out(s, 8, l, 4 * l < 100 ? rd32(in, B + 8 + 4 * l) : 0);
        out(s, 9, l, l < 40 ? rd32(in, B + 4 * l) : 0);
        out(s, 10, l, d);
        /* the private segment V#'s soffset is wave-space: lane offset
         * 0x10 + 0x200 / W (0x18 at W = 64, 0x20 at W = 32) */
        out(s, 11, l, l);
        out(s, 12, l, s->W == 64 ? l : d);
        out(s, 16, l, s->W == 32 ? l : d);
        uint16_t h;
        memcpy(&h, in + B + 12 * l + 2, 2);
        out(s, 13, l, l < 20 ? sx16(h) : 0);
        if (4 * l < 100) {
            out(s, 14, l, rd32(in, B + 4 * l));
            wr32(s->g, B + 4 * l, rd32(in, B + 4 * l) + 8 * l);
        } else {
            out(s, 14, l, 0);
        }
        out(s, 15, l, 0);
    }
    for (unsigned l = 0; l < s->W; l++) {
        if (act(s, l) && 4 * l + 0x40 < 100)
            wr32(s->g, B + 4 * l + 0x40, D(l));
    }
    for (unsigned l = 0; l < s->W; l++) {
        if (act(s, l) && l < 20)
            s->g[B + 12 * l + 11] = (uint8_t)l;
    }
}

static const char scratch_body[] =
    "scratch_store_dword off, v3, s18 offset:-0x10\n"
    "scratch_load_dword v7, off, s18 offset:-0x10\n out 0 v7\n"
    "scratch_store_dword off, v0, off offset:0x30\n"
    "scratch_store_byte off, v3, off offset:0x31\n"
    "scratch_store_byte_d16_hi off, v3, off offset:0x33\n"
    "scratch_load_dword v7, off, off offset:0x30\n out 1 v7\n"
    "scratch_load_sbyte_d16_hi v7, off, off offset:0x33\n out 2 v7\n";

static void scratch_model(wlx_state *s)
{
    for (unsigned l = 0; l < s->W; l++) {
        uint32_t d = D(l), w = l | (d & 0xff) << 8 | ((d >> 16) & 0xff) << 24;
        out(s, 0, l, d);
        out(s, 1, l, w);
        out(s, 2, l, (w & 0xffff) | (sx8(w >> 24) << 16));
    }
}

/* Format loads and stores: V#s built in s[32:35] (raw over the buffer, 100
 * bytes, oob_select 3, FORMAT in word 3 [18:12], dst_sel identity 0xfac
 * unless noted) and s[36:39] (raw over the free area at OUT + 0x2000). */
static const char fmt_body[] =
    "s_mov_b32 s32, s4\n"
    "s_mov_b32 s33, s5\n"
    "s_movk_i32 s34, 0x64\n"
    "s_mov_b32 s36, s28\n"
    "s_mov_b32 s37, s29\n"
    "s_movk_i32 s38, 0x1000\n"
    "s_mov_b32 s35, 0x30038fac\n"                 /* 8_8_8_8_UNORM */
    "buffer_load_format_xyzw v[20:23], v1, s[32:35], 0 offen\n out 0 v20\n out 1 v21\n out 2 v22\n out 3 v23\n"
    "s_mov_b32 s35, 0x30018fac\n"                 /* 16_16_SNORM */
    "buffer_load_format_xyzw v[20:23], v1, s[32:35], 0 offen\n out 4 v20\n out 5 v21\n out 6 v22\n out 7 v23\n"
    "s_mov_b32 s35, 0x30045fac\n"                 /* 16_16_16_16_UINT */
    "buffer_load_format_xyz v[20:22], v2, s[32:35], 0 offen\n out 8 v20\n out 9 v21\n out 10 v22\n"
    "s_mov_b32 s35, 0x30006fac\n"                 /* 8_SINT */
    "buffer_load_format_xy v[20:21], v0, s[32:35], 0 offen offset:3\n out 11 v20\n out 12 v21\n"
    "s_mov_b32 s35, 0x30007fac\n"                 /* 16_UNORM */
    "buffer_load_format_x v7, v1, s[32:35], 0 offen offset:2\n out 13 v7\n"
    "s_mov_b32 s35, 0x30012065\n"                 /* 8_8_UINT, dst_sel (y, x, 1, 0) */
    "buffer_load_format_xyzw v[20:23], v1, s[32:35], 0 offen\n out 14 v20\n out 15 v21\n out 16 v22\n out 17 v23\n"
    "tbuffer_load_format_xy v[20:21], v2, s[32:35], 0 format:[BUF_FMT_32_32_FLOAT] offen\n out 18 v20\n out 19 v21\n"
    "s_mov_b32 s35, 0x30000fac\n"
    "tbuffer_load_format_xyzw v[20:23], v1, s[32:35], 0 format:[BUF_FMT_16_16_FLOAT] offen\n out 20 v20\n out 21 v21\n out 22 v22\n out 23 v23\n"
    "s_mov_b32 s35, 0x30038fac\n"
    "buffer_load_format_xyzw v[20:23], v1, s[32:35], 0 offen\n"
    "s_mov_b32 s39, 0x3000dfac\n"                 /* 16_FLOAT */
    "buffer_store_format_x v21, v1, s[36:39], 0 offen\n"
    "tbuffer_store_format_xy v[20:21], v2, s[36:39], 0 format:[BUF_FMT_32_32_UINT] offen offset:0x200\n";

/* The ISA's conversions: UNORM u / (2^n - 1), SNORM max(s / (2^(n-1) - 1),
 * -1), UINT/SINT extended, FLOAT widened; an out-of-range component (offset
 * >= 100) reads 0; missing components 0, w 1 (1.0); dst_sel picks. */
static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float clampm1(float f) { return f < -1.0f ? -1.0f : f; }
static void fmt_model(wlx_state *s)
{
    uint8_t in[WLX_GSIZE];
    memcpy(in, s->g, sizeof in);
    const uint32_t B = BUF_OFF;
#define BY(o) ((o) < 100 ? (uint32_t)in[B + (o)] : 0u)
#define H16(o) ((o) < 100 ? (uint32_t)in[B + (o)] | (uint32_t)in[B + (o) + 1] << 8 : 0u)
#define W32(o) ((o) < 100 ? rd32(in, B + (o)) : 0u)
    for (unsigned l = 0; l < s->W; l++) {
        if (!act(s, l))
            continue;
        uint32_t o = 4 * l, o8 = 8 * l;
        for (unsigned i = 0; i < 4; i++)
            out(s, i, l, fbits((float)BY(o + i) / 255.0f));
        for (unsigned i = 0; i < 2; i++)
            out(s, 4 + i, l, fbits(clampm1((float)(int16_t)H16(o + 2 * i) / 32767.0f)));
        out(s, 6, l, 0);
        out(s, 7, l, 0x3f800000u);
        for (unsigned i = 0; i < 3; i++)
            out(s, 8 + i, l, H16(o8 + 2 * i));
        out(s, 11, l, sx8(BY(l + 3)));
        out(s, 12, l, 0);
        out(s, 13, l, fbits((float)H16(o + 2) / 65535.0f));
        out(s, 14, l, BY(o + 1));
        out(s, 15, l, BY(o));
        out(s, 16, l, 1);
        out(s, 17, l, 0);
        out(s, 18, l, W32(o8 + 4));
        out(s, 19, l, W32(o8));
        for (unsigned i = 0; i < 2; i++) {
            uint16_t h = (uint16_t)H16(o + 2 * i);
            _Float16 f;
            memcpy(&f, &h, 2);
            out(s, 20 + i, l, fbits((float)f));
        }
        out(s, 22, l, 0);
        out(s, 23, l, 0x3f800000u);
        float x = (float)BY(o) / 255.0f, y = (float)BY(o + 1) / 255.0f;
        _Float16 hy = (_Float16)y;
        memcpy(s->g + OUT_OFF + 0x2000 + 4 * l, &hy, 2);
        wr32(s->g, OUT_OFF + 0x2200 + 8 * l, fbits(x));
        wr32(s->g, OUT_OFF + 0x2204 + 8 * l, fbits(y));
    }
#undef BY
#undef H16
#undef W32
}

static const pcase cases[] = {
    {"ds_rw", ds_rw_body, ds_rw_model, "wl.load.lds.b8 wl.load.lds.b16 wl.load.lds.b32 wl.store.lds.b8 wl.store.lds.b16 wl.store.lds.b32"},
    {"ds_atomic", ds_atomic_body, ds_atomic_model, "wl.atomic.lds.add.b32 wl.atomic.lds.cmpswap.b32 wl.atomic.lds.inc.b32 wl.atomic.lds.dec.b32 wl.atomic.lds.swap.b32 wl.atomic.lds.smax.b32"},
    {"ds_atomic64", ds_atomic64_body, ds_atomic64_model, "wl.atomic.lds.add.b64 wl.atomic.lds.cmpswap.b64 wl.atomic.lds.umin.b64"},
    {"ds_lane", ds_lane_body, ds_lane_model, "wl.shuffle.i32 wl.lane_id"},
    {"global", global_body, global_model, "wl.load.global.b8 wl.load.global.b16 wl.store.global.b8 wl.store.global.b16 wl.atomic.global.add.b64 wl.atomic.global.cmpswap.b32 wl.atomic.global.umax.b32"},
    {"flat", flat_body, flat_model, "wl.load.scratch.b32 wl.store.scratch.b16 wl.atomic.lds.add.b32 wl.escape"},
    {"scratch", scratch_body, scratch_model, "wl.load.scratch.b32 wl.store.scratch.b8"},
    {"buffer", buf_body, buf_model, "wl.load.global.b8 wl.load.scratch.b32 wl.store.scratch.b32 wl.atomic.global.add.b32 wl.escape"},
    {"buf_format", fmt_body, fmt_model, "wl.load.global.b8 wl.load.global.b16 wl.load.global.b32 wl.store.global.b16 wl.store.global.b32"},
};
#define NCASES (sizeof cases / sizeof cases[0])

#endif
