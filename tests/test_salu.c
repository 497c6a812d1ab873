/* The scalar formats (SOP2, SOPK, SOP1, SOPC, SOPP, SMEM) against LLVM.
 *
 * For gfx1010, gfx1013 and gfx1030, wave64 and wave32, and every opcode
 * number of every scalar format, the test builds encodings with varied
 * fields (SGPR ranges, vcc/exec/m0/null/ttmp, inline constants, literals,
 * immediates, glc/dlc, ignored bits), has llvm-mc-19 disassemble them, then
 * assembles LLVM's text back and disassembles that again. Our decoder and
 * printer must produce LLVM's text (comments and white space aside) and
 * size for every encoding LLVM accepts, and WL_ERR_INVALID for every one it
 * rejects. The symbolic immediates of s_waitcnt, s_sendmsg(halt),
 * s_waitcnt_depctr, s_version and s_getreg are checked over all 65536
 * values (wave64). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "wavelift/decode.h"

enum { F_SOP2, F_SOPK, F_SOP1, F_SOPC, F_SOPP, F_SMEM, F_COUNT };
static const char *const fmt_names[F_COUNT] = {"SOP2", "SOPK", "SOP1", "SOPC", "SOPP", "SMEM"};

#define NMARK 6
#define BATCH 30000
#define MAX_SHOWN 20

typedef struct tcase {
    uint32_t w[3];
    uint8_t n; /* words */
} tcase;

typedef struct cvec {
    tcase *v;
    size_t n, cap;
} cvec;

/* LLVM's answer for one case. */
typedef struct lres {
    char *text;  /* first output line, comments removed, squashed; NULL: rejected */
    int size;    /* bytes LLVM decoded */
} lres;

typedef struct stats {
    uint8_t covered[32]; /* opcode bitmap */
    long instances, match, rejected, rejected_ok, reasm_fail;
} stats;

typedef struct ctx {
    char *dir;
    long mismatches;
} ctx;

static void push(cvec *c, const uint32_t *w, unsigned n)
{
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 4096;
        c->v = realloc(c->v, c->cap * sizeof(*c->v));
        assert_non_null(c->v);
    }
    tcase *t = &c->v[c->n++];
    memset(t, 0, sizeof(*t));
    memcpy(t->w, w, n * sizeof(uint32_t));
    t->n = (uint8_t)n;
}

/* xorshift64*: deterministic variety. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545f4914f6cdd1dull) >> 32);
}
static uint32_t pick(const uint32_t *v, size_t n) { return v[rnd() % n]; }
#define PICK(a) pick(a, sizeof(a) / sizeof((a)[0]))

/* Field values worth trying. */
static const uint32_t special_src[] = {
    0, 1, 2, 3, 4, 5, 7, 8, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111,
    112, 116, 119, 120, 121, 123, 124, 125, 126, 127, 128, 129, 192, 193, 208, 209, 230,
    234, 235, 236, 237, 238, 239, 240, 241, 242, 243, 244, 245, 246, 247, 248, 249, 250,
    251, 252, 253, 254, 255, 255, 255, 255,
};
static const uint32_t literals[] = {
    0, 1, 64, 65, 0xfffffff0, 0xffffffef, 0xffffffff, 0x3f800000, 0xbf800000, 0x3f000000,
    0xbf000000, 0x40000000, 0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983, 0x80000000,
    0x12345678, 0x0000ffff, 0x3ff00000,
};
static const uint32_t imm16s[] = {
    0, 1, 2, 3, 15, 16, 63, 64, 65, 0x7f, 0x80, 0xff, 0x100, 0x1234, 0x3f70, 0x7fff,
    0x8000, 0x8001, 0xc07f, 0xfff0, 0xfffe, 0xffff,
};

static uint32_t rnd_src(void) { return (rnd() & 1) ? (rnd() & 0xff) : PICK(special_src); }
static uint32_t rnd_dst(void) { return (rnd() & 1) ? (rnd() & 0x7f) : (PICK(special_src) & 0x7f); }
static uint32_t rnd_imm16(void) { return (rnd() & 1) ? (rnd() & 0xffff) : PICK(imm16s); }

