/* Constants nobody reads (docs/backend.md, "Module size"): the emitter makes
 * a constant when it looks one up (an offset it then folds into an index, an
 * operand of an instruction it then writes otherwise), and each costs 4 or 5
 * words in the types section. Before assembly, a constant whose id no other
 * word of the module names is dropped, until none is left. "Names" is taken
 * loosely: any word equal to the id keeps it (a literal that happens to
 * equal it too), so a constant in use is never dropped. */
#include <stdlib.h>
#include <string.h>

#include "be.h"

static int is_constant(uint32_t op)
{
    return op == SpvOpConstant || op == SpvOpConstantTrue || op == SpvOpConstantFalse ||
           op == SpvOpConstantNull || op == SpvOpConstantComposite || op == SpvOpUndef;
}

/* The first operand word of op that is surely a literal, never an id
 * (memory operands, decoration and mode literals, composite indices), or
 * 0: such words are not taken for a use (an alignment of 8 would keep the
 * constant whose id is 8) */
static uint32_t literals_from(uint32_t op)
{
    switch (op) {
    case SpvOpConstant: return 3; /* its value */
    case SpvOpLoad: return 4;
    case SpvOpStore: return 3;
    case SpvOpDecorate: return 3;
    case SpvOpMemberDecorate: return 2;
    case SpvOpExecutionMode: return 2;
    case SpvOpCompositeExtract: return 4;
    case SpvOpCompositeInsert: return 5;
    case SpvOpVectorShuffle: return 5;
    default: return 0;
    }
}

/* every word of b but the result id of its constants and the literals */
static void mark(uint8_t *used, uint32_t bound, const wl_wbuf *b, int skip_constants)
{
    for (size_t i = 0; i < b->n;) {
        uint32_t n = b->w[i] >> 16, op = b->w[i] & 0xffffu;
        if (!n || i + n > b->n)
            return; /* malformed: mark nothing more (the caller keeps everything it did not see) */
        uint32_t lit = literals_from(op);
        for (uint32_t j = 1; j < n; j++) {
            if (skip_constants && is_constant(op) && j == 2)
                continue;
            if (lit && j >= lit)
                break;
            if (b->w[i + j] < bound)
                used[b->w[i + j]] = 1;
        }
        i += n;
    }
}

void wl_prune_constants(wl_em *e, wl_wbuf *types, const wl_wbuf *const *others, int nothers)
{
    uint32_t bound = e->next_id;
    uint8_t *used = malloc(bound);
    if (!used)
        return; /* keep every constant: only larger */
    for (int removed = 1; removed;) {
        removed = 0;
        memset(used, 0, bound);
        for (int k = 0; k < nothers; k++)
            mark(used, bound, others[k], 0);
        mark(used, bound, types, 1);
        size_t o = 0;
        for (size_t i = 0; i < types->n;) {
            uint32_t n = types->w[i] >> 16, op = types->w[i] & 0xffffu;
            if (!n || i + n > types->n) { /* malformed: keep the rest as it is */
                memmove(&types->w[o], &types->w[i], (types->n - i) * sizeof(uint32_t));
                o += types->n - i;
                break;
            }
            if (is_constant(op) && n >= 3 && types->w[i + 2] < bound && !used[types->w[i + 2]]) {
                removed = 1;
            } else {
                memmove(&types->w[o], &types->w[i], n * sizeof(uint32_t));
                o += n;
            }
            i += n;
        }
        types->n = o;
    }
    free(used);
}
