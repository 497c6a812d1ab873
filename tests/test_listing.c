/* End-to-end listing test: `wavelift dis` against llvm-objdump-19 and
 * llvm-readelf-19 on every code object of the OpenCL corpus
 * (the tests/kernels directory's .cl files, compiled at build time into WL_KERNEL_DIR as
 * NAME.w64.co and NAME.w32.co).
 *
 * 1. listing_matches_objdump: for each code object, the instructions of
 *    every function symbol that wavelift lists (kernels: the symbols with a
 *    NAME.kd descriptor) are compared one by one with llvm-objdump-19's
 *    (--mcpu=gfx1030, --mattr=+wavefrontsize64 or +wavefrontsize32 by the
 *    file name). Instructions are aligned by address, so one instruction
 *    of the wrong size costs one mismatch, not the rest of the kernel; the
 *    addresses come from the listing without --asm-only, and the test also
 *    checks that --asm-only prints the same instruction texts.
 *    Text is compared after dropping the `// address: encoding <label>`
 *    comment and squashing white space.
 *
 *    Padding: objdump disassembles a symbol up to the next symbol, so after
 *    a kernel's s_endpgm it shows the s_code_end / s_nop 0 words that pad
 *    the section to the next function's alignment. Those words lie past the
 *    symbol's st_size, belong to no kernel, and are left out: only objdump
 *    instructions in [st_value, st_value + st_size) are compared. A
 *    wavelift instruction outside that range counts as a mismatch (the
 *    code-object reader took a wrong kernel size).
 *
 * 2. descriptors_match_readelf: the summary `wavelift dis` prints above
 *    each kernel agrees with the AMDHSA metadata note as llvm-readelf-19
 *    --notes prints it: group and private segment sizes, kernarg size,
 *    wavefront size and each argument's offset, size and value kind.
 *
 * Statistics (per file, per encoding format and per mnemonic, with one
 * example each) are printed so the decoder's remaining gaps are visible. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <glob.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "wlt_stats.h"

/* ---------------------------------------------------------------------
 * Listings: instructions with their addresses. */

typedef struct ins {
    uint64_t addr;
    uint32_t w0;    /* first encoding dword (objdump's comment) */
    char *text;     /* squashed instruction text */
    char *enc;      /* encoding words as objdump prints them */
    int owner;      /* wavelift listing: index of the label it is under */
} ins;

typedef struct listing {
    ins *v;
    size_t n, cap;
    char **labels; /* wavelift: kernel labels, in order */
    size_t nlabels;
} listing;

static void listing_free(listing *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->v[i].text);
        free(l->v[i].enc);
    }
    for (size_t i = 0; i < l->nlabels; i++)
        free(l->labels[i]);
    free(l->v);
    free(l->labels);
    memset(l, 0, sizeof(*l));
}

static char *xstrndup(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    assert_non_null(p);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

/* Splits one instruction line "\tTEXT // ADDR: WORDS [<label>]" (the form
 * both objdump and wavelift print) into its parts. Returns 0 when the line
 * has no address comment. */
static int split_line(const char *line, size_t len, ins *out)
{
    const char *cm = NULL;
    for (size_t i = 0; i + 1 < len; i++)
        if (line[i] == '/' && line[i + 1] == '/') {
            cm = line + i;
            break;
        }
    if (!cm)
        return 0;
    char *end;
    uint64_t addr = strtoull(cm + 2, &end, 16);
    if (*end != ':')
        return 0;
    const char *enc = end + 1;
    const char *encend = line + len;
    const char *lt = memchr(enc, '<', (size_t)(encend - enc));
    if (lt)
        encend = lt;
    memset(out, 0, sizeof(*out));
    out->addr = addr;
    out->text = xstrndup(line, (size_t)(cm - line));
    wlt_squash(out->text);
    out->enc = xstrndup(enc, (size_t)(encend - enc));
    wlt_squash(out->enc);
    out->w0 = (uint32_t)strtoul(out->enc, NULL, 16);
    return 1;
}

static void listing_push(listing *l, const ins *x)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1024;
        l->v = realloc(l->v, l->cap * sizeof(*l->v));
        assert_non_null(l->v);
    }
    l->v[l->n++] = *x;
}

/* Parses a listing (objdump's or wavelift's full one). Label lines are
 * "NAME:" (wavelift) or "ADDR <NAME>:" (objdump); instruction lines start
 * with a tab; everything else (headers, "; ..." summaries, empty lines) is
 * skipped. */
