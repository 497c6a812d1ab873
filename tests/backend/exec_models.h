/* The C models of the IR programs in tests/backend/ that carry an
 * "; exec:" line: for each, how its memory starts (init) and what it must
 * hold afterwards (model), computed here independently of the emitter.
 *
 * State layout: the guest buffer `mem` (its address in push constants words
 * 0-1, the program's n in word 2), then the status buffer (binding 0), then
 * the device-memory LDS buffer (binding 2), as many words as the exec line
 * says. A model starts from want = the initial state and mask = all ones,
 * writes the words the program changes, and clears mask bits a correct run
 * may leave different (none but an xchg/cmpxchg winner). Included once, by
 * tests/test_backend_exec.c. */
#ifndef WL_EXEC_MODELS_H
#define WL_EXEC_MODELS_H

#include <math.h>
#include <stdint.h>
#include <string.h>

typedef struct xgeom {
    uint32_t local, groups, mem, status, lds, n;
} xgeom;

static uint64_t xrng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static uint32_t xr32(uint64_t *s) { return (uint32_t)(xrng(s) >> 16); }

/* Fills the state with junk (outputs the program must overwrite). */
static void fill_junk(uint32_t *st, size_t words, uint64_t *s)
{
    for (size_t i = 0; i < words; i++)
        st[i] = xr32(s) | 0x80000001u;
}

static uint32_t popc32(uint32_t x)
{
    uint32_t c = 0;
    for (; x; x &= x - 1)
        c++;
    return c;
}

static uint64_t get64(const uint32_t *w, size_t i) { return w[i] | (uint64_t)w[i + 1] << 32; }
static void put64(uint32_t *w, size_t i, uint64_t v)
{
    w[i] = (uint32_t)v;
    w[i + 1] = (uint32_t)(v >> 32);
}
static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static uint64_t dbits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}
static int32_t sx(uint32_t v) { return (int32_t)v; }

/* ---- exec_nested.ll ---- */
static void init_nested(uint32_t *st, const xgeom *g, uint64_t *s)
{
    fill_junk(st, g->mem, s);
    for (int i = 0; i < 1024; i++)
        st[i] = xr32(s) % 12;
}
static void model_nested(const uint32_t *in, uint32_t *w, uint32_t *m, const xgeom *g, uint32_t S)
{
    int n = (int)g->n;
    for (int t = 0; t < 64; t++) {
        const uint32_t *v = in + 16 * t;
        uint32_t *o = w + 1024 + 4 * t;
        int32_t s = 0;
        int i, j, early = 0;
        for (i = 0; i < n; i++) {
            int both = 0;
            for (j = 0; j < n; j++) {
                uint32_t x = v[i * n + j];
                if (x == 9) {
                    early = 1;
                    break;
                }
                if (x % 3 == 0)
                    continue;
                if (x == 7)
                    break;
                s += (int32_t)x;
                if (s > 40) {
                    both = 1;
                    break;
                }
            }
            if (early || both)
                break;
        }
        if (early) {
            o[0] = (uint32_t)(1000 + i * n + j);
            o[1] = 77;
        } else {
            o[0] = (uint32_t)s;
            o[1] = (uint32_t)i;
        }
    }
}

/* ---- exec_switch.ll ---- */
static void init_switch(uint32_t *st, const xgeom *g, uint64_t *s)
{
    fill_junk(st, g->mem, s);
    for (int i = 0; i < 512; i++)
        st[i] = xr32(s) % 8 == 0 ? 3 + 8 * (xr32(s) % 100) : xr32(s);
}
static void model_switch(const uint32_t *in, uint32_t *w, uint32_t *m, const xgeom *g, uint32_t S)
{
    for (int t = 0; t < 64; t++) {
        uint32_t acc = 0, i;
        for (i = 0; i < g->n; i++) {
            uint32_t v = in[8 * t + i];
            int out = 0;
            switch (v & 7) {
            case 0: acc += 1; break;
            case 1:
            case 2: acc = acc * 3 + v; break;
            case 3: out = 1; break;
            case 5: acc ^= 85; /* fall through */
            case 6: acc += 100; break;
            default: acc -= v;
            }
            if (out)
                break;
        }
        w[1024 + 2 * t] = acc;
        w[1024 + 2 * t + 1] = i;
    }
}

/* ---- exec_irreducible.ll ---- */
static void init_irreducible(uint32_t *st, const xgeom *g, uint64_t *s)
{
    fill_junk(st, g->mem, s);
    for (int i = 0; i < 64; i++)
        st[i] = xr32(s) % 131;
}
static void model_irreducible(const uint32_t *in, uint32_t *w, uint32_t *m, const xgeom *g, uint32_t S)
{
    for (int t = 0; t < 64; t++) {
        uint32_t x = in[t], c = 0;
        int left = (x & 1) == 0;
        for (;;) {
            x += left ? 3 : 5;
            c++;
            if (x >= 100)
                break;
            left = !left;
        }
        w[64 + 2 * t] = x;
        w[64 + 2 * t + 1] = c;
    }
}

