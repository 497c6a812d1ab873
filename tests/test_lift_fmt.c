/* Buffer format stores with conversion (frontend/lift/lift_mem_fmt.c), executed.
 *
 * For every 8- and 16-bit UNORM, SNORM, USCALED and SSCALED format of one,
 * two and four components, a program loads four floats a lane and stores
 * them through buffer_store_format_xyzw (the format in the V#, read at run
 * time) or tbuffer_store_format_xyzw (the format in the instruction). It
 * is assembled by llvm-mc-19 (gfx1030, wave64 and wave32), lifted, checked
 * by the wave-IR verifier and run by the reference executor
 * (tests/wlt_wir_exec.h) with holes in EXEC; the whole guest memory
 * afterwards must equal the C model's, whose conversions are written here
 * from the ISA's definitions (NaN gives 0; clamp; UNORM/SNORM scaled by
 * 2^n - 1 / 2^(n-1) - 1; rounded to nearest even; the low n bits stored).
 * Inputs: edge values (NaN, infinities, signed zeros, denormals, exact
 * ties of each scale, values just beyond the ranges) and random ones.
 *
 * The d16 forms likewise: buffer/tbuffer_store_format_d16_* take 16-bit
 * values from VGPR halves (f16 for the float formats, widened exactly,
 * then converted as above; the 16-bit FLOAT/UINT/SINT formats store the
 * bits), buffer/tbuffer_load_format_d16_* put 16-bit components into VGPR
 * halves and keep the halves they do not write (8-bit UNORM/SNORM: the
 * exact quotient rounded to f16, nearest even; SCALED: exact; UINT/SINT
 * extended; 16-bit FLOAT/UINT/SINT: the bits; absent components 0, w 1 or
 * f16 1.0), _d16_hi_x the high half. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "support.h"
#include "wavelift/lift.h"
#include "wlt_wir_exec.h"
#include "wlt_lift_run.h"
#include "wlt_fmt_model.h"

static unsigned run_one(const fmt *f, bool tbuf, unsigned W, unsigned *words)
{
    char text[2048], op[128], label[96];
    uint32_t w3 = (f->code << 12) | (3u << 28); /* oob_select 3: offset < num_records */
    if (tbuf)
        snprintf(op, sizeof op, "tbuffer_store_format_xyzw v[4:7], v2, s[8:11], 0 format:[BUF_FMT_%s_%s] offen",
                 f->dname, nf_name[f->nf]);
    else
        snprintf(op, sizeof op, "buffer_store_format_xyzw v[4:7], v2, s[8:11], 0 offen");
    snprintf(label, sizeof label, "%s_%s %s", f->dname, nf_name[f->nf], tbuf ? "tbuffer" : "buffer");
    program(text, sizeof text, tbuf ? 3u << 28 : w3, op, "");
    static wlx_state st, want;
    init_state(&st, W);
    for (unsigned l = 0; l < 64; l++)
        for (unsigned c = 0; c < 4; c++) {
            float v = gen_value(f->bits, f->nf);
            memcpy(st.g + IN_OFF + 16 * l + 4 * c, &v, 4);
        }
    want = st;
    for (unsigned l = 0; l < W; l++) {
        if (!((want.exec >> l) & 1))
            continue;
        for (unsigned c = 0; c < f->comps; c++) {
            float v;
            memcpy(&v, want.g + IN_OFF + 16 * l + 4 * c, 4);
            uint32_t x = conv(v, f->bits, f->nf);
            memcpy(want.g + OUT_OFF + 8 * l + (f->bits / 8) * c, &x, f->bits / 8);
        }
    }
    wlt_lr_lift_run(text, W, &st, label);
    *words += W * f->comps;
    return diff_mem(&st, &want, label, W);
}

