/* The memory formats (DS, MUBUF, MTBUF, MIMG, FLAT, GLOBAL, SCRATCH)
 * against LLVM 19, for gfx1010, gfx1013 and gfx1030 in wave64 and wave32.
 *
 * For every opcode number of a format the test builds encodings with random,
 * varied fields (registers up to v255 and out of range, every modifier bit,
 * SGPR/special/inline-constant soffsets, saddr and "off", NSA address
 * dwords, swizzle patterns, formats, ...), keeping a mix of encodings our
 * decoder accepts and rejects. Then:
 *   1. llvm-mc -disassemble turns them into text; our decoder+printer must
 *      give the same text, and must reject exactly the ones LLVM rejects;
 *   2. llvm-mc assembles LLVM's text back to bytes, llvm-mc disassembles
 *      those again, and our decoder+printer must give that text too.
 * Each encoding is disassembled as its own [..] block followed by a marker
 * instruction (s_mov_b32 s0, 0x5aNNNNNN) that says which block the preceding
 * output belongs to. Texts are compared with white space squashed. */
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
#include "wavelift/decode.h"

#define MARK 0x5a000000u
#define MAX_REPORT 30

typedef struct rng { uint64_t s; } rng;

static uint32_t rnd(rng *r)
{
    r->s ^= r->s << 13;
    r->s ^= r->s >> 7;
    r->s ^= r->s << 17;
    return (uint32_t)(r->s >> 16);
}

static unsigned bit(rng *r, unsigned one_in) { return rnd(r) % one_in == 0; }

/* A VGPR number: often low, sometimes at the top of the file. */
static unsigned vreg(rng *r)
{
    switch (rnd(r) % 8) {
    case 0: return 0;
    case 1: return 250 + rnd(r) % 6;
    default: return rnd(r) & 0xff;
    }
}

typedef struct enc {
    uint32_t w[WL_MAX_WORDS];
    unsigned n;
    unsigned op;
} enc;

/* ---- candidate generators, one per format ----------------------------
 * Every random draw is its own statement, so that the sequence (and so the
 * encodings) does not depend on the compiler's evaluation order. */

/* A single-bit field at `shift`, set with probability 1/one_in. */
static uint32_t flag(rng *r, unsigned shift, unsigned one_in)
{
    return (uint32_t)bit(r, one_in) << shift;
}

static void gen_ds(rng *r, unsigned op, enc *e)
{
    unsigned off, kind = rnd(r) % 6;
    switch (kind) {
    case 0: off = 0; break;
    case 1: off = 0x8000 | (rnd(r) & 0xff); break;              /* quad perm */
    case 2: off = 0x1f | (1u << (10 + rnd(r) % 5)); break;      /* swap */
    case 3: off = 0x1f | ((0xfu >> (rnd(r) % 4)) << 10); break; /* reverse */
    case 4: {                                                   /* broadcast */
        unsigned group = rnd(r) % 6;
        off = (0x1f & ~((1u << group) - 1)) | (rnd(r) % 4) << 5;
        break;
    }
    default: off = rnd(r) & 0xffff; break;
    }
    uint32_t w0 = 0x36u << 26 | op << 18 | off;
    w0 |= flag(r, 17, 3);  /* gds */
    w0 |= flag(r, 16, 16); /* ignored */
    uint32_t w1 = 0;
    for (int f = 0; f < 4; f++)
        if (bit(r, 2))
            w1 |= vreg(r) << (8 * f);
    e->w[0] = w0;
    e->w[1] = w1;
    e->n = 2;
}

static unsigned soffset(rng *r)
{
    switch (rnd(r) % 4) {
    case 0: return rnd(r) % 106;
    case 1: return 106 + rnd(r) % 22;
    default: return rnd(r) & 0xff;
    }
}

/* dword 1 of MUBUF/MTBUF */
static uint32_t buf_w1(rng *r)
{
    uint32_t w = soffset(r) << 24;
    w |= flag(r, 23, 4); /* tfe */
    w |= flag(r, 22, 2); /* slc */
    w |= (rnd(r) & 0x1f) << 16;
    w |= vreg(r) << 8;
    w |= vreg(r);
    return w;
}

