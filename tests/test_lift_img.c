/* Image loads, stores and atomics through guest memory (frontend/lift/lift_mem_img.c),
 * executed.
 *
 * Programs assembled by llvm-mc-19 (gfx1030, wave64 and wave32) put a T#
 * in s[8:15] by s_mov_b32, written here from the gfx10.3 layout (Mesa's
 * gfx10-rsrc.json: base address >> 8 in word 0 and word 1 [7:0], FORMAT
 * word 1 [28:20], WIDTH-1 in word 1 [31:30] and word 2 [11:0], HEIGHT-1
 * word 2 [27:14], DST_SEL word 3 [11:0], SW_MODE [24:20], TYPE [31:28],
 * PITCH-1 word 4 [13:0]) for a linear 2-D image of 7 x 8 texels with a row
 * pitch of 9 texels (or PITCH 0, as RADV writes it: the width aligned to 256
 * bytes, AddrLib's rule), and access texel (lane & 7, lane >> 3): column 7
 * lies outside the image. The lifted program runs on the reference executor
 * (tests/wlt_wir_exec.h) with holes in EXEC; the guest memory afterwards
 * must equal the C model's (a store's components past DMASK written as 0,
 * the "default zero" LLVM's AMDGPU backend assumes), which computes
 * addresses from the layout and
 * conversions from the ISA's definitions (UNORM u / (2^n - 1) and SNORM
 * max(s / (2^(n-1) - 1), -1) in f32, integers extended, absent components
 * 0 and w 1, then DST_SEL; out of range: 0 read, nothing written). Also: a
 * null T# (all zero) reads 0 without an escape; a tiled SW_MODE and a
 * level above 0 escape (WL_ESC_INSTRUCTION) in every lane that reaches
 * them; point samples (image_sample*) against a model of the samplers'
 * texel selection and addressing modes, with the escapes it names;
 * compare samples, 3-D samples, gathers and queries are refused by name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "support.h"
#include "wavelift/lift.h"
#include "wlt_wir_exec.h"
#include "wlt_lift_run.h"
#include "wlt_fmt_model.h"

#define IMG_OFF 0x4000u /* the image: 8 rows of at most 256 bytes */
#define IMG_W 7u
#define IMG_H 8u
#define PITCH 9u
enum { TY_2D = 9 };

typedef struct tsharp {
    uint32_t fmt, dsel, sw_mode, type, base_level, last_level;
} tsharp;

/* The row pitch in texels: PITCH (9) above the width, or (pitch_field 0,
 * as RADV leaves it) the width aligned to 256 bytes (AddrLib's rule) */
static unsigned pitch_field = PITCH - 1;
static unsigned row_pitch(unsigned bpt) { return pitch_field + 1 > IMG_W ? pitch_field + 1 : (IMG_W * bpt + 255) / 256 * 256 / bpt; }

static void tsharp_words(const tsharp *t, uint32_t w[8])
{
    uint64_t a = (WLX_GBASE + IMG_OFF) >> 8;
    memset(w, 0, 8 * sizeof w[0]);
    w[0] = (uint32_t)a;
    w[1] = (uint32_t)(a >> 32) & 0xff;
    w[1] |= t->fmt << 20 | ((IMG_W - 1) & 3) << 30;
    w[2] = ((IMG_W - 1) >> 2) | (IMG_H - 1) << 14 | 1u << 31;
    w[3] = t->dsel | t->base_level << 12 | t->last_level << 16 | t->sw_mode << 20 | t->type << 28;
    w[4] = pitch_field;
}

