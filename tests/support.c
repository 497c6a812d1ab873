#include "support.h"

#include <ctype.h>
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>

char *wlt_run(const char *cmd, int *status)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    if (!buf) {
        pclose(p);
        return NULL;
    }
    size_t n;
    while ((n = fread(buf + len, 1, cap - len - 1, p)) > 0) {
        len += n;
        if (cap - len < 4096) {
            cap *= 2;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                pclose(p);
                return NULL;
            }
            buf = nb;
        }
    }
    buf[len] = '\0';
    int st = pclose(p);
    if (status)
        *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return buf;
}

uint8_t *wlt_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(n > 0 ? (size_t)n + 1 : 1);
    if (buf && n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n > 0 ? n : 0] = 0;
        *size = n > 0 ? (size_t)n : 0;
    }
    return buf;
}

int wlt_write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(data, 1, size, f);
    return fclose(f) == 0 && w == size ? 0 : -1;
}

char *wlt_tmpdir(void)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    size_t n = strlen(base) + 32;
    char *p = malloc(n);
    if (!p)
        return NULL;
    snprintf(p, n, "%s/wlt.XXXXXX", base);
    if (!mkdtemp(p)) {
        free(p);
        return NULL;
    }
    return p;
}

void wlt_squash(char *s)
{
    char *w = s;
    int space = 1;
    for (char *r = s; *r; r++) {
        if (isspace((unsigned char)*r)) {
            if (!space)
                *w++ = ' ';
            space = 1;
        } else {
            *w++ = *r;
            space = 0;
        }
    }
    if (w > s && w[-1] == ' ')
        w--;
    *w = '\0';
}

int wlt_run_children(const unsigned *sizes, size_t n)
{
    int failed = 0;
    for (size_t i = 0; i < n; i++) {
        char args[32];
        snprintf(args, sizeof args, "--child %u", sizes[i]);
        if (wlt_run_self_at_width((int)(32 * sizes[i]), args) != 0)
            failed++;
    }
    return failed;
}

int wlt_run_self_at_width(int width, const char *args)
{
    char self[512];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0)
        return -1;
    self[len] = 0;
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "LP_NATIVE_VECTOR_WIDTH=%d '%s' %s 2>&1", width, self, args);
    int status = -1;
    char *out = wlt_run(cmd, &status);
    printf("--- LP_NATIVE_VECTOR_WIDTH=%d %s (exit %d)\n%s", width, args, status, out ? out : "(no output)\n");
    fflush(stdout);
    int ran = out != NULL;
    free(out);
    return ran ? status : -1;
}

