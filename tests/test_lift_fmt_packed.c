/* The packed buffer formats (10_11_11, 11_11_10, 10_10_10_2, 2_10_10_10)
 * and the UINT/SINT format stores below 32 bits (frontend/lift/lift_mem_fmt.c),
 * executed like test_lift_fmt.c: assembled by llvm-mc-19 (gfx1030, wave64
 * and wave32), lifted, verified, run by the reference executor with holes
 * in EXEC, the guest memory compared with a C model. The component layout
 * is derived here from the format's name (the names list the components
 * from the most significant bits down, x in the low bits; Mesa maps
 * R11G11B10_FLOAT to 10_11_11 and R10G10B10A2 to 2_10_10_10); the numeric
 * formats as the ISA defines them (UNORM u / (2^n - 1), SNORM max(s /
 * (2^(n-1) - 1), -1), SCALED, UINT, SINT; FLOAT: the unsigned 10/11-bit
 * float with a 5-bit exponent, bias 15, denormals; a NaN compares as any
 * NaN). A UINT/SINT value a component cannot hold must escape and not be
 * written (whether the hardware clamps or wraps is not documented); stores
 * to the packed FLOAT formats must be refused (tbuffer) or escape. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
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

/* ---- packed formats, and UINT/SINT stores below 32 bits ---- */

/* A format name's component widths, x first: the names list the components
 * from the most significant bits down ("2_10_10_10" is x, y, z in bits
 * [9:0], [19:10], [29:20] and w in [31:30]). Returns the count. */
static unsigned widths_of(const char *dname, unsigned *w)
{
    unsigned v[4], n = 0;
    for (const char *p = dname; *p && n < 4; p++) {
        v[n++] = (unsigned)strtoul(p, (char **)&p, 10);
        if (!*p)
            break;
    }
    for (unsigned i = 0; i < n; i++)
        w[i] = v[n - 1 - i];
    return n;
}

static float ufloat(uint32_t u, unsigned n) /* the unsigned 10/11-bit float: e5, m n-5 */
{
    unsigned mb = n - 5, e = u >> mb, m = u & ((1u << mb) - 1);
    if (e == 31)
        return m ? __builtin_nanf("") : __builtin_inff();
    double x = e ? (1.0 + (double)m / (1 << mb)) * __builtin_ldexp(1.0, (int)e - 15)
                 : (double)m / (1 << mb) * __builtin_ldexp(1.0, -14);
    return (float)x;
}

/* One loaded n-bit component as the 32-bit value (the ISA's numeric formats). */
static uint32_t load32(uint32_t u, unsigned n, int nf)
{
    int32_t sv = (int32_t)(u << (32 - n)) >> (32 - n);
    float f;
    switch (nf) {
    case 0: f = (float)u / (float)((1u << n) - 1); break;
    case 1: f = (float)sv / (float)((1u << (n - 1)) - 1); f = f < -1.0f ? -1.0f : f; break;
    case 2: f = (float)u; break;
    case 3: f = (float)sv; break;
    case 4: return u;
    case 5: return (uint32_t)sv;
    default: f = ufloat(u, n); break;
    }
    uint32_t r;
    memcpy(&r, &f, 4);
    return r;
}

static const struct { const char *dname; unsigned first, nnf; } packed_fmts[] = {
    {"10_11_11", 30, 7}, {"11_11_10", 37, 7}, {"10_10_10_2", 44, 6}, {"2_10_10_10", 50, 6},
};

/* Packed loads: buffer_load_format_xyzw (wave64, wave32) and tbuffer_load_format_xyzw (wave64) of the
 * lane's word, the four registers stored out. */