/* v2 = x, v3 = y of the lane's texel, v1 = 16 * lane, the T# in s[8:15] */
static void img_program(char *text, size_t cap, const uint32_t w[8], const char *op, const char *after)
{
    snprintf(text, cap,
             "v_lshlrev_b32 v1, 4, v0\n"
             "global_load_dwordx4 v[4:7], v1, s[0:1]\n"
             "v_and_b32 v2, 7, v0\n"
             "v_lshrrev_b32 v3, 3, v0\n"
             "s_mov_b32 s8, 0x%x\ns_mov_b32 s9, 0x%x\ns_mov_b32 s10, 0x%x\ns_mov_b32 s11, 0x%x\n"
             "s_mov_b32 s12, 0x%x\ns_mov_b32 s13, 0x%x\ns_mov_b32 s14, 0x%x\ns_mov_b32 s15, 0x%x\n"
             "s_waitcnt vmcnt(0)\n"
             "%s\n"
             "s_waitcnt vmcnt(0)\n"
             "%s"
             "s_endpgm\n",
             w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], op, after);
}

static unsigned texel_addr(unsigned x, unsigned y, unsigned bpt) { return IMG_OFF + (y * row_pitch(bpt) + x) * bpt; }

typedef struct ifmt {
    unsigned code, bits, comps, nf; /* nf: 0 UNORM, 1 SNORM, 4 UINT, 5 SINT, 6 FLOAT */
    const char *name;
} ifmt;

static const ifmt fmts[] = {
    {56, 8, 4, 0, "8_8_8_8_UNORM"}, {57, 8, 4, 1, "8_8_8_8_SNORM"}, {60, 8, 4, 4, "8_8_8_8_UINT"},
    {61, 8, 4, 5, "8_8_8_8_SINT"},  {1, 8, 1, 0, "8_UNORM"},         {23, 16, 2, 0, "16_16_UNORM"},
    {28, 16, 2, 5, "16_16_SINT"},   {20, 32, 1, 4, "32_UINT"},       {22, 32, 1, 6, "32_FLOAT"},
    {75, 32, 4, 4, "32_32_32_32_UINT"}, {77, 32, 4, 6, "32_32_32_32_FLOAT"},
    /* 2 and 8 bytes a texel */
    {14, 8, 2, 0, "8_8_UNORM"}, {11, 16, 1, 4, "16_UINT"}, {62, 32, 2, 4, "32_32_UINT"},
    {69, 16, 4, 4, "16_16_16_16_UINT"},
};

/* A loaded component as its 32-bit register value (the ISA's conversions) */
static uint32_t load32(uint32_t raw, unsigned bits, unsigned nf)
{
    float f;
    uint32_t u;
    int32_t s = bits == 32 ? (int32_t)raw : (int32_t)(raw << (32 - bits)) >> (32 - bits);
    switch (nf) {
    case 0: f = (float)raw / (float)((1u << bits) - 1); break;
    case 1: f = (float)s / (float)((1u << (bits - 1)) - 1); if (f < -1.0f) f = -1.0f; break;
    case 4: return raw;
    case 5: return (uint32_t)s;
    default: return raw;
    }
    memcpy(&u, &f, 4);
    return u;
}

static uint32_t one32(unsigned nf) { return nf == 4 || nf == 5 ? 1u : 0x3f800000u; }

static void fill_image(wlx_state *st)
{
    for (unsigned i = 0; i < 16 * IMG_H * 16; i++) /* 16 texels a row at most: 256 bytes */
        st->g[IMG_OFF + i] = (uint8_t)rnd();
}