/* soffset 255 takes a literal dword; some equal inline constants. */
static void buf_literal(rng *r, enc *e)
{
    static const uint32_t lits[] = {
        0, 5, 64, 65, 0xfffffff0, 0xffffffef, 0x3f800000, 0xc0800000, 0x3e22f983,
        0x3f000000, 0x12345678, 0x80000000, 0x3f800001,
    };
    e->n = 2;
    if (e->w[1] >> 24 == 255) {
        if (bit(r, 2))
            e->w[2] = lits[rnd(r) % (sizeof(lits) / sizeof(lits[0]))];
        else
            e->w[2] = rnd(r) * 65537u;
        e->n = 3;
    }
}

/* offen, idxen, glc, dlc (MUBUF: lds) of dword 0 */
static uint32_t buf_w0_bits(rng *r, bool lds)
{
    uint32_t w = 0;
    if (lds)
        w |= flag(r, 16, 4);
    w |= flag(r, 15, 4);
    w |= flag(r, 14, 3);
    w |= flag(r, 13, 2);
    w |= flag(r, 12, 2);
    if (!bit(r, 3))
        w |= rnd(r) & 0xfff;
    return w;
}

static void gen_mubuf(rng *r, unsigned op, enc *e)
{
    uint32_t w0 = 0x38u << 26 | (op >> 7) << 25 | (op & 0x7f) << 18;
    w0 |= flag(r, 17, 8); /* ignored */
    w0 |= buf_w0_bits(r, true);
    uint32_t w1 = 0;
    if (!bit(r, 4)) {
        w1 = buf_w1(r);
        w1 |= flag(r, 21, 8); /* ignored */
    }
    if (bit(r, 4))
        w0 &= ~0x1f000u; /* the shape of the cache invalidates */
    e->w[0] = w0;
    e->w[1] = w1;
    buf_literal(r, e);
}

static void gen_mtbuf(rng *r, unsigned op, enc *e)
{
    unsigned fmt = 1;
    if (!bit(r, 4))
        fmt = rnd(r) & 0x7f;
    e->w[0] = 0x3au << 26 | fmt << 19 | (op & 7) << 16;
    e->w[0] |= buf_w0_bits(r, false);
    e->w[1] = (buf_w1(r) & ~(1u << 21)) | (op >> 3) << 21;
    buf_literal(r, e);
}

static void gen_flat_seg(rng *r, unsigned seg, unsigned op, enc *e)
{
    unsigned saddr;
    switch (rnd(r) % 8) {
    case 0: case 1: case 2: saddr = 0x7d; break;
    case 3: saddr = 0x7f; break;
    case 4: saddr = 106 + rnd(r) % 22; break;
    default: saddr = rnd(r) & 0x7f; break;
    }
    if (seg == 0 && !bit(r, 4))
        saddr = 0x7d;
    if (bit(r, 16))
        seg = 3;
    uint32_t w0 = 0x37u << 26 | (op & 0x7f) << 18 | seg << 14;
    w0 |= flag(r, 25, 4); /* ignored */
    w0 |= flag(r, 17, 3); /* slc */
    w0 |= flag(r, 16, 3); /* glc */
    w0 |= flag(r, 13, 4); /* lds */
    w0 |= flag(r, 12, 3); /* dlc */
    if (!bit(r, 3))
        w0 |= rnd(r) & 0xfff;
    uint32_t w1 = saddr << 16;
    if (!bit(r, 3))
        w1 |= vreg(r) << 24; /* vdst */
    w1 |= flag(r, 23, 16);   /* reserved */
    if (!bit(r, 4))
        w1 |= vreg(r) << 8;  /* data */
    if (!bit(r, 6))
        w1 |= vreg(r);       /* addr */
    e->w[0] = w0;
    e->w[1] = w1;
    e->n = 2;
}

