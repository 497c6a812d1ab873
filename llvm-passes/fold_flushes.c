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
 * The same pass folds NaN tests of values that cannot be NaN (below, with
 * the same fixed point). Runs on the wave IR after InstCombine (wave-clean)
 * and works on any function; returns the number of flushes removed and
 * tests folded. */
#include <stdint.h>
#include <string.h>

#include "pass.h"
#include "passes.h"
#include "ir/ptrmap.h"
#include "lower/context.h" /* wl_lc_type_bits */

static uint64_t exp_mask(unsigned w)
{
    return w == 16 ? 0x7c00u : w == 32 ? 0x7f800000u : 0x7ff0000000000000ull;
}

static uint64_t sign_bit(unsigned w)
{
    return 1ull << (w - 1);
}

/* v is `and x, c` (either side): x, else NULL */
static LLVMValueRef and_of(LLVMValueRef v, uint64_t c)
{
    if (!wl_fold_is_op(v, LLVMAnd))
        return NULL;
    if (wl_fold_is_const(LLVMGetOperand(v, 1), c))
        return LLVMGetOperand(v, 0);
    if (wl_fold_is_const(LLVMGetOperand(v, 0), c))
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
    unsigned w = wl_lc_type_bits(LLVMTypeOf(v));
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
static unsigned const_flushed(LLVMValueRef v, unsigned w)
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

/* An analysis's state: the phis' current assumptions, and what each other
 * instruction was found to have under them (cleared whenever a phi's
 * assumption drops). Lookups recurse through operands not yet seen, up to
 * MAX_DEPTH (beyond: nothing known); the passes visit instructions in
 * order first, so the recursion stays shallow. */
typedef struct fx {
    wl_ptrmap phis, memo;
    int nomem;
} fx;

#define MAX_DEPTH 64

static unsigned flushed_of(fx *A, LLVMValueRef v, unsigned depth);

/* An analysis: what a constant of width w has, and what an instruction
 * has from its operands (at depth, through eval) */
typedef struct analysis {
    unsigned (*of_const)(LLVMValueRef v, unsigned w);
    unsigned (*of_inst)(fx *A, LLVMValueRef v, unsigned depth);
} analysis;

/* v's facts under A's phi assumptions (the phis' map; 0 where unknown),
 * memoized for every other instruction */
static unsigned eval(const analysis *an, fx *A, LLVMValueRef v, unsigned depth)
{
    unsigned w = wl_lc_type_bits(LLVMTypeOf(v));
    if (w != 16 && w != 32 && w != 64)
        return 0;
    if (LLVMIsAConstant(v))
        return an->of_const(v, w);
    if (!LLVMIsAInstruction(v) || depth > MAX_DEPTH)
        return 0;
    long k = wl_ptrmap_get(LLVMIsAPHINode(v) ? &A->phis : &A->memo, v);
    if (k >= 0 || LLVMIsAPHINode(v))
        return k > 0 ? (unsigned)k : 0;
    unsigned r = an->of_inst(A, v, depth);
    if (!wl_ptrmap_put(&A->memo, v, (long)r))
        A->nomem = 1;
    return r;
}

static const analysis FLUSHED = {const_flushed, flushed_of};

/* whether v is flushed given A's phi assumptions (1: assumed) */
static int flushed(fx *A, LLVMValueRef v, unsigned depth)
{
    return eval(&FLUSHED, A, v, depth) == 1;
}

static unsigned flushed_of(fx *A, LLVMValueRef v, unsigned depth)
{
    unsigned w = wl_lc_type_bits(LLVMTypeOf(v));
    if (flush_of(v))
        return 1;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMBitCast:
    case LLVMFNeg:
        return wl_lc_type_bits(LLVMTypeOf(LLVMGetOperand(v, 0))) == w && flushed(A, LLVMGetOperand(v, 0), depth + 1);
    case LLVMXor:
        return (wl_fold_is_const(LLVMGetOperand(v, 1), sign_bit(w)) && flushed(A, LLVMGetOperand(v, 0), depth + 1)) ||
               (wl_fold_is_const(LLVMGetOperand(v, 0), sign_bit(w)) && flushed(A, LLVMGetOperand(v, 1), depth + 1));
    case LLVMAnd: {
        LLVMValueRef x = and_of(v, sign_bit(w) - 1);
        return x && flushed(A, x, depth + 1);
    }
    case LLVMSelect:
        return flushed(A, LLVMGetOperand(v, 1), depth + 1) && flushed(A, LLVMGetOperand(v, 2), depth + 1);
    case LLVMCall:
        if (call_named(v, "llvm.fabs."))
            return flushed(A, LLVMGetOperand(v, 0), depth + 1);
        if (call_named(v, "llvm.maxnum.") || call_named(v, "llvm.minnum."))
            return flushed(A, LLVMGetOperand(v, 0), depth + 1) && flushed(A, LLVMGetOperand(v, 1), depth + 1);
        if (call_named(v, "wl.shuffle.") || call_named(v, "wl.readfirstlane."))
            return flushed(A, LLVMGetOperand(v, 0), depth + 1);
        return 0;
    default:
        return 0;
    }
}