static void parse_listing(const char *text, listing *l)
{
    memset(l, 0, sizeof(*l));
    int owner = -1;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len > 0 && p[0] == '\t') {
            ins x;
            if (split_line(p + 1, len - 1, &x)) {
                x.owner = owner;
                listing_push(l, &x);
            }
        } else if (len > 1 && p[len - 1] == ':' && p[0] != ';' && p[0] != ' ') {
            const char *lt = memchr(p, '<', len);
            const char *name = lt ? lt + 1 : p;
            size_t nlen = (size_t)(p + len - 1 - name);
            if (lt && nlen > 0 && name[nlen - 1] == '>')
                nlen--;
            if (!memchr(name, ' ', nlen)) {
                l->labels = realloc(l->labels, (l->nlabels + 1) * sizeof(char *));
                assert_non_null(l->labels);
                l->labels[l->nlabels] = xstrndup(name, nlen);
                owner = (int)l->nlabels++;
            }
        }
        p += len + (nl != NULL);
    }
}

/* ---------------------------------------------------------------------
 * Symbols, from llvm-readelf-19 -s. */

typedef struct sym {
    char name[256];
    uint64_t addr, size;
    int is_kernel;
} sym;

static size_t read_symbols(const char *file, sym **out)
{
    char cmd[4096];
    snprintf(cmd, sizeof(cmd), "'%s' -s --wide '%s' 2>&1", WL_LLVM_READELF, file);
    int st;
    char *text = wlt_run(cmd, &st);
    assert_non_null(text);
    assert_int_equal(st, 0);
    sym *v = NULL;
    size_t n = 0;
    char **kd = NULL;
    size_t nkd = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        unsigned num;
        unsigned long long val, size;
        char type[32], bind[32], vis[32], ndx[32], name[256];
        if (sscanf(line, " %u: %llx %llu %31s %31s %31s %31s %255s", &num, &val, &size, type,
                   bind, vis, ndx, name) != 8)
            continue;
        size_t nl = strlen(name);
        if (strcmp(type, "OBJECT") == 0 && nl > 3 && strcmp(name + nl - 3, ".kd") == 0) {
            kd = realloc(kd, (nkd + 1) * sizeof(char *));
            kd[nkd++] = xstrndup(name, nl - 3);
            continue;
        }
        if (strcmp(type, "FUNC") != 0)
            continue;
        int dup = 0;
        for (size_t i = 0; i < n; i++)
            dup |= strcmp(v[i].name, name) == 0;
        if (dup)
            continue;
        v = realloc(v, (n + 1) * sizeof(*v));
        assert_non_null(v);
        memset(&v[n], 0, sizeof(v[n]));
        snprintf(v[n].name, sizeof(v[n].name), "%s", name);
        v[n].addr = val;
        v[n].size = size;
        n++;
    }
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < nkd; k++)
            v[i].is_kernel |= strcmp(v[i].name, kd[k]) == 0;
    for (size_t k = 0; k < nkd; k++)
        free(kd[k]);
    free(kd);
    free(text);
    *out = v;
    return n;
}

/* ---------------------------------------------------------------------
 * The corpus. */

static size_t corpus(glob_t *g)
{
    int rc = glob(WL_KERNEL_DIR "/*.co", 0, NULL, g);
    if (rc != 0) {
        print_error("no code objects in %s: build the wl_kernels target\n", WL_KERNEL_DIR);
        fail();
    }
    return g->gl_pathc;
}