static void gen_flat(rng *r, unsigned op, enc *e) { gen_flat_seg(r, 0, op, e); }
static void gen_scratch(rng *r, unsigned op, enc *e) { gen_flat_seg(r, 1, op, e); }
static void gen_global(rng *r, unsigned op, enc *e) { gen_flat_seg(r, 2, op, e); }

static void gen_mimg(rng *r, unsigned op, enc *e)
{
    unsigned nsa = 0;
    if (!bit(r, 2))
        nsa = 1 + rnd(r) % 3;
    unsigned dmask = 0xf;
    if (!bit(r, 4))
        dmask = rnd(r) & 0xf;
    /* steer the BVH opcodes towards their fixed shape */
    bool bvh = op >= 230 && op <= 231 && bit(r, 2);
    unsigned dim = rnd(r) & 7;
    uint32_t w0 = 0x3cu << 26 | (op & 0x7f) << 18 | nsa << 1 | op >> 7;
    w0 |= flag(r, 25, 4); /* slc */
    w0 |= flag(r, 17, 4); /* lwe */
    w0 |= flag(r, 16, 4); /* tfe */
    w0 |= flag(r, 15, 4); /* r128 */
    w0 |= flag(r, 14, 16); /* ignored */
    w0 |= flag(r, 13, 4); /* glc */
    w0 |= flag(r, 12, 4); /* unorm */
    w0 |= flag(r, 7, 4);  /* dlc */
    w0 |= flag(r, 6, 16); /* ignored */
    if (bvh)
        w0 = (w0 & ~(1u << 25 | 3u << 16 | 1u << 13 | 1u << 7)) | 1u << 15 | 1u << 12 | 0xfu << 8;
    else
        w0 |= dmask << 8 | dim << 3;
    unsigned srsrc = rnd(r) % 24;
    if (bit(r, 4))
        srsrc = rnd(r) & 0x1f;
    unsigned ssamp = 0;
    if (!bit(r, 2))
        ssamp = rnd(r) & 0x1f;
    uint32_t w1 = srsrc << 16;
    w1 |= flag(r, 31, 4); /* d16 */
    w1 |= flag(r, 30, 3); /* a16 */
    w1 |= ssamp << 21;
    w1 |= vreg(r) << 8;
    w1 |= vreg(r);
    if (bvh)
        w1 &= ~(1u << 31 | 0x1fu << 21);
    e->w[0] = w0;
    e->w[1] = w1;
    for (unsigned i = 0; i < nsa; i++) {
        uint32_t v = 0;
        for (unsigned k = 0; k < 4; k++)
            v |= vreg(r) << (8 * k);
        e->w[2 + i] = v;
    }
    e->n = 2 + nsa;
}

/* ---- the formats ------------------------------------------------------ */

#define MAX_FEATURES 20

typedef struct fmt_spec {
    const char *name;
    unsigned nops;
    void (*gen)(rng *, unsigned, enc *);
    unsigned want_valid, want_invalid; /* per opcode */
    /* text fragments whose matching instances the test counts, to show
     * that the features were exercised */
    const char *features[MAX_FEATURES];
} fmt_spec;