/* ---- exec_memory.ll ---- */
static void init_memory(uint32_t *st, const xgeom *g, uint64_t *s)
{
    fill_junk(st, g->mem + g->status + g->lds, s);
    for (int i = 0; i < 128; i++)
        st[i] = xr32(s);
}
static void model_memory(const uint32_t *in, uint32_t *w, uint32_t *m, const xgeom *g, uint32_t S)
{
    static const uint32_t table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
    const uint32_t *lds_in = in + g->mem + g->status;
    uint32_t *status = w + g->mem, *lds = w + g->mem + g->status;
    for (uint32_t gid = 0; gid < 64 * g->groups; gid++) {
        uint32_t l = gid % 64, grp = gid / 64, x = in[gid];
        uint32_t *o = w + 256 + 8 * gid;
        uint32_t k = (l + g->n) & 15;
        o[0] = x * (k + 1);
        o[1] = (x * (k + 1) & 255) | 90u << 8;
        o[2] = x;
        o[3] = in[grp * 64 + (l ^ 1)];
        uint32_t wi = l / 4, b = 0;
        for (uint32_t j = 0; j < 4; j++)
            b |= (4 * wi + j + 1) << (8 * j);
        o[4] = b;
        o[5] = (63 - l) + in[grp * 64 + 63 - l];
        o[6] = table[x & 7];
        o[7] = (x & 255) | 0xabu << 8 | l << 16;
        status[gid] = x + g->n;
        lds[64 + gid] = lds_in[l] ^ x;
    }
}

/* ---- exec_atomics.ll ---- */
static void init_atomics(uint32_t *st, const xgeom *g, uint64_t *s)
{
    fill_junk(st, g->mem + g->lds, s);
    for (int i = 0; i < 64; i++)
        st[i] = xr32(s);
    for (int i = 0; i < 4; i++)
        st[44 + i] = st[48 + i] = 0;
    for (int i = 256; i < 512; i++)
        st[i] = xr32(s);
}
static void model_atomics(const uint32_t *in, uint32_t *w, uint32_t *m, const xgeom *g, uint32_t S)
{
    const uint32_t N = 64 * g->groups;
    uint32_t *ldsb = w + g->mem;
    uint64_t sum_old = 0;
    for (uint32_t k = 0; k < N; k++)
        sum_old += in[0] + k;
    w[0] = in[0] + N;
    w[1] = in[1] + (uint32_t)sum_old;
    w[56] = in[56] + 3 * N;
    uint64_t i64[9];
    for (int k = 0; k < 9; k++)
        i64[k] = get64(in, 10 + 2 * k);
    uint64_t cas64 = get64(in, 58);
    for (uint32_t gid = 0; gid < N; gid++) {
        uint32_t v = in[256 + gid];
        uint64_t v64 = (uint64_t)v << 28 ^ gid;
        uint64_t sv64 = (uint64_t)(int64_t)sx(v) << 20 ^ gid;
        w[2] -= v;
        w[3] &= v;
        w[4] |= v;
        w[5] ^= v;
        w[6] = sx(w[6]) > sx(v) ? w[6] : v;
        w[7] = sx(w[7]) < sx(v) ? w[7] : v;
        w[8] = w[8] > v ? w[8] : v;
        w[9] = w[9] < v ? w[9] : v;
        i64[0] += v64;
        i64[1] -= v64;
        i64[2] &= v64;
        i64[3] |= v64;
        i64[4] ^= v64;
        i64[5] = (int64_t)i64[5] > (int64_t)sv64 ? i64[5] : sv64;
        i64[6] = (int64_t)i64[6] < (int64_t)sv64 ? i64[6] : sv64;
        i64[7] = i64[7] > v64 ? i64[7] : v64;
        i64[8] = i64[8] < v64 ? i64[8] : v64;
        cas64 += v64;
    }
    for (int k = 0; k < 9; k++)
        put64(w, 10 + 2 * k, i64[k]);
    put64(w, 58, cas64);
    /* the LDS buffer */
    uint64_t l64a = get64(ldsb, 4), l64m = get64(ldsb, 6);
    for (uint32_t gid = 0; gid < N; gid++) {
        uint32_t v = in[256 + gid];
        uint64_t v64 = (uint64_t)v << 28 ^ gid;
        uint64_t sv64 = (uint64_t)(int64_t)sx(v) << 20 ^ gid;
        ldsb[0] += v;
        ldsb[1] |= v;
        ldsb[2] = ldsb[2] > v ? ldsb[2] : v;
        l64a += v64;
        l64m = (int64_t)l64m < (int64_t)sv64 ? l64m : sv64;
    }
    put64(ldsb, 4, l64a);
    put64(ldsb, 6, l64m);
    for (uint32_t grp = 0; grp < g->groups; grp++) {
        uint32_t ids = 0, *o = w + 64 + 16 * grp;
        for (uint32_t l = 0; l < 64; l++)
            ids += grp * 64 + l + 1;
        m[32 + grp] = m[36 + grp] = m[44 + grp] = 0; /* the winners */
        w[40 + grp] = in[32 + grp] + in[36 + grp] + ids;
        w[48 + grp] = 1;
        w[52 + grp] = 1;
        uint32_t sum = 0, sub = 1000, and = ~0u, or = 0, xr = 0, mx = 0x80000000u, umn = ~0u;
        uint64_t a64 = 0, mx64 = 0, x64 = 291;
        for (uint32_t l = 0; l < 64; l++) {
            uint32_t gid = grp * 64 + l, v = in[256 + gid];
            uint64_t v64 = (uint64_t)v << 28 ^ gid;
            sum += 5 + l;
            sub -= v;
            and &= v;
            or |= v;
            xr ^= v;
            mx = sx(mx) > sx(v) ? mx : v;
            umn = umn < v ? umn : v;
            a64 += v64;
            mx64 = mx64 > v64 ? mx64 : v64;
            x64 ^= v64;
        }
        o[0] = 5 + 64;
        o[1] = sum;
        o[2] = sub;
        o[3] = and;
        o[4] = or;
        o[5] = xr;
        o[6] = mx;
        o[7] = umn;
        o[8] = 7 + ids;
        o[9] = 1;
        put64(o, 10, a64);
        put64(o, 12, mx64);
        put64(o, 14, x64);
    }
}

