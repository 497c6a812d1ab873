/* The code-object reader's top level: kernels from their NAME.kd symbols,
 * their descriptors and code ranges, the called functions, the metadata
 * note; loading from a file; freeing. */
#include "codeobj_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ULL(x) ((unsigned long long)(x))

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

static int is_kd_symbol(const wl_elf_symbol *s)
{
    size_t n = strlen(s->name);
    return s->type == WL_STT_OBJECT && n > 3 && strcmp(s->name + n - 3, ".kd") == 0;
}

/* A function symbol that is defined (it has a section). */
static int is_defined_func(const wl_elf_symbol *s)
{
    return s->type == WL_STT_FUNC && s->shndx != WL_SHN_UNDEF;
}

/* entry = kd_address + offset, or -1 when it overflows. */
static int entry_address(uint64_t kd_address, int64_t offset, uint64_t *entry)
{
    if (offset >= 0) {
        if ((uint64_t)offset > UINT64_MAX - kd_address)
            return -1;
        *entry = kd_address + (uint64_t)offset;
    } else {
        uint64_t back = (uint64_t)(-(offset + 1)) + 1; /* |offset|, also for INT64_MIN */
        if (back > kd_address)
            return -1;
        *entry = kd_address - back;
    }
    return 0;
}

/* A defined function symbol of .text, for the code-size lookups. */
typedef struct text_func {
    uint64_t value;
    uint64_t size;
    const char *name;
} text_func;

static int cmp_text_func(const void *pa, const void *pb)
{
    const text_func *a = pa, *b = pb;
    if (a->value != b->value)
        return a->value < b->value ? -1 : 1;
    return strcmp(a->name, b->name);
}

static int cmp_kname(const void *pa, const void *pb)
{
    const wl_co_kname *a = pa, *b = pb;
    return strcmp(a->name, b->name);
}

/* Compares name[0..len) with the NUL-terminated s. */
static int cmp_name_len(const char *name, size_t len, const char *s)
{
    int c = strncmp(name, s, len);
    if (c != 0)
        return c;
    return s[len] ? -1 : 0;
}

size_t wl_co_find_kname(const wl_co_kname *v, size_t n, const char *name, size_t len)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = cmp_name_len(name, len, v[mid].name);
        if (c == 0)
            return v[mid].index;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return SIZE_MAX;
}

/* The first of tf[0..n) (sorted) that is not before (value, name); name
 * NULL means after every name at that value. */
static size_t lower_bound(const text_func *tf, size_t n, uint64_t value, const char *name)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int before = tf[mid].value < value ||
                     (tf[mid].value == value && (!name || strcmp(tf[mid].name, name) < 0));
        if (before)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Fills kernel k from its descriptor symbol kds. The code size is the
 * kernel's own STT_FUNC symbol's when one starts at the entry, else up to
 * the next function symbol in .text or the end of .text. */
static wl_status read_kernel(const wl_elf *elf, const wl_elf_symbol *kds, const text_func *tf,
                             size_t ntf, wl_kernel *k, char *err, size_t cap)
{
    uint64_t kd_off;
    wl_status st = wl_elf_symbol_offset(elf, kds, WL_KD_SIZE, "kernel descriptor", &kd_off,
                                        err, cap);
    if (st != WL_OK)
        return st;
    k->name = dup_n(kds->name, strlen(kds->name) - 3);
    if (!k->name) {
        wl_co_fail(err, cap, "out of memory");
        return WL_ERR_NOMEM;
    }
    k->kd_address = kds->value;
    wl_kernel_descriptor_decode(elf->data + kd_off, &k->kd, &k->launch);

    const wl_elf_section *text = &elf->sec[elf->text];
    uint64_t entry;
    int64_t eoff = k->kd.kernel_code_entry_byte_offset;
    if (entry_address(k->kd_address, eoff, &entry) != 0 || entry < text->addr ||
        entry - text->addr >= text->size) {
        wl_co_fail(err, cap,
                   "kernel %s: entry (descriptor at 0x%llx, file offset 0x%llx, + kernel_code_entry_byte_offset %lld) is outside .text [0x%llx, 0x%llx)",
                   k->name, ULL(k->kd_address), ULL(kd_off), (long long)eoff, ULL(text->addr),
                   ULL(text->addr + text->size));
        return WL_ERR_FORMAT;
    }
    k->code_address = entry;
    k->code_offset = text->offset + (entry - text->addr);

    size_t i = lower_bound(tf, ntf, entry, k->name);
    if (i < ntf && tf[i].value == entry && tf[i].size > 0 && strcmp(tf[i].name, k->name) == 0) {
        k->code_size = tf[i].size; /* inside .text: checked when tf was built */
        k->has_code_symbol = 1;
    } else {
        i = lower_bound(tf, ntf, entry, NULL);
        uint64_t end = i < ntf ? tf[i].value : text->addr + text->size;
        k->code_size = end - entry;
    }
    return WL_OK;
}