uint8_t *wlt_assemble(const char *text, const char *cpu, unsigned wave, size_t *n, char **msg)
{
    *n = 0;
    if (msg)
        *msg = NULL;
    char *dir = wlt_tmpdir();
    if (!dir)
        return NULL;
    char path[512], cmd[2048];
    uint8_t *bytes = NULL;
    snprintf(path, sizeof path, "%s/p.s", dir);
    if (wlt_write_file(path, text, strlen(text)) == 0) {
        snprintf(cmd, sizeof cmd,
                 "%s -triple=amdgcn-amd-amdhsa -mcpu=%s -mattr=%cwavefrontsize64 -filetype=obj -o '%s/p.o' '%s' "
                 "2>&1 && llvm-objcopy-19 -O binary --only-section=.text '%s/p.o' '%s/p.bin' 2>&1",
                 WL_LLVM_MC, cpu, wave == 64 ? '+' : '-', dir, path, dir, dir);
        int st = 0;
        char *out = wlt_run(cmd, &st);
        if (out && st == 0) {
            snprintf(path, sizeof path, "%s/p.bin", dir);
            bytes = wlt_read_file(path, n);
            free(out);
        } else if (msg) {
            *msg = out;
        } else {
            printf("wlt_assemble: llvm-mc failed:\n%s", out ? out : "(did not run)\n");
            free(out);
        }
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    free(wlt_run(cmd, NULL));
    free(dir);
    return bytes;
}

void wlt_program64(wl_lift_program *p, const uint8_t *code, size_t size, unsigned user_sgprs)
{
    memset(p, 0, sizeof *p);
    p->code = code;
    p->size = size;
    p->address = 0x1000;
    p->target = WL_GFX1030;
    p->wave_size = 64;
    p->user_sgpr_count = user_sgprs;
    p->vgpr_workitem_ids = 1;
}

void wlt_options64(wl_translate_options *o, int model, unsigned S)
{
    wl_translate_options_init(o);
    o->model = model;
    o->subgroup_size = S;
    o->local_size[0] = 64;
    o->opt_level = 2;
    o->validate = 1;
}

void wlt_textf(wlt_text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    assert_true(n >= 0);
    if (t->n + (size_t)n + 1 > t->cap) {
        size_t cap = (t->cap + (size_t)n + 1) * 2;
        char *s = realloc(t->s, cap);
        assert_non_null(s);
        t->s = s;
        t->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->n, t->cap - t->n, fmt, ap);
    va_end(ap);
    t->n += (size_t)n;
}

uint32_t *wlt_translate_text(const char *ir, const wl_translate_options *o, size_t *nw, wl_translate_info *info,
                             wl_status *st, char *err, size_t errcap)
{
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), "wave");
    LLVMModuleRef m = NULL;
    char *msg = NULL;
    uint32_t *w = NULL;
    wl_status s = WL_ERR_INVALID;
    *nw = 0;
    if (LLVMParseIRInContext(ctx, mb, &m, &msg)) {
        snprintf(err, errcap, "parse: %s", msg ? msg : "?");
        LLVMDisposeMessage(msg);
    } else {
        s = wl_translate_module(m, o, &w, nw, info, err, errcap);
        if (s != WL_OK)
            w = NULL;
    }
    LLVMContextDispose(ctx);
    if (st)
        *st = s;
    return w;
}

wl_rt_status wlt_run_lds(wl_rt *rt, const uint32_t *words, size_t nw, const wl_translate_info *info, unsigned S,
                         unsigned groups, wl_rt_buffer *buf, uint32_t lds_bytes, wl_rt_buffer **status,
                         wl_rt_timing *tm)
{
    wl_rt_pipeline *p = NULL;
    wl_rt_buffer *lds = NULL, *seg = NULL;
    *status = NULL;
    wl_rt_pipeline_desc pd = {words, nw, "main", S, S != 0, 0};
    wl_rt_status st = wl_rt_pipeline_create(rt, &pd, &p);
    if (st == WL_RT_OK)
        st = wl_rt_buffer_create(rt, WL_RT_STATUS_BYTES, status);
    if (st == WL_RT_OK)
        st = wl_rt_buffer_create(rt, (uint64_t)WL_LDS_SLICE_BYTES(lds_bytes) * groups, &lds);
    if (st == WL_RT_OK)
        st = wl_rt_buffer_fill(rt, lds, 0, UINT64_MAX, 0xdeadbeefu);
    if (st == WL_RT_OK) {
        uint64_t a = wl_rt_buffer_address(buf);
        uint32_t push[WL_PUSH_BYTES / 4] = {(uint32_t)a, (uint32_t)(a >> 32)};
        wl_rt_dispatch_desc d;
        memset(&d, 0, sizeof d);
        d.groups[0] = groups;
        d.bindings[WL_RT_BINDING_STATUS] = *status;
        d.bindings[WL_RT_BINDING_LDS] = lds;
        d.push_constants = push;
        d.push_constant_size = sizeof push;
        st = info && wlt_segment(rt, info, groups, push, &seg) ? WL_RT_ERR_VULKAN : WL_RT_OK;
        if (st == WL_RT_OK)
            st = wl_rt_dispatch(rt, p, &d, tm);
    }
    if (seg)
        wl_rt_buffer_destroy(rt, seg);
    if (st != WL_RT_OK && *status) {
        wl_rt_buffer_destroy(rt, *status);
        *status = NULL;
    }
    if (lds)
        wl_rt_buffer_destroy(rt, lds);
    if (p)
        wl_rt_pipeline_destroy(rt, p);
    return st;
}

