/* The call-target tracker of discovery (lift.c; lift_calls.h): constants
 * along one path, enough to resolve the call sequences compilers emit to a
 * target word:
 *   - s_getpc_b64 (and s_swappc_b64's return address), s_add_u32 /
 *     s_addc_u32 of known values, s_mov_b32 / s_mov_b64;
 *   - clang -O0's spills of an address kept across calls: v_writelane_b32
 *     of a known SGPR into a VGPR lane, buffer_store_dword / buffer_load_dword
 *     of that whole VGPR at a constant soffset register + offset (the frame
 *     slot), v_readlane_b32 back into an SGPR.
 * Only a hint: lifting compares the run-time value with the targets found,
 * so a wrong guess (a slot the tracker believes unchanged that was
 * changed) costs an escape at run time, never a wrong result. Every other
 * write makes its destination unknown. */
#include "lift_calls.h"

#include <string.h>

enum { SOP1_GETPC = 0x1f, SOP1_SWAPPC = 0x21 };
enum { SPACE_VGPR = 0, SPACE_SLOT = 1u << 24 };

int wl_ct_get(const wl_ctrack *c, const wl_operand *o, uint32_t *v)
{
    if (o->kind == WL_OPND_SGPR && o->index <= WL_SRC_SGPR_MAX && c->known[o->index]) {
        *v = c->val[o->index];
        return 1;
    }
    if (o->kind == WL_OPND_LITERAL) {
        *v = o->value;
        return 1;
    }
    if (o->kind == WL_OPND_INLINE && o->index >= 128 && o->index <= 208) {
        *v = o->index <= 192 ? o->index - 128u : (uint32_t)(192 - (int)o->index);
        return 1;
    }
    return 0;
}

static void ct_set(wl_ctrack *c, unsigned r, int known, uint32_t v)
{
    if (r <= WL_SRC_SGPR_MAX) {
        c->known[r] = (uint8_t)known;
        c->val[r] = v;
    }
}

int wl_ct_get64(const wl_ctrack *c, const wl_operand *o, uint64_t *v)
{
    if (o->kind != WL_OPND_SGPR || o->index + 1 > WL_SRC_SGPR_MAX || !c->known[o->index] ||
        !c->known[o->index + 1])
        return 0;
    *v = c->val[o->index] | (uint64_t)c->val[o->index + 1] << 32;
    return 1;
}

/* Lane entries: (key, lane) -> value; key is SPACE_VGPR + v# or SPACE_SLOT
 * + (soffset SGPR << 16 | offset). */
static void lane_kill(wl_ctrack *c, uint32_t key, int lane)
{
    unsigned o = 0;
    for (unsigned i = 0; i < c->nlane; i++)
        if (!(c->lane[i].key == key && (lane < 0 || c->lane[i].lane == (unsigned)lane)))
            c->lane[o++] = c->lane[i];
    c->nlane = o;
}

static void lane_set(wl_ctrack *c, uint32_t key, unsigned lane, uint32_t v)
{
    lane_kill(c, key, (int)lane);
    if (c->nlane < WL_CT_LANES)
        c->lane[c->nlane++] = (struct wl_ct_lane){key, lane, v};
}

static void lane_copy(wl_ctrack *c, uint32_t to, uint32_t from)
{
    lane_kill(c, to, -1);
    unsigned n = c->nlane;
    for (unsigned i = 0; i < n && c->nlane < WL_CT_LANES; i++)
        if (c->lane[i].key == from)
            c->lane[c->nlane++] = (struct wl_ct_lane){to, c->lane[i].lane, c->lane[i].val};
}

/* buffer_store_dword / buffer_load_dword vX, off, s[..], sR offset:N: the
 * slot key, or 0 when the form is not a frame slot. */
static uint32_t slot_key(const wl_inst *in)
{
    if (in->nsrc < 3)
        return 0;
    const wl_operand *vaddr = &in->src[in->nsrc - 3], *soff = &in->src[in->nsrc - 1];
    if (vaddr->kind != WL_OPND_NONE || soff->kind != WL_OPND_SGPR || in->f.m.offset < 0 ||
        in->f.m.offset > 0xffff)
        return 0;
    return SPACE_SLOT | soff->index << 16 | (uint32_t)in->f.m.offset;
}

