/* Dispatch captures as files (docs/capture.md): the manifest reader
 * (wl_capture_parse, on text in memory, with the blobs handed over by a
 * callback; wl_capture_read for a directory) and the writer.
 *
 *   manifest = header line, then one item a line: KEYWORD ARG...
 *   '#' starts a comment line; blank lines are ignored.
 *
 * Every malformed line is refused with its line number; every blob's size
 * and FNV-1a 64 hash are checked against the manifest. */
#include "capture_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define ULL(x) ((unsigned long long)(x))
#define MAX_TOKENS 24
#define MAX_LINE 4096
#define MAX_MANIFEST (16u << 20)


uint64_t wl_capture_fnv1a64(const uint8_t *p, uint64_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint64_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* A decimal or 0x-hex u64, the whole token. */
static int parse_u64(const char *s, uint64_t *v)
{
    uint64_t x = 0;
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (!*s)
        return -1;
    for (; *s; s++) {
        unsigned d;
        if (*s >= '0' && *s <= '9')
            d = (unsigned)(*s - '0');
        else if (base == 16 && *s >= 'a' && *s <= 'f')
            d = (unsigned)(*s - 'a' + 10);
        else if (base == 16 && *s >= 'A' && *s <= 'F')
            d = (unsigned)(*s - 'A' + 10);
        else
            return -1;
        if (x > (UINT64_MAX - d) / (unsigned)base)
            return -1;
        x = x * (unsigned)base + d;
    }
    *v = x;
    return 0;
}

static int parse_u32(const char *s, uint32_t *v, uint64_t max)
{
    uint64_t x;
    if (parse_u64(s, &x) || x > max)
        return -1;
    *v = (uint32_t)x;
    return 0;
}

/* A blob's file name: safe to join to a directory. */
static int file_name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 200 || s[0] == '.')
        return 0;
    return wl_capture_name_chars_ok(s);
}

typedef struct parser {
    wl_capture *c;
    wl_capture_blob_fn blob;
    wl_capture_release_fn release;
    void *ctx;
    unsigned line;
    char *err;
    size_t errcap;
    unsigned seen; /* bit per once-only keyword */
} parser;

#define PERR(P, ...) perr((P), __VA_ARGS__)
static wl_status perr(parser *P, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return wl_capture_fail(P->err, P->errcap, WL_ERR_FORMAT, "capture manifest line %u: %s", P->line, msg);
}

/* Fetches blob `file` of `bytes` bytes with hash `hash` ("-": unchecked)
 * into a new allocation. */
static wl_status load_blob(parser *P, const char *file, uint64_t bytes, const char *hash,
                           uint8_t **out)
{
    uint64_t want_hash = 0;
    int check = strcmp(hash, "-") != 0;
    if (check) {
        char hx[24] = "0x";
        if (strlen(hash) != 16)
            return PERR(P, "hash '%.40s': 16 hex digits or -", hash);
        memcpy(hx + 2, hash, 17);
        if (parse_u64(hx, &want_hash))
            return PERR(P, "hash '%.40s': 16 hex digits or -", hash);
    }
    if (!file_name_ok(file))
        return PERR(P, "file name '%.80s': A-Z a-z 0-9 _ . - only, not starting with '.'", file);
    if (!P->blob)
        return PERR(P, "no way to read file %s", file);
    const uint8_t *data = NULL;
    uint64_t size = 0;
    char berr[300] = "";
    if (P->blob(P->ctx, file, bytes, &data, &size, berr, sizeof(berr)) != 0 || !data)
        return PERR(P, "file %s: %s", file, berr[0] ? berr : "cannot read");
    wl_status st = WL_OK;
    if (size != bytes)
        st = PERR(P, "file %s holds %llu bytes, the manifest says %llu (truncated or wrong file)",
                  file, ULL(size), ULL(bytes));
    else if (check && wl_capture_fnv1a64(data, size) != want_hash)
        st = PERR(P, "file %s: FNV-1a hash %016llx, the manifest says %s (corrupt)", file,
                  ULL(wl_capture_fnv1a64(data, size)), hash);
    else if (!(*out = malloc(bytes ? bytes : 1)))
        st = wl_capture_fail(P->err, P->errcap, WL_ERR_NOMEM, "capture: out of memory for %s", file);
    else
        memcpy(*out, data, bytes);
    if (P->release)
        P->release(P->ctx, data);
    return st;
}

