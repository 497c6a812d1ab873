/* The 32-bit VALU decoder and printer (VOP1, VOP2, VOPC: e32, SDWA, DPP16,
 * DPP8) against LLVM 19, for gfx1010, gfx1013 and gfx1030 in wave64 and
 * wave32.
 *
 * For every opcode number of each format the test builds encodings with
 * varied operand fields (VGPRs and VGPR ranges, SGPRs, special registers,
 * inline constants, literals of chosen bit patterns, every SDWA/DPP field)
 * and then, per target, wave size and format, with one llvm-mc-19 process
 * per step:
 *   1. llvm-mc-19 -disassemble turns the encodings into text; the ones it
 *      rejects must be rejected by our decoder too (WL_ERR_INVALID), and
 *      the ones it accepts must print the same (comments and white space
 *      aside: the "direct" numbers);
 *   2. llvm-mc-19 assembles that text back to bytes (-show-encoding);
 *   3. llvm-mc-19 -disassemble prints those bytes, and our decoder and
 *      printer must produce the same text, size and mnemonic.
 * Each candidate is followed by five `s_nop <n>` marker dwords so that
 * LLVM's output can be split per candidate whatever it decoded.
 *
 * Expectations come only from llvm-mc-19 at test time. The test fails on
 * any mismatch and prints the first ones. It also checks truncated input
 * and runs random dwords through the decoder and printer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "frontend/isa/valu_internal.h"

/* ---- deterministic random numbers ---- */

typedef struct rng {
    uint64_t s;
} rng;

static uint32_t rnd(rng *r)
{
    r->s ^= r->s << 13;
    r->s ^= r->s >> 7;
    r->s ^= r->s << 17;
    return (uint32_t)(r->s >> 16);
}

static unsigned rndn(rng *r, unsigned n)
{
    return n ? rnd(r) % n : 0;
}

/* ---- candidates ---- */

typedef struct cand {
    uint32_t w[3];
    uint8_t nw;
} cand;

typedef struct cvec {
    cand *v;
    size_t n, cap;
} cvec;

static void push(cvec *c, const uint32_t *w, unsigned nw)
{
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 4096;
        c->v = realloc(c->v, c->cap * sizeof(cand));
        assert_non_null(c->v);
    }
    cand *x = &c->v[c->n++];
    memset(x, 0, sizeof(*x));
    memcpy(x->w, w, nw * sizeof(uint32_t));
    x->nw = (uint8_t)nw;
}

static const uint32_t literals[] = {
    0x3f800000, 0xbf800000, 0x3f000000, 0x40800000, 0x3e22f983, 0x3c00, 0xbc00,
    0x3800, 0x4400, 0x3118, 0x3ff00000, 0xbfe00000, 0x40100000, 0x3fc45f30,
    0, 1, 64, 65, 0xfffffff0, 0xffffffef, 0xffff, 0xfff0, 0x10000, 0x13c00,
    0x12345678, 0x80000000, 0xffffffff, 0x7fc00000, 0x8000, 0x3e22, 0xffff3c00,
};

static uint32_t pick_literal(rng *r)
{
    unsigned n = sizeof(literals) / sizeof(literals[0]);
    unsigned k = rndn(r, n + 4);
    return k < n ? literals[k] : rnd(r);
}

/* A 9-bit source encoding of a varied kind. */
static unsigned pick_src9(rng *r)
{
    static const unsigned specials[] = {106, 107, 124, 125, 126, 127, 235, 236, 237,
                                        238, 239, 251, 252, 253, 254};
    switch (rndn(r, 16)) {
    case 0: case 1: case 2: return 256 + rndn(r, 256);
    case 3: return 256 + 250 + rndn(r, 6);
    case 4: case 5: return rndn(r, 106);
    case 6: return 108 + rndn(r, 16);
    case 7: case 8: return specials[rndn(r, sizeof(specials) / sizeof(specials[0]))];
    case 9: case 10: return 128 + rndn(r, 81);
    case 11: case 12: return 240 + rndn(r, 9);
    case 13: case 14: return 255;
    default: return 209 + rndn(r, 24);
    }
}

/* An 8-bit scalar source code (SDWA with S0/S1). */
static unsigned pick_src8(rng *r)
{
    unsigned s = pick_src9(r);
    return s >= 256 ? rndn(r, 106) : s;
}