static unsigned run_packed_load(size_t pf, int nf, bool tbuf, unsigned W)
{
    char text[2048], op[160], label[96];
    unsigned w[4], n = widths_of(packed_fmts[pf].dname, w);
    uint32_t dsel = 4 | 5 << 3 | 6 << 6 | 7 << 9;
    uint32_t w3 = ((packed_fmts[pf].first + (unsigned)nf) << 12) | (3u << 28) | dsel;
    if (tbuf)
        snprintf(op, sizeof op, "tbuffer_load_format_xyzw v[4:7], v2, s[8:11], 0 format:[BUF_FMT_%s_%s] offen",
                 packed_fmts[pf].dname, nf6[nf]);
    else
        snprintf(op, sizeof op, "buffer_load_format_xyzw v[4:7], v2, s[8:11], 0 offen");
    snprintf(label, sizeof label, "%s %s_%s", tbuf ? "tbuffer" : "buffer", packed_fmts[pf].dname, nf6[nf]);
    program(text, sizeof text, tbuf ? (3u << 28) | dsel : w3, op,
            "s_waitcnt vmcnt(0)\nglobal_store_dwordx4 v1, v[4:7], s[0:1]\n");
    static wlx_state st, want;
    init_state(&st, W);
    for (unsigned l = 0; l < 64; l++) {
        uint32_t x = rnd();
        switch (rnd() % 4) {
        case 0: x = (uint32_t[]){0, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0x7c0f83e0u, 0xf81f07c0u}[rnd() % 6]; break;
        case 1: x &= 0x7bdef7bdu; break; /* no field all ones in the exponent */
        default: break;
        }
        memcpy(st.g + OUT_OFF + 8 * l, &x, 4);
    }
    want = st;
    for (unsigned l = 0; l < W; l++) {
        if (!((want.exec >> l) & 1))
            continue;
        uint32_t x = rd32(want.g, OUT_OFF + 8 * l), c[4];
        for (unsigned i = 0, sh = 0; i < 4; i++) {
            if (i < n) {
                c[i] = load32((x >> sh) & ((1u << w[i]) - 1), w[i], nf);
                sh += w[i];
            } else {
                c[i] = nf == 4 || nf == 5 ? 1 : 0x3f800000u;
            }
        }
        memcpy(want.g + IN_OFF + 16 * l, c, 16);
    }
    wlt_lr_lift_run(text, W, &st, label);
    if (nf == 6) /* FLOAT: a NaN is a NaN (its payload is not specified) */
        for (unsigned a = IN_OFF; a < IN_OFF + 16 * 64; a += 4) {
            uint32_t x = rd32(st.g, a), y = rd32(want.g, a);
            if ((x & 0x7fffffffu) > 0x7f800000u && (y & 0x7fffffffu) > 0x7f800000u)
                memcpy(want.g + a, &x, 4);
        }
    return diff_mem(&st, &want, label, W);
}

static void packed_loads(void **state)
{
    (void)state;
    unsigned runs = 0, ok = 0, nfmt = 0;
    for (size_t pf = 0; pf < 4; pf++)
        for (int nf = 0; nf < (int)packed_fmts[pf].nnf; nf++, nfmt++)
            for (unsigned W = 64; W >= 32; W /= 2)
                for (int tb = 0; tb < (W == 64 ? 2 : 1); tb++) {
                    ok += run_packed_load(pf, nf, tb, W) == 0;
                    runs++;
                }
    print_message("packed format loads: %u formats (10_11_11, 11_11_10: UNORM..FLOAT; 10_10_10_2, 2_10_10_10: "
                  "UNORM..SINT) x {buffer (wave64, wave32), tbuffer (wave64)}: %u programs, %u match\n", nfmt,
                  runs, ok);
    assert_int_equal(runs, 78);
    assert_int_equal(ok, runs);
}

/* An integer for an n-bit UINT/SINT component: mostly in range, sometimes not. */
static uint32_t gen_int(unsigned n, int nf)
{
    uint32_t lo = nf == 4 ? 0 : (uint32_t)(-(1 << (n - 1))), hi = nf == 4 ? (1u << n) - 1 : (1u << (n - 1)) - 1;
    switch (rnd() % 8) {
    case 0: return rnd() % 2 ? lo : hi;
    case 1: return (rnd() % 2 ? lo - 1 : hi + 1); /* just outside */
    case 2: return rnd();
    default: return lo + rnd() % (hi - lo + 1);
    }
}

static int int_fits(uint32_t v, unsigned n, int nf)
{
    if (nf == 4)
        return v <= (1u << n) - 1;
    int32_t s = (int32_t)v;
    return s >= -(1 << (n - 1)) && s <= (1 << (n - 1)) - 1;
}

/* Stores of 4 components: packed (w: widths, one word) or not (n-bit
 * components at consecutive bytes). UINT/SINT values a component cannot
 * hold must escape, and their lane's word (packed) or component is not
 * written. */
static unsigned run_int_store(const char *dname, unsigned code, int nf, bool packed, bool tbuf, unsigned W,
                              unsigned *escapes)
{
    char text[2048], op[160], label[96];
    unsigned w[4], n = widths_of(dname, w);
    if (tbuf)
        snprintf(op, sizeof op, "tbuffer_store_format_xyzw v[4:7], v2, s[8:11], 0 format:[BUF_FMT_%s_%s] offen",
                 dname, nf6[nf]);
    else
        snprintf(op, sizeof op, "buffer_store_format_xyzw v[4:7], v2, s[8:11], 0 offen");
    snprintf(label, sizeof label, "%s %s_%s", tbuf ? "tbuffer" : "buffer", dname, nf6[nf]);
    program(text, sizeof text, tbuf ? 3u << 28 : (code << 12) | (3u << 28), op, "");
    static wlx_state st, want;
    init_state(&st, W);
    for (unsigned l = 0; l < 64; l++)
        for (unsigned c = 0; c < 4; c++) {
            unsigned cw = packed ? w[c < n ? c : 0] : w[0];
            uint32_t x;
            if (nf >= 4) {
                x = gen_int(cw, nf);
            } else {
                float f = gen_value(cw, (unsigned)nf);
                memcpy(&x, &f, 4);
            }
            memcpy(st.g + IN_OFF + 16 * l + 4 * c, &x, 4);
        }
    want = st;
    for (unsigned l = 0; l < W; l++) {
        if (!((want.exec >> l) & 1))
            continue;
        uint32_t word = 0;
        int fit = 1;
        for (unsigned c = 0, sh = 0; c < (packed ? n : n); c++) {
            uint32_t x = rd32(want.g, IN_OFF + 16 * l + 4 * c), y;
            unsigned cw = packed ? w[c] : w[0];
            if (nf >= 4) {
                if (!int_fits(x, cw, nf)) {
                    fit = 0;
                    if (!packed)
                        want.escapes++;
                    continue;
                }
                y = x & ((1u << cw) - 1);
            } else {
                float f;
                memcpy(&f, &x, 4);
                y = conv(f, cw, (unsigned)nf);
            }
            if (packed)
                word |= y << sh;
            else
                memcpy(want.g + OUT_OFF + 8 * l + (cw / 8) * c, &y, cw / 8);
            sh += cw;
        }
        if (packed && fit)
            memcpy(want.g + OUT_OFF + 8 * l, &word, 4);
        if (packed && !fit)
            want.escapes++;
    }
    *escapes += want.escapes;
    wlt_lr_lift_run(text, W, &st, label);
    return diff_mem(&st, &want, label, W);
}

