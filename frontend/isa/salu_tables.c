/* The scalar family's opcode tables (generated into tables/salu_tables.inc
 * by scripts/gen_salu_tables.py from llvm-mc-19) and their lookups. */
#include "salu_internal.h"

#include <stddef.h>

#include "tables/salu_tables.inc"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

const struct wl_opinfo *wl_salu_lookup(wl_format fmt, unsigned op, wl_isa isa)
{
    const struct wl_opinfo *table;
    size_t n;
    switch (fmt) {
    case WL_FMT_SOP2: table = wl_salu_sop2; n = COUNT(wl_salu_sop2); break;
    case WL_FMT_SOPK: table = wl_salu_sopk; n = COUNT(wl_salu_sopk); break;
    case WL_FMT_SOP1: table = wl_salu_sop1; n = COUNT(wl_salu_sop1); break;
    case WL_FMT_SOPC: table = wl_salu_sopc; n = COUNT(wl_salu_sopc); break;
    case WL_FMT_SOPP: table = wl_salu_sopp; n = COUNT(wl_salu_sopp); break;
    case WL_FMT_SMEM: table = wl_salu_smem; n = COUNT(wl_salu_smem); break;
    default: return NULL;
    }
    if (op >= n || (unsigned)isa >= WL_ISA_COUNT)
        return NULL;
    if (!table[op].name || !(table[op].flags & WL_SALU_ISA(isa)))
        return NULL;
    return &table[op];
}

const char *wl_salu_hwreg_name(wl_isa isa, unsigned id)
{
    return (unsigned)isa < WL_ISA_COUNT && id < 64 ? wl_salu_hwreg_names[isa][id] : NULL;
}

const char *wl_salu_msg_name(wl_isa isa, unsigned id)
{
    return (unsigned)isa < WL_ISA_COUNT && id < 16 ? wl_salu_msg_names[isa][id] : NULL;
}

const char *wl_salu_sysop_name(wl_isa isa, unsigned op)
{
    return (unsigned)isa < WL_ISA_COUNT && op < 8 ? wl_salu_sysop_names[isa][op] : NULL;
}

const char *wl_salu_gsop_name(wl_isa isa, unsigned op)
{
    return (unsigned)isa < WL_ISA_COUNT && op < 4 ? wl_salu_gsop_names[isa][op] : NULL;
}

const char *wl_salu_ucversion_name(unsigned code)
{
    for (size_t i = 0; i < COUNT(wl_salu_ucversions); i++)
        if (wl_salu_ucversions[i].code == code)
            return wl_salu_ucversions[i].name;
    return NULL;
}
