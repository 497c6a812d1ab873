/* The buffer-format tests' shared part (test_lift_fmt.c,
 * test_lift_fmt_packed.c): the guest memory layout, the C model of the
 * store conversions (written from the ISA's definitions: NaN gives 0;
 * clamp; UNORM/SNORM scaled by 2^n - 1 / 2^(n-1) - 1; rounded to nearest
 * even; the low n bits stored), input generators, and the program around
 * the instruction under test. Include after wlt_lift_run.h. */
#ifndef WLT_FMT_MODEL_H
#define WLT_FMT_MODEL_H

#define IN_OFF 0x0u    /* 16 bytes a lane: four floats */
#define OUT_OFF 0x2000u /* 8 bytes a lane */

enum { NF_UNORM, NF_SNORM, NF_USCALED, NF_SSCALED };
static const char *const nf_name[4] = {"UNORM", "SNORM", "USCALED", "SSCALED"};

typedef struct fmt {
    unsigned bits, comps, nf, code; /* code: gfx10's unified format number */
    const char *dname;              /* "8_8_8_8" ... */
} fmt;

/* Nearest integer, ties to even, of |d| < 2^52 (without libm: adding and
 * removing 2^52 rounds in the default mode, which is nearest even). */
static double rne(double d)
{
    volatile double big = 0x1p52;
    if (d < 0) {
        volatile double t = -d + big;
        return -(t - big);
    }
    volatile double t = d + big;
    return t - big;
}

static uint32_t conv(float f, unsigned bits, unsigned nf)
{
    if (f != f)
        return 0;
    double d = f, umax = (double)((1u << bits) - 1), smax = (double)((1u << (bits - 1)) - 1), r;
    switch (nf) {
    case NF_UNORM: r = rne((d < 0 ? 0 : d > 1 ? 1 : d) * umax); break;
    case NF_SNORM: r = rne((d < -1 ? -1 : d > 1 ? 1 : d) * smax); break;
    case NF_USCALED: r = rne(d < 0 ? 0 : d > umax ? umax : d); break;
    default: r = rne(d < -smax - 1 ? -smax - 1 : d > smax ? smax : d); break;
    }
    return (uint32_t)(int64_t)r & ((1u << bits) - 1);
}

static uint32_t rnd_state = 0x12345u;
static uint32_t rnd(void)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 17;
    rnd_state ^= rnd_state << 5;
    return rnd_state;
}

static float gen_value(unsigned bits, unsigned nf)
{
    double umax = (double)((1u << bits) - 1), smax = (double)((1u << (bits - 1)) - 1);
    double scale = nf == NF_UNORM ? umax : nf == NF_SNORM ? smax : 1.0;
    uint32_t u;
    float f;
    switch (rnd() % 8) {
    case 0: {
        static const uint32_t edge[] = {0x7fc00000u, 0xffc00001u, 0x7f800001u, 0x7f800000u, 0xff800000u,
                                        0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x00000001u,
                                        0x807fffffu, 0x3f800001u, 0xbf800001u, 0x7f7fffffu, 0x4f000000u};
        u = edge[rnd() % (sizeof edge / sizeof edge[0])];
        memcpy(&f, &u, 4);
        return f;
    }
    case 1: case 2: /* an exact tie k + 0.5 of the scale (where f32 holds it) */
        return (float)(((double)(int)(rnd() % (2 * (unsigned)smax + 3)) - smax - 1 + 0.5) / scale);
    case 3: /* near a tie */
        f = (float)(((double)(int)(rnd() % (unsigned)(umax + 2)) - (nf % 2 ? smax : 0) + 0.5) / scale);
        memcpy(&u, &f, 4);
        u += (rnd() % 5) - 2;
        memcpy(&f, &u, 4);
        return f;
    case 4: /* just beyond the range */
        return (float)((nf % 2 ? -1.0 : 1.0) * (1.0 + (rnd() % 100) / 1000.0) * (nf >= NF_USCALED ? smax + 1 : 1));
    default: /* anywhere in the range and a little beyond */
        return (float)(((double)rnd() / 4294967296.0 * 2.4 - (nf % 2 ? 1.2 : 0.2)) * (nf >= NF_USCALED ? umax : 1.0));
    }
}

static uint32_t rd32(const uint8_t *g, unsigned a)
{
    uint32_t v;
    memcpy(&v, g + a, 4);
    return v;
}

static void init_state(wlx_state *st, unsigned W) { wlt_lr_init(st, W, OUT_OFF); }

static void show_byte(const wlx_state *st, const wlx_state *want, unsigned a, const char *label, unsigned W)
{
    unsigned l = (a >= OUT_OFF ? (a - OUT_OFF) / 8 : (a - IN_OFF) / 16) % 64;
    print_message("  %s w%u: byte 0x%x (lane %u): got 0x%02x want 0x%02x (in 0x%08x 0x%08x 0x%08x 0x%08x)\n", label,
                  W, a, l, st->g[a], want->g[a], rd32(want->g, IN_OFF + 16 * l), rd32(want->g, IN_OFF + 16 * l + 4),
                  rd32(want->g, IN_OFF + 16 * l + 8), rd32(want->g, IN_OFF + 16 * l + 12));
}

static unsigned diff_mem(const wlx_state *st, const wlx_state *want, const char *label, unsigned W)
{
    return wlt_lr_diff(st, want, label, W, show_byte);
}

/* The program's common part: v1 = 16 * lane, v2 = 8 * lane, the V# in
 * s[8:11] (base OUT_OFF, 64 KiB, oob_select 3, word 3 = w3), inputs of the
 * lane in v[4:7]. */
__attribute__((unused)) static void program(char *text, size_t cap, uint32_t w3, const char *op, const char *after)
{
    snprintf(text, cap,
             "v_lshlrev_b32 v1, 4, v0\n"
             "global_load_dwordx4 v[4:7], v1, s[0:1]\n"
             "v_lshlrev_b32 v2, 3, v0\n"
             "s_mov_b32 s8, 0x%x\n"
             "s_mov_b32 s9, 0x%x\n"
             "s_mov_b32 s10, 0x10000\n"
             "s_mov_b32 s11, 0x%x\n"
             "s_waitcnt vmcnt(0)\n"
             "%s\n%s"
             "s_endpgm\n",
             (uint32_t)(WLX_GBASE + OUT_OFF), (uint32_t)((WLX_GBASE + OUT_OFF) >> 32), w3, op, after);
}

/* Runs one format through one path (32-bit components); returns the
 * differing bytes. */
static const char *const nf6[7] = {"UNORM", "SNORM", "USCALED", "SSCALED", "UINT", "SINT", "FLOAT"};

#endif
