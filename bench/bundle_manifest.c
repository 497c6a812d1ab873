/* A dispatch bundle's manifest (docs/bundle.md): one item a line. */
#include "bundle_manifest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_file.h"

void bundle_init(bundle *b, const char *dir)
{
    memset(b, 0, sizeof *b);
    b->translate_ms = -1;
    snprintf(b->dir, sizeof b->dir, "%s", dir);
    size_t l = strlen(b->dir);
    while (l > 1 && b->dir[l - 1] == '/')
        b->dir[--l] = 0;
    const char *slash = strrchr(b->dir, '/');
    snprintf(b->name, sizeof b->name, "%.255s", slash ? slash + 1 : b->dir);
}

/* A file a bundle names lies in its folder, or in the folder above it
 * that a set of bundles shares (../NAME: inputs written once for all of
 * them, scripts/native_vs_lifted.py): a plain name (no '/', not starting
 * with '.'), possibly after one "../" */
static int plain_name(const char *s)
{
    if (!strncmp(s, "../", 3))
        s += 3;
    return s[0] && s[0] != '.' && !strchr(s, '/') && !strchr(s, '\\');
}

int bundle_parse(bundle *b, FILE *f, const char *path, char *err, size_t errcap)
{
    char line[1024];
    for (int i = 0; i < WL_RT_MAX_BINDINGS; i++)
        b->binding[i] = -1;
    int version = 0, ok = 1;
    unsigned lineno = 0;
    while (ok && fgets(line, sizeof line, f)) {
        lineno++;
        char key[64], a[256], c[256];
        unsigned long long x, y, z;
        if (line[0] == '#' || sscanf(line, "%63s", key) != 1)
            continue;
        if (!strcmp(key, "wavelift-bundle")) /* once: what follows is read by it */
            ok = !version && sscanf(line, "%*s %d", &version) == 1 && version >= 1 && version <= 3;
        else if (!strcmp(key, "model")) {
            ok = sscanf(line, "%*s %255s", a) == 1 && (!strcmp(a, "lanes") || !strcmp(a, "wave"));
            b->model = ok && !strcmp(a, "wave") ? M_WAVE : M_LANES;
        } else if (!strcmp(key, "lane-loops"))
            ok = sscanf(line, "%*s %u", &b->lane_loops) == 1;
        else if (!strcmp(key, "translate-ms"))
            ok = sscanf(line, "%*s %lf", &b->translate_ms) == 1;
        else if (!strcmp(key, "subgroup"))
            ok = sscanf(line, "%*s %u", &b->subgroup) == 1;
        else if (!strcmp(key, "fused-fma"))
            ok = sscanf(line, "%*s %u", &b->fused_fma) == 1;
        else if (!strcmp(key, "merge-stores"))
            ok = sscanf(line, "%*s %u", &b->merge_stores) == 1;
        else if (!strcmp(key, "tolerance"))
            ok = sscanf(line, "%*s %u", &b->tolerance) == 1;
        else if (!strcmp(key, "spirv")) {
            ok = sscanf(line, "%*s %255s", b->spirv) == 1 && plain_name(b->spirv);
            if (ok && sscanf(line, "%*s %*s %llu", &x) == 1)
                b->words = (size_t)x;
        }
        else if (!strcmp(key, "host-local")) /* the module's work-group size (wl_hostsim) */
            ok = sscanf(line, "%*s %u %u %u", &b->local[0], &b->local[1], &b->local[2]) == 3 && b->local[0] &&
                 b->local[1] && b->local[2];
        else if (!strcmp(key, "host-ir")) /* the module's last IR stage as bitcode (wl_hostsim) */
            ok = sscanf(line, "%*s %255s", b->host_ir) == 1 && plain_name(b->host_ir);
        else if (!strcmp(key, "groups"))
            ok = sscanf(line, "%*s %u %u %u", &b->groups[0], &b->groups[1], &b->groups[2]) == 3;
        else if (!strcmp(key, "push")) /* once: relocations are checked against its size */
            ok = !b->push_file[0] && sscanf(line, "%*s %u %255s", &b->push_bytes, b->push_file) == 2 &&
                 plain_name(b->push_file) &&
                 b->push_bytes % 4 == 0 && b->push_bytes <= WL_RT_PUSH_CONSTANT_BYTES;
        else if (!strcmp(key, "buffer")) {
            ok = sscanf(line, "%*s %llu %llu %255s", &x, &y, a) == 3 && x == b->nbuf && x < MAX_BUFS &&
                 y > 0 && (!strcmp(a, "-") || plain_name(a));
            if (ok) {
                b->place[b->nbuf] = UINT64_MAX;
                b->size[b->nbuf] = y;
                snprintf(b->file[b->nbuf++], 256, "%s", strcmp(a, "-") ? a : "");
            }
        } else if (!strcmp(key, "reloc")) {
            ok = b->nrel < MAX_RELS && sscanf(line, "%*s %255s %llu %llu %llu", a, &x, &y, &z) == 4;
            if (ok) {
                /* in: "push" or a buffer's number */
                char *end = NULL;
                unsigned long n = strtoul(a, &end, 10);
                int in = !strcmp(a, "push") ? -1 : (a[0] >= '0' && a[0] <= '9' && !*end && n < b->nbuf) ? (int)n : -2;
                uint64_t lim = in == -1 ? b->push_bytes : in >= 0 ? b->size[in] : 0;
                /* the 8 bytes at x inside it (no wrap-around), x a 32-bit offset */
                ok = in != -2 && y < b->nbuf && lim >= 8 && x <= lim - 8 && x <= UINT32_MAX;
                b->rel[b->nrel].in = in;
                b->rel[b->nrel].offset = (uint32_t)x;
                b->rel[b->nrel].target = (unsigned)y;
                b->rel[b->nrel].addend = z;
                b->nrel++;
            }
        } else if (!strcmp(key, "arena")) {
            ok = version >= 2 && !b->arena_bytes && sscanf(line, "%*s %llu %llu %llu", &x, &y, &z) == 3 &&
                 y > 0 && z + 4u * WL_RT_MAPPING_WORDS <= WL_RT_PUSH_CONSTANT_BYTES;
            b->arena_guest = x;
            b->arena_bytes = y;
            b->arena_push = (uint32_t)z;
        } else if (!strcmp(key, "place")) {
            ok = b->arena_bytes && sscanf(line, "%*s %llu %llu", &x, &y) == 2 && x < b->nbuf &&
                 b->place[x] == UINT64_MAX && y % 16 == 0 && y <= b->arena_bytes &&
                 b->size[x] <= b->arena_bytes - y;
            if (ok)
                b->place[x] = y;
        } else if (!strcmp(key, "page-range")) {
            ok = version == 3 && b->arena_bytes && b->npr < MAX_BUFS &&
                 sscanf(line, "%*s %llu %llu %llu", &x, &y, &z) == 3 && z % 16 == 0 && z <= b->arena_bytes &&
                 y <= b->arena_bytes - z;
            if (ok)
                b->pr[b->npr++] = (wl_rt_mapping){x, y, z}; /* host_base: the offset until the arena exists */
        } else if (!strcmp(key, "binding")) {
            ok = sscanf(line, "%*s %llu %llu", &x, &y) == 2 && x < WL_RT_MAX_BINDINGS && y < b->nbuf;
            if (ok)
                b->binding[x] = (int)y;
        } else if (!strcmp(key, "save")) {
            ok = b->nsave < MAX_CHECKS && sscanf(line, "%*s %llu %255s", &x, c) == 2 && x < b->nbuf && plain_name(c);
            if (ok) {
                b->save_buf[b->nsave] = (unsigned)x;
                snprintf(b->save_file[b->nsave++], 256, "%s", c);
            }
        } else if (!strcmp(key, "check")) {
            ok = b->ncheck < MAX_CHECKS && sscanf(line, "%*s %llu %255s", &x, c) == 2 && x < b->nbuf && plain_name(c);
            if (ok) {
                b->check_buf[b->ncheck] = (unsigned)x;
                snprintf(b->check_file[b->ncheck++], 256, "%s", c);
            }
        }
        /* other keys (kernel, wave, k, local, code-object) are information;
         * a manifest without `model` is the lanes model */
    }
    if (!ok) {
        /* the field, and what its line must hold (docs/bundle.md) */
        static const char *const forms[][2] = {
            {"wavelift-bundle", "once, 1, 2 or 3"}, {"model", "lanes or wave"}, {"lane-loops", "a count"},
            {"translate-ms", "a number"}, {"subgroup", "a size"}, {"fused-fma", "WL_FMA_* bits"},
            {"merge-stores", "0 or 1"}, {"tolerance", "a count"}, {"spirv", "FILE [WORDS], FILE a name in the bundle or ../NAME"},
            {"groups", "X Y Z"}, {"host-local", "X Y Z, each > 0"}, {"host-ir", "FILE, a name in the bundle or ../NAME"}, {"push", "once, BYTES FILE, BYTES a multiple of 4 up to 128, FILE a name in the bundle or ../NAME"},
            {"buffer", "N BYTES FILE|-, N the next buffer's number, BYTES > 0, FILE a name in the bundle or ../NAME"},
            {"reloc", "push|BUFFER OFFSET TARGET ADDEND, the 8 bytes at OFFSET inside, TARGET a buffer"},
            {"arena", "format 2 or 3, once, GUEST BYTES PUSH_OFFSET"},
            {"place", "BUFFER OFFSET, after arena, once a buffer, 16-aligned, inside the arena"},
            {"page-range", "format 3, GUEST BYTES OFFSET inside the arena"},
            {"binding", "SLOT BUFFER"}, {"save", "BUFFER FILE, FILE a name in the bundle or ../NAME"},
            {"check", "BUFFER FILE, FILE a name in the bundle or ../NAME"}};
        char key[64] = "";
        sscanf(line, "%63s", key);
        const char *form = "?";
        for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
            if (!strcmp(key, forms[i][0]))
                form = forms[i][1];
        snprintf(err, errcap, "%.800s line %u: field %.63s: malformed (wants %s)", path, lineno, key, form);
        return -1;
    }
    if (!version || !b->spirv[0] || !b->push_file[0] || (b->model == M_LANES && !b->subgroup) ||
        b->binding[0] < 0 || !(b->ncheck || b->nsave) || (version >= 2 && !b->arena_bytes) || (version == 3 && !b->npr)) {
        snprintf(err, errcap, "%.800s: incomplete (needs wavelift-bundle 1, 2 or 3, spirv, push, subgroup "
                              "(lanes model), binding 0, check or save; format 2: arena; 3: page-range)", path);
        return -1;
    }
    if (b->model == M_WAVE && b->subgroup) {
        snprintf(err, errcap, "%.900s: model wave with subgroup %u (must be 0)", path, b->subgroup);
        return -1;
    }
    return 0;
}