static void format_stores(void **state)
{
    (void)state;
    static const struct { unsigned bits, comps, first; const char *dname; } shapes[] = {
        {8, 1, 1, "8"}, {16, 1, 7, "16"}, {8, 2, 14, "8_8"}, {16, 2, 23, "16_16"},
        {8, 4, 56, "8_8_8_8"}, {16, 4, 65, "16_16_16_16"},
    };
    unsigned runs = 0, ok = 0, comps = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (unsigned nf = 0; nf < 4; nf++) {
            fmt f = {shapes[s].bits, shapes[s].comps, nf, shapes[s].first + nf, shapes[s].dname};
            for (unsigned W = 64; W >= 32; W /= 2)
                for (int tb = 0; tb < (W == 64 ? 2 : 1); tb++) {
                    unsigned bad = run_one(&f, tb, W, &comps);
                    runs++;
                    ok += bad == 0;
                }
        }
    print_message("format stores: 24 formats x {buffer (wave64, wave32), tbuffer (wave64)}: %u programs, %u match "
                  "(%u converted components)\n", runs, ok, comps);
    assert_int_equal(runs, 72);
    assert_int_equal(ok, runs);
}

/* ---- d16 ---- */

static float h2f(uint16_t h)
{
    _Float16 x;
    memcpy(&x, &h, 2);
    return (float)x;
}
static uint16_t f2h_bits(_Float16 x)
{
    uint16_t h;
    memcpy(&h, &x, 2);
    return h;
}

/* u / m rounded to f16, nearest even, exactly (candidates compared in
 * integers: an f16 is a multiple of 2^-24). */
static uint16_t q_to_f16(int64_t u, int64_t m)
{
    _Float16 c0 = (_Float16)((double)u / (double)m);
    uint16_t cand[3], best = 0;
    cand[0] = f2h_bits(c0);
    cand[1] = (uint16_t)(cand[0] + 1);
    cand[2] = (uint16_t)(cand[0] - 1);
    __int128 bd = -1;
    for (unsigned i = 0; i < 3; i++) {
        uint16_t h = cand[i];
        if ((h & 0x7c00) == 0x7c00 || ((cand[0] & 0x7fff) == 0 && i == 2))
            continue;
        __int128 num = (__int128)(int64_t)((double)h2f(h) * 16777216.0); /* exact */
        __int128 d = num * m - (__int128)u * 16777216;
        if (d < 0)
            d = -d;
        if (bd < 0 || d < bd || (d == bd && !(h & 1))) {
            bd = d;
            best = h;
        }
    }
    return best;
}

/* A loaded component of bits/nf (raw: its bits) as the d16 form's 16 bits. */
static uint16_t load16(uint32_t raw, unsigned bits, int nf)
{
    if (bits == 16)
        return (uint16_t)raw; /* FLOAT, UINT, SINT: the bits */
    int32_t s8 = (int8_t)raw;
    switch (nf) {
    case 0: return q_to_f16(raw, 255);                       /* UNORM */
    case 1: return s8 == -128 ? 0xbc00 : q_to_f16(s8, 127);  /* SNORM: -128 is -1 */
    case 2: return f2h_bits((_Float16)(float)raw);           /* USCALED: exact */
    case 3: return f2h_bits((_Float16)(float)s8);            /* SSCALED: exact */
    case 4: return (uint16_t)raw;                            /* UINT: zero-extended */
    default: return (uint16_t)s8;                            /* SINT: sign-extended */
    }
}


/* d16 loads: buffer_load_format_d16_xyzw, tbuffer_load_format_d16_xyz and
 * buffer_load_format_d16_hi_x into v[4:5] (preset), stored out with
 * global_store_dwordx2. */
