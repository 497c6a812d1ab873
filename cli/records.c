/* The readers of what a batch writes (records.h): its JSON records, its
 * cache entries, and the offline host description of --host FILE. Every
 * one takes bytes that may be anything (fuzz/fuzz_records.c). */
#include "records.h"

#include "wavelift/backend.h" /* WL_FMA_* */
#include "wavelift/translate.h" /* WL_MODEL_* */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const cli_status_names[JS_N] = {"lifted", "refused", "bad-input", "failed",
                                            "timeout", "memory", "crashed", "interrupted"};

int cli_cache_rec_parse(const void *data, size_t n, rec *r)
{
    uint32_t head[2];
    if (!data || n != sizeof head + sizeof *r)
        return -1;
    memcpy(head, data, sizeof head);
    memcpy(r, (const char *)data + sizeof head, sizeof *r);
    if (head[0] != CLI_CACHE_MAGIC || head[1] != sizeof *r)
        return -1;
    if (r->status != JS_OK && r->status != JS_REFUSED)
        return -1;
    if (r->model != WL_MODEL_LANES && r->model != WL_MODEL_WAVE)
        return -1;
    if (!memchr(r->reason, 0, sizeof r->reason))
        return -1;
    return 0;
}

void cli_words_split(const uint32_t *w, size_t n, rec *r)
{
    r->w_decl = r->w_entry = r->w_routines = 0;
    r->routines = 0;
    uint32_t entry = 0;
    int in_fn = 0, is_entry = 0;
    for (size_t i = n < 5 ? n : 5; i < n;) {
        uint32_t op = w[i] & 0xffff, len = w[i] >> 16;
        if (!len || len > n - i) { /* not a module's instruction: the rest counts as declarations */
            r->w_decl += n - i;
            break;
        }
        if (op == 15 && len >= 3 && !entry) /* OpEntryPoint: model, id */
            entry = w[i + 2];
        if (op == 54 && len >= 3) { /* OpFunction: type, id */
            in_fn = 1;
            is_entry = w[i + 2] == entry;
            r->routines += !is_entry;
        }
        *(in_fn ? (is_entry ? &r->w_entry : &r->w_routines) : &r->w_decl) += len;
        if (op == 56) /* OpFunctionEnd */
            in_fn = 0;
        i += len;
    }
    r->w_decl += n < 5 ? n : 5; /* the header */
}

/* ---- JSON ------------------------------------------------------------------ */

/* A small reader of JSON (RFC 8259) into a tree; enough for the records:
 * strings (with \u escapes to UTF-8), numbers as doubles, nesting at most
 * 16 deep. */
enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

typedef struct jv jv;
struct jv {
    int type;
    double num;
    char *str;   /* J_STR: the text; a member: its key (in an object's kids) */
    char *key;
    jv *kids;    /* J_ARR, J_OBJ */
    size_t n, cap;
};

typedef struct jp {
    const char *s;
    size_t i, n;
    char *err;
    size_t errcap;
    int failed;
} jp;

static int jfail(jp *p, const char *fmt, ...)
{
    if (!p->failed) {
        char m[200];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(m, sizeof m, fmt, ap);
        va_end(ap);
        snprintf(p->err, p->errcap, "byte %zu: %s", p->i, m);
    }
    p->failed = 1;
    return -1;
}

static void jfree(jv *v)
{
    for (size_t i = 0; i < v->n; i++)
        jfree(&v->kids[i]);
    free(v->kids);
    free(v->str);
    free(v->key);
    memset(v, 0, sizeof *v);
}

static void skip_ws(jp *p)
{
    while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' || p->s[p->i] == '\r'))
        p->i++;
}

static int hex4(jp *p, unsigned *u)
{
    *u = 0;
    for (int k = 0; k < 4; k++) {
        if (p->i >= p->n)
            return jfail(p, "a \\u escape cut short");
        char c = p->s[p->i++];
        unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                            : 16u;
        if (d > 15)
            return jfail(p, "a \\u escape with a non-hex digit");
        *u = *u << 4 | d;
    }
    return 0;
}

