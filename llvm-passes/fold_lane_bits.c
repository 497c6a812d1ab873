/* Wave-IR rewrites before the lanes model (fold.h; docs/benchmarks.md).
 *
 * The lifter reads a lane's bit of a mask (VCC as a carry, EXEC as the
 * write predicate) as `@wl.lane_active(mask)` or as a shift of the mask by
 * `@wl.lane_id()`, and builds masks by `@wl.ballot`. After lowering each of
 * these is k ballots, k shifts and the mask rebuilt from 32-bit halves per
 * invocation; here, with one value per lane, "lane l's bit of ballot(c)" is
 * simply c, and EXEC known to be all ones makes every write's select go. */
#include <string.h>

#include "pass.h"
#include "passes.h"
#include "lower/context.h"
#include "ir/wave_ir.h"

typedef struct fold {
    LLVMModuleRef m;
    LLVMContextRef ctx;
    LLVMBuilderRef b;
    LLVMTypeRef i1, i32, i64;
    unsigned W;
    uint64_t wmask; /* the low W bits */
    unsigned count;
} fold;

static LLVMValueRef lane_active_call(fold *F, LLVMValueRef mask64)
{
    LLVMTypeRef fty = LLVMFunctionType(F->i1, &F->i64, 1, 0);
    LLVMValueRef f = LLVMGetNamedFunction(F->m, "wl.lane_active");
    if (!f) {
        f = LLVMAddFunction(F->m, "wl.lane_active", fty);
        wl_opt_add_attr(F->ctx, f, "memory", 0);
        wl_opt_add_attr(F->ctx, f, "nounwind", 0);
        wl_opt_add_attr(F->ctx, f, "willreturn", 0);
        wl_opt_add_attr(F->ctx, f, "nosync", 0);
    }
    return LLVMBuildCall2(F->b, fty, f, &mask64, 1, "");
}

/* Is v lane_id, lane_id & (W-1) (or a wider mask that keeps the lane), in
 * i32, possibly zero-extended? */
static int is_lane_index(fold *F, LLVMValueRef v)
{
    if (LLVMIsAZExtInst(v))
        v = LLVMGetOperand(v, 0);
    if (LLVMIsAInstruction(v) && LLVMGetInstructionOpcode(v) == LLVMAnd) {
        LLVMValueRef a = LLVMGetOperand(v, 0), c = LLVMGetOperand(v, 1);
        if (!LLVMIsAConstantInt(c))
            return 0;
        uint64_t k = LLVMConstIntGetZExtValue(c);
        if ((k & (F->W - 1)) != F->W - 1)
            return 0;
        v = a;
    }
    return wl_fold_is_call(v, "wl.lane_id");
}

/* x when v is x's low 32 bits zero-extended to i64 (zext(trunc x)) */
static LLVMValueRef low_half_of(LLVMValueRef v)
{
    if (!LLVMIsAZExtInst(v))
        return NULL;
    LLVMValueRef t = LLVMGetOperand(v, 0);
    if (!LLVMIsATruncInst(t) || LLVMGetIntTypeWidth(LLVMTypeOf(t)) != 32)
        return NULL;
    LLVMValueRef x = LLVMGetOperand(t, 0);
    return LLVMGetIntTypeWidth(LLVMTypeOf(x)) == 64 ? x : NULL;
}

/* x when v is shl(zext(trunc(lshr(x, 32))), 32): x's high half in place */
static LLVMValueRef high_half_of(LLVMValueRef v)
{
    if (!LLVMIsAInstruction(v) || LLVMGetInstructionOpcode(v) != LLVMShl)
        return NULL;
    LLVMValueRef c = LLVMGetOperand(v, 1);
    if (!LLVMIsAConstantInt(c) || LLVMConstIntGetZExtValue(c) != 32)
        return NULL;
    LLVMValueRef z = LLVMGetOperand(v, 0);
    if (!LLVMIsAZExtInst(z))
        return NULL;
    LLVMValueRef t = LLVMGetOperand(z, 0);
    if (!LLVMIsATruncInst(t) || LLVMGetIntTypeWidth(LLVMTypeOf(t)) != 32)
        return NULL;
    LLVMValueRef s = LLVMGetOperand(t, 0);
    if (!LLVMIsAInstruction(s) || LLVMGetInstructionOpcode(s) != LLVMLShr)
        return NULL;
    LLVMValueRef c2 = LLVMGetOperand(s, 1);
    if (!LLVMIsAConstantInt(c2) || LLVMConstIntGetZExtValue(c2) != 32)
        return NULL;
    LLVMValueRef x = LLVMGetOperand(s, 0);
    return LLVMGetIntTypeWidth(LLVMTypeOf(x)) == 64 ? x : NULL;
}

/* X when the 64-bit `or` v is zext(trunc X) | (X's high half << 32) in
 * either order (a mask rebuilt from its two SGPR halves), else NULL. */