/* ---- exec_subgroup.ll ---- */
static void init_subgroup(uint32_t *st, const xgeom *g, uint64_t *s)
{
    fill_junk(st, g->mem, s);
    for (int i = 0; i < 128; i++)
        st[i] = xr32(s);
    for (int i = 0; i < 8; i++) /* a subgroup of all odd, one of all even */
        st[8 + i] |= 1, st[24 + i] &= ~1u;
}
static void model_subgroup(const uint32_t *in, uint32_t *w, uint32_t *m, const xgeom *g, uint32_t S)
{
    for (uint32_t gid = 0; gid < 64 * g->groups; gid++) {
        uint32_t l = gid % 64, lane = l % S, sg = gid - lane, x = in[gid];
        const uint32_t *X = in + sg;
        uint32_t *o = w + 128 + 40 * gid;
        uint32_t bal = 0, sum = 0, isum = 0, esum = 0, umn = ~0u, umx = 0, and = ~0u, or = 0, ior = 0;
        uint32_t ismn = 0x7fffffffu, esmx = 0x80000000u, exr = 0, oddsum = 0, nodd = 0, first_odd = S;
        float fsum = 0, fmn = 1e30f, ifmx = -1e30f;
        int all = 1, any = 0, alleq = 1;
        for (uint32_t i = 0; i < S; i++) {
            uint32_t y = X[i];
            if (y & 1) {
                bal |= 1u << i;
                oddsum += y;
                nodd++;
                if (first_odd == S)
                    first_odd = i;
                any = 1;
            } else {
                all = 0;
            }
            if (y >> 31 != X[0] >> 31)
                alleq = 0;
            sum += y;
            umn = umn < y ? umn : y;
            umx = umx > y ? umx : y;
            and &= y;
            or |= y;
            fsum += (float)(y & 0xffff);
            float f = (float)((int32_t)(y & 0xfff) - 2048);
            fmn = fmn < f ? fmn : f;
            if (i <= lane) {
                isum += y;
                ismn = sx(ismn) < sx(y) ? ismn : y;
                ior |= y;
                ifmx = ifmx > f ? ifmx : f;
            }
            if (i < lane) {
                esum += y;
                esmx = sx(esmx) > sx(y) ? esmx : y;
                exr ^= y;
            }
        }
        o[0] = S;
        o[1] = lane;
        o[2] = l / S;
        o[3] = 64 / S;
        o[4] = bal;
        o[5] = 0;
        o[6] = popc32(bal);
        o[7] = popc32(bal & (uint32_t)((2ull << lane) - 1));
        o[8] = popc32(bal & (uint32_t)((1ull << lane) - 1));
        o[9] = x & 1;
        o[10] = X[(lane + 3) % S];
        o[11] = X[lane ^ 1];
        o[12] = lane >= 2 ? X[lane - 2] : 0xdead;
        o[13] = lane + 1 < S ? X[lane + 1] : 0xbeef;
        o[14] = X[2];
        o[15] = X[0];
        o[16] = lane == 0;
        o[17] = (uint32_t)any | (uint32_t)all << 1 | 4u;
        o[18] = sum;
        o[19] = isum;
        o[20] = esum;
        o[21] = umn;
        o[22] = umx;
        o[23] = ismn;
        o[24] = esmx;
        o[25] = and;
        o[26] = ior;
        o[27] = exr;
        o[28] = fbits(fsum);
        o[29] = fbits(fmn);
        o[30] = fbits(ifmx);
        o[31] = lane ^ 2;
        o[32] = X[lane ^ 2];
        if (x & 1) {
            o[33] = first_odd;
            o[34] = lane == first_odd;
            o[35] = oddsum;
            o[36] = nodd;
        } else {
            o[33] = 4096 + (S - nodd);
            o[34] = o[35] = o[36] = 0;
        }
        o[37] = (uint32_t)alleq;
        o[38] = X[0];
        o[39] = 0;
        (void)or;
    }
}