uint8_t *bundle_read(const char *dir, const char *name, size_t *n)
{
    char path[1400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return wl_bench_read_file(path, n);
}

int bundle_load(bundle *b, char *err, size_t errcap)
{
    char path[1400];
    snprintf(path, sizeof path, "%s/manifest.txt", b->dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errcap, "%.900s: cannot open", path);
        return -1;
    }
    int rc = bundle_parse(b, f, path, err, errcap);
    fclose(f);
    return rc;
}

static int64_t ulp_key(uint32_t v)
{
    return (v & 0x80000000u) ? -(int64_t)(v & 0x7fffffffu) : (int64_t)v;
}

int bundle_compare(const uint8_t *want, size_t wn, const uint8_t *got, size_t gn, unsigned tol,
                   unsigned buf, char *msg, size_t cap)
{
    if (gn < wn) {
        snprintf(msg, cap, "buffer %u: %zu bytes, expected %zu", buf, gn, wn);
        return 1;
    }
    for (size_t i = 0; i < wn; i += 4) {
        uint32_t a = 0, b = 0;
        size_t k = wn - i < 4 ? wn - i : 4;
        memcpy(&a, want + i, k);
        memcpy(&b, got + i, k);
        if (a == b)
            continue;
        if (tol && k == 4) {
            float fa, fb;
            memcpy(&fa, &a, 4);
            memcpy(&fb, &b, 4);
            int64_t d = ulp_key(a) - ulp_key(b);
            if ((isnan(fa) && isnan(fb)) || (d <= (int64_t)tol && d >= -(int64_t)tol))
                continue;
        }
        snprintf(msg, cap, "buffer %u word %zu: got 0x%08x, expected 0x%08x", buf, i / 4, b, a);
        return 1;
    }
    return 0;
}