static void push_sop(cvec *c, uint32_t w0, unsigned s0, unsigned s1)
{
    uint32_t w[2] = {w0, PICK(literals)};
    if ((rnd() & 3) == 0)
        w[1] = rnd();
    push(c, w, (s0 == 255 || s1 == 255) ? 2 : 1);
}

/* The cases of one format; `sweep`: the exhaustive immediate sweeps instead. */
static void gen_cases(int fmt, bool sweep, cvec *c)
{
    if (sweep) {
        if (fmt == F_SOPK) { /* s_version, s_getreg_b32: every immediate */
            for (uint32_t v = 0; v < 0x10000; v++) {
                uint32_t a = 0xb0800000u | (rnd() & 0x7f) << 16 | v;
                uint32_t b = 0xb9000000u | (rnd() & 0x7f) << 16 | v;
                push(c, &a, 1);
                push(c, &b, 1);
            }
        } else if (fmt == F_SOPP) { /* s_waitcnt, s_sendmsg(halt), s_waitcnt_depctr */
            static const uint32_t ops[] = {0x0c, 0x10, 0x11, 0x23};
            for (size_t i = 0; i < 4; i++) {
                for (uint32_t v = 0; v < 0x10000; v++) {
                    uint32_t w = 0xbf800000u | ops[i] << 16 | v;
                    push(c, &w, 1);
                }
            }
        }
        return;
    }
    switch (fmt) {
    case F_SOP2: /* [31:30]=10 OP[29:23] SDST[22:16] SSRC1[15:8] SSRC0[7:0] */
        for (uint32_t op = 0; op < 0x60; op++) {
            for (int k = 0; k < 40; k++) {
                unsigned d = rnd_dst(), s0 = rnd_src(), s1 = rnd_src();
                if (k == 0)
                    d = 2, s0 = 6, s1 = 4;
                push_sop(c, 0x80000000u | op << 23 | d << 16 | s1 << 8 | s0, s0, s1);
            }
        }
        break;
    case F_SOP1: /* [31:23]=101111101 SDST[22:16] OP[15:8] SSRC0[7:0] */
        for (uint32_t op = 0; op < 0x100; op++) {
            for (int k = 0; k < 24; k++) {
                unsigned d = rnd_dst(), s0 = rnd_src();
                if (k == 0)
                    d = 4, s0 = 8;
                push_sop(c, 0xbe800000u | d << 16 | op << 8 | s0, s0, 0);
            }
        }
        break;
    case F_SOPC: /* [31:23]=101111110 OP[22:16] SSRC1[15:8] SSRC0[7:0] */
        for (uint32_t op = 0; op < 0x80; op++) {
            for (int k = 0; k < 24; k++) {
                unsigned s0 = rnd_src(), s1 = rnd_src();
                if (k == 0)
                    s0 = 6, s1 = 4;
                push_sop(c, 0xbf000000u | op << 16 | s1 << 8 | s0, s0, s1);
            }
        }
        break;
    case F_SOPK: /* [31:28]=1011 OP[27:23] SDST[22:16] SIMM16; op 0x15 + literal */
        for (uint32_t op = 0; op < 0x1d; op++) {
            for (int k = 0; k < 64; k++) {
                uint32_t w[2] = {0xb0000000u | op << 23 | rnd_dst() << 16 | rnd_imm16(),
                                 PICK(literals)};
                push(c, w, op == 0x15 ? 2 : 1);
            }
        }
        break;
    case F_SOPP: /* [31:23]=101111111 OP[22:16] SIMM16 */
        for (uint32_t op = 0; op < 0x80; op++) {
            for (size_t k = 0; k < sizeof(imm16s) / sizeof(imm16s[0]); k++) {
                uint32_t w = 0xbf800000u | op << 16 | imm16s[k];
                push(c, &w, 1);
            }
            for (int k = 0; k < 16; k++) {
                uint32_t w = 0xbf800000u | op << 16 | (rnd() & 0xffff);
                push(c, &w, 1);
            }
        }
        break;
    case F_SMEM:
        /* word 0: [31:26]=111101 OP[25:18] GLC[16] DLC[14] SDATA[12:6] SBASE[5:0]
         * word 1: SOFFSET[31:25] OFFSET[20:0]; bits 13, 15, 17 and 21..24 unused */
        for (uint32_t op = 0; op < 0x100; op++) {
            static const uint32_t offs[] = {0, 0, 4, 0x24, 0xfffff, 0x100000, 0x1fffff, 0x1ffffc};
            for (int k = 0; k < 24; k++) {
                uint32_t sdata = (rnd() & 1) ? rnd() & 0x7f : PICK(special_src) & 0x7f;
                uint32_t sbase = rnd() & 0x3f, soff = (rnd() & 1) ? 125 : rnd() & 0x7f;
                uint32_t off = (rnd() & 1) ? PICK(offs) : rnd() & 0x1fffff;
                uint32_t junk0 = (k & 3) == 3 ? rnd() & 0x2a000 : 0;
                uint32_t junk1 = (k & 3) == 3 ? rnd() & 0x1e00000 : 0;
                if (k == 0)
                    sdata = 8, sbase = 2, soff = 125, off = 0x24;
                uint32_t w[2] = {0xf4000000u | op << 18 | (rnd() & 1) << 16 | (rnd() & 1) << 14 |
                                     sdata << 6 | sbase | junk0,
                                 soff << 25 | off | junk1};
                push(c, w, 2);
            }
        }
        break;
    default:
        break;
    }
}

