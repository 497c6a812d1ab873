/* The code-object reader against LLVM's own tools: OpenCL kernels compiled
 * by clang-19 at test time (gfx1010/gfx1013/gfx1030, wave64 and wave32,
 * code object v4 and v5; several kernels, LDS, a private array, a by-value
 * struct, printf and called non-inlined functions). For each object the
 * oracle is:
 *   llvm-readelf-19 -h              ABI version, e_flags and the target name
 *   llvm-readelf-19 -s              the kernels' .kd and code symbols, the functions
 *   llvm-readelf-19 -x .rodata/.text  the descriptor bytes and the code bytes
 *   llvm-readelf-19 --notes         the metadata (kernels, args) as YAML
 *   clang-19 -S (same flags)        the .amdhsa_* directives: the descriptor's
 *                                   fields as LLVM wrote them, and the
 *                                   SGPRBlocks/VGPRBlocks comments
 * Bad inputs are in test_codeobj_bad.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "wavelift.h"
#include "wavelift/hsa.h"

static const char kSource[] =
    "typedef struct { int a; float b; short c; } pair_t;\n"
    "__attribute__((noinline)) int helper(global int *p, int n) {\n"
    "  int acc = 0;\n"
    "  for (int i = 0; i < n; i++) acc += p[i] * i;\n"
    "  return acc;\n"
    "}\n"
    "kernel void add(global const int *a, global const int *b, global int *c) {\n"
    "  size_t i = get_global_id(0);\n"
    "  c[i] = a[i] + b[i];\n"
    "}\n"
    "kernel __attribute__((reqd_work_group_size(64, 1, 1)))\n"
    "void lds_reduce(global float *out, global const float *in, local float *scratch, int n) {\n"
    "  __local float tile[64];\n"
    "  size_t l = get_local_id(0);\n"
    "  tile[l & 63] = in[get_global_id(0)];\n"
    "  scratch[l] = tile[(l + 1) & 63];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_group_id(0)] = scratch[0] + (float)n;\n"
    "}\n"
    "kernel void priv(global int *out, global int *idx, char c, double d) {\n"
    "  int arr[32];\n"
    "  for (int i = 0; i < 32; i++) arr[i] = idx[i] * i;\n"
    "  out[get_global_id(1)] = arr[idx[get_global_id(2)] & 31] + helper(out, idx[0]) + c + (int)d;\n"
    "}\n"
    "kernel void with_struct(global float *out, pair_t p, constant int *tab) {\n"
    "  out[get_global_id(0) + get_global_id(1) * 7 + get_local_id(2)] = p.a * p.b + p.c + tab[get_group_id(2)];\n"
    "}\n"
    "kernel void say(global int *out) {\n"
    "  printf(\"%d\\n\", out[0]);\n"
    "  out[1] = 2;\n"
    "}\n";

/* A kernel that needs no device library (for every target). */
static const char kTiny[] =
    "kernel void g(global int *p) { p[__builtin_amdgcn_workitem_id_x()] = 1; }\n";

typedef struct variant {
    const char *mcpu;
    int wave64;
    int cov;      /* code object version */
    int arg_info; /* -cl-kernel-arg-info: argument names in the metadata */
} variant;

static const variant kVariants[] = {
    {"gfx1030", 1, 4, 0}, {"gfx1030", 1, 5, 0}, {"gfx1030", 0, 4, 0}, {"gfx1030", 0, 5, 1},
    {"gfx1010", 1, 5, 1}, {"gfx1010", 0, 4, 0}, {"gfx1013", 1, 4, 1}, {"gfx1013", 0, 5, 0},
};

/* ---- running the tools -------------------------------------------------- */

static char *run_ok(const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof(cmd), fmt, ap);
    va_end(ap);
    int status = -1;
    char *out = wlt_run(cmd, &status);
    if (!out || status != 0) {
        printf("command failed (%d): %s\n%s\n", status, cmd, out ? out : "");
        free(out);
        return NULL;
    }
    return out;
}

static int compile(const char *src, const char *out, const char *mcpu, const char *flags)
{
    char *o = run_ok("%s -x cl -cl-std=CL2.0 -Xclang -finclude-default-header "
                     "-target amdgcn-amd-amdhsa -mcpu=%s %s -O2 "
                     "--rocm-device-lib-path=%s -o '%s' '%s' 2>&1",
                     WL_CLANG, mcpu, flags, WL_DEVICE_LIBS, out, src);
    free(o);
    return o != NULL;
}

/* ---- mismatch bookkeeping ----------------------------------------------- */

typedef struct check {
    const char *obj;
    unsigned compared, mismatches;
} check;

