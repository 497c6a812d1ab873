/* 64-bit adds from 32-bit halves (fold.h: wl_opt_fold_add64).
 *
 * The hardware adds 64-bit addresses as two 32-bit operations:
 *   v_add_co_u32 lo, vcc, a, b ; v_add_co_ci_u32 hi, vcc, c, d, vcc
 * (s_add_u32 / s_addc_u32 with SCC the same), and the lifter writes each as
 * it is defined (frontend/lift/lift_valu_int.c, lift_salu.c):
 *   L  = zext a + zext b                      (i64)
 *   lo = trunc L to i32
 *   cy = icmp ugt L, 0xffffffff               (the carry-out)
 *   H  = (zext c + zext d) + zext cy          (i64; the carry-in added last)
 *   hi = trunc H to i32
 * and a later read of the register pair as 64 bits is
 *   R  = zext lo | (zext hi << 32).
 * When L < 2^33 (so cy is exactly L >> 32), R = L + (H' << 32) mod 2^64,
 * where H' is H without the carry term:
 *   R = (L mod 2^32) + ((H' + cy) mod 2^32) * 2^32
 *     = (L mod 2^32) + cy * 2^32 + H' * 2^32     (mod 2^64)
 *     = L + H' * 2^32.
 * The rewrite gives that one add; InstCombine (run after this) then folds
 * the address arithmetic as 64-bit arithmetic. The halves themselves stay
 * for their other uses (dead ones go). Writes under a known-full EXEC are
 * `select i1 true, new, old` until InstCombine runs: they are looked
 * through. */
#include <string.h>

#include "pass.h"
#include "passes.h"
#include "ir/wave_ir.h"

typedef struct a64 {
    LLVMBuilderRef b;
    LLVMTypeRef i32, i64;
    int dry; /* only say whether it folds: build nothing */
} a64;

/* v, or the operand a select on a constant condition always gives */
static LLVMValueRef strip(LLVMValueRef v)
{
    for (int i = 0; i < 8 && wl_fold_is_op(v, LLVMSelect); i++) {
        LLVMValueRef c = LLVMGetOperand(v, 0);
        if (!LLVMIsAConstantInt(c))
            break;
        v = LLVMGetOperand(v, LLVMConstIntGetZExtValue(c) ? 1 : 2);
    }
    return v;
}

/* An upper bound of the unsigned value of v (i64 or narrower). */
static uint64_t upper(LLVMValueRef v, int depth)
{
    unsigned w = wl_fold_width(v);
    if (!w || w > 64)
        return UINT64_MAX;
    uint64_t all = w == 64 ? UINT64_MAX : (1ull << w) - 1;
    if (LLVMIsAConstantInt(v))
        return LLVMConstIntGetZExtValue(v);
    if (!LLVMIsAInstruction(v) || depth > 8)
        return all;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMZExt: {
        unsigned s = wl_fold_width(LLVMGetOperand(v, 0));
        uint64_t u = upper(LLVMGetOperand(v, 0), depth + 1);
        return s && s < 64 && u > (1ull << s) - 1 ? (1ull << s) - 1 : u;
    }
    case LLVMAdd: {
        uint64_t x = upper(LLVMGetOperand(v, 0), depth + 1), y = upper(LLVMGetOperand(v, 1), depth + 1);
        return x > all - y || y > all ? all : x + y;
    }
    case LLVMAnd: {
        uint64_t x = upper(LLVMGetOperand(v, 0), depth + 1), y = upper(LLVMGetOperand(v, 1), depth + 1);
        return x < y ? x : y;
    }
    case LLVMLShr: {
        LLVMValueRef c = LLVMGetOperand(v, 1);
        if (!LLVMIsAConstantInt(c) || LLVMConstIntGetZExtValue(c) >= w)
            return all;
        return upper(LLVMGetOperand(v, 0), depth + 1) >> LLVMConstIntGetZExtValue(c);
    }
    case LLVMSelect: {
        uint64_t x = upper(LLVMGetOperand(v, 1), depth + 1), y = upper(LLVMGetOperand(v, 2), depth + 1);
        return x > y ? x : y;
    }
    default:
        return all;
    }
}

/* The i64 value x when v is trunc(x) to i32 (selects on constants looked
 * through) */
static LLVMValueRef trunc_of(LLVMValueRef v)
{
    v = strip(v);
    if (!wl_fold_is_op(v, LLVMTrunc) || wl_fold_width(v) != 32)
        return NULL;
    LLVMValueRef x = LLVMGetOperand(v, 0);
    return wl_fold_width(x) == 64 ? x : NULL;
}