static unsigned opcode_of(int fmt, uint32_t w0)
{
    switch (fmt) {
    case F_SOP2: return (w0 >> 23) & 0x7f;
    case F_SOPK: return (w0 >> 23) & 0x1f;
    case F_SOP1: return (w0 >> 8) & 0xff;
    case F_SOPC: case F_SOPP: return (w0 >> 16) & 0x7f;
    default: return (w0 >> 18) & 0xff;
    }
}

/* Removes LLVM's comments (inline and trailing) and squashes white space. */
static void normalize(char *s)
{
    char *o = s;
    for (char *p = s; *p;) {
        if (p[0] == '/' && p[1] == '*') {
            char *e = strstr(p + 2, "*/");
            p = e ? e + 2 : p + strlen(p);
        } else if (*p == ';' || *p == '#') {
            break;
        } else {
            *o++ = *p++;
        }
    }
    *o = '\0';
    wlt_squash(s);
}

static void marker(bool sopp, unsigned i, uint32_t *w, char *text, size_t cap)
{
    if (sopp) { /* s_movk_i32 s105, i */
        *w = 0xb0000000u | 105u << 16 | i;
        snprintf(text, cap, "s_movk_i32 s105, 0x%x", i);
    } else { /* s_nop i */
        *w = 0xbf800000u | i;
        snprintf(text, cap, i <= 64 ? "s_nop %u" : "s_nop 0x%x", i);
    }
}

static void put_words(FILE *f, const uint32_t *w, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        for (unsigned b = 0; b < 4; b++)
            fprintf(f, "%s0x%02x", i || b ? "," : "", (w[i] >> (8 * b)) & 0xff);
    fputc('\n', f);
}

static const char *wave_attr(int wave)
{
    return wave == 64 ? "+wavefrontsize64" : "+wavefrontsize32";
}

/* Disassembles cases[0..n) (n <= BATCH) with one llvm-mc process. Each case
 * is followed by NMARK numbered markers so that LLVM's lines can be
 * attributed even where it resynchronizes after an invalid word. */