static void mismatch(check *c, const char *fmt, ...)
{
    c->mismatches++;
    if (c->mismatches > 20)
        return;
    va_list ap;
    va_start(ap, fmt);
    printf("MISMATCH %s: ", c->obj);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

static void expect_num(check *c, const char *kernel, const char *what, unsigned long long llvm,
                       unsigned long long ours)
{
    c->compared++;
    if (llvm != ours)
        mismatch(c, "kernel %s: %s: LLVM %llu, ours %llu", kernel, what, llvm, ours);
}

static void expect_str(check *c, const char *kernel, const char *what, const char *llvm,
                       const char *ours)
{
    c->compared++;
    if ((llvm == NULL) != (ours == NULL) || (llvm && strcmp(llvm, ours) != 0))
        mismatch(c, "kernel %s: %s: LLVM %s, ours %s", kernel, what, llvm ? llvm : "(none)",
                 ours ? ours : "(none)");
}

/* ---- llvm-readelf -h ---------------------------------------------------- */

typedef struct elf_header {
    int abi_version;
    unsigned long flags;
    char mach[32];
} elf_header;

static int parse_header(const char *txt, elf_header *h)
{
    const char *a = strstr(txt, "ABI Version:");
    const char *f = strstr(txt, "Flags:");
    if (!a || !f)
        return 0;
    h->abi_version = (int)strtol(a + strlen("ABI Version:"), NULL, 0);
    char *end;
    h->flags = strtoul(f + strlen("Flags:"), &end, 0);
    h->mach[0] = 0;
    if (*end == ',') {
        end++;
        while (*end == ' ')
            end++;
        size_t n = strcspn(end, ",\n");
        if (n >= sizeof(h->mach))
            n = sizeof(h->mach) - 1;
        memcpy(h->mach, end, n);
        h->mach[n] = 0;
    }
    return 1;
}

/* ---- llvm-readelf -s ---------------------------------------------------- */

typedef struct lsym {
    char name[200];
    char type[16];
    char ndx[16];
    unsigned long long value, size;
} lsym;

/* The entries of the .symtab table. */
static size_t parse_symtab(const char *txt, lsym *out, size_t max)
{
    const char *p = strstr(txt, "Symbol table '.symtab'");
    size_t n = 0;
    if (!p)
        return 0;
    p = strchr(p, '\n');
    while (p && *p) {
        p++;
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char line[512];
        if (len >= sizeof(line))
            len = sizeof(line) - 1;
        memcpy(line, p, len);
        line[len] = 0;
        if (strstr(line, "Symbol table"))
            break;
        lsym s;
        memset(&s, 0, sizeof(s));
        char size[40];
        unsigned idx;
        int k = sscanf(line, " %u: %llx %39s %15s %*s %*s %15s %199s", &idx, &s.value, size,
                       s.type, s.ndx, s.name);
        if (k >= 5 && n < max) {
            s.size = strtoull(size, NULL, 0);
            out[n++] = s;
        }
        p = eol;
    }
    return n;
}

static const lsym *find_sym(const lsym *v, size_t n, const char *name, const char *type)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i].name, name) == 0 && strcmp(v[i].type, type) == 0)
            return &v[i];
    return NULL;
}

/* ---- llvm-readelf -x SECTION --------------------------------------------- */

typedef struct hexdump {
    unsigned long long addr;
    uint8_t *bytes;
    size_t n;
} hexdump;

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* Lines "0xADDR 00112233 44556677 8899aabb ccddeeff  ascii": four groups of
 * up to 8 hex digits in fixed columns, then the ASCII column. */
static int parse_hexdump(const char *txt, hexdump *h)
{
    memset(h, 0, sizeof(*h));
    size_t cap = strlen(txt) / 2 + 16;
    h->bytes = malloc(cap);
    if (!h->bytes)
        return 0;
    for (const char *p = txt; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        if (strncmp(p, "0x", 2) != 0)
            continue;
        char *end;
        unsigned long long addr = strtoull(p, &end, 16);
        if (h->n == 0)
            h->addr = addr;
        else if (addr != h->addr + h->n)
            return 0;
        const char *g = end + 1;
        for (int grp = 0; grp < 4; grp++) {
            const char *q = g + grp * 9;
            for (int i = 0; i < 8; i += 2) {
                int hi = hexval(q[i]), lo = hi >= 0 ? hexval(q[i + 1]) : -1;
                if (hi < 0 || lo < 0)
                    goto next_line;
                if (h->n < cap)
                    h->bytes[h->n++] = (uint8_t)(hi << 4 | lo);
            }
        }
next_line:;
    }
    return h->n > 0;
}

static const uint8_t *hex_at(const hexdump *h, unsigned long long addr, size_t len)
{
    if (addr < h->addr || addr - h->addr > h->n || len > h->n - (addr - h->addr))
        return NULL;
    return h->bytes + (addr - h->addr);
}

/* ---- llvm-readelf --notes (YAML) ------------------------------------------ */

typedef struct kv {
    char key[64];
    char val[160];
} kv;

typedef struct ymap {
    kv kv[48];
    int n;
} ymap;

typedef struct ykernel {
    ymap fields;
    ymap args[64];
    int nargs;
} ykernel;

typedef struct ynotes {
    ykernel kernels[16];
    int nkernels;
    char target[160];
} ynotes;

/* A YAML scalar: '...' or "..." quotes, or a !str tag (LLVM writes it for
 * strings that YAML would read as something else, like "n"). */
static void unquote(char *v)
{
    if (strncmp(v, "!str ", 5) == 0)
        memmove(v, v + 5, strlen(v + 5) + 1);
    size_t n = strlen(v);
    if (n >= 2 && v[0] == '\'' && v[n - 1] == '\'') {
        char *w = v;
        for (size_t i = 1; i + 1 < n; i++) {
            *w++ = v[i];
            if (v[i] == '\'' && v[i + 1] == '\'')
                i++;
        }
        *w = 0;
    } else if (n >= 2 && v[0] == '"' && v[n - 1] == '"') {
        memmove(v, v + 1, n - 2);
        v[n - 2] = 0;
    }
}

