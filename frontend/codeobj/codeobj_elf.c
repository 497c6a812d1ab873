/* The ELF64 layer of the code-object reader: header, section headers,
 * symbols and notes, every offset checked against the file's size. */
#include "codeobj_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void wl_co_fail(char *err, size_t cap, const char *fmt, ...)
{
    if (!err || cap == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, cap, fmt, ap);
    va_end(ap);
}

#define ULL(x) ((unsigned long long)(x))

/* ELF64 header (64 bytes):
 *   0  e_ident[16]: 0x7f 'E' 'L' 'F', [4] class, [5] data, [6] version,
 *                   [7] OS/ABI, [8] ABI version
 *  16  u16 e_type      18  u16 e_machine    20  u32 e_version
 *  24  u64 e_entry     32  u64 e_phoff      40  u64 e_shoff
 *  48  u32 e_flags     52  u16 e_ehsize     54  u16 e_phentsize
 *  56  u16 e_phnum     58  u16 e_shentsize  60  u16 e_shnum
 *  62  u16 e_shstrndx */
static wl_status parse_header(const uint8_t *d, size_t size, wl_elf *elf,
                              uint64_t *shoff, uint16_t *shnum, uint16_t *shstrndx,
                              char *err, size_t cap)
{
    if (size < 4 || memcmp(d, "\x7f" "ELF", 4) != 0) {
        wl_co_fail(err, cap, "not an ELF file (no \\x7fELF magic at offset 0)");
        return WL_ERR_FORMAT;
    }
    if (size < WL_ELF_EHDR_SIZE) {
        wl_co_fail(err, cap, "truncated ELF header: the file has %zu bytes, the ELF64 header needs 64",
                   size);
        return WL_ERR_FORMAT;
    }
    if (d[4] != WL_ELFCLASS64) {
        wl_co_fail(err, cap, "ELF class %u at offset 4 is not ELFCLASS64 (2)", d[4]);
        return WL_ERR_FORMAT;
    }
    if (d[5] != WL_ELFDATA2LSB) {
        wl_co_fail(err, cap, "ELF data encoding %u at offset 5 is not little-endian (1)", d[5]);
        return WL_ERR_FORMAT;
    }
    if (d[6] != WL_EV_CURRENT) {
        wl_co_fail(err, cap, "ELF identification version %u at offset 6 is not 1", d[6]);
        return WL_ERR_FORMAT;
    }
    uint16_t machine = wl_co_rd16(d + 18);
    if (machine != WL_EM_AMDGPU) {
        wl_co_fail(err, cap, "e_machine %u at offset 18 is not EM_AMDGPU (224)", machine);
        return WL_ERR_FORMAT;
    }
    if (d[7] != WL_ELFOSABI_AMDGPU_HSA) {
        wl_co_fail(err, cap, "OS/ABI %u at offset 7 is not ELFOSABI_AMDGPU_HSA (64)", d[7]);
        return WL_ERR_FORMAT;
    }
    /* ABI version 2, 3, 4: HSA code object v4, v5, v6. */
    if (d[8] < 2 || d[8] > 4) {
        wl_co_fail(err, cap,
                   "ABI version %u at offset 8 is not an HSA code object v4, v5 or v6 (2, 3 or 4)",
                   d[8]);
        return WL_ERR_FORMAT;
    }
    elf->abiversion = d[8];
    elf->type = wl_co_rd16(d + 16);
    if (elf->type == WL_ET_REL) {
        wl_co_fail(err, cap, "e_type ET_REL at offset 16: a relocatable object, not a linked code object");
        return WL_ERR_FORMAT;
    }
    if (elf->type != WL_ET_DYN && elf->type != WL_ET_EXEC) {
        wl_co_fail(err, cap, "e_type %u at offset 16 is not ET_DYN or ET_EXEC", elf->type);
        return WL_ERR_FORMAT;
    }
    elf->flags = wl_co_rd32(d + 48);
    *shoff = wl_co_rd64(d + 40);
    *shnum = wl_co_rd16(d + 60);
    *shstrndx = wl_co_rd16(d + 62);
    uint16_t shentsize = wl_co_rd16(d + 58);
    if (*shoff == 0) {
        wl_co_fail(err, cap, "no section headers (e_shoff is 0 at offset 40)");
        return WL_ERR_FORMAT;
    }
    if (shentsize != WL_ELF_SHDR_SIZE) {
        wl_co_fail(err, cap, "e_shentsize %u at offset 58 is not 64", shentsize);
        return WL_ERR_FORMAT;
    }
    return WL_OK;
}