void wl_ct_step(wl_ctrack *c, const wl_inst *in, uint64_t address)
{
    const char *n = in->name ? in->name : "";
    uint32_t a, b;
    if (in->format == WL_FMT_SOP1 && (in->op == SOP1_GETPC || in->op == SOP1_SWAPPC) &&
        in->dst[0].kind == WL_OPND_SGPR) {
        uint64_t pc = address + in->offset + in->size;
        ct_set(c, in->dst[0].index, 1, (uint32_t)pc);
        ct_set(c, in->dst[0].index + 1u, 1, (uint32_t)(pc >> 32));
        return;
    }
    if (in->format == WL_FMT_SOP2 && in->dst[0].kind == WL_OPND_SGPR &&
        (strcmp(n, "s_add_u32") == 0 || strcmp(n, "s_addc_u32") == 0)) {
        int addc = n[5] == 'c';
        if (wl_ct_get(c, &in->src[0], &a) && wl_ct_get(c, &in->src[1], &b) && (!addc || c->scc_known)) {
            uint64_t sum = (uint64_t)a + b + (uint64_t)(addc ? c->scc : 0);
            ct_set(c, in->dst[0].index, 1, (uint32_t)sum);
            c->scc_known = 1;
            c->scc = sum >> 32 != 0;
            return;
        }
    }
    if (in->format == WL_FMT_SOP1 && strcmp(n, "s_mov_b32") == 0 && in->dst[0].kind == WL_OPND_SGPR) {
        int k = wl_ct_get(c, &in->src[0], &a);
        ct_set(c, in->dst[0].index, k, a);
        return;
    }
    if (in->format == WL_FMT_SOP1 && strcmp(n, "s_mov_b64") == 0 && in->dst[0].kind == WL_OPND_SGPR &&
        in->src[0].kind == WL_OPND_SGPR && in->src[0].index + 1 <= WL_SRC_SGPR_MAX) {
        unsigned d = in->dst[0].index, s0 = in->src[0].index;
        int k0 = c->known[s0], k1 = c->known[s0 + 1];
        uint32_t v0 = c->val[s0], v1 = c->val[s0 + 1];
        ct_set(c, d, k0, v0);
        ct_set(c, d + 1, k1, v1);
        return;
    }
    if (strcmp(n, "v_writelane_b32") == 0 && in->dst[0].kind == WL_OPND_VGPR) {
        uint32_t key = SPACE_VGPR | in->dst[0].index;
        if (!wl_ct_get(c, &in->src[1], &b))
            lane_kill(c, key, -1);
        else if (wl_ct_get(c, &in->src[0], &a))
            lane_set(c, key, b & 63, a);
        else
            lane_kill(c, key, (int)(b & 63));
        return;
    }
    if (strcmp(n, "v_readlane_b32") == 0 && in->dst[0].kind == WL_OPND_SGPR &&
        in->src[0].kind == WL_OPND_VGPR) {
        int k = 0;
        if (wl_ct_get(c, &in->src[1], &b))
            for (unsigned i = 0; i < c->nlane; i++)
                if (c->lane[i].key == (SPACE_VGPR | in->src[0].index) && c->lane[i].lane == (b & 63)) {
                    a = c->lane[i].val;
                    k = 1;
                }
        ct_set(c, in->dst[0].index, k, k ? a : 0);
        return;
    }
    if (in->format == WL_FMT_MUBUF && strcmp(n, "buffer_store_dword") == 0 && in->src[0].kind == WL_OPND_VGPR) {
        uint32_t key = slot_key(in);
        if (key)
            lane_copy(c, key, SPACE_VGPR | in->src[0].index);
        return;
    }
    if (in->format == WL_FMT_MUBUF && strcmp(n, "buffer_load_dword") == 0 && in->ndst == 1 &&
        in->dst[0].kind == WL_OPND_VGPR) {
        uint32_t key = slot_key(in);
        if (key)
            lane_copy(c, SPACE_VGPR | in->dst[0].index, key);
        else
            lane_kill(c, SPACE_VGPR | in->dst[0].index, -1);
        return;
    }
    /* Anything else: its SGPR and VGPR destinations and SCC become unknown. */
    if (strncmp(n, "s_movreld", 9) == 0)
        memset(c->known, 0, sizeof c->known);
    if (strncmp(n, "v_movreld", 9) == 0)
        c->nlane = 0;
    for (unsigned i = 0; i < in->ndst && i < WL_MAX_DST; i++) {
        unsigned nr = in->dst[i].nregs ? in->dst[i].nregs : 1u;
        for (unsigned k = 0; k < nr; k++) {
            if (in->dst[i].kind == WL_OPND_SGPR)
                ct_set(c, in->dst[i].index + k, 0, 0);
            else if (in->dst[i].kind == WL_OPND_VGPR)
                lane_kill(c, SPACE_VGPR | (in->dst[i].index + k), -1);
        }
    }
    if (in->format == WL_FMT_SOP1 || in->format == WL_FMT_SOP2 || in->format == WL_FMT_SOPK ||
        in->format == WL_FMT_SOPC)
        c->scc_known = 0;
}