static int jstring(jp *p, char **out)
{
    p->i++; /* the opening quote */
    size_t cap = 16, o = 0;
    char *b = malloc(cap);
    if (!b)
        return jfail(p, "out of memory");
    for (;;) {
        if (p->i >= p->n) {
            free(b);
            return jfail(p, "a string not ended");
        }
        if (o + 5 > cap) {
            char *nb = realloc(b, cap *= 2);
            if (!nb) {
                free(b);
                return jfail(p, "out of memory");
            }
            b = nb;
        }
        unsigned char c = (unsigned char)p->s[p->i++];
        if (c == '"')
            break;
        if (c < 0x20) {
            free(b);
            return jfail(p, "a control character in a string");
        }
        if (c != '\\') {
            b[o++] = (char)c;
            continue;
        }
        if (p->i >= p->n) {
            free(b);
            return jfail(p, "an escape cut short");
        }
        char e = p->s[p->i++];
        const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
        const char *f = e ? strchr(from, e) : NULL;
        if (f) {
            b[o++] = to[f - from];
            continue;
        }
        unsigned u;
        if (e != 'u' || hex4(p, &u)) {
            free(b);
            return e == 'u' ? -1 : jfail(p, "an unknown escape \\%c", e);
        }
        if (u >= 0xd800 && u < 0xdc00 && p->i + 6 <= p->n && p->s[p->i] == '\\' && p->s[p->i + 1] == 'u') {
            unsigned lo;
            p->i += 2;
            if (hex4(p, &lo)) {
                free(b);
                return -1;
            }
            u = lo >= 0xdc00 && lo < 0xe000 ? 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00) : 0xfffd;
        } else if (u >= 0xd800 && u < 0xe000) {
            u = 0xfffd;
        }
        if (!u)
            u = 0xfffd; /* the text is a C string */
        if (u < 0x80) {
            b[o++] = (char)u;
        } else if (u < 0x800) {
            b[o++] = (char)(0xc0 | u >> 6);
            b[o++] = (char)(0x80 | (u & 63));
        } else if (u < 0x10000) {
            b[o++] = (char)(0xe0 | u >> 12);
            b[o++] = (char)(0x80 | (u >> 6 & 63));
            b[o++] = (char)(0x80 | (u & 63));
        } else {
            b[o++] = (char)(0xf0 | u >> 18);
            b[o++] = (char)(0x80 | (u >> 12 & 63));
            b[o++] = (char)(0x80 | (u >> 6 & 63));
            b[o++] = (char)(0x80 | (u & 63));
        }
    }
    b[o] = 0;
    *out = b;
    return 0;
}

static int jvalue(jp *p, jv *v, int depth);

static jv *jpush(jp *p, jv *v)
{
    if (v->n == v->cap) {
        size_t c = v->cap ? v->cap * 2 : 8;
        jv *k = realloc(v->kids, c * sizeof *k);
        if (!k) {
            jfail(p, "out of memory");
            return NULL;
        }
        v->kids = k;
        v->cap = c;
    }
    jv *e = &v->kids[v->n++];
    memset(e, 0, sizeof *e);
    return e;
}

static int jcontainer(jp *p, jv *v, int depth)
{
    char close = p->s[p->i] == '{' ? '}' : ']';
    v->type = close == '}' ? J_OBJ : J_ARR;
    p->i++;
    skip_ws(p);
    if (p->i < p->n && p->s[p->i] == close) {
        p->i++;
        return 0;
    }
    for (;;) {
        jv *e = jpush(p, v);
        if (!e)
            return -1;
        if (v->type == J_OBJ) {
            skip_ws(p);
            if (p->i >= p->n || p->s[p->i] != '"')
                return jfail(p, "a member's name expected");
            if (jstring(p, &e->key))
                return -1;
            skip_ws(p);
            if (p->i >= p->n || p->s[p->i] != ':')
                return jfail(p, "':' expected");
            p->i++;
        }
        if (jvalue(p, e, depth + 1))
            return -1;
        skip_ws(p);
        if (p->i < p->n && p->s[p->i] == ',') {
            p->i++;
            continue;
        }
        if (p->i < p->n && p->s[p->i] == close) {
            p->i++;
            return 0;
        }
        return jfail(p, "',' or '%c' expected", close);
    }
}