enum { K_TARGET, K_WAVE, K_CODE, K_LOCAL, K_GROUPS, K_SGPRS, K_PSB, K_WGID, K_WGINFO,
       K_SWO, K_TID, K_LDS, K_SCRATCH, K_FLOAT, K_SOURCE, K_LAUNCH };

static const struct {
    const char *name;
    int nargs; /* -1: variable */
} keys[] = {
    [K_TARGET] = {"target", 1}, [K_WAVE] = {"wave", 1}, [K_CODE] = {"code", 5},
    [K_LOCAL] = {"local", 3}, [K_GROUPS] = {"groups", 3}, [K_SGPRS] = {"user-sgprs", -1},
    [K_PSB] = {"private-segment-buffer", 1}, [K_WGID] = {"workgroup-id", 3},
    [K_WGINFO] = {"workgroup-info", 1}, [K_SWO] = {"scratch-wave-offset", 1},
    [K_TID] = {"thread-id-vgprs", 1}, [K_LDS] = {"lds", 1}, [K_SCRATCH] = {"scratch", 1},
    [K_FLOAT] = {"float-mode", 6}, [K_SOURCE] = {"source", -1}, [K_LAUNCH] = {"launch", -1},
};

/* launch radv N [HIGH] | launch amdhsa [ITEM...] (capture.h, docs/capture.md) */
static wl_status launch_item(parser *P, char **t, int n)
{
    wl_capture *c = P->c;
    uint64_t v;
    if (n >= 3 && n <= 4 && strcmp(t[1], "radv") == 0) {
        if (parse_u64(t[2], &v) || v < 1 || v > WL_CAPTURE_MAX_USER_SGPRS - 2)
            return PERR(P, "launch radv: '%.40s' pointers (1 to %d)", t[2], WL_CAPTURE_MAX_USER_SGPRS - 2);
        c->launch = WL_CAPTURE_LAUNCH_RADV;
        c->launch_pointers = (unsigned)v;
        c->launch_high = WL_CAPTURE_RADV_HIGH;
        if (n == 4 && parse_u32(t[3], &c->launch_high, UINT32_MAX))
            return PERR(P, "launch radv: high half '%.40s' is not a 32-bit value", t[3]);
        return WL_OK;
    }
    if (n >= 2 && strcmp(t[1], "amdhsa") == 0) {
        c->launch = WL_CAPTURE_LAUNCH_AMDHSA;
        unsigned last = 0;
        for (int i = 2; i < n; i++) {
            unsigned bit = 0, k = 0;
            const char *name;
            while ((name = wl_capture_hsa_item_name(k, &bit)) && strcmp(name, t[i]))
                k++;
            if (!name)
                return PERR(P, "launch amdhsa: unknown item '%.40s' (dispatch-ptr queue-ptr "
                               "kernarg-ptr dispatch-id flat-scratch-init private-segment-size)", t[i]);
            if (bit <= last)
                return PERR(P, "launch amdhsa: '%.40s' given twice or out of the SGPR order", t[i]);
            last = bit;
            c->launch_hsa |= bit;
        }
        return WL_OK;
    }
    return PERR(P, "launch radv N [HIGH] | launch amdhsa [ITEM...]");
}

static wl_status bool_arg(parser *P, const char *s, int *v)
{
    if (strcmp(s, "0") && strcmp(s, "1"))
        return PERR(P, "'%.40s' is not 0 or 1", s);
    *v = s[0] == '1';
    return WL_OK;
}

