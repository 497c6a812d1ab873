/* The loaded image of a code object (launch.h, cli_image): its PT_LOAD
 * segments laid out as the ROCm loader lays them out, every segment at
 * image base + p_vaddr, file bytes then zeros up to p_memsz, so that code
 * reading its .rodata through s_getpc-relative addresses finds it, and the
 * kernel descriptor lies at image base + its symbol's address.
 *
 * The dynamic relocations (PT_DYNAMIC: DT_RELA, DT_RELASZ, DT_RELAENT) are
 * kept for the launch to apply: R_AMDGPU_RELATIVE64 (image base + addend,
 * what clang-19 emits for addresses of program-scope data), R_AMDGPU_NONE
 * ignored; any other type (a symbol the loader would have to resolve) and
 * DT_REL are refused by name. Every offset and size read from the file is
 * checked; an image over CLI_IMAGE_MAX_BYTES is refused. */
#include "launch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PT_LOAD 1
#define PT_DYNAMIC 2
#define PT_GNU_RELRO 0x6474e552u
#define PF_W 2
#define DT_NULL 0
#define DT_RELA 7
#define DT_RELASZ 8
#define DT_RELAENT 9
#define DT_REL 17
#define R_AMDGPU_NONE 0
#define R_AMDGPU_RELATIVE64 13

