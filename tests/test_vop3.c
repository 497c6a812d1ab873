/* VOP3 / VOP3P decoder and printer against LLVM 19 (llvm-mc-19).
 *
 * For each ISA (gfx1010, gfx1013, gfx1030) and wave size (64, 32), and for
 * every VOP3 opcode (0..1023) and VOP3P opcode (0..127):
 *
 *  1. Encodings are generated with varied fields: VGPR, SGPR, TTMP,
 *     special-register, inline-constant and literal sources, register
 *     ranges, every modifier bit (abs, neg, op_sel, clamp, omod; VOP3P
 *     neg_lo/neg_hi/op_sel/op_sel_hi), the VOP3b sdst, and now and then
 *     field values LLVM rejects. Opcodes our table does not have get a few
 *     encodings too. The generator reads our opcode table only to choose
 *     interesting fields; what is expected comes from LLVM alone.
 *  2. llvm-mc-19 -disassemble turns them into text (one process per
 *     ISA/wave/format). Each encoding is followed by marker instructions so
 *     that the bytes LLVM skips after an invalid encoding cannot shift the
 *     results.
 *  3. Our decoder + printer run on the same bytes: its text must equal
 *     LLVM's (white space squashed, LLVM's comments dropped), and it
 *     must reject (WL_ERR_INVALID) what LLVM rejects.
 *  4. Round trip: llvm-mc-19 assembles LLVM's text back to bytes
 *     (-show-encoding); our decoder + printer on those bytes must print
 *     LLVM's text again. Where LLVM itself does not round-trip (its
 *     disassembly of the re-assembled bytes differs from the text), the
 *     re-assembled bytes are compared with that disassembly instead, and
 *     counted apart.
 *  5. Robustness: truncated instructions return WL_ERR_TRUNCATED, and
 *     random words never crash the decoder or printer.
 *
 * Per ISA, wave and format the test prints the opcodes covered, the
 * instances compared and matched, and the encodings both reject. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "frontend/isa/vop3_internal.h"

#define PER_OP 32       /* encodings per valid opcode */
#define PER_BAD_OP 2    /* encodings per opcode absent from our table */
#define MAX_SHOW 20

/* ------------------------------------------------------------------ util */

typedef struct rng {
    uint64_t s;
} rng;

static uint32_t rnd(rng *r)
{
    r->s += 0x9e3779b97f4a7c15ull;
    uint64_t z = r->s;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (uint32_t)(z ^ (z >> 31));
}

static unsigned rnd_n(rng *r, unsigned n)
{
    return rnd(r) % n;
}

static bool chance(rng *r, unsigned percent)
{
    return rnd_n(r, 100) < percent;
}

/* Drops LLVM's comments and squashes white space, in place. */
static void normalize(char *s)
{
    char *w = s;
    for (char *r = s; *r;) {
        if (r[0] == '/' && r[1] == '*') {
            char *e = strstr(r + 2, "*/");
            r = e ? e + 2 : r + strlen(r);
            continue;
        }
        if (r[0] == ';') /* an assembler comment: "; encoding: [...]" */
            break;
        *w++ = *r++;
    }
    *w = '\0';
    wlt_squash(s);
}

/* ------------------------------------------------------------ the cases */

typedef struct tcase {
    uint32_t w[3];
    unsigned nw;
    int op;           /* opcode, for the statistics */
    char *llvm;       /* LLVM's text of the original bytes; NULL: rejected */
    bool short_;      /* LLVM decoded fewer bytes than given */
    bool unknown;     /* LLVM's output for it was lost */
    uint32_t rw[3];   /* re-assembled bytes */
    unsigned rnw;
    char *llvm2;      /* LLVM's text of the re-assembled bytes */
} tcase;

typedef struct caseset {
    tcase *v;
    size_t n, cap;
} caseset;

static tcase *add_case(caseset *cs)
{
    if (cs->n == cs->cap) {
        cs->cap = cs->cap ? cs->cap * 2 : 1024;
        cs->v = realloc(cs->v, cs->cap * sizeof(*cs->v));
        assert_non_null(cs->v);
    }
    tcase *c = &cs->v[cs->n++];
    memset(c, 0, sizeof(*c));
    return c;
}

