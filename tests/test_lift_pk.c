/* Every operand form of the packed instructions (frontend/lift/lift_valu_pk.c),
 * executed: every v_pk_* opcode that gfx1030 decodes (the 19 VOP3P ones
 * and the VOP2 v_pk_fmac_f16), each source in turn a VGPR, an SGPR, an
 * integer inline constant (0, 1, 7, 64, -1, -7, -16), each of the nine
 * float inline constants and a 32-bit literal, under all four
 * (op_sel, op_sel_hi) choices of that source, with random half selections
 * (and neg_lo/neg_hi for the f16 operations) on the others; then random
 * mixes of forms within the constant bus limits. Likewise v_dot2_f32_f16
 * (VOP3P; op_sel left at its default, which the lifter requires) and the
 * VOP2 v_dot2c_f32_f16, whose S0/S1 are packed f16 sources, and
 * v_fma_mix_f32, whose f16 sources read halves as v_pk_*_f16 does (its f32
 * sources: registers and the constants of unambiguous value). One program an
 * opcode, all of them assembled by one llvm-mc-19 run (gfx1030), lifted,
 * verified, run by the reference executor (wave64; wave32 for every fourth
 * opcode) with holes in EXEC, the results stored to guest memory and
 * compared with the C model below. hand_values: a few results worked out
 * by hand, ACO's `v_pk_add_u16 v, v, 1` first. The model also covers the
 * f32 S2 of the dot product (an f32 operand: float constants as f32). ~4 s
 * of CPU (3 under WL_SUITE_QUICK, wave64 only).
 *
 * The model, written from the ISA (not from the lifter): a VOP3P source is
 * a 32-bit value; the low result half takes half op_sel[i] of source i, the
 * high result half op_sel_hi[i]; neg_lo/neg_hi flip the sign of the f16
 * read for that half. The 32-bit value of a constant is how the hardware
 * supplies it (docs/lift-valu.md, after LLVM's getInlineEncodingV216 and
 * Mesa ACO's Operand::constantValue16): a literal its 32 bits; an integer
 * inline constant sign-extended to 32 bits (so -1 reads 0xffff in either
 * half, 1 reads 1 in the low half and 0 in the high); a float inline
 * constant the f16 value in the low half and 0 in the high for the f16
 * operations, and the f32 value for the integer ones. The f16 values and
 * f32 values are computed here by C conversions of 0.5, 1, 2, 4, their
 * negatives and 1/(2 pi). The arithmetic: f16 add/mul rounded once to
 * nearest even (via float, exact for one f16 operation), fma rounded once
 * (the exact double product plus an error-free sum, rounded to odd and then
 * to f16), min/max in IEEE mode (a signaling NaN gives a NaN, a quiet NaN
 * loses to a number, -0 < +0), denormals kept (clang's mode, the lifter's
 * default); integers modulo 2^16, shifts by S0[3:0] of S1. A NaN result
 * half (f32 result) compares equal to any NaN. */
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

#define IN_OFF 0x000u  /* v1, v2, v3: 256 bytes each */
#define OUT_OFF 0x400u /* results 4g..4g+3 of lane l at OUT_OFF + 1024 g + 16 l */
#define MAXV ((WLX_GSIZE - OUT_OFF) / 256)
#define PROG_SPAN 0x2000u /* program j of an assembly at j * PROG_SPAN */

static unsigned res_addr(unsigned k, unsigned l) { return OUT_OFF + 1024 * (k / 4) + 16 * l + 4 * (k % 4); }

enum { K_ADDF, K_MULF, K_FMAF, K_MINF, K_MAXF, K_FMAC, K_ADD, K_SUB, K_MUL, K_MINU, K_MINI, K_MAXU, K_MAXI,
       K_SHL, K_LSHR, K_ASHR, K_MAD, K_DOT2, K_DOT2C, K_MIX };

