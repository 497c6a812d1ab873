/* The code-object reader on bad input: files derived from real code objects
 * (clang-19, v4 and v5) by truncating them at every length and by pointing
 * header, section, symbol, descriptor and note fields outside, plus random
 * mutations. Every corruption that breaks a rule must be rejected with a
 * message; nothing may crash or leak (run it under ASan too). The positions
 * to corrupt are found by reading the ELF structures here; what the reader
 * must say about the intact files is checked in test_codeobj.c. */
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

static const char kSource[] =
    "__attribute__((noinline)) int helper(global int *p, int n) {\n"
    "  int acc = 0;\n"
    "  for (int i = 0; i < n; i++) acc += p[i] * i;\n"
    "  return acc;\n"
    "}\n"
    "kernel void first(global int *out, global int *idx, char c) {\n"
    "  int arr[16];\n"
    "  for (int i = 0; i < 16; i++) arr[i] = idx[i] * i;\n"
    "  out[get_global_id(0)] = arr[idx[get_global_id(1)] & 15] + helper(out, idx[0]) + c;\n"
    "}\n"
    "kernel void second(global float *out, local float *tmp) {\n"
    "  tmp[get_local_id(0)] = out[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0)] = tmp[0];\n"
    "}\n";

typedef struct fixture {
    char *dir;
    uint8_t *obj[2]; /* v5 wave64, v4 wave32 */
    size_t size[2];
    char path[2][1100];
} fixture;

/* ---- little-endian access and the ELF structures ------------------------ */