static unsigned pick_vgpr(rng *r)
{
    return rndn(r, 4) ? rndn(r, 256) : 250 + rndn(r, 6);
}

static uint32_t word0(wl_format fmt, unsigned op, unsigned vdst, unsigned src0, unsigned vsrc1)
{
    switch (fmt) {
    case WL_FMT_VOP1: return 0x7e000000u | vdst << 17 | op << 9 | src0;
    case WL_FMT_VOPC: return 0x7c000000u | op << 17 | vsrc1 << 9 | src0;
    default: return op << 25 | vdst << 17 | vsrc1 << 9 | src0;
    }
}

/* A selector other than 7 (LLVM 19 crashes on 7). */
static unsigned pick_sel(rng *r)
{
    return rndn(r, 7);
}

static uint32_t sdwa_word(rng *r, wl_format fmt, const struct wl_opinfo *info, bool plausible)
{
    uint32_t x = info ? info->extra : 0;
    uint32_t s = 0;
    bool s0 = rndn(r, 3) == 0, s1 = rndn(r, 3) == 0;
    s |= s0 ? pick_src8(r) : rndn(r, 256);
    if (fmt == WL_FMT_VOPC) {
        s |= (uint32_t)rndn(r, 128) << 8;
        s |= (uint32_t)(rndn(r, 2)) << 15;
        if (plausible && !(x & WL_VX_SDWA_SD))
            s &= ~(1u << 15);
    } else {
        s |= (uint32_t)pick_sel(r) << 8 | (uint32_t)rndn(r, 4) << 11;
        s |= (uint32_t)rndn(r, 2) << 13 | (uint32_t)rndn(r, 4) << 14;
        if (plausible && !(x & WL_VX_SDWA_CLAMP))
            s &= ~(1u << 13);
        if (plausible && !(x & WL_VX_SDWA_OMOD))
            s &= ~(3u << 14);
    }
    s |= (uint32_t)pick_sel(r) << 16;
    unsigned m0 = rndn(r, 8), m1 = rndn(r, 8);
    if (plausible) {
        if (!(x & WL_VX_SDWA_SRC0_SEXT)) m0 &= ~1u;
        if (!(x & WL_VX_SDWA_SRC0_FMODS)) m0 &= 1u;
        if (!(x & WL_VX_SDWA_SRC1_SEXT)) m1 &= ~1u;
        if (!(x & WL_VX_SDWA_SRC1_FMODS)) m1 &= 1u;
        if (!(x & WL_VX_SDWA_S0)) s0 = false;
        if (!(x & WL_VX_SDWA_S1)) s1 = false;
        if (!s0) s = (s & ~0xffu) | rndn(r, 256);
    }
    s |= m0 << 19 | (uint32_t)s0 << 23 | (uint32_t)rndn(r, 2) << 22;
    if (fmt != WL_FMT_VOP1 || !plausible) {
        s |= (uint32_t)pick_sel(r) << 24 | m1 << 27 | (uint32_t)s1 << 31;
        s |= (uint32_t)rndn(r, 2) << 30;
    }
    return s;
}

static unsigned pick_dpp_ctrl(rng *r)
{
    static const unsigned odd[] = {0x100, 0x110, 0x120, 0x130, 0x134, 0x138, 0x13c,
                                   0x131, 0x142, 0x143, 0x144, 0x170, 0x1ff};
    switch (rndn(r, 10)) {
    case 0: case 1: case 2: return rndn(r, 256);
    case 3: return 0x101 + rndn(r, 15);
    case 4: return 0x111 + rndn(r, 15);
    case 5: return 0x121 + rndn(r, 15);
    case 6: return 0x140 + rndn(r, 2);
    case 7: return 0x150 + rndn(r, 16);
    case 8: return 0x160 + rndn(r, 16);
    default: return odd[rndn(r, sizeof(odd) / sizeof(odd[0]))];
    }
}

