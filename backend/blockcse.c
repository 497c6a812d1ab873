/* Repeats within a block (docs/backend.md, "Module size"): the emitter
 * writes some values LLVM never saw, once per access that needs them (the
 * word index of a memory object's byte offset, the access chain to a
 * Function array at a lane's index in the wave model's lane loops), so the
 * same pure instruction on the same operands can appear twice in a block.
 * wl_op asks here first: a pure instruction already written in the current
 * block (since its OpLabel) with the same opcode, type and operands gives
 * that id back instead of a copy. Within a block the first dominates the
 * second, so the module stays valid. */
#include <stdlib.h>
#include <string.h>

#include "be.h"

#define CSE_MAX_OPS 6

struct wl_cse_ent {
    uint32_t gen, opc, ty, n, id;
    uint32_t ops[CSE_MAX_OPS];
};

static int pure_op(uint32_t opc)
{
    switch (opc) {
    case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpShiftRightLogical: case SpvOpShiftRightArithmetic:
    case SpvOpShiftLeftLogical: case SpvOpBitwiseAnd: case SpvOpBitwiseOr: case SpvOpBitwiseXor: case SpvOpNot:
    case SpvOpUConvert: case SpvOpSConvert: case SpvOpBitcast: case SpvOpConvertUToPtr: case SpvOpAccessChain:
    case SpvOpCompositeExtract: case SpvOpCompositeConstruct: case SpvOpIEqual:
    case SpvOpINotEqual: case SpvOpULessThan: case SpvOpULessThanEqual: case SpvOpUGreaterThan:
    case SpvOpUGreaterThanEqual: case SpvOpSLessThan: case SpvOpSGreaterThan: case SpvOpSelect:
    case SpvOpLogicalAnd: case SpvOpLogicalOr: case SpvOpLogicalNot:
        return 1;
    default:
        return 0;
    }
}

static size_t cse_hash(uint32_t opc, uint32_t ty, int n, const uint32_t *ops)
{
    size_t h = opc * 2654435761u ^ ty * 40503u;
    for (int i = 0; i < n; i++)
        h = (h ^ ops[i]) * 16777619u;
    return h;
}

/* the slot of this instruction (an empty one or its match); NULL when not
 * taken (not pure, too many operands, or no table) */
static wl_cse_ent *slot(wl_em *e, uint32_t opc, uint32_t ty, int n, const uint32_t *ops)
{
    if (!pure_op(opc) || n > CSE_MAX_OPS || n < 0)
        return NULL;
    if (!e->cse) {
        e->cse = calloc(WL_CSE_SLOTS, sizeof *e->cse);
        if (!e->cse)
            return NULL;
        e->cse_gen = 1;
    }
    size_t h = cse_hash(opc, ty, n, ops);
    for (size_t k = 0; k < 16; k++) {
        wl_cse_ent *s = &e->cse[(h + k) & (WL_CSE_SLOTS - 1)];
        if (s->gen != e->cse_gen)
            return s;
        if (s->opc == opc && s->ty == ty && s->n == (uint32_t)n && !memcmp(s->ops, ops, (size_t)n * sizeof *ops))
            return s;
    }
    return NULL; /* a crowded neighbourhood: written again, never wrong */
}

uint32_t wl_cse_find(wl_em *e, uint32_t opc, uint32_t ty, int n, const uint32_t *ops)
{
    wl_cse_ent *s = slot(e, opc, ty, n, ops);
    return s && s->gen == e->cse_gen ? s->id : 0;
}

void wl_cse_note(wl_em *e, uint32_t opc, uint32_t ty, int n, const uint32_t *ops, uint32_t id)
{
    wl_cse_ent *s = slot(e, opc, ty, n, ops);
    if (!s)
        return;
    s->gen = e->cse_gen;
    s->opc = opc;
    s->ty = ty;
    s->n = (uint32_t)n;
    memcpy(s->ops, ops, (size_t)n * sizeof *ops);
    s->id = id;
}

/* wl_bind gave the instruction with these words, written with result id
 * old_id, the id new_id instead (a phi named its value first): its entry
 * now gives new_id, which that instruction defines; the rest of the
 * block's table stays. */
void wl_cse_rename(wl_em *e, uint32_t opc, uint32_t ty, int n, const uint32_t *ops, uint32_t old_id, uint32_t new_id)
{
    wl_cse_ent *s = e->cse ? slot(e, opc, ty, n, ops) : NULL;
    if (s && s->gen == e->cse_gen && s->id == old_id)
        s->id = new_id;
}

void wl_cse_clear(wl_em *e)
{
    if (++e->cse_gen == 0) { /* wrapped: every slot old again */
        if (e->cse)
            memset(e->cse, 0, WL_CSE_SLOTS * sizeof *e->cse);
        e->cse_gen = 1;
    }
}
