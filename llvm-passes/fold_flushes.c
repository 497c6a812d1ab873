/* wl_opt_fold_flushes (passes.h): a denormal flush of a value that is
 * already flushed is the value.
 *
 * Where the program's float mode flushes denormals (ACO's f32 mode), the
 * lifter flushes every operand of a float instruction and its result
 * (lift_valu.c, flush_denorm): bits = select(bits & EXP == 0, bits & SIGN,
 * bits). A register written by one float instruction and read by the next
 * is thus flushed twice, and a loop's accumulator once on every trip,
 * which LLVM cannot see (it does not know the select is idempotent): four
 * instructions each, a quarter of an N-body loop's body.
 *
 * A value is known flushed (no denormal in any lane) when it is such a
 * select; a constant whose bits are no denormal; a bitcast, fneg, fabs,
 * sign flip (xor with the sign bit) or magnitude (and without it) of a
 * flushed value; a select, minnum or maxnum of flushed values (maxnum
 * returns one operand or the canonical NaN); a phi of flushed values; a
 * @wl.shuffle or @wl.readfirstlane of a flushed value (another lane's value
 * of the same SSA value). Phis are assumed flushed first and dropped while
 * an incoming value is not (the greatest fixed point: a loop's accumulator
 * whose every definition is flushed). Every flush select whose operand is
 * known flushed is replaced by its operand: in the program as it was, that
 * select returned its operand unchanged, so every value stays what it was.
 *
 * Exact at any width the lifter flushes (f16, f32, f64 as i16, i32, i64).
 * Runs on the wave IR after InstCombine (wave-clean) and works on any
 * function; returns the number of flushes removed. */
#include <stdint.h>
#include <string.h>

#include "pass.h"
#include "passes.h"
#include "ir/ptrmap.h"

static unsigned width_of(LLVMTypeRef t)
{
    switch (LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind: return LLVMGetIntTypeWidth(t);
    case LLVMHalfTypeKind: return 16;
    case LLVMFloatTypeKind: return 32;
    case LLVMDoubleTypeKind: return 64;
    default: return 0;
    }
}

static uint64_t exp_mask(unsigned w)
{
    return w == 16 ? 0x7c00u : w == 32 ? 0x7f800000u : 0x7ff0000000000000ull;
}

static uint64_t sign_bit(unsigned w)
{
    return 1ull << (w - 1);
}

static int is_const(LLVMValueRef v, uint64_t c)
{
    return LLVMIsAConstantInt(v) && LLVMConstIntGetZExtValue(v) == c;
}

/* v is `and x, c` (either side): x, else NULL */
static LLVMValueRef and_of(LLVMValueRef v, uint64_t c)
{
    if (!wl_fold_is_op(v, LLVMAnd))
        return NULL;
    if (is_const(LLVMGetOperand(v, 1), c))
        return LLVMGetOperand(v, 0);
    if (is_const(LLVMGetOperand(v, 0), c))
        return LLVMGetOperand(v, 1);
    return NULL;
}

/* v is a flush select of x (the lifter's form, or with the compare
 * inverted): x, else NULL */
static LLVMValueRef flush_of(LLVMValueRef v);
static LLVMValueRef flush_of(LLVMValueRef v)
{
    if (!wl_fold_is_op(v, LLVMSelect))
        return NULL;
    unsigned w = width_of(LLVMTypeOf(v));
    if ((w != 16 && w != 32 && w != 64) || LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMIntegerTypeKind)
        return NULL;
    LLVMValueRef c = LLVMGetOperand(v, 0), t = LLVMGetOperand(v, 1), f = LLVMGetOperand(v, 2);
    if (!LLVMIsAICmpInst(c))
        return NULL;
    LLVMIntPredicate p = LLVMGetICmpPredicate(c);
    LLVMValueRef zero_side = p == LLVMIntEQ ? t : p == LLVMIntNE ? f : NULL;
    LLVMValueRef x = p == LLVMIntEQ ? f : t;
    if (!zero_side)
        return NULL;
    int side = LLVMIsAConstantInt(LLVMGetOperand(c, 0)) != NULL;
    LLVMValueRef e = LLVMGetOperand(c, side);
    if (!wl_fold_zero_test(c, e) || and_of(e, exp_mask(w)) != x)
        return NULL;
    /* the sign of x, or of the value x flushes (InstCombine's form of a
     * flush of a flush) */
    LLVMValueRef s = and_of(zero_side, sign_bit(w));
    if (!s || (s != x && flush_of(x) != s))
        return NULL;
    return x;
}

/* a constant whose bits hold no denormal of its width */
static int const_flushed(LLVMValueRef v, unsigned w)
{
    uint64_t bits;
    if (LLVMIsAConstantInt(v)) {
        bits = LLVMConstIntGetZExtValue(v);
    } else if (LLVMIsAConstantFP(v)) {
        LLVMBool lost = 0;
        double d = LLVMConstRealGetDouble(v, &lost);
        if (lost)
            return 0;
        if (w == 64) {
            memcpy(&bits, &d, 8);
        } else if (w == 32) {
            float f = (float)d;
            uint32_t b32;
            memcpy(&b32, &f, 4);
            bits = b32;
            if ((double)f != d && d == d)
                return 0;
        } else {
            return 0;
        }
    } else {
        return 0;
    }
    uint64_t mant = w == 16 ? 0x3ffu : w == 32 ? 0x7fffffu : 0xfffffffffffffull;
    return (bits & exp_mask(w)) != 0 || (bits & mant) == 0;
}