static const fmt_spec formats[] = {
    { "DS", 256, gen_ds, 20, 4,
      { " offset:", " offset0:", " offset1:", " gds", "swizzle(QUAD_PERM", "swizzle(SWAP",
        "swizzle(REVERSE", "swizzle(BROADCAST", "swizzle(BITMASK_PERM", "ds_swizzle_b32 v",
        "_rtn_", "ds_gws_", "ds_append", "ds_consume", "d16_hi", "permute", "2st64",
        "addtid", "ds_nop", "ds_ordered_count" } },
    { "MUBUF", 256, gen_mubuf, 20, 4,
      { " off,", " offen", " idxen", " offset:", " glc", " slc", " dlc", " lds", " tfe",
        ", null", ", m0", ", -", ", 0x", ", ttmp[", "d16_hi", "buffer_gl0_inv", "buffer_gl1_inv",
        "buffer_atomic_cmpswap_x2", "buffer_load_format_d16_xyzw" } },
    { "MTBUF", 16, gen_mtbuf, 60, 12,
      { " format:[", " format:1", " off,", " offen", " idxen", " offset:", " glc", " slc",
        " dlc", "d16_xyz", ", 0x" } },
    { "MIMG", 256, gen_mimg, 60, 6,
      { " dmask:", "_CUBE", "_2D_MSAA_ARRAY", " unorm", " glc", " slc", " dlc", " r128",
        " a16", " tfe", " lwe", " d16", ", [v", "image_bvh_intersect_ray",
        "image_bvh64_intersect_ray", "image_gather4", "image_atomic", "_g16", "image_msaa_load",
        "ttmp[" } },
    { "FLAT", 128, gen_flat, 20, 3,
      { " offset:", " glc", " slc", " dlc", "d16_hi", "flat_atomic", "_x2" } },
    { "GLOBAL", 128, gen_global, 20, 3,
      { " offset:-", " offset:", ", off", ", s[", ", vcc", ", ttmp[", ", exec", " lds", "addtid",
        "global_atomic", " glc", "d16_hi", "csub" } },
    { "SCRATCH", 128, gen_scratch, 20, 3,
      { " off,", ", off", " offset:-", " lds", ", vcc_lo", ", m0", ", exec_hi", "d16_hi",
        ", ttmp" } },
};
#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

typedef struct target {
    const char *cpu;
    wl_target t;
} target;

static const target targets[] = {
    { "gfx1010", WL_GFX1010 }, { "gfx1013", WL_GFX1013 }, { "gfx1030", WL_GFX1030 },
};

/* ---- llvm-mc ------------------------------------------------------------ */

static char *tmpdir_path;

static char *run_llvm(const char *cpu, int wave64, const char *args, const char *input)
{
    char path[512], cmd[1024];
    snprintf(path, sizeof(path), "%s/in.txt", tmpdir_path);
    if (wlt_write_file(path, input, strlen(input)) != 0)
        return NULL;
    snprintf(cmd, sizeof(cmd),
             "%s -triple=amdgcn-amd-amdhsa -mcpu=%s -mattr=%s %s %s 2>/dev/null",
             WL_LLVM_MC, cpu, wave64 ? "+wavefrontsize64" : "+wavefrontsize32", args, path);
    int st;
    return wlt_run(cmd, &st);
}

/* Splits llvm-mc -disassemble output into per-block results: out[i] is the
 * squashed text of block i's single instruction, "" when LLVM rejected it,
 * or "PARTIAL: " and the texts joined with " | " when LLVM decoded the block
 * as several instructions. */
static void split_blocks(char *text, unsigned n, char **out)
{
    for (unsigned i = 0; i < n; i++)
        out[i] = strdup("");
    wlt_text cur = {0};
    unsigned ncur = 0;
    wlt_textf(&cur, "%s", "");
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        wlt_squash(line);
        if (!*line || line[0] == '.')
            continue;
        unsigned id;
        if (sscanf(line, "s_mov_b32 s0, 0x%x", &id) == 1 && (id & 0xff000000u) == MARK) {
            id &= 0xffffff;
            if (id < n && ncur) {
                size_t l = strlen(cur.s) + 16;
                free(out[id]);
                out[id] = malloc(l);
                snprintf(out[id], l, "%s%s", ncur > 1 ? "PARTIAL: " : "", cur.s);
            }
            cur.n = 0;
            cur.s[0] = '\0';
            ncur = 0;
            continue;
        }
        if (ncur)
            wlt_textf(&cur, " | ");
        wlt_textf(&cur, "%s", line);
        ncur++;
    }
    free(cur.s);
}