/* Candidates for one opcode number of one format. */
static void gen_op(rng *r, cvec *c, wl_format fmt, unsigned op, const struct wl_opinfo *info)
{
    uint32_t w[3];
    if (!info) {
        for (int i = 0; i < 3; i++) {
            unsigned s0 = i == 0 ? 256 + rndn(r, 256) : pick_src9(r);
            w[0] = word0(fmt, op, i == 2 ? 0 : rndn(r, 256), i == 2 ? 0 : s0,
                         i == 2 ? 0 : rndn(r, 256));
            w[1] = pick_literal(r);
            push(c, w, (w[0] & 0x1ff) == 255 ? 2 : 1);
        }
        return;
    }
    if (info->flags & WL_VF_NO_OPS) {
        w[0] = word0(fmt, op, 0, 0, 0);
        push(c, w, 1);
        w[0] = word0(fmt, op, 1 + rndn(r, 255), pick_src9(r), rndn(r, 256));
        w[1] = 0;
        push(c, w, 2);
        return;
    }
    bool km = info->flags & (WL_VF_MADMK | WL_VF_MADAK);
    /* e32 */
    for (int i = 0; i < 24; i++) {
        unsigned vdst = (info->flags & WL_VF_SDST) ? (rndn(r, 2) ? rndn(r, 128) : rndn(r, 256))
                                                   : pick_vgpr(r);
        unsigned src0 = i < 3 ? 256 + pick_vgpr(r) : pick_src9(r);
        if (i == 3)
            src0 = 255;
        w[0] = word0(fmt, op, vdst, src0, pick_vgpr(r));
        w[1] = pick_literal(r);
        bool lit = src0 == 255 || km || ((info->flags & WL_VF_SDST) && vdst == 255);
        push(c, w, lit ? 2 : 1);
    }
    /* SDWA: plausible ones (fields the table allows) and fully random ones */
    int nsdwa = (info->flags & WL_VF_SDWA) ? 24 : 2;
    for (int i = 0; i < nsdwa; i++) {
        w[0] = word0(fmt, op, pick_vgpr(r), WL_SRC_SDWA,
                     rndn(r, 3) ? rndn(r, 256) : pick_src8(r));
        w[1] = sdwa_word(r, fmt, info, i % 3 != 2);
        push(c, w, 2);
    }
    /* DPP16 */
    int ndpp = (info->flags & WL_VF_DPP) ? 16 : 2;
    for (int i = 0; i < ndpp; i++) {
        w[0] = word0(fmt, op, pick_vgpr(r), WL_SRC_DPP16, pick_vgpr(r));
        unsigned mods = rndn(r, 16);
        if (i % 3 != 2) {
            if (!(info->extra & WL_VX_DPP_SRC0_MODS)) mods &= 0xc;
            if (!(info->extra & WL_VX_DPP_SRC1_MODS)) mods &= 0x3;
        }
        w[1] = pick_vgpr(r) | (uint32_t)pick_dpp_ctrl(r) << 8 | (uint32_t)rndn(r, 8) << 17 |
               mods << 20 | rnd(r) << 24;
        push(c, w, 2);
    }
    /* DPP8 */
    int ndpp8 = (info->flags & WL_VF_DPP8) ? 8 : 1;
    for (int i = 0; i < ndpp8; i++) {
        w[0] = word0(fmt, op, pick_vgpr(r), WL_SRC_DPP8 + rndn(r, 2), pick_vgpr(r));
        w[1] = pick_vgpr(r) | rnd(r) << 8;
        push(c, w, 2);
    }
}

/* ---- running the oracle ---- */

typedef struct target_cfg {
    const char *cpu;
    wl_target target;
    int wave64;
} target_cfg;

static char *mc_cmd(const target_cfg *t, const char *mode, const char *in, const char *err)
{
    char *cmd = malloc(4096);
    assert_non_null(cmd);
    snprintf(cmd, 4096, "%s %s -triple=amdgcn-amd-amdhsa -mcpu=%s -mattr=%cwavefrontsize64 "
             "'%s' 2>'%s'", WL_LLVM_MC, mode, t->cpu, t->wave64 ? '+' : '-', in, err);
    return cmd;
}

/* Drops comments and squashes white space, in place. */
static void normalize(char *s)
{
    char *w = s;
    for (char *p = s; *p;) {
        if (p[0] == '/' && p[1] == '*') {
            char *e = strstr(p + 2, "*/");
            p = e ? e + 2 : p + strlen(p);
            continue;
        }
        *w++ = *p++;
    }
    *w = '\0';
    wlt_squash(s);
}

/* Disassembles every candidate; text[i] is the normalized text of the
 * first instruction LLVM decoded at candidate i, or NULL where LLVM
 * rejected its first dword. Returns the number of candidates LLVM took. */
