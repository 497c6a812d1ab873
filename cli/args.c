/* Parsing of the command line's value syntax: --arg SPEC, --global/--local
 * X[,Y[,Z]], --out N:FILE; and small file helpers. */
#include "cli.h"

#include "wavelift/image.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int cli_usage_error(const char *msg, const char *arg)
{
    if (arg)
        fprintf(stderr, "wavelift: %s: %s\n", msg, arg);
    else
        fprintf(stderr, "wavelift: %s\n", msg);
    fprintf(stderr, "Try 'wavelift --help'.\n");
    return EXIT_USAGE;
}

uint8_t *cli_read_file(const char *path, size_t *size)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "wavelift: %s: is a directory\n", path);
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "wavelift: %s: cannot open\n", path);
        return NULL;
    }
    uint8_t *data = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 65536;
            uint8_t *nd = realloc(data, cap);
            if (!nd) {
                free(data);
                fclose(f);
                fprintf(stderr, "wavelift: %s: out of memory\n", path);
                return NULL;
            }
            data = nd;
        }
        size_t got = fread(data + n, 1, cap - n, f);
        if (got == 0)
            break;
        n += got;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(data);
        fprintf(stderr, "wavelift: %s: read error\n", path);
        return NULL;
    }
    *size = n;
    return data;
}

int cli_write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "wavelift: %s: cannot create\n", path);
        return -1;
    }
    size_t w = size ? fwrite(data, 1, size, f) : 0;
    int bad = fclose(f) != 0 || w != size;
    if (bad)
        fprintf(stderr, "wavelift: %s: write error\n", path);
    return bad ? -1 : 0;
}

static int parse_u64(const char *s, int is_signed, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!*s)
        return -1;
    if (is_signed) {
        long long v = strtoll(s, &end, 0);
        *out = (uint64_t)v;
    } else {
        if (*s == '-')
            return -1;
        *out = strtoull(s, &end, 0);
    }
    return errno || *end ? -1 : 0;
}

uint32_t cli_img_row_bytes(const cli_img_arg *m)
{
    return (m->width * m->bpt + 255u) & ~255u;
}

uint64_t cli_img_rows(const cli_img_arg *m, uint8_t *buf)
{
    size_t row = (size_t)m->width * m->bpt;
    for (uint32_t y = 0; y < m->height; y++)
        memmove(buf + y * row, buf + CLI_IMG_TEXELS + (size_t)y * cli_img_row_bytes(m), row);
    return (uint64_t)row * m->height;
}

/* img1d:FORMAT:W:FILE, img2d:FORMAT:W:H:FILE */
static int parse_image(const char *spec, unsigned dims, wl_hsa_arg *a, cli_img_arg *m, char *err, size_t errcap)
{
    const char *p = spec + 6, *c = strchr(p, ':');
    char name[48];
    if (!c || (size_t)(c - p) >= sizeof name) {
        snprintf(err, errcap, "bad image spec %s (img%ud:FORMAT:W%s:FILE)", spec, dims, dims == 2 ? ":H" : "");
        return -1;
    }
    memcpy(name, p, (size_t)(c - p));
    name[c - p] = 0;
    const wl_img_format *f = NULL;
    for (uint32_t i = 1; i < 512 && !f; i++) {
        const wl_img_format *e = wl_img_format_info(i);
        if (e && strcmp(e->name, name) == 0)
            f = e;
    }
    unsigned bits = f && f->components ? 8u * f->bytes_per_texel / f->components : 0;
    char plain[24] = ""; /* "8_8_8_8_": equal components, not a packed format */
    for (unsigned i = 0; f && i < f->components && bits; i++)
        snprintf(plain + strlen(plain), sizeof plain - strlen(plain), "%u_", bits);
    if (!f || f->flags || strncmp(name, plain, strlen(plain)) != 0 || (f->components != 1 && f->components != 2 && f->components != 4) ||
        (bits != 8 && bits != 16 && bits != 32) || f->kind == WL_IMG_KIND_USCALED || f->kind == WL_IMG_KIND_SSCALED ||
        f->kind == WL_IMG_KIND_SRGB || (f->kind == WL_IMG_KIND_FLOAT && bits == 8) ||
        ((f->kind == WL_IMG_KIND_UNORM || f->kind == WL_IMG_KIND_SNORM) && bits == 32)) {
        snprintf(err, errcap, "image format %s: not one of 1, 2 or 4 components of 8, 16 or 32 bits, "
                              "UNORM, SNORM, UINT, SINT or FLOAT (wavelift/image.h names them)", name);
        return -1;
    }
    uint64_t v[2] = {1, 1};
    p = c + 1;
    for (unsigned d = 0; d < dims; d++) {
        char *end;
        v[d] = strtoull(p, &end, 10);
        if (end == p || *end != ':' || v[d] == 0 || v[d] > 16384) {
            snprintf(err, errcap, "bad image size in %s (1 to 16384 texels a dimension)", spec);
            return -1;
        }
        p = end + 1;
    }
    if (!*p) {
        snprintf(err, errcap, "image spec without a file: %s", spec);
        return -1;
    }
    *m = (cli_img_arg){f->fmt, (uint32_t)v[0], (uint32_t)v[1], f->bytes_per_texel, dims, f->components, f->kind, bits};
    a->kind = WL_HSA_ARG_BUF;
    a->file = p;
    return 0;
}