static int is_wave32(const char *path)
{
    size_t n = strlen(path);
    return n > 7 && strcmp(path + n - 7, ".w32.co") == 0;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static const ins *find_addr(const listing *l, uint64_t addr)
{
    /* wavelift lists kernels in their order; addresses rise within one.
     * A linear scan is fast enough for a few thousand instructions. */
    for (size_t i = 0; i < l->n; i++)
        if (l->v[i].addr == addr)
            return &l->v[i];
    return NULL;
}

typedef struct totals {
    unsigned long insts, match, extra, files_bad;
} totals;

/* Compares one code object; returns its mismatches. */
static unsigned long compare_file(const char *path, wlt_report *rep, totals *tot)
{
    const char *mattr = is_wave32(path) ? "+wavefrontsize32" : "+wavefrontsize64";
    char cmd[4096];
    int st;

    snprintf(cmd, sizeof(cmd), "'%s' -d --mcpu=gfx1030 --mattr=%s '%s' 2>&1", WL_LLVM_OBJDUMP,
             mattr, path);
    char *od_text = wlt_run(cmd, &st);
    assert_non_null(od_text);
    assert_int_equal(st, 0);
    snprintf(cmd, sizeof(cmd), "'%s' dis '%s' 2>/dev/null", WL_CLI, path);
    int st_full;
    char *wl_text = wlt_run(cmd, &st_full);
    assert_non_null(wl_text);
    snprintf(cmd, sizeof(cmd), "'%s' dis --asm-only '%s' 2>/dev/null", WL_CLI, path);
    int st_asm;
    char *asm_text = wlt_run(cmd, &st_asm);
    assert_non_null(asm_text);

    listing od, wl;
    parse_listing(od_text, &od);
    parse_listing(wl_text, &wl);
    sym *syms;
    size_t nsyms = read_symbols(path, &syms);

    unsigned long n = 0, match = 0, extra = 0, shown = 0;
    unsigned nkernels = 0;
    for (size_t s = 0; s < nsyms; s++) {
        const sym *y = &syms[s];
        int label = -1;
        for (size_t i = 0; i < wl.nlabels; i++)
            if (strcmp(wl.labels[i], y->name) == 0)
                label = (int)i;
        if (label < 0 && !y->is_kernel) {
            printf("  note: function %s (%" PRIu64 " bytes) is not listed by wavelift\n", y->name,
                   y->size);
            continue;
        }
        nkernels += y->is_kernel != 0;
        for (size_t i = 0; i < od.n; i++) {
            const ins *o = &od.v[i];
            if (o->addr < y->addr || o->addr >= y->addr + y->size)
                continue;
            const ins *w = find_addr(&wl, o->addr);
            const char *ours = w ? w->text : "(no instruction at this address)";
            if (w && w->owner != label)
                ours = "(listed under another kernel)";
            int ok = strcmp(ours, o->text) == 0;
            n++;
            match += ok != 0;
            wlt_report_add(rep, o->w0, o->enc, o->text, ours);
            if (!ok && shown++ < 4)
                printf("  mismatch %s+0x%" PRIx64 " [%s]\n    llvm: %s\n    ours: %s\n", y->name,
                       o->addr - y->addr, o->enc, o->text, ours);
        }
        if (label >= 0)
            for (size_t i = 0; i < wl.n; i++)
                if (wl.v[i].owner == label &&
                    (wl.v[i].addr < y->addr || wl.v[i].addr >= y->addr + y->size)) {
                    extra++;
                    if (shown++ < 4)
                        printf("  extra: %s lists 0x%" PRIx64 " (%s) outside [0x%" PRIx64
                               ", 0x%" PRIx64 ")\n", y->name, wl.v[i].addr, wl.v[i].text,
                               y->addr, y->addr + y->size);
                }
    }

    /* --asm-only prints the same instruction texts as the full listing. */
    unsigned long asm_diff = 0;
    size_t k = 0;
    for (const char *p = asm_text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len > 0 && p[0] == '\t') {
            char *t = xstrndup(p, len);
            wlt_squash(t);
            if (k >= wl.n || strcmp(t, wl.v[k].text) != 0)
                asm_diff++;
            k++;
            free(t);
        } else if (len > 0) {
            asm_diff++; /* --asm-only prints nothing but instructions */
        }
        p += len + (nl != NULL);
    }
    if (k != wl.n)
        asm_diff++;

    unsigned long bad = (n - match) + extra + asm_diff;
    printf("%-28s %2u kernels, %6lu instructions, %6lu match, %6lu mismatch%s (wavelift exit %d)\n",
           base_name(path), nkernels, n, match, n - match,
           extra ? ", extra instructions" : "", st_full);
    if (asm_diff)
        printf("  --asm-only differs from the full listing in %lu lines\n", asm_diff);
    if (wl.nlabels == 0)
        printf("  wavelift listed no kernels\n");
    tot->insts += n;
    tot->match += match;
    tot->extra += extra;
    tot->files_bad += bad != 0;

    free(syms);
    listing_free(&od);
    listing_free(&wl);
    free(od_text);
    free(wl_text);
    free(asm_text);
    return bad;
}

static void listing_matches_objdump(void **state)
{
    (void)state;
    glob_t g;
    size_t nfiles = corpus(&g);
    wlt_report rep = {0};
    totals tot = {0};
    unsigned long bad = 0;
    for (size_t i = 0; i < nfiles; i++)
        bad += compare_file(g.gl_pathv[i], &rep, &tot);
    printf("\n");
    wlt_report_print(&rep, 60);
    printf("\nTOTAL: %zu files, %lu instructions, %lu match (%.2f%%), %lu mismatch, "
           "%lu extra; %lu files with differences\n",
           nfiles, tot.insts, tot.match, tot.insts ? 100.0 * tot.match / tot.insts : 0.0,
           tot.insts - tot.match, tot.extra, tot.files_bad);
    wlt_report_free(&rep);
    globfree(&g);
    fflush(stdout);
    assert_true(tot.insts > 0);
    assert_int_equal(bad, 0);
}