static uint64_t rd(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static void wr(uint8_t *p, int n, uint64_t v)
{
    for (int i = 0; i < n; i++, v >>= 8)
        p[i] = (uint8_t)v;
}

typedef struct sec {
    size_t hdr; /* file offset of the section header */
    uint32_t type;
    uint64_t addr, offset, size;
    uint32_t link;
    const char *name;
} sec;

typedef struct elf {
    const uint8_t *d;
    size_t size;
    sec s[64];
    size_t n;
} elf;

static void elf_read(const uint8_t *d, size_t size, elf *e)
{
    memset(e, 0, sizeof(*e));
    e->d = d;
    e->size = size;
    uint64_t shoff = rd(d + 40, 8);
    e->n = (size_t)rd(d + 60, 2);
    assert_true(e->n > 0 && e->n <= 64 && shoff + e->n * 64 <= size);
    for (size_t i = 0; i < e->n; i++) {
        const uint8_t *h = d + shoff + i * 64;
        e->s[i] = (sec){(size_t)(shoff + i * 64), (uint32_t)rd(h + 4, 4), rd(h + 16, 8),
                        rd(h + 24, 8), rd(h + 32, 8), (uint32_t)rd(h + 40, 4), ""};
    }
    const sec *names = &e->s[rd(d + 62, 2)];
    for (size_t i = 0; i < e->n; i++)
        e->s[i].name = (const char *)d + names->offset + rd(d + e->s[i].hdr, 4);
}

static const sec *elf_section(const elf *e, const char *name)
{
    for (size_t i = 0; i < e->n; i++)
        if (strcmp(e->s[i].name, name) == 0)
            return &e->s[i];
    return NULL;
}

/* Symbols of .symtab: file offset of entry i. */
static size_t sym_count(const elf *e)
{
    return (size_t)(elf_section(e, ".symtab")->size / 24);
}

static size_t sym_at(const elf *e, size_t i)
{
    return (size_t)elf_section(e, ".symtab")->offset + i * 24;
}

static const char *sym_name(const elf *e, size_t i)
{
    const sec *st = elf_section(e, ".symtab");
    return (const char *)e->d + e->s[st->link].offset + rd(e->d + sym_at(e, i), 4);
}

static int sym_type(const elf *e, size_t i)
{
    return e->d[sym_at(e, i) + 4] & 0xf;
}

static int is_kd(const elf *e, size_t i)
{
    const char *n = sym_name(e, i);
    size_t len = strlen(n);
    return sym_type(e, i) == 1 && len > 3 && strcmp(n + len - 3, ".kd") == 0;
}

/* ---- expectations -------------------------------------------------------- */

typedef struct tally {
    unsigned rejected, accepted, failures, shown;
} tally;

/* The reader must reject d[0..n) with a message. */
static void expect_reject(tally *t, const char *what, const uint8_t *d, size_t n)
{
    char err[256];
    memset(err, 0, sizeof(err));
    wl_codeobj *co = (wl_codeobj *)&err; /* must become NULL */
    wl_status st = wl_codeobj_read(d, n, &co, err, sizeof(err));
    if (st == WL_OK) {
        t->failures++;
        printf("NOT REJECTED: %s\n", what);
        wl_codeobj_free(co);
        return;
    }
    if (co != NULL || err[0] == '\0' || st != WL_ERR_FORMAT) {
        t->failures++;
        printf("BAD REJECTION: %s: status %d, message '%s', out %p\n", what, (int)st, err,
               (void *)co);
        return;
    }
    t->rejected++;
    if (t->shown < 2) {
        t->shown++;
        printf("  e.g. %s: %s\n", what, err);
    }
}

/* The reader may accept or reject, but must not crash; returns the status. */
static wl_status try_read(tally *t, const uint8_t *d, size_t n)
{
    char err[256];
    err[0] = 0;
    wl_codeobj *co = NULL;
    wl_status st = wl_codeobj_read(d, n, &co, err, sizeof(err));
    if (st == WL_OK) {
        t->accepted++;
        /* Touch everything the reader hands out. */
        volatile unsigned sum = 0;
        for (size_t i = 0; i < co->nkernels; i++) {
            const wl_kernel *k = &co->kernels[i];
            const uint8_t *code = wl_kernel_code(co, k);
            for (uint64_t j = 0; j < k->code_size; j++)
                sum += code[j];
            sum += (unsigned)strlen(k->name);
            for (size_t a = 0; a < k->nargs; a++)
                sum += (unsigned)strlen(k->args[a].value_kind) +
                       (k->args[a].name ? (unsigned)strlen(k->args[a].name) : 0);
        }
        for (size_t i = 0; i < co->nfunctions; i++)
            for (uint64_t j = 0; j < co->functions[i].size; j++)
                sum += co->data[co->functions[i].code_offset + j];
        (void)sum;
        wl_codeobj_free(co);
    } else {
        if (co != NULL || err[0] == '\0')
            t->failures++;
        t->rejected++;
    }
    return st;
}

/* A copy of the fixture's object `which`, with a field written. */
static uint8_t *patched(const fixture *f, int which, size_t at, int width, uint64_t value)
{
    uint8_t *d = malloc(f->size[which]);
    assert_non_null(d);
    memcpy(d, f->obj[which], f->size[which]);
    wr(d + at, width, value);
    return d;
}

static void reject_patch(tally *t, const fixture *f, int which, size_t at, int width,
                         uint64_t value, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    uint8_t *d = patched(f, which, at, width, value);
    expect_reject(t, what, d, f->size[which]);
    free(d);
}

/* ---- the tests ------------------------------------------------------------ */

static void truncated(void **state)
{
    const fixture *f = *state;
    tally t = {0};
    for (int w = 0; w < 2; w++)
        for (size_t n = 0; n < f->size[w]; n++) {
            char what[64];
            snprintf(what, sizeof(what), "object %d cut to %zu bytes", w, n);
            expect_reject(&t, what, f->obj[w], n);
        }
    printf("truncation: %u of %zu truncated files rejected, %u failures\n", t.rejected,
           f->size[0] + f->size[1], t.failures);
    assert_int_equal(t.failures, 0);
}

static void header_fields(void **state)
{
    const fixture *f = *state;
    tally t = {0};
    static const struct {
        size_t at;
        int width;
        uint64_t value;
        const char *what;
    } cases[] = {
        {0, 1, 0x7e, "bad magic"},
        {4, 1, 1, "ELFCLASS32"},
        {5, 1, 2, "big-endian"},
        {6, 1, 0, "EI_VERSION 0"},
        {7, 1, 0, "OS/ABI none"},
        {7, 1, 65, "OS/ABI PAL"},
        {8, 1, 1, "ABI version 1 (code object v3)"},
        {8, 1, 5, "ABI version 5"},
        {16, 2, 1, "ET_REL"},
        {16, 2, 4, "ET_CORE"},
        {18, 2, 62, "e_machine x86-64"},
        {18, 2, 0, "e_machine none"},
        {40, 8, 0, "e_shoff 0"},
        {40, 8, UINT64_MAX - 63, "e_shoff near 2^64"},
        {40, 8, UINT64_MAX, "e_shoff 2^64-1"},
        {58, 2, 40, "e_shentsize 40"},
        {60, 2, 0xffff, "e_shnum 65535"},
        {62, 2, 0, "e_shstrndx 0"},
        {62, 2, 999, "e_shstrndx 999"},
    };
    for (int w = 0; w < 2; w++) {
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
            reject_patch(&t, f, w, cases[i].at, cases[i].width, cases[i].value, "object %d: %s",
                         w, cases[i].what);
        reject_patch(&t, f, w, 40, 8, f->size[w], "object %d: e_shoff at the end of the file", w);
        reject_patch(&t, f, w, 40, 8, f->size[w] - 100,
                     "object %d: e_shoff leaves the table cut off", w);
        elf e;
        elf_read(f->obj[w], f->size[w], &e);
        size_t text = (size_t)(elf_section(&e, ".text") - e.s);
        reject_patch(&t, f, w, 62, 2, text, "object %d: e_shstrndx names .text", w);
    }
    printf("header: %u corrupted headers rejected, %u failures\n", t.rejected, t.failures);
    assert_int_equal(t.failures, 0);
}

static void section_fields(void **state)
{
    const fixture *f = *state;
    tally t = {0};
    for (int w = 0; w < 2; w++) {
        elf e;
        elf_read(f->obj[w], f->size[w], &e);
        for (size_t i = 0; i < e.n; i++) {
            const sec *s = &e.s[i];
            reject_patch(&t, f, w, s->hdr + 0, 4, 0x7fffffff, "object %d section %zu: sh_name outside", w, i);
            if (s->type == 0 || s->type == 8) /* SHT_NULL, SHT_NOBITS: no bytes */
                continue;
            reject_patch(&t, f, w, s->hdr + 24, 8, f->size[w] + 1,
                         "object %d section %zu %s: sh_offset past the end", w, i, s->name);
            reject_patch(&t, f, w, s->hdr + 24, 8, UINT64_MAX - 7,
                         "object %d section %zu %s: sh_offset near 2^64", w, i, s->name);
            reject_patch(&t, f, w, s->hdr + 32, 8, f->size[w] - s->offset + 1,
                         "object %d section %zu %s: sh_size one past the end", w, i, s->name);
            reject_patch(&t, f, w, s->hdr + 32, 8, UINT64_MAX,
                         "object %d section %zu %s: sh_size 2^64-1", w, i, s->name);
            if (s->size >= 2)
                reject_patch(&t, f, w, s->hdr + 16, 8, UINT64_MAX - 1,
                             "object %d section %zu %s: sh_addr + sh_size overflows", w, i, s->name);
        }
        const sec *st = elf_section(&e, ".symtab");
        reject_patch(&t, f, w, st->hdr + 40, 4, 0, "object %d: .symtab sh_link 0", w);
        reject_patch(&t, f, w, st->hdr + 40, 4, 999, "object %d: .symtab sh_link 999", w);
        reject_patch(&t, f, w, st->hdr + 40, 4, (uint64_t)(elf_section(&e, ".text") - e.s),
                     "object %d: .symtab sh_link to .text", w);
        reject_patch(&t, f, w, st->hdr + 56, 8, 16, "object %d: .symtab sh_entsize 16", w);
        reject_patch(&t, f, w, st->hdr + 32, 8, st->size - 1, "object %d: .symtab size not a multiple of 24", w);
        const sec *text = elf_section(&e, ".text");
        reject_patch(&t, f, w, text->hdr + 4, 4, 8, "object %d: .text is NOBITS", w);
    }
    printf("sections: %u corrupted section headers rejected, %u failures\n", t.rejected, t.failures);
    assert_int_equal(t.failures, 0);
}

static void symbol_fields(void **state)
{
    const fixture *f = *state;
    tally t = {0};
    for (int w = 0; w < 2; w++) {
        elf e;
        elf_read(f->obj[w], f->size[w], &e);
        const sec *st = elf_section(&e, ".symtab");
        const sec *strtab = &e.s[st->link];
        const sec *text = elf_section(&e, ".text");
        unsigned nkd = 0, nfunc = 0;
        for (size_t i = 0; i < sym_count(&e); i++) {
            size_t at = sym_at(&e, i);
            const char *n = sym_name(&e, i);
            reject_patch(&t, f, w, at, 4, strtab->size + 100, "object %d symbol %zu %s: st_name outside", w, i, n);
            reject_patch(&t, f, w, at, 4, strtab->size, "object %d symbol %zu %s: st_name at the end", w, i, n);
            if (is_kd(&e, i)) {
                nkd++;
                uint16_t shndx = (uint16_t)rd(f->obj[w] + at + 6, 2);
                const sec *rod = &e.s[shndx];
                reject_patch(&t, f, w, at + 8, 8, rod->addr + rod->size - 32,
                             "object %d %s: descriptor cut off by its section's end", w, n);
                reject_patch(&t, f, w, at + 8, 8, rod->addr - 1, "object %d %s: before its section", w, n);
                reject_patch(&t, f, w, at + 8, 8, UINT64_MAX - 10, "object %d %s: st_value near 2^64", w, n);
                reject_patch(&t, f, w, at + 6, 2, 0, "object %d %s: undefined", w, n);
                reject_patch(&t, f, w, at + 6, 2, 0xfff1, "object %d %s: SHN_ABS", w, n);
                reject_patch(&t, f, w, at + 6, 2, (uint64_t)e.n, "object %d %s: section index past the table", w, n);
                size_t nobits = 0;
                for (size_t j = 0; j < e.n; j++)
                    if (e.s[j].type == 8)
                        nobits = j;
                if (nobits)
                    reject_patch(&t, f, w, at + 6, 2, nobits, "object %d %s: in a NOBITS section", w, n);
            } else if (sym_type(&e, i) == 2) {
                nfunc++;
                reject_patch(&t, f, w, at + 16, 8, UINT64_MAX, "object %d function %s: st_size 2^64-1", w, n);
                reject_patch(&t, f, w, at + 16, 8, text->size + 1, "object %d function %s: longer than .text", w, n);
                if (rd(f->obj[w] + at + 16, 8) > 0)
                    reject_patch(&t, f, w, at + 8, 8, text->addr + text->size, "object %d function %s: after .text", w, n);
                reject_patch(&t, f, w, at + 6, 2, (uint64_t)e.n + 3, "object %d function %s: section index past the table", w, n);
            }
        }
        assert_true(nkd == 2 && nfunc >= 3);
    }
    printf("symbols: %u corrupted symbols rejected, %u failures\n", t.rejected, t.failures);
    assert_int_equal(t.failures, 0);
}

static void entry_offsets(void **state)
{
    const fixture *f = *state;
    tally t = {0};
    unsigned inside = 0;
    for (int w = 0; w < 2; w++) {
        elf e;
        elf_read(f->obj[w], f->size[w], &e);
        const sec *text = elf_section(&e, ".text");
        for (size_t i = 0; i < sym_count(&e); i++) {
            if (!is_kd(&e, i))
                continue;
            const char *n = sym_name(&e, i);
            size_t at = sym_at(&e, i);
            uint64_t kd = rd(f->obj[w] + at + 8, 8);
            const sec *rod = &e.s[rd(f->obj[w] + at + 6, 2)];
            size_t field = (size_t)(rod->offset + (kd - rod->addr) + 16);
            const struct {
                uint64_t v;
                const char *what;
            } bad[] = {
                {(uint64_t)INT64_MIN, "INT64_MIN"},
                {(uint64_t)INT64_MAX, "INT64_MAX"},
                {0, "0 (the descriptor itself)"},
                {(uint64_t)-(int64_t)(kd + 1), "before address 0"},
                {text->addr + text->size - kd, "the end of .text"},
                {text->addr - kd - 4, "just before .text"},
                {(uint64_t)-(int64_t)kd, "address 0"},
            };
            for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++)
                reject_patch(&t, f, w, field, 8, bad[b].v,
                             "object %d %s: kernel_code_entry_byte_offset %s", w, n, bad[b].what);
            /* The last dword of .text is a valid (if odd) entry. */
            uint8_t *d = patched(f, w, field, 8, text->addr + text->size - 4 - kd);
            wl_codeobj *co = NULL;
            char err[256];
            assert_int_equal(wl_codeobj_read(d, f->size[w], &co, err, sizeof(err)), WL_OK);
            char kname[128];
            snprintf(kname, sizeof(kname), "%.*s", (int)(strlen(n) - 3), n);
            const wl_kernel *k = wl_codeobj_find_kernel(co, kname);
            assert_non_null(k);
            assert_int_equal(k->code_address, text->addr + text->size - 4);
            assert_int_equal(k->code_size, 4);
            assert_false(k->has_code_symbol);
            inside++;
            wl_codeobj_free(co);
            free(d);
        }
    }
    printf("entries: %u bad entry offsets rejected, %u moved inside .text read, %u failures\n",
           t.rejected, inside, t.failures);
    assert_int_equal(t.failures, 0);
}