int cli_parse_arg(const char *spec, wl_hsa_arg *a, cli_img_arg *img, char *err, size_t errcap)
{
    memset(a, 0, sizeof(*a));
    if (img)
        memset(img, 0, sizeof(*img));
    if (strncmp(spec, "img1d:", 6) == 0 || strncmp(spec, "img2d:", 6) == 0) {
        if (!img) {
            snprintf(err, errcap, "image arguments are not taken here: %s", spec);
            return -1;
        }
        return parse_image(spec, spec[3] == '1' ? 1 : 2, a, img, err, errcap);
    }
    const char *colon = strchr(spec, ':');
    if (!colon) {
        snprintf(err, errcap, "argument spec without a kind: %s", spec);
        return -1;
    }
    size_t kl = (size_t)(colon - spec);
    const char *v = colon + 1;
    static const struct { const char *name; wl_hsa_arg_kind kind; } kinds[] = {
        {"u32", WL_HSA_ARG_U32}, {"i32", WL_HSA_ARG_I32}, {"u64", WL_HSA_ARG_U64},
        {"i64", WL_HSA_ARG_I64}, {"f32", WL_HSA_ARG_F32}, {"f64", WL_HSA_ARG_F64},
        {"buf", WL_HSA_ARG_BUF}, {"zero", WL_HSA_ARG_ZERO}, {"local", WL_HSA_ARG_LOCAL},
    };
    int found = 0;
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if (strlen(kinds[i].name) == kl && strncmp(spec, kinds[i].name, kl) == 0) {
            a->kind = kinds[i].kind;
            found = 1;
        }
    if (!found) {
        snprintf(err, errcap, "unknown argument kind in %s", spec);
        return -1;
    }
    uint64_t u = 0;
    int bad = 0;
    switch (a->kind) {
    case WL_HSA_ARG_U32:
    case WL_HSA_ARG_I32:
        bad = parse_u64(v, a->kind == WL_HSA_ARG_I32, &u);
        if (!bad && a->kind == WL_HSA_ARG_U32 && u > 0xffffffffu)
            bad = 1;
        if (!bad && a->kind == WL_HSA_ARG_I32 && ((int64_t)u < INT32_MIN || (int64_t)u > INT32_MAX))
            bad = 1;
        a->bits = (uint32_t)u;
        a->size = 4;
        break;
    case WL_HSA_ARG_U64:
    case WL_HSA_ARG_I64:
        bad = parse_u64(v, a->kind == WL_HSA_ARG_I64, &u);
        a->bits = u;
        a->size = 8;
        break;
    case WL_HSA_ARG_F32:
    case WL_HSA_ARG_F64: {
        char *end;
        errno = 0;
        double d = strtod(v, &end);
        bad = !*v || *end || errno == EINVAL;
        if (a->kind == WL_HSA_ARG_F32) {
            float f = (float)d;
            uint32_t b;
            memcpy(&b, &f, 4);
            a->bits = b;
            a->size = 4;
        } else {
            memcpy(&a->bits, &d, 8);
            a->size = 8;
        }
        break;
    }
    case WL_HSA_ARG_BUF:
        a->file = v;
        bad = !*v;
        break;
    case WL_HSA_ARG_ZERO:
    case WL_HSA_ARG_LOCAL:
        bad = parse_u64(v, 0, &a->bytes) || a->bytes == 0 || a->bytes > (1ull << 32);
        break;
    }
    if (bad) {
        snprintf(err, errcap, "bad value in argument spec %s", spec);
        return -1;
    }
    return 0;
}

int cli_parse_subgroup(const char *s, unsigned *subgroup)
{
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (*end || (v != 4 && v != 8 && v != 16 && v != 32 && v != 64))
        return -1;
    *subgroup = (unsigned)v;
    return 0;
}

void cli_print_segment(FILE *f, uint32_t per_invocation, uint32_t lane_array_bytes)
{
    if (per_invocation > lane_array_bytes)
        fprintf(f, "scratch: device memory, %u bytes an invocation\n", per_invocation);
    if (lane_array_bytes)
        fprintf(f, "lane arrays: device memory, %u bytes a wave\n", lane_array_bytes);
}

int cli_parse_scratch(const char *s, uint32_t *scratch_limit, int *force_scratch_buffer)
{
    *scratch_limit = 0;
    *force_scratch_buffer = 0;
    if (strcmp(s, "auto") == 0)
        return 0;
    if (strcmp(s, "private") == 0) {
        *scratch_limit = 0xffffffffu;
        return 0;
    }
    if (strcmp(s, "device") == 0) {
        *force_scratch_buffer = 1;
        return 0;
    }
    if (strncmp(s, "device:", 7) == 0 && s[7] >= '0' && s[7] <= '9') {
        char *end;
        unsigned long long n = strtoull(s + 7, &end, 10);
        if (*end || n == 0 || n >= 0xffffffffull)
            return -1;
        *scratch_limit = (uint32_t)n;
        return 0;
    }
    return -1;
}

const char *cli_model_name(int model)
{
    return model == 1 ? "wave" : "lanes";
}

int cli_parse_dims(const char *s, uint32_t v[3], unsigned *dims)
{
    v[0] = v[1] = v[2] = 1;
    unsigned n = 0;
    const char *p = s;
    while (*p) {
        if (n == 3)
            return -1;
        char *end;
        errno = 0;
        unsigned long x = strtoul(p, &end, 10);
        if (end == p || errno || x == 0 || x > 0xffffffffu || *p == '-')
            return -1;
        v[n++] = (uint32_t)x;
        if (*end == ',')
            end++;
        else if (*end)
            return -1;
        p = end;
    }
    if (n == 0)
        return -1;
    *dims = n;
    return 0;
}

int cli_parse_out(const char *s, unsigned *n, const char **file)
{
    char *end;
    errno = 0;
    unsigned long x = strtoul(s, &end, 10);
    if (end == s || *end != ':' || !end[1] || errno || x > 1000)
        return -1;
    *n = (unsigned)x;
    *file = end + 1;
    return 0;
}