int wl_fold_no_denormal(LLVMValueRef v)
{
    fx A = {0}; /* no phi assumed: only what v's definition shows */
    int r = flushed(&A, v, 0);
    wl_ptrmap_free(&A.memo);
    return r && !A.nomem;
}

/* The greatest fixed point over fn's phis: each (of a width the analysis
 * knows) starts at `top` and is met with its incoming values' facts until
 * none changes; A->memo then holds every instruction's facts under them.
 * -1: out of memory. */
static int fixpoint(LLVMValueRef fn, fx *A, const analysis *an, unsigned top)
{
    wl_ptrmap_clear(&A->phis);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && LLVMIsAPHINode(i); i = LLVMGetNextInstruction(i)) {
            unsigned w = wl_lc_type_bits(LLVMTypeOf(i));
            if ((w == 16 || w == 32 || w == 64) && !wl_ptrmap_put(&A->phis, i, (long)top))
                return -1;
        }
    for (int changed = 1; changed;) {
        changed = 0;
        wl_ptrmap_clear(&A->memo);
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
                if (!LLVMIsAPHINode(i))
                    eval(an, A, i, 0); /* in order: operands mostly known before their users */
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && LLVMIsAPHINode(i); i = LLVMGetNextInstruction(i)) {
                long cur = wl_ptrmap_get(&A->phis, i);
                if (cur <= 0)
                    continue;
                unsigned f = (unsigned)cur;
                for (unsigned k = 0, n = LLVMCountIncoming(i); k < n && f; k++) {
                    LLVMValueRef in = LLVMGetIncomingValue(i, k);
                    if (in != i)
                        f &= eval(an, A, in, 0);
                }
                if (f != (unsigned)cur) {
                    if (!wl_ptrmap_put(&A->phis, i, (long)f))
                        return -1;
                    changed = 1;
                }
            }
    }
    return A->nomem ? -1 : 0;
}

static int is_nan_test(LLVMValueRef i)
{
    return LLVMIsAFCmpInst(i) && LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMIntegerTypeKind &&
           (LLVMGetFCmpPredicate(i) == LLVMRealUNO || LLVMGetFCmpPredicate(i) == LLVMRealORD);
}

/* Whether fn has a flush (which) or a NaN test (!which) to fold: the fixed
 * point, a walk of every instruction until nothing changes, runs only then
 * (integer programs: hashcat's m00500_init 211 ms of nothing) */
static int has_candidate(LLVMValueRef fn, int which)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            if (which ? flush_of(i) != NULL : is_nan_test(i))
                return 1;
    return 0;
}

