/* Writes under EXEC whose old value no lane reads (fold.h).
 *
 * The lifter writes a VGPR under EXEC as select(p, new, old) (wave IR rule
 * 2). Where every use of that select is read only in lanes where p holds,
 * the select can be `new`: the lanes where p is false would see `old`, but
 * nothing reads them. After the lanes lowering each such select is one
 * more instruction per clone, and it hides from LLVM the arithmetic it
 * stands in (a 64-bit address built from two halves written under EXEC is
 * a dozen instructions instead of one add).
 *
 * "Read only where p holds" is proved along the uses, keeping a set L of
 * i1 values known true wherever the value being followed matters:
 *   - a wl.load/store/atomic/escape call reads its operands (not its
 *     `active`) only where `active` holds: L gets active's conjuncts;
 *   - select(q, x, y) reads x only where q holds (L gets q's conjuncts) and
 *     y only where q does not (L is kept as it is);
 *   - and i1 (a, b) reads a only where b holds (L gets b's conjuncts);
 *   - any other instruction that works on its own lane alone (arithmetic,
 *     compares, casts, pure intrinsics) reads its operands wherever its
 *     own value is read: the uses are followed with the same L;
 *   - an instruction nothing reads (no side effects, used only by such:
 *     the promoted registers' phis, the ballots of carries no one reads,
 *     until the clean-up passes) reads nothing, lane-crossing or not;
 *   - anything else (another phi, a lane-crossing call, a store, a return)
 *     may read the value anywhere: the select stays, unless L already
 *     holds all of p's conjuncts.
 * A use is fine as soon as L holds every conjunct of p. The values are SSA
 * values followed without phis, so each use reads the instances of p and
 * of L's values that the select saw (each def dominates its use: a newer
 * instance of p would give a path to the use around the select).
 * The same proof turns and i1 (c, p) into c (a carry-out under EXEC read
 * as the next add's carry-in). A budget bounds the walk of each. */
#include <string.h>

#include "pass.h"
#include "passes.h"
#include "lower/context.h"

#define MAX_CONJ 16   /* conjuncts of one predicate followed */
#define MAX_LITS 48   /* values in L */
#define WALK_BUDGET 256
#define MAX_CHAIN 8    /* unread instructions followed in a row */

typedef struct masked_walk {
    LLVMValueRef p[MAX_CONJ]; /* the select's condition as conjuncts */
    unsigned np;
    unsigned budget;
} masked_walk;

/* conjuncts of an i1: and i1 a, b and select i1 a, b, false taken apart */
static unsigned conjuncts(LLVMValueRef v, LLVMValueRef *out, unsigned n, unsigned cap)
{
    if (n >= cap)
        return n;
    if (wl_fold_is_op(v, LLVMAnd) && wl_fold_width(v) == 1) {
        n = conjuncts(LLVMGetOperand(v, 0), out, n, cap);
        return conjuncts(LLVMGetOperand(v, 1), out, n, cap);
    }
    if (wl_fold_is_op(v, LLVMSelect) && wl_fold_width(v) == 1) {
        LLVMValueRef f = LLVMGetOperand(v, 2);
        if (LLVMIsAConstantInt(f) && LLVMConstIntGetZExtValue(f) == 0) {
            n = conjuncts(LLVMGetOperand(v, 0), out, n, cap);
            return conjuncts(LLVMGetOperand(v, 1), out, n, cap);
        }
    }
    for (unsigned i = 0; i < n; i++)
        if (out[i] == v)
            return n;
    out[n] = v;
    return n + 1;
}

/* a and b compute the same i1: the same value, or the same compare or
 * instruction of the same operands (the lane-bit folds make copies) */