/* ---- exec_int64_double.ll ---- */
static void init_int64(uint32_t *st, const xgeom *g, uint64_t *s)
{
    fill_junk(st, g->mem, s);
    for (int t = 0; t < 64; t++) {
        uint64_t a = xrng(s), b = xrng(s);
        if (t % 16 == 0)
            a = 0;
        if (t % 16 == 1)
            b = 0;
        if (t % 16 == 2)
            b = a;
        if (t % 16 == 3)
            a = (uint64_t)-(int64_t)(a >> 1);
        put64(st, 4 * t, a);
        put64(st, 4 * t + 2, b);
    }
}
static double dtrunc(double x) { return (double)(int64_t)x; }
static double dfloor(double x) { double t = dtrunc(x); return t > x ? t - 1 : t; }
static double dceil(double x) { double t = dtrunc(x); return t < x ? t + 1 : t; }
static double dabs(double x) { return x < 0 ? -x : x; }
static void model_int64(const uint32_t *in, uint32_t *w, uint32_t *m, const xgeom *g, uint32_t S)
{
    for (int t = 0; t < 64; t++) {
        uint64_t a = get64(in, 4 * t), b = get64(in, 4 * t + 2), r[37];
        int64_t sa = (int64_t)a, sb = (int64_t)b;
        uint64_t b1 = b | 1, sh = b & 63;
        int64_t c = (int64_t)((b >> 3) | 1);
        r[0] = a + b;
        r[1] = a - b;
        r[2] = a * b;
        r[3] = a / b1;
        r[4] = a % b1;
        r[5] = (uint64_t)(sa / c);
        r[6] = (uint64_t)(sa % c);
        r[7] = a << sh;
        r[8] = a >> sh;
        r[9] = (uint64_t)(sa >> sh);
        r[10] = a & b;
        r[11] = a | b;
        r[12] = a ^ b;
        r[13] = (uint64_t)(a < b) | (uint64_t)(sa < sb) << 1 | (uint64_t)(a == b) << 2;
        r[14] = (uint64_t)(int64_t)(int32_t)(uint32_t)a;
        r[15] = a < b ? a : b;
        r[16] = sa > sb ? a : b;
        r[17] = popc32((uint32_t)a) + popc32((uint32_t)(a >> 32));
        r[18] = 64;
        for (int i = 63; i >= 0; i--)
            if (a >> i & 1) {
                r[18] = (uint64_t)(63 - i);
                break;
            }
        r[19] = 64;
        for (int i = 0; i < 64; i++)
            if (b >> i & 1) {
                r[19] = (uint64_t)i;
                break;
            }
        double da = (double)(sa >> 40), db = (double)((sb >> 44) | 1);
        r[20] = dbits(da + db);
        r[21] = dbits(da * db);
        r[22] = dbits(da * db / db);
        r[23] = dbits(da - db);
        r[24] = dbits(dabs(da));
        r[25] = dbits(dfloor(da / 8));
        r[26] = dbits(dceil(da / 8));
        r[27] = dbits(dtrunc(da / 8));
        r[28] = (uint64_t)(int64_t)(da * 0.25);
        r[29] = dbits(da * db + 0.5);
        r[30] = (uint64_t)(da < db) | (uint64_t)(da >= db) << 1 | (uint64_t)(da != db) << 2;
        r[31] = dbits((double)(a >> 11));
        r[32] = dbits(dabs(da - 1e6));
        r[33] = dbits(da < db ? da : db);
        r[34] = dbits(da > db ? da : db);
        r[35] = dbits((double)(float)da);
        r[36] = (uint64_t)dabs(da);
        for (int i = 0; i < 37; i++)
            put64(w, 256 + 80 * t + 2 * i, r[i]);
    }
}

