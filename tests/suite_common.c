/* The kernel suite's machinery (suite_common.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite_common.h"
#include "wavelift/image.h"
#include "support.h"

static void parse_file(wlt_suite *s, const char *name)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", s->dir, name);
    size_t n;
    char *text = (char *)wlt_read_file(path, &n);
    assert_non_null(text);
    wlt_spec *cur = NULL;
    char head[WLT_MAX_META][192];
    unsigned nhead = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, "//! ", 4) != 0)
            continue;
        char *l = line + 4;
        if (strncmp(l, "run ", 4) == 0) {
            assert_true(s->n < WLT_MAX_SPECS);
            cur = &s->specs[s->n++];
            memset(cur, 0, sizeof(*cur));
            snprintf(cur->file, sizeof(cur->file), "%s", name);
            char g[64] = "", lo[64] = "";
            int got = sscanf(l + 4, "%63s global=%63s local=%63s tol=%u", cur->kernel, g, lo, &cur->tol);
            assert_true(got >= 3);
            snprintf(cur->global, sizeof(cur->global), "%s", g);
            snprintf(cur->local, sizeof(cur->local), "%s", lo);
            for (unsigned i = 0; i < nhead; i++)
                memcpy(cur->meta[cur->nmeta++], head[i], sizeof(head[i]));
        } else if (strncmp(l, "arg ", 4) == 0) {
            assert_non_null(cur);
            assert_true(cur->nargs < WLT_MAX_ARGS);
            snprintf(cur->arg[cur->nargs++], 64, "%s", l + 4);
        } else if (strncmp(l, "out ", 4) == 0) {
            assert_non_null(cur);
            cur->out[cur->nouts++] = (unsigned)atoi(l + 4);
        } else if (!cur) {
            assert_true(nhead < WLT_MAX_META && strlen(l) < sizeof(head[0]));
            snprintf(head[nhead++], sizeof(head[0]), "%s", l);
        } else {
            assert_true(cur->nmeta < WLT_MAX_META && strlen(l) < sizeof(cur->meta[0]));
            snprintf(cur->meta[cur->nmeta++], sizeof(cur->meta[0]), "%s", l);
        }
    }
    free(text);
}

wlt_suite *wlt_suite_new(void)
{
    wlt_suite *s = calloc(1, sizeof(*s));
    if (!s)
        return NULL;
    snprintf(s->dir, sizeof(s->dir), "%s/tests/kernels", WL_SOURCE_DIR);
    /* WL_SUITE_CODIR: the code objects of another build of tests/kernels
     * (clang -O0, say), the same names */
    const char *codir = getenv("WL_SUITE_CODIR");
    snprintf(s->codir, sizeof(s->codir), "%s", codir && *codir ? codir : WL_KERNEL_DIR);
    s->tmp = wlt_tmpdir();
    if (!s->tmp) {
        free(s);
        return NULL;
    }
    return s;
}

int wlt_suite_setup(void **state)
{
    *state = wlt_suite_new();
    return *state ? 0 : -1;
}

int wlt_suite_teardown(void **state)
{
    wlt_suite_free(*state);
    return 0;
}

void wlt_suite_free(wlt_suite *s)
{
    if (!s)
        return;
    char cmd[700];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", s->tmp);
    free(wlt_run(cmd, NULL));
    free(s->tmp);
    free(s);
}

void wlt_suite_load_files(wlt_suite *s, const char *prefix, const char *ext)
{
    size_t n = 0;
    char **names = wlt_dir_names(s->dir, ext, &n);
    assert_true(names || n == 0); /* NULL: no such file (or no directory) */
    unsigned nn = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(names[i], prefix, strlen(prefix)) == 0 && nn < 256) {
            parse_file(s, names[i]);
            nn++;
        }
    wlt_free_names(names, n);
    s->files += nn;
}

void wlt_suite_load(wlt_suite *s)
{
    wlt_suite_load_files(s, "suite_", ".cl");
}

/* Makes the input file of a generator argument; writes the --arg SPEC. An
 * image's (img1d:FORMAT:W:GEN:WORDS, img2d:FORMAT:W:H:GEN:WORDS) file is
 * made the same way and named where the spec names its file. */