static LLVMValueRef mask_of_halves(LLVMValueRef v)
{
    LLVMValueRef a = LLVMGetOperand(v, 0), b = LLVMGetOperand(v, 1);
    LLVMValueRef x = low_half_of(a);
    if (!x || high_half_of(b) != x) {
        x = low_half_of(b);
        if (x && high_half_of(a) != x)
            x = NULL;
    }
    return x;
}

/* The lane's bit of the mask v (an integer of at least W bits) as an i1
 * value built without a new lane_active call, or NULL. Depth-limited. */
static LLVMValueRef bit_of(fold *F, LLVMValueRef v, int depth)
{
    if (LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMIntegerTypeKind)
        return NULL;
    unsigned bits = LLVMGetIntTypeWidth(LLVMTypeOf(v));
    if (bits < F->W || bits > 64)
        return NULL;
    if (LLVMIsAConstantInt(v)) {
        uint64_t c = LLVMConstIntGetZExtValue(v) & F->wmask;
        if (c == F->wmask)
            return LLVMConstInt(F->i1, 1, 0);
        if (c == 0)
            return LLVMConstInt(F->i1, 0, 0);
        return NULL;
    }
    if (!LLVMIsAInstruction(v) || depth > 6)
        return NULL;
    if (wl_fold_is_call(v, "wl.ballot"))
        return LLVMGetOperand(v, 0);
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    if (op == LLVMZExt || op == LLVMTrunc)
        return bit_of(F, LLVMGetOperand(v, 0), depth + 1);
    if (op == LLVMSExt && LLVMTypeOf(LLVMGetOperand(v, 0)) == F->i1)
        return LLVMGetOperand(v, 0); /* every bit is the i1: a uniform compare's mask */
    if (op == LLVMSelect && LLVMTypeOf(LLVMGetOperand(v, 0)) == F->i1) {
        LLVMValueRef ta = bit_of(F, LLVMGetOperand(v, 1), depth + 1);
        LLVMValueRef fa = ta ? bit_of(F, LLVMGetOperand(v, 2), depth + 1) : NULL;
        if (ta && fa)
            return LLVMBuildSelect(F->b, LLVMGetOperand(v, 0), ta, fa, "");
        return NULL;
    }
    if (op == LLVMOr && bits == 64) { /* a 64-bit mask rebuilt from its halves (two SGPRs) */
        LLVMValueRef x = mask_of_halves(v);
        if (x) {
            LLVMValueRef r = bit_of(F, x, depth + 1);
            return r ? r : lane_active_call(F, x);
        }
    }
    if (op == LLVMAnd || op == LLVMOr || op == LLVMXor) {
        LLVMValueRef a = LLVMGetOperand(v, 0), b = LLVMGetOperand(v, 1);
        LLVMValueRef fa = bit_of(F, a, depth + 1), fb = bit_of(F, b, depth + 1);
        if (!fa && !fb)
            return NULL;
        if (!fa)
            fa = lane_active_call(F, LLVMBuildZExt(F->b, a, F->i64, ""));
        if (!fb)
            fb = lane_active_call(F, LLVMBuildZExt(F->b, b, F->i64, ""));
        if (op == LLVMAnd)
            return LLVMBuildAnd(F->b, fa, fb, "");
        if (op == LLVMOr)
            return LLVMBuildOr(F->b, fa, fb, "");
        return LLVMBuildXor(F->b, fa, fb, "");
    }
    return NULL;
}

/* The lane_active calls bit_of(v) would build (-1: it gives NULL). Bits
 * of ballots, constants and sext(i1) are free; a lane's bit of an opaque
 * mask is one call (a shift per lane clone after the lowering), so a bit
 * expression is only worth building when it needs at most one. */
static int bit_cost(fold *F, LLVMValueRef v, int depth)
{
    if (LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMIntegerTypeKind)
        return -1;
    unsigned bits = LLVMGetIntTypeWidth(LLVMTypeOf(v));
    if (bits < F->W || bits > 64)
        return -1;
    if (LLVMIsAConstantInt(v)) {
        uint64_t c = LLVMConstIntGetZExtValue(v) & F->wmask;
        return c == F->wmask || c == 0 ? 0 : -1;
    }
    if (!LLVMIsAInstruction(v) || depth > 6)
        return -1;
    if (wl_fold_is_call(v, "wl.ballot"))
        return 0;
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    if (op == LLVMZExt || op == LLVMTrunc)
        return bit_cost(F, LLVMGetOperand(v, 0), depth + 1);
    if (op == LLVMSExt)
        return LLVMTypeOf(LLVMGetOperand(v, 0)) == F->i1 ? 0 : -1;
    if (op == LLVMSelect) {
        if (LLVMTypeOf(LLVMGetOperand(v, 0)) != F->i1)
            return -1;
        int a = bit_cost(F, LLVMGetOperand(v, 1), depth + 1), b = a < 0 ? -1 : bit_cost(F, LLVMGetOperand(v, 2), depth + 1);
        return a < 0 || b < 0 ? -1 : a + b;
    }
    if (op == LLVMOr && bits == 64) {
        LLVMValueRef x = mask_of_halves(v);
        if (x) {
            int r = bit_cost(F, x, depth + 1);
            return r < 0 ? 1 : r;
        }
    }
    if (op == LLVMAnd || op == LLVMOr || op == LLVMXor) {
        int a = bit_cost(F, LLVMGetOperand(v, 0), depth + 1), b = bit_cost(F, LLVMGetOperand(v, 1), depth + 1);
        if (a < 0 && b < 0)
            return -1;
        return (a < 0 ? 1 : a) + (b < 0 ? 1 : b);
    }
    return -1;
}