static int same_value_at(LLVMValueRef a, LLVMValueRef b, unsigned depth)
{
    if (a == b)
        return 1;
    if (depth > 4)
        return 0;
    if (!LLVMIsAInstruction(a) || !LLVMIsAInstruction(b) || LLVMIsACallInst(a) || LLVMIsAPHINode(a))
        return 0;
    LLVMOpcode op = LLVMGetInstructionOpcode(a);
    int n = LLVMGetNumOperands(a);
    if (op != LLVMGetInstructionOpcode(b) || n != LLVMGetNumOperands(b) || LLVMTypeOf(a) != LLVMTypeOf(b))
        return 0;
    if (op == LLVMICmp && LLVMGetICmpPredicate(a) != LLVMGetICmpPredicate(b))
        return 0;
    if (op == LLVMFCmp && LLVMGetFCmpPredicate(a) != LLVMGetFCmpPredicate(b))
        return 0;
    if (LLVMIsALoadInst(a) || LLVMIsAAllocaInst(a) || LLVMIsAStoreInst(a))
        return 0;
    for (int i = 0; i < n; i++)
        if (!same_value_at(LLVMGetOperand(a, i), LLVMGetOperand(b, i), depth + 1))
            return 0;
    return 1;
}

static int same_value(LLVMValueRef a, LLVMValueRef b)
{
    return same_value_at(a, b, 0);
}

/* v = not x (xor x, true): x; else NULL */
static LLVMValueRef negated(LLVMValueRef v)
{
    if (!wl_fold_is_op(v, LLVMXor) || wl_fold_width(v) != 1)
        return NULL;
    for (int i = 0; i < 2; i++) {
        LLVMValueRef c = LLVMGetOperand(v, !i);
        if (LLVMIsAConstantInt(c) && LLVMConstIntGetZExtValue(c) == 1)
            return LLVMGetOperand(v, i);
    }
    return NULL;
}

/* v = a or b (or i1, select i1 a, true, b) */
static int is_or(LLVMValueRef v, LLVMValueRef *a, LLVMValueRef *b)
{
    if (wl_fold_width(v) != 1)
        return 0;
    if (wl_fold_is_op(v, LLVMOr)) {
        *a = LLVMGetOperand(v, 0), *b = LLVMGetOperand(v, 1);
        return 1;
    }
    if (wl_fold_is_op(v, LLVMSelect)) {
        LLVMValueRef t = LLVMGetOperand(v, 1);
        if (LLVMIsAConstantInt(t) && LLVMConstIntGetZExtValue(t) == 1) {
            *a = LLVMGetOperand(v, 0), *b = LLVMGetOperand(v, 2);
            return 1;
        }
    }
    return 0;
}

static int holds(const LLVMValueRef *lits, unsigned nl, LLVMValueRef v);

/* L with the consequences of (not x or y) and x: y (a compare under EXEC
 * that the lifter wrote as EXEC's complement or the compare) */
static unsigned resolve(LLVMValueRef *lits, unsigned nl)
{
    for (unsigned i = 0; i < nl && nl < MAX_LITS; i++) {
        LLVMValueRef a, b, x;
        if (!is_or(lits[i], &a, &b))
            continue;
        for (int s = 0; s < 2; s++) {
            LLVMValueRef neg = s ? b : a, other = s ? a : b;
            if ((x = negated(neg)) && holds(lits, nl, x))
                nl = conjuncts(other, lits, nl, MAX_LITS);
        }
    }
    return nl;
}

/* L holds every conjunct of p */
static int holds(const LLVMValueRef *lits, unsigned nl, LLVMValueRef v)
{
    for (unsigned j = 0; j < nl; j++)
        if (same_value(lits[j], v))
            return 1;
    return 0;
}

static int implied(const masked_walk *w, LLVMValueRef *lits, unsigned nl)
{
    for (unsigned i = 0; i < w->np; i++)
        if (!holds(lits, nl, w->p[i]))
            return 0;
    return 1;
}