static int jvalue(jp *p, jv *v, int depth)
{
    if (depth > 16)
        return jfail(p, "nested more than 16 deep");
    skip_ws(p);
    if (p->i >= p->n)
        return jfail(p, "a value expected");
    char c = p->s[p->i];
    if (c == '{' || c == '[')
        return jcontainer(p, v, depth);
    if (c == '"') {
        v->type = J_STR;
        return jstring(p, &v->str);
    }
    static const struct {
        const char *w;
        int type, b;
    } words[] = {{"true", J_BOOL, 1}, {"false", J_BOOL, 0}, {"null", J_NULL, 0}};
    for (size_t k = 0; k < 3; k++) {
        size_t l = strlen(words[k].w);
        if (p->n - p->i >= l && !memcmp(p->s + p->i, words[k].w, l)) {
            v->type = words[k].type;
            v->num = words[k].b;
            p->i += l;
            return 0;
        }
    }
    /* a number: -?digits(.digits)?([eE][+-]?digits)? */
    size_t j = p->i;
    char buf[64];
    size_t o = 0;
    while (j < p->n && o < sizeof buf - 1 && strchr("+-0123456789.eE", p->s[j]) && p->s[j])
        buf[o++] = p->s[j++];
    buf[o] = 0;
    char *end;
    if (!o || !((buf[0] >= '0' && buf[0] <= '9') || (buf[0] == '-' && buf[1] >= '0' && buf[1] <= '9')))
        return jfail(p, "a value expected");
    v->type = J_NUM;
    v->num = strtod(buf, &end);
    if (*end)
        return jfail(p, "a malformed number");
    p->i = j;
    return 0;
}

static const jv *member(const jv *o, const char *key)
{
    for (size_t i = 0; o && o->type == J_OBJ && i < o->n; i++)
        if (o->kids[i].key && !strcmp(o->kids[i].key, key))
            return &o->kids[i];
    return NULL;
}

/* a member that is a number in [lo, hi] (absent: def) */
static int num_member(jp *p, const jv *o, const char *key, double lo, double hi, double def, double *out)
{
    const jv *m = member(o, key);
    if (!m) {
        *out = def;
        return 0;
    }
    if (m->type != J_NUM || !(m->num >= lo && m->num <= hi))
        return jfail(p, "record %s: \"%s\" is not a number from %.0f to %.0f", member(o, "kernel") && member(o, "kernel")->str ? member(o, "kernel")->str : "?", key, lo, hi);
    *out = m->num;
    return 0;
}

static int str_member(jp *p, const jv *o, const char *key, int required, char **out)
{
    const jv *m = member(o, key);
    if (!m && !required) {
        *out = strdup("");
    } else if (!m || m->type != J_STR) {
        return jfail(p, "a record's \"%s\" is %s", key, m ? "not a string" : "missing");
    } else {
        *out = strdup(m->str);
    }
    return *out ? 0 : jfail(p, "out of memory");
}