static wl_status once_item(parser *P, int k, char **t, int n, const char *rest)
{
    wl_capture *c = P->c;
    uint64_t v;
    uint32_t u[6];
    if (P->seen & (1u << k))
        return PERR(P, "%s given twice", keys[k].name);
    P->seen |= 1u << k;
    if (keys[k].nargs >= 0 && n - 1 != keys[k].nargs)
        return PERR(P, "%s takes %d values, not %d", keys[k].name, keys[k].nargs, n - 1);
    switch (k) {
    case K_TARGET: {
        int tg = wl_target_from_name(t[1]);
        if (tg < 0 || tg >= WL_TARGET_COUNT)
            return PERR(P, "target '%.40s' is not a gfx10 target", t[1]);
        c->target = (wl_target)tg;
        return WL_OK;
    }
    case K_WAVE:
        if (parse_u64(t[1], &v) || (v != 32 && v != 64))
            return PERR(P, "wave '%.40s': 32 or 64", t[1]);
        c->wave_size = (unsigned)v;
        return WL_OK;
    case K_CODE: { /* code FILE BYTES HASH ADDRESS ENTRY */
        uint64_t bytes, addr, entry;
        if (parse_u64(t[2], &bytes) || bytes < 4 || bytes > WL_CAPTURE_MAX_CODE)
            return PERR(P, "code bytes '%.40s' (4 to %u)", t[2], WL_CAPTURE_MAX_CODE);
        if (parse_u64(t[4], &addr) || parse_u64(t[5], &entry))
            return PERR(P, "code: bad address or entry");
        c->code_address = addr;
        c->entry = (size_t)(entry > bytes ? bytes : entry);
        if (entry > bytes)
            return PERR(P, "code entry 0x%llx beyond its %llu bytes", ULL(entry), ULL(bytes));
        wl_status st = load_blob(P, t[1], bytes, t[3], &c->code);
        if (st == WL_OK)
            c->code_size = (size_t)bytes;
        return st;
    }
    case K_LOCAL:
    case K_GROUPS:
        for (int d = 0; d < 3; d++)
            if (parse_u32(t[1 + d], &u[d], UINT32_MAX) || u[d] == 0)
                return PERR(P, "%s: '%.40s' is not a count of at least 1", keys[k].name, t[1 + d]);
        memcpy(k == K_LOCAL ? c->local : c->groups, u, sizeof(uint32_t) * 3);
        return WL_OK;
    case K_SGPRS:
        if (n < 2 || parse_u64(t[1], &v) || v > WL_CAPTURE_MAX_USER_SGPRS || (int)v != n - 2)
            return PERR(P, "user-sgprs N then N values (N at most %d)", WL_CAPTURE_MAX_USER_SGPRS);
        c->user_sgpr_count = (unsigned)v;
        for (unsigned i = 0; i < c->user_sgpr_count; i++)
            if (parse_u32(t[2 + i], &c->user_sgpr[i], UINT32_MAX))
                return PERR(P, "user SGPR %u: '%.40s' is not a 32-bit value", i, t[2 + i]);
        return WL_OK;
    case K_PSB:
        return bool_arg(P, t[1], &c->private_segment_buffer);
    case K_WGID:
        for (int d = 0; d < 3; d++)
            if (bool_arg(P, t[1 + d], &c->enable_workgroup_id[d]))
                return WL_ERR_FORMAT;
        return WL_OK;
    case K_WGINFO:
        return bool_arg(P, t[1], &c->enable_workgroup_info);
    case K_SWO:
        return bool_arg(P, t[1], &c->enable_scratch_wave_offset);
    case K_TID:
        if (parse_u64(t[1], &v) || v < 1 || v > 3)
            return PERR(P, "thread-id-vgprs '%.40s': 1, 2 or 3", t[1]);
        c->vgpr_workitem_ids = (unsigned)v;
        return WL_OK;
    case K_LDS:
    case K_SCRATCH:
        if (parse_u32(t[1], &u[0], k == K_LDS ? 65536 : (1u << 26)))
            return PERR(P, "%s '%.40s': a byte count (at most %u)", keys[k].name, t[1],
                        k == K_LDS ? 65536 : (1u << 26));
        *(k == K_LDS ? &c->lds_bytes : &c->scratch_bytes) = u[0];
        return WL_OK;
    case K_FLOAT:
        for (int i = 0; i < 6; i++)
            if (parse_u32(t[1 + i], &u[i], i < 4 ? 3 : 1))
                return PERR(P, "float-mode: ROUND32 ROUND16_64 DENORM32 DENORM16_64 (0..3) "
                               "DX10_CLAMP IEEE (0|1)");
        c->float_mode_known = 1;
        c->float_round_mode_32 = u[0];
        c->float_round_mode_16_64 = u[1];
        c->float_denorm_mode_32 = u[2];
        c->float_denorm_mode_16_64 = u[3];
        c->dx10_clamp = (int)u[4];
        c->ieee_mode = (int)u[5];
        return WL_OK;
    case K_LAUNCH:
        return launch_item(P, t, n);
    case K_SOURCE:
        free(c->source);
        if (!(c->source = strdup(rest)))
            return wl_capture_fail(P->err, P->errcap, WL_ERR_NOMEM, "capture: out of memory");
        return WL_OK;
    }
    return PERR(P, "internal: keyword %d", k);
}