static const struct pkop {
    const char *name;
    unsigned nsrc, kind;
} ops[] = {
    {"v_pk_add_f16", 2, K_ADDF},     {"v_pk_mul_f16", 2, K_MULF},     {"v_pk_fma_f16", 3, K_FMAF},
    {"v_pk_min_f16", 2, K_MINF},     {"v_pk_max_f16", 2, K_MAXF},     {"v_pk_fmac_f16", 2, K_FMAC},
    {"v_pk_add_u16", 2, K_ADD},      {"v_pk_add_i16", 2, K_ADD},      {"v_pk_sub_u16", 2, K_SUB},
    {"v_pk_sub_i16", 2, K_SUB},      {"v_pk_mul_lo_u16", 2, K_MUL},   {"v_pk_min_u16", 2, K_MINU},
    {"v_pk_min_i16", 2, K_MINI},     {"v_pk_max_u16", 2, K_MAXU},     {"v_pk_max_i16", 2, K_MAXI},
    {"v_pk_lshlrev_b16", 2, K_SHL},  {"v_pk_lshrrev_b16", 2, K_LSHR}, {"v_pk_ashrrev_i16", 2, K_ASHR},
    {"v_pk_mad_u16", 3, K_MAD},      {"v_pk_mad_i16", 3, K_MAD},
    /* not v_pk_*, but packed f16 sources (and an f32 S2 / accumulator) */
    {"v_dot2_f32_f16", 3, K_DOT2},   {"v_dot2c_f32_f16", 2, K_DOT2C},
    /* source i an f16 (half op_sel[i]) where op_sel_hi[i], else an f32 */
    {"v_fma_mix_f32", 3, K_MIX},
};
#define NOPS (sizeof ops / sizeof ops[0])
#define NPK 20 /* the v_pk_* ones */

static bool is_float(unsigned kind) { return kind <= K_FMAC || kind >= K_DOT2; }
static bool is_vop2(unsigned kind) { return kind == K_FMAC || kind == K_DOT2C; }
static bool is_dot(unsigned kind) { return kind == K_DOT2 || kind == K_DOT2C; }
static bool f32_result(unsigned kind) { return kind >= K_DOT2; }

/* ---- the operand forms ---- */
enum { F_V, F_S, F_I, F_F, F_L };
typedef struct src {
    int form;
    unsigned reg;  /* F_V: v1..v3 (0..2); F_S: s4..s7 (0..3) */
    int32_t ival;  /* F_I */
    unsigned fidx; /* F_F: 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0, 1/(2 pi) */
    uint32_t lit;  /* F_L */
} src;

typedef struct variant {
    src s[3];
    unsigned op_sel, op_sel_hi, neg_lo, neg_hi;
} variant;

static const char *const fnames[9] = {"0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0", "0.15915494"};
static const int32_t ints[7] = {0, 1, 7, 64, -1, -7, -16};
static uint16_t f16c[9];
static uint32_t f32c[9];

static uint16_t UH(_Float16 h)
{
    uint16_t u;
    memcpy(&u, &h, 2);
    return u;
}
static _Float16 H(uint16_t u)
{
    _Float16 h;
    memcpy(&h, &u, 2);
    return h;
}

static void init_consts(void)
{
    static const double v[9] = {0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0, 0.15915494309189533577};
    for (unsigned i = 0; i < 9; i++) {
        float f = (float)v[i];
        memcpy(&f32c[i], &f, 4);
        f16c[i] = UH((_Float16)v[i]);
    }
}

static uint64_t rs = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return (uint32_t)rs;
}

/* ---- the model ---- */
static bool nan16(uint16_t a) { return (a & 0x7c00) == 0x7c00 && (a & 0x3ff); }

static uint16_t minmax16(uint16_t a, uint16_t b, bool max)
{
    bool sa = nan16(a) && !(a & 0x200), sb = nan16(b) && !(b & 0x200);
    if (sa || sb)
        return 0x7e00;
    if (nan16(a))
        return b;
    if (nan16(b))
        return a;
    double x = (double)H(a), y = (double)H(b);
    if (x == y) /* equal, or zeros of both signs: -0 < +0 */
        return max ? (a & b) : (a | b);
    return (max ? x > y : x < y) ? a : b;
}

/* fma(a, b, c) rounded once to f16: the product is exact in double; the
 * sum is made exact by an error-free transformation, rounded to odd in
 * double (53 >= 11 + 2 bits), then to nearest even in f16. */
static uint16_t fma16(uint16_t a, uint16_t b, uint16_t c)
{
    double p = (double)H(a) * (double)H(b), z = (double)H(c), s = p + z;
    if (__builtin_isfinite(s) && __builtin_isfinite(p) && __builtin_isfinite(z)) {
        double bb = s - p, err = (p - (s - bb)) + (z - bb);
        uint64_t u;
        memcpy(&u, &s, 8);
        if (err != 0 && !(u & 1)) { /* one step toward the exact sum (s is not 0 here) */
            u += (err > 0) == (s > 0) ? 1 : (uint64_t)-1;
            memcpy(&s, &u, 8);
        }
    }
    return UH((_Float16)s);
}

