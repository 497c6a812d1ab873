/* Repeats within a function (docs/backend.md, "Module size"): the emitter
 * writes some values LLVM never saw, once per access that needs them (the
 * word index of a memory object's byte offset and its access chain, the
 * access chain to a Function array at a lane's index in the wave model's
 * lane loops), so the same pure instruction on the same operands can
 * appear twice: in one block, or in a loop's body and the block before
 * it. wl_op asks here first: a pure instruction already written in a block
 * that dominates the current one (the current one included, since its
 * OpLabel) with the same opcode, type and operands gives that id back
 * instead of a copy; the module stays valid as its definition dominates
 * the use. Entries of blocks that do not dominate the current one count as
 * empty slots. Without a control-flow analysis (e->cfg NULL, e->cse_block
 * -1) the scope is the block. The table starts at WL_CSE_SLOTS slots and
 * doubles when half full (up to WL_CSE_MAX_SLOTS): the wave model writes
 * blocks of thousands of pure instructions. */
#include <stdlib.h>
#include <string.h>

#include "be.h"

#define CSE_MAX_OPS 6

struct wl_cse_ent {
    uint32_t gen, opc, ty, n, id;
    int block; /* where it was written (e->cse_block) */
    uint32_t ops[CSE_MAX_OPS];
};

/* the entry's definition dominates what is written now */
static int visible(const wl_em *e, const wl_cse_ent *s)
{
    if (s->gen != e->cse_gen)
        return 0;
    if (s->block == e->cse_block)
        return 1;
    return e->cfg && wl_cfg_dominates(e->cfg, s->block, e->cse_block);
}

static int pure_op(uint32_t opc)
{
    switch (opc) {
    case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpShiftRightLogical: case SpvOpShiftRightArithmetic:
    case SpvOpShiftLeftLogical: case SpvOpBitwiseAnd: case SpvOpBitwiseOr: case SpvOpBitwiseXor: case SpvOpNot:
    case SpvOpUConvert: case SpvOpSConvert: case SpvOpBitcast: case SpvOpConvertUToPtr: case SpvOpAccessChain:
    case SpvOpPtrAccessChain:
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

/* the slot of this instruction in a table of cap slots: its match or an
 * empty one (empty: another generation, or a block that does not dominate
 * this one); NULL when 16 slots from its hash hold other instructions */
static wl_cse_ent *probe(const wl_em *e, wl_cse_ent *t, size_t cap, uint32_t opc, uint32_t ty, int n,
                         const uint32_t *ops)
{
    size_t h = cse_hash(opc, ty, n, ops);
    for (size_t k = 0; k < 16; k++) {
        wl_cse_ent *s = &t[(h + k) & (cap - 1)];
        if (!visible(e, s))
            return s;
        if (s->opc == opc && s->ty == ty && s->n == (uint32_t)n && !memcmp(s->ops, ops, (size_t)n * sizeof *ops))
            return s;
    }
    return NULL;
}

/* Twice the slots, this block's entries moved over: a block of thousands
 * of pure instructions (the wave model's) would otherwise crowd the table
 * and leave every later one unmerged. 0 when not grown (the table is at
 * its limit or out of memory: it stays as it is). */
static int grow(wl_em *e)
{
    if (e->cse_cap >= WL_CSE_MAX_SLOTS)
        return 0;
    size_t cap = 2 * e->cse_cap;
    wl_cse_ent *t = calloc(cap, sizeof *t);
    if (!t)
        return 0;
    size_t live = 0;
    for (size_t i = 0; i < e->cse_cap; i++) {
        const wl_cse_ent *o = &e->cse[i];
        if (!visible(e, o))
            continue; /* no longer of use here */
        wl_cse_ent *s = probe(e, t, cap, o->opc, o->ty, (int)o->n, o->ops);
        if (s) { /* else crowded even here: forgotten, written again if repeated */
            *s = *o;
            live++;
        }
    }
    e->cse_live = live;
    free(e->cse);
    e->cse = t;
    e->cse_cap = cap;
    return 1;
}

/* the slot of this instruction (an empty one or its match); NULL when not
 * taken (not pure, too many operands, no table, or crowded). A note
 * (`taking`) first grows a table half full, or a quarter full and crowded
 * where it probes. */
static wl_cse_ent *slot(wl_em *e, uint32_t opc, uint32_t ty, int n, const uint32_t *ops, int taking)
{
    if (!pure_op(opc) || n > CSE_MAX_OPS || n < 0)
        return NULL;
    if (!e->cse) {
        e->cse = calloc(WL_CSE_SLOTS, sizeof *e->cse);
        if (!e->cse)
            return NULL;
        e->cse_cap = WL_CSE_SLOTS;
        e->cse_live = 0;
        e->cse_gen = 1;
    }
    if (taking && 2 * e->cse_live >= e->cse_cap)
        grow(e);
    wl_cse_ent *s = probe(e, e->cse, e->cse_cap, opc, ty, n, ops);
    if (!s && taking && 4 * e->cse_live >= e->cse_cap && grow(e))
        s = probe(e, e->cse, e->cse_cap, opc, ty, n, ops);
    return s; /* NULL: written again, never wrong */
}

uint32_t wl_cse_find(wl_em *e, uint32_t opc, uint32_t ty, int n, const uint32_t *ops)
{
    wl_cse_ent *s = slot(e, opc, ty, n, ops, 0);
    return s && visible(e, s) ? s->id : 0;
}

void wl_cse_note(wl_em *e, uint32_t opc, uint32_t ty, int n, const uint32_t *ops, uint32_t id)
{
    wl_cse_ent *s = slot(e, opc, ty, n, ops, 1);
    if (!s)
        return;
    if (!visible(e, s))
        e->cse_live++;
    s->gen = e->cse_gen;
    s->block = e->cse_block;
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
    wl_cse_ent *s = e->cse ? slot(e, opc, ty, n, ops, 0) : NULL;
    if (s && visible(e, s) && s->id == old_id)
        s->id = new_id;
}

void wl_cse_clear(wl_em *e)
{
    e->cse_live = 0;
    if (++e->cse_gen == 0) { /* wrapped: every slot old again */
        if (e->cse)
            memset(e->cse, 0, e->cse_cap * sizeof *e->cse);
        e->cse_gen = 1;
    }
}