/* range NAME ADDRESS BYTES rw|ro FILE|zero HASH|- */
static wl_status range_item(parser *P, char **t, int n)
{
    uint64_t addr, bytes;
    if (n != 7)
        return PERR(P, "range NAME ADDRESS BYTES rw|ro FILE|zero HASH|-");
    if (parse_u64(t[2], &addr) || parse_u64(t[3], &bytes))
        return PERR(P, "range %.64s: bad address or size", t[1]);
    if (strcmp(t[4], "rw") && strcmp(t[4], "ro"))
        return PERR(P, "range %.64s: '%.40s' is not rw or ro", t[1], t[4]);
    if (bytes == 0 || bytes > WL_CAPTURE_MAX_RANGE_BYTES)
        return PERR(P, "range %.64s: size %llu", t[1], ULL(bytes));
    char e[300];
    /* added zeroed first, so that a bad name or overlap is refused before reading */
    wl_status st = wl_capture_add_range(P->c, t[1], addr, NULL, bytes, t[4][1] == 'w', e, sizeof(e));
    if (st != WL_OK)
        return st == WL_ERR_NOMEM ? wl_capture_fail(P->err, P->errcap, st, "%s", e) : PERR(P, "%s", e);
    if (strcmp(t[5], "zero") == 0)
        return strcmp(t[6], "-") ? PERR(P, "range %s: a zero range has hash -", t[1]) : WL_OK;
    wl_capture_range *r = &P->c->ranges[P->c->nranges - 1];
    uint8_t *data = NULL;
    if ((st = load_blob(P, t[5], bytes, t[6], &data)) != WL_OK)
        return st;
    free(r->data);
    r->data = data;
    return WL_OK;
}

/* address u64|vsharp sgpr N | address u64|vsharp range NAME OFFSET */
static wl_status address_item(parser *P, char **t, int n)
{
    wl_capture_field_kind kind;
    uint64_t off;
    if (n >= 2 && strcmp(t[1], "u64") == 0)
        kind = WL_CAPTURE_FIELD_U64;
    else if (n >= 2 && strcmp(t[1], "vsharp") == 0)
        kind = WL_CAPTURE_FIELD_VSHARP;
    else
        return PERR(P, "address u64|vsharp sgpr N | address u64|vsharp range NAME OFFSET");
    const char *range = NULL;
    if (n == 4 && strcmp(t[2], "sgpr") == 0 && parse_u64(t[3], &off) == 0 && off < 64)
        off *= 4;
    else if (n == 5 && strcmp(t[2], "range") == 0 && parse_u64(t[4], &off) == 0)
        range = t[3];
    else
        return PERR(P, "address u64|vsharp sgpr N | address u64|vsharp range NAME OFFSET");
    char e[300];
    wl_status st = wl_capture_add_field(P->c, kind, range, off, e, sizeof(e));
    return st == WL_OK ? st : PERR(P, "%s", e);
}

static wl_status parse_line(parser *P, char *s)
{
    char *t[MAX_TOKENS];
    int n = 0;
    while (*s == ' ' || *s == '\t')
        s++;
    if (strncmp(s, "source", 6) == 0 && (s[6] == ' ' || s[6] == '\t' || !s[6])) {
        char *rest = s + 6; /* the rest of the line, kept whole */
        while (*rest == ' ' || *rest == '\t')
            rest++;
        t[0] = "source";
        return once_item(P, K_SOURCE, t, 1, rest);
    }
    for (char *p = s; *p;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        if (n == MAX_TOKENS)
            return PERR(P, "more than %d words", MAX_TOKENS);
        t[n++] = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        if (*p)
            *p++ = '\0';
    }
    if (n == 0 || t[0][0] == '#')
        return WL_OK;
    if (strcmp(t[0], "range") == 0)
        return range_item(P, t, n);
    if (strcmp(t[0], "address") == 0)
        return address_item(P, t, n);
    for (int k = 0; k < (int)(sizeof(keys) / sizeof(keys[0])); k++)
        if (strcmp(t[0], keys[k].name) == 0)
            return once_item(P, k, t, n, "");
    return PERR(P, "unknown item '%.40s'", t[0]);
}