/* The metadata note: header at the start of .note; desc after "AMDGPU\0\0". */
static void find_note(const fixture *f, int w, size_t *hdr, size_t *desc, size_t *dsize)
{
    elf e;
    elf_read(f->obj[w], f->size[w], &e);
    const sec *note = elf_section(&e, ".note");
    assert_non_null(note);
    const uint8_t *p = f->obj[w] + note->offset;
    assert_int_equal(rd(p, 4), 7);
    assert_int_equal(rd(p + 8, 4), 32);
    assert_memory_equal(p + 12, "AMDGPU", 7);
    *hdr = (size_t)note->offset;
    *desc = (size_t)note->offset + 12 + 8;
    *dsize = (size_t)rd(p + 4, 4);
}

/* The offset of the first value after key (a msgpack fixstr) in the note. */
static size_t after_key(const fixture *f, int w, size_t desc, size_t dsize, const char *key)
{
    size_t n = strlen(key);
    for (size_t i = desc; i + 1 + n < desc + dsize; i++)
        if (f->obj[w][i] == (0xa0 | n) && memcmp(f->obj[w] + i + 1, key, n) == 0)
            return i + 1 + n;
    fail_msg("key %s not in the note", key);
    return 0;
}

static void note_fields(void **state)
{
    const fixture *f = *state;
    tally t = {0};
    unsigned no_meta = 0;
    for (int w = 0; w < 2; w++) {
        size_t hdr, desc, dsize;
        find_note(f, w, &hdr, &desc, &dsize);
        uint8_t root = f->obj[w][desc];
        assert_true((root & 0xf0) == 0x80);
        reject_patch(&t, f, w, desc, 1, 0xc1, "object %d note: byte 0xc1 (never used)", w);
        reject_patch(&t, f, w, desc, 1, 0x80, "object %d note: empty root map, trailing bytes", w);
        reject_patch(&t, f, w, desc, 1, 0x8f, "object %d note: root map claims 15 pairs", w);
        reject_patch(&t, f, w, desc, 1, 0x93, "object %d note: root is an array", w);
        reject_patch(&t, f, w, desc, 1, 0xdf, "object %d note: root map32 with a huge count", w);
        reject_patch(&t, f, w, hdr + 4, 4, dsize - 1, "object %d note: desc one byte short", w);
        reject_patch(&t, f, w, hdr + 4, 4, 0xffffffff, "object %d note: desc size 2^32-1", w);
        reject_patch(&t, f, w, hdr, 4, 0xfffffff0, "object %d note: name size 2^32-16", w);
        reject_patch(&t, f, w, after_key(f, w, desc, dsize, ".offset"), 1, 0xc0,
                     "object %d note: an arg's .offset is nil", w);
        reject_patch(&t, f, w, after_key(f, w, desc, dsize, ".size"), 1, 0xc3,
                     "object %d note: an arg's .size is true", w);
        reject_patch(&t, f, w, after_key(f, w, desc, dsize, ".args"), 1, 0xc2,
                     "object %d note: .args is false (then trailing bytes)", w);
        size_t ver = after_key(f, w, desc, dsize, "amdhsa.version");
        assert_int_equal(f->obj[w][ver], 0x92);
        reject_patch(&t, f, w, ver + 1, 1, 0xff, "object %d note: amdhsa.version[0] is -1", w);
        reject_patch(&t, f, w, ver, 1, 0x91, "object %d note: amdhsa.version has 1 element", w);
        reject_patch(&t, f, w, after_key(f, w, desc, dsize, "amdhsa.kernels"), 1, 0x80,
                     "object %d note: amdhsa.kernels is a map", w);

        /* Another note type or owner: a code object without metadata. */
        for (int c = 0; c < 2; c++) {
            uint8_t *d = c ? patched(f, w, hdr + 8, 4, 33) : patched(f, w, hdr + 17, 1, 'V');
            wl_codeobj *co = NULL;
            char err[256];
            assert_int_equal(wl_codeobj_read(d, f->size[w], &co, err, sizeof(err)), WL_OK);
            assert_int_equal(co->nkernels, 2);
            for (size_t k = 0; k < co->nkernels; k++) {
                assert_false(co->kernels[k].has_metadata);
                assert_int_equal(co->kernels[k].nargs, 0);
            }
            assert_null(co->metadata_target);
            no_meta++;
            wl_codeobj_free(co);
            free(d);
        }

        /* Random bytes in the msgpack: anything goes but a crash. */
        uint32_t seed = 12345u + (uint32_t)w;
        uint8_t *d = malloc(f->size[w]);
        assert_non_null(d);
        for (int trial = 0; trial < 3000; trial++) {
            memcpy(d, f->obj[w], f->size[w]);
            int nflip = 1 + trial % 4;
            for (int k = 0; k < nflip; k++) {
                seed = seed * 1664525u + 1013904223u;
                size_t at = desc + (seed >> 8) % dsize;
                seed = seed * 1664525u + 1013904223u;
                d[at] = (uint8_t)(seed >> 24);
            }
            try_read(&t, d, f->size[w]);
        }
        free(d);
    }
    printf("note: %u corrupted or mutated notes rejected, %u mutated notes read, %u read without metadata, %u failures\n",
           t.rejected, t.accepted, no_meta, t.failures);
    assert_int_equal(t.failures, 0);
}