static int fold_function(LLVMValueRef fn, fx *A)
{
    if (!has_candidate(fn, 1))
        return 0;
    if (fixpoint(fn, A, &FLUSHED, 1) < 0)
        return -1;
    int removed = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;) {
            LLVMValueRef next = LLVMGetNextInstruction(i);
            LLVMValueRef x = flush_of(i);
            if (x && flushed(A, x, 0)) {
                LLVMReplaceAllUsesWith(i, x);
                LLVMInstructionEraseFromParent(i);
                removed++;
            }
            i = next;
        }
    return removed;
}

/* ---- NaN tests of values that cannot be NaN -----------------------------
 * The lifter's NaN rules (v_min/v_max without IEEE mode, clamps, med3) test
 * operands with `fcmp uno`; LLVM folds the test where its own analysis
 * sees the value, not through @wl.shuffle (a reduction's steps) or the
 * integer bits the lifter keeps floats in. Facts a value has in every
 * lane: NN (no NaN) and FIN (finite, no NaN). A constant by its value; an
 * integer converted to f32 or f64 FIN (to a half NN); fadd, fsub, fmul, fma NN of FIN operands
 * (an infinity may come out, no NaN); fneg, fabs, bitcasts, flushes,
 * shuffles and readfirstlanes keep the operand's; maxnum and minnum NN
 * where either operand is (they return the other number), FIN where both
 * are; a select and a phi (assumed first, as for flushes) the meet of
 * theirs; the lifter's "equal operands" arm of min/max (the two operands'
 * bits and-ed or or-ed where they compare equal: the same number up to the
 * sign of a zero) FIN. `fcmp uno x, y` of NN values is false, `fcmp ord`
 * true. */
enum { F_NN = 1, F_FIN = 3 };

static unsigned const_facts(LLVMValueRef v, unsigned w)
{
    if (LLVMIsAConstantAggregateZero(v))
        return F_FIN;
    if (LLVMIsAConstantFP(v)) {
        LLVMBool lost = 0;
        double d = LLVMConstRealGetDouble(v, &lost);
        return d != d ? 0 : (d - d == 0.0 ? F_FIN : F_NN);
    }
    if (LLVMIsAConstantInt(v) && (w == 16 || w == 32 || w == 64)) {
        uint64_t b = LLVMConstIntGetZExtValue(v), e = exp_mask(w), m = (sign_bit(w) - 1) & ~e;
        return (b & e) != e ? F_FIN : (b & m) ? 0 : F_NN;
    }
    return 0;
}

static LLVMValueRef strip_bitcast(LLVMValueRef v)
{
    return wl_fold_is_op(v, LLVMBitCast) ? LLVMGetOperand(v, 0) : v;
}

/* the lifter's equal-operands arm: select(fcmp oeq A, B, bitcast(and/or(bitcast A, bitcast B)), r) */
static int equal_arm(LLVMValueRef sel)
{
    LLVMValueRef c = LLVMGetOperand(sel, 0), t = LLVMGetOperand(sel, 1);
    if (!LLVMIsAFCmpInst(c) || LLVMGetFCmpPredicate(c) != LLVMRealOEQ)
        return 0;
    if (wl_fold_is_op(t, LLVMBitCast))
        t = LLVMGetOperand(t, 0);
    if (!wl_fold_is_op(t, LLVMAnd) && !wl_fold_is_op(t, LLVMOr))
        return 0;
    /* the same values on both sides, bitcasts aside */
    LLVMValueRef x = strip_bitcast(LLVMGetOperand(t, 0)), y = strip_bitcast(LLVMGetOperand(t, 1));
    LLVMValueRef a = strip_bitcast(LLVMGetOperand(c, 0)), b = strip_bitcast(LLVMGetOperand(c, 1));
    return (x == a && y == b) || (x == b && y == a);
}

static unsigned facts_of(fx *A, LLVMValueRef v, unsigned depth);

static const analysis FACTS = {const_facts, facts_of};

static unsigned facts(fx *A, LLVMValueRef v, unsigned depth)
{
    return eval(&FACTS, A, v, depth);
}