/* Section header (64 bytes):
 *   0  u32 sh_name   4  u32 sh_type   8  u64 sh_flags  16  u64 sh_addr
 *  24  u64 sh_offset 32 u64 sh_size  40  u32 sh_link   44  u32 sh_info
 *  48  u64 sh_addralign               56  u64 sh_entsize */
static void read_shdr(const uint8_t *p, wl_elf_section *s)
{
    s->name = "";
    s->type = wl_co_rd32(p + 4);
    s->flags = wl_co_rd64(p + 8);
    s->addr = wl_co_rd64(p + 16);
    s->offset = wl_co_rd64(p + 24);
    s->size = wl_co_rd64(p + 32);
    s->link = wl_co_rd32(p + 40);
    s->info = wl_co_rd32(p + 44);
    s->addralign = wl_co_rd64(p + 48);
    s->entsize = wl_co_rd64(p + 56);
}

/* A NUL-terminated string at offset off of a string-table section, at most
 * WL_CO_MAX_NAME bytes long (which bounds the work on hostile files whose
 * symbols all share one huge name). */
static const char *strtab_string(const uint8_t *d, const wl_elf_section *st, uint64_t off)
{
    if (off >= st->size)
        return NULL;
    const uint8_t *p = d + st->offset + off;
    uint64_t n = st->size - off;
    if (n > WL_CO_MAX_NAME + 1)
        n = WL_CO_MAX_NAME + 1;
    if (!memchr(p, 0, (size_t)n))
        return NULL;
    return (const char *)p;
}

static wl_status read_sections(const uint8_t *d, size_t size, wl_elf *elf, uint64_t shoff,
                               uint16_t shnum, uint16_t shstrndx, char *err, size_t cap)
{
    uint64_t nsec = shnum;
    uint32_t strndx = shstrndx;
    if (!wl_co_in_range(shoff, WL_ELF_SHDR_SIZE, size)) {
        wl_co_fail(err, cap, "section headers at offset 0x%llx (e_shoff) lie outside the file (%zu bytes)",
                   ULL(shoff), size);
        return WL_ERR_FORMAT;
    }
    /* Extended numbering: the count and the name table's index are in
     * section 0 when they do not fit the header. */
    if (nsec == 0)
        nsec = wl_co_rd64(d + shoff + 32);
    if (strndx == WL_SHN_XINDEX)
        strndx = wl_co_rd32(d + shoff + 40);
    if (nsec == 0 || nsec > (size - shoff) / WL_ELF_SHDR_SIZE) {
        wl_co_fail(err, cap,
                   "%llu section headers of 64 bytes at offset 0x%llx do not fit in the file (%zu bytes)",
                   ULL(nsec), ULL(shoff), size);
        return WL_ERR_FORMAT;
    }
    elf->sec = calloc((size_t)nsec, sizeof(*elf->sec));
    if (!elf->sec) {
        wl_co_fail(err, cap, "out of memory");
        return WL_ERR_NOMEM;
    }
    elf->nsec = (size_t)nsec;
    for (size_t i = 0; i < elf->nsec; i++) {
        wl_elf_section *s = &elf->sec[i];
        read_shdr(d + shoff + i * WL_ELF_SHDR_SIZE, s);
        if (s->type != WL_SHT_NOBITS && s->type != WL_SHT_NULL &&
            !wl_co_in_range(s->offset, s->size, size)) {
            wl_co_fail(err, cap,
                       "section %zu: offset 0x%llx size 0x%llx (header at 0x%llx) lies outside the file (%zu bytes)",
                       i, ULL(s->offset), ULL(s->size), ULL(shoff + i * WL_ELF_SHDR_SIZE), size);
            return WL_ERR_FORMAT;
        }
        if (s->addr + s->size < s->addr) {
            wl_co_fail(err, cap, "section %zu: address 0x%llx + size 0x%llx overflows", i,
                       ULL(s->addr), ULL(s->size));
            return WL_ERR_FORMAT;
        }
    }
    if (strndx == WL_SHN_UNDEF || strndx >= elf->nsec ||
        elf->sec[strndx].type != WL_SHT_STRTAB) {
        wl_co_fail(err, cap, "section name table index %u (e_shstrndx) is not a string table section",
                   strndx);
        return WL_ERR_FORMAT;
    }
    const wl_elf_section *names = &elf->sec[strndx];
    for (size_t i = 0; i < elf->nsec; i++) {
        uint32_t off = wl_co_rd32(d + shoff + i * WL_ELF_SHDR_SIZE);
        const char *n = strtab_string(d, names, off);
        if (!n) {
            wl_co_fail(err, cap, "section %zu: name offset %u is outside the section name table (%llu bytes), or the name is not terminated within %u bytes",
                       i, off, ULL(names->size), (unsigned)WL_CO_MAX_NAME);
            return WL_ERR_FORMAT;
        }
        elf->sec[i].name = n;
    }
    return WL_OK;
}