static void llvm_disasm_batch(ctx *cx, const char *cpu, int wave, bool sopp,
                              const tcase *cs, size_t n, lres *out)
{
    char in[512], err[512], cmd[2048], mt[64];
    snprintf(in, sizeof(in), "%s/in.txt", cx->dir);
    snprintf(err, sizeof(err), "%s/err.txt", cx->dir);
    FILE *f = fopen(in, "w");
    assert_non_null(f);
    for (size_t i = 0; i < n; i++) {
        uint32_t m[NMARK];
        marker(sopp, (unsigned)i, &m[0], mt, sizeof(mt));
        for (int k = 1; k < NMARK; k++)
            m[k] = m[0];
        put_words(f, cs[i].w, cs[i].n);
        put_words(f, m, NMARK);
    }
    fclose(f);
    snprintf(cmd, sizeof(cmd),
             "%s -disassemble -triple=amdgcn-amd-amdhsa -mcpu=%s -mattr=%s %s 2>%s",
             WL_LLVM_MC, cpu, wave_attr(wave), in, err);
    int status;
    char *text = wlt_run(cmd, &status);
    assert_non_null(text);

    /* stderr: which case lines have an invalid word, and where */
    uint8_t *bad = calloc(n, 1); /* 1: first word invalid, 2: a later word */
    size_t esz;
    char *etext = (char *)wlt_read_file(err, &esz);
    assert_non_null(etext);
    for (char *line = strtok(etext, "\n"); line; line = strtok(NULL, "\n")) {
        char *p = strstr(line, "in.txt:");
        unsigned ln, col;
        if (!p || !strstr(line, "warning") || sscanf(p, "in.txt:%u:%u:", &ln, &col) != 2)
            continue;
        if (ln % 2 == 1 && (ln - 1) / 2 < n)
            bad[(ln - 1) / 2] |= col == 1 ? 1 : 2;
    }
    free(etext);

    size_t *count = calloc(n, sizeof(size_t));
    for (size_t i = 0; i < n; i++)
        out[i].text = NULL;
    size_t cur = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        normalize(line);
        if (!*line || strcmp(line, ".text") == 0)
            continue;
        if (cur < n) {
            marker(sopp, (unsigned)cur, &(uint32_t){0}, mt, sizeof(mt));
            if (strcmp(line, mt) == 0) {
                cur++;
                continue;
            }
        }
        if (cur > 0) {
            marker(sopp, (unsigned)cur - 1, &(uint32_t){0}, mt, sizeof(mt));
            if (strcmp(line, mt) == 0)
                continue;
        }
        if (cur >= n)
            fail_msg("llvm-mc: output after the last marker: %s", line);
        if (count[cur]++ == 0)
            out[cur].text = strdup(line);
    }
    if (cur != n)
        fail_msg("llvm-mc: lost markers (%zu of %zu)", cur, n);
    for (size_t i = 0; i < n; i++) {
        if (bad[i] & 1) {
            free(out[i].text);
            out[i].text = NULL;
        }
        out[i].size = (count[i] == 1 && !bad[i]) ? 4 * cs[i].n : 4;
    }
    free(count);
    free(bad);
    free(text);
}

static lres *llvm_disasm(ctx *cx, const char *cpu, int wave, bool sopp, const cvec *c)
{
    lres *r = calloc(c->n ? c->n : 1, sizeof(lres));
    for (size_t s = 0; s < c->n; s += BATCH)
        llvm_disasm_batch(cx, cpu, wave, sopp, c->v + s, c->n - s < BATCH ? c->n - s : BATCH, r + s);
    return r;
}

/* Assembles LLVM's texts back to encodings (lines it refuses are dropped):
 * all of the first `nfull` cases, every 16th of the exhaustive sweeps. */
static void llvm_reassemble(ctx *cx, const char *cpu, int wave, const lres *r, size_t n,
                            size_t nfull, cvec *out, stats *st)
{
    char in[512], cmd[2048];
    snprintf(in, sizeof(in), "%s/asm.s", cx->dir);
    FILE *f = fopen(in, "w");
    assert_non_null(f);
    long lines = 0;
    for (size_t i = 0; i < n; i++) {
        if (r[i].text && (i < nfull || i % 16 == 0)) {
            fprintf(f, "%s\n", r[i].text);
            lines++;
        }
    }
    fclose(f);
    snprintf(cmd, sizeof(cmd), "%s -triple=amdgcn-amd-amdhsa -mcpu=%s -mattr=%s -show-encoding %s 2>/dev/null",
             WL_LLVM_MC, cpu, wave_attr(wave), in);
    int status;
    char *text = wlt_run(cmd, &status);
    assert_non_null(text);
    long got = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *p = strstr(line, "encoding: [");
        if (!p)
            continue;
        p += strlen("encoding: [");
        uint8_t b[16];
        unsigned nb = 0;
        bool ok = true;
        while (*p && *p != ']' && nb < sizeof(b)) {
            unsigned v;
            if (sscanf(p, "0x%2x", &v) != 1) {
                ok = false;
                break;
            }
            b[nb++] = (uint8_t)v;
            p = strchr(p, ',');
            if (!p)
                break;
            p++;
        }
        got++;
        if (!ok || nb % 4 || nb == 0 || nb > 12)
            continue;
        uint32_t w[3];
        for (unsigned i = 0; i < nb / 4; i++)
            w[i] = b[4 * i] | b[4 * i + 1] << 8 | b[4 * i + 2] << 16 | (uint32_t)b[4 * i + 3] << 24;
        push(out, w, nb / 4);
    }
    st->reasm_fail += lines - got;
    free(text);
}