wl_status wl_capture_parse(const char *text, size_t len, wl_capture_blob_fn blob,
                           wl_capture_release_fn release, void *ctx, wl_capture **out,
                           char *err, size_t errcap)
{
    if (!out)
        return wl_capture_fail(err, errcap, WL_ERR_USAGE, "wl_capture_parse: no output");
    *out = NULL;
    if (!text)
        return wl_capture_fail(err, errcap, WL_ERR_USAGE, "wl_capture_parse: no text");
    if (len > MAX_MANIFEST)
        return wl_capture_fail(err, errcap, WL_ERR_FORMAT, "capture manifest of %llu bytes (at most %u)",
                    ULL(len), MAX_MANIFEST);
    parser P = {.blob = blob, .release = release, .ctx = ctx, .err = err, .errcap = errcap};
    if (!(P.c = calloc(1, sizeof(*P.c))))
        return wl_capture_fail(err, errcap, WL_ERR_NOMEM, "capture: out of memory");
    P.c->wave_size = 64;
    P.c->vgpr_workitem_ids = 1;
    char line[MAX_LINE + 1];
    int header = 0;
    wl_status st = WL_OK;
    for (size_t pos = 0; pos < len && st == WL_OK;) {
        size_t e = pos;
        while (e < len && text[e] != '\n')
            e++;
        P.line++;
        size_t n = e - pos;
        if (n && text[e - 1] == '\r')
            n--;
        if (n > MAX_LINE) {
            st = PERR(&P, "longer than %d bytes", MAX_LINE);
            break;
        }
        if (memchr(text + pos, '\0', n)) {
            st = PERR(&P, "holds a NUL byte");
            break;
        }
        memcpy(line, text + pos, n);
        line[n] = '\0';
        pos = e + 1;
        if (!header) {
            char *p = line;
            while (*p == ' ' || *p == '\t')
                p++;
            if (!*p || *p == '#')
                continue;
            if (strcmp(p, "wavelift-capture 1") != 0)
                st = PERR(&P, "not a capture: the first line must be 'wavelift-capture 1'");
            header = 1;
            continue;
        }
        st = parse_line(&P, line);
    }
    if (st == WL_OK && !header)
        st = wl_capture_fail(err, errcap, WL_ERR_FORMAT, "capture manifest: empty");
    static const int required[] = {K_TARGET, K_WAVE, K_CODE, K_LOCAL, K_GROUPS};
    for (size_t i = 0; st == WL_OK && i < sizeof(required) / sizeof(required[0]); i++)
        if (!(P.seen & (1u << required[i])))
            st = wl_capture_fail(err, errcap, WL_ERR_FORMAT, "capture manifest: no '%s' line",
                      keys[required[i]].name);
    if (st == WL_OK)
        st = wl_capture_check(P.c, err, errcap); /* its message names the rule */
    if (st != WL_OK) {
        wl_capture_free(P.c);
        return st;
    }
    *out = P.c;
    return WL_OK;
}

/* ---- directories ------------------------------------------------------ */

typedef struct dir_ctx {
    const char *dir;
} dir_ctx;

static int read_path(const char *path, uint64_t max, uint8_t **data, uint64_t *size, char *err,
                     size_t errcap)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errcap, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    struct stat sb;
    if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
        fclose(f);
        snprintf(err, errcap, "%s is not a regular file", path);
        return -1;
    }
    uint64_t n = (uint64_t)sb.st_size;
    if (n > max) {
        fclose(f);
        snprintf(err, errcap, "%s holds %llu bytes, more than the %llu expected", path, ULL(n),
                 ULL(max));
        return -1;
    }
    uint8_t *b = malloc(n ? n : 1);
    if (!b || fread(b, 1, n, f) != n) {
        free(b);
        fclose(f);
        snprintf(err, errcap, "cannot read %s", path);
        return -1;
    }
    fclose(f);
    *data = b;
    *size = n;
    return 0;
}

static int dir_blob(void *ctx, const char *name, uint64_t max, const uint8_t **data,
                    uint64_t *size, char *err, size_t errcap)
{
    const dir_ctx *d = ctx;
    size_t n = strlen(d->dir) + strlen(name) + 2;
    char *path = malloc(n);
    if (!path) {
        snprintf(err, errcap, "out of memory");
        return -1;
    }
    snprintf(path, n, "%s/%s", d->dir, name);
    uint8_t *b = NULL;
    int rc = read_path(path, max, &b, size, err, errcap);
    free(path);
    *data = b;
    return rc;
}

static void dir_release(void *ctx, const uint8_t *data)
{
    (void)ctx;
    free((void *)data);
}