static void free_cases(caseset *cs)
{
    for (size_t i = 0; i < cs->n; i++) {
        free(cs->v[i].llvm);
        free(cs->v[i].llvm2);
    }
    free(cs->v);
}

static const uint32_t literals[] = {
    0x3f800000, 0x3c00, 0x3ff00000, 0x5, 0x40, 0x41, 0xfffffff0, 0xffff3800,
    0x3e22f983, 0x3118, 0x3fc45f30, 0x80000000, 0x0, 0xbf000000, 0x4400,
    0xc4000000, 0x12345678, 0xffff, 0x10000,
};

/* A 9-bit source encoding, mostly ones LLVM accepts. */
static unsigned random_src(rng *r)
{
    static const unsigned special[] = {106, 107, 124, 125, 126, 127, 235, 236,
                                       237, 238, 239, 251, 252, 253, 254};
    unsigned k = rnd_n(r, 100);
    if (k < 30) return 256 + rnd_n(r, 256);
    if (k < 48) return rnd_n(r, 106);
    if (k < 53) return 108 + rnd_n(r, 16);
    if (k < 61) return special[rnd_n(r, sizeof(special) / sizeof(special[0]))];
    if (k < 75) return 128 + rnd_n(r, 81);
    if (k < 85) return 240 + rnd_n(r, 9);
    if (k < 97) return 255;
    return chance(r, 50) ? 209 + rnd_n(r, 26) : 249 + rnd_n(r, 2);
}

/* Encodings for one opcode. `e` is our table entry (NULL: not in it). */
static void gen_op(caseset *cs, rng *r, bool p, unsigned op, const struct wl_opinfo *e)
{
    unsigned count = e ? PER_OP : PER_BAD_OP;
    for (unsigned k = 0; k < count; k++) {
        uint32_t w0 = p ? 0xcc000000u | op << 16 : 0xd4000000u | op << 16;
        uint32_t w1 = 0;
        unsigned f[4]; /* vdst, src0, src1, src2 */
        for (unsigned i = 0; i < 4; i++) {
            unsigned mode = e ? V3X_FIELD(e->extra, i) : V3U_USED;
            bool used = mode != V3U_ZERO && (i == 0 || !e || i - 1 < e->nsrc);
            if (!used)
                f[i] = chance(r, 92) ? 0 : (i ? random_src(r) : rnd_n(r, 256));
            else if (i == 0)
                f[i] = e && (e->flags & V3F_SDST_VDST) ? random_src(r) & 0xff
                                                       : rnd_n(r, 256);
            else
                f[i] = random_src(r);
        }
        if (e && V3X_INTERP(e->extra) != V3I_NONE)
            f[1] = chance(r, 85) ? rnd_n(r, 256) : rnd_n(r, 512);
        if (e && V3X_INTERP(e->extra) == V3I_MOV)
            f[2] = chance(r, 70) ? rnd_n(r, 3) : rnd_n(r, 512);
        w0 |= f[0];
        w1 |= f[1] | f[2] << 9 | f[3] << 18;
        /* modifier bits: those LLVM rejects only now and then */
        unsigned reject = e ? V3X_REJECT(e->extra) : 0;
        for (unsigned b = 0; b < 13; b++) {
            bool rej = (reject >> b) & 1;
            if (chance(r, rej ? 2 : 30)) {
                if (b < 8)
                    w0 |= 1u << (8 + b);
                else
                    w1 |= 1u << (27 + b - 8);
            }
        }
        if (e && (e->flags & V3F_VOP3B)) {
            unsigned sd = chance(r, 80) ? rnd_n(r, 106) : 106 + rnd_n(r, 22);
            w0 = (w0 & ~(0x7fu << 8)) | sd << 8;
        }
        if (p && e && !(e->flags & V3F_MIX) && chance(r, 60)) {
            /* mostly LLVM's default op_sel_hi for packed math */
            w0 |= 1u << 14;
            w1 |= 3u << 27;
        }
        if (!p && !e && chance(r, 50))
            w0 |= 0x01000000u; /* also the opcodes 256..1023 are 0xd5..0xd7 */
        tcase *c = add_case(cs);
        c->w[0] = w0;
        c->w[1] = w1;
        c->nw = 2;
        c->op = (int)(p ? (w0 >> 16) & 0x7f : (w0 >> 16) & 0x3ff);
        bool lit = (w0 & 0xff) == 255;
        for (unsigned i = 0; i < 3; i++)
            lit |= ((w1 >> (9 * i)) & 0x1ff) == 255;
        if (lit) {
            c->w[2] = chance(r, 75) ? literals[rnd_n(r, sizeof(literals) / sizeof(literals[0]))]
                                    : rnd(r);
            c->nw = 3;
        }
    }
}