static void mismatch(ctx *cx, const char *what, const char *cpu, int wave, const tcase *c,
                     const char *llvm, const char *ours)
{
    if (cx->mismatches++ >= MAX_SHOWN)
        return;
    char bytes[64] = "";
    for (unsigned i = 0; i < c->n; i++)
        snprintf(bytes + strlen(bytes), sizeof(bytes) - strlen(bytes), "%s%08x", i ? " " : "", c->w[i]);
    print_message("MISMATCH %s w%d [%s] %s\n  llvm: %s\n  ours: %s\n", cpu, wave, bytes, what,
                  llvm ? llvm : "(invalid)", ours);
}

static void compare(ctx *cx, const wl_decoder *dec, const char *cpu, int wave, int fmt,
                    const cvec *c, const lres *r, stats *st)
{
    for (size_t i = 0; i < c->n; i++) {
        const tcase *t = &c->v[i];
        uint8_t bytes[12];
        for (unsigned k = 0; k < t->n; k++)
            for (unsigned b = 0; b < 4; b++)
                bytes[4 * k + b] = (uint8_t)(t->w[k] >> (8 * b));
        wl_inst inst;
        wl_status s = wl_decode(dec, bytes, 4u * t->n, 0, &inst);
        char ours[256];
        if (s == WL_OK)
            wl_print(&inst, ours, sizeof(ours));
        else
            snprintf(ours, sizeof(ours), "(%s)", wl_status_name(s));
        wlt_squash(ours);
        if (!r[i].text) {
            st->rejected++;
            if (s == WL_ERR_INVALID)
                st->rejected_ok++;
            else
                mismatch(cx, "LLVM rejects it", cpu, wave, t, NULL, ours);
            continue;
        }
        st->instances++;
        unsigned op = opcode_of(fmt, t->w[0]);
        st->covered[op / 8] |= (uint8_t)(1u << (op % 8));
        if (s != WL_OK || strcmp(ours, r[i].text) != 0) {
            mismatch(cx, "text", cpu, wave, t, r[i].text, ours);
            continue;
        }
        if (inst.size != r[i].size) {
            char m[64];
            snprintf(m, sizeof(m), "size: llvm %d, ours %u", r[i].size, inst.size);
            mismatch(cx, m, cpu, wave, t, r[i].text, ours);
            continue;
        }
        size_t nl = strcspn(r[i].text, " ");
        if (!inst.name || strlen(inst.name) != nl || strncmp(inst.name, r[i].text, nl) != 0) {
            mismatch(cx, "wl_inst.name", cpu, wave, t, r[i].text, inst.name ? inst.name : "(null)");
            continue;
        }
        if (inst.format != (uint8_t)(WL_FMT_SOP2 + fmt)) {
            mismatch(cx, "wl_inst.format", cpu, wave, t, r[i].text, wl_format_name(inst.format));
            continue;
        }
        st->match++;
    }
}

static int popcount256(const uint8_t *b)
{
    int n = 0;
    for (int i = 0; i < 32; i++)
        for (int k = 0; k < 8; k++)
            n += (b[i] >> k) & 1;
    return n;
}