/* pure intrinsics that work on their own lane's operands alone */
static int lane_local_intrinsic(const char *n, size_t len)
{
    static const char *const pre[] = {
        "llvm.fshl.",  "llvm.fshr.",     "llvm.ctpop.",    "llvm.ctlz.",      "llvm.cttz.",
        "llvm.bitreverse.", "llvm.bswap.", "llvm.abs.",    "llvm.smin.",      "llvm.smax.",
        "llvm.umin.",  "llvm.umax.",     "llvm.fma.",      "llvm.fmuladd.",   "llvm.fabs.",
        "llvm.copysign.", "llvm.minnum.", "llvm.maxnum.",  "llvm.minimum.",   "llvm.maximum.",
        "llvm.sqrt.",  "llvm.floor.",    "llvm.ceil.",     "llvm.trunc.",     "llvm.rint.",
        "llvm.nearbyint.", "llvm.round.", "llvm.roundeven.", "llvm.ldexp.",   "llvm.frexp.",
        "llvm.is.fpclass.", "llvm.uadd.with.overflow.", "llvm.usub.with.overflow.",
        "llvm.sadd.with.overflow.", "llvm.ssub.with.overflow.", "llvm.umul.with.overflow.",
        "llvm.smul.with.overflow.", "llvm.uadd.sat.", "llvm.usub.sat.", "llvm.sadd.sat.",
        "llvm.ssub.sat.", "llvm.canonicalize.", "llvm.exp2.", "llvm.log2.", "llvm.sin.", "llvm.cos.",
    };
    for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
        if (wl_lc_prefix(n, len, pre[i]))
            return 1;
    return 0;
}

/* wl.* calls without side effects (wl_opt_fold_prepare marks them so) */
static int pure_wl(const char *n, size_t len)
{
    static const char *const pre[] = {"wl.ballot", "wl.shuffle", "wl.readfirstlane", "wl.lane_active",
                                      "wl.lane_id", "wl.thread_id"};
    for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
        if (wl_lc_prefix(n, len, pre[i]))
            return 1;
    return 0;
}

/* wl.load/store/atomic/escape: the last operand is `active` */
static int predicated_call(const char *n, size_t len)
{
    return wl_lc_prefix(n, len, "wl.load.") || wl_lc_prefix(n, len, "wl.store.") || wl_lc_prefix(n, len, "wl.atomic.") ||
           wl_lc_prefix(n, len, "wl.escape");
}

static int read_only_where_p(masked_walk *w, LLVMValueRef v, LLVMValueRef *lits, unsigned nl);

static int is_ballot(LLVMValueRef v) { return wl_fold_is_call(v, "wl.ballot"); }

static int lane_local_op(LLVMOpcode op);

/* u is a select of a constant condition that does not choose v */
static int unchosen(LLVMValueRef v, LLVMValueRef u)
{
    if (!wl_fold_is_op(u, LLVMSelect) || !LLVMIsAConstantInt(LLVMGetOperand(u, 0)))
        return 0;
    int t = LLVMConstIntGetZExtValue(LLVMGetOperand(u, 0)) != 0;
    return LLVMGetOperand(u, 0) != v && LLVMGetOperand(u, t ? 1 : 2) != v;
}

/* an instruction nothing reads: without side effects, and its uses only
 * instructions like it (dead compares, the ballots of carries no one
 * reads, and the promoted registers' phis stay until the clean-up
 * passes); `chain` holds those being followed: a cycle among them (phis
 * of a loop) reads nothing */
static int unread(masked_walk *w, LLVMValueRef v, LLVMValueRef *chain, unsigned depth)
{
    for (unsigned i = 0; i < depth; i++)
        if (chain[i] == v)
            return 1;
    if (depth == MAX_CHAIN || !w->budget)
        return 0;
    w->budget--;
    if (!LLVMIsAInstruction(v))
        return 0;
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    if (op == LLVMCall) {
        size_t len;
        const char *n = wl_lc_callee(v, &len);
        if (!n || !(pure_wl(n, len) || lane_local_intrinsic(n, len)))
            return 0;
    } else if (op != LLVMPHI && op != LLVMSelect && !lane_local_op(op)) {
        return 0;
    }
    chain[depth] = v;
    for (LLVMUseRef use = LLVMGetFirstUse(v); use; use = LLVMGetNextUse(use))
        if (!unchosen(v, LLVMGetUser(use)) && !unread(w, LLVMGetUser(use), chain, depth + 1))
            return 0;
    return 1;
}