static void ymap_add(ymap *m, const char *text)
{
    const char *colon = strstr(text, ":");
    if (!colon || m->n >= 48)
        return;
    kv *e = &m->kv[m->n++];
    size_t kn = (size_t)(colon - text);
    snprintf(e->key, sizeof(e->key), "%.*s", (int)kn, text);
    const char *v = colon + 1;
    while (*v == ' ')
        v++;
    snprintf(e->val, sizeof(e->val), "%s", v);
    size_t vn = strlen(e->val);
    while (vn && e->val[vn - 1] == ' ')
        e->val[--vn] = 0;
    unquote(e->val);
}

static const char *yget(const ymap *m, const char *key)
{
    for (int i = 0; i < m->n; i++)
        if (strcmp(m->kv[i].key, key) == 0)
            return m->kv[i].val;
    return NULL;
}

/* amdhsa.kernels: kernels are "  - " items (keys at column 4), their
 * .args are "      - " items (keys at column 8). */
static void parse_notes(const char *txt, ynotes *y)
{
    memset(y, 0, sizeof(*y));
    int in_kernels = 0, in_args = 0;
    ykernel *k = NULL;
    for (const char *p = txt; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        char line[512];
        size_t len = strcspn(p, "\n");
        if (len >= sizeof(line))
            len = sizeof(line) - 1;
        memcpy(line, p, len);
        line[len] = 0;
        int indent = (int)strspn(line, " ");
        char *t = line + indent;
        if (strncmp(line, "amdhsa.kernels:", 15) == 0) {
            in_kernels = 1;
            continue;
        }
        if (strncmp(line, "amdhsa.target:", 14) == 0) {
            ymap m = {0};
            ymap_add(&m, line);
            snprintf(y->target, sizeof(y->target), "%s", m.kv[0].val);
        }
        if (indent == 0 && *t) {
            in_kernels = 0;
            continue;
        }
        if (!in_kernels)
            continue;
        if (indent == 2 && t[0] == '-' && t[1] == ' ') {
            k = y->nkernels < 16 ? &y->kernels[y->nkernels++] : NULL;
            indent = 4;
            t += 2;
        }
        if (!k)
            continue;
        if (indent == 4) {
            in_args = strncmp(t, ".args:", 6) == 0;
            if (!in_args)
                ymap_add(&k->fields, t);
            continue;
        }
        if (!in_args)
            continue;
        if (indent == 6 && t[0] == '-' && t[1] == ' ') {
            if (k->nargs < 64)
                k->nargs++;
            indent = 8;
            t += 2;
        }
        if (indent == 8 && k->nargs > 0)
            ymap_add(&k->args[k->nargs - 1], t);
    }
}

/* ---- clang -S: the .amdhsa_kernel blocks ---------------------------------- */

typedef struct skernel {
    char name[128];
    ymap dirs; /* ".amdhsa_x" -> value */
    long sgpr_blocks, vgpr_blocks;
} skernel;

typedef struct sfile {
    skernel kernels[16];
    int nkernels;
    long code_object_version;
} sfile;

static void parse_asm(const char *txt, sfile *s)
{
    memset(s, 0, sizeof(*s));
    s->code_object_version = -1;
    skernel *cur = NULL, *last = NULL;
    for (const char *p = txt; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        char line[512];
        size_t len = strcspn(p, "\n");
        if (len >= sizeof(line))
            len = sizeof(line) - 1;
        memcpy(line, p, len);
        line[len] = 0;
        char *t = line + strspn(line, " \t");
        char name[128];
        long v;
        if (sscanf(t, ".amdhsa_code_object_version %ld", &v) == 1) {
            s->code_object_version = v;
        } else if (sscanf(t, ".amdhsa_kernel %127s", name) == 1) {
            cur = s->nkernels < 16 ? &s->kernels[s->nkernels++] : NULL;
            last = NULL;
            if (cur) {
                snprintf(cur->name, sizeof(cur->name), "%s", name);
                cur->sgpr_blocks = cur->vgpr_blocks = -1;
            }
        } else if (strncmp(t, ".end_amdhsa_kernel", 18) == 0) {
            last = cur;
            cur = NULL;
        } else if (cur && strncmp(t, ".amdhsa_", 8) == 0 && cur->dirs.n < 48) {
            kv *e = &cur->dirs.kv[cur->dirs.n++];
            sscanf(t, "%63s %159[^\n]", e->key, e->val);
        } else if (last && sscanf(t, "; SGPRBlocks: %ld", &v) == 1) {
            last->sgpr_blocks = v;
        } else if (last && sscanf(t, "; VGPRBlocks: %ld", &v) == 1) {
            last->vgpr_blocks = v;
        }
    }
}