static void scalar_formats(void **state)
{
    (void)state;
    static const struct { const char *cpu; wl_target t; } isas[] = {
        {"gfx1010", WL_GFX1010}, {"gfx1013", WL_GFX1013}, {"gfx1030", WL_GFX1030},
    };
    ctx cx = {wlt_tmpdir(), 0};
    assert_non_null(cx.dir);
    long total = 0, total_match = 0;
    for (size_t ii = 0; ii < 3; ii++) {
        for (int wave = 64; wave >= 32; wave -= 32) {
            wl_decoder dec;
            wl_decoder_init(&dec, isas[ii].t, wave == 64);
            for (int fmt = 0; fmt < F_COUNT; fmt++) {
                stats st;
                memset(&st, 0, sizeof(st));
                cvec c = {0}, back = {0};
                rng_state = 0x9e3779b97f4a7c15ull + (uint64_t)(fmt * 131 + wave * 7 + ii);
                gen_cases(fmt, false, &c);
                size_t nfull = c.n;
                if (wave == 64)
                    gen_cases(fmt, true, &c);
                bool sopp = fmt == F_SOPP;
                lres *r = llvm_disasm(&cx, isas[ii].cpu, wave, sopp, &c);
                compare(&cx, &dec, isas[ii].cpu, wave, fmt, &c, r, &st);
                long first = st.instances;
                llvm_reassemble(&cx, isas[ii].cpu, wave, r, c.n, nfull, &back, &st);
                lres *r2 = llvm_disasm(&cx, isas[ii].cpu, wave, sopp, &back);
                compare(&cx, &dec, isas[ii].cpu, wave, fmt, &back, r2, &st);
                print_message("%s w%d %s: %d opcodes, %ld instances (%ld disassembled, %ld reassembled), "
                              "%ld match; %ld rejected by LLVM, %ld of them by us; %ld not reassembled\n",
                              isas[ii].cpu, wave, fmt_names[fmt], popcount256(st.covered), st.instances,
                              first, st.instances - first, st.match, st.rejected, st.rejected_ok,
                              st.reasm_fail);
                total += st.instances + st.rejected;
                total_match += st.match + st.rejected_ok;
                for (size_t i = 0; i < c.n; i++)
                    free(r[i].text);
                for (size_t i = 0; i < back.n; i++)
                    free(r2[i].text);
                free(r);
                free(r2);
                free(c.v);
                free(back.v);
            }
        }
    }
    print_message("total: %ld cases, %ld agree, %ld mismatches\n", total, total_match, cx.mismatches);
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", cx.dir);
    int st;
    free(wlt_run(cmd, &st));
    free(cx.dir);
    assert_int_equal(cx.mismatches, 0);
}

/* Cut-off and hostile input: never a crash, the right status. */
static void truncated_and_garbage(void **state)
{
    (void)state;
    wl_decoder dec;
    wl_decoder_init(&dec, WL_GFX1030, 1);
    wl_inst inst;
    const uint8_t lit[4] = {0xff, 0x03, 0x80, 0xbe};    /* s_mov_b32 s0, <literal> */
    const uint8_t smem[4] = {0x02, 0x02, 0x00, 0xf4};   /* s_load_dword, 1 of 2 words */
    const uint8_t setreg[4] = {0x00, 0x00, 0x80, 0xba}; /* s_setreg_imm32_b32 */
    assert_int_equal(wl_decode(&dec, lit, 4, 0, &inst), WL_ERR_TRUNCATED);
    assert_int_equal(wl_decode(&dec, smem, 4, 0, &inst), WL_ERR_TRUNCATED);
    assert_int_equal(wl_decode(&dec, setreg, 4, 0, &inst), WL_ERR_TRUNCATED);
    uint8_t buf[8];
    uint64_t x = 1;
    for (int i = 0; i < 200000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t w0 = (uint32_t)(x >> 32);
        w0 = (i & 1) ? (0x80000000u | (w0 & 0x3fffffff)) : (0xf4000000u | (w0 & 0x03ffffff));
        uint32_t w1 = (uint32_t)x;
        for (int b = 0; b < 4; b++) {
            buf[b] = (uint8_t)(w0 >> (8 * b));
            buf[4 + b] = (uint8_t)(w1 >> (8 * b));
        }
        for (size_t len = 0; len <= 8; len += 4) {
            wl_status s = wl_decode(&dec, buf, len, 0, &inst);
            char out[256];
            if (s == WL_OK) {
                assert_true(inst.size <= len);
                wl_print(&inst, out, sizeof(out));
                assert_true(strlen(out) > 0);
            }
        }
    }
}