static size_t oracle_disasm(const char *dir, const target_cfg *t, const cvec *c, char **text)
{
    char in[512], err[512];
    snprintf(in, sizeof(in), "%s/dis.txt", dir);
    snprintf(err, sizeof(err), "%s/dis.err", dir);
    FILE *f = fopen(in, "w");
    assert_non_null(f);
    for (size_t i = 0; i < c->n; i++) {
        for (unsigned k = 0; k < c->v[i].nw; k++) {
            uint32_t x = c->v[i].w[k];
            fprintf(f, "%s0x%02x,0x%02x,0x%02x,0x%02x", k ? "," : "", x & 0xff,
                    (x >> 8) & 0xff, (x >> 16) & 0xff, x >> 24);
        }
        unsigned m = (unsigned)((i + 1) & 0xffff);
        fputc('\n', f);
        for (int k = 0; k < 5; k++)
            fprintf(f, "%s0x%02x,0x%02x,0x80,0xbf", k ? "," : "", m & 0xff, m >> 8);
        fputc('\n', f);
    }
    fclose(f);
    char *cmd = mc_cmd(t, "-disassemble", in, err);
    int status;
    char *out = wlt_run(cmd, &status);
    free(cmd);
    assert_non_null(out);
    if (status != 0)
        fail_msg("llvm-mc -disassemble failed (status %d)", status);
    size_t elen;
    char *errs = (char *)wlt_read_file(err, &elen);
    assert_non_null(errs);
    bool *rejected = calloc(c->n + 1, 1);
    assert_non_null(rejected);
    for (char *p = errs; (p = strstr(p, ": warning: invalid instruction encoding"));) {
        char *q = p;
        while (q > errs && q[-1] != '\n')
            q--;
        unsigned long line = 0, col = 0;
        char *colon = strchr(q, ':');
        if (colon && sscanf(colon, ":%lu:%lu", &line, &col) == 2 && col == 1 && line % 2 == 1 &&
            (line - 1) / 2 < c->n)
            rejected[(line - 1) / 2] = true;
        p++;
    }
    for (size_t i = 0; i < c->n; i++)
        text[i] = NULL;
    /* Chunks end at the `s_nop <n>` markers, which come in order: the
     * first line of the chunk before marker n belongs to candidate n-1. An
     * s_nop that is not the next marker is an ordinary instruction. */
    size_t taken = 0, next = 1;
    char *first = NULL;
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] != '\t' || strstr(line, ".text"))
            continue;
        unsigned m;
        if (sscanf(line, "\ts_nop %i", &m) == 1) {
            if (m == ((next - 1) & 0xffff) && next > 1 && !first)
                continue; /* the rest of the previous marker run */
            if (m == (next & 0xffff)) {
                size_t idx = next - 1;
                if (first && idx < c->n && !rejected[idx]) {
                    text[idx] = strdup(first);
                    normalize(text[idx]);
                    taken++;
                }
                first = NULL;
                next++;
                continue;
            }
        }
        if (!first)
            first = line;
    }
    free(rejected);
    free(errs);
    free(out);
    return taken;
}

/* Assembles the texts; returns the encodings of the instructions it took. */
static void oracle_asm(const char *dir, const target_cfg *t, char **text, size_t n, cvec *out)
{
    char in[512], err[512];
    snprintf(in, sizeof(in), "%s/asm.s", dir);
    snprintf(err, sizeof(err), "%s/asm.err", dir);
    FILE *f = fopen(in, "w");
    assert_non_null(f);
    for (size_t i = 0; i < n; i++)
        if (text[i])
            fprintf(f, "%s\n", text[i]);
    fclose(f);
    char *cmd = mc_cmd(t, "-show-encoding", in, err);
    int status;
    char *res = wlt_run(cmd, &status);
    free(cmd);
    assert_non_null(res);
    for (char *line = strtok(res, "\n"); line; line = strtok(NULL, "\n")) {
        char *e = strstr(line, "; encoding: [");
        if (!e)
            continue;
        uint8_t b[16];
        unsigned nb = 0, v;
        for (char *p = e + 13; nb < sizeof(b) && sscanf(p, "0x%x", &v) == 1;) {
            b[nb++] = (uint8_t)v;
            p = strchr(p, ',');
            if (!p)
                break;
            p++;
        }
        if (nb == 0 || nb % 4 || nb > 12)
            continue;
        uint32_t w[3];
        for (unsigned k = 0; k < nb / 4; k++)
            w[k] = b[4 * k] | b[4 * k + 1] << 8 | b[4 * k + 2] << 16 | (uint32_t)b[4 * k + 3] << 24;
        if (w[0] >> 31)
            continue; /* not a VOP1/VOP2/VOPC encoding */
        push(out, w, nb / 4);
    }
    free(res);
}