/* The descriptor's decoded fields, by the name of LLVM's directive. */
static int directive_value(const wl_kernel *k, const char *d, unsigned long long *v)
{
    const wl_kernel_launch_info *l = &k->launch;
    const wl_kernel_descriptor *kd = &k->kd;
#define F(name, expr) \
    if (strcmp(d, ".amdhsa_" name) == 0) { \
        *v = (unsigned long long)(expr); \
        return 1; \
    }
    F("group_segment_fixed_size", kd->group_segment_fixed_size)
    F("private_segment_fixed_size", kd->private_segment_fixed_size)
    F("kernarg_size", kd->kernarg_size)
    F("user_sgpr_count", l->user_sgpr_count)
    F("user_sgpr_private_segment_buffer", l->user_sgpr_private_segment_buffer)
    F("user_sgpr_dispatch_ptr", l->user_sgpr_dispatch_ptr)
    F("user_sgpr_queue_ptr", l->user_sgpr_queue_ptr)
    F("user_sgpr_kernarg_segment_ptr", l->user_sgpr_kernarg_segment_ptr)
    F("user_sgpr_dispatch_id", l->user_sgpr_dispatch_id)
    F("user_sgpr_flat_scratch_init", l->user_sgpr_flat_scratch_init)
    F("user_sgpr_private_segment_size", l->user_sgpr_private_segment_size)
    F("wavefront_size32", l->wave32)
    F("uses_dynamic_stack", l->uses_dynamic_stack)
    F("system_sgpr_private_segment_wavefront_offset", l->enable_private_segment)
    F("system_sgpr_workgroup_id_x", l->enable_sgpr_workgroup_id[0])
    F("system_sgpr_workgroup_id_y", l->enable_sgpr_workgroup_id[1])
    F("system_sgpr_workgroup_id_z", l->enable_sgpr_workgroup_id[2])
    F("system_sgpr_workgroup_info", l->enable_sgpr_workgroup_info)
    F("system_vgpr_workitem_id", l->enable_vgpr_workitem_id)
    F("float_round_mode_32", l->float_round_mode_32)
    F("float_round_mode_16_64", l->float_round_mode_16_64)
    F("float_denorm_mode_32", l->float_denorm_mode_32)
    F("float_denorm_mode_16_64", l->float_denorm_mode_16_64)
    F("dx10_clamp", l->dx10_clamp)
    F("ieee_mode", l->ieee_mode)
    F("fp16_overflow", l->fp16_overflow)
    F("workgroup_processor_mode", l->wgp_mode)
    F("memory_ordered", l->mem_ordered)
    F("forward_progress", l->fwd_progress)
    F("shared_vgpr_count", l->shared_vgpr_count)
    F("exception_fp_ieee_invalid_op", l->exception_fp_ieee_invalid_op)
    F("exception_fp_denorm_src", l->exception_fp_denorm_src)
    F("exception_fp_ieee_div_zero", l->exception_fp_ieee_div_zero)
    F("exception_fp_ieee_overflow", l->exception_fp_ieee_overflow)
    F("exception_fp_ieee_underflow", l->exception_fp_ieee_underflow)
    F("exception_fp_ieee_inexact", l->exception_fp_ieee_inexact)
    F("exception_int_div_zero", l->exception_int_div_zero)
#undef F
    return 0;
}

/* Directives that set no descriptor bits (register-use bookkeeping). */
static int directive_not_in_descriptor(const char *d)
{
    static const char *const names[] = {
        ".amdhsa_next_free_vgpr", ".amdhsa_next_free_sgpr", ".amdhsa_reserve_vcc",
        ".amdhsa_reserve_flat_scratch", ".amdhsa_reserve_xnack_mask",
    };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strcmp(d, names[i]) == 0)
            return 1;
    return 0;
}

/* ---- one object against the oracle ---------------------------------------- */

typedef struct totals {
    unsigned objects, kernels, descriptors, code_ranges, directives, meta_fields, args,
        functions, mismatches;
} totals;