static uint16_t op16(unsigned kind, uint16_t a, uint16_t b, uint16_t c)
{
    switch (kind) {
    case K_ADDF: return UH((_Float16)((float)H(a) + (float)H(b)));
    case K_MULF: return UH((_Float16)((float)H(a) * (float)H(b)));
    case K_FMAF: case K_FMAC: return fma16(a, b, c);
    case K_MINF: return minmax16(a, b, false);
    case K_MAXF: return minmax16(a, b, true);
    case K_ADD: return (uint16_t)(a + b);
    case K_SUB: return (uint16_t)(a - b);
    case K_MUL: return (uint16_t)((uint32_t)a * b);
    case K_MAD: return (uint16_t)((uint32_t)a * b + c);
    case K_MINU: return a < b ? a : b;
    case K_MAXU: return a > b ? a : b;
    case K_MINI: return (int16_t)a < (int16_t)b ? a : b;
    case K_MAXI: return (int16_t)a > (int16_t)b ? a : b;
    case K_SHL: return (uint16_t)((uint32_t)b << (a & 15));
    case K_LSHR: return (uint16_t)(b >> (a & 15));
    default: return (uint16_t)((int16_t)b >> (a & 15));
    }
}

typedef struct inputs {
    uint32_t v[3][64];
    uint32_t s[4];
} inputs;

/* The 32-bit value source `s` supplies in lane l. */
static uint32_t src_value(const src *s, bool fl, const inputs *in, unsigned l)
{
    switch (s->form) {
    case F_V: return in->v[s->reg][l];
    case F_S: return in->s[s->reg];
    case F_I: return (uint32_t)s->ival;
    case F_F: return fl ? f16c[s->fidx] : f32c[s->fidx];
    default: return s->lit;
    }
}

/* a * b + z rounded once to f32 (as fma16), a and b of at most 24
 * significant bits (their product exact in double). */
static uint32_t fma32d(double a, double b, double z)
{
    double p = a * b, s = p + z;
    if (__builtin_isfinite(s) && __builtin_isfinite(p) && __builtin_isfinite(z)) {
        double bb = s - p, err = (p - (s - bb)) + (z - bb);
        uint64_t u;
        memcpy(&u, &s, 8);
        if (err != 0 && !(u & 1)) {
            u += (err > 0) == (s > 0) ? 1 : (uint64_t)-1;
            memcpy(&s, &u, 8);
        }
    }
    float r = (float)s;
    uint32_t x;
    memcpy(&x, &r, 4);
    return x;
}

static double F32(uint32_t x)
{
    float f;
    memcpy(&f, &x, 4);
    return f;
}

/* f16 a * f16 b + f32 acc rounded once to f32. */
static uint32_t fma32(uint16_t a, uint16_t b, uint32_t acc) { return fma32d((double)H(a), (double)H(b), F32(acc)); }

/* v_fma_mix_f32: D = fma(S0, S1, S2) in f32, source i the f16 half
 * op_sel[i] of its 32-bit value (as in v_pk_*_f16) where op_sel_hi[i],
 * else the f32 value (float constants as f32); neg_hi is abs, neg_lo
 * neg. */
static uint32_t model_mix(const variant *v, const inputs *in, unsigned l)
{
    double x[3];
    for (unsigned i = 0; i < 3; i++) {
        bool f16 = (v->op_sel_hi >> i) & 1;
        uint32_t w = src_value(&v->s[i], f16, in, l);
        x[i] = f16 ? (double)H((uint16_t)(w >> (16 * ((v->op_sel >> i) & 1)))) : F32(w);
        if ((v->neg_hi >> i) & 1)
            x[i] = __builtin_fabs(x[i]);
        if ((v->neg_lo >> i) & 1)
            x[i] = -x[i];
    }
    return fma32d(x[0], x[1], x[2]);
}

/* v_dot2_f32_f16 / v_dot2c_f32_f16, the ISA's pseudocode: tmp = S2 (D);
 * tmp += S0.f16[0] * S1.f16[0]; tmp += S0.f16[1] * S1.f16[1]. S0/S1 are
 * packed f16 sources (neg_lo/neg_hi on the halves); S2 is an f32 one. */
static uint32_t model_dot(const struct pkop *op, const variant *v, const inputs *in, unsigned l, uint32_t acc)
{
    uint32_t x[2] = {src_value(&v->s[0], true, in, l), src_value(&v->s[1], true, in, l)};
    uint32_t t = op->kind == K_DOT2C ? acc : src_value(&v->s[2], false, in, l);
    for (unsigned h = 0; h < 2; h++) {
        uint16_t y[2];
        for (unsigned i = 0; i < 2; i++) {
            y[i] = (uint16_t)(x[i] >> (16 * h));
            if (((h ? v->neg_hi : v->neg_lo) >> i) & 1)
                y[i] ^= 0x8000;
        }
        t = fma32(y[0], y[1], t);
    }
    return t;
}

