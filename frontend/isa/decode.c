/* The decoder's dispatcher: finds an instruction's format from its first
 * dword and hands it to the family that owns that format.
 *
 * gfx10 encodings, by the high bits of the first dword:
 *   SOP2   10xx xxxx (not the SOPK/SOP1/SOPC/SOPP prefixes)
 *   SOPK   1011 xxxx (not 1011 1110 1 / 1011 1111 x)
 *   SOP1   1011 1110 1
 *   SOPC   1011 1111 0
 *   SOPP   1011 1111 1
 *   SMEM   1111 01
 *   VOP2   0xxx xxx (not VOP1/VOPC)
 *   VOP1   0111 111
 *   VOPC   0111 110
 *   VOP3   1101 01
 *   VOP3P  1100 1100
 *   DS     1101 10
 *   FLAT   1101 11   (FLAT, GLOBAL, SCRATCH by the SEG field)
 *   MUBUF  1110 00
 *   MTBUF  1110 10
 *   MIMG   1111 00
 */
#include "decode_internal.h"

#include <string.h>

static const char *const target_names[WL_TARGET_COUNT] = {
    "gfx1010", "gfx1011", "gfx1012", "gfx1013", "gfx1030", "gfx1031",
    "gfx1032", "gfx1033", "gfx1034", "gfx1035", "gfx1036",
};

wl_isa wl_target_isa(wl_target t)
{
    if (t <= WL_GFX1012)
        return WL_ISA_GFX1010;
    if (t == WL_GFX1013)
        return WL_ISA_GFX1013;
    return WL_ISA_GFX1030;
}

int wl_target_from_name(const char *name)
{
    for (int i = 0; i < WL_TARGET_COUNT; i++)
        if (strcmp(name, target_names[i]) == 0)
            return i;
    return -1;
}

const char *wl_target_name(wl_target t)
{
    return (unsigned)t < WL_TARGET_COUNT ? target_names[t] : "unknown";
}

const char *wl_format_name(wl_format f)
{
    static const char *const names[WL_FMT_COUNT] = {
        "invalid", "SOP2", "SOPK", "SOP1", "SOPC", "SOPP", "SMEM",
        "VOP1", "VOP2", "VOPC", "VOP3", "VOP3P", "DS", "MUBUF", "MTBUF",
        "MIMG", "FLAT", "GLOBAL", "SCRATCH",
    };
    return (unsigned)f < WL_FMT_COUNT ? names[f] : "unknown";
}

void wl_decoder_init(wl_decoder *d, wl_target target, int wave64)
{
    d->target = target;
    d->isa = wl_target_isa(target);
    d->wave64 = wave64 != 0;
}

/* Which family owns the encoding whose first dword is w0. */
typedef enum family { FAM_NONE, FAM_SALU, FAM_VALU, FAM_VOP3, FAM_MEM } family;

static family classify(uint32_t w0)
{
    if ((w0 >> 31) == 0)
        return FAM_VALU; /* VOP1, VOP2, VOPC */
    if ((w0 >> 30) == 2)
        return FAM_SALU; /* SOP2, SOPK, SOP1, SOPC, SOPP */
    switch (w0 >> 26) {
    case 0x3d: return FAM_SALU; /* SMEM 111101 */
    case 0x35: return FAM_VOP3; /* VOP3 110101 */
    case 0x36: /* DS 110110 */
    case 0x37: /* FLAT 110111 */
    case 0x38: /* MUBUF 111000 */
    case 0x3a: /* MTBUF 111010 */
    case 0x3c: /* MIMG 111100 */
        return FAM_MEM;
    default: break;
    }
    if ((w0 >> 24) == 0xcc)
        return FAM_VOP3; /* VOP3P */
    return FAM_NONE;
}

wl_status wl_decode(const wl_decoder *d, const uint8_t *bytes, size_t len,
                    uint64_t offset, wl_inst *inst)
{
    uint32_t w[WL_MAX_WORDS] = {0};
    size_t nwords = len / 4 < WL_MAX_WORDS ? len / 4 : WL_MAX_WORDS;
    memset(inst, 0, sizeof(*inst));
    inst->offset = offset;
    inst->isa = (uint8_t)d->isa;
    inst->wave64 = (uint8_t)d->wave64;
    for (size_t i = 0; i < nwords; i++) {
        const uint8_t *b = bytes + 4 * i;
        w[i] = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
               (uint32_t)b[3] << 24;
        inst->words[i] = w[i];
    }
    if (nwords == 0)
        return WL_ERR_TRUNCATED;

    wl_status st;
    switch (classify(w[0])) {
    case FAM_SALU: st = wl_decode_salu(d, w, nwords, inst); break;
    case FAM_VALU: st = wl_decode_valu(d, w, nwords, inst); break;
    case FAM_VOP3: st = wl_decode_vop3(d, w, nwords, inst); break;
    case FAM_MEM: st = wl_decode_mem(d, w, nwords, inst); break;
    default: st = WL_ERR_INVALID; break;
    }
    if (st != WL_OK) {
        uint32_t keep[WL_MAX_WORDS];
        memcpy(keep, inst->words, sizeof(keep));
        memset(inst, 0, sizeof(*inst));
        inst->offset = offset;
        memcpy(inst->words, keep, sizeof(keep));
        inst->size = 4;
        return st;
    }
    return WL_OK;
}

size_t wl_print(const wl_inst *inst, char *buf, size_t cap)
{
    wl_sb sb;
    wl_sb_init(&sb, buf, cap);
    switch ((wl_format)inst->format) {
    case WL_FMT_SOP2: case WL_FMT_SOPK: case WL_FMT_SOP1: case WL_FMT_SOPC:
    case WL_FMT_SOPP: case WL_FMT_SMEM:
        wl_print_salu(inst, &sb);
        break;
    case WL_FMT_VOP1: case WL_FMT_VOP2: case WL_FMT_VOPC:
        if (inst->venc == WL_VENC_E64)
            wl_print_vop3(inst, &sb);
        else
            wl_print_valu(inst, &sb);
        break;
    case WL_FMT_VOP3: case WL_FMT_VOP3P:
        wl_print_vop3(inst, &sb);
        break;
    case WL_FMT_DS: case WL_FMT_MUBUF: case WL_FMT_MTBUF: case WL_FMT_MIMG:
    case WL_FMT_FLAT: case WL_FMT_GLOBAL: case WL_FMT_SCRATCH:
        wl_print_mem(inst, &sb);
        break;
    default:
        wl_sb_printf(&sb, ".long 0x%08x", inst->words[0]);
        break;
    }
    return sb.len;
}