/* -------------------------------------------------------- running LLVM */

typedef struct llvm_out {
    char **text;   /* per input: the one instruction LLVM printed, or NULL */
    bool *extra;   /* per input: LLVM printed more than one instruction */
    bool *unknown; /* per input: its markers were lost, the result is unknown */
} llvm_out;

/* Marker instructions after each encoding: an encoding LLVM rejects makes
 * it skip 4 bytes and decode the rest as whatever it looks like, which can
 * swallow a few of the following dwords. */
#define NMARK 5

static llvm_out new_out(size_t n)
{
    llvm_out o = {calloc(n + 1, sizeof(char *)), calloc(n + 1, sizeof(bool)),
                  calloc(n + 1, sizeof(bool))};
    assert_true(o.text && o.extra && o.unknown);
    return o;
}

/* Frees the arrays and the first `ntexts` texts (the others were taken). */
static void free_out(llvm_out *o, size_t ntexts)
{
    for (size_t i = 0; i < ntexts; i++)
        free(o->text[i]);
    free(o->text);
    free(o->extra);
    free(o->unknown);
}

static void marker_line(wlt_text *b, size_t i, bool text)
{
    if (text)
        wlt_textf(b, "s_movk_i32 s0, 0x%zx\n", i & 0xffff);
    else
        wlt_textf(b, "0x%02zx,0x%02zx,0x00,0xb0\n", i & 0xff, (i >> 8) & 0xff);
}

static bool parse_marker(const char *line, unsigned *v)
{
    while (*line == ' ' || *line == '\t')
        line++;
    if (strncmp(line, "s_movk_i32 s0, ", 15) != 0)
        return false;
    *v = (unsigned)strtoul(line + 15, NULL, 0);
    return true;
}

/* Runs llvm-mc on inputs [lo, hi) of `lines` (byte lines to disassemble,
 * or with `assemble` texts to assemble), each followed by markers, and
 * splits its output by the markers into `out`; with `assemble`, enc[i]
 * receives the encoding of input i. Should llvm-mc crash (LLVM 19 does when
 * it reads some marker words as the SDWA control word of the bytes that
 * follow a rejected encoding), the range is split and run again; a single
 * input is retried with two s_nop words before its markers (`pad`), and if
 * that crashes too it is marked unknown. */
