/* A lane's bit of a mask, as the wave model wants it (docs/wave-model.md,
 * step 1; wave/prepare.c runs it on the wave IR with its SGPRs in SSA form).
 *
 * The lifter reads a lane's bit of a mask (EXEC for a write, VCC for a
 * carry or a v_cndmask) as @wl.lane_active(X) or as X shifted by the lane.
 * In a lane loop, lane_active of a uniform mask is one shift; the bit of
 * ballot(c) is c itself, which also frees the loop from the ballot's whole
 * mask (the run can go on past the compare, wave/lane_loops.c). But c is a value
 * of the ballot's loop: read in another block it would need a lane array
 * of its own, stored in one loop and loaded in every other, which costs
 * more than the shift. So, unlike the lanes model's fold (llvm-passes/fold_lane_bits.c), a
 * ballot's bit is c only in the ballot's own block:
 *   bit(ballot(c))              -> c, the ballot in the reading block
 *   bit(C)                      -> true / false (C's low W bits all one / zero)
 *   bit(sext i1 u)              -> u;  bit(zext / trunc x) -> bit(x)
 *   bit(x & y), |, ^            -> bit(x) op bit(y), where one side folds and
 *                                  the other is lane_active (one shift)
 *   bit(select(u, x, y))        -> select(u, bit x, bit y)
 *   bit(lo | hi << 32 of X)     -> bit(X) (a mask rebuilt from its halves)
 * and any other read becomes lane_active(X). Each is exact for every lane
 * whatever EXEC is: a ballot carries every lane's own condition. */
#include <string.h>

#include "wave_internal.h"

typedef struct bits {
    wl_lower_ctx *L;
    LLVMBasicBlockRef bb; /* the reading block */
    LLVMValueRef la;      /* @wl.lane_active */
    LLVMTypeRef la_ty;
    uint64_t wmask;
    unsigned count;
} bits;

static int is_call(LLVMValueRef v, const char *name)
{
    size_t len;
    const char *n = LLVMIsAInstruction(v) ? wl_lc_callee(v, &len) : NULL;
    return n && len == strlen(name) && !memcmp(n, name, len);
}

static int is_op(LLVMValueRef v, LLVMOpcode op)
{
    return LLVMIsAInstruction(v) && LLVMGetInstructionOpcode(v) == op;
}

static int const_is(LLVMValueRef v, uint64_t c)
{
    return LLVMIsAConstantInt(v) && LLVMConstIntGetZExtValue(v) == c;
}

static unsigned width(LLVMValueRef v)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    return LLVMGetTypeKind(t) == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(t) : 0;
}

static LLVMValueRef lane_active(bits *B, LLVMValueRef x)
{
    wl_lower_ctx *L = B->L;
    if (width(x) < 64)
        x = LLVMBuildZExt(L->b, x, L->i64, "");
    return LLVMBuildCall2(L->b, B->la_ty, B->la, &x, 1, "");
}

/* x when v is x's low half, zero-extended to i64 */
static LLVMValueRef low_half(LLVMValueRef v)
{
    if (!is_op(v, LLVMZExt))
        return NULL;
    LLVMValueRef t = LLVMGetOperand(v, 0);
    if (!is_op(t, LLVMTrunc) || width(t) != 32)
        return NULL;
    LLVMValueRef x = LLVMGetOperand(t, 0);
    return width(x) == 64 ? x : NULL;
}

/* x when v is (zext(trunc(x >> 32))) << 32 */
static LLVMValueRef high_half(LLVMValueRef v)
{
    if (!is_op(v, LLVMShl) || !const_is(LLVMGetOperand(v, 1), 32))
        return NULL;
    LLVMValueRef z = LLVMGetOperand(v, 0);
    if (!is_op(z, LLVMZExt))
        return NULL;
    LLVMValueRef t = LLVMGetOperand(z, 0);
    if (!is_op(t, LLVMTrunc) || width(t) != 32)
        return NULL;
    LLVMValueRef s = LLVMGetOperand(t, 0);
    if (!is_op(s, LLVMLShr) || !const_is(LLVMGetOperand(s, 1), 32))
        return NULL;
    LLVMValueRef x = LLVMGetOperand(s, 0);
    return width(x) == 64 ? x : NULL;
}

/* the lane's bit of mask v as an i1 built at the builder, NULL where it
 * would only be lane_active(v) */
