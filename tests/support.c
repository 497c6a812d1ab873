#include "support.h"

#include <ctype.h>
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
    memset(o, 0, sizeof *o);
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