static unsigned run_load16(unsigned bits, unsigned comps, unsigned first, int nf, const char *dname, int form,
                           unsigned W)
{
    char text[2048], op[160], label[96];
    unsigned code = first + (unsigned)nf;
    uint32_t dsel = 4 | 5 << 3 | 6 << 6 | 7 << 9;
    uint32_t w3 = (code << 12) | (3u << 28) | dsel;
    static const char *const forms[3] = {"buffer_load_format_d16_xyzw", "tbuffer_load_format_d16_xyz",
                                         "buffer_load_format_d16_hi_x"};
    if (form == 1)
        snprintf(op, sizeof op, "%s v[4:5], v2, s[8:11], 0 format:[BUF_FMT_%s_%s] offen", forms[form], dname,
                 nf6[nf]);
    else
        snprintf(op, sizeof op, "%s v%s, v2, s[8:11], 0 offen", forms[form], form == 0 ? "[4:5]" : "4");
    snprintf(label, sizeof label, "%s %s_%s", forms[form], dname, nf6[nf]);
    /* the lane's data: 8 bytes at OUT_OFF + 8 * lane (the V#'s base);
     * v[4:5] preset from the input, written back to IN_OFF + 16 * lane + 8 */
    program(text, sizeof text, w3, op, "global_store_dwordx2 v1, v[4:5], s[0:1] offset:8\n");
    static wlx_state st, want;
    init_state(&st, W);
    for (unsigned l = 0; l < 64; l++) {
        for (unsigned i = 0; i < 16; i++)
            st.g[IN_OFF + 16 * l + i] = (uint8_t)rnd();
        for (unsigned i = 0; i < 8; i++) {
            uint8_t x = (uint8_t)rnd();
            if (rnd() % 4 == 0) /* edges */
                x = (uint8_t[]){0, 0xff, 0x80, 0x7f, 0x81, 0x01, 0x7c, 0xfc}[rnd() % 8];
            st.g[OUT_OFF + 8 * l + i] = x;
        }
    }
    want = st;
    for (unsigned l = 0; l < W; l++) {
        uint8_t *o = want.g + IN_OFF + 16 * l + 8;
        if (!((want.exec >> l) & 1))
            continue; /* nothing stored */
        memcpy(o, want.g + IN_OFF + 16 * l, 8); /* v[4:5] as loaded */
        uint16_t h[4];
        unsigned nb = bits / 8;
        for (unsigned c = 0; c < 4; c++) {
            uint32_t raw = 0;
            if (c < comps)
                memcpy(&raw, want.g + OUT_OFF + 8 * l + nb * c, nb);
            h[c] = c < comps ? load16(raw, bits, nf) : c == 3 ? (nf >= 4 && nf <= 5 ? 1 : 0x3c00) : 0;
        }
        unsigned n = form == 0 ? 4 : form == 1 ? 3 : 0;
        for (unsigned c = 0; c < n; c++)
            memcpy(o + 2 * c, &h[c], 2);
        if (form == 2)
            memcpy(o + 2, &h[0], 2);
    }
    wlt_lr_lift_run(text, W, &st, label);
    return diff_mem(&st, &want, label, W);
}

static void format_loads_d16(void **state)
{
    (void)state;
    static const struct { unsigned bits, comps, first; const char *dname; int nf0, nf1; } shapes[] = {
        {8, 1, 1, "8", 0, 5}, {8, 2, 14, "8_8", 0, 5}, {8, 4, 56, "8_8_8_8", 0, 5},
        {16, 1, 7, "16", 4, 6}, {16, 2, 23, "16_16", 4, 6}, {16, 4, 65, "16_16_16_16", 4, 6},
    };
    unsigned runs = 0, ok = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int nf = shapes[s].nf0; nf <= shapes[s].nf1; nf++)
            for (int form = 0; form < 3; form++)
                for (unsigned W = 64; W >= (form ? 64u : 32u); W /= 2) {
                    unsigned bad = run_load16(shapes[s].bits, shapes[s].comps, shapes[s].first, nf, shapes[s].dname,
                                              form, W);
                    runs++;
                    ok += bad == 0;
                }
    print_message("d16 format loads: 27 formats x {d16_xyzw (wave64, wave32), tbuffer d16_xyz, d16_hi_x "
                  "(wave64)}: %u programs, %u match\n", runs, ok);
    assert_int_equal(runs, 108);
    assert_int_equal(ok, runs);
}

/* A 16-bit register value stored to bits/nf. */
static uint32_t store16(uint16_t h, unsigned bits, int nf)
{
    if (bits == 16 && nf >= 4)
        return h; /* UINT, SINT, FLOAT: the bits */
    float f = h2f(h);
    if (bits == 32) {
        uint32_t u;
        memcpy(&u, &f, 4);
        return u;
    }
    return conv(f, bits, (unsigned)nf);
}

static uint16_t gen_h(void)
{
    static const uint16_t edge[] = {0x7e00, 0xfe01, 0x7c01, 0x7c00, 0xfc00, 0x0000, 0x8000, 0x3c00, 0xbc00,
                                    0x0001, 0x83ff, 0x3c01, 0xbc01, 0x7bff, 0x5bf8, 0x5800, 0x57fc, 0x3800};
    switch (rnd() % 4) {
    case 0: return edge[rnd() % (sizeof edge / sizeof edge[0])];
    case 1: return (uint16_t)rnd();
    default: return (uint16_t)((rnd() & 0x83ff) | ((8 + rnd() % 18) << 10));
    }
}