int bundle_fill(const bundle *b, uint8_t *const bytes[], const uint64_t addr[], uint8_t *push, char *msg, size_t cap)
{
    for (unsigned i = 0; i < b->nbuf; i++) {
        if (!b->file[i][0])
            continue;
        size_t n = 0;
        uint8_t *d = bundle_read(b->dir, b->file[i], &n);
        if (!d || n != b->size[i]) {
            snprintf(msg, cap, "%s: missing or not %llu bytes", b->file[i], (unsigned long long)b->size[i]);
            free(d);
            return -1;
        }
        memcpy(bytes[i], d, n);
        free(d);
    }
    for (unsigned r = 0; r < b->nrel; r++) {
        uint64_t v = addr[b->rel[r].target] + b->rel[r].addend;
        memcpy((b->rel[r].in < 0 ? push : bytes[b->rel[r].in]) + b->rel[r].offset, &v, 8);
    }
    return 0;
}

int bundle_check(const bundle *b, unsigned c, const uint8_t *got, char *msg, size_t cap)
{
    size_t n = 0;
    uint8_t *want = bundle_read(b->dir, b->check_file[c], &n);
    if (!want) {
        snprintf(msg, cap, "%s: cannot read the expected output", b->check_file[c]);
        return -1;
    }
    unsigned i = b->check_buf[c];
    int r = bundle_compare(want, n, got, b->size[i], b->tolerance, i, msg, cap);
    free(want);
    return r;
}

int bundle_save(const bundle *b, unsigned c, const uint8_t *bytes, char *msg, size_t cap)
{
    char path[1400];
    snprintf(path, sizeof path, "%s/%s", b->dir, b->save_file[c]);
    size_t n = b->size[b->save_buf[c]];
    FILE *f = fopen(path, "wb");
    int bad = !f || fwrite(bytes, 1, n, f) != n;
    if (f && fclose(f))
        bad = 1;
    if (bad)
        snprintf(msg, cap, "%.900s: cannot write the saved output", path);
    return bad ? -1 : 0;
}