/* L when v is zext(lo) with lo = trunc L */
static LLVMValueRef low_sum(LLVMValueRef v)
{
    if (!wl_fold_is_op(v, LLVMZExt) || wl_fold_width(LLVMGetOperand(v, 0)) != 32)
        return NULL;
    return trunc_of(LLVMGetOperand(v, 0));
}

/* H when v is shl(zext(hi), 32) with hi = trunc H */
static LLVMValueRef high_sum(LLVMValueRef v)
{
    if (!wl_fold_is_op(v, LLVMShl) || !wl_fold_is_const(LLVMGetOperand(v, 1), 32))
        return NULL;
    LLVMValueRef z = LLVMGetOperand(v, 0);
    if (!wl_fold_is_op(z, LLVMZExt) || wl_fold_width(LLVMGetOperand(z, 0)) != 32)
        return NULL;
    return trunc_of(LLVMGetOperand(z, 0));
}

/* Is v zext(icmp ugt L, 0xffffffff) (the carry of L)? */
static int is_carry(LLVMValueRef v, LLVMValueRef L)
{
    if (!wl_fold_is_op(v, LLVMZExt))
        return 0;
    LLVMValueRef c = strip(LLVMGetOperand(v, 0));
    return c && LLVMIsAICmpInst(c) && LLVMGetICmpPredicate(c) == LLVMIntUGT && LLVMGetOperand(c, 0) == L &&
           wl_fold_is_const(LLVMGetOperand(c, 1), 0xffffffffu);
}

/* H with the carry term of L taken out of its add tree, or NULL when H has
 * no such term. New adds are built at the builder's place. */
static LLVMValueRef without_carry(a64 *A, LLVMValueRef H, LLVMValueRef L, int depth)
{
    if (!wl_fold_is_op(H, LLVMAdd) || depth > 4)
        return NULL;
    LLVMValueRef x = LLVMGetOperand(H, 0), y = LLVMGetOperand(H, 1);
    if (is_carry(y, L))
        return x;
    if (is_carry(x, L))
        return y;
    LLVMValueRef r = without_carry(A, x, L, depth + 1);
    if (r)
        return A->dry ? r : LLVMBuildAdd(A->b, r, y, "");
    r = without_carry(A, y, L, depth + 1);
    return r && !A->dry ? LLVMBuildAdd(A->b, x, r, "") : r;
}

/* x when v is zext(x) of an i32 x */
static LLVMValueRef zext32(LLVMValueRef v)
{
    return wl_fold_is_op(v, LLVMZExt) && wl_fold_width(LLVMGetOperand(v, 0)) == 32 ? LLVMGetOperand(v, 0) : NULL;
}

/* X when lo = trunc X and hi = trunc(X >> 32) (an i64 X split in halves) */
static LLVMValueRef whole64(LLVMValueRef lo, LLVMValueRef hi)
{
    LLVMValueRef X = trunc_of(lo), Y = trunc_of(hi);
    if (!X || !Y || !wl_fold_is_op(Y, LLVMLShr) || LLVMGetOperand(Y, 0) != X || !wl_fold_is_const(LLVMGetOperand(Y, 1), 32))
        return NULL;
    return X;
}

/* The register pair hi:lo as an i64: zext(x) << s where lo = x << s and
 * hi = x >> (32 - s) (a 64-bit shift of a 32-bit value, as the lifter
 * writes v_lshlrev_b64 of a zero-extended index), X where the halves are
 * those of one i64 X, zext(lo) where hi is 0,
 * else zext lo | zext hi << 32. */
static LLVMValueRef pair64(a64 *A, LLVMValueRef lo, LLVMValueRef hi)
{
    lo = strip(lo);
    hi = strip(hi);
    LLVMValueRef X = whole64(lo, hi);
    if (X)
        return X;
    if (wl_fold_is_const(hi, 0))
        return LLVMBuildZExt(A->b, lo, A->i64, "");
    if (wl_fold_is_op(lo, LLVMShl) && wl_fold_is_op(hi, LLVMLShr) && LLVMGetOperand(lo, 0) == LLVMGetOperand(hi, 0)) {
        LLVMValueRef s = LLVMGetOperand(lo, 1), t = LLVMGetOperand(hi, 1);
        if (LLVMIsAConstantInt(s) && LLVMIsAConstantInt(t) && LLVMConstIntGetZExtValue(s) >= 1 &&
            LLVMConstIntGetZExtValue(s) <= 31 && LLVMConstIntGetZExtValue(t) == 32 - LLVMConstIntGetZExtValue(s))
            return LLVMBuildShl(A->b, LLVMBuildZExt(A->b, LLVMGetOperand(lo, 0), A->i64, ""),
                                LLVMConstInt(A->i64, LLVMConstIntGetZExtValue(s), 0), "");
    }
    return LLVMBuildOr(A->b, LLVMBuildZExt(A->b, lo, A->i64, ""),
                       LLVMBuildShl(A->b, LLVMBuildZExt(A->b, hi, A->i64, ""), LLVMConstInt(A->i64, 32, 0), ""),
                       "");
}