static uint32_t model(const struct pkop *op, const variant *v, const inputs *in, unsigned l, uint32_t acc)
{
    bool fl = is_float(op->kind);
    if (is_dot(op->kind))
        return model_dot(op, v, in, l, acc);
    if (op->kind == K_MIX)
        return model_mix(v, in, l);
    uint32_t x[3];
    for (unsigned i = 0; i < op->nsrc; i++)
        x[i] = src_value(&v->s[i], fl, in, l);
    if (op->kind == K_FMAC) /* VOP2: half h of each source, the destination the addend */
        x[2] = acc;
    uint32_t r = 0;
    for (unsigned h = 0; h < 2; h++) {
        uint16_t y[3] = {0, 0, 0};
        unsigned n = op->kind == K_FMAC ? 3 : op->nsrc;
        for (unsigned i = 0; i < n; i++) {
            unsigned sel = op->kind == K_FMAC ? h : ((h ? v->op_sel_hi : v->op_sel) >> i) & 1;
            y[i] = (uint16_t)(x[i] >> (16 * sel));
            if (fl && (((h ? v->neg_hi : v->neg_lo) >> i) & 1))
                y[i] ^= 0x8000;
        }
        r |= (uint32_t)op16(op->kind, y[0], y[1], y[2]) << (16 * h);
    }
    return r;
}

/* ---- generation ---- */
static uint16_t gen_f16(void)
{
    static const uint16_t edge[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7d00, 0x0001, 0x83ff,
                                    0x7bff, 0xfbff, 0x3c00, 0xbc00, 0x0400, 0x3555};
    uint32_t r = rnd();
    switch (r % 8) {
    case 0: return edge[(r >> 3) % (sizeof edge / sizeof edge[0])];
    case 1: return (uint16_t)(r >> 8);
    default: return (uint16_t)(((r >> 8) & 0x83ff) | ((0x30 + (r >> 20) % 0x18) << 8 & 0x7c00)); /* moderate */
    }
}

static uint16_t gen_i16(void)
{
    static const uint16_t edge[] = {0, 1, 2, 15, 16, 17, 0x7fff, 0x8000, 0xffff, 0xfff0, 0x00ff};
    uint32_t r = rnd();
    switch (r % 4) {
    case 0: return edge[(r >> 2) % (sizeof edge / sizeof edge[0])];
    case 1: return (uint16_t)((r >> 8) & 31);
    default: return (uint16_t)(r >> 8);
    }
}

static uint32_t gen_word(bool fl)
{
    return fl ? gen_f16() | (uint32_t)gen_f16() << 16 : gen_i16() | (uint32_t)gen_i16() << 16;
}

/* A literal no inline constant encodes (else llvm-mc would fold it). */
static uint32_t gen_literal(bool fl)
{
    for (;;) {
        uint32_t x = rnd() % 3 ? rnd() : gen_word(fl);
        int32_t sx = (int32_t)x;
        bool inl = sx >= -16 && sx <= 64;
        for (unsigned i = 0; i < 9; i++)
            inl |= x == f16c[i] || x == f32c[i];
        if (!inl)
            return x;
    }
}

/* Constant bus (gfx10): at most two scalar values, SGPRs and the literal;
 * one literal value. */
static bool legal(const variant *v, unsigned n)
{
    unsigned sg = 0, nsg = 0, nlit = 0;
    uint32_t lit = 0;
    for (unsigned i = 0; i < n; i++) {
        if (v->s[i].form == F_S && !((sg >> v->s[i].reg) & 1)) {
            sg |= 1u << v->s[i].reg;
            nsg++;
        }
        if (v->s[i].form == F_L) {
            if (nlit && v->s[i].lit != lit)
                return false;
            lit = v->s[i].lit;
            nlit = 1;
        }
    }
    return nsg + nlit <= 2;
}

/* v_fma_mix_f32: no literal (llvm-mc takes only 16-bit ones), and in an
 * f32 source only the constants whose value does not depend on whether
 * the hardware supplies f32 bits or a widened f16 (0 and the float ones
 * but 1/(2 pi)): the others are not modelled here. */
static bool mix_ok(variant *v)
{
    for (unsigned i = 0; i < 3; i++) {
        if (v->s[i].form != F_V && v->s[i].form != F_S) { /* -|x| written on registers only */
            v->neg_lo &= ~(1u << i);
            v->neg_hi &= ~(1u << i);
        }
        const src *s = &v->s[i];
        bool f32 = !((v->op_sel_hi >> i) & 1);
        if (s->form == F_L || (f32 && s->form == F_I && s->ival != 0) || (f32 && s->form == F_F && s->fidx == 8))
            return false;
    }
    return true;
}