static LLVMValueRef bit(bits *B, LLVMValueRef v, int depth)
{
    wl_lower_ctx *L = B->L;
    unsigned w = width(v);
    if (w < L->W || w > 64)
        return NULL;
    if (LLVMIsAConstantInt(v)) {
        uint64_t c = LLVMConstIntGetZExtValue(v) & B->wmask;
        return c == B->wmask ? LLVMConstInt(L->i1, 1, 0) : c == 0 ? LLVMConstInt(L->i1, 0, 0) : NULL;
    }
    if (!LLVMIsAInstruction(v) || depth > 8)
        return NULL;
    if (is_call(v, "wl.ballot"))
        return LLVMGetInstructionParent(v) == B->bb ? LLVMGetOperand(v, 0) : NULL;
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    switch (op) {
    case LLVMZExt:
    case LLVMTrunc:
        return bit(B, LLVMGetOperand(v, 0), depth + 1);
    case LLVMSExt:
        return LLVMTypeOf(LLVMGetOperand(v, 0)) == L->i1 ? LLVMGetOperand(v, 0) : NULL;
    case LLVMSelect: {
        LLVMValueRef c = LLVMGetOperand(v, 0);
        if (LLVMTypeOf(c) != L->i1)
            return NULL;
        LLVMValueRef a = bit(B, LLVMGetOperand(v, 1), depth + 1);
        LLVMValueRef b = a ? bit(B, LLVMGetOperand(v, 2), depth + 1) : NULL;
        return b ? LLVMBuildSelect(L->b, c, a, b, "") : NULL;
    }
    case LLVMAnd:
    case LLVMOr:
    case LLVMXor: {
        LLVMValueRef x = LLVMGetOperand(v, 0), y = LLVMGetOperand(v, 1);
        if (op == LLVMOr && w == 64) {
            LLVMValueRef h = low_half(x);
            if (!h || high_half(y) != h) {
                h = low_half(y);
                if (h && high_half(x) != h)
                    h = NULL;
            }
            if (h)
                return bit(B, h, depth + 1);
        }
        LLVMValueRef a = bit(B, x, depth + 1), b = bit(B, y, depth + 1);
        if (!a && !b)
            return NULL;
        if (!a)
            a = lane_active(B, x);
        if (!b)
            b = lane_active(B, y);
        return op == LLVMAnd ? LLVMBuildAnd(L->b, a, b, "") : op == LLVMOr ? LLVMBuildOr(L->b, a, b, "")
                                                                        : LLVMBuildXor(L->b, a, b, "");
    }
    default:
        return NULL;
    }
}

/* the lane index: lane_id, lane_id & m (m keeps the lane's bits), zext'ed */
static int is_lane(bits *B, LLVMValueRef v)
{
    if (is_op(v, LLVMZExt))
        v = LLVMGetOperand(v, 0);
    if (is_op(v, LLVMAnd)) {
        LLVMValueRef c = LLVMGetOperand(v, 1);
        if (!LLVMIsAConstantInt(c) || (LLVMConstIntGetZExtValue(c) & (B->L->W - 1)) != B->L->W - 1)
            return 0;
        v = LLVMGetOperand(v, 0);
    }
    return is_call(v, "wl.lane_id");
}

/* the mask whose lane bit I reads (*i1: as an i1, else as 0/1 of I's
 * type), or NULL: lane_active(X), (X >> lane) & 1, trunc(X >> lane) to i1 */
static LLVMValueRef read_of(bits *B, LLVMValueRef I, int *i1)
{
    wl_lower_ctx *L = B->L;
    if (is_call(I, "wl.lane_active")) {
        *i1 = 1;
        return LLVMGetOperand(I, 0);
    }
    LLVMValueRef sh;
    if (is_op(I, LLVMAnd) && const_is(LLVMGetOperand(I, 1), 1)) {
        sh = LLVMGetOperand(I, 0);
        *i1 = 0;
    } else if (is_op(I, LLVMTrunc) && LLVMTypeOf(I) == L->i1) {
        sh = LLVMGetOperand(I, 0);
        *i1 = 1;
    } else {
        return NULL;
    }
    if (!is_op(sh, LLVMLShr) || !is_lane(B, LLVMGetOperand(sh, 1)))
        return NULL;
    LLVMValueRef x = LLVMGetOperand(sh, 0);
    return width(x) >= L->W && width(x) <= 64 ? x : NULL;
}

unsigned wl_wv_fold_lane_bits(wl_lower_ctx *L)
{
    bits B;
    memset(&B, 0, sizeof B);
    B.L = L;
    B.wmask = L->W == 64 ? ~0ull : 0xffffffffull;
    B.la_ty = LLVMFunctionType(L->i1, &L->i64, 1, 0);
    B.la = LLVMGetNamedFunction(L->m, "wl.lane_active");
    if (!B.la)
        B.la = LLVMAddFunction(L->m, "wl.lane_active", B.la_ty);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(L->fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        B.bb = bb;
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb), next; I; I = next) {
            next = LLVMGetNextInstruction(I);
            int i1 = 0;
            LLVMValueRef x = read_of(&B, I, &i1);
            if (!x)
                continue;
            LLVMPositionBuilderBefore(L->b, I);
            LLVMValueRef v = bit(&B, x, 0);
            if (!v) {
                if (is_call(I, "wl.lane_active"))
                    continue; /* already the shift */
                v = lane_active(&B, x);
            }
            if (!i1)
                v = LLVMBuildZExt(L->b, v, LLVMTypeOf(I), "");
            LLVMReplaceAllUsesWith(I, v);
            LLVMInstructionEraseFromParent(I);
            B.count++;
        }
    }
    return B.count;
}