/* One pairing (a with c, b with d, or a with d, b with c: both are exact,
 * the sum is the same) where a pair simplifies: a 64-bit shift of one
 * value or a zero high half. */
static int pairs_simplify(LLVMValueRef lo, LLVMValueRef hi)
{
    lo = strip(lo);
    hi = strip(hi);
    return wl_fold_is_const(hi, 0) || whole64(lo, hi) ||
           (wl_fold_is_op(lo, LLVMShl) && wl_fold_is_op(hi, LLVMLShr) && LLVMGetOperand(lo, 0) == LLVMGetOperand(hi, 0));
}

/* L + (H' << 32) at the builder's place, or NULL (nothing built). Where
 * L = zext a + zext b and H' = zext c + zext d (all i32), the sum is that
 * of the two register pairs, c:a + d:b (exact: zext a + (zext c << 32) is
 * the pair, its halves do not overlap), and a pair that is one 64-bit
 * value (pair64) folds away: the address arithmetic becomes one 64-bit add
 * of the base and the scaled index. */
static LLVMValueRef sum_of(a64 *A, LLVMValueRef L, LLVMValueRef H)
{
    if (!L || !H || upper(L, 0) >= (1ull << 33))
        return NULL;
    LLVMValueRef Hr = without_carry(A, H, L, 0);
    if (!Hr || A->dry)
        return Hr ? L : NULL;
    if (wl_fold_is_op(L, LLVMAdd) && wl_fold_is_op(Hr, LLVMAdd)) {
        LLVMValueRef a = zext32(LLVMGetOperand(L, 0)), b = zext32(LLVMGetOperand(L, 1));
        LLVMValueRef c = zext32(LLVMGetOperand(Hr, 0)), d = zext32(LLVMGetOperand(Hr, 1));
        if (a && b && c && d) {
            if (!pairs_simplify(a, c) && !pairs_simplify(b, d)) {
                LLVMValueRef t = c; /* the other pairing */
                c = d;
                d = t;
            }
            if (pairs_simplify(a, c) || pairs_simplify(b, d))
                return LLVMBuildAdd(A->b, pair64(A, a, c), pair64(A, b, d), "");
        }
    }
    return LLVMBuildAdd(A->b, L, LLVMBuildShl(A->b, Hr, LLVMConstInt(A->i64, 32, 0), ""), "");
}

LLVMValueRef wl_fold_add64_pair(LLVMBuilderRef b, LLVMValueRef lo, LLVMValueRef hi)
{
    LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(lo));
    a64 A = {b, LLVMInt32TypeInContext(ctx), LLVMInt64TypeInContext(ctx), !b};
    if (wl_fold_width(lo) != 32 || wl_fold_width(hi) != 32)
        return NULL;
    return sum_of(&A, trunc_of(lo), trunc_of(hi));
}

static int try_fold(a64 *A, LLVMValueRef I)
{
    if (!wl_fold_is_op(I, LLVMOr) || wl_fold_width(I) != 64)
        return 0;
    LLVMValueRef p = LLVMGetOperand(I, 0), q = LLVMGetOperand(I, 1);
    LLVMValueRef L = low_sum(p), H = high_sum(q);
    if (!L || !H) {
        L = low_sum(q);
        H = high_sum(p);
    }
    LLVMPositionBuilderBefore(A->b, I);
    LLVMValueRef r = sum_of(A, L, H);
    if (!r)
        return 0;
    LLVMReplaceAllUsesWith(I, r);
    LLVMInstructionEraseFromParent(I);
    return 1;
}

static unsigned fold_add64(LLVMModuleRef m)
{
    LLVMValueRef fn = m ? LLVMGetNamedFunction(m, WL_WIR_FUNCTION) : NULL;
    if (!fn || LLVMIsDeclaration(fn))
        return 0;
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    a64 A = {LLVMCreateBuilderInContext(ctx), LLVMInt32TypeInContext(ctx), LLVMInt64TypeInContext(ctx), 0};
    unsigned count = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef I = LLVMGetFirstInstruction(bb);
        while (I) {
            LLVMValueRef next = LLVMGetNextInstruction(I);
            count += (unsigned)try_fold(&A, I);
            I = next;
        }
    }
    LLVMDisposeBuilder(A.b);
    return count;
}

/* the pass (passes.h) */
int wl_opt_fold_add64(wl_pass_ctx *P, unsigned arg)
{
    (void)arg;
    return (int)fold_add64(P->m);
}