static src rand_src(bool fl, unsigned i)
{
    src s = {F_V, i, 0, 0, 0};
    switch (rnd() % 6) {
    case 0: s.form = F_S; s.reg = rnd() % 4; break;
    case 1: s.form = F_I; s.ival = ints[rnd() % 7]; break;
    case 2: s.form = F_F; s.fidx = rnd() % 9; break;
    case 3: s.form = F_L; s.lit = gen_literal(fl); break;
    default: s.reg = rnd() % 3; break;
    }
    return s;
}

/* The variants of one opcode: each source in each form under the four
 * half selections (the others VGPRs, random selections and negations),
 * then at least `nmix` random mixes, up to a multiple of four. Returns the
 * count. */
static unsigned gen_variants(const struct pkop *op, variant *out, unsigned nmix)
{
    bool fl = is_float(op->kind), fmac = is_vop2(op->kind), dot = is_dot(op->kind);
    unsigned n = 0, nsrc = fmac ? 1 : op->nsrc, nsel = fmac || dot ? 1 : 4, mask = (1u << op->nsrc) - 1;
    unsigned negmask = dot ? 3 : mask; /* v_dot2_f32_f16: no op_sel, no negated S2 (refused) */
    for (unsigned i = 0; i < nsrc; i++)
        for (unsigned f = 0; f < 2 + 7 + 9 + 1; f++)
            for (unsigned sel = 0; sel < nsel; sel++) {
                variant v;
                memset(&v, 0, sizeof v);
                for (unsigned j = 0; j < op->nsrc; j++)
                    v.s[j] = (src){F_V, rnd() % 3, 0, 0, 0};
                src *s = &v.s[i];
                if (f == 1) {
                    s->form = F_S;
                    s->reg = rnd() % 4;
                } else if (f >= 2 && f < 9) {
                    s->form = F_I;
                    s->ival = ints[f - 2];
                } else if (f >= 9 && f < 18) {
                    s->form = F_F;
                    s->fidx = f - 9;
                } else if (f == 18) {
                    s->form = F_L;
                    s->lit = gen_literal(fl);
                }
                if (dot) {
                    v.op_sel_hi = 7;
                } else if (!fmac) {
                    v.op_sel = (rnd() & mask & ~(1u << i)) | (sel & 1) << i;
                    v.op_sel_hi = (rnd() & mask & ~(1u << i)) | (sel >> 1) << i;
                }
                if (!fmac && fl && rnd() % 2) {
                    v.neg_lo = rnd() & negmask;
                    v.neg_hi = rnd() & negmask;
                }
                if (op->kind == K_MIX && !mix_ok(&v))
                    continue;
                out[n++] = v;
            }
    for (unsigned k = 0; k < nmix || n % 4; k++) {
        variant v;
        do {
            memset(&v, 0, sizeof v);
            for (unsigned j = 0; j < op->nsrc; j++)
                v.s[j] = fmac && j == 1 ? (src){F_V, rnd() % 3, 0, 0, 0} : rand_src(fl, j);
            if (v.s[0].form == F_L) /* one literal value an instruction */
                for (unsigned j = 1; j < op->nsrc; j++)
                    if (v.s[j].form == F_L)
                        v.s[j].lit = v.s[0].lit;
            if (!fmac) {
                v.op_sel = dot ? 0 : rnd() & mask;
                v.op_sel_hi = dot ? 7 : rnd() & mask;
                if (fl) {
                    v.neg_lo = rnd() & negmask;
                    v.neg_hi = rnd() & negmask;
                }
            }
        } while (!legal(&v, op->nsrc) || (op->kind == K_MIX && !mix_ok(&v)));
        out[n++] = v;
    }
    return n;
}

static int put_src(char *p, size_t cap, const src *s)
{
    switch (s->form) {
    case F_V: return snprintf(p, cap, "v%u", 1 + s->reg);
    case F_S: return snprintf(p, cap, "s%u", 4 + s->reg);
    case F_I: return snprintf(p, cap, "%d", s->ival);
    case F_F: return snprintf(p, cap, "%s", fnames[s->fidx]);
    default: return snprintf(p, cap, "0x%08x", s->lit);
    }
}

static void put_bits(char *p, size_t cap, const char *name, unsigned bits, unsigned n)
{
    size_t k = strlen(p);
    k += (size_t)snprintf(p + k, cap - k, " %s:[", name);
    for (unsigned i = 0; i < n; i++)
        k += (size_t)snprintf(p + k, cap - k, "%s%u", i ? "," : "", (bits >> i) & 1);
    snprintf(p + k, cap - k, "]");
}