/* Reads the encodings of an assembler run: bytes2[i] for line block i. */
static void split_asm(char *text, unsigned n, enc *out, int *ok)
{
    for (unsigned i = 0; i < n; i++)
        ok[i] = 0;
    uint8_t bytes[64];
    unsigned nbytes = 0, ninst = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *encp = strstr(line, "; encoding: [");
        if (!encp)
            continue;
        *encp = '\0';
        encp += strlen("; encoding: [");
        wlt_squash(line);
        unsigned id;
        if (sscanf(line, "s_mov_b32 s0, 0x%x", &id) == 1 && (id & 0xff000000u) == MARK) {
            id &= 0xffffff;
            if (id < n && ninst == 1 && nbytes % 4 == 0 && nbytes / 4 <= WL_MAX_WORDS) {
                memset(out[id].w, 0, sizeof(out[id].w));
                for (unsigned k = 0; k < nbytes; k++)
                    out[id].w[k / 4] |= (uint32_t)bytes[k] << (8 * (k % 4));
                out[id].n = nbytes / 4;
                ok[id] = 1;
            }
            nbytes = ninst = 0;
            continue;
        }
        ninst++;
        nbytes = 0;
        for (char *p = encp; *p && *p != ']';) {
            unsigned v;
            if (sscanf(p, "0x%x", &v) == 1 && nbytes < sizeof(bytes))
                bytes[nbytes++] = (uint8_t)v;
            char *c = strchr(p, ',');
            if (!c)
                break;
            p = c + 1;
        }
    }
}

static void put_block(wlt_text *b, const enc *e, unsigned id)
{
    wlt_textf(b, "[");
    for (unsigned i = 0; i < e->n + 2; i++) {
        uint32_t v = i < e->n ? e->w[i] : (i == e->n ? 0xbe8003ffu : MARK + id);
        for (unsigned k = 0; k < 4; k++)
            wlt_textf(b, "%s0x%02x", i || k ? "," : "", (v >> (8 * k)) & 0xff);
    }
    wlt_textf(b, "]\n");
}

/* ---- comparison --------------------------------------------------------- */

typedef struct stats {
    unsigned instances, match, rejected, rejected_ok;
    unsigned feature[MAX_FEATURES];
    unsigned rt_texts, rt_instances, rt_match;
    unsigned char op_seen[256];
    unsigned mismatches;
} stats;

static unsigned total_mismatches;

/* Prints the first mismatches: up to 8 per format, MAX_REPORT in all. */
static void report(stats *st, const char *what, const target *tg, int wave64, const enc *e,
                   const char *llvm, const char *ours)
{
    if (st->mismatches++ >= 8 || total_mismatches++ >= MAX_REPORT)
        return;
    printf("MISMATCH (%s) %s w%d:", what, tg->cpu, wave64 ? 64 : 32);
    for (unsigned i = 0; i < e->n; i++)
        printf(" %08x", e->w[i]);
    printf("\n  llvm: %s\n  ours: %s\n", *llvm ? llvm : "<invalid>", ours);
}

/* Our decoder+printer on e: the text, or "" when it rejects it. *size_out
 * (if given) gets the size in bytes our decoder found. */
static void ours(const wl_decoder *d, const enc *e, char *out, size_t cap, wl_status *st_out,
                 unsigned *size_out)
{
    uint8_t bytes[4 * WL_MAX_WORDS];
    for (unsigned i = 0; i < e->n; i++)
        for (unsigned k = 0; k < 4; k++)
            bytes[4 * i + k] = (uint8_t)(e->w[i] >> (8 * k));
    wl_inst inst;
    wl_status st = wl_decode(d, bytes, 4 * e->n, 0, &inst);
    *st_out = st;
    if (size_out)
        *size_out = inst.size;
    out[0] = '\0';
    if (st != WL_OK)
        return;
    if (inst.size != 4 * e->n) {
        snprintf(out, cap, "<decoded %u of %u bytes>", inst.size, 4 * e->n);
        return;
    }
    wl_print(&inst, out, cap);
    wlt_squash(out);
}

