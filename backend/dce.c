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
    return op == SpvOpExtInst || op == SpvOpAccessChain || op == SpvOpPtrAccessChain || op == SpvOpPhi ||
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

/* the instruction at w[0] is one dce may drop */
static int droppable(const uint32_t *w, uint32_t n)
{
    return n >= 3 && (pure_op(w[0] & 0xffffu) || plain_load(w, n));
}

/* every word of b naming an id below bound, counted into uses, but the
 * result id of droppable instructions (skip = 1); -1 if b is malformed */
static int count(uint32_t *uses, uint32_t bound, const wl_wbuf *b, int skip)
{
    for (size_t i = 0; i < b->n;) {
        uint32_t n = b->w[i] >> 16;
        if (!n || i + n > b->n)
            return -1;
        int d = skip && droppable(&b->w[i], n);
        for (uint32_t j = 1; j < n; j++)
            if (!(d && j == 2) && b->w[i + j] < bound)
                uses[b->w[i + j]]++;
        i += n;
    }
    return 0;
}

/* One count of the uses, then a worklist: an instruction whose result has
 * no use goes, and each word it named loses one use (a chain of unread
 * instructions goes in one pass, not one pass a link). */
void wl_drop_unread(wl_em *e, wl_wbuf *funcs, const wl_wbuf *const *others, int nothers)
{
    uint32_t bound = e->next_id;
    uint32_t *uses = calloc(bound, sizeof *uses);
    size_t *def = malloc(bound * sizeof *def); /* result id -> offset in funcs + 1 (0: none) */
    size_t *work = NULL;
    uint8_t *gone = NULL;
    if (!uses || !def)
        goto done; /* keep every instruction: only larger */
    memset(def, 0, bound * sizeof *def);
    int bad = count(uses, bound, funcs, 1);
    for (int k = 0; k < nothers && !bad; k++)
        bad = count(uses, bound, others[k], 0);
    if (bad)
        goto done;
    size_t nwork = 0, ndef = 0;
    for (size_t i = 0; i < funcs->n; i += funcs->w[i] >> 16) {
        uint32_t n = funcs->w[i] >> 16;
        if (droppable(&funcs->w[i], n) && funcs->w[i + 2] < bound) {
            def[funcs->w[i + 2]] = i + 1;
            ndef++;
        }
    }
    work = malloc((ndef ? ndef : 1) * sizeof *work);
    gone = calloc(funcs->n ? funcs->n : 1, 1);
    if (!work || !gone)
        goto done;
    for (uint32_t id = 0; id < bound; id++)
        if (def[id] && !uses[id])
            work[nwork++] = def[id] - 1;
    while (nwork) {
        size_t at = work[--nwork];
        uint32_t n = funcs->w[at] >> 16;
        gone[at] = 1;
        for (uint32_t j = 1; j < n; j++) {
            uint32_t x = funcs->w[at + j];
            if (j == 2 || x >= bound || !uses[x])
                continue;
            if (--uses[x] == 0 && def[x] && !gone[def[x] - 1])
                work[nwork++] = def[x] - 1; /* each goes to zero once: the list never overflows */
        }
    }
    size_t o = 0;
    for (size_t i = 0; i < funcs->n;) {
        uint32_t n = funcs->w[i] >> 16;
        if (!gone[i]) {
            memmove(&funcs->w[o], &funcs->w[i], n * sizeof(uint32_t));
            o += n;
        }
        i += n;
    }
    funcs->n = o;
done:
    free(uses);
    free(def);
    free(work);
    free(gone);
}