/* The instruction text of variant v, result in v`dst`. */
static void inst_text(char *p, size_t cap, const struct pkop *op, const variant *v, unsigned dst)
{
    size_t k = (size_t)snprintf(p, cap, "%s v%u", op->name, dst);
    bool mix = op->kind == K_MIX; /* neg_lo is written -x, neg_hi |x| */
    for (unsigned i = 0; i < op->nsrc; i++) {
        bool ng = mix && ((v->neg_lo >> i) & 1), ab = mix && ((v->neg_hi >> i) & 1);
        k += (size_t)snprintf(p + k, cap - k, ", %s%s", ng ? "-" : "", ab ? "|" : "");
        k += (size_t)put_src(p + k, cap - k, &v->s[i]);
        k += (size_t)snprintf(p + k, cap - k, "%s", ab ? "|" : "");
    }
    if (is_vop2(op->kind))
        return;
    put_bits(p, cap, "op_sel", v->op_sel, op->nsrc);
    put_bits(p, cap, "op_sel_hi", v->op_sel_hi, op->nsrc);
    if (is_float(op->kind) && op->kind != K_MIX) {
        put_bits(p, cap, "neg_lo", v->neg_lo, op->nsrc);
        put_bits(p, cap, "neg_hi", v->neg_hi, op->nsrc);
    }
}

/* ---- one program an opcode ---- */
typedef struct wlt_buf {
    char *s;
    size_t n, cap;
} wlt_buf;

static void bprintf(wlt_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
    va_end(ap);
    assert_true(n >= 0 && b->n + (size_t)n < b->cap);
    b->n += (size_t)n;
}

/* The program of op's n variants at .org `org` of the assembly: the inputs
 * loaded into v1..v3 and s4..s7, each result into v4..v7 in turn, every
 * four stored by one global_store_dwordx4 (a wave-wide step of the
 * executor). */
static void build_program(wlt_buf *b, unsigned org, const struct pkop *op, const variant *vs, unsigned n,
                          const inputs *in)
{
    bprintf(b, ".org 0x%x\n", org);
    for (unsigned i = 0; i < 4; i++)
        bprintf(b, "s_mov_b32 s%u, 0x%08x\n", 4 + i, in->s[i]);
    bprintf(b,
            "v_lshlrev_b32 v10, 2, v0\n"
            "global_load_dword v1, v10, s[0:1] offset:%u\n"
            "global_load_dword v2, v10, s[0:1] offset:%u\n"
            "global_load_dword v3, v10, s[0:1] offset:%u\n"
            "s_waitcnt vmcnt(0)\n"
            "v_lshlrev_b32 v10, 4, v0\n"
            "v_add_nc_u32 v10, 0x%x, v10\n",
            IN_OFF, IN_OFF + 256, IN_OFF + 512, OUT_OFF);
    for (unsigned j = 0; j < n; j++) {
        unsigned d = 4 + j % 4;
        if (is_vop2(op->kind))
            bprintf(b, "v_mov_b32 v%u, v3\n", d);
        assert_true(b->cap - b->n > 256);
        inst_text(b->s + b->n, b->cap - b->n, op, &vs[j], d);
        b->n += strlen(b->s + b->n);
        bprintf(b, "\n");
        if (j % 4 == 3 || j + 1 == n)
            bprintf(b, "global_store_dwordx4 v10, v[4:7], s[0:1]\nv_add_nc_u32 v10, 0x400, v10\n");
    }
    bprintf(b, "s_endpgm\n");
}

/* Program j of `code` (assembled from programs at j * PROG_SPAN): its
 * bytes up to the last nonzero dword before the next (.org pads with
 * zeros; s_endpgm is not zero). */
static size_t prog_size(const uint8_t *code, size_t size, unsigned j)
{
    size_t a = (size_t)j * PROG_SPAN, e = a + PROG_SPAN < size ? a + PROG_SPAN : size;
    assert_true(a < size);
    while (e > a) {
        uint32_t w;
        memcpy(&w, code + e - 4, 4);
        if (w)
            break;
        e -= 4;
    }
    return e - a;
}

/* Lifts, verifies and runs program j of `code` on *st. */
static void lift_run(const uint8_t *code, size_t size, unsigned j, unsigned W, wlx_state *st, const char *label)
{
    wl_lift_program p;
    wlt_lr_program(&p, code + (size_t)j * PROG_SPAN, prog_size(code, size, j), W);
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = NULL;
    char err[1024] = "";
    if (wl_lift(ctx, &p, &m, err, sizeof err) != WL_OK)
        fail_msg("%s: lift: %s", label, err);
    if (wl_wir_verify(m, err, sizeof err) != WL_OK)
        fail_msg("%s: verify: %s", label, err);
    if (wlx_run(m, st, err, sizeof err) != 0)
        fail_msg("%s: run: %s", label, err);
    LLVMContextDispose(ctx);
}