wl_rt *wlt_rt(uint32_t timeout_ms)
{
    char err[1024];
    wl_rt *rt = NULL;
    wl_rt_options ro = {.timeout_ms = timeout_ms};
    if (wl_rt_create(&ro, &rt, err, sizeof err) != WL_RT_OK)
        fail_msg("no device: %s", err);
    return rt;
}

wl_rt_pipeline *wlt_pipeline(wl_rt *rt, const uint32_t *words, size_t nw, unsigned S)
{
    wl_rt_pipeline *p = NULL;
    wl_rt_pipeline_desc pd = {.words = words, .nwords = nw, .subgroup_size = S, .require_full_subgroups = S != 0};
    if (wl_rt_pipeline_create(rt, &pd, &p) != WL_RT_OK)
        fail_msg("pipeline: %s", wl_rt_error(rt));
    return p;
}

void wlt_push_mapped(uint8_t push[WL_PUSH_BYTES], uint64_t s01, uint64_t s23, uint64_t guest, uint64_t size,
                     wl_rt_buffer *mem)
{
    memset(push, 0, WL_PUSH_BYTES);
    memcpy(push, &s01, 8);
    memcpy(push + 8, &s23, 8);
    wl_rt_mapping map = {guest, size, wl_rt_buffer_address(mem)};
    uint32_t mw[WL_RT_MAPPING_WORDS];
    assert_int_equal(wl_rt_mapping_encode(&map, mw), WL_RT_OK);
    memcpy(push + WL_PUSH_MAP_OFFSET, mw, sizeof mw);
}

int wlt_segment(wl_rt *rt, const wl_translate_info *info, uint64_t groups, void *push, wl_rt_buffer **seg)
{
    *seg = NULL;
    uint32_t stride = info->scratch_bytes_per_invocation;
    if (!stride)
        return 0;
    uint64_t inv = groups * info->host_local_size[0] * info->host_local_size[1] * info->host_local_size[2];
    if (wl_rt_buffer_create(rt, stride * inv, seg) != WL_RT_OK)
        return -1;
    uint64_t base = wl_rt_buffer_address(*seg);
    memcpy((uint8_t *)push + WL_PUSH_SCRATCH_BASE_OFFSET, &base, 8);
    memcpy((uint8_t *)push + WL_PUSH_SCRATCH_STRIDE_OFFSET, &stride, 4);
    return 0;
}

void wlt_use_lavapipe(int no_opt)
{
    if (!getenv("VK_ICD_FILENAMES") && !getenv("VK_DRIVER_FILES") && access(WLT_LVP_ICD, R_OK) == 0)
        setenv("VK_ICD_FILENAMES", WLT_LVP_ICD, 1);
    if (no_opt && !getenv("GALLIVM_PERF"))
        setenv("GALLIVM_PERF", "no_opt", 1);
}

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

char **wlt_dir_names(const char *dir, const char *suffix, size_t *count)
{
    *count = 0;
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char **names = NULL;
    size_t n = 0, sl = strlen(suffix);
    for (struct dirent *de; (de = readdir(d));) {
        size_t l = strlen(de->d_name);
        if (l <= sl || strcmp(de->d_name + l - sl, suffix))
            continue;
        char **nn = realloc(names, (n + 1) * sizeof *names);
        assert_non_null(nn);
        names = nn;
        names[n] = strdup(de->d_name);
        assert_non_null(names[n]);
        n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_names);
    *count = n;
    return names;
}

void wlt_free_names(char **names, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(names[i]);
    free(names);
}

int wlt_run_pass(wl_pass_fn fn, LLVMModuleRef m, unsigned arg)
{
    char err[1024];
    wl_pass_ctx P;
    wl_pass_ctx_init(&P, m, NULL, err, sizeof err);
    int n = fn(&P, arg);
    if (n < 0)
        fail_msg("pass failed (status %d): %s", (int)P.status, err);
    return n;
}