/* image_load with dmask into v[4:7] (the rest kept), stored to IN_OFF + 16 * lane */
static unsigned run_load(const ifmt *f, unsigned dmask, uint32_t dsel, unsigned W)
{
    char text[2048], op[160], label[96];
    tsharp t = {f->code, dsel, 0, TY_2D, 0, 0};
    uint32_t w[8];
    tsharp_words(&t, w);
    unsigned n = (unsigned)__builtin_popcount(dmask);
    static const char *const regs[5] = {"", "v4", "v[4:5]", "v[4:6]", "v[4:7]"};
    snprintf(op, sizeof op, "image_load %s, v[2:3], s[8:15] dmask:0x%x dim:SQ_RSRC_IMG_2D unorm", regs[n], dmask);
    snprintf(label, sizeof label, "%s dmask 0x%x dsel 0x%03x", f->name, dmask, dsel);
    img_program(text, sizeof text, w, op, "global_store_dwordx4 v1, v[4:7], s[0:1]\n");
    static wlx_state st, want;
    init_state(&st, W);
    for (unsigned i = 0; i < 64 * 16; i++)
        st.g[IN_OFF + i] = (uint8_t)rnd();
    fill_image(&st);
    want = st;
    unsigned bpt = f->bits / 8 * f->comps;
    for (unsigned l = 0; l < W; l++) {
        if (!((want.exec >> l) & 1))
            continue;
        unsigned x = l & 7, y = l >> 3;
        uint32_t comp[4];
        for (unsigned c = 0; c < 4; c++) {
            uint32_t raw = 0;
            if (c < f->comps)
                memcpy(&raw, want.g + texel_addr(x, y, bpt) + c * (f->bits / 8), f->bits / 8);
            comp[c] = c < f->comps ? load32(raw, f->bits, f->nf) : c == 3 ? one32(f->nf) : 0;
        }
        unsigned j = 0;
        for (unsigned c = 0; c < 4; c++) {
            if (!((dmask >> c) & 1))
                continue;
            unsigned sel = (dsel >> (3 * c)) & 7;
            uint32_t v = sel == 0 ? 0 : sel == 1 ? one32(f->nf) : comp[sel - 4];
            if (x >= IMG_W)
                v = 0;
            memcpy(want.g + IN_OFF + 16 * l + 4 * j++, &v, 4);
        }
    }
    wlt_lr_lift_run(text, W, &st, label);
    return diff_mem(&st, &want, label, W);
}

static void loads(void **state)
{
    (void)state;
    unsigned bad = 0, runs = 0;
    uint32_t ident = 4 | 5 << 3 | 6 << 6 | 7 << 9, swz = 6 | 5 << 3 | 4 << 6 | 1 << 9;
    for (unsigned W = 32; W <= 64; W += 32)
        for (unsigned i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
            bad += run_load(&fmts[i], 0xf, ident, W);
            bad += run_load(&fmts[i], 0x9, swz, W);
            pitch_field = 0;
            bad += run_load(&fmts[i], 0x1, ident, W);
            pitch_field = PITCH - 1;
            runs += 3;
        }
    print_message("image_load: %u runs, %u differing bytes\n", runs, bad);
    assert_int_equal(bad, 0);
}

/* image_store of v[4:7] (floats or integers from the input) with DMASK
 * giving `given` components: the format's others are written as 0 */
static unsigned run_store(const ifmt *f, unsigned given, unsigned W)
{
    char text[2048], op[160], label[96];
    tsharp t = {f->code, 4 | 5 << 3 | 6 << 6 | 7 << 9, 0, TY_2D, 0, 0};
    uint32_t w[8];
    tsharp_words(&t, w);
    static const char *const regs[5] = {"", "v4", "v[4:5]", "v[4:6]", "v[4:7]"};
    snprintf(op, sizeof op, "image_store %s, v[2:3], s[8:15] dmask:0x%x dim:SQ_RSRC_IMG_2D unorm", regs[given],
             (1u << given) - 1);
    snprintf(label, sizeof label, "store %s of %u", f->name, given);
    img_program(text, sizeof text, w, op, "");
    static wlx_state st, want;
    init_state(&st, W);
    fill_image(&st);
    for (unsigned l = 0; l < 64; l++)
        for (unsigned c = 0; c < 4; c++) {
            uint32_t v;
            if (f->nf == 0 || f->nf == 1) {
                float x = gen_value(f->bits, f->nf == 0 ? NF_UNORM : NF_SNORM);
                memcpy(&v, &x, 4);
            } else if (f->bits == 32) {
                v = rnd();
            } else { /* a value the component holds */
                v = rnd() & ((1u << f->bits) - 1);
                if (f->nf == 5)
                    v = (uint32_t)((int32_t)(v << (32 - f->bits)) >> (32 - f->bits));
            }
            memcpy(st.g + IN_OFF + 16 * l + 4 * c, &v, 4);
        }
    want = st;
    unsigned bpt = f->bits / 8 * f->comps;
    for (unsigned l = 0; l < W; l++) {
        unsigned x = l & 7, y = l >> 3;
        if (!((want.exec >> l) & 1) || x >= IMG_W)
            continue;
        for (unsigned c = 0; c < f->comps; c++) {
            uint32_t v = 0;
            if (c < given)
                memcpy(&v, want.g + IN_OFF + 16 * l + 4 * c, 4);
            if (f->nf == 0 || f->nf == 1) {
                float fv;
                memcpy(&fv, &v, 4);
                v = conv(fv, f->bits, f->nf == 0 ? NF_UNORM : NF_SNORM);
            }
            memcpy(want.g + texel_addr(x, y, bpt) + c * (f->bits / 8), &v, f->bits / 8);
        }
    }
    wlt_lr_lift_run(text, W, &st, label);
    return diff_mem(&st, &want, label, W);
}