/* conjuncts of "this lane's bit of the mask M is set": those of c for
 * M = ballot(c), both sides' for M = A & B (wave IR rule: ballot(c)'s
 * bit of a lane is that lane's c) */
static unsigned mask_bits(LLVMValueRef M, LLVMValueRef *out, unsigned n, unsigned depth)
{
    if (depth > 6)
        return n;
    if (wl_fold_is_op(M, LLVMAnd)) {
        n = mask_bits(LLVMGetOperand(M, 0), out, n, depth + 1);
        return mask_bits(LLVMGetOperand(M, 1), out, n, depth + 1);
    }
    if (is_ballot(M))
        return conjuncts(LLVMGetOperand(M, 0), out, n, MAX_LITS);
    return n;
}

/* M (a ballot of the value followed, or an and of it with other masks)
 * is read only in the bits of lanes where p holds: through ands with
 * other masks (a lane's bit of the and needs that lane's bit of each) to
 * compares with 0 (which read every bit) */
static int mask_read_only_where_p(masked_walk *w, LLVMValueRef M, LLVMValueRef *lits, unsigned nl)
{
    if (implied(w, lits, nl))
        return 1;
    for (LLVMUseRef use = LLVMGetFirstUse(M); use; use = LLVMGetNextUse(use)) {
        LLVMValueRef u = LLVMGetUser(use);
        if (!w->budget)
            return 0;
        w->budget--;
        LLVMValueRef chain[MAX_CHAIN];
        if (wl_fold_is_op(u, LLVMAnd)) {
            LLVMValueRef mine[MAX_LITS];
            if (nl)
                memcpy(mine, lits, nl * sizeof *lits);
            LLVMValueRef o = LLVMGetOperand(u, LLVMGetOperand(u, 0) == M);
            unsigned n2 = o == M ? nl : resolve(mine, mask_bits(o, mine, nl, 0));
            if (!mask_read_only_where_p(w, u, mine, n2))
                return 0;
        } else if (wl_fold_zero_test(u, M)) {
            if (!implied(w, lits, nl))
                return 0;
        } else if (!unread(w, u, chain, 0)) {
            return 0;
        }
    }
    return 1;
}

/* the use `u` of v is read only where p holds, given L = lits */
static int use_ok(masked_walk *w, LLVMValueRef v, LLVMValueRef u, LLVMValueRef *lits, unsigned nl)
{
    if (!w->budget)
        return 0;
    w->budget--;
    if (!LLVMIsAInstruction(u))
        return 0;
    LLVMValueRef mine[MAX_LITS];
    if (nl)
        memcpy(mine, lits, nl * sizeof *lits);
    LLVMOpcode op = LLVMGetInstructionOpcode(u);
    if (op == LLVMPHI) {
        LLVMValueRef chain[MAX_CHAIN];
        return unread(w, u, chain, 0);
    }
    if (op == LLVMCall) {
        size_t len;
        const char *n = wl_lc_callee(u, &len);
        unsigned na = (unsigned)LLVMGetNumArgOperands(u);
        if (n && predicated_call(n, len) && na) {
            LLVMValueRef act = LLVMGetOperand(u, na - 1);
            if (act == v)
                return 0;
            nl = resolve(mine, conjuncts(act, mine, nl, MAX_LITS));
            return implied(w, mine, nl);
        }
        if (n && lane_local_intrinsic(n, len))
            return read_only_where_p(w, u, mine, nl);
        if (is_ballot(u))
            return mask_read_only_where_p(w, u, mine, nl);
        LLVMValueRef chain[MAX_CHAIN];
        return unread(w, u, chain, 0); /* a lane-crossing call reads every lane */
    }
    if (op == LLVMSelect) {
        LLVMValueRef c = LLVMGetOperand(u, 0);
        if (c == v)
            return 0;
        if (unchosen(v, u))
            return 1;
        if (LLVMGetOperand(u, 1) == v && LLVMGetOperand(u, 2) != v)
            nl = resolve(mine, conjuncts(c, mine, nl, MAX_LITS));
        return read_only_where_p(w, u, mine, nl);
    }
    if (op == LLVMAnd && wl_fold_width(u) == 1) {
        LLVMValueRef a = LLVMGetOperand(u, 0), b = LLVMGetOperand(u, 1);
        if (a == v && b != v)
            nl = resolve(mine, conjuncts(b, mine, nl, MAX_LITS));
        else if (b == v && a != v)
            nl = resolve(mine, conjuncts(a, mine, nl, MAX_LITS));
        return read_only_where_p(w, u, mine, nl);
    }
    return lane_local_op(op) && read_only_where_p(w, u, mine, nl);
}