/* ---- exec_intrinsics.ll ---- */
static void init_intrinsics(uint32_t *st, const xgeom *g, uint64_t *s)
{
    fill_junk(st, g->mem, s);
    for (int t = 0; t < 64; t++) {
        uint32_t *v = st + 4 * t;
        v[0] = xr32(s), v[1] = xr32(s), v[2] = xr32(s);
        switch (t % 8) {
        case 0: v[0] = 0; break;
        case 1: v[0] = 0x80000000u; break;
        case 2: v[1] = v[0]; break;
        case 3: v[0] = 0xffffffffu; break;
        case 4: v[0] &= 0xff00; v[2] &= ~31u; break;
        case 5: v[1] = 0x7fffffffu; v[0] |= 0x40000000u; v[0] &= 0x7fffffffu; break;
        default: break;
        }
    }
}
static uint32_t bswap32(uint32_t x) { return x >> 24 | (x >> 8 & 0xff00) | (x << 8 & 0xff0000) | x << 24; }
static uint32_t satu_add(uint32_t a, uint32_t b, uint32_t max) { return a + b > max || a + b < a ? max : a + b; }
static int32_t sats(int64_t v, int64_t lo, int64_t hi) { return (int32_t)(v < lo ? lo : v > hi ? hi : v); }
static float qf(uint32_t v) { return (float)(sx(v) >> 22) * 0.25f; }
static void model_intrinsics(const uint32_t *in, uint32_t *w, uint32_t *m, const xgeom *g, uint32_t S)
{
    for (int t = 0; t < 64; t++) {
        uint32_t a = in[4 * t], b = in[4 * t + 1], c = in[4 * t + 2], *o = w + 256 + 32 * t;
        uint32_t s = c & 31;
        o[0] = a < b ? a : b;
        o[1] = a > b ? a : b;
        o[2] = sx(a) < sx(b) ? a : b;
        o[3] = sx(a) > sx(b) ? a : b;
        o[4] = s ? a << s | b >> (32 - s) : a;
        o[5] = s ? b >> s | a << (32 - s) : b;
        o[6] = popc32(a);
        o[7] = 32;
        for (int i = 31; i >= 0; i--)
            if (a >> i & 1) {
                o[7] = (uint32_t)(31 - i);
                break;
            }
        o[8] = 32;
        for (int i = 0; i < 32; i++)
            if (a >> i & 1) {
                o[8] = (uint32_t)i;
                break;
            }
        uint32_t rev = 0;
        for (int i = 0; i < 32; i++)
            rev |= (a >> i & 1) << (31 - i);
        o[9] = rev;
        o[10] = bswap32(a);
        o[11] = sx(a) < 0 ? 0u - a : a;
        o[12] = satu_add(a, b, ~0u);
        o[13] = a > b ? a - b : 0;
        o[14] = (uint32_t)sats((int64_t)sx(a) + sx(b), INT32_MIN, INT32_MAX);
        o[15] = (uint32_t)sats((int64_t)sx(a) - sx(b), INT32_MIN, INT32_MAX);
        o[16] = popc32(a & 0xffff);
        o[17] = 16;
        for (int i = 15; i >= 0; i--)
            if (a >> i & 1) {
                o[17] = (uint32_t)(15 - i);
                break;
            }
        o[18] = 8;
        for (int i = 0; i < 8; i++)
            if (a >> i & 1) {
                o[18] = (uint32_t)i;
                break;
            }
        o[19] = rev >> 24;
        o[20] = (a & 0xff) << 8 | (a >> 8 & 0xff);
        uint64_t ab = (uint64_t)a << 32 | b, bc = (uint64_t)b << 32 | c, s64 = c & 63;
        uint64_t fl = s64 ? ab << s64 | bc >> (64 - s64) : ab;
        o[21] = (uint32_t)fl;
        o[22] = (uint32_t)(fl >> 32);
        o[23] = bswap32(a);
        int bnan = (b & 15) == 0;
        float fa = qf(a), fb = qf(b), fc = qf(c), fbn = bnan ? 1.0f : fb;
        o[24] = o[25] = fbits((float)((double)fa * (double)fbn + (double)fc));
        o[26] = fbits(fa) & 0x7fffffffu;
        o[27] = (fbits(fa) & 0x7fffffffu) | (fbits(fbn) & 0x80000000u);
        o[28] = fbits(bnan ? fa : fa < fb ? fa : fb);
        o[29] = fbits(bnan ? fa : fa > fb ? fa : fb);
        o[30] = satu_add(a & 0xff, b & 0xff, 0xff);
        o[31] = (uint32_t)sats((int64_t)(int16_t)a + (int16_t)b, INT16_MIN, INT16_MAX);
    }
}

/* ---- exec_fma.ll ---- */
/* An operand triple of a float format (w bits, mb fraction bits, eb exponent
 * bits) of kind k: the cases where a fused result differs from a*b+c
 * rounded twice, subnormals, underflow, overflow, cancellation, ties,
 * zeros, infinities and NaNs, random. */