static int call_named(LLVMValueRef v, const char *prefix)
{
    if (!LLVMIsACallInst(v))
        return 0;
    LLVMValueRef f = LLVMGetCalledValue(v);
    size_t len = 0;
    const char *n = f && LLVMIsAFunction(f) ? LLVMGetValueName2(f, &len) : NULL;
    size_t pl = strlen(prefix);
    return n && len >= pl && !memcmp(n, prefix, pl);
}

/* whether v is flushed given the map's current knowledge (phis in the map
 * with 1: assumed) */
static int flushed(const wl_ptrmap *known, LLVMValueRef v, unsigned depth)
{
    unsigned w = width_of(LLVMTypeOf(v));
    if (w != 16 && w != 32 && w != 64)
        return 0;
    if (LLVMIsAConstant(v))
        return const_flushed(v, w);
    if (!LLVMIsAInstruction(v) || depth > 8)
        return 0;
    long k = wl_ptrmap_get(known, v);
    if (k >= 0)
        return k == 1;
    if (flush_of(v))
        return 1;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMBitCast:
    case LLVMFNeg:
        return width_of(LLVMTypeOf(LLVMGetOperand(v, 0))) == w && flushed(known, LLVMGetOperand(v, 0), depth + 1);
    case LLVMXor:
        return (is_const(LLVMGetOperand(v, 1), sign_bit(w)) && flushed(known, LLVMGetOperand(v, 0), depth + 1)) ||
               (is_const(LLVMGetOperand(v, 0), sign_bit(w)) && flushed(known, LLVMGetOperand(v, 1), depth + 1));
    case LLVMAnd: {
        LLVMValueRef x = and_of(v, sign_bit(w) - 1);
        return x && flushed(known, x, depth + 1);
    }
    case LLVMSelect:
        return flushed(known, LLVMGetOperand(v, 1), depth + 1) && flushed(known, LLVMGetOperand(v, 2), depth + 1);
    case LLVMCall:
        if (call_named(v, "llvm.fabs."))
            return flushed(known, LLVMGetOperand(v, 0), depth + 1);
        if (call_named(v, "llvm.maxnum.") || call_named(v, "llvm.minnum."))
            return flushed(known, LLVMGetOperand(v, 0), depth + 1) && flushed(known, LLVMGetOperand(v, 1), depth + 1);
        if (call_named(v, "wl.shuffle.") || call_named(v, "wl.readfirstlane."))
            return flushed(known, LLVMGetOperand(v, 0), depth + 1);
        return 0;
    default:
        return 0;
    }
}

int wl_fold_no_denormal(LLVMValueRef v)
{
    wl_ptrmap none = {0}; /* no phi assumed: only what v's definition shows */
    return flushed(&none, v, 0);
}

static int fold_function(LLVMValueRef fn, wl_ptrmap *known)
{
    /* the greatest fixed point over the phis: all assumed, dropped while
     * an incoming value is not flushed */
    wl_ptrmap_clear(known);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && LLVMIsAPHINode(i); i = LLVMGetNextInstruction(i)) {
            unsigned w = width_of(LLVMTypeOf(i));
            if ((w == 16 || w == 32 || w == 64) && !wl_ptrmap_put(known, i, 1))
                return -1;
        }
    for (int changed = 1; changed;) {
        changed = 0;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && LLVMIsAPHINode(i); i = LLVMGetNextInstruction(i)) {
                if (wl_ptrmap_get(known, i) != 1)
                    continue;
                unsigned n = LLVMCountIncoming(i);
                for (unsigned k = 0; k < n; k++) {
                    LLVMValueRef in = LLVMGetIncomingValue(i, k);
                    if (in == i)
                        continue;
                    /* the phi itself not yet decided: look through it as assumed */
                    if (!flushed(known, in, 0)) {
                        if (!wl_ptrmap_put(known, i, 0))
                            return -1;
                        changed = 1;
                        break;
                    }
                }
            }
    }
    int removed = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;) {
            LLVMValueRef next = LLVMGetNextInstruction(i);
            LLVMValueRef x = flush_of(i);
            if (x && flushed(known, x, 0)) {
                LLVMReplaceAllUsesWith(i, x);
                LLVMInstructionEraseFromParent(i);
                removed++;
            }
            i = next;
        }
    return removed;
}

int wl_opt_fold_flushes(wl_pass_ctx *P, unsigned arg)
{
    (void)arg;
    wl_ptrmap known = {0};
    int n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(P->m); f && n >= 0; f = LLVMGetNextFunction(f)) {
        if (!LLVMGetFirstBasicBlock(f))
            continue;
        int r = fold_function(f, &known);
        n = r < 0 ? -1 : n + r;
    }
    wl_ptrmap_free(&known);
    if (n < 0)
        return wl_pass_fail(P, WL_ERR_NOMEM, "fold-flushes: out of memory");
    return n;
}