/* ---- comparing ---- */

typedef struct stats {
    size_t instances[4][5], matches[4][5]; /* [format slot][venc] */
    uint8_t covered[4][256];
    size_t direct_taken, direct_match, rejected, rejected_ok, asm_failed;
} stats;

static size_t mismatches;

static int fmt_slot(wl_format f)
{
    return f == WL_FMT_VOP1 ? 0 : f == WL_FMT_VOP2 ? 1 : f == WL_FMT_VOPC ? 2 : 3;
}

static void report(const target_cfg *t, const cand *c, const char *llvm, const char *ours,
                   const char *what)
{
    const char *lim = getenv("WLT_MAX_MISMATCHES");
    if (++mismatches > (lim ? strtoul(lim, NULL, 0) : 20))
        return;
    printf("MISMATCH (%s, %s w%d) [", what, t->cpu, t->wave64 ? 64 : 32);
    for (unsigned k = 0; k < c->nw; k++)
        printf("%s0x%08x", k ? " " : "", c->w[k]);
    printf("]\n  llvm: %s\n  ours: %s\n", llvm ? llvm : "(rejected)", ours);
}

static void to_bytes(const uint32_t *w, unsigned nw, uint8_t *bytes)
{
    for (unsigned k = 0; k < nw; k++)
        for (unsigned b = 0; b < 4; b++)
            bytes[4 * k + b] = (uint8_t)(w[k] >> (8 * b));
}

/* Decodes and prints one candidate; returns the status. */
static wl_status ours(const wl_decoder *d, const cand *c, wl_inst *inst, char *buf, size_t cap)
{
    uint8_t bytes[12];
    to_bytes(c->w, c->nw, bytes);
    wl_status st = wl_decode(d, bytes, 4u * c->nw, 0, inst);
    if (st == WL_OK) {
        wl_print(inst, buf, cap);
        normalize(buf);
    } else {
        snprintf(buf, cap, "(error: %s)", wl_status_name(st));
    }
    return st;
}