static void packed_and_int_stores(void **state)
{
    (void)state;
    unsigned runs = 0, ok = 0, nfmt = 0, esc = 0;
    for (size_t pf = 0; pf < 4; pf++)
        for (int nf = 0; nf <= 5; nf++, nfmt++)
            for (unsigned W = 64; W >= 32; W /= 2)
                for (int tb = 0; tb < (W == 64 ? 2 : 1); tb++) {
                    ok += run_int_store(packed_fmts[pf].dname, packed_fmts[pf].first + (unsigned)nf, nf, true, tb, W,
                                        &esc) == 0;
                    runs++;
                }
    static const struct { const char *dname; unsigned first; } plain[] = {
        {"8", 1}, {"16", 7}, {"8_8", 14}, {"16_16", 23}, {"8_8_8_8", 56}, {"16_16_16_16", 65},
    };
    for (size_t p = 0; p < 6; p++)
        for (int nf = 4; nf <= 5; nf++, nfmt++)
            for (unsigned W = 64; W >= 32; W /= 2)
                for (int tb = 0; tb < (W == 64 ? 2 : 1); tb++) {
                    ok += run_int_store(plain[p].dname, plain[p].first + (unsigned)nf, nf, false, tb, W, &esc) == 0;
                    runs++;
                }
    print_message("packed format stores (UNORM..SINT) and 8/16-bit UINT/SINT stores: %u formats x {buffer "
                  "(wave64, wave32), tbuffer (wave64)}: %u programs, %u match (%u escapes for integers out of "
                  "range, as expected)\n", nfmt, runs, ok, esc);
    assert_int_equal(runs, 108);
    assert_int_equal(ok, runs);
    assert_true(esc > 100);
}

/* Stores to the packed FLOAT formats: refused by name for tbuffer (the
 * format is in the instruction); through the V# each lane escapes and
 * nothing is written. */
static void packed_float_stores(void **state)
{
    (void)state;
    char text[2048];
    program(text, sizeof text, 3u << 28,
            "tbuffer_store_format_xyz v[4:6], v2, s[8:11], 0 format:[BUF_FMT_10_11_11_FLOAT] offen", "");
    char err[1024];
    wl_status st = wlt_lr_lift_status(text, 64, err, sizeof err);
    print_message("tbuffer_store_format_xyz to 10_11_11_FLOAT: %s\n", err);
    assert_int_equal(st, WL_ERR_UNSUPPORTED);
    assert_non_null(strstr(err, "tbuffer_store_format_xyz"));
    assert_non_null(strstr(err, "packed FLOAT"));
    unsigned runs = 0, ok = 0;
    for (unsigned code_ = 36; code_ <= 43; code_ += 7)
        for (unsigned W = 64; W >= 32; W /= 2) {
            program(text, sizeof text, (code_ << 12) | (3u << 28), "buffer_store_format_xyz v[4:6], v2, s[8:11], 0 offen",
                    "");
            static wlx_state s1, want;
            init_state(&s1, W);
            for (unsigned i = 0; i < 64 * 16; i++)
                s1.g[IN_OFF + i] = (uint8_t)rnd();
            want = s1;
            for (unsigned l = 0; l < W; l++)
                want.escapes += (unsigned)((want.exec >> l) & 1);
            wlt_lr_lift_run(text, W, &s1, code_ == 36 ? "buffer 10_11_11_FLOAT" : "buffer 11_11_10_FLOAT");
            ok += diff_mem(&s1, &want, "packed FLOAT store", W) == 0;
            runs++;
        }
    print_message("buffer_store_format_xyz to 10_11_11/11_11_10_FLOAT (wave64, wave32): %u programs, %u with every "
                  "active lane escaped and nothing written\n", runs, ok);
    assert_int_equal(ok, 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(packed_loads),
        cmocka_unit_test(packed_and_int_stores),
        cmocka_unit_test(packed_float_stores),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