/* instructions that read their operands in their own lane alone, and
 * wherever their own value is read */
static int lane_local_op(LLVMOpcode op)
{
    switch (op) {
    case LLVMAdd: case LLVMFAdd: case LLVMSub: case LLVMFSub: case LLVMMul: case LLVMFMul:
    case LLVMUDiv: case LLVMSDiv: case LLVMFDiv: case LLVMURem: case LLVMSRem: case LLVMFRem:
    case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMAnd: case LLVMOr: case LLVMXor:
    case LLVMFNeg: case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMFPToUI: case LLVMFPToSI:
    case LLVMUIToFP: case LLVMSIToFP: case LLVMFPTrunc: case LLVMFPExt: case LLVMBitCast:
    case LLVMICmp: case LLVMFCmp: case LLVMExtractValue: case LLVMInsertValue:
    case LLVMExtractElement: case LLVMInsertElement: case LLVMShuffleVector: case LLVMFreeze:
        return 1;
    default:
        return 0;
    }
}

/* every use of v reads it only where p holds, given L = lits */
static int read_only_where_p(masked_walk *w, LLVMValueRef v, LLVMValueRef *lits, unsigned nl)
{
    if (implied(w, lits, nl))
        return 1;
    for (LLVMUseRef use = LLVMGetFirstUse(v); use; use = LLVMGetNextUse(use))
        if (!use_ok(w, v, LLVMGetUser(use), lits, nl))
            return 0;
    return 1;
}

/* v read only where `cond` holds: then `v` can be `by` */
static int bypass(LLVMValueRef v, LLVMValueRef cond, LLVMValueRef by)
{
    if (LLVMGetTypeKind(LLVMTypeOf(cond)) != LLVMIntegerTypeKind || LLVMIsAConstant(cond) || by == v)
        return 0;
    masked_walk w = {.budget = WALK_BUDGET};
    w.np = conjuncts(cond, w.p, 0, MAX_CONJ);
    if (w.np >= MAX_CONJ)
        return 0; /* too many to have them all */
    if (!LLVMGetFirstUse(v) || !read_only_where_p(&w, v, NULL, 0))
        return 0;
    LLVMReplaceAllUsesWith(v, by);
    return 1; /* v itself is left to the clean-up passes */
}

static unsigned fold_masked_selects(LLVMModuleRef m)
{
    unsigned n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
            for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
                if (wl_fold_is_op(i, LLVMSelect)) {
                    n += bypass(i, LLVMGetOperand(i, 0), LLVMGetOperand(i, 1));
                } else if (wl_fold_is_op(i, LLVMAnd) && wl_fold_width(i) == 1) {
                    /* a carry or compare under EXEC: and(c, p) read only where p holds is c */
                    LLVMValueRef a = LLVMGetOperand(i, 0), c = LLVMGetOperand(i, 1);
                    if (!bypass(i, c, a))
                        n += bypass(i, a, c);
                    else
                        n++;
                }
            }
    return n;
}

/* the pass (passes.h) */
int wl_opt_fold_masked_selects(wl_pass_ctx *P, unsigned arg)
{
    (void)arg;
    return (int)fold_masked_selects(P->m);
}