static bool same_result(uint32_t got, uint32_t want, unsigned kind)
{
    if (got == want)
        return true;
    if (f32_result(kind)) /* an f32 */
        return (got & 0x7fffffff) > 0x7f800000 && (want & 0x7fffffff) > 0x7f800000;
    if (!is_float(kind))
        return false;
    for (unsigned h = 0; h < 2; h++) {
        uint16_t g = (uint16_t)(got >> (16 * h)), w = (uint16_t)(want >> (16 * h));
        if (g != w && !(nan16(g) && nan16(w)))
            return false;
    }
    return true;
}

static uint32_t rd32(const uint8_t *g, unsigned a)
{
    uint32_t x;
    memcpy(&x, g + a, 4);
    return x;
}


/* One opcode's test: its variants, inputs and program text (at .org
 * j * PROG_SPAN of the assembly). */
typedef struct optest {
    const struct pkop *op;
    variant vs[MAXV];
    unsigned n;
    inputs in;
} optest;

static void make_optest(optest *t, const struct pkop *op, wlt_buf *b, unsigned j)
{
    bool fl = is_float(op->kind);
    t->op = op;
    t->n = gen_variants(op, t->vs, op->nsrc == 3 ? 20 : 32);
    assert_true(t->n <= MAXV);
    for (unsigned r = 0; r < 3; r++)
        for (unsigned l = 0; l < 64; l++)
            t->in.v[r][l] = gen_word(fl);
    for (unsigned i = 0; i < 4; i++)
        t->in.s[i] = gen_word(fl);
    build_program(b, j * PROG_SPAN, op, t->vs, t->n, &t->in);
}

/* Runs program j (optest t) in wave W; returns the mismatching results,
 * the first few printed with their instruction. */
static unsigned run_op(const optest *t, const uint8_t *code, size_t size, unsigned j, unsigned W)
{
    const struct pkop *op = t->op;
    const inputs *in = &t->in;
    static wlx_state st, want;
    wlt_lr_init(&st, W, OUT_OFF);
    memset(st.g + OUT_OFF, 0xa5, WLX_GSIZE - OUT_OFF);
    for (unsigned r = 0; r < 3; r++)
        memcpy(st.g + IN_OFF + 256 * r, in->v[r], 256);
    want = st;
    for (unsigned k = 0; k < t->n; k++)
        for (unsigned l = 0; l < W; l++)
            if ((st.exec >> l) & 1) {
                uint32_t x = model(op, &t->vs[k], in, l, in->v[2][l]);
                memcpy(want.g + res_addr(k, l), &x, 4);
            }
    char label[64];
    snprintf(label, sizeof label, "%s w%u", op->name, W);
    lift_run(code, size, j, W, &st, label);
    unsigned bad = 0;
    if (st.faults || st.escapes) {
        print_message("  %s: %u faults (%s), %u escapes\n", label, st.faults, st.fault_msg, st.escapes);
        bad++;
    }
    if (memcmp(st.g, want.g, OUT_OFF) != 0) {
        print_message("  %s: the inputs changed\n", label);
        bad++;
    }
    for (unsigned k = 0; k < t->n; k++) {
        unsigned badl = 0, first = 0;
        for (unsigned l = 0; l < 64; l++) {
            unsigned a = res_addr(k, l);
            if (!same_result(rd32(st.g, a), rd32(want.g, a), op->kind) && !badl++)
                first = l;
        }
        if (badl && bad++ < 6) {
            char tx[256];
            inst_text(tx, sizeof tx, op, &t->vs[k], 4 + k % 4);
            unsigned a = res_addr(k, first);
            print_message("  %s: `%s`: %u lanes differ; lane %u (v1 %08x v2 %08x v3 %08x, s4..s7 %08x %08x "
                          "%08x %08x): got %08x, want %08x\n", label, tx, badl, first, in->v[0][first],
                          in->v[1][first], in->v[2][first], in->s[0], in->s[1], in->s[2], in->s[3],
                          rd32(st.g, a), rd32(want.g, a));
        }
    }
    return bad;
}

static int setup(void **state)
{
    (void)state;
    init_consts();
    return 0;
}