static int one_record(jp *p, const jv *o, cli_record *r)
{
    if (o->type != J_OBJ)
        return jfail(p, "a record is not an object");
    if (str_member(p, o, "source", 1, &r->source) || str_member(p, o, "kernel", 1, &r->kernel) ||
        str_member(p, o, "output", 0, &r->output) || str_member(p, o, "name", 0, &r->name))
        return -1;
    const jv *st = member(o, "status"), *model = member(o, "model"), *reason = member(o, "reason");
    r->r.status = -1;
    for (int i = 0; st && st->type == J_STR && i < JS_N; i++)
        if (!strcmp(st->str, cli_status_names[i]))
            r->r.status = i;
    if (r->r.status < 0)
        return jfail(p, "record %s: \"status\" is not one of the statuses (docs/cli.md)", r->kernel);
    if (model && model->type == J_STR && !strcmp(model->str, "lanes"))
        r->r.model = WL_MODEL_LANES;
    else if (model && model->type == J_STR && !strcmp(model->str, "wave"))
        r->r.model = WL_MODEL_WAVE;
    else if (r->r.status == JS_OK)
        return jfail(p, "record %s: a lifted record's \"model\" is not lanes or wave", r->kernel);
    if (reason && reason->type == J_STR)
        snprintf(r->r.reason, sizeof r->r.reason, "%s", reason->str);
    double d[10];
    static const char *const keys[] = {"wave", "subgroup", "k", "opt", "lane_loops",
                                       "guest_instructions", "words", "peak_kib"};
    static const double hi[] = {64, 64, 64, 2, 4294967295.0, 1e15, 1e15, 1e15};
    for (int i = 0; i < 8; i++)
        if (num_member(p, o, keys[i], 0, hi[i], 0, &d[i]))
            return -1;
    r->r.wave = (unsigned)d[0], r->r.subgroup = (unsigned)d[1], r->r.k = (unsigned)d[2];
    r->r.opt = (int)d[3], r->r.lane_loops = (unsigned)d[4];
    r->r.guest = (uint64_t)d[5], r->r.words = (uint64_t)d[6], r->peak_kib = (long)d[7];
    if (r->r.opt != 0 && r->r.opt != 2)
        return jfail(p, "record %s: \"opt\" is not 0 or 2", r->kernel);
    const jv *llvm = member(o, "llvm"), *ms = member(o, "ms");
    static const char *const lk[] = {"lifted", "lowered", "optimized"};
    uint64_t *lv[] = {&r->r.llvm_lifted, &r->r.llvm_lowered, &r->r.llvm_optimized};
    for (int i = 0; llvm && i < 3; i++) {
        if (num_member(p, llvm, lk[i], 0, 1e15, 0, &d[0]))
            return -1;
        *lv[i] = (uint64_t)d[0];
    }
    static const char *const mk[] = {"lift", "lower", "opt", "emit", "total", "wall"};
    double *mv[] = {&r->r.ms_lift, &r->r.ms_lower, &r->r.ms_opt, &r->r.ms_emit, &r->r.ms_total, &r->wall_ms};
    for (int i = 0; ms && i < 6; i++)
        if (num_member(p, ms, mk[i], 0, 1e12, 0, mv[i]))
            return -1;
    const jv *parts = member(o, "parts");
    static const char *const pk[] = {"declarations", "entry", "routines", "routine_count"};
    uint64_t *pv[] = {&r->r.w_decl, &r->r.w_entry, &r->r.w_routines};
    for (int i = 0; parts && i < 4; i++) {
        if (num_member(p, parts, pk[i], 0, 1e15, 0, &d[0]))
            return -1;
        if (i < 3)
            *pv[i] = (uint64_t)d[0];
        else
            r->r.routines = d[0] > 4e9 ? 4000000000u : (unsigned)d[0];
    }
    const jv *c = member(o, "cached");
    r->cached = c && c->type == J_BOOL && c->num != 0;
    return 0;
}

void cli_records_free(cli_record *r, size_t count)
{
    for (size_t i = 0; r && i < count; i++) {
        free(r[i].source);
        free(r[i].name);
        free(r[i].kernel);
        free(r[i].output);
    }
    free(r);
}

int cli_records_parse(const char *text, size_t n, cli_record **out, size_t *count, unsigned *subgroup, char *err,
                      size_t errcap)
{
    jp p = {text, 0, n, err, errcap, 0};
    jv root;
    memset(&root, 0, sizeof root);
    *out = NULL;
    *count = 0;
    *subgroup = 0;
    if (!text)
        return jfail(&p, "no text");
    int rc = jvalue(&p, &root, 0);
    if (!rc) {
        skip_ws(&p);
        if (p.i < p.n)
            rc = jfail(&p, "text after the records");
    }
    const jv *schema = member(&root, "schema"), *recs = member(&root, "records");
    double sg = 0;
    if (!rc && (root.type != J_OBJ || !schema || schema->type != J_STR || strcmp(schema->str, "wavelift-batch 1")))
        rc = jfail(&p, "not a batch's records: no \"schema\": \"wavelift-batch 1\"");
    if (!rc && (!recs || recs->type != J_ARR))
        rc = jfail(&p, "no \"records\" array");
    if (!rc)
        rc = num_member(&p, &root, "subgroup", 0, 64, 0, &sg);
    cli_record *r = NULL;
    if (!rc && recs->n && !(r = calloc(recs->n, sizeof *r)))
        rc = jfail(&p, "out of memory");
    size_t i = 0;
    for (; !rc && i < recs->n; i++)
        rc = one_record(&p, &recs->kids[i], &r[i]);
    jfree(&root); /* recs with it */
    if (rc) {
        cli_records_free(r, r ? i : 0);
        return -1;
    }
    *out = r;
    *count = i;
    *subgroup = (unsigned)sg;
    return 0;
}

/* ---- --host FILE ------------------------------------------------------------ */