static uint64_t rd(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static int in_range(uint64_t off, uint64_t len, uint64_t size)
{
    return off <= size && len <= size - off;
}

typedef struct phdr {
    uint32_t type, flags;
    uint64_t offset, vaddr, filesz, memsz, align;
} phdr;

static void read_phdr(const uint8_t *p, phdr *h)
{
    h->type = (uint32_t)rd(p, 4);
    h->flags = (uint32_t)rd(p + 4, 4);
    h->offset = rd(p + 8, 8);
    h->vaddr = rd(p + 16, 8);
    h->filesz = rd(p + 32, 8);
    h->memsz = rd(p + 40, 8);
    h->align = rd(p + 48, 8);
}

/* Reads the dynamic section's RELA table (in the loaded bytes) into img. */
static int load_relocs(cli_image *img, const phdr *dyn, char *err, size_t errcap)
{
    if (!in_range(dyn->vaddr, dyn->memsz, img->size)) {
        snprintf(err, errcap, "code object: PT_DYNAMIC lies outside the loaded segments");
        return -1;
    }
    uint64_t rela = 0, relasz = 0, relaent = 24;
    int have_rela = 0;
    for (uint64_t p = 0; p + 16 <= dyn->memsz; p += 16) {
        const uint8_t *e = img->bytes + dyn->vaddr + p;
        uint64_t tag = rd(e, 8), val = rd(e + 8, 8);
        if (tag == DT_NULL)
            break;
        if (tag == DT_RELA)
            rela = val, have_rela = 1;
        else if (tag == DT_RELASZ)
            relasz = val;
        else if (tag == DT_RELAENT)
            relaent = val;
        else if (tag == DT_REL) {
            snprintf(err, errcap, "code object: DT_REL relocations are not supported (only RELA)");
            return -1;
        }
    }
    if (!have_rela || !relasz)
        return 0;
    if (relaent != 24 || relasz % 24 || !in_range(rela, relasz, img->size)) {
        snprintf(err, errcap, "code object: bad DT_RELA table (0x%llx, %llu bytes, entries of %llu)",
                 (unsigned long long)rela, (unsigned long long)relasz, (unsigned long long)relaent);
        return -1;
    }
    uint64_t n = relasz / 24;
    img->rel_offset = calloc(n ? n : 1, sizeof(uint64_t));
    img->rel_addend = calloc(n ? n : 1, sizeof(uint64_t));
    if (!img->rel_offset || !img->rel_addend) {
        snprintf(err, errcap, "out of memory");
        return -1;
    }
    for (uint64_t i = 0; i < n; i++) {
        const uint8_t *r = img->bytes + rela + i * 24;
        uint64_t off = rd(r, 8), info = rd(r + 8, 8), addend = rd(r + 16, 8);
        uint32_t type = (uint32_t)info;
        if (type == R_AMDGPU_NONE)
            continue;
        if (type != R_AMDGPU_RELATIVE64) {
            snprintf(err, errcap, "code object: dynamic relocation %llu has type %u "
                                  "(only R_AMDGPU_RELATIVE64 is applied)",
                     (unsigned long long)i, type);
            return -1;
        }
        if (!in_range(off, 8, img->size) || addend >= img->size) {
            snprintf(err, errcap, "code object: dynamic relocation %llu (at 0x%llx, addend 0x%llx) "
                                  "leaves the loaded image", (unsigned long long)i,
                     (unsigned long long)off, (unsigned long long)addend);
            return -1;
        }
        img->rel_offset[img->nrel] = off;
        img->rel_addend[img->nrel++] = addend;
    }
    /* the launch writes the fields; their initial bytes are zero */
    for (unsigned i = 0; i < img->nrel; i++)
        memset(img->bytes + img->rel_offset[i], 0, 8);
    return 0;
}

int cli_image_load(const wl_codeobj *co, cli_image *img, char *err, size_t errcap)
{
    memset(img, 0, sizeof(*img));
    const uint8_t *d = co->data;
    uint64_t size = co->size;
    if (size < 64) {
        snprintf(err, errcap, "code object: no ELF header");
        return -1;
    }
    uint64_t phoff = rd(d + 32, 8);
    unsigned phentsize = (unsigned)rd(d + 54, 2), phnum = (unsigned)rd(d + 56, 2);
    if (!phnum || phentsize < 56 || !in_range(phoff, (uint64_t)phentsize * phnum, size)) {
        snprintf(err, errcap, "code object: no program headers to load (e_phnum %u)", phnum);
        return -1;
    }
    /* the extent: [0, the highest p_vaddr + p_memsz), 16-byte rounded */
    uint64_t end = 0, align = 16;
    unsigned nload = 0;
    for (unsigned i = 0; i < phnum; i++) {
        phdr h;
        read_phdr(d + phoff + (uint64_t)i * phentsize, &h);
        if (h.type != PT_LOAD)
            continue;
        nload++;
        if (h.filesz > h.memsz || !in_range(h.offset, h.filesz, size) ||
            !in_range(h.vaddr, h.memsz, CLI_IMAGE_MAX_BYTES)) {
            snprintf(err, errcap, "code object: PT_LOAD segment %u (vaddr 0x%llx, %llu bytes) "
                                  "is outside the file or over %llu MiB",
                     i, (unsigned long long)h.vaddr, (unsigned long long)h.memsz,
                     (unsigned long long)(CLI_IMAGE_MAX_BYTES >> 20));
            return -1;
        }
        if (h.vaddr + h.memsz > end)
            end = h.vaddr + h.memsz;
        if (h.align > align)
            align = h.align;
    }
    /* writable: a PF_W segment not wholly inside a PT_GNU_RELRO one (the
     * loader makes those read-only once it has relocated them) */
    for (unsigned i = 0; i < phnum; i++) {
        phdr h;
        read_phdr(d + phoff + (uint64_t)i * phentsize, &h);
        if (h.type != PT_LOAD || !(h.flags & PF_W) || !h.memsz)
            continue;
        int relro = 0;
        for (unsigned j = 0; j < phnum; j++) {
            phdr r;
            read_phdr(d + phoff + (uint64_t)j * phentsize, &r);
            relro |= r.type == PT_GNU_RELRO && r.vaddr <= h.vaddr && r.memsz >= h.memsz &&
                     h.vaddr - r.vaddr <= r.memsz - h.memsz;
        }
        img->writable |= !relro;
    }
    if (!nload || !end) {
        snprintf(err, errcap, "code object: no PT_LOAD segment");
        return -1;
    }
    if (align > CLI_IMAGE_MAX_ALIGN || (align & (align - 1))) {
        snprintf(err, errcap, "code object: segment alignment 0x%llx is not a power of two up to "
                              "0x%llx", (unsigned long long)align,
                 (unsigned long long)CLI_IMAGE_MAX_ALIGN);
        return -1;
    }
    img->align = align;
    img->size = (end + 15) & ~(uint64_t)15;
    if (!(img->bytes = calloc(1, img->size))) {
        snprintf(err, errcap, "out of memory");
        return -1;
    }
    const phdr *dyn = NULL;
    phdr dynh;
    for (unsigned i = 0; i < phnum; i++) {
        phdr h;
        read_phdr(d + phoff + (uint64_t)i * phentsize, &h);
        if (h.type == PT_LOAD)
            memcpy(img->bytes + h.vaddr, d + h.offset, h.filesz);
        else if (h.type == PT_DYNAMIC && !dyn)
            dynh = h, dyn = &dynh;
    }
    if (dyn && load_relocs(img, dyn, err, errcap)) {
        cli_image_free(img);
        return -1;
    }
    return 0;
}

uint64_t cli_image_span(const cli_image *img)
{
    uint64_t a = img->align > 256 ? img->align : 256;
    return (img->size + a - 1) & ~(a - 1);
}

uint64_t cli_image_base(const cli_image *img)
{
    return CLI_GUEST_BASE - cli_image_span(img);
}

void cli_image_free(cli_image *img)
{
    free(img->bytes);
    free(img->rel_offset);
    free(img->rel_addend);
    memset(img, 0, sizeof(*img));
}