static void run_llvm_pad(const char *dir, const char *mcpu, bool wave64, bool assemble,
                         char **lines, size_t lo, size_t hi, llvm_out *out, char **enc,
                         bool pad)
{
    if (lo >= hi)
        return;
    char in_path[512], err_path[512], cmd[2048];
    snprintf(in_path, sizeof in_path, "%s/in.txt", dir);
    snprintf(err_path, sizeof err_path, "%s/err.txt", dir);
    wlt_text input = {0};
    for (size_t i = lo; i < hi; i++) {
        wlt_textf(&input, "%s\n", lines[i]);
        if (pad)
            wlt_textf(&input, "0x00,0x00,0x80,0xbf\n0x00,0x00,0x80,0xbf\n");
        for (int k = 0; k < (assemble ? 1 : NMARK); k++)
            marker_line(&input, i, assemble);
    }
    assert_int_equal(wlt_write_file(in_path, input.s, input.n), 0);
    free(input.s);
    snprintf(cmd, sizeof cmd,
             "%s %s -triple=amdgcn-amd-amdhsa -mcpu=%s -mattr=%cwavefrontsize64 %s 2>%s",
             WL_LLVM_MC, assemble ? "-show-encoding" : "-disassemble", mcpu,
             wave64 ? '+' : '-', in_path, err_path);
    int st = 0;
    char *so = wlt_run(cmd, &st);
    assert_non_null(so);
    size_t esz = 0;
    char *se = (char *)wlt_read_file(err_path, &esz);
    assert_non_null(se);
    if (st < 0 || st >= 128 || strstr(se, "Stack dump")) {
        free(so);
        free(se);
        if (hi - lo == 1) {
            if (pad || assemble)
                out->unknown[lo] = true;
            else
                run_llvm_pad(dir, mcpu, wave64, assemble, lines, lo, hi, out, enc, true);
            return;
        }
        size_t mid = lo + (hi - lo) / 2;
        run_llvm_pad(dir, mcpu, wave64, assemble, lines, lo, mid, out, enc, pad);
        run_llvm_pad(dir, mcpu, wave64, assemble, lines, mid, hi, out, enc, pad);
        return;
    }

    /* inputs LLVM complained about */
    size_t n = hi - lo;
    unsigned lines_per = assemble ? 2 : 1 + NMARK + (pad ? 2 : 0);
    bool *bad = calloc(n + 1, sizeof(bool));
    assert_non_null(bad);
    for (char *q = se; (q = strstr(q, "in.txt:")) != NULL;) {
        q += 7;
        unsigned ln = (unsigned)strtoul(q, &q, 10);
        unsigned col = *q == ':' ? (unsigned)strtoul(q + 1, &q, 10) : 0;
        if (ln == 0 || (ln - 1) % lines_per != 0 || (ln - 1) / lines_per >= n)
            continue;
        if (assemble || col == 1)
            bad[(ln - 1) / lines_per] = true;
        else
            out->extra[lo + (ln - 1) / lines_per] = true; /* trailing bytes */
    }

    size_t nxt = lo;
    char *since_text = NULL;
    unsigned since = 0;
    char *save = NULL;
    for (char *line = strtok_r(so, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        while (*line == ' ' || *line == '\t')
            line++;
        if (!*line || strncmp(line, ".text", 5) == 0 || (pad && strcmp(line, "s_nop 0") == 0))
            continue;
        unsigned v;
        if (parse_marker(line, &v)) {
            size_t k = 0;
            while (k < 16 && nxt + k < hi && v != ((nxt + k) & 0xffff))
                k++;
            if (k > 0 && k < 16 && nxt + k < hi) {
                /* markers lost: the inputs in between, and this one's
                 * output, cannot be attributed */
                for (size_t j = 0; j <= k; j++)
                    out->unknown[nxt + j] = true;
                nxt += k;
            }
            if (nxt < hi && v == (nxt & 0xffff)) {
                if (since >= 1 && !bad[nxt - lo] && !out->unknown[nxt]) {
                    out->text[nxt] = strdup(since_text);
                    if (since > 1)
                        out->extra[nxt] = true;
                    if (enc) {
                        char *q = strstr(since_text, "encoding: [");
                        enc[nxt] = q ? strdup(q + 11) : NULL;
                    }
                }
                nxt++;
            }
            since = 0;
            continue;
        }
        if (since++ == 0)
            since_text = line;
    }
    /* inputs whose markers never came */
    for (; nxt < hi; nxt++)
        out->unknown[nxt] = true;
    free(bad);
    free(so);
    free(se);
}

static void run_llvm(const char *dir, const char *mcpu, bool wave64, bool assemble,
                     char **lines, size_t lo, size_t hi, llvm_out *out, char **enc)
{
    run_llvm_pad(dir, mcpu, wave64, assemble, lines, lo, hi, out, enc, false);
}

static unsigned parse_bytes(const char *s, uint32_t *w, unsigned maxw)
{
    uint8_t b[16];
    unsigned nb = 0;
    while (s && *s && *s != ']' && nb < sizeof b) {
        while (*s == ',' || *s == ' ')
            s++;
        if (*s == ']' || !*s)
            break;
        b[nb++] = (uint8_t)strtoul(s, (char **)&s, 0);
    }
    unsigned nw = nb / 4 < maxw ? nb / 4 : maxw;
    for (unsigned i = 0; i < nw; i++)
        w[i] = (uint32_t)b[4 * i] | (uint32_t)b[4 * i + 1] << 8 |
               (uint32_t)b[4 * i + 2] << 16 | (uint32_t)b[4 * i + 3] << 24;
    return nb % 4 ? 0 : nw;
}

/* "0x01,0x02,..." for the words, in a static-free malloc'ed string. */
static char *bytes_str(const uint32_t *w, unsigned nw)
{
    char *p = malloc(5 * 4 * 3 + 1), *q = p;
    assert_non_null(p);
    *q = '\0';
    for (unsigned i = 0; i < nw && i < 3; i++)
        for (unsigned k = 0; k < 4; k++)
            q += sprintf(q, "%s0x%02x", i || k ? "," : "", (w[i] >> (8 * k)) & 0xff);
    return p;
}

/* -------------------------------------------------------- comparing */

typedef struct stats {
    unsigned ops_valid;          /* opcodes LLVM accepted at least once */
    unsigned inst, match;        /* original bytes, LLVM accepted */
    unsigned rej, rej_match;     /* LLVM rejected; we rejected too */
    unsigned rt, rt_match;       /* re-assembled */
    unsigned rt_unstable;        /* LLVM's own text changed on the round trip */
    unsigned bad;                /* mismatches (all kinds) */
    unsigned unknown;            /* LLVM's output lost (marker swallowed) */
} stats;

/* Prints a mismatch (the first MAX_SHOW of a set) and counts it. */
static void show(stats *s, const char *what, const uint32_t *w, unsigned nw, const char *llvm,
                 const char *ours)
{
    if (s->bad++ >= MAX_SHOW)
        return;
    char *bytes = bytes_str(w, nw);
    printf("  MISMATCH (%s) %s\n    llvm: %s\n    ours: %s\n", what, bytes,
           llvm ? llvm : "<invalid>", ours);
    free(bytes);
}

/* Our text for the words, or an error string; returns the decode status. */
static wl_status ours(const wl_decoder *d, const uint32_t *w, unsigned nw, char *buf,
                      size_t cap, unsigned *size)
{
    uint8_t bytes[12];
    for (unsigned i = 0; i < nw; i++)
        for (unsigned k = 0; k < 4; k++)
            bytes[4 * i + k] = (uint8_t)(w[i] >> (8 * k));
    wl_inst inst;
    wl_status st = wl_decode(d, bytes, 4 * nw, 0, &inst);
    if (st != WL_OK) {
        snprintf(buf, cap, "<%s>", wl_status_name(st));
        *size = 0;
        return st;
    }
    wl_print(&inst, buf, cap);
    wlt_squash(buf);
    *size = inst.size;
    return st;
}

static void run_set(const char *dir, wl_target target, bool wave64, bool p)
{
    wl_decoder d;
    wl_decoder_init(&d, target, wave64);
    const char *mcpu = wl_target_name(target);
    rng r = {0x1234567u ^ (uint64_t)target << 32 ^ (uint64_t)wave64 << 40 ^ (uint64_t)p << 41};
    caseset cs = {0};
    unsigned nops = p ? 128 : 1024;
    for (unsigned op = 0; op < nops; op++)
        gen_op(&cs, &r, p, op, wl_vop3_lookup(d.isa, p, op));

    /* 1. disassemble the generated bytes */
    char **lines = calloc(cs.n + 1, sizeof(char *));
    assert_non_null(lines);
    for (size_t i = 0; i < cs.n; i++)
        lines[i] = bytes_str(cs.v[i].w, cs.v[i].nw);
    llvm_out lo = new_out(cs.n);
    run_llvm(dir, mcpu, wave64, false, lines, 0, cs.n, &lo, NULL);
    for (size_t i = 0; i < cs.n; i++) {
        cs.v[i].llvm = lo.text[i];
        cs.v[i].short_ = lo.extra[i];
        cs.v[i].unknown = lo.unknown[i];
        if (cs.v[i].llvm)
            normalize(cs.v[i].llvm);
        free(lines[i]);
    }
    free_out(&lo, 0);

    /* 2. assemble LLVM's texts */
    size_t *idx = calloc(cs.n + 1, sizeof(size_t));
    size_t na = 0;
    for (size_t i = 0; i < cs.n; i++) {
        if (!cs.v[i].llvm)
            continue;
        idx[na] = i;
        lines[na++] = cs.v[i].llvm;
    }
    llvm_out la = new_out(na);
    char **enc = calloc(na + 1, sizeof(char *));
    run_llvm(dir, mcpu, wave64, true, lines, 0, na, &la, enc);
    free_out(&la, na);

    /* 3. disassemble the re-assembled bytes */
    size_t *idx2 = calloc(na + 1, sizeof(size_t));
    size_t nr = 0;
    for (size_t j = 0; j < na; j++) {
        tcase *c = &cs.v[idx[j]];
        if (enc[j])
            c->rnw = parse_bytes(enc[j], c->rw, 3);
        free(enc[j]);
        if (!c->rnw)
            continue;
        idx2[nr] = idx[j];
        lines[nr++] = bytes_str(c->rw, c->rnw);
    }
    free(enc);
    llvm_out l2 = new_out(nr);
    run_llvm(dir, mcpu, wave64, false, lines, 0, nr, &l2, NULL);
    for (size_t j = 0; j < nr; j++) {
        cs.v[idx2[j]].llvm2 = l2.text[j];
        if (l2.text[j])
            normalize(l2.text[j]);
        free(lines[j]);
    }
    free_out(&l2, 0);
    free(idx);
    free(idx2);
    free(lines);

    /* 4. compare */
    stats s = {0};
    bool *seen = calloc(nops, sizeof(bool));
    char buf[512];
    for (size_t i = 0; i < cs.n; i++) {
        tcase *c = &cs.v[i];
        unsigned size = 0;
        if (c->unknown) {
            if (getenv("WLT_VERBOSE")) {
                char *b = bytes_str(c->w, c->nw);
                printf("  unattributable: %s\n", b);
                free(b);
            }
            s.unknown++;
            continue;
        }
        wl_status st = ours(&d, c->w, c->nw, buf, sizeof buf, &size);
        if (!c->llvm) {
            s.rej++;
            if (st == WL_ERR_INVALID)
                s.rej_match++;
            else {
                show(&s, "LLVM rejects", c->w, c->nw, NULL, buf);
            }
            continue;
        }
        seen[c->op] = true;
        s.inst++;
        bool ok = st == WL_OK && strcmp(buf, c->llvm) == 0 &&
                  (c->short_ ? size < 4 * c->nw : size == 4 * c->nw);
        if (ok)
            s.match++;
        else {
            show(&s, c->short_ ? "original bytes, LLVM read fewer" : "original bytes", c->w,
                 c->nw, c->llvm, buf);
        }
        if (!c->rnw || !c->llvm2)
            continue;
        s.rt++;
        st = ours(&d, c->rw, c->rnw, buf, sizeof buf, &size);
        if (st == WL_OK && size == 4 * c->rnw && strcmp(buf, c->llvm) == 0) {
            s.rt_match++;
        } else if (strcmp(c->llvm2, c->llvm) != 0) {
            /* LLVM's own round trip changed the text: compare with that */
            if (getenv("WLT_VERBOSE") && s.rt_unstable < 5)
                printf("  LLVM round trip: %s -> %s\n", c->llvm, c->llvm2);
            s.rt_unstable++;
            if (st == WL_OK && strcmp(buf, c->llvm2) == 0)
                s.rt_match++;
            else {
                show(&s, "re-assembled", c->rw, c->rnw, c->llvm2, buf);
            }
        } else {
            show(&s, "re-assembled", c->rw, c->rnw, c->llvm, buf);
        }
    }
    for (unsigned op = 0; op < nops; op++)
        s.ops_valid += seen[op];
    printf("%s %s w%d: %u opcodes, %u instances, %u match; re-assembled %u, %u match"
           " (%u where LLVM's text changed); LLVM rejected %u, we rejected %u of them;"
           " %u unattributable\n",
           p ? "VOP3P" : "VOP3", mcpu, wave64 ? 64 : 32, s.ops_valid, s.inst, s.match,
           s.rt, s.rt_match, s.rt_unstable, s.rej, s.rej_match, s.unknown);
    fflush(stdout);
    free(seen);
    free_cases(&cs);
    assert_int_equal(s.bad, 0);
}

static void run_target(wl_target t)
{
    char *dir = wlt_tmpdir();
    assert_non_null(dir);
    for (int wave64 = 1; wave64 >= 0; wave64--)
        for (int p = 0; p < 2; p++)
            run_set(dir, t, wave64, p);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (!getenv("WLT_KEEP_TMP"))
        free(wlt_run(cmd, NULL));
    free(dir);
}

static void vop3_gfx1010(void **state)
{
    (void)state;
    run_target(WL_GFX1010);
}

static void vop3_gfx1013(void **state)
{
    (void)state;
    run_target(WL_GFX1013);
}

static void vop3_gfx1030(void **state)
{
    (void)state;
    run_target(WL_GFX1030);
}

/* Truncation and random words: no crash, sane sizes. */
static void vop3_robust(void **state)
{
    (void)state;
    wl_decoder d;
    wl_decoder_init(&d, WL_GFX1030, 1);
    /* v_add_f32_e64 v1, 0x12345678, v2 */
    uint8_t lit[12] = {0x01, 0x00, 0x03, 0xd5, 0xff, 0x04, 0x02, 0x00, 0x78, 0x56, 0x34, 0x12};
    wl_inst inst;
    assert_int_equal(wl_decode(&d, lit, 12, 0, &inst), WL_OK);
    assert_int_equal(inst.size, 12);
    assert_int_equal(wl_decode(&d, lit, 8, 0, &inst), WL_ERR_TRUNCATED);
    assert_int_equal(wl_decode(&d, lit, 4, 0, &inst), WL_ERR_TRUNCATED);
    uint8_t pk[8] = {0x01, 0x40, 0x0f, 0xcc, 0x01, 0x05, 0x02, 0x18}; /* v_pk_add_f16 */
    assert_int_equal(wl_decode(&d, pk, 8, 0, &inst), WL_OK);
    assert_int_equal(inst.format, WL_FMT_VOP3P);
    assert_int_equal(wl_decode(&d, pk, 7, 0, &inst), WL_ERR_TRUNCATED);

    rng r = {42};
    char buf[256];
    for (unsigned i = 0; i < 200000; i++) {
        uint8_t b[12];
        for (unsigned k = 0; k < 12; k++)
            b[k] = (uint8_t)rnd(&r);
        b[3] = (i & 1) ? 0xcc : (uint8_t)(0xd4 | (b[3] & 3));
        size_t len = 1 + rnd_n(&r, 12);
        wl_decoder_init(&d, (wl_target)(rnd_n(&r, WL_TARGET_COUNT)), (int)(i >> 1) & 1);
        wl_status st = wl_decode(&d, b, len, 0, &inst);
        if (st == WL_OK) {
            assert_true(inst.size == 8 || inst.size == 12);
            assert_true(inst.size <= len);
            size_t n = wl_print(&inst, buf, sizeof buf);
            assert_true(n < sizeof buf);
            assert_non_null(inst.name);
        } else {
            assert_true(st == WL_ERR_INVALID || st == WL_ERR_TRUNCATED);
        }
    }
}

static void decode_hex(const wl_decoder *d, const uint8_t *b, size_t n, wl_inst *inst)
{
    assert_int_equal(wl_decode(d, b, n, 0, inst), WL_OK);
    assert_int_equal(inst->size, n);
}

/* The decoded structure the lifter reads: operand kinds, widths, modifiers. */
static void vop3_fields(void **state)
{
    (void)state;
    wl_decoder d64, d32;
    wl_decoder_init(&d64, WL_GFX1030, 1);
    wl_decoder_init(&d32, WL_GFX1030, 0);
    wl_inst in;

    /* v_add_co_u32 v1, s[4:5], v2, s3 (VOP3b) */
    const uint8_t addco[8] = {0x01, 0x04, 0x0f, 0xd7, 0x02, 0x07, 0x00, 0x00};
    decode_hex(&d64, addco, 8, &in);
    assert_int_equal(in.format, WL_FMT_VOP3);
    assert_int_equal(in.venc, WL_VENC_E64);
    assert_string_equal(in.name, "v_add_co_u32");
    assert_int_equal(in.ndst, 2);
    assert_int_equal(in.dst[0].kind, WL_OPND_VGPR);
    assert_int_equal(in.dst[1].kind, WL_OPND_SGPR);
    assert_int_equal(in.dst[1].index, 4);
    assert_int_equal(in.dst[1].nregs, 2);
    assert_int_equal(in.nsrc, 2);
    assert_int_equal(in.src[1].kind, WL_OPND_SGPR);
    assert_int_equal(in.src[1].index, 3);
    decode_hex(&d32, addco, 8, &in);
    assert_int_equal(in.dst[1].nregs, 1);

    /* v_cmp_lt_f32_e64 vcc, -|v1|, 0x40490fdb */
    const uint8_t cmp[12] = {0x6a, 0x01, 0x01, 0xd4, 0x01, 0xff, 0x01, 0x20,
                             0xdb, 0x0f, 0x49, 0x40};
    decode_hex(&d64, cmp, 12, &in);
    assert_string_equal(in.name, "v_cmp_lt_f32");
    assert_int_equal(in.op, 1);
    assert_int_equal(in.ndst, 1);
    assert_int_equal(in.dst[0].kind, WL_OPND_SPECIAL);
    assert_int_equal(in.dst[0].index, WL_SRC_VCC_LO);
    assert_int_equal(in.dst[0].nregs, 2);
    assert_true(in.src[0].neg && in.src[0].abs);
    assert_int_equal(in.src[1].kind, WL_OPND_LITERAL);
    assert_int_equal(in.src[1].value, 0x40490fdb);
    assert_true(in.has_literal);

    /* v_fma_f16 v0, v1, v2, v3 op_sel:[1,0,1,1] clamp */
    const uint8_t fma[8] = {0x00, 0xe8, 0x4b, 0xd7, 0x01, 0x05, 0x0e, 0x04};
    decode_hex(&d64, fma, 8, &in);
    assert_int_equal(in.f.v.op_sel, 0xd);
    assert_int_equal(in.f.v.clamp, 1);

    /* v_pk_fma_f16 v0, v1, v2, v3 op_sel_hi:[0,1,1] neg_lo:[1,0,0] */
    const uint8_t pk[8] = {0x00, 0x40, 0x0e, 0xcc, 0x01, 0x05, 0x0e, 0x34};
    decode_hex(&d64, pk, 8, &in);
    assert_int_equal(in.format, WL_FMT_VOP3P);
    assert_int_equal(in.nsrc, 3);
    assert_int_equal(in.f.v.op_sel_hi, 6);
    assert_int_equal(in.f.v.neg_lo, 1);
    assert_false(in.src[0].neg); /* packed negation stays in neg_lo */
    char buf[128];
    wl_print(&in, buf, sizeof buf);
    assert_string_equal(buf, "v_pk_fma_f16 v0, v1, v2, v3 op_sel_hi:[0,1,1] neg_lo:[1,0,0]");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(vop3_robust),
        cmocka_unit_test(vop3_fields),
        cmocka_unit_test(vop3_gfx1010),
        cmocka_unit_test(vop3_gfx1013),
        cmocka_unit_test(vop3_gfx1030),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