static void random_mutations(void **state)
{
    const fixture *f = *state;
    tally t = {0};
    uint32_t seed = 777u;
    for (int w = 0; w < 2; w++) {
        elf e;
        elf_read(f->obj[w], f->size[w], &e);
        /* Places worth hitting: the ELF header, the section headers, the
         * symbols, the descriptors (.rodata), anywhere. */
        const sec *st = elf_section(&e, ".symtab"), *rod = elf_section(&e, ".rodata");
        size_t shoff = (size_t)rd(f->obj[w] + 40, 8);
        const size_t lo[5] = {0, shoff, (size_t)st->offset, (size_t)rod->offset, 0};
        const size_t len[5] = {64, e.n * 64, (size_t)st->size, (size_t)rod->size, f->size[w]};
        uint8_t *d = malloc(f->size[w]);
        assert_non_null(d);
        for (int trial = 0; trial < 5000; trial++) {
            memcpy(d, f->obj[w], f->size[w]);
            int region = trial % 5, nflip = 1 + trial % 8;
            for (int k = 0; k < nflip; k++) {
                seed = seed * 1664525u + 1013904223u;
                size_t at = lo[region] + (seed >> 8) % len[region];
                seed = seed * 1664525u + 1013904223u;
                d[at] = (trial & 1) ? (uint8_t)(seed >> 24) : (uint8_t)(d[at] ^ (1u << (seed >> 29)));
            }
            try_read(&t, d, f->size[w]);
        }
        free(d);
    }
    printf("random: %u mutated objects read, %u rejected, %u failures\n", t.accepted, t.rejected,
           t.failures);
    assert_int_equal(t.failures, 0);
}