static void make_arg(const char *tmp, unsigned si, unsigned ai, const char *a, char *out, size_t cap)
{
    static const char *const gens[] = {"iota", "rand", "small", "randf"};
    const char *spec = a, *img_end = NULL; /* an image spec: where its generator starts */
    if (strncmp(a, "img1d:", 6) == 0 || strncmp(a, "img2d:", 6) == 0) {
        const char *c = a;
        for (unsigned n = 0; n < (a[3] == '1' ? 3u : 4u) && c; n++)
            c = strchr(c + 1, ':');
        assert_non_null(c);
        img_end = c + 1;
        a = img_end;
    }
    const char *colon = strchr(a, ':');
    assert_non_null(colon);
    int gen = -1;
    for (int g = 0; g < 4; g++)
        if ((size_t)(colon - a) == strlen(gens[g]) && strncmp(a, gens[g], strlen(gens[g])) == 0)
            gen = g;
    if (gen < 0) {
        assert_null(img_end); /* an image's file comes from a generator */
        snprintf(out, cap, "%s", a);
        return;
    }
    unsigned words = (unsigned)atoi(colon + 1);
    uint32_t *w = calloc(words ? words : 1, 4);
    assert_non_null(w);
    uint32_t x = 0x9e3779b9u ^ (si * 7919u + ai * 104729u);
    for (unsigned i = 0; i < words; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        switch (gen) {
        case 0: w[i] = i; break;
        case 1: w[i] = x; break;
        case 2: w[i] = x & 255u; break;
        default: {
            float f = (float)(int32_t)x / 2147483648.0f;
            memcpy(&w[i], &f, 4);
        }
        }
    }
    char path[700];
    snprintf(path, sizeof(path), "%s/in.%u.%u", tmp, si, ai);
    assert_int_equal(wlt_write_file(path, w, (size_t)words * 4), 0);
    free(w);
    if (img_end) /* the spec up to its generator, then the file */
        snprintf(out, cap, "%.*s%s", (int)(img_end - spec), spec, path);
    else
        snprintf(out, cap, "buf:%s", path);
}

void wlt_suite_args(wlt_suite *s, unsigned si, char *args, size_t cap)
{
    const wlt_spec *sp = &s->specs[si];
    size_t al = 0;
    char a[768];
    args[0] = 0;
    for (unsigned ai = 0; ai < sp->nargs; ai++) {
        make_arg(s->tmp, si, ai, sp->arg[ai], a, sizeof(a));
        al += (size_t)snprintf(args + al, cap - al, " --arg '%s'", a);
        assert_true(al < cap);
    }
}

int wlt_suite_pocl(wlt_suite *s, unsigned si, const char *args)
{
#ifndef WL_POCL_RUN
    (void)s;
    (void)si;
    (void)args;
    fail_msg("built without OpenCL (PoCL): install ocl-icd-opencl-dev pocl-opencl-icd "
             "opencl-c-headers (scripts/install-deps.sh) and re-run cmake");
    return -1;
#else
    const wlt_spec *sp = &s->specs[si];
    char outs_ref[1024] = "";
    size_t ol = 0;
    for (unsigned oi = 0; oi < sp->nouts; oi++)
        ol += (size_t)snprintf(outs_ref + ol, sizeof(outs_ref) - ol, " --out %u:'%s/ref.%u'", sp->out[oi], s->tmp, oi);
    size_t cap = strlen(args) + 4096;
    char *cmd = malloc(cap);
    assert_non_null(cmd);
    char src[1300];
    if (sp->src[0])
        snprintf(src, sizeof(src), "%s", sp->src);
    else
        snprintf(src, sizeof(src), "%s/%s", s->dir, sp->file);
    snprintf(cmd, cap, "'%s' '%s' --kernel %s --global %s --local %s%s%s%s%s%s 2>&1", WL_POCL_RUN, src, sp->kernel,
             sp->global, sp->local, args, outs_ref, sp->opts[0] ? " --options '-cl-std=CL2.0 " : "", sp->opts,
             sp->opts[0] ? "'" : "");
    int rc;
    char *out = wlt_run(cmd, &rc);
    free(cmd);
    assert_non_null(out);
    if (rc != 0)
        printf("%-16s PoCL failed (%d): %s\n", sp->kernel, rc, out);
    free(out);
    return rc;
#endif
}

void wlt_suite_run_cmd(wlt_suite *s, unsigned si, unsigned r, unsigned wave, const char *env, const char *extra,
                       const char *args, char *cmd, size_t cap, size_t *len)
{
    const wlt_spec *sp = &s->specs[si];
    char outs[1024] = "", a[768];
    size_t ol = 0;
    for (unsigned oi = 0; oi < sp->nouts; oi++) {
        snprintf(a, sizeof(a), "%s/got.%u.%u", s->tmp, r, oi);
        remove(a);
        ol += (size_t)snprintf(outs + ol, sizeof(outs) - ol, " --out %u:'%s'", sp->out[oi], a);
    }
    char stem[64];
    const char *dot = strrchr(sp->file, '.');
    snprintf(stem, sizeof(stem), "%.*s", (int)(dot ? (size_t)(dot - sp->file) : strlen(sp->file)), sp->file);
    *len += (size_t)snprintf(cmd + *len, cap - *len,
                             "(%s '%s' run --timeout-ms 180000 '%s/%s.w%u.co' --kernel %s --global %s --local %s%s%s%s "
                             ">'%s/stdout.%u' 2>'%s/stderr.%u'; echo $? >'%s/rc.%u') & ",
                             env, WL_CLI, s->codir, stem, wave, sp->kernel, sp->global, sp->local, extra, args,
                             outs, s->tmp, r, s->tmp, r, s->tmp, r);
    assert_true(*len < cap - 1);
}