static void compare_kernel(check *c, const wl_codeobj *co, const wl_kernel *k, const lsym *syms,
                           size_t nsyms, const hexdump *rodata, const hexdump *text,
                           const sfile *s, const ynotes *y, totals *t)
{
    char kdname[256];
    snprintf(kdname, sizeof(kdname), "%s.kd", k->name);
    const lsym *kds = find_sym(syms, nsyms, kdname, "OBJECT");
    const lsym *fs = find_sym(syms, nsyms, k->name, "FUNC");
    if (!kds || !fs) {
        mismatch(c, "kernel %s: LLVM lists no %s symbol", k->name, kds ? "FUNC" : ".kd");
        return;
    }
    expect_num(c, k->name, "descriptor address", kds->value, k->kd_address);
    expect_num(c, k->name, "entry address", fs->value, k->code_address);
    expect_num(c, k->name, "code size", fs->size, k->code_size);
    expect_num(c, k->name, "kernel_code_entry_byte_offset", fs->value - kds->value,
               (unsigned long long)k->kd.kernel_code_entry_byte_offset);
    const uint8_t *raw = hex_at(rodata, kds->value, 64);
    c->compared++;
    if (!raw || memcmp(raw, k->kd.raw, 64) != 0)
        mismatch(c, "kernel %s: descriptor bytes differ from llvm-readelf -x .rodata", k->name);
    else
        t->descriptors++;
    const uint8_t *code = hex_at(text, fs->value, (size_t)fs->size);
    c->compared++;
    if (!code || fs->size != k->code_size ||
        memcmp(code, wl_kernel_code(co, k), (size_t)k->code_size) != 0)
        mismatch(c, "kernel %s: code bytes differ from llvm-readelf -x .text", k->name);
    else
        t->code_ranges++;

    /* The descriptor fields against clang's .amdhsa_* directives. */
    const skernel *sk = NULL;
    for (int i = 0; i < s->nkernels; i++)
        if (strcmp(s->kernels[i].name, k->name) == 0)
            sk = &s->kernels[i];
    if (!sk) {
        mismatch(c, "kernel %s: no .amdhsa_kernel block in clang -S", k->name);
    } else {
        for (int i = 0; i < sk->dirs.n; i++) {
            const char *d = sk->dirs.kv[i].key, *val = sk->dirs.kv[i].val;
            unsigned long long ours;
            char *end;
            unsigned long long llvm = strtoull(val, &end, 0);
            if (directive_not_in_descriptor(d))
                continue;
            if (*end || !directive_value(k, d, &ours)) {
                mismatch(c, "kernel %s: directive %s %s: not compared", k->name, d, val);
                continue;
            }
            expect_num(c, k->name, d, llvm, ours);
            t->directives++;
        }
        expect_num(c, k->name, "SGPRBlocks", (unsigned long long)sk->sgpr_blocks,
                   k->launch.sgpr_granules);
        expect_num(c, k->name, "VGPRBlocks", (unsigned long long)sk->vgpr_blocks,
                   k->launch.vgpr_granules);
        t->directives += 2;
    }

    /* The metadata against llvm-readelf --notes. */
    const ykernel *yk = NULL;
    for (int i = 0; i < y->nkernels; i++) {
        const char *sym = yget(&y->kernels[i].fields, ".symbol");
        if (sym && strcmp(sym, kdname) == 0)
            yk = &y->kernels[i];
    }
    expect_num(c, k->name, "has metadata", yk != NULL, k->has_metadata != 0);
    if (!yk)
        return;
    static const struct {
        const char *key;
        size_t off;
    } fields[] = {
        {".kernarg_segment_size", offsetof(wl_kernel, kernarg_segment_size)},
        {".kernarg_segment_align", offsetof(wl_kernel, kernarg_segment_align)},
        {".group_segment_fixed_size", offsetof(wl_kernel, group_segment_fixed_size)},
        {".private_segment_fixed_size", offsetof(wl_kernel, private_segment_fixed_size)},
        {".wavefront_size", offsetof(wl_kernel, wavefront_size)},
        {".sgpr_count", offsetof(wl_kernel, sgpr_count)},
        {".vgpr_count", offsetof(wl_kernel, vgpr_count)},
        {".max_flat_workgroup_size", offsetof(wl_kernel, max_flat_workgroup_size)},
    };
    for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
        const char *v = yget(&yk->fields, fields[i].key);
        uint32_t ours = *(const uint32_t *)((const char *)k + fields[i].off);
        expect_num(c, k->name, fields[i].key, v ? strtoull(v, NULL, 0) : 0, ours);
        t->meta_fields++;
    }
    expect_num(c, k->name, "number of args", (unsigned long long)yk->nargs, k->nargs);
    for (int i = 0; i < yk->nargs && (size_t)i < k->nargs; i++) {
        const ymap *a = &yk->args[i];
        const wl_kernel_arg *o = &k->args[i];
        char what[64];
        unsigned before = c->mismatches;
        snprintf(what, sizeof(what), "arg %d .offset", i);
        expect_num(c, k->name, what, strtoull(yget(a, ".offset") ? yget(a, ".offset") : "-1", NULL, 0), o->offset);
        snprintf(what, sizeof(what), "arg %d .size", i);
        expect_num(c, k->name, what, strtoull(yget(a, ".size") ? yget(a, ".size") : "-1", NULL, 0), o->size);
        snprintf(what, sizeof(what), "arg %d .value_kind", i);
        expect_str(c, k->name, what, yget(a, ".value_kind"), o->value_kind);
        snprintf(what, sizeof(what), "arg %d .name", i);
        expect_str(c, k->name, what, yget(a, ".name"), o->name);
        snprintf(what, sizeof(what), "arg %d .type_name", i);
        expect_str(c, k->name, what, yget(a, ".type_name"), o->type_name);
        snprintf(what, sizeof(what), "arg %d .address_space", i);
        expect_str(c, k->name, what, yget(a, ".address_space"), o->address_space);
        if (c->mismatches == before)
            t->args++;
    }
}