/* an exponent field in [lo, hi] clamped to the finite range, in place */
static uint64_t fexp_in(uint64_t *s, unsigned mb, int lo, int hi, int emax)
{
    lo = lo < 1 ? 1 : lo, hi = hi > emax - 1 ? emax - 1 : hi;
    return (uint64_t)(lo + (int)(xrng(s) % (uint64_t)(hi - lo + 1))) << mb;
}
static void fma_operands(uint64_t *s, unsigned w, unsigned mb, unsigned eb, int k, uint64_t *o)
{
    int bias = (1 << (eb - 1)) - 1, emax = (1 << eb) - 1;
    uint64_t sbit = 1ull << (w - 1), one = (uint64_t)bias << mb, fm = (1ull << mb) - 1, inf = (uint64_t)emax << mb;
#define RS() ((xrng(s) & 1) ? sbit : 0)
#define RF() (xrng(s) & fm)
#define RE(lo, hi) fexp_in(s, mb, lo, hi, emax)
    switch (k) {
    case 0: /* (1 + ulp)(1 - ulp/2) - 1 */
        o[0] = one + 1, o[1] = one - 1, o[2] = sbit | one;
        if (xrng(s) & 1)
            o[0] = one + (xrng(s) & 15), o[1] = one - (xrng(s) & 15) - 1;
        break;
    case 1: /* any bits */
        o[0] = xrng(s), o[1] = xrng(s), o[2] = xrng(s);
        break;
    case 2: /* cancellation: a*b close to -c */
        o[0] = RS() | RE(bias - 3, bias + 3) | RF();
        o[1] = one + (xrng(s) & 7) - 4;
        o[2] = (o[0] ^ sbit) + (xrng(s) & 7) - 3;
        break;
    case 3: /* subnormal operands */
        o[0] = RS() | RF();
        o[1] = RS() | RE(bias - 2, bias + (int)mb) | RF();
        o[2] = RS() | (xrng(s) & 1 ? RF() : RE(1, 3) | RF());
        break;
    case 4: { /* products around the subnormal range */
        int ea = 1 + (int)(xrng(s) % (uint64_t)bias), eb2 = bias - ea + (int)(xrng(s) % (mb + 6)) - (int)mb - 3;
        eb2 = eb2 < 1 ? 1 : eb2 > emax - 1 ? emax - 1 : eb2;
        o[0] = RS() | (uint64_t)ea << mb | RF(), o[1] = RS() | (uint64_t)eb2 << mb | RF();
        o[2] = RS() | (xrng(s) % 3 == 0 ? 0 : xrng(s) & 1 ? RF() : RE(1, 2) | RF());
        break;
    }
    case 5: { /* overflow */
        int ea = bias + (int)(xrng(s) % (uint64_t)bias), eb2 = emax - 1 - ea + bias - 2 + (int)(xrng(s) % 4);
        eb2 = eb2 < 1 ? 1 : eb2 > emax - 1 ? emax - 1 : eb2;
        o[0] = RS() | (uint64_t)ea << mb | RF(), o[1] = RS() | (uint64_t)eb2 << mb | RF();
        o[2] = RS() | RE(emax - 3, emax - 1) | RF();
        break;
    }
    case 6: /* infinities and NaNs among finite values */
        for (int i = 0; i < 3; i++) {
            uint64_t r = xrng(s) % 6;
            o[i] = r == 0 ? RS() | inf : r == 1 ? inf | (RF() | 1) : r == 2 ? RS() : RS() | RE(emax - 2, emax - 1) | RF();
        }
        break;
    case 7: /* zeros */
        o[0] = RS() | (xrng(s) & 1 ? 0 : RE(1, emax - 1) | RF());
        o[1] = RS() | (o[0] & ~sbit ? 0 : RE(1, emax - 1) | RF());
        o[2] = RS() | (xrng(s) & 1 ? 0 : RE(1, emax - 1) | RF());
        break;
    case 8: /* few-bit operands: ties */
        o[0] = RS() | RE(bias - 2, bias + 2) | (RF() & ~(fm >> (mb / 2 + 1)));
        o[1] = RS() | RE(bias - 2, bias + 2) | (RF() & ~(fm >> (mb / 2 + 1)));
        o[2] = xrng(s) & 1 ? RS() : RS() | RE(bias - 2, bias + 2) | (RF() & ~(fm >> 2));
        break;
    case 9: { /* a*b + c rounded in a wider format lands on a tie of this one:
               * (1 + i ulp) * 2^-(mb+1) (1 - i ulp) + (1 + odd ulp): the exact
               * sum is just below the tie, a double rounding goes above it */
        uint64_t i = 1 + (xrng(s) & 15), sg = RS();
        o[0] = sg | (one + i);
        o[1] = sg | (((uint64_t)(bias - (int)mb - 2) << mb) + fm - 2 * i + 1);
        o[2] = sg | (one + (2 * (xrng(s) & 7) + 1));
        break;
    }
    default: /* ordinary values */
        o[0] = RS() | RE(bias - 8, bias + 8) | RF();
        o[1] = RS() | RE(bias - 8, bias + 8) | RF();
        o[2] = RS() | RE(bias - 16, bias + 16) | RF();
        break;
    }
#undef RS
#undef RF
#undef RE
    for (int i = 0; i < 3; i++)
        o[i] &= w == 64 ? ~0ull : (1ull << w) - 1;
}
static void init_fma(uint32_t *st, const xgeom *g, uint64_t *s)
{
    fill_junk(st, g->mem, s);
    for (uint32_t t = 0; t < 1024; t++) {
        uint32_t *v = st + 16 * t;
        uint64_t o[3];
        int k = (int)(t % 16);
        fma_operands(s, 32, 23, 8, k, o);
        for (int i = 0; i < 3; i++)
            v[i] = (uint32_t)o[i];
        fma_operands(s, 64, 52, 11, k, o);
        for (int i = 0; i < 3; i++)
            put64(v, 4 + 2 * (size_t)i, o[i]);
        fma_operands(s, 16, 10, 5, (int)((t / 16) % 16), o);
        for (int i = 0; i < 3; i++)
            v[10 + i] = (uint32_t)o[i] | (xr32(s) & 0xffff0000u);
    }
}
/* f16 fma from the exact value as a 128-bit integer (units of 2^-50). */
static float h2f(uint16_t h)
{
    int e = h >> 10 & 31, m = h & 1023;
    float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(m | 1024), e - 25);
    return h >> 15 ? -v : v;
}
static uint32_t fma_h16(uint16_t a, uint16_t b, uint16_t c)
{
    int fa = a >> 10 & 31, fb = b >> 10 & 31, fc = c >> 10 & 31;
    if (fa == 31 || fb == 31 || fc == 31) {
        float r = h2f(a) * h2f(b) + h2f(c);
        if (fa != 31 && fb != 31)
            return c & 1023 ? 0x7e00u : c;
        return isnan(r) ? 0x7e00u : r > 0 ? 0x7c00u : 0xfc00u;
    }
    int64_t ma = (a & 1023) | (fa ? 1024 : 0), mb = (b & 1023) | (fb ? 1024 : 0), mc = (c & 1023) | (fc ? 1024 : 0);
    int sp = (a ^ b) >> 15 & 1, sc = c >> 15 & 1;
    __int128 p = (__int128)(ma * mb) << ((fa ? fa : 1) + (fb ? fb : 1));
    __int128 cv = (__int128)mc << ((fc ? fc : 1) + 25);
    __int128 v = (sp ? -p : p) + (sc ? -cv : cv);
    if (v == 0)
        return p == 0 && cv == 0 ? (uint32_t)(sp & sc) << 15 : 0;
    int neg = v < 0;
    unsigned __int128 mag = (unsigned __int128)(neg ? -v : v);
    int L = 127;
    while (!(mag >> L & 1))
        L--;
    int E = L - 50, qs = E < -14 ? 26 : L - 10;
    unsigned __int128 q = mag >> qs, rem = mag & (((unsigned __int128)1 << qs) - 1), half = (unsigned __int128)1 << (qs - 1);
    if (rem > half || (rem == half && (q & 1)))
        q++;
    uint32_t bits = E < -14 ? (uint32_t)q : (uint32_t)((E + 14) << 10) + (uint32_t)q;
    if (E > 15 || bits >= 0x7c00)
        bits = 0x7c00;
    return bits | (uint32_t)neg << 15;
}
static void model_fma(const uint32_t *in, uint32_t *w, uint32_t *m, const xgeom *g, uint32_t S)
{
    for (uint32_t t = 0; t < 1024; t++) {
        const uint32_t *v = in + 16 * t;
        uint32_t *o = w + 16384 + 8 * t;
        float fa, fb, fc;
        memcpy(&fa, &v[0], 4), memcpy(&fb, &v[1], 4), memcpy(&fc, &v[2], 4);
        float fr = fmaf(fa, fb, fc);
        o[0] = isnan(fr) ? 0x7fc00000u : fbits(fr);
        double da, db, dc;
        uint64_t x;
        x = get64(v, 4), memcpy(&da, &x, 8);
        x = get64(v, 6), memcpy(&db, &x, 8);
        x = get64(v, 8), memcpy(&dc, &x, 8);
        double dr = fma(da, db, dc);
        put64(o, 2, isnan(dr) ? 0x7ff8000000000000ull : dbits(dr));
        uint16_t ha = (uint16_t)v[10], hb = (uint16_t)v[11], hc = (uint16_t)v[12];
        o[4] = fma_h16(ha, hb, hc);
        o[5] = fma_h16(ha, hb, hc) | fma_h16(hb, hc, ha) << 16;
        fr = fmaf(fb, fa, fc);
        o[6] = o[0], o[7] = isnan(fr) ? 0x7fc00000u : fbits(fr);
    }
}