static unsigned facts_of(fx *A, LLVMValueRef v, unsigned depth)
{
    LLVMValueRef x = flush_of(v);
    if (x)
        return facts(A, x, depth + 1);
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMUIToFP:
    case LLVMSIToFP: /* a half can overflow (65520 and up), f32 and f64 cannot */
        return wl_lc_type_bits(LLVMTypeOf(v)) == 16 ? F_NN : F_FIN;
    case LLVMBitCast:
    case LLVMFNeg:
    case LLVMFPExt:
        return facts(A, LLVMGetOperand(v, 0), depth + 1);
    case LLVMFPTrunc:
        return facts(A, LLVMGetOperand(v, 0), depth + 1) & F_NN;
    case LLVMFAdd:
    case LLVMFSub:
    case LLVMFMul:
        return (facts(A, LLVMGetOperand(v, 0), depth + 1) & facts(A, LLVMGetOperand(v, 1), depth + 1)) ==
                       F_FIN
                   ? F_NN
                   : 0;
    case LLVMSelect: {
        unsigned t = equal_arm(v) ? F_FIN : facts(A, LLVMGetOperand(v, 1), depth + 1);
        return t & facts(A, LLVMGetOperand(v, 2), depth + 1);
    }
    case LLVMCall:
        if (call_named(v, "llvm.fabs.") || call_named(v, "wl.shuffle.") || call_named(v, "wl.readfirstlane."))
            return facts(A, LLVMGetOperand(v, 0), depth + 1);
        if (call_named(v, "llvm.maxnum.") || call_named(v, "llvm.minnum.")) {
            unsigned a = facts(A, LLVMGetOperand(v, 0), depth + 1), b = facts(A, LLVMGetOperand(v, 1), depth + 1);
            return (a & b) | ((a | b) & F_NN);
        }
        if (call_named(v, "llvm.fma.") || call_named(v, "llvm.fmuladd."))
            return (facts(A, LLVMGetOperand(v, 0), depth + 1) & facts(A, LLVMGetOperand(v, 1), depth + 1) &
                    facts(A, LLVMGetOperand(v, 2), depth + 1)) == F_FIN
                       ? F_NN
                       : 0;
        return 0;
    default:
        return 0;
    }
}

static int fold_nan_tests(LLVMValueRef fn, fx *A)
{
    if (!has_candidate(fn, 0))
        return 0;
    if (fixpoint(fn, A, &FACTS, F_FIN) < 0)
        return -1;
    int folded = 0;
    LLVMTypeRef i1 = LLVMInt1TypeInContext(LLVMGetModuleContext(LLVMGetGlobalParent(fn)));
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;) {
            LLVMValueRef next = LLVMGetNextInstruction(i);
            if (is_nan_test(i) && (facts(A, LLVMGetOperand(i, 0), 0) & F_NN) && (facts(A, LLVMGetOperand(i, 1), 0) & F_NN)) {
                LLVMReplaceAllUsesWith(i, LLVMConstInt(i1, LLVMGetFCmpPredicate(i) == LLVMRealORD, 0));
                LLVMInstructionEraseFromParent(i);
                folded++;
            }
            i = next;
        }
    return folded;
}

int wl_opt_fold_flushes(wl_pass_ctx *P, unsigned arg)
{
    (void)arg;
    fx A = {0};
    int n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(P->m); f && n >= 0; f = LLVMGetNextFunction(f)) {
        if (!LLVMGetFirstBasicBlock(f))
            continue;
        int r = fold_function(f, &A);
        int q = r < 0 ? -1 : fold_nan_tests(f, &A);
        n = r < 0 || q < 0 ? -1 : n + r + q;
    }
    wl_ptrmap_free(&A.phis);
    wl_ptrmap_free(&A.memo);
    if (n < 0)
        return wl_pass_fail(P, WL_ERR_NOMEM, "fold-flushes: out of memory");
    return n;
}