/* The mask whose lane bit `I` reads, or NULL:
 *   lane_active(X)
 *   and(lshr(X, lane), 1)    trunc(lshr(X, lane)) to i1 */
static LLVMValueRef lane_bit_source(fold *F, LLVMValueRef I, int *as_i1)
{
    if (wl_fold_is_call(I, "wl.lane_active")) {
        *as_i1 = 1;
        return LLVMGetOperand(I, 0);
    }
    if (!LLVMIsAInstruction(I))
        return NULL;
    LLVMOpcode op = LLVMGetInstructionOpcode(I);
    LLVMValueRef sh = NULL;
    if (op == LLVMAnd) {
        LLVMValueRef c = LLVMGetOperand(I, 1);
        if (!LLVMIsAConstantInt(c) || LLVMConstIntGetZExtValue(c) != 1)
            return NULL;
        sh = LLVMGetOperand(I, 0);
        *as_i1 = 0;
    } else if (op == LLVMTrunc && LLVMTypeOf(I) == F->i1) {
        sh = LLVMGetOperand(I, 0);
        *as_i1 = 1;
    } else {
        return NULL;
    }
    if (!LLVMIsAInstruction(sh) || LLVMGetInstructionOpcode(sh) != LLVMLShr)
        return NULL;
    if (!is_lane_index(F, LLVMGetOperand(sh, 1)))
        return NULL;
    LLVMValueRef x = LLVMGetOperand(sh, 0);
    if (LLVMGetTypeKind(LLVMTypeOf(x)) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(LLVMTypeOf(x)) < F->W ||
        LLVMGetIntTypeWidth(LLVMTypeOf(x)) > 64)
        return NULL;
    return x;
}

static unsigned fold_lane_bits(LLVMModuleRef m, int max_calls)
{
    wl_wir_info wi;
    LLVMValueRef fn = m ? wl_opt_the_wave(m) : NULL;
    if (!fn || wl_wir_program_info(m, &wi) != 0)
        return 0;
    fold F;
    memset(&F, 0, sizeof F);
    F.m = m;
    F.ctx = LLVMGetModuleContext(m);
    F.b = LLVMCreateBuilderInContext(F.ctx);
    F.i1 = LLVMInt1TypeInContext(F.ctx);
    F.i32 = LLVMInt32TypeInContext(F.ctx);
    F.i64 = LLVMInt64TypeInContext(F.ctx);
    F.W = wi.wave_size;
    F.wmask = F.W == 64 ? ~0ull : 0xffffffffull;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef I = LLVMGetFirstInstruction(bb);
        while (I) {
            LLVMValueRef next = LLVMGetNextInstruction(I);
            int as_i1 = 0;
            LLVMValueRef x = lane_bit_source(&F, I, &as_i1);
            if (x) {
                LLVMPositionBuilderBefore(F.b, I);
                int cost = bit_cost(&F, x, 0);
                LLVMValueRef bit = cost >= 0 && cost <= max_calls ? bit_of(&F, x, 0) : NULL;
                int was_call = wl_fold_is_call(I, "wl.lane_active");
                if (!bit && !was_call)
                    bit = lane_active_call(&F, LLVMGetIntTypeWidth(LLVMTypeOf(x)) < 64
                                                   ? LLVMBuildZExt(F.b, x, F.i64, "")
                                                   : x);
                if (bit) {
                    LLVMValueRef v = as_i1 ? bit : LLVMBuildZExt(F.b, bit, LLVMTypeOf(I), "");
                    LLVMReplaceAllUsesWith(I, v);
                    LLVMInstructionEraseFromParent(I);
                    F.count++;
                }
            }
            I = next;
        }
    }
    LLVMDisposeBuilder(F.b);
    return F.count;
}

/* the pass (passes.h): arg is max_calls */
int wl_opt_fold_lane_bits(wl_pass_ctx *P, unsigned arg)
{
    return (int)fold_lane_bits(P->m, (int)arg);
}