static void run_format(const fmt_spec *fs, const target *tg, int wave64, stats *st, rng *r)
{
    wl_decoder d;
    wl_decoder_init(&d, tg->t, wave64);

    /* 1. candidates: a mix of encodings we accept and reject per opcode */
    unsigned cap = fs->nops * (2 * fs->want_valid + fs->want_invalid) + 16;
    enc *encs = calloc(cap, sizeof(enc));
    unsigned n = 0;
    for (unsigned op = 0; op < fs->nops; op++) {
        unsigned nv = 0, ni = 0;
        for (unsigned tries = 0; tries < 6000 && (nv < fs->want_valid || ni < fs->want_invalid);
             tries++) {
            enc e = {0};
            fs->gen(r, op, &e);
            e.op = op;
            char txt[512];
            wl_status s;
            unsigned size;
            ours(&d, &e, txt, sizeof(txt), &s, &size);
            /* a generator's extra dword our decoder does not use (a literal
             * for an instruction without soffset): drop it. LLVM sees the
             * same bytes, so a wrong size of ours still shows. */
            if (s == WL_OK && size < 4 * e.n)
                e.n = size / 4;
            if (s == WL_OK ? nv++ < fs->want_valid : ni++ < fs->want_invalid)
                encs[n++] = e;
        }
        /* an opcode we reject outright: more samples, in case LLVM has it */
        for (unsigned k = 0; nv == 0 && k < fs->want_valid; k++) {
            enc e = {0};
            fs->gen(r, op, &e);
            e.op = op;
            encs[n++] = e;
        }
    }

    /* 2. LLVM's disassembly of the candidates */
    wlt_text in = {0};
    for (unsigned i = 0; i < n; i++)
        put_block(&in, &encs[i], i);
    char *out = run_llvm(tg->cpu, wave64, "-disassemble", in.s);
    assert_non_null(out);
    char **llvm = calloc(n, sizeof(char *));
    split_blocks(out, n, llvm);
    free(out);

    wlt_text asm_in = {0};
    unsigned nvalid = 0;
    for (unsigned i = 0; i < n; i++) {
        char txt[512];
        wl_status s;
        ours(&d, &encs[i], txt, sizeof(txt), &s, NULL);
        if (!*llvm[i]) {
            st->rejected++;
            if (s == WL_ERR_INVALID)
                st->rejected_ok++;
            else
                report(st, "LLVM rejects", tg, wave64, &encs[i], "", *txt ? txt : "<error>");
            continue;
        }
        st->instances++;
        if (strcmp(llvm[i], txt) == 0) {
            st->match++;
            st->op_seen[encs[i].op] = 1;
            for (unsigned k = 0; k < MAX_FEATURES && fs->features[k]; k++)
                st->feature[k] += strstr(txt, fs->features[k]) != NULL;
        } else {
            report(st, "disassembly", tg, wave64, &encs[i], llvm[i], *txt ? txt : "<rejected>");
        }
        if (strncmp(llvm[i], "PARTIAL", 7) != 0) {
            st->rt_texts++;
            wlt_textf(&asm_in, "%s\ns_mov_b32 s0, 0x%x\n", llvm[i], MARK + nvalid);
            encs[nvalid++] = encs[i]; /* keep for the error report */
        }
    }

    /* 3. round trip: assemble LLVM's text, disassemble it again */
    if (nvalid) {
        char *asm_out = run_llvm(tg->cpu, wave64, "-show-encoding", asm_in.s);
        assert_non_null(asm_out);
        enc *re = calloc(nvalid, sizeof(enc));
        int *ok = calloc(nvalid, sizeof(int));
        split_asm(asm_out, nvalid, re, ok);
        free(asm_out);
        wlt_text in2 = {0};
        unsigned n2 = 0;
        unsigned *map = calloc(nvalid, sizeof(unsigned));
        for (unsigned i = 0; i < nvalid; i++)
            if (ok[i]) {
                put_block(&in2, &re[i], n2);
                map[n2++] = i;
            }
        if (n2) {
            char *out2 = run_llvm(tg->cpu, wave64, "-disassemble", in2.s);
            assert_non_null(out2);
            char **llvm2 = calloc(n2, sizeof(char *));
            split_blocks(out2, n2, llvm2);
            free(out2);
            for (unsigned j = 0; j < n2; j++) {
                const enc *e = &re[map[j]];
                char txt[512];
                wl_status s;
                ours(&d, e, txt, sizeof(txt), &s, NULL);
                st->rt_instances++;
                if (strcmp(llvm2[j], txt) == 0)
                    st->rt_match++;
                else
                    report(st, "round trip", tg, wave64, e, llvm2[j], *txt ? txt : "<rejected>");
                free(llvm2[j]);
            }
            free(llvm2);
        }
        free(in2.s);
        free(map);
        free(re);
        free(ok);
    }
    for (unsigned i = 0; i < n; i++)
        free(llvm[i]);
    free(llvm);
    free(in.s);
    free(asm_in.s);
    free(encs);
}