/* Variations that must still be read: a stripped object (only .dynsym), a
 * kernel whose code symbol has no size (the code then runs to the next
 * function symbol), and the API's edge cases. */
static void still_readable(void **state)
{
    const fixture *f = *state;
    char stripped[1200];
    snprintf(stripped, sizeof(stripped), "%s/stripped.co", f->dir);
    char cmd[4096], strip[1024];
    snprintf(strip, sizeof(strip), "%s", WL_LLVM_READELF);
    char *r = strstr(strip, "readelf");
    assert_non_null(r);
    snprintf(r, sizeof(strip) - (size_t)(r - strip), "strip%s", WL_LLVM_READELF + (r - strip) + 7);
    snprintf(cmd, sizeof(cmd), "%s -o '%s' '%s' 2>&1", strip, stripped, f->path[0]);
    int status = -1;
    free(wlt_run(cmd, &status));
    assert_int_equal(status, 0);
    wl_codeobj *a = NULL, *b = NULL;
    char err[256];
    assert_int_equal(wl_codeobj_load(f->path[0], &a, err, sizeof(err)), WL_OK);
    assert_int_equal(wl_codeobj_load(stripped, &b, err, sizeof(err)), WL_OK);
    assert_int_equal(a->nkernels, b->nkernels);
    for (size_t i = 0; i < a->nkernels; i++) {
        const wl_kernel *ka = &a->kernels[i], *kb = wl_codeobj_find_kernel(b, ka->name);
        assert_non_null(kb);
        assert_int_equal(ka->code_address, kb->code_address);
        assert_int_equal(ka->code_size, kb->code_size);
        assert_memory_equal(ka->kd.raw, kb->kd.raw, 64);
        assert_int_equal(ka->nargs, kb->nargs);
        assert_true(kb->has_metadata);
    }
    assert_int_equal(b->nfunctions, 0); /* .dynsym has the kernels only */
    printf("stripped: %zu kernels read from .dynsym alone\n", b->nkernels);
    wl_codeobj_free(b);

    /* Kernel code symbols without a size. */
    elf e;
    elf_read(f->obj[0], f->size[0], &e);
    uint8_t *d = malloc(f->size[0]);
    assert_non_null(d);
    memcpy(d, f->obj[0], f->size[0]);
    for (size_t i = 0; i < sym_count(&e); i++)
        if (sym_type(&e, i) == 2 && wl_codeobj_find_kernel(a, sym_name(&e, i)))
            wr(d + sym_at(&e, i) + 16, 8, 0);
    assert_int_equal(wl_codeobj_read(d, f->size[0], &b, err, sizeof(err)), WL_OK);
    for (size_t i = 0; i < b->nkernels; i++) {
        const wl_kernel *k = &b->kernels[i];
        assert_false(k->has_code_symbol);
        /* The next function symbol's address, or the end of .text. */
        uint64_t end = a->text_address + a->text_size;
        for (size_t j = 0; j < sym_count(&e); j++) {
            uint64_t v = rd(f->obj[0] + sym_at(&e, j) + 8, 8);
            if (sym_type(&e, j) == 2 && v > k->code_address && v < end)
                end = v;
        }
        assert_int_equal(k->code_size, end - k->code_address);
        assert_true(k->code_size >= a->kernels[i].code_size);
    }
    wl_codeobj_free(b);
    wl_codeobj_free(a);
    free(d);

    /* The API's edges. */
    wl_codeobj *co = (wl_codeobj *)err;
    assert_int_not_equal(wl_codeobj_read(NULL, 0, &co, err, sizeof(err)), WL_OK);
    assert_null(co);
    assert_true(err[0] != 0);
    assert_int_equal(wl_codeobj_read(f->obj[0], f->size[0], NULL, err, sizeof(err)), WL_ERR_USAGE);
    assert_int_equal(wl_codeobj_read(f->obj[0], 10, &co, NULL, 0), WL_ERR_FORMAT);
    assert_int_equal(wl_codeobj_read(f->obj[0], 10, &co, err, 1), WL_ERR_FORMAT);
    assert_int_equal(err[0], 0);
    assert_int_equal(wl_codeobj_load("/nonexistent/dir/x.co", &co, err, sizeof(err)), WL_ERR_IO);
    assert_null(co);
    assert_int_equal(wl_codeobj_load(f->dir, &co, err, sizeof(err)) == WL_OK, 0);
    wl_codeobj_free(NULL);
    assert_null(wl_codeobj_find_kernel(NULL, "first"));
    assert_null(wl_kernel_code(NULL, NULL));
}

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof(*f));
    if (!f || !(f->dir = wlt_tmpdir()))
        return -1;
    char src[1100];
    snprintf(src, sizeof(src), "%s/k.cl", f->dir);
    if (wlt_write_file(src, kSource, strlen(kSource)) != 0)
        return -1;
    static const char *const flags[2] = {"-mwavefrontsize64 -mcode-object-version=5",
                                         "-mno-wavefrontsize64 -mcode-object-version=4"};
    for (int w = 0; w < 2; w++) {
        snprintf(f->path[w], sizeof(f->path[w]), "%s/k%d.co", f->dir, w);
        char cmd[4096];
        snprintf(cmd, sizeof(cmd),
                 "%s -x cl -cl-std=CL2.0 -Xclang -finclude-default-header -target amdgcn-amd-amdhsa "
                 "-mcpu=gfx1030 %s -O2 --rocm-device-lib-path=%s -o '%s' '%s' 2>&1",
                 WL_CLANG, flags[w], WL_DEVICE_LIBS, f->path[w], src);
        int status = -1;
        char *out = wlt_run(cmd, &status);
        if (status != 0)
            printf("%s\n%s\n", cmd, out ? out : "");
        free(out);
        if (status != 0 || !(f->obj[w] = wlt_read_file(f->path[w], &f->size[w])))
            return -1;
    }
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    char cmd[1200];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
    free(wlt_run(cmd, NULL));
    free(f->obj[0]);
    free(f->obj[1]);
    free(f->dir);
    free(f);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(truncated),     cmocka_unit_test(header_fields),
        cmocka_unit_test(section_fields), cmocka_unit_test(symbol_fields),
        cmocka_unit_test(entry_offsets), cmocka_unit_test(note_fields),
        cmocka_unit_test(random_mutations), cmocka_unit_test(still_readable),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