static void run_target(const target_cfg *t, const char *dir, stats *total)
{
    rng r = {0x9e3779b97f4a7c15ull ^ (uint64_t)t->target * 0x1234567ull ^ (uint64_t)t->wave64};
    wl_decoder d;
    wl_decoder_init(&d, t->target, t->wave64);
    static const wl_format fmts[3] = {WL_FMT_VOP1, WL_FMT_VOP2, WL_FMT_VOPC};
    for (int fi = 0; fi < 3; fi++) {
        wl_format fmt = fmts[fi];
        unsigned nops = fmt == WL_FMT_VOP2 ? 62 : 256;
        cvec c = {0};
        for (unsigned op = 0; op < nops; op++)
            gen_op(&r, &c, fmt, op, wl_valu_lookup(d.isa, fmt, op));
        char **text = calloc(c.n, sizeof(char *));
        assert_non_null(text);
        stats s;
        memset(&s, 0, sizeof(s));
        s.direct_taken = oracle_disasm(dir, t, &c, text);

        /* 1: direct comparison and rejections */
        char buf[512];
        wl_inst inst;
        for (size_t i = 0; i < c.n; i++) {
            wl_status st = ours(&d, &c.v[i], &inst, buf, sizeof(buf));
            if (!text[i]) {
                s.rejected++;
                if (st == WL_ERR_INVALID)
                    s.rejected_ok++;
                else
                    report(t, &c.v[i], NULL, buf, "LLVM rejects");
                continue;
            }
            if (st == WL_OK && strcmp(buf, text[i]) == 0)
                s.direct_match++;
            else
                report(t, &c.v[i], text[i], buf, "direct");
        }

        /* 2 and 3: round trip through the assembler */
        cvec enc = {0};
        oracle_asm(dir, t, text, c.n, &enc);
        char **text3 = calloc(enc.n ? enc.n : 1, sizeof(char *));
        assert_non_null(text3);
        size_t taken3 = oracle_disasm(dir, t, &enc, text3);
        (void)taken3;
        for (size_t i = 0; i < enc.n; i++) {
            const cand *e = &enc.v[i];
            wl_status st = ours(&d, e, &inst, buf, sizeof(buf));
            wl_format f = st == WL_OK ? (wl_format)inst.format : fmt;
            int slot = fmt_slot(f);
            int venc = st == WL_OK ? inst.venc : 0;
            s.instances[slot][venc]++;
            if (!text3[i]) {
                report(t, e, NULL, buf, "round trip: LLVM rejects its own encoding");
                continue;
            }
            bool ok = st == WL_OK && strcmp(buf, text3[i]) == 0 && inst.size == 4u * e->nw;
            if (ok) {
                /* the mnemonic without its encoding suffix */
                size_t n = strcspn(text3[i], " ");
                const char *sfx[] = {"_e32", "_sdwa", "_dpp"};
                for (int k = 0; k < 3; k++) {
                    size_t l = strlen(sfx[k]);
                    if (n > l && strncmp(text3[i] + n - l, sfx[k], l) == 0) {
                        n -= l;
                        break;
                    }
                }
                ok = strlen(inst.name) == n && strncmp(inst.name, text3[i], n) == 0;
            }
            if (ok) {
                s.matches[slot][venc]++;
                s.covered[slot][inst.op] = 1;
            } else {
                report(t, e, text3[i], buf, inst.size != 4u * e->nw ? "round trip (size)"
                                                                     : "round trip");
            }
        }
        s.asm_failed = s.direct_taken > enc.n ? s.direct_taken - enc.n : 0;
        const char *dump = getenv("WLT_DUMP"); /* debugging: LLVM's texts */
        if (dump) {
            FILE *df = fopen(dump, "a");
            for (size_t i = 0; df && i < c.n; i++)
                if (text[i])
                    fprintf(df, "%s\n", text[i]);
            if (df)
                fclose(df);
        }

        int slot = fmt_slot(fmt);
        size_t inst_n = 0, match_n = 0, opsn = 0;
        for (int v = 0; v < 5; v++) {
            inst_n += s.instances[slot][v];
            match_n += s.matches[slot][v];
            total->instances[slot][v] += s.instances[slot][v];
            total->matches[slot][v] += s.matches[slot][v];
        }
        for (int k = 0; k < 256; k++) {
            opsn += s.covered[slot][k];
            total->covered[slot][k] |= s.covered[slot][k];
        }
        printf("%s w%d %s: %zu opcodes, %zu instances, %zu match; direct: %zu decoded by LLVM, "
               "%zu match, %zu rejected, %zu rejected by us; %zu not reassembled\n",
               t->cpu, t->wave64 ? 64 : 32, wl_format_name(fmt), opsn, inst_n, match_n,
               s.direct_taken, s.direct_match, s.rejected, s.rejected_ok, s.asm_failed);
        total->direct_taken += s.direct_taken;
        total->direct_match += s.direct_match;
        total->rejected += s.rejected;
        total->rejected_ok += s.rejected_ok;
        for (size_t i = 0; i < c.n; i++)
            free(text[i]);
        for (size_t i = 0; i < enc.n; i++)
            free(text3[i]);
        free(text);
        free(text3);
        free(c.v);
        free(enc.v);
    }
}