/* The defined STT_FUNC symbols: each must lie inside its section; those of
 * .text go into tf (sorted by address, then name). */
static wl_status collect_functions(const wl_elf *elf, text_func *tf, size_t *ntf, char *err,
                                   size_t cap)
{
    *ntf = 0;
    for (size_t i = 0; i < elf->nsyms; i++) {
        wl_elf_symbol s;
        wl_status st = wl_elf_symbol_at(elf, i, &s, err, cap);
        if (st != WL_OK)
            return st;
        if (!is_defined_func(&s))
            continue;
        uint64_t off;
        st = wl_elf_symbol_offset(elf, &s, s.size, "function", &off, err, cap);
        if (st != WL_OK)
            return st;
        if (s.shndx == elf->text)
            tf[(*ntf)++] = (text_func){s.value, s.size, s.name};
    }
    if (*ntf > 1)
        qsort(tf, *ntf, sizeof(*tf), cmp_text_func);
    return WL_OK;
}

/* The kernels (NAME.kd symbols, in symbol-table order), then the called
 * functions (defined STT_FUNC symbols that are not a kernel's code). */
static wl_status read_symbols(wl_codeobj *co, const wl_elf *elf, wl_co_kname **names_out,
                              char *err, size_t cap)
{
    size_t nkd = 0, nfunc = 0, ntf = 0;
    wl_status st = WL_OK;
    for (size_t i = 0; i < elf->nsyms; i++) {
        wl_elf_symbol s;
        st = wl_elf_symbol_at(elf, i, &s, err, cap);
        if (st != WL_OK)
            return st;
        nkd += is_kd_symbol(&s);
        nfunc += is_defined_func(&s);
    }
    text_func *tf = calloc(nfunc ? nfunc : 1, sizeof(*tf));
    wl_co_kname *names = calloc(nkd ? nkd : 1, sizeof(*names));
    co->kernels = calloc(nkd ? nkd : 1, sizeof(*co->kernels));
    co->functions = calloc(nfunc ? nfunc : 1, sizeof(*co->functions));
    if (!tf || !names || !co->kernels || !co->functions)
        goto nomem;
    st = collect_functions(elf, tf, &ntf, err, cap);
    for (size_t i = 0; i < elf->nsyms && st == WL_OK; i++) {
        wl_elf_symbol s;
        st = wl_elf_symbol_at(elf, i, &s, err, cap);
        if (st == WL_OK && is_kd_symbol(&s))
            st = read_kernel(elf, &s, tf, ntf, &co->kernels[co->nkernels++], err, cap);
    }
    free(tf);
    tf = NULL;
    if (st != WL_OK)
        goto out;
    for (size_t i = 0; i < co->nkernels; i++)
        names[i] = (wl_co_kname){co->kernels[i].name, i};
    qsort(names, co->nkernels, sizeof(*names), cmp_kname);
    for (size_t i = 1; i < co->nkernels; i++)
        if (strcmp(names[i - 1].name, names[i].name) == 0) {
            wl_co_fail(err, cap, "two kernel descriptor symbols %s.kd", names[i].name);
            st = WL_ERR_FORMAT;
            goto out;
        }
    for (size_t i = 0; i < elf->nsyms; i++) {
        wl_elf_symbol s;
        st = wl_elf_symbol_at(elf, i, &s, err, cap);
        if (st != WL_OK)
            goto out;
        if (!is_defined_func(&s) ||
            wl_co_find_kname(names, co->nkernels, s.name, strlen(s.name)) != SIZE_MAX)
            continue;
        wl_function *f = &co->functions[co->nfunctions++];
        const wl_elf_section *sec = &elf->sec[s.shndx]; /* checked by collect_functions */
        f->name = dup_n(s.name, strlen(s.name));
        if (!f->name)
            goto nomem;
        f->address = s.value;
        f->code_offset = sec->offset + (s.value - sec->addr);
        f->size = s.size;
    }
out:
    if (st != WL_OK) {
        free(names);
        names = NULL;
    }
    *names_out = names;
    return st;
nomem:
    free(tf);
    free(names);
    *names_out = NULL;
    wl_co_fail(err, cap, "out of memory");
    return WL_ERR_NOMEM;
}