void wlt_suite_capture_cmd(wlt_suite *s, unsigned si, unsigned r, unsigned wave, const char *env,
                           const char *args, char *cmd, size_t cap, size_t *len)
{
    char extra[1024], a[768];
    snprintf(a, sizeof(a), "%s/cap.%u", s->tmp, r);
    snprintf(extra, sizeof(extra), " --capture '%s'", a);
    /* this run's files of an earlier spec go first */
    *len += (size_t)snprintf(cmd + *len, cap - *len, "rm -rf '%s' '%s/rep.%u' '%s/rrc.%u' '%s/rstdout.%u'; ", a,
                             s->tmp, r, s->tmp, r, s->tmp, r);
    /* the run as wlt_suite_run_cmd writes it, without its trailing " & " */
    size_t start = *len;
    wlt_suite_run_cmd(s, si, r, wave, env, extra, args, cmd, cap, len);
    assert_true(*len >= start + 3 && cmd[*len - 2] == '&');
    *len -= 2;
    cmd[*len] = 0;
    /* "(run ...; echo $? >rc) " becomes "(run ...; echo $? >rc; replay ...)" */
    assert_true(cmd[*len - 1] == ' ' && cmd[*len - 2] == ')');
    *len -= 2;
    *len += (size_t)snprintf(cmd + *len, cap - *len,
                             "; if [ \"$(cat '%s/rc.%u')\" = 0 ]; then %s '%s' replay '%s' --both --runs 1 "
                             "--timeout-ms 180000 --out-dir '%s/rep.%u' >'%s/rstdout.%u' 2>'%s/rstderr.%u'; "
                             "echo $? >'%s/rrc.%u'; fi) & ",
                             s->tmp, r, env, WL_CLI, a, s->tmp, r, s->tmp, r, s->tmp, r, s->tmp, r);
    assert_true(*len < cap - 1);
}

static int64_t ulp_key(uint32_t b)
{
    return (b & 0x80000000u) ? -(int64_t)(b & 0x7fffffffu) : (int64_t)b;
}

/* 0: equal (within tol ulps for tol > 0); else prints the first difference. */
static int compare(const wlt_spec *sp, const char *what, const uint8_t *ref, size_t rn, const uint8_t *got, size_t gn)
{
    if (rn != gn) {
        printf("    %s: %zu bytes, PoCL %zu\n", what, gn, rn);
        return 1;
    }
    for (size_t i = 0; i + 4 <= rn || i < rn; i += 4) {
        uint32_t a = 0, b = 0;
        size_t k = rn - i < 4 ? rn - i : 4;
        memcpy(&a, ref + i, k);
        memcpy(&b, got + i, k);
        if (a == b)
            continue;
        if (sp->tol && k == 4) {
            float fa, fb;
            memcpy(&fa, &a, 4);
            memcpy(&fb, &b, 4);
            if (isnan(fa) && isnan(fb))
                continue;
            int64_t d = ulp_key(a) - ulp_key(b);
            if (d < 0)
                d = -d;
            if (d <= (int64_t)sp->tol)
                continue;
        }
        printf("    %s: word %zu: ours 0x%08x, PoCL 0x%08x\n", what, i / 4, b, a);
        return 1;
    }
    return 0;
}

/* A replayed image argument's buffer (its T#, then rows 256-byte aligned
 * from byte 256 on: docs/images.md, "Image arguments") made its rows alone,
 * as `wavelift run --out` and PoCL write them; *n their bytes. Other
 * arguments are left as they are. */
static void image_rows(const char *spec, uint8_t *buf, size_t *n)
{
    unsigned dims = strncmp(spec, "img1d:", 6) == 0 ? 1 : strncmp(spec, "img2d:", 6) == 0 ? 2 : 0;
    if (!dims)
        return;
    char name[48];
    unsigned w = 0, h = 1;
    int got = dims == 1 ? sscanf(spec + 6, "%47[^:]:%u", name, &w) : sscanf(spec + 6, "%47[^:]:%u:%u", name, &w, &h);
    assert_int_equal(got, (int)dims + 1);
    const wl_img_format *f = NULL;
    for (uint32_t i = 1; i < 512 && !f; i++)
        if (wl_img_format_info(i) && strcmp(wl_img_format_info(i)->name, name) == 0)
            f = wl_img_format_info(i);
    assert_non_null(f);
    size_t row = (size_t)w * f->bytes_per_texel, pitch = (row + 255) & ~(size_t)255;
    assert_true(*n >= 256 + pitch * (h - 1) + row);
    for (unsigned y = 0; y < h; y++)
        memmove(buf + y * row, buf + 256 + y * pitch, row);
    *n = row * h;
}