static void decode_words(wl_target t, const uint32_t *w, unsigned n, wl_inst *inst)
{
    uint8_t b[12];
    for (unsigned k = 0; k < n; k++)
        for (unsigned i = 0; i < 4; i++)
            b[4 * k + i] = (uint8_t)(w[k] >> (8 * i));
    wl_decoder dec;
    wl_decoder_init(&dec, t, 1);
    assert_int_equal(wl_decode(&dec, b, 4u * n, 0x100, inst), WL_OK);
    assert_int_equal(inst->size, 4u * n);
}

/* The normalized operands the lifter reads. */
static void operands(void **state)
{
    (void)state;
    wl_inst in;
    /* s_branch 65535: a label operand with the signed word offset */
    decode_words(WL_GFX1030, (const uint32_t[]){0xbf82ffff}, 1, &in);
    assert_int_equal(in.format, WL_FMT_SOPP);
    assert_int_equal(in.nsrc, 1);
    assert_int_equal(in.src[0].kind, WL_OPND_LABEL);
    assert_int_equal((int32_t)in.src[0].value, -1);
    /* s_mov_b64 s[4:5], 0x12345678 */
    decode_words(WL_GFX1030, (const uint32_t[]){0xbe8404ff, 0x12345678}, 2, &in);
    assert_string_equal(in.name, "s_mov_b64");
    assert_int_equal(in.ndst, 1);
    assert_int_equal(in.dst[0].kind, WL_OPND_SGPR);
    assert_int_equal(in.dst[0].index, 4);
    assert_int_equal(in.dst[0].nregs, 2);
    assert_int_equal(in.src[0].kind, WL_OPND_LITERAL);
    assert_int_equal(in.src[0].value, 0x12345678);
    assert_true(in.has_literal);
    /* s_cmpk_eq_i32 s4, 0x1234: the register is read */
    decode_words(WL_GFX1030, (const uint32_t[]){0xb1841234}, 1, &in);
    assert_int_equal(in.ndst, 0);
    assert_int_equal(in.nsrc, 2);
    assert_int_equal(in.src[0].kind, WL_OPND_SGPR);
    assert_int_equal(in.src[1].kind, WL_OPND_IMM);
    assert_int_equal(in.src[1].value, 0x1234);
    /* s_load_dwordx4 s[8:11], s[4:5], 0x24 glc */
    decode_words(WL_GFX1030, (const uint32_t[]){0xf4090202, 0xfa000024}, 2, &in);
    assert_int_equal(in.format, WL_FMT_SMEM);
    assert_int_equal(in.ndst, 1);
    assert_int_equal(in.dst[0].index, 8);
    assert_int_equal(in.dst[0].nregs, 4);
    assert_int_equal(in.src[0].kind, WL_OPND_SGPR);
    assert_int_equal(in.src[0].index, 4);
    assert_int_equal(in.src[0].nregs, 2);
    assert_int_equal(in.f.s.offset, 0x24);
    assert_int_equal(in.f.s.soffset_en, 0);
    assert_int_equal(in.f.s.glc, 1);
    /* s_atomic_add s8, s[4:5], s2 glc (gfx1010): data read and written */
    decode_words(WL_GFX1010, (const uint32_t[]){0xf6090202, 0x04000000}, 2, &in);
    assert_int_equal(in.ndst, 1);
    assert_int_equal(in.src[0].index, 8);
    assert_int_equal(in.src[1].index, 4);
    assert_int_equal(in.src[2].kind, WL_OPND_SGPR);
    assert_int_equal(in.src[2].index, 2);
    assert_int_equal(in.f.s.soffset_en, 1);
    /* s_getreg_b32 s4, hwreg(HW_REG_MODE, 0, 4) */
    decode_words(WL_GFX1030, (const uint32_t[]){0xb9041801}, 1, &in);
    assert_int_equal(in.f.s.hwreg, 0x1801);
    char out[128];
    wl_print(&in, out, sizeof(out));
    assert_string_equal(out, "s_getreg_b32 s4, hwreg(HW_REG_MODE, 0, 4)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(operands),
        cmocka_unit_test(scalar_formats),
        cmocka_unit_test(truncated_and_garbage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