/* ---------------------------------------------------------------------
 * Descriptors and metadata. */

typedef struct karg {
    unsigned offset, size;
    char kind[64];
} karg;

typedef struct kmeta {
    char name[256];
    long group, priv, kernarg, kd_kernarg, wave, kd_wave;
    karg args[64];
    size_t nargs;
} kmeta;

static void kmeta_init(kmeta *k)
{
    memset(k, 0, sizeof(*k));
    k->group = k->priv = k->kernarg = k->kd_kernarg = k->wave = k->kd_wave = -1;
}

/* Reads "KEY: VALUE" from an indented YAML line; strips quotes. */
static int yaml_kv(const char *line, char *key, size_t kcap, char *val, size_t vcap)
{
    while (*line == ' ' || *line == '-')
        line++;
    const char *colon = strchr(line, ':');
    if (!colon)
        return 0;
    snprintf(key, kcap, "%.*s", (int)(colon - line), line);
    const char *v = colon + 1;
    while (*v == ' ')
        v++;
    size_t n = strlen(v);
    if (n >= 2 && (v[0] == '\'' || v[0] == '"') && v[n - 1] == v[0]) {
        v++;
        n -= 2;
    }
    snprintf(val, vcap, "%.*s", (int)n, v);
    return 1;
}

static size_t indent_of(const char *s)
{
    size_t i = 0;
    while (s[i] == ' ')
        i++;
    return i;
}

/* Parses llvm-readelf --notes output: amdhsa.kernels is a list ("  - ")
 * of maps whose keys are indented by 4; .args is a list ("      - ") of
 * maps with keys indented by 8. */
static size_t parse_notes(char *text, kmeta *ks, size_t cap)
{
    size_t n = 0;
    int in_kernels = 0;
    char section[64] = "";
    kmeta *k = NULL;
    karg *a = NULL;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        size_t ind = indent_of(line);
        if (ind == 0) {
            in_kernels = strncmp(line, "amdhsa.kernels:", 15) == 0;
            continue;
        }
        if (!in_kernels)
            continue;
        char key[64], val[256];
        if (ind == 2 && line[2] == '-') {
            assert_true(n < cap);
            k = &ks[n++];
            kmeta_init(k);
            a = NULL;
            ind = 4;
        } else if (ind == 6 && line[6] == '-' && k && strcmp(section, ".args") == 0) {
            assert_true(k->nargs < 64);
            a = &k->args[k->nargs++];
            ind = 8;
        }
        if (!k || !yaml_kv(line, key, sizeof(key), val, sizeof(val)))
            continue;
        if (ind == 4) {
            snprintf(section, sizeof(section), "%s", key);
            if (strcmp(key, ".name") == 0)
                snprintf(k->name, sizeof(k->name), "%s", val);
            else if (strcmp(key, ".group_segment_fixed_size") == 0)
                k->group = atol(val);
            else if (strcmp(key, ".private_segment_fixed_size") == 0)
                k->priv = atol(val);
            else if (strcmp(key, ".kernarg_segment_size") == 0)
                k->kernarg = k->kd_kernarg = atol(val);
            else if (strcmp(key, ".wavefront_size") == 0)
                k->wave = k->kd_wave = atol(val);
        } else if (ind == 8 && a) {
            if (strcmp(key, ".offset") == 0)
                a->offset = (unsigned)atol(val);
            else if (strcmp(key, ".size") == 0)
                a->size = (unsigned)atol(val);
            else if (strcmp(key, ".value_kind") == 0)
                snprintf(a->kind, sizeof(a->kind), "%.63s", val);
        }
    }
    return n;
}

/* Parses the summary `wavelift dis` prints above each kernel. */
static size_t parse_summary(char *text, kmeta *ks, size_t cap)
{
    size_t n = 0;
    kmeta *k = NULL;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char name[256], kind[64];
        unsigned a, b, c, idx;
        if (sscanf(line, "; kernel %255s", name) == 1) {
            assert_true(n < cap);
            k = &ks[n++];
            kmeta_init(k);
            snprintf(k->name, sizeof(k->name), "%s", name);
            continue;
        }
        if (!k)
            continue;
        const char *w = strstr(line, ", wave");
        if (strncmp(line, ";   target ", 11) == 0 && w)
            k->kd_wave = atol(w + 6);
        if (sscanf(line, ";   group segment %u bytes, private segment %u bytes, kernarg %u bytes", &a,
                   &b, &c) == 3) {
            k->group = a;
            k->priv = b;
            k->kd_kernarg = c;
        }
        if (sscanf(line, ";   metadata: kernarg segment %u bytes (align %u), wavefront %u", &a, &b,
                   &c) == 3) {
            k->kernarg = a;
            k->wave = c;
        }
        if (sscanf(line, ";   arg %u: offset %u, size %u, %63[^,( \n]", &idx, &a, &b, kind) == 4 &&
            k->nargs < 64) {
            karg *g = &k->args[k->nargs++];
            g->offset = a;
            g->size = b;
            snprintf(g->kind, sizeof(g->kind), "%s", kind);
        }
    }
    return n;
}