int wlt_suite_replay_result(wlt_suite *s, unsigned si, unsigned r, int *rc, char **outp)
{
    const wlt_spec *sp = &s->specs[si];
    char a[768];
    size_t n;
    snprintf(a, sizeof(a), "%s/rrc.%u", s->tmp, r);
    char *rcs = (char *)wlt_read_file(a, &n);
    *rc = rcs ? atoi(rcs) : -1;
    free(rcs);
    snprintf(a, sizeof(a), "%s/rstdout.%u", s->tmp, r);
    char *out = (char *)wlt_read_file(a, &n);
    int res;
    if (*rc == 3) {
        res = WLT_RUN_REFUSED;
    } else if (*rc == 1 && out && strstr(out, "DIFFERENT: ")) {
        res = WLT_RUN_MISMATCH;
    } else if (*rc != 0 || !out || !strstr(out, "same: ")) {
        res = WLT_RUN_FAILED;
    } else {
        res = WLT_RUN_MATCH;
        for (unsigned oi = 0; oi < sp->nouts; oi++) {
            char rp[700], gp[700], what[48];
            snprintf(rp, sizeof(rp), "%s/ref.%u", s->tmp, oi);
            snprintf(gp, sizeof(gp), "%s/rep.%u/arg%u.bin", s->tmp, r, sp->out[oi]);
            snprintf(what, sizeof(what), "replayed buffer %u", sp->out[oi]);
            size_t rn = 0, gn = 0;
            uint8_t *rb = wlt_read_file(rp, &rn), *g = wlt_read_file(gp, &gn);
            if (g)
                image_rows(sp->arg[sp->out[oi]], g, &gn);
            if (!rb || !g) {
                printf("\n    %s: no output file\n", what);
                res = WLT_RUN_MISMATCH;
            } else if (compare(sp, what, rb, rn, g, gn)) {
                res = WLT_RUN_MISMATCH;
            }
            free(rb);
            free(g);
        }
    }
    if (outp)
        *outp = out;
    else
        free(out);
    return res;
}

int wlt_suite_result(wlt_suite *s, unsigned si, unsigned r, int *rc, char **errp, char **outp)
{
    const wlt_spec *sp = &s->specs[si];
    char a[768];
    size_t en;
    snprintf(a, sizeof(a), "%s/rc.%u", s->tmp, r);
    char *rcs = (char *)wlt_read_file(a, &en);
    *rc = rcs ? atoi(rcs) : -1;
    free(rcs);
    snprintf(a, sizeof(a), "%s/stdout.%u", s->tmp, r);
    char *out = (char *)wlt_read_file(a, &en);
    snprintf(a, sizeof(a), "%s/stderr.%u", s->tmp, r);
    char *err = (char *)wlt_read_file(a, &en);
    char *nl = err ? strchr(err, '\n') : NULL;
    if (nl)
        *nl = 0;
    int res;
    if (*rc == 3) {
        res = WLT_RUN_REFUSED;
    } else if (*rc == 1 && err && strstr(err, ": translation failed: ")) {
        res = WLT_RUN_TRANSLATE_ERR;
    } else if (*rc != 0) {
        res = WLT_RUN_FAILED;
    } else {
        int bad = 0;
        for (unsigned oi = 0; oi < sp->nouts; oi++) {
            char rp[700], gp[700], what[32];
            snprintf(rp, sizeof(rp), "%s/ref.%u", s->tmp, oi);
            snprintf(gp, sizeof(gp), "%s/got.%u.%u", s->tmp, r, oi);
            snprintf(what, sizeof(what), "buffer %u", sp->out[oi]);
            size_t rn = 0, gn = 0;
            uint8_t *rb = wlt_read_file(rp, &rn), *g = wlt_read_file(gp, &gn);
            if (!rb || !g) {
                printf("\n    %s: no output file\n", what);
                bad = 1;
            } else if (compare(sp, what, rb, rn, g, gn)) {
                bad = 1;
            }
            free(rb);
            free(g);
        }
        res = bad ? WLT_RUN_MISMATCH : WLT_RUN_MATCH;
    }
    if (errp)
        *errp = err;
    else
        free(err);
    if (outp)
        *outp = out;
    else
        free(out);
    return res;
}