static wl_status find_text_and_symtab(wl_elf *elf, char *err, size_t cap)
{
    size_t text = 0, symtab = 0, dynsym = 0;
    for (size_t i = 1; i < elf->nsec; i++) {
        const wl_elf_section *s = &elf->sec[i];
        if (!text && s->type == WL_SHT_PROGBITS && strcmp(s->name, ".text") == 0)
            text = i;
        if (!symtab && s->type == WL_SHT_SYMTAB)
            symtab = i;
        if (!dynsym && s->type == WL_SHT_DYNSYM)
            dynsym = i;
    }
    if (!text) {
        wl_co_fail(err, cap, "no .text section");
        return WL_ERR_FORMAT;
    }
    if (!symtab)
        symtab = dynsym;
    if (!symtab) {
        wl_co_fail(err, cap, "no symbol table (.symtab or .dynsym)");
        return WL_ERR_FORMAT;
    }
    const wl_elf_section *st = &elf->sec[symtab];
    if (st->entsize != WL_ELF_SYM_SIZE || st->size % WL_ELF_SYM_SIZE != 0) {
        wl_co_fail(err, cap, "symbol table %s (section %zu): entry size %llu, size %llu: not 24-byte entries",
                   st->name, symtab, ULL(st->entsize), ULL(st->size));
        return WL_ERR_FORMAT;
    }
    if (st->link == 0 || st->link >= elf->nsec || elf->sec[st->link].type != WL_SHT_STRTAB) {
        wl_co_fail(err, cap, "symbol table %s (section %zu): its string table (sh_link %u) is not a string table section",
                   st->name, symtab, st->link);
        return WL_ERR_FORMAT;
    }
    elf->text = text;
    elf->symtab = symtab;
    elf->nsyms = (size_t)(st->size / WL_ELF_SYM_SIZE);
    return WL_OK;
}

wl_status wl_elf_parse(const uint8_t *data, size_t size, wl_elf *elf, char *err, size_t cap)
{
    memset(elf, 0, sizeof(*elf));
    elf->data = data;
    elf->size = size;
    uint64_t shoff = 0;
    uint16_t shnum = 0, shstrndx = 0;
    wl_status st = parse_header(data, size, elf, &shoff, &shnum, &shstrndx, err, cap);
    if (st == WL_OK)
        st = read_sections(data, size, elf, shoff, shnum, shstrndx, err, cap);
    if (st == WL_OK)
        st = find_text_and_symtab(elf, err, cap);
    if (st != WL_OK)
        wl_elf_release(elf);
    return st;
}

void wl_elf_release(wl_elf *elf)
{
    free(elf->sec);
    elf->sec = NULL;
    elf->nsec = 0;
}

/* Symbol (24 bytes):
 *   0  u32 st_name   4  u8 st_info (bind 7:4, type 3:0)   5  u8 st_other
 *   6  u16 st_shndx  8  u64 st_value  16  u64 st_size */
wl_status wl_elf_symbol_at(const wl_elf *elf, size_t i, wl_elf_symbol *sym, char *err,
                           size_t cap)
{
    const wl_elf_section *st = &elf->sec[elf->symtab];
    const wl_elf_section *names = &elf->sec[st->link];
    uint64_t off = st->offset + (uint64_t)i * WL_ELF_SYM_SIZE;
    const uint8_t *p = elf->data + off;
    uint32_t name = wl_co_rd32(p);
    sym->name = strtab_string(elf->data, names, name);
    if (!sym->name) {
        wl_co_fail(err, cap, "symbol %zu (at offset 0x%llx): name offset %u is outside its string table (%llu bytes), or the name is not terminated within %u bytes",
                   i, ULL(off), name, ULL(names->size), (unsigned)WL_CO_MAX_NAME);
        return WL_ERR_FORMAT;
    }
    sym->type = p[4] & 0xf;
    sym->bind = p[4] >> 4;
    sym->shndx = wl_co_rd16(p + 6);
    sym->value = wl_co_rd64(p + 8);
    sym->size = wl_co_rd64(p + 16);
    return WL_OK;
}

