/* Internal interface of the code-object reader: the ELF64 layer
 * (codeobj_elf.c), the descriptor and e_flags decoding (codeobj_kd.c), the
 * metadata note (codeobj_meta.c) and the top level (codeobj.c).
 *
 * Every offset and size that comes from the file is checked before use;
 * the functions here fail with WL_ERR_FORMAT and a message in err. */
#ifndef WL_CODEOBJ_INTERNAL_H
#define WL_CODEOBJ_INTERNAL_H

#include "wavelift/codeobj.h"

#include <stddef.h>
#include <stdint.h>

/* ELF constants used by the reader. */
enum {
    WL_ELF_EHDR_SIZE = 64,
    WL_ELF_SHDR_SIZE = 64,
    WL_ELF_SYM_SIZE = 24,
    WL_ELF_NHDR_SIZE = 12,
    WL_ELFCLASS64 = 2,
    WL_ELFDATA2LSB = 1,
    WL_EV_CURRENT = 1,
    WL_ET_REL = 1,
    WL_ET_EXEC = 2,
    WL_ET_DYN = 3,
    WL_EM_AMDGPU = 224,
    WL_ELFOSABI_AMDGPU_HSA = 64,
    WL_SHT_NULL = 0,
    WL_SHT_PROGBITS = 1,
    WL_SHT_SYMTAB = 2,
    WL_SHT_STRTAB = 3,
    WL_SHT_NOTE = 7,
    WL_SHT_NOBITS = 8,
    WL_SHT_DYNSYM = 11,
    WL_SHN_UNDEF = 0,
    WL_SHN_LORESERVE = 0xff00,
    WL_SHN_XINDEX = 0xffff,
    WL_STT_OBJECT = 1,
    WL_STT_FUNC = 2,
    WL_NT_AMDGPU_METADATA = 32,
    WL_KD_SIZE = 64,
    WL_CO_MAX_NAME = 8192 /* longest section or symbol name accepted */
};

/* Writes a message into err[0..cap) (when err is not NULL). */
void wl_co_fail(char *err, size_t cap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static inline uint16_t wl_co_rd16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t wl_co_rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}

static inline uint64_t wl_co_rd64(const uint8_t *p)
{
    return (uint64_t)wl_co_rd32(p) | ((uint64_t)wl_co_rd32(p + 4) << 32);
}

/* True when [off, off+len) lies inside [0, size), without overflow. */
static inline int wl_co_in_range(uint64_t off, uint64_t len, uint64_t size)
{
    return off <= size && len <= size - off;
}

/* One section header, with its name resolved. */
typedef struct wl_elf_section {
    const char *name; /* NUL-terminated, inside the file's bytes; "" without one */
    uint32_t type;
    uint64_t flags;
    uint64_t addr;
    uint64_t offset;
    uint64_t size;
    uint32_t link;
    uint32_t info;
    uint64_t addralign;
    uint64_t entsize;
} wl_elf_section;

/* One symbol, with its name resolved. */
typedef struct wl_elf_symbol {
    const char *name; /* NUL-terminated, inside the file's bytes */
    uint64_t value;
    uint64_t size;
    uint8_t type;  /* STT_* */
    uint8_t bind;  /* STB_* */
    uint16_t shndx;
} wl_elf_symbol;

/* A parsed ELF64 file: header, sections, the symbol table chosen. */
typedef struct wl_elf {
    const uint8_t *data;
    size_t size;
    uint16_t type;
    uint8_t abiversion;
    uint32_t flags;
    wl_elf_section *sec; /* owned */
    size_t nsec;
    size_t text;   /* index of .text */
    size_t symtab; /* index of .symtab (or .dynsym when there is no .symtab) */
    size_t nsyms;
} wl_elf;

/* Parses and checks the ELF header and the section headers: identity
 * (ELF64, little-endian, EM_AMDGPU, ELFOSABI_AMDGPU_HSA, ABI version for
 * code object v4/v5/v6), every section inside the file, the section names,
 * .text and the symbol table. On success elf->sec must be released with
 * wl_elf_release. */
wl_status wl_elf_parse(const uint8_t *data, size_t size, wl_elf *elf, char *err,
                       size_t cap);
void wl_elf_release(wl_elf *elf);

/* Reads symbol i (0 <= i < elf->nsyms) of the chosen symbol table, checking
 * its name. */
wl_status wl_elf_symbol_at(const wl_elf *elf, size_t i, wl_elf_symbol *sym,
                           char *err, size_t cap);

/* For a defined symbol, finds the file offset of [value, value+len) inside
 * its section; fails when the section index is not a regular one, the
 * section has no file bytes, or the range is not inside it. `what` names
 * the symbol's role in the message. */
wl_status wl_elf_symbol_offset(const wl_elf *elf, const wl_elf_symbol *sym,
                               uint64_t len, const char *what, uint64_t *offset,
                               char *err, size_t cap);

/* Finds the first NT_AMDGPU_METADATA note (owner "AMDGPU") in the SHT_NOTE
 * sections. *desc is NULL when there is none. */
wl_status wl_elf_find_metadata_note(const wl_elf *elf, const uint8_t **desc,
                                    size_t *desc_size, uint64_t *desc_offset,
                                    char *err, size_t cap);

/* From e_flags: co->mach, mach_name, target, xnack, sramecc, generic_version. */
void wl_co_decode_flags(wl_codeobj *co);

/* The kernels' names, sorted, for lookups. */
typedef struct wl_co_kname {
    const char *name;
    size_t index; /* into co->kernels */
} wl_co_kname;

/* The index of the kernel named name[0..len), or SIZE_MAX. */
size_t wl_co_find_kname(const wl_co_kname *v, size_t n, const char *name, size_t len);

/* Parses the msgpack metadata into co's kernels (matched by .symbol, else
 * by .name, through names: the kernels sorted by name) and
 * co->metadata_target / metadata_version. */
wl_status wl_co_parse_metadata(wl_codeobj *co, const wl_co_kname *names,
                               const uint8_t *desc, size_t size, uint64_t file_offset,
                               char *err, size_t cap);

/* Frees the strings of n args, and the array. */
void wl_co_free_args(wl_kernel_arg *args, size_t n);

#endif