static void compare_object(const char *label, const char *co_path, const char *s_path,
                           const variant *v, totals *t)
{
    check c = {label, 0, 0};
    char err[256];
    wl_codeobj *co = NULL;
    wl_status st = wl_codeobj_load(co_path, &co, err, sizeof(err));
    if (st != WL_OK) {
        printf("%s: wl_codeobj_load: %s\n", label, err);
        fail();
    }
    char *hdr = run_ok("%s -h '%s'", WL_LLVM_READELF, co_path);
    char *sym = run_ok("%s -s --wide '%s'", WL_LLVM_READELF, co_path);
    char *rod = run_ok("%s -x .rodata '%s'", WL_LLVM_READELF, co_path);
    char *txt = run_ok("%s -x .text '%s'", WL_LLVM_READELF, co_path);
    char *nts = run_ok("%s --notes '%s'", WL_LLVM_READELF, co_path);
    size_t asm_size = 0;
    char *asm_text = (char *)wlt_read_file(s_path, &asm_size);
    assert_non_null(hdr);
    assert_non_null(sym);
    assert_non_null(rod);
    assert_non_null(txt);
    assert_non_null(nts);
    assert_non_null(asm_text);

    elf_header h;
    assert_true(parse_header(hdr, &h));
    lsym *syms = calloc(512, sizeof(*syms));
    ynotes *y = calloc(1, sizeof(*y));
    sfile *s = calloc(1, sizeof(*s));
    assert_non_null(syms);
    assert_non_null(y);
    assert_non_null(s);
    size_t nsyms = parse_symtab(sym, syms, 512);
    hexdump rodata, text;
    assert_true(parse_hexdump(rod, &rodata));
    assert_true(parse_hexdump(txt, &text));
    parse_notes(nts, y);
    parse_asm(asm_text, s);

    /* The object. */
    expect_num(&c, "-", "code object version (ABI version + 2)", (unsigned long long)h.abi_version + 2,
               (unsigned long long)co->abi_version);
    expect_num(&c, "-", ".amdhsa_code_object_version", (unsigned long long)s->code_object_version,
               (unsigned long long)co->abi_version);
    expect_num(&c, "-", "code object version asked of clang", (unsigned long long)v->cov,
               (unsigned long long)co->abi_version);
    expect_num(&c, "-", "e_flags", h.flags, co->e_flags);
    expect_str(&c, "-", "target name", h.mach, co->mach_name);
    expect_num(&c, "-", "target", (unsigned long long)wl_target_from_name(v->mcpu),
               (unsigned long long)co->target);
    expect_str(&c, "-", "amdhsa.target", y->target, co->metadata_target);
    expect_num(&c, "-", "metadata kernels", (unsigned long long)y->nkernels, co->nkernels);

    /* Kernels: every .kd symbol, and nothing else. */
    size_t nkd = 0;
    for (size_t i = 0; i < nsyms; i++) {
        size_t n = strlen(syms[i].name);
        if (strcmp(syms[i].type, "OBJECT") == 0 && n > 3 && strcmp(syms[i].name + n - 3, ".kd") == 0)
            nkd++;
    }
    expect_num(&c, "-", "number of kernels", nkd, co->nkernels);
    for (size_t i = 0; i < co->nkernels; i++) {
        const wl_kernel *k = &co->kernels[i];
        assert_ptr_equal(wl_codeobj_find_kernel(co, k->name), k);
        expect_num(&c, k->name, "wave32", !v->wave64, k->launch.wave32 != 0);
        compare_kernel(&c, co, k, syms, nsyms, &rodata, &text, s, y, t);
    }
    assert_null(wl_codeobj_find_kernel(co, "no_such_kernel"));

    /* Functions: every FUNC symbol that is not a kernel's code. */
    size_t nfunc = 0;
    for (size_t i = 0; i < nsyms; i++) {
        if (strcmp(syms[i].type, "FUNC") != 0 || wl_codeobj_find_kernel(co, syms[i].name))
            continue;
        nfunc++;
        const wl_function *f = NULL;
        for (size_t j = 0; j < co->nfunctions; j++)
            if (strcmp(co->functions[j].name, syms[i].name) == 0)
                f = &co->functions[j];
        if (!f) {
            mismatch(&c, "function %s: missing", syms[i].name);
            continue;
        }
        expect_num(&c, f->name, "function address", syms[i].value, f->address);
        expect_num(&c, f->name, "function size", syms[i].size, f->size);
        const uint8_t *code = hex_at(&text, f->address, (size_t)f->size);
        c.compared++;
        if (!code || memcmp(code, co->data + f->code_offset, (size_t)f->size) != 0)
            mismatch(&c, "function %s: code bytes differ", f->name);
        else
            t->functions++;
    }
    expect_num(&c, "-", "number of functions", nfunc, co->nfunctions);

    printf("%s: %zu kernels, %zu functions: %u values compared, %u mismatches\n", label,
           co->nkernels, co->nfunctions, c.compared, c.mismatches);
    t->objects++;
    t->kernels += (unsigned)co->nkernels;
    t->mismatches += c.mismatches;

    free(rodata.bytes);
    free(text.bytes);
    free(syms);
    free(y);
    free(s);
    free(hdr);
    free(sym);
    free(rod);
    free(txt);
    free(nts);
    free(asm_text);
    wl_codeobj_free(co);
}