static void stores(void **state)
{
    (void)state;
    unsigned bad = 0, runs = 0;
    for (unsigned W = 32; W <= 64; W += 32)
        for (unsigned i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
            if (fmts[i].nf == 6 && fmts[i].bits != 32)
                continue;
            bad += run_store(&fmts[i], fmts[i].comps, W);
            pitch_field = 0;
            bad += run_store(&fmts[i], fmts[i].comps, W);
            pitch_field = PITCH - 1;
            runs += 2;
            if (fmts[i].comps > 1) { /* the last component past DMASK */
                bad += run_store(&fmts[i], fmts[i].comps - 1, W);
                runs++;
            }
        }
    print_message("image_store: %u runs, %u differing bytes\n", runs, bad);
    assert_int_equal(bad, 0);
}

/* image_atomic_add glc on a 32_UINT image: lanes (x & 3, y) share texels;
 * the old values come back in v4, stored out */
static void atomics(void **state)
{
    (void)state;
    unsigned bad = 0;
    for (unsigned W = 32; W <= 64; W += 32) {
        char text[2048];
        tsharp t = {20, 4 | 0 << 3 | 0 << 6 | 1 << 9, 0, TY_2D, 0, 0};
        uint32_t w[8];
        tsharp_words(&t, w);
        img_program(text, sizeof text, w,
                "v_and_b32 v2, 3, v2\nimage_atomic_add v4, v[2:3], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm glc",
                "v_mov_b32 v5, 0\nglobal_store_dword v1, v5, s[0:1]\n");
        static wlx_state st, want;
        init_state(&st, W);
        fill_image(&st);
        for (unsigned l = 0; l < 64; l++) {
            uint32_t v = l + 1;
            memcpy(st.g + IN_OFF + 16 * l, &v, 4);
        }
        want = st;
        for (unsigned l = 0; l < W; l++) {
            if (!((want.exec >> l) & 1))
                continue;
            unsigned x = l & 3, y = l >> 3;
            uint32_t old, add = l + 1, z = 0;
            memcpy(&old, want.g + texel_addr(x, y, 4), 4);
            old += add;
            memcpy(want.g + texel_addr(x, y, 4), &old, 4);
            memcpy(want.g + IN_OFF + 16 * l, &z, 4);
        }
        wlt_lr_lift_run(text, W, &st, "image_atomic_add");
        bad += diff_mem(&st, &want, "image_atomic_add", W);
    }
    assert_int_equal(bad, 0);
}

/* A null T# reads 0 (no escape); a tiled SW_MODE, a base level of 1 and a
 * TYPE other than the DIM escape in every active lane inside the image */