static wl_status read_elf(wl_codeobj *co, char *err, size_t cap)
{
    wl_elf elf;
    wl_status st = wl_elf_parse(co->data, co->size, &elf, err, cap);
    if (st != WL_OK)
        return st;
    co->abi_version = elf.abiversion + 2;
    co->e_flags = elf.flags;
    wl_co_decode_flags(co);
    const wl_elf_section *text = &elf.sec[elf.text];
    co->text_address = text->addr;
    co->text_offset = text->offset;
    co->text_size = text->size;
    wl_co_kname *names = NULL;
    st = read_symbols(co, &elf, &names, err, cap);
    if (st == WL_OK) {
        const uint8_t *desc;
        size_t dsize;
        uint64_t doff;
        st = wl_elf_find_metadata_note(&elf, &desc, &dsize, &doff, err, cap);
        if (st == WL_OK && desc)
            st = wl_co_parse_metadata(co, names, desc, dsize, doff, err, cap);
    }
    free(names);
    wl_elf_release(&elf);
    return st;
}

wl_status wl_codeobj_read(const uint8_t *data, size_t size, wl_codeobj **out, char *err,
                          size_t errcap)
{
    if (err && errcap)
        err[0] = '\0';
    if (!out || (!data && size)) {
        wl_co_fail(err, errcap, "wl_codeobj_read: no output pointer or no data");
        return WL_ERR_USAGE;
    }
    *out = NULL;
    wl_codeobj *co = calloc(1, sizeof(*co));
    if (!co) {
        wl_co_fail(err, errcap, "out of memory");
        return WL_ERR_NOMEM;
    }
    co->target = -1;
    co->data = malloc(size ? size : 1);
    if (!co->data) {
        free(co);
        wl_co_fail(err, errcap, "out of memory");
        return WL_ERR_NOMEM;
    }
    if (size)
        memcpy(co->data, data, size);
    co->size = size;
    wl_status st = read_elf(co, err, errcap);
    if (st != WL_OK) {
        wl_codeobj_free(co);
        return st;
    }
    *out = co;
    return WL_OK;
}

wl_status wl_codeobj_load(const char *path, wl_codeobj **out, char *err, size_t errcap)
{
    if (out)
        *out = NULL;
    if (!path || !out) {
        wl_co_fail(err, errcap, "wl_codeobj_load: no path or no output pointer");
        return WL_ERR_USAGE;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        wl_co_fail(err, errcap, "cannot open %s: %s", path, strerror(errno));
        return WL_ERR_IO;
    }
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            size_t ncap = cap ? cap * 2 : 65536;
            uint8_t *nb = ncap > cap ? realloc(buf, ncap) : NULL;
            if (!nb) {
                free(buf);
                fclose(f);
                wl_co_fail(err, errcap, "out of memory reading %s", path);
                return WL_ERR_NOMEM;
            }
            buf = nb;
            cap = ncap;
        }
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        wl_co_fail(err, errcap, "cannot read %s", path);
        return WL_ERR_IO;
    }
    wl_status st = wl_codeobj_read(buf, len, out, err, errcap);
    free(buf);
    return st;
}

void wl_codeobj_free(wl_codeobj *co)
{
    if (!co)
        return;
    for (size_t i = 0; i < co->nkernels; i++) {
        free(co->kernels[i].name);
        wl_co_free_args(co->kernels[i].args, co->kernels[i].nargs);
    }
    free(co->kernels);
    for (size_t i = 0; i < co->nfunctions; i++)
        free(co->functions[i].name);
    free(co->functions);
    free(co->metadata_target);
    free(co->data);
    free(co);
}

const wl_kernel *wl_codeobj_find_kernel(const wl_codeobj *co, const char *name)
{
    if (!co || !name)
        return NULL;
    for (size_t i = 0; i < co->nkernels; i++)
        if (strcmp(co->kernels[i].name, name) == 0)
            return &co->kernels[i];
    return NULL;
}

const uint8_t *wl_kernel_code(const wl_codeobj *co, const wl_kernel *k)
{
    if (!co || !k)
        return NULL;
    return co->data + k->code_offset;
}