wl_status wl_elf_symbol_offset(const wl_elf *elf, const wl_elf_symbol *sym, uint64_t len,
                               const char *what, uint64_t *offset, char *err, size_t cap)
{
    if (sym->shndx == WL_SHN_UNDEF || sym->shndx >= WL_SHN_LORESERVE || sym->shndx >= elf->nsec) {
        wl_co_fail(err, cap, "%s %s: section index %u is not a section of the file", what,
                   sym->name, sym->shndx);
        return WL_ERR_FORMAT;
    }
    const wl_elf_section *s = &elf->sec[sym->shndx];
    if (s->type == WL_SHT_NOBITS || s->type == WL_SHT_NULL) {
        wl_co_fail(err, cap, "%s %s: its section %s has no bytes in the file", what, sym->name,
                   s->name);
        return WL_ERR_FORMAT;
    }
    if (sym->value < s->addr || !wl_co_in_range(sym->value - s->addr, len, s->size)) {
        wl_co_fail(err, cap,
                   "%s %s: address 0x%llx size 0x%llx is outside its section %s [0x%llx, 0x%llx)",
                   what, sym->name, ULL(sym->value), ULL(len), s->name, ULL(s->addr),
                   ULL(s->addr + s->size));
        return WL_ERR_FORMAT;
    }
    *offset = s->offset + (sym->value - s->addr);
    return WL_OK;
}

/* Note (in an SHT_NOTE section, entries aligned to 4, or 8 when the
 * section is 8-aligned):
 *   0  u32 n_namesz  4  u32 n_descsz  8  u32 n_type
 *  12  name[n_namesz] (padded), then desc[n_descsz] (padded) */
wl_status wl_elf_find_metadata_note(const wl_elf *elf, const uint8_t **desc,
                                    size_t *desc_size, uint64_t *desc_offset, char *err,
                                    size_t cap)
{
    *desc = NULL;
    *desc_size = 0;
    *desc_offset = 0;
    for (size_t i = 1; i < elf->nsec; i++) {
        const wl_elf_section *s = &elf->sec[i];
        if (s->type != WL_SHT_NOTE)
            continue;
        uint64_t align = s->addralign == 8 ? 8 : 4;
        uint64_t pos = 0;
        while (pos < s->size) {
            uint64_t left = s->size - pos, at = s->offset + pos;
            if (left < WL_ELF_NHDR_SIZE) {
                wl_co_fail(err, cap, "note section %s: note header at offset 0x%llx is cut off",
                           s->name, ULL(at));
                return WL_ERR_FORMAT;
            }
            const uint8_t *p = elf->data + at;
            uint64_t namesz = wl_co_rd32(p), descsz = wl_co_rd32(p + 4);
            uint32_t type = wl_co_rd32(p + 8);
            uint64_t name_pad = (namesz + align - 1) & ~(align - 1);
            uint64_t desc_pad = (descsz + align - 1) & ~(align - 1);
            if (name_pad > left - WL_ELF_NHDR_SIZE ||
                descsz > left - WL_ELF_NHDR_SIZE - name_pad) {
                wl_co_fail(err, cap,
                           "note section %s: note at offset 0x%llx (name %llu bytes, desc %llu bytes) overruns the section",
                           s->name, ULL(at), ULL(namesz), ULL(descsz));
                return WL_ERR_FORMAT;
            }
            const uint8_t *name = p + WL_ELF_NHDR_SIZE;
            if (type == WL_NT_AMDGPU_METADATA && namesz == 7 && memcmp(name, "AMDGPU", 7) == 0) {
                *desc = name + name_pad;
                *desc_size = (size_t)descsz;
                *desc_offset = at + WL_ELF_NHDR_SIZE + name_pad;
                return WL_OK;
            }
            uint64_t step = WL_ELF_NHDR_SIZE + name_pad + desc_pad;
            pos = step >= left ? s->size : pos + step;
        }
    }
    return WL_OK;
}