/* d16 stores: buffer_store_format_d16_xyzw, tbuffer_store_format_d16_xyzw
 * and buffer_store_format_d16_hi_x of v[4:5]. */
static unsigned run_store16(unsigned bits, unsigned comps, unsigned code, int nf, const char *dname, int form,
                            unsigned W)
{
    char text[2048], op[160], label[96];
    uint32_t w3 = (code << 12) | (3u << 28);
    static const char *const forms[3] = {"buffer_store_format_d16_xyzw", "tbuffer_store_format_d16_xyzw",
                                         "buffer_store_format_d16_hi_x"};
    if (form == 1)
        snprintf(op, sizeof op, "%s v[4:5], v2, s[8:11], 0 format:[BUF_FMT_%s_%s] offen", forms[form], dname,
                 nf6[nf]);
    else
        snprintf(op, sizeof op, "%s v%s, v2, s[8:11], 0 offen", forms[form], form == 0 ? "[4:5]" : "4");
    snprintf(label, sizeof label, "%s %s_%s", forms[form], dname, nf6[nf]);
    program(text, sizeof text, w3, op, "");
    static wlx_state st, want;
    init_state(&st, W);
    for (unsigned l = 0; l < 64; l++)
        for (unsigned c = 0; c < 8; c++) {
            uint16_t h = gen_h();
            memcpy(st.g + IN_OFF + 16 * l + 2 * c, &h, 2);
        }
    want = st;
    unsigned nb = bits / 8;
    for (unsigned l = 0; l < W; l++) {
        if (!((want.exec >> l) & 1))
            continue;
        unsigned n = form == 2 ? 1 : comps;
        for (unsigned c = 0; c < n; c++) {
            uint16_t h;
            memcpy(&h, want.g + IN_OFF + 16 * l + 2 * (form == 2 ? 1 : c), 2);
            uint32_t x = store16(h, bits, nf);
            memcpy(want.g + OUT_OFF + 8 * l + nb * c, &x, nb);
        }
    }
    wlt_lr_lift_run(text, W, &st, label);
    return diff_mem(&st, &want, label, W);
}

static void format_stores_d16(void **state)
{
    (void)state;
    static const struct { unsigned bits, comps, first; const char *dname; } shapes[] = {
        {8, 1, 1, "8"}, {16, 1, 7, "16"}, {8, 2, 14, "8_8"}, {16, 2, 23, "16_16"},
        {8, 4, 56, "8_8_8_8"}, {16, 4, 65, "16_16_16_16"}, {32, 1, 20, "32"}, {32, 2, 62, "32_32"},
    };
    unsigned runs = 0, ok = 0, nfmt = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int nf = 0; nf <= 6; nf++) {
            unsigned bits = shapes[s].bits;
            bool storable = bits == 32 ? nf == 6 : bits == 16 ? (nf <= 3 || nf >= 4) : nf <= 3;
            if (!storable)
                continue;
            unsigned code = bits == 32 ? shapes[s].first + 2 : shapes[s].first + (unsigned)nf;
            nfmt++;
            for (int form = 0; form < 3; form++) {
                if (form == 2 && shapes[s].comps != 1)
                    continue; /* _hi_x: a one-component format */
                for (unsigned W = 64; W >= (form ? 64u : 32u); W /= 2) {
                    unsigned bad = run_store16(bits, shapes[s].comps, code, nf, shapes[s].dname, form, W);
                    runs++;
                    ok += bad == 0;
                }
            }
        }
    print_message("d16 format stores: %u formats x {d16_xyzw (wave64, wave32), tbuffer d16_xyzw, d16_hi_x "
                  "(1 component; wave64)}: %u programs, %u match\n", nfmt, runs, ok);
    assert_true(runs >= 100);
    assert_int_equal(ok, runs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(format_stores),
        cmocka_unit_test(format_loads_d16),
        cmocka_unit_test(format_stores_d16),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
