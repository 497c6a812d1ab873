/* Match statistics for the tests that compare wavelift's text with LLVM's
 * (test_listing, test_aco): counts by encoding format and by mnemonic,
 * with the first mismatch of each kept as an example.
 *
 * The format is found from the first encoding dword by the gfx10 encoding
 * prefixes, independently of the decoder under test. */
#ifndef WLT_STATS_H
#define WLT_STATS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The encoding format of an instruction whose first dword is w0;
 * VOP1/VOP2/VOPC name their SDWA/DPP16/DPP8 variants separately. */
static inline const char *wlt_classify(uint32_t w0)
{
    if ((w0 >> 31) == 0) {
        static const char *const names[3][4] = {
            { "VOP2", "VOP2 SDWA", "VOP2 DPP16", "VOP2 DPP8" },
            { "VOP1", "VOP1 SDWA", "VOP1 DPP16", "VOP1 DPP8" },
            { "VOPC", "VOPC SDWA", "VOPC DPP16", "VOPC DPP8" },
        };
        unsigned src0 = w0 & 0x1ff, top = w0 >> 25;
        int fam = top == 0x3f ? 1 : top == 0x3e ? 2 : 0;
        int var = src0 == 0xf9 ? 1 : src0 == 0xfa ? 2 : (src0 == 0xe9 || src0 == 0xea) ? 3 : 0;
        return names[fam][var];
    }
    if ((w0 >> 30) == 2) {
        switch (w0 >> 23) {
        case 0x17d: return "SOP1";
        case 0x17e: return "SOPC";
        case 0x17f: return "SOPP";
        default: return (w0 >> 28) == 0xb ? "SOPK" : "SOP2";
        }
    }
    if ((w0 >> 24) == 0xcc)
        return "VOP3P";
    switch (w0 >> 26) {
    case 0x3d: return "SMEM";
    case 0x35: return "VOP3";
    case 0x36: return "DS";
    case 0x37: {
        static const char *const seg[4] = { "FLAT", "SCRATCH", "GLOBAL", "FLAT seg3" };
        return seg[(w0 >> 14) & 3];
    }
    case 0x38: return "MUBUF";
    case 0x3a: return "MTBUF";
    case 0x3c: return "MIMG";
    default: return "unknown";
    }
}

typedef struct wlt_stat {
    char key[96];
    unsigned total, match;
    char *ex_enc, *ex_llvm, *ex_ours; /* the first mismatch */
} wlt_stat;

typedef struct wlt_stats {
    wlt_stat *v;
    size_t n;
} wlt_stats;

static inline wlt_stat *wlt_stats_get(wlt_stats *s, const char *key)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->v[i].key, key) == 0)
            return &s->v[i];
    wlt_stat *nv = realloc(s->v, (s->n + 1) * sizeof(*s->v));
    if (!nv)
        abort();
    s->v = nv;
    wlt_stat *t = &s->v[s->n++];
    memset(t, 0, sizeof(*t));
    snprintf(t->key, sizeof(t->key), "%s", key);
    return t;
}

static inline void wlt_stats_add(wlt_stats *s, const char *key, int ok, const char *enc,
                                 const char *llvm, const char *ours)
{
    wlt_stat *t = wlt_stats_get(s, key);
    t->total++;
    t->match += ok != 0;
    if (!ok && !t->ex_llvm) {
        t->ex_enc = strdup(enc);
        t->ex_llvm = strdup(llvm);
        t->ex_ours = strdup(ours);
    }
}

static inline int wlt_stat_cmp(const void *a, const void *b)
{
    const wlt_stat *x = a, *y = b;
    unsigned mx = x->total - x->match, my = y->total - y->match;
    if (mx != my)
        return mx < my ? 1 : -1;
    if (x->total != y->total)
        return x->total < y->total ? 1 : -1;
    return strcmp(x->key, y->key);
}

static inline void wlt_stats_free(wlt_stats *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->v[i].ex_enc);
        free(s->v[i].ex_llvm);
        free(s->v[i].ex_ours);
    }
    free(s->v);
    s->v = NULL;
    s->n = 0;
}

/* Statistics for one comparison run: by "FORMAT" and by "FORMAT mnemonic". */
typedef struct wlt_report {
    wlt_stats by_fmt, by_op;
} wlt_report;

/* Records one instruction: its encoding (as text), LLVM's and our text. */
static inline void wlt_report_add(wlt_report *r, uint32_t w0, const char *enc, const char *llvm,
                                  const char *ours)
{
    int ok = strcmp(llvm, ours) == 0;
    const char *fmt = wlt_classify(w0);
    char key[96];
    size_t mn = strcspn(llvm, " ");
    snprintf(key, sizeof(key), "%s %.*s", fmt, (int)(mn < 60 ? mn : 60), llvm);
    wlt_stats_add(&r->by_fmt, fmt, ok, enc, llvm, ours);
    wlt_stats_add(&r->by_op, key, ok, enc, llvm, ours);
}

/* Prints, per format, "FMT: N opcodes, M instances, K match", then up to
 * max_ops mnemonics with mismatches, most first, each with one example. */
static inline void wlt_report_print(wlt_report *r, size_t max_ops)
{
    qsort(r->by_fmt.v, r->by_fmt.n, sizeof(wlt_stat), wlt_stat_cmp);
    qsort(r->by_op.v, r->by_op.n, sizeof(wlt_stat), wlt_stat_cmp);
    printf("By format:\n");
    for (size_t i = 0; i < r->by_fmt.n; i++) {
        const wlt_stat *f = &r->by_fmt.v[i];
        size_t fl = strlen(f->key);
        unsigned ops = 0, ops_ok = 0;
        for (size_t k = 0; k < r->by_op.n; k++) {
            const wlt_stat *o = &r->by_op.v[k];
            /* "VOP2 v_add..." belongs to VOP2, "VOP2 SDWA v_add..." does not. */
            if (strncmp(o->key, f->key, fl) == 0 && o->key[fl] == ' ' &&
                strchr(o->key + fl + 1, ' ') == NULL) {
                ops++;
                ops_ok += o->total == o->match;
            }
        }
        printf("  %-11s %4u opcodes (%4u all matching), %6u instances, %6u match, %6u mismatch\n",
               f->key, ops, ops_ok, f->total, f->match, f->total - f->match);
    }
    size_t shown = 0, bad_ops = 0;
    for (size_t k = 0; k < r->by_op.n; k++)
        bad_ops += r->by_op.v[k].total != r->by_op.v[k].match;
    if (bad_ops)
        printf("Opcodes with mismatches (%zu, most mismatches first):\n", bad_ops);
    for (size_t k = 0; k < r->by_op.n && shown < max_ops; k++) {
        const wlt_stat *o = &r->by_op.v[k];
        if (o->total == o->match)
            continue;
        shown++;
        printf("  %-36s %5u of %5u differ, e.g. [%s]\n      llvm: %s\n      ours: %s\n", o->key,
               o->total - o->match, o->total, o->ex_enc, o->ex_llvm, o->ex_ours);
    }
    if (bad_ops > shown)
        printf("  ... %zu more opcodes with mismatches\n", bad_ops - shown);
}

static inline void wlt_report_free(wlt_report *r)
{
    wlt_stats_free(&r->by_fmt);
    wlt_stats_free(&r->by_op);
}

#endif