static void kernels_match_llvm(void **state)
{
    const char *dir = *state;
    char src[1024];
    snprintf(src, sizeof(src), "%s/k.cl", dir);
    assert_int_equal(wlt_write_file(src, kSource, strlen(kSource)), 0);
    totals t = {0};
    for (size_t i = 0; i < sizeof(kVariants) / sizeof(kVariants[0]); i++) {
        const variant *v = &kVariants[i];
        char label[64], co_path[1100], s_path[1100], flags[256];
        snprintf(label, sizeof(label), "%s w%d v%d%s", v->mcpu, v->wave64 ? 64 : 32, v->cov,
                 v->arg_info ? " arg-info" : "");
        snprintf(co_path, sizeof(co_path), "%s/k%zu.co", dir, i);
        snprintf(s_path, sizeof(s_path), "%s/k%zu.s", dir, i);
        snprintf(flags, sizeof(flags), "%s -mcode-object-version=%d%s",
                 v->wave64 ? "-mwavefrontsize64" : "-mno-wavefrontsize64", v->cov,
                 v->arg_info ? " -cl-kernel-arg-info" : "");
        assert_true(compile(src, co_path, v->mcpu, flags));
        char sflags[300];
        snprintf(sflags, sizeof(sflags), "-S %s", flags);
        assert_true(compile(src, s_path, v->mcpu, sflags));
        compare_object(label, co_path, s_path, v, &t);
    }
    printf("codeobj: %u objects, %u kernels: %u descriptors and %u kernel code ranges equal "
           "LLVM's bytes, %u descriptor fields match clang's directives, %u metadata fields and "
           "%u args match llvm-readelf --notes, %u functions match; %u mismatches\n",
           t.objects, t.kernels, t.descriptors, t.code_ranges, t.directives, t.meta_fields, t.args,
           t.functions, t.mismatches);
    assert_int_equal(t.mismatches, 0);
    assert_true(t.kernels >= 5 * t.objects);
}

/* Every gfx10 target (and the generic ones, and two others) against
 * llvm-readelf -h. */
static void targets_match_llvm(void **state)
{
    const char *dir = *state;
    static const struct {
        const char *mcpu;
        int cov;
        int target; /* expected co->target */
    } cases[] = {
        {"gfx1010", 4, WL_GFX1010}, {"gfx1011", 5, WL_GFX1011}, {"gfx1012", 6, WL_GFX1012},
        {"gfx1013", 4, WL_GFX1013}, {"gfx1030", 5, WL_GFX1030}, {"gfx1031", 6, WL_GFX1031},
        {"gfx1032", 4, WL_GFX1032}, {"gfx1033", 5, WL_GFX1033}, {"gfx1034", 6, WL_GFX1034},
        {"gfx1035", 4, WL_GFX1035}, {"gfx1036", 5, WL_GFX1036},
        {"gfx10-1-generic", 6, WL_GFX1010}, {"gfx10-3-generic", 6, WL_GFX1030},
        {"gfx900", 5, -1}, {"gfx1100", 5, -1},
    };
    char src[1024];
    snprintf(src, sizeof(src), "%s/tiny.cl", dir);
    assert_int_equal(wlt_write_file(src, kTiny, strlen(kTiny)), 0);
    check c = {"targets", 0, 0};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char out[1100], flags[128];
        snprintf(out, sizeof(out), "%s/tiny-%s-v%d.co", dir, cases[i].mcpu, cases[i].cov);
        snprintf(flags, sizeof(flags), "-nogpulib -mcode-object-version=%d", cases[i].cov);
        assert_true(compile(src, out, cases[i].mcpu, flags));
        char *hdr = run_ok("%s -h '%s'", WL_LLVM_READELF, out);
        assert_non_null(hdr);
        elf_header h;
        assert_true(parse_header(hdr, &h));
        free(hdr);
        wl_codeobj *co = NULL;
        char err[256];
        assert_int_equal(wl_codeobj_load(out, &co, err, sizeof(err)), WL_OK);
        const char *m = cases[i].mcpu;
        expect_str(&c, m, "target name", h.mach, co->mach_name);
        expect_str(&c, m, "target name asked of clang", m, co->mach_name);
        expect_num(&c, m, "e_flags", h.flags, co->e_flags);
        expect_num(&c, m, "code object version", (unsigned long long)h.abi_version + 2,
                   (unsigned long long)co->abi_version);
        expect_num(&c, m, "target", (unsigned long long)cases[i].target,
                   (unsigned long long)co->target);
        expect_num(&c, m, "kernels", 1, co->nkernels);
        if (co->nkernels == 1) {
            expect_str(&c, m, "kernel name", "g", co->kernels[0].name);
            expect_num(&c, m, "has metadata", 1, co->kernels[0].has_metadata != 0);
        }
        wl_codeobj_free(co);
    }
    printf("targets: %zu code objects, %u values compared with llvm-readelf -h, %u mismatches\n",
           sizeof(cases) / sizeof(cases[0]), c.compared, c.mismatches);
    assert_int_equal(c.mismatches, 0);
}

static int setup(void **state)
{
    char *dir = wlt_tmpdir();
    if (!dir)
        return -1;
    *state = dir;
    return 0;
}

static int teardown(void **state)
{
    char *dir = *state;
    char *o = run_ok("rm -rf '%s'", dir);
    free(o);
    free(dir);
    return 0;
}

/* wavelift/hsa.h: the kernarg segment of vector_add's `add` (three
 * buffers, code object v5's hidden arguments) for 1000 work-items in groups
 * of 64, each argument's bytes checked at the offset LLVM's own reader
 * (llvm-readelf --notes) prints for its value kind; the user SGPRs hold
 * the kernarg address; a wrong argument count is refused by name. */
static long note_offset(const char *notes, const char *kind)
{
    char key[128];
    snprintf(key, sizeof key, ".value_kind:     %s\n", kind);
    const char *v = strstr(notes, key);
    if (!v)
        return -1;
    /* the entry's .offset comes before its .value_kind */
    const char *o = NULL;
    for (const char *p = notes; (p = strstr(p, ".offset:")) && p < v; p++)
        o = p;
    return o ? strtol(o + 8, NULL, 10) : -1;
}