/* By hand, from the rule: the form ACO emits and its neighbours. */
static void hand_values(void **state)
{
    (void)state;
    static const struct { const char *op; uint32_t v1, want; } t[] = {
        {"v_pk_add_u16 v4, v1, 1", 0x00050007, 0x00050008},                 /* high half of 1 is 0 */
        {"v_pk_add_u16 v4, v1, 1 op_sel_hi:[1,0]", 0x00050007, 0x00060008}, /* both halves read the low */
        {"v_pk_add_u16 v4, v1, 1 op_sel:[0,1] op_sel_hi:[1,1]", 0x00050007, 0x00050007},
        {"v_pk_add_u16 v4, v1, -1", 0x00050007, 0x00040006},                /* sign-extended: 0xffffffff */
        {"v_pk_add_u16 v4, v1, 1.0", 0x00050007, 0x3f850007},               /* f32 bits 0x3f800000 */
        {"v_pk_add_u16 v4, v1, 0.15915494 op_sel_hi:[1,0]", 0x00000001, 0xf983f984}, /* 0x3e22f983 */
        {"v_pk_add_f16 v4, v1, 1.0", 0x3c003c00, 0x3c004000},               /* f16 0x3c00, high 0 */
        {"v_pk_add_f16 v4, v1, 1.0 op_sel_hi:[1,0]", 0x3c003c00, 0x40004000},
        {"v_pk_mul_f16 v4, v1, -2.0 op_sel:[0,1] op_sel_hi:[1,0]", 0x3c004000, 0xc0000000}, /* 2*0, 1*-2 */
        {"v_pk_add_f16 v4, v1, 0x3c004000", 0x3c003c00, 0x40004200},        /* a literal: its 32 bits */
        {"v_pk_fmac_f16 v4, 2.0, v1", 0x3c003c00, 0x3c004200},              /* 2*1+1, 0*1+1 */
        {"v_dot2_f32_f16 v4, v1, 1.0, 1.0", 0x40004000, 0x40400000},        /* 1 + 2*1 + 2*0: S2 the f32 1.0 */
        {"v_fma_mix_f32 v4, v1, 2.0, 1.0 op_sel_hi:[1,1,0]", 0x3c003c00, 0x40400000}, /* 1*2 + 1 */
        {"v_fma_mix_f32 v4, v1, 2.0, 1.0 op_sel:[0,1,0] op_sel_hi:[1,1,0]", 0x3c003c00, 0x3f800000}, /* 1*0 + 1 */
    };
    enum { N = sizeof t / sizeof t[0] };
    static char text[N * 512];
    wlt_buf b = {text, 0, sizeof text};
    for (unsigned i = 0; i < N; i++)
        bprintf(&b,
                ".org 0x%x\nv_mov_b32 v1, 0x%08x\nv_mov_b32 v4, 0x3c003c00\n%s\nv_lshlrev_b32 v10, 2, v0\n"
                "global_store_dword v10, v4, s[0:1] offset:%u\ns_endpgm\n",
                i * PROG_SPAN, t[i].v1, t[i].op, OUT_OFF);
    uint8_t *code;
    size_t size = wlt_lr_assemble(text, 64, &code);
    unsigned bad = 0;
    for (unsigned i = 0; i < N; i++) {
        static wlx_state st;
        wlt_lr_init(&st, 64, OUT_OFF);
        lift_run(code, size, i, 64, &st, t[i].op);
        uint32_t got = rd32(st.g, OUT_OFF), got7 = rd32(st.g, OUT_OFF + 4 * 7);
        if (got != t[i].want || got7 != t[i].want || st.faults) {
            print_message("  `%s` with v1 = %08x: got %08x, want %08x\n", t[i].op, t[i].v1, got, t[i].want);
            bad++;
        }
    }
    free(code);
    print_message("packed constants by hand: %u instructions, %u wrong\n", (unsigned)N, bad);
    assert_int_equal(bad, 0);
}

/* Every opcode, every form: all programs of a wave size assembled by one
 * llvm-mc run; wave64 for every opcode, wave32 (the same per-lane
 * semantics, the other lane count) for every fourth, none under
 * WL_SUITE_QUICK. */
static void every_form(void **state)
{
    (void)state;
    static optest tests[NOPS];
    static char text[NOPS * 16384];
    wlt_buf b = {text, 0, sizeof text};
    for (unsigned j = 0; j < NOPS; j++)
        make_optest(&tests[j], &ops[j], &b, j);
    bool quick = getenv("WL_SUITE_QUICK") != NULL;
    unsigned progs = 0, insts = 0, bad = 0;
    for (unsigned W = 64; W >= (quick ? 64u : 32u); W /= 2) {
        uint8_t *code;
        size_t size = wlt_lr_assemble(text, W, &code);
        for (unsigned j = 0; j < NOPS; j++) {
            if (W == 32 && (quick || j % 4))
                continue;
            bad += run_op(&tests[j], code, size, j, W);
            progs++;
            insts += tests[j].n;
        }
        free(code);
    }
    print_message("packed operand forms: %u v_pk_* opcodes, v_dot2(c)_f32_f16 and v_fma_mix_f32, %u programs "
                  "(wave64, wave32), "
                  "%u instructions run, %u wrong\n", NPK, progs, insts, bad);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hand_values),
        cmocka_unit_test(every_form),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