static void null_and_escapes(void **state)
{
    (void)state;
    static const struct { uint32_t sw, type, bl, ll; unsigned esc; const char *what; } cases[] = {
        {0, 0, 0, 0, 0, "null T#"}, {24, TY_2D, 0, 0, 1, "tiled"}, {0, TY_2D, 1, 1, 1, "base level 1"},
        {0, 8, 0, 0, 1, "1-D T#, 2-D dim"}, {0, TY_2D, 0, 2, 1, "levels 0..2"},
    };
    unsigned bad = 0;
    for (unsigned W = 32; W <= 64; W += 32)
        for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            char text[2048];
            tsharp t = {56, 4 | 5 << 3 | 6 << 6 | 7 << 9, cases[i].sw, cases[i].type, cases[i].bl, cases[i].ll};
            uint32_t w[8];
            if (cases[i].type == 0)
                memset(w, 0, sizeof w);
            else
                tsharp_words(&t, w);
            img_program(text, sizeof text, w, "image_load v[4:7], v[2:3], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D unorm",
                    "global_store_dwordx4 v1, v[4:7], s[0:1]\n");
            static wlx_state st, want;
            init_state(&st, W);
            fill_image(&st);
            want = st;
            uint32_t zero[4] = {0};
            for (unsigned l = 0; l < W; l++)
                if ((want.exec >> l) & 1) {
                    if (!cases[i].esc)
                        memcpy(want.g + IN_OFF + 16 * l, zero, 16);
                    else if ((l & 7) < IMG_W)
                        want.escapes++;
                }
            wlt_lr_lift_run(text, W, &st, cases[i].what);
            if (cases[i].esc) /* what an escaping lane loaded is not a result: only the escapes count */
                memcpy(st.g, want.g, sizeof st.g);
            bad += diff_mem(&st, &want, cases[i].what, W);
        }
    assert_int_equal(bad, 0);
}

/* ---- point samples (image_sample*, lift_mem_img.c img_sample) ---------- */

/* The samplers' texel selection along one axis of n texels (Vulkan's and
 * D3D's: floor of the coordinate in texels, for a gather's footprint of
 * the coordinate less half a texel, plus the offset); *ok is 0 where the
 * lifting must escape: within 1/64 of a texel of a boundary (the
 * hardware's fixed-point coordinate could round either way) unless exactly
 * on one in exact arithmetic, NaN or beyond 16,384 texels */
static int axis_first(float c, unsigned n, int unnorm, int gather, int off, int *ok)
{
    double u = (unnorm ? (double)c : (double)c * n) - (gather ? 0.5 : 0.0);
    int exact = unnorm || !(n & (n - 1));
    double fl = floor(u), fr = u - fl;
    *ok = fabs(u) < 16384.0 && !(fr < 1.0 / 64 && !(fr == 0 && exact)) && !(fr > 1 - 1.0 / 64);
    return (int)fl + off;
}

/* texel i under addressing mode `mode`, or -1 (an escape): a border
 * mode outside the image, unnormalized coordinates with a mode other than
 * a clamp */
static int address(int i, unsigned n, unsigned mode, int unnorm)
{
    if (unnorm && mode != 2 && mode != 4 && mode != 6)
        return -1;
    int N = (int)n;
    switch (mode) {
    case 0: return ((i % N) + N) % N;
    case 1: { int m = ((i % (2 * N)) + 2 * N) % (2 * N); return m < N ? m : 2 * N - 1 - m; }
    case 2: return i < 0 ? 0 : i >= N ? N - 1 : i;
    case 3: { int m = i < 0 ? -1 - i : i; return m >= N ? N - 1 : m; }
    default: return i >= 0 && i < N ? i : -1;
    }
}

/* image_sample_lz (and _o, _l) of a 7 x 8 32_UINT image: per lane a
 * coordinate pair from IN_OFF (x an integer from -3 to 9 plus a fraction of
 * 0, 1/4, 1/2, 3/4, 0.995 or 0.004: the last two escape), under each addressing
 * mode, normalized (the width 7 is not a power of two: exact texel corners
 * escape too) and unnormalized; a bilinear filter escapes every lane */