static void hsa_launch(void **state)
{
    (void)state;
    char path[512], cmd[1024], err[512];
    snprintf(path, sizeof path, "%s/vector_add.w64.co", WL_KERNEL_DIR);
    snprintf(cmd, sizeof cmd, "'%s' --notes '%s'", WL_LLVM_READELF, path);
    int status = -1;
    char *notes = wlt_run(cmd, &status);
    assert_int_equal(status, 0);
    assert_non_null(notes);
    wl_codeobj *co = NULL;
    assert_int_equal(wl_codeobj_load(path, &co, err, sizeof err), WL_OK);
    const wl_kernel *k = NULL;
    for (size_t i = 0; i < co->nkernels; i++)
        if (!strcmp(co->kernels[i].name, "add"))
            k = &co->kernels[i];
    assert_non_null(k);
    wl_hsa_arg args[3];
    memset(args, 0, sizeof args);
    for (int i = 0; i < 3; i++) {
        args[i].kind = WL_HSA_ARG_BUF;
        args[i].bytes = 4000;
    }
    assert_int_equal(wl_hsa_check_args(k, args, 2, err, sizeof err), -1);
    printf("hsa_launch: two arguments: %s\n", err);
    assert_non_null(strstr(err, "takes 3 arguments"));
    assert_int_equal(wl_hsa_check_args(k, args, 3, err, sizeof err), 0);
    const uint64_t bufs[3] = {0x100000000ull, 0x100010000ull, 0x100020000ull};
    wl_hsa_addresses addr = {.kernarg = 0x200000000ull, .dispatch_packet = 0x200001000ull, .queue = 0x200002000ull,
                             .arg = bufs};
    wl_hsa_geometry g = {.global = {1000, 1, 1}, .local = {64, 1, 1}, .dims = 1};
    uint32_t lds_off[3];
    uint32_t dyn = wl_hsa_dynamic_lds(k, args, 3, lds_off);
    assert_int_equal(dyn, 0);
    uint8_t seg[512];
    assert_true(k->kernarg_segment_size <= sizeof seg);
    assert_int_equal(wl_hsa_fill_kernarg(k, args, 3, &addr, lds_off, &g, dyn, seg, k->kernarg_segment_size, err,
                                         sizeof err), 0);
    /* the three buffers, in the order the notes list them */
    const char *p = notes;
    for (int i = 0; i < 3; i++) {
        const char *gb = strstr(p, ".value_kind:     global_buffer");
        assert_non_null(gb);
        const char *o = NULL;
        for (const char *q = p; (q = strstr(q, ".offset:")) && q < gb; q++)
            o = q;
        assert_non_null(o);
        uint64_t v;
        memcpy(&v, seg + strtol(o + 8, NULL, 10), 8);
        assert_true(v == bufs[i]);
        p = gb + 1;
    }
    static const struct {
        const char *kind;
        unsigned size;
        uint32_t want;
    } hidden[] = {{"hidden_block_count_x", 4, 15}, {"hidden_block_count_y", 4, 1}, {"hidden_group_size_x", 2, 64},
                  {"hidden_group_size_y", 2, 1},   {"hidden_remainder_x", 2, 40},  {"hidden_remainder_y", 2, 0},
                  {"hidden_grid_dims", 2, 1}};
    unsigned found = 0;
    for (size_t i = 0; i < sizeof hidden / sizeof hidden[0]; i++) {
        long off = note_offset(notes, hidden[i].kind);
        if (off < 0)
            continue;
        uint32_t v = 0;
        memcpy(&v, seg + off, hidden[i].size);
        if (v != hidden[i].want)
            fail_msg("%s at %ld: %u, want %u", hidden[i].kind, off, v, hidden[i].want);
        found++;
    }
    printf("hsa_launch: %u hidden arguments and 3 buffers at the notes' offsets\n", found);
    assert_true(found >= 6);
    uint32_t sg[16];
    int n = wl_hsa_user_sgprs(k, &addr, sg, err, sizeof err);
    assert_true(n >= 2 && n <= 16);
    int at = -1;
    for (int i = 0; i + 1 < n; i++)
        if (sg[i] == (uint32_t)addr.kernarg && sg[i + 1] == (uint32_t)(addr.kernarg >> 32))
            at = i;
    assert_true(at >= 0);
    uint8_t pkt[WL_HSA_DISPATCH_PACKET_BYTES];
    wl_hsa_fill_dispatch_packet(k, &g, addr.kernarg, 0, pkt);
    uint32_t grid;
    uint16_t wgx;
    uint64_t ka;
    memcpy(&wgx, pkt + 4, 2);
    memcpy(&grid, pkt + 12, 4);
    memcpy(&ka, pkt + 40, 8);
    assert_int_equal(wgx, 64);
    assert_int_equal(grid, 1000);
    assert_true(ka == addr.kernarg);
    free(notes);
    wl_codeobj_free(co);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kernels_match_llvm),
        cmocka_unit_test(targets_match_llvm),
        cmocka_unit_test(hsa_launch),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