wl_status wl_capture_read(const char *dir, wl_capture **out, char *err, size_t errcap)
{
    if (!dir || !out)
        return wl_capture_fail(err, errcap, WL_ERR_USAGE, "wl_capture_read: missing argument");
    *out = NULL;
    size_t n = strlen(dir) + sizeof("/manifest.txt");
    char *path = malloc(n);
    if (!path)
        return wl_capture_fail(err, errcap, WL_ERR_NOMEM, "out of memory");
    snprintf(path, n, "%s/manifest.txt", dir);
    uint8_t *text = NULL;
    uint64_t size = 0;
    char e[600];
    int rc = read_path(path, MAX_MANIFEST, &text, &size, e, sizeof(e));
    free(path);
    if (rc)
        return wl_capture_fail(err, errcap, WL_ERR_IO, "capture %s: %s", dir, e);
    dir_ctx d = {dir};
    wl_status st = wl_capture_parse((const char *)text, (size_t)size, dir_blob, dir_release, &d,
                                    out, err, errcap);
    free(text);
    return st;
}

/* ---- raw code with a launch description ------------------------------------ */

#define RAW_CODE_NAME "wavelift-raw-code"

typedef struct raw_ctx {
    dir_ctx dir;
    const uint8_t *code;
    uint64_t size;
    int served;
} raw_ctx;

static int raw_blob(void *ctx, const char *name, uint64_t max, const uint8_t **data, uint64_t *size,
                    char *err, size_t errcap)
{
    raw_ctx *r = ctx;
    if (!r->served && !strcmp(name, RAW_CODE_NAME)) {
        r->served = 1;
        if (r->size > max) {
            snprintf(err, errcap, "the code holds %llu bytes, more than the %llu allowed", ULL(r->size), ULL(max));
            return -1;
        }
        *data = r->code;
        *size = r->size;
        return 0;
    }
    return dir_blob(&r->dir, name, max, data, size, err, errcap);
}

static void raw_release(void *ctx, const uint8_t *data)
{
    raw_ctx *r = ctx;
    if (data != r->code)
        free((void *)data);
}

wl_status wl_capture_read_launch(const char *launch, const uint8_t *code, uint64_t size, uint64_t address,
                                 uint32_t entry, wl_capture **out, char *err, size_t errcap)
{
    if (!launch || !code || !out)
        return wl_capture_fail(err, errcap, WL_ERR_USAGE, "wl_capture_read_launch: missing argument");
    *out = NULL;
    uint8_t *text = NULL;
    uint64_t n = 0;
    char e[600];
    if (read_path(launch, MAX_MANIFEST, &text, &n, e, sizeof(e)))
        return wl_capture_fail(err, errcap, WL_ERR_IO, "launch description %s: %s", launch, e);
    /* the code is the caller's: a description naming code of its own is a capture's manifest */
    for (uint64_t i = 0; i < n; i++)
        if ((i == 0 || text[i - 1] == '\n') && n - i >= 5 && !memcmp(text + i, "code", 4) &&
            (text[i + 4] == ' ' || text[i + 4] == '\t')) {
            free(text);
            return wl_capture_fail(err, errcap, WL_ERR_FORMAT,
                                   "launch description %s: it has a 'code' line (a capture's manifest: lift its "
                                   "folder instead)", launch);
        }
    char line[160];
    int ln = snprintf(line, sizeof line, "\ncode " RAW_CODE_NAME " %llu - 0x%llx %u\n", ULL(size), ULL(address),
                      entry);
    uint8_t *full = malloc(n + (size_t)ln);
    if (!full) {
        free(text);
        return wl_capture_fail(err, errcap, WL_ERR_NOMEM, "out of memory");
    }
    memcpy(full, text, n);
    memcpy(full + n, line, (size_t)ln);
    free(text);
    /* the ranges' files lie beside the description */
    char *dir = strdup(launch);
    if (!dir) {
        free(full);
        return wl_capture_fail(err, errcap, WL_ERR_NOMEM, "out of memory");
    }
    char *slash = strrchr(dir, '/');
    if (slash)
        slash == dir ? (void)(dir[1] = 0) : (void)(*slash = 0);
    raw_ctx r = {{slash ? dir : "."}, code, size, 0};
    char pe[1000];
    wl_status st = wl_capture_parse((const char *)full, n + (size_t)ln, raw_blob, raw_release, &r, out, pe,
                                    sizeof pe);
    free(full);
    free(dir);
    if (st != WL_OK)
        return wl_capture_fail(err, errcap, st, "launch description %s: %s", launch, pe);
    return WL_OK;
}