static void valu_matches_llvm(void **state)
{
    (void)state;
    static const target_cfg targets[] = {
        {"gfx1010", WL_GFX1010, 1}, {"gfx1010", WL_GFX1010, 0},
        {"gfx1013", WL_GFX1013, 1}, {"gfx1013", WL_GFX1013, 0},
        {"gfx1030", WL_GFX1030, 1}, {"gfx1030", WL_GFX1030, 0},
    };
    char *dir = wlt_tmpdir();
    assert_non_null(dir);
    stats total;
    memset(&total, 0, sizeof(total));
    mismatches = 0;
    for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++)
        run_target(&targets[i], dir, &total);

    static const char *const venc_names[5] = {"e32", "e64", "SDWA", "DPP16", "DPP8"};
    static const wl_format fmts[3] = {WL_FMT_VOP1, WL_FMT_VOP2, WL_FMT_VOPC};
    printf("\nTotals over all targets and wave sizes (round trip):\n");
    for (int f = 0; f < 3; f++) {
        size_t opsn = 0, in = 0, m = 0;
        for (int k = 0; k < 256; k++)
            opsn += total.covered[f][k];
        for (int v = 0; v < 5; v++) {
            in += total.instances[f][v];
            m += total.matches[f][v];
        }
        printf("%s: %zu opcodes, %zu instances, %zu match (", wl_format_name(fmts[f]), opsn, in, m);
        for (int v = 0, first = 1; v < 5; v++) {
            if (v == 1)
                continue;
            printf("%s%s %zu/%zu", first ? "" : ", ", venc_names[v], total.matches[f][v],
                   total.instances[f][v]);
            first = 0;
        }
        printf(")\n");
    }
    printf("direct: %zu decoded by LLVM, %zu match; %zu rejected by LLVM, %zu rejected by us\n",
           total.direct_taken, total.direct_match, total.rejected, total.rejected_ok);
    if (total.instances[3][0])
        printf("%zu round-trip encodings decoded outside VOP1/VOP2/VOPC\n", total.instances[3][0]);
    printf("%zu mismatches\n", mismatches);

    char cmd[600];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    int st;
    free(wlt_run(cmd, &st));
    free(dir);
    assert_int_equal(mismatches, 0);
    assert_true(total.matches[0][WL_VENC_E32] > 0 && total.matches[1][WL_VENC_SDWA] > 0 &&
                total.matches[1][WL_VENC_DPP16] > 0 && total.matches[1][WL_VENC_DPP8] > 0);
}

/* Cut-off input: a literal, SDWA or DPP dword missing. */
static void truncated(void **state)
{
    (void)state;
    wl_decoder d;
    wl_decoder_init(&d, WL_GFX1030, 1);
    wl_inst inst;
    const uint32_t cases[] = {
        0x7e1402ffu, /* v_mov_b32 v10, literal */
        0x7e1402f9u, /* v_mov_b32 SDWA */
        0x7e1402fau, /* v_mov_b32 DPP16 */
        0x7e1402e9u, /* v_mov_b32 DPP8 */
        0x58143d14u, /* v_fmamk_f32 (K) */
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint8_t b[4];
        for (int k = 0; k < 4; k++)
            b[k] = (uint8_t)(cases[i] >> (8 * k));
        assert_int_equal(wl_decode(&d, b, 4, 0, &inst), WL_ERR_TRUNCATED);
        assert_int_equal(wl_decode(&d, b, 3, 0, &inst), WL_ERR_TRUNCATED);
    }
    /* SDWA selector 7 (LLVM 19 crashes printing it) is rejected. */
    const uint32_t sel7[2] = {0x06143cf9u, 0x06070614u};
    uint8_t b7[8];
    to_bytes(sel7, 2, b7);
    assert_int_equal(wl_decode(&d, b7, 8, 0, &inst), WL_ERR_INVALID);
}

/* Random dwords through the decoder and printer: no crash, sane sizes. */
static void random_words(void **state)
{
    (void)state;
    rng r = {88172645463325252ull};
    char buf[256];
    for (int t = 0; t < 3; t++) {
        wl_decoder d;
        wl_decoder_init(&d, t == 0 ? WL_GFX1010 : t == 1 ? WL_GFX1013 : WL_GFX1030, t != 1);
        for (int i = 0; i < 200000; i++) {
            uint32_t w[3] = {rnd(&r) & 0x7fffffffu, rnd(&r), rnd(&r)};
            uint8_t b[12];
            to_bytes(w, 3, b);
            size_t len = 1 + rndn(&r, 12);
            wl_inst inst;
            wl_status st = wl_decode(&d, b, len, 0, &inst);
            if (st == WL_OK) {
                assert_true(inst.size >= 4 && inst.size <= len);
                size_t n = wl_print(&inst, buf, sizeof(buf));
                assert_true(n < sizeof(buf));
                assert_non_null(inst.name);
            } else {
                assert_true(st == WL_ERR_INVALID || st == WL_ERR_TRUNCATED);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(truncated),
        cmocka_unit_test(random_words),
        cmocka_unit_test(valu_matches_llvm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