int cli_parse_fused_fma(const char *v)
{
    int bits = 0;
    for (const char *p = v; *p;) {
        size_t n = strcspn(p, ",");
        int bit = n == 3 && !strncmp(p, "f32", 3)       ? WL_FMA_F32
                  : n == 3 && !strncmp(p, "f64", 3)     ? WL_FMA_F64
                  : n == 3 && !strncmp(p, "all", 3)     ? WL_FMA_F32 | WL_FMA_F64
                  : n == 4 && !strncmp(p, "none", 4)    ? 0
                  : n == 7 && !strncmp(p, "f32-ftz", 7) ? WL_FMA_F32_FTZ
                  : n == 10 && !strncmp(p, "f32-normal", 10) ? WL_FMA_F32_NORMAL
                                                        : -1;
        if (bit < 0)
            return -1;
        bits |= bit;
        p += n + (p[n] == ',');
    }
    return bits;
}

int cli_host_file_parse(const char *text, size_t n, cli_host_file *h, char *err, size_t errcap)
{
    memset(h, 0, sizeof *h);
    h->fused_fma = h->int64_atomics = h->shared_int64_atomics = h->storage_8_16 = h->maximal_reconvergence = -1;
    size_t line = 0, i = 0;
    if (!text || !n) {
        snprintf(err, errcap, "an empty host description");
        return -1;
    }
    while (i < n) {
        line++;
        size_t e = i;
        while (e < n && text[e] != '\n')
            e++;
        char buf[256];
        if (e - i >= sizeof buf) {
            snprintf(err, errcap, "line %zu: longer than %zu bytes", line, sizeof buf - 1);
            return -1;
        }
        size_t len = e - i;
        memcpy(buf, text + i, len);
        buf[len] = 0;
        i = e + 1;
        if (strlen(buf) != len) {
            snprintf(err, errcap, "line %zu: a NUL byte", line);
            return -1;
        }
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = 0;
        char key[64], val[192], extra[8];
        int got = sscanf(buf, "%63s %191s %7s", key, val, extra);
        if (got <= 0)
            continue;
        if (got != 2) {
            snprintf(err, errcap, "line %zu: one key and one value expected (KEY VALUE)", line);
            return -1;
        }
        char *end;
        unsigned long u = strtoul(val, &end, 0);
        int is_num = *val && !*end && val[0] != '-';
        int is_bool = is_num && u <= 1;
        if (!strcmp(key, "name")) {
            snprintf(h->name, sizeof h->name, "%.63s", val);
        } else if (!strcmp(key, "subgroup-size")) {
            if (!is_num || (u != 4 && u != 8 && u != 16 && u != 32 && u != 64)) {
                snprintf(err, errcap, "line %zu: subgroup-size must be 4, 8, 16, 32 or 64", line);
                return -1;
            }
            h->subgroup = (unsigned)u;
        } else if (!strcmp(key, "fused-fma")) {
            if ((h->fused_fma = cli_parse_fused_fma(val)) < 0) {
                snprintf(err, errcap,
                         "line %zu: fused-fma takes none, f32, f64, all, f32-ftz and f32-normal, separated by commas",
                         line);
                return -1;
            }
        } else if (!strcmp(key, "shared-memory")) {
            if (!is_num || u < 1024 || u > 65536) {
                snprintf(err, errcap, "line %zu: shared-memory must be 1024 to 65536 bytes", line);
                return -1;
            }
            h->lds_limit = (uint32_t)u;
        } else if (!strcmp(key, "maximal-reconvergence")) {
            if (!is_bool) {
                snprintf(err, errcap, "line %zu: %s must be 0 or 1", line, key);
                return -1;
            }
            h->maximal_reconvergence = (int)u;
        } else if (!strcmp(key, "loop-iteration-limit")) {
            if (!is_num || u > 0xffffffffu) {
                snprintf(err, errcap, "line %zu: loop-iteration-limit must be 0 (none) to 4294967295", line);
                return -1;
            }
            h->loop_iteration_limit = (uint32_t)u;
        } else if (!strcmp(key, "int64-atomics") || !strcmp(key, "shared-int64-atomics") ||
                   !strcmp(key, "storage-8bit-16bit")) {
            if (!is_bool) {
                snprintf(err, errcap, "line %zu: %s must be 0 or 1", line, key);
                return -1;
            }
            *(key[0] == 'i' ? &h->int64_atomics : key[1] == 'h' ? &h->shared_int64_atomics : &h->storage_8_16) =
                (int)u;
        } else {
            snprintf(err, errcap, "line %zu: unknown key %s (docs/cli.md: the host description)", line, key);
            return -1;
        }
    }
    return 0;
}