static void mem_formats(void **state)
{
    (void)state;
    tmpdir_path = wlt_tmpdir();
    assert_non_null(tmpdir_path);
    rng r = { 0x9e3779b97f4a7c15ull };
    const char *seed = getenv("WLT_MEM_SEED"); /* debugging: other encodings */
    if (seed && strtoull(seed, NULL, 0))
        r.s = strtoull(seed, NULL, 0);
    unsigned bad = 0;
    const char *only = getenv("WLT_MEM_FORMAT"); /* debugging: one format */
    for (unsigned f = 0; f < NFORMATS; f++) {
        if (only && strcmp(only, formats[f].name) != 0)
            continue;
        stats st;
        memset(&st, 0, sizeof(st));
        for (unsigned t = 0; t < sizeof(targets) / sizeof(targets[0]); t++)
            for (int wave64 = 1; wave64 >= 0; wave64--)
                run_format(&formats[f], &targets[t], wave64, &st, &r);
        unsigned ops = 0;
        for (unsigned i = 0; i < 256; i++)
            ops += st.op_seen[i];
        printf("%s: %u opcodes, %u instances, %u match; %u rejected by LLVM, %u rejected by us; "
               "round trip: %u of %u texts reassembled, %u match\n",
               formats[f].name, ops, st.instances, st.match, st.rejected, st.rejected_ok,
               st.rt_instances, st.rt_texts, st.rt_match);
        printf("  matching instances with");
        for (unsigned k = 0; k < MAX_FEATURES && formats[f].features[k]; k++)
            printf("%s '%s' %u", k ? "," : "", formats[f].features[k], st.feature[k]);
        printf("\n");
        bad += st.mismatches;
    }
    fflush(stdout);
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir_path);
    int st;
    free(wlt_run(cmd, &st));
    free(tmpdir_path);
    assert_int_equal(bad, 0);
}

/* Truncated input and garbage never crash and report the right status. */
static void mem_truncated(void **state)
{
    (void)state;
    wl_decoder d;
    wl_decoder_init(&d, WL_GFX1030, 1);
    /* image_sample with 2 NSA dwords cut off, a DS cut off, global cut off */
    static const uint8_t nsa[] = { 0x04, 0x01, 0x88, 0xf0, 0x0a, 0x14, 0x60, 0x00, 1, 2, 3, 4 };
    static const uint8_t ds[] = { 0x00, 0x00, 0x34, 0xd8 };
    wl_inst inst;
    assert_int_equal(wl_decode(&d, nsa, sizeof(nsa), 0, &inst), WL_ERR_TRUNCATED);
    assert_int_equal(wl_decode(&d, ds, sizeof(ds), 0, &inst), WL_ERR_TRUNCATED);
    rng r = { 12345 };
    for (unsigned i = 0; i < 200000; i++) {
        uint8_t b[20];
        for (unsigned k = 0; k < sizeof(b); k++)
            b[k] = (uint8_t)rnd(&r);
        static const uint8_t prefix[5] = { 0xd8, 0xdc, 0xe0, 0xe8, 0xf0 };
        b[3] = (uint8_t)((b[3] & 3) | prefix[i % 5]);
        size_t len = rnd(&r) % 21;
        if (wl_decode(&d, b, len, 0, &inst) == WL_OK) {
            char txt[512];
            assert_true(inst.size <= len);
            assert_true(wl_print(&inst, txt, sizeof(txt)) < sizeof(txt));
        }
    }
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mem_truncated),
        cmocka_unit_test(mem_formats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