static unsigned run_sample(unsigned W, unsigned mx, unsigned my, int unnorm, int bilinear, const char *form)
{
    char text[4096], op[1024], label[128];
    tsharp t = {20, 4 | 0 << 3 | 0 << 6 | 1 << 9, 0, TY_2D, 0, 0};
    uint32_t w[8];
    tsharp_words(&t, w);
    uint32_t samp[4] = {mx | my << 3 | (unsigned)unnorm << 15, 0xfff000u, bilinear ? 1u << 20 | 1u << 22 : 0, 0};
    int has_o = strstr(form, "_o") != NULL, has_l = !strcmp(form, "image_sample_l") || !strcmp(form, "image_sample_l_o");
    /* the address: [offset] x y [lod]; v[4:7] hold x, y, offset, lod */
    const char *addr = has_o ? (has_l ? "v[8:11]" : "v[8:10]") : (has_l ? "v[9:11]" : "v[9:10]");
    snprintf(op, sizeof op,
             "s_mov_b32 s16, 0x%x\ns_mov_b32 s17, 0x%x\ns_mov_b32 s18, 0x%x\ns_mov_b32 s19, 0x%x\n"
             "v_mov_b32 v8, v6\nv_mov_b32 v9, v4\nv_mov_b32 v10, v5\nv_mov_b32 v11, v7\n"
             "%s v12, %s, s[8:15], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D",
             samp[0], samp[1], samp[2], samp[3], form, addr);
    snprintf(label, sizeof label, "%s modes %u/%u %s%s W=%u", form, mx, my, unnorm ? "unnormalized" : "normalized",
             bilinear ? " bilinear" : "", W);
    int gather = !strncmp(form, "image_gather4", 13);
    if (gather) { /* four texels into v[12:15] */
        char *at = strstr(op, " v12, ");
        memcpy(at, " v[12:15], ", 11);
        snprintf(at + 11, sizeof op - (size_t)(at + 11 - op), "%s, s[8:15], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D", addr);
    }
    img_program(text, sizeof text, w, op,
                gather ? "global_store_dwordx4 v1, v[12:15], s[0:1]\n" : "global_store_dword v1, v12, s[0:1]\n");
    static wlx_state st, want;
    init_state(&st, W);
    fill_image(&st);
    static const float frac[6] = {0.0f, 0.25f, 0.5f, 0.75f, 0.995f, 0.004f};
    int ox[64], oy[64];
    for (unsigned l = 0; l < 64; l++) {
        float x = (float)((int)(l % 13) - 3) + frac[l % 6], y = (float)((int)(l / 5 % 12) - 2) + frac[(l / 3) % 4];
        if (!unnorm) {
            x /= (float)IMG_W;
            y /= (float)IMG_H;
        }
        ox[l] = has_o ? (int)(l % 5) - 2 : 0; /* 6-bit signed offsets: x in bits 5:0, y in 13:8 */
        oy[l] = has_o ? 1 - (int)(l % 3) : 0;
        uint32_t o = ((uint32_t)ox[l] & 63) | ((uint32_t)oy[l] & 63) << 8;
        float lod = 0.5f * (float)(l % 4);
        memcpy(st.g + IN_OFF + 16 * l, &x, 4);
        memcpy(st.g + IN_OFF + 16 * l + 4, &y, 4);
        memcpy(st.g + IN_OFF + 16 * l + 8, &o, 4);
        memcpy(st.g + IN_OFF + 16 * l + 12, &lod, 4);
    }
    want = st;
    int esc[64] = {0};
    for (unsigned l = 0; l < W; l++) {
        if (!((want.exec >> l) & 1))
            continue;
        float x, y;
        memcpy(&x, want.g + IN_OFF + 16 * l, 4);
        memcpy(&y, want.g + IN_OFF + 16 * l + 4, 4);
        int okx, oky;
        int i0 = axis_first(x, IMG_W, unnorm, gather, ox[l], &okx), j0 = axis_first(y, IMG_H, unnorm, gather, oy[l], &oky);
        int ii[2] = {address(i0, IMG_W, mx, unnorm), address(i0 + 1, IMG_W, mx, unnorm)};
        int jj[2] = {address(j0, IMG_H, my, unnorm), address(j0 + 1, IMG_H, my, unnorm)};
        int e = !okx || !oky || ii[0] < 0 || jj[0] < 0 || (bilinear && !gather) || (gather && (ii[1] < 0 || jj[1] < 0));
        if (e) {
            esc[l] = 1;
            want.escapes++;
            continue;
        }
        if (!gather) {
            memcpy(want.g + IN_OFF + 16 * l, want.g + texel_addr((unsigned)ii[0], (unsigned)jj[0], 4), 4);
            continue;
        }
        /* (i0, j1), (i1, j1), (i1, j0), (i0, j0) */
        static const int order[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
        for (unsigned k = 0; k < 4; k++)
            memcpy(want.g + IN_OFF + 16 * l + 4 * k,
                   st.g + texel_addr((unsigned)ii[order[k][0]], (unsigned)jj[order[k][1]], 4), 4);
    }
    wlt_lr_lift_run(text, W, &st, label);
    for (unsigned l = 0; l < W; l++) /* what an escaping lane read is not a result */
        if (esc[l])
            memcpy(want.g + IN_OFF + 16 * l, st.g + IN_OFF + 16 * l, gather ? 16 : 4);
    return diff_mem(&st, &want, label, W);
}

static void samples(void **state)
{
    (void)state;
    static const unsigned modes[][2] = {{2, 2}, {0, 1}, {1, 0}, {3, 2}, {6, 4}, {0, 2}};
    /* gathers: the footprint's four texels, each addressed; the S#'s
     * filters do not matter (one run with a bilinear S#) */
    static const char *const forms[] = {"image_sample_lz",  "image_sample_l",     "image_sample_lz_o", "image_sample",
                                        "image_gather4_lz", "image_gather4_lz_o", "image_gather4"};
    unsigned bad = 0, runs = 0;
    for (unsigned W = 32; W <= 64; W += 32)
        for (unsigned m = 0; m < sizeof modes / sizeof modes[0]; m++)
            for (int un = 0; un < 2; un++)
                for (unsigned f = 0; f < sizeof forms / sizeof forms[0]; f++, runs++)
                    bad += run_sample(W, modes[m][0], modes[m][1], un, 0, forms[f]);
    bad += run_sample(64, 2, 2, 1, 1, "image_sample_lz");
    bad += run_sample(64, 0, 1, 0, 1, "image_gather4_lz");
    print_message("samples and gathers: %u runs\n", runs + 2);
    assert_int_equal(bad, 0);
}

static void refused(void **state)
{
    (void)state;
    static const char *const ops[] = {
        "image_sample_c v[0:3], v[0:2], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D",
        "image_sample v[0:3], v[0:2], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_3D",
        "image_gather4 v[0:3], v[0:2], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D_ARRAY",
        "image_gather4_c v[0:3], v[0:2], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D",
        "image_get_resinfo v[0:3], v0, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D",
        "image_load_pck v[0:3], v[0:1], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D",
        "image_load v[0:3], v[0:2], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D_MSAA",
        "image_load v[0:4], v[0:1], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D tfe",
        "image_store v[0:1], v[2:3], s[0:7] dmask:0x5 dim:SQ_RSRC_IMG_2D", /* not x, xy, xyz, xyzw */
    };
    unsigned ok = 0, n = sizeof ops / sizeof ops[0];
    for (unsigned i = 0; i < n; i++) {
        char text[256], mn[64];
        snprintf(text, sizeof text, "%s\ns_endpgm\n", ops[i]);
        sscanf(ops[i], "%63s", mn);
        char err[1024], want[96];
        wl_status s = wlt_lr_lift_status(text, 64, err, sizeof err);
        snprintf(want, sizeof want, "unsupported instruction %s ", mn);
        if (s == WL_ERR_UNSUPPORTED && strstr(err, want))
            ok++;
        else
            print_message("  %s: status %d, message \"%s\"\n", ops[i], (int)s, err);
    }
    assert_int_equal(ok, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(loads), cmocka_unit_test(stores), cmocka_unit_test(atomics),
        cmocka_unit_test(null_and_escapes), cmocka_unit_test(samples), cmocka_unit_test(refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