/* ---- loop_early_exit.ll, nested_loops.ll (one invocation) ---- */
static void init_early(uint32_t *st, const xgeom *g, uint64_t *s)
{
    for (uint32_t i = 0; i < g->mem; i++)
        st[i] = xr32(s) % 11;
    if (xr32(s) % 3)
        st[xr32(s) % g->n] = 7;
}
static void model_early(const uint32_t *in, uint32_t *w, uint32_t *m, const xgeom *g, uint32_t S)
{
    uint32_t i;
    int early = 0;
    for (i = 0; i < g->n; i++) {
        if (w[i] == 7) {
            early = 1;
            break;
        }
        if (w[i] != 3)
            w[i]++;
    }
    w[0] = early ? i : g->n;
}
static void init_nested1(uint32_t *st, const xgeom *g, uint64_t *s)
{
    for (uint32_t i = 0; i < g->mem; i++)
        st[i] = xr32(s) % 23;
}
static void model_nested1(const uint32_t *in, uint32_t *w, uint32_t *m, const xgeom *g, uint32_t S)
{
    uint32_t n = g->n;
    int32_t s = 0, r = 0;
    int done = 0;
    for (uint32_t i = 0; i < n && !done; i++)
        for (uint32_t j = 0; j < n; j++) {
            int32_t v = (int32_t)in[i * n + j];
            s += v;
            if (s > 1000) {
                r = s;
                done = 1;
                break;
            }
            if (v == 5)
                break;
        }
    w[0] = (uint32_t)(done ? r : s);
}

