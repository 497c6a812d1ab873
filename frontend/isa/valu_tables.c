/* The VOP1/VOP2/VOPC opcode tables, one set per opcode-table generation
 * (GFX10.1, gfx1013, GFX10.3), generated from LLVM 19 by
 * scripts/gen_valu_tables.py into frontend/isa/tables/valu_<isa>.inc. */
#include "valu_internal.h"

#include "tables/valu_gfx1010.inc"
#include "tables/valu_gfx1013.inc"
#include "tables/valu_gfx1030.inc"

struct valu_isa_tables {
    const struct wl_opinfo *vop1, *vop2, *vopc;
};

static const struct valu_isa_tables isa_tables[WL_ISA_COUNT] = {
    [WL_ISA_GFX1010] = {valu_vop1_gfx1010, valu_vop2_gfx1010, valu_vopc_gfx1010},
    [WL_ISA_GFX1013] = {valu_vop1_gfx1013, valu_vop2_gfx1013, valu_vopc_gfx1013},
    [WL_ISA_GFX1030] = {valu_vop1_gfx1030, valu_vop2_gfx1030, valu_vopc_gfx1030},
};

const struct wl_opinfo *wl_valu_lookup(wl_isa isa, wl_format fmt, unsigned op)
{
    if ((unsigned)isa >= WL_ISA_COUNT)
        return NULL;
    const struct valu_isa_tables *t = &isa_tables[isa];
    const struct wl_opinfo *e;
    switch (fmt) {
    case WL_FMT_VOP1:
        if (op >= 256)
            return NULL;
        e = &t->vop1[op];
        break;
    case WL_FMT_VOP2:
        if (op >= 64)
            return NULL;
        e = &t->vop2[op];
        break;
    case WL_FMT_VOPC:
        if (op >= 256)
            return NULL;
        e = &t->vopc[op];
        break;
    default:
        return NULL;
    }
    return e->name ? e : NULL;
}