static unsigned check_field(const char *file, const char *kernel, const char *what, long llvm,
                            long ours)
{
    if (llvm == ours)
        return 0;
    printf("  %s: %s: %s: readelf %ld, wavelift %ld\n", file, kernel, what, llvm, ours);
    return 1;
}

static void descriptors_match_readelf(void **state)
{
    (void)state;
    glob_t g;
    size_t nfiles = corpus(&g);
    enum { MAXK = 64 };
    kmeta *ref = calloc(MAXK, sizeof(kmeta)), *ours = calloc(MAXK, sizeof(kmeta));
    assert_true(ref && ours);
    unsigned long bad = 0, nkernels = 0, nargs = 0;
    for (size_t f = 0; f < nfiles; f++) {
        const char *path = g.gl_pathv[f], *base = base_name(path);
        char cmd[4096];
        int st;
        snprintf(cmd, sizeof(cmd), "'%s' --notes '%s' 2>&1", WL_LLVM_READELF, path);
        char *notes = wlt_run(cmd, &st);
        assert_non_null(notes);
        assert_int_equal(st, 0);
        snprintf(cmd, sizeof(cmd), "'%s' dis '%s' 2>/dev/null", WL_CLI, path);
        char *dis = wlt_run(cmd, &st);
        assert_non_null(dis);
        size_t nref = parse_notes(notes, ref, MAXK);
        size_t nours = parse_summary(dis, ours, MAXK);
        unsigned fbad = 0;
        if (nref == 0) {
            printf("  %s: readelf shows no kernels\n", base);
            fbad++;
        }
        if (nref != nours) {
            printf("  %s: readelf has %zu kernels, wavelift %zu\n", base, nref, nours);
            fbad++;
        }
        for (size_t i = 0; i < nref; i++) {
            const kmeta *r = &ref[i], *o = NULL;
            for (size_t j = 0; j < nours; j++)
                if (strcmp(ours[j].name, r->name) == 0)
                    o = &ours[j];
            nkernels++;
            if (r->group < 0 || r->priv < 0 || r->kernarg < 0 || r->wave < 0) {
                printf("  %s: %s: readelf's note lacks a segment size or the wavefront size\n",
                       base, r->name);
                fbad++;
            }
            if (!o) {
                if (nours)
                    printf("  %s: kernel %s missing from wavelift's summary\n", base, r->name);
                fbad++;
                continue;
            }
            fbad += check_field(base, r->name, "group segment", r->group, o->group);
            fbad += check_field(base, r->name, "private segment", r->priv, o->priv);
            fbad += check_field(base, r->name, "kernarg size (descriptor)", r->kd_kernarg,
                                o->kd_kernarg);
            fbad += check_field(base, r->name, "kernarg segment (metadata)", r->kernarg, o->kernarg);
            fbad += check_field(base, r->name, "wavefront (metadata)", r->wave, o->wave);
            fbad += check_field(base, r->name, "wave size (descriptor)", r->kd_wave, o->kd_wave);
            fbad += check_field(base, r->name, "argument count", (long)r->nargs, (long)o->nargs);
            for (size_t a = 0; a < r->nargs && a < o->nargs; a++) {
                const karg *x = &r->args[a], *y = &o->args[a];
                nargs++;
                if (x->offset != y->offset || x->size != y->size || strcmp(x->kind, y->kind) != 0) {
                    printf("  %s: %s: arg %zu: readelf offset %u size %u %s, wavelift offset %u "
                           "size %u %s\n", base, r->name, a, x->offset, x->size, x->kind,
                           y->offset, y->size, y->kind);
                    fbad++;
                }
            }
        }
        printf("%-28s %2zu kernels: %s\n", base, nref, fbad ? "DIFFERENT" : "agree");
        bad += fbad;
        free(notes);
        free(dis);
    }
    printf("TOTAL: %lu kernels, %lu arguments checked, %lu differences\n", nkernels, nargs, bad);
    free(ref);
    free(ours);
    globfree(&g);
    fflush(stdout);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(listing_matches_objdump),
        cmocka_unit_test(descriptors_match_readelf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
