/* Instructions nobody reads (docs/backend.md, "Module size"): the emitter
 * writes an LLVM instruction when it reaches it, also where its only
 * reader was then written without it (a zext a lane array's index folded
 * away, a shuffle LLVM kept because it does not know the call pure). Before
 * assembly, an instruction of a function body without side effects (a
 * load without the Volatile operand included) whose result id no word of
 * the module names is dropped, until none is left.
 * As in prune.c, "names" is taken loosely: any word equal to the id keeps
 * it, so an instruction in use is never dropped. */
#include <stdlib.h>
#include <string.h>

#include "be.h"

/* [op, result type, result id, operands...] and no side effect */
static int pure_op(uint32_t op)
{
    return op == SpvOpExtInst || op == SpvOpAccessChain || op == SpvOpPhi ||
           (op >= SpvOpVectorExtractDynamic && op <= SpvOpCopyObject) ||
           (op >= SpvOpConvertFToU && op <= SpvOpBitcast) || (op >= SpvOpSNegate && op <= SpvOpSMulExtended) ||
           op == SpvOpIsNan || op == SpvOpIsInf || (op >= SpvOpLogicalEqual && op <= SpvOpBitCount) ||
           (op >= SpvOpGroupNonUniformElect && op <= SpvOpGroupNonUniformBitwiseXor);
}

/* a load without the Volatile memory operand: nothing happens if nobody
 * reads it (device memory, workgroup memory, private arrays) */
static int plain_load(const uint32_t *w, uint32_t n)
{
    return (w[0] & 0xffffu) == SpvOpLoad && (n < 5 || !(w[4] & 1u));
}

/* every word of b but the result id of its pure instructions */
static int mark(uint8_t *used, uint32_t bound, const wl_wbuf *b, int skip_pure)
{
    for (size_t i = 0; i < b->n;) {
        uint32_t n = b->w[i] >> 16, op = b->w[i] & 0xffffu;
        if (!n || i + n > b->n)
            return -1; /* malformed: the caller drops nothing */
        for (uint32_t j = 1; j < n; j++) {
            if (skip_pure && j == 2 && (pure_op(op) || plain_load(&b->w[i], n)))
                continue;
            if (b->w[i + j] < bound)
                used[b->w[i + j]] = 1;
        }
        i += n;
    }
    return 0;
}

void wl_drop_unread(wl_em *e, wl_wbuf *funcs, const wl_wbuf *const *others, int nothers)
{
    uint32_t bound = e->next_id;
    uint8_t *used = malloc(bound);
    if (!used)
        return; /* keep every instruction: only larger */
    for (int removed = 1; removed;) {
        removed = 0;
        memset(used, 0, bound);
        int bad = mark(used, bound, funcs, 1);
        for (int k = 0; k < nothers && !bad; k++)
            bad = mark(used, bound, others[k], 0);
        if (bad)
            break;
        size_t o = 0;
        for (size_t i = 0; i < funcs->n;) {
            uint32_t n = funcs->w[i] >> 16, op = funcs->w[i] & 0xffffu;
            if ((pure_op(op) || plain_load(&funcs->w[i], n)) && n >= 3 && funcs->w[i + 2] < bound &&
                !used[funcs->w[i + 2]]) {
                removed = 1;
            } else {
                memmove(&funcs->w[o], &funcs->w[i], n * sizeof(uint32_t));
                o += n;
            }
            i += n;
        }
        funcs->n = o;
    }
    free(used);
}