/* ---- switch.ll, irreducible.ll (per invocation, in place) ---- */
static void init_small(uint32_t *st, const xgeom *g, uint64_t *s)
{
    for (uint32_t i = 0; i < g->mem; i++)
        st[i] = xr32(s) % 4 ? xr32(s) % 120 : xr32(s);
}
static void model_switch1(const uint32_t *in, uint32_t *w, uint32_t *m, const xgeom *g, uint32_t S)
{
    for (uint32_t t = 0; t < 64; t++) {
        uint32_t v = in[t];
        switch (v & 7) {
        case 0: w[t] = 7; break;
        case 1:
        case 2: w[t] = v * 3; break;
        case 5: w[t] = v ^ 255; break; /* to join directly, or through def with the same value */
        default: w[t] = 100;
        }
    }
}
static void model_irreducible1(const uint32_t *in, uint32_t *w, uint32_t *m, const xgeom *g, uint32_t S)
{
    for (uint32_t t = 0; t < 64; t++) {
        uint32_t x = in[t];
        int left = x < 50;
        for (;;) {
            x += left ? 3 : 5;
            if (x >= 100)
                break;
            left = !left;
        }
        w[t] = x;
    }
}
/* ---- self_loop_entry.ll: a self loop first, then a do-while ---- */
static void model_self_loop(const uint32_t *in, uint32_t *w, uint32_t *m, const xgeom *g, uint32_t S)
{
    uint32_t k = 10;
    do
        k *= 3;
    while (k < 100000);
    w[0] = k;
}

typedef struct xcase {
    const char *file;
    void (*init)(uint32_t *st, const xgeom *g, uint64_t *s);
    void (*model)(const uint32_t *in, uint32_t *want, uint32_t *mask, const xgeom *g, uint32_t S);
} xcase;

static void init_calls(uint32_t *st, const xgeom *g, uint64_t *s)
{
    for (uint32_t i = 0; i < g->mem; i++)
        st[i] = xr32(s) % 1000;
}
static void model_calls(const uint32_t *in, uint32_t *w, uint32_t *m, const xgeom *g, uint32_t S)
{
    (void)in, (void)m, (void)S;
    uint32_t big = 0;
    for (uint32_t i = 1; i < g->n; i++) {
        uint32_t x = w[i], steps = 0;
        while (!(x <= 1 || steps >= 20)) {
            uint32_t odd = x & 1;
            x = odd ? 3 * x + 1 : x >> 1;
            steps += 1 + odd;
        }
        w[i] = steps;
        big += steps > 10;
    }
    w[0] = big;
}

/* ---- exec_push.ll: n = 0x8badf00d in push word 2, word 3 = 0 ---- */
static void init_push(uint32_t *st, const xgeom *g, uint64_t *s) { fill_junk(st, g->mem, s); }

static void model_push(const uint32_t *in, uint32_t *w, uint32_t *m, const xgeom *g, uint32_t S)
{
    (void)in;
    (void)m;
    (void)S;
    uint32_t n = g->n;
    w[0] = n & 0xffffu;
    w[1] = (n >> 8) & 0xffu;
    w[2] = n >> 24;
    w[3] = n >> 16;
    w[4] = 0;
    w[6] = n;
    w[7] = 0;
    w[8] = n;
    w[9] = 1;
}

static const xcase xcases[] = {
    {"exec_nested.ll", init_nested, model_nested},
    {"exec_switch.ll", init_switch, model_switch},
    {"exec_irreducible.ll", init_irreducible, model_irreducible},
    {"loop_early_exit.ll", init_early, model_early},
    {"nested_loops.ll", init_nested1, model_nested1},
    {"switch.ll", init_small, model_switch1},
    {"irreducible.ll", init_small, model_irreducible1},
    {"self_loop_entry.ll", init_small, model_self_loop},
    {"exec_memory.ll", init_memory, model_memory},
    {"exec_atomics.ll", init_atomics, model_atomics},
    {"exec_subgroup.ll", init_subgroup, model_subgroup},
    {"exec_int64_double.ll", init_int64, model_int64},
    {"exec_intrinsics.ll", init_intrinsics, model_intrinsics},
    {"exec_fma.ll", init_fma, model_fma},
    {"exec_calls.ll", init_calls, model_calls},
    {"exec_push.ll", init_push, model_push},
};

#endif
