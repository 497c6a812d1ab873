/* Subgroup reductions built from shuffles (docs/lanes.md, "Optimization"):
 * the lanes model (any k: a tree is over the host subgroup's
 * invocations, so with k lanes an invocation it is over one lane clone's
 * S lanes, and a tree mixing two clones has two leaves and is left), -O2.
 *
 * Compilers build a wave's reduction from cross-lane steps: ACO's
 * subgroupAdd is DPP quad_perm [1,0,3,2] and [2,3,0,1], row_half_mirror,
 * row_mirror, v_permlanex16, then v_readlane of the last lane. Lifted, each
 * step is x' = op(shuffle(x, i(p)), x), p the invocation's place in the
 * subgroup, and the result a shuffle at a constant lane c. Where every
 * step's index is a function of p alone and the steps bring every lane's
 * x0 into lane c's value exactly once (for add, mul and xor; at least once
 * for and, or, min and max), the value at c is the subgroup's reduction
 * of x0, whatever the order: the integer operations are associative and
 * commutative. The shuffle at c is then replaced by one
 * OpGroupNonUniform<op> Reduce of x0; the steps go where nothing else
 * uses them. In the lanes model every invocation of a subgroup follows
 * the wave's (uniform) control flow, so the reduction and the shuffles
 * see the same invocations.
 *
 * The indices are evaluated at each p (an interpreter of the integer
 * instructions on constants and spv.subgroup_local_invocation_id), the
 * steps simulated on a count of each lane's contributions per lane.
 * Float operations are left alone: their order matters. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "ir/ptrmap.h"
#include "llvm-passes/pass.h"
#include "llvm-passes/passes.h"

#define MAX_STEPS 8
#define MAX_S 64

typedef enum red_op { R_NONE, R_ADD, R_MUL, R_AND, R_OR, R_XOR, R_UMIN, R_UMAX, R_SMIN, R_SMAX } red_op;

static const char *const red_names[] = {"", "iadd", "imul", "and", "or", "xor", "umin", "umax", "smin", "smax"};

static int callee_is(LLVMValueRef v, const char *name)
{
    if (!LLVMIsACallInst(v))
        return 0;
    LLVMValueRef f = LLVMGetCalledValue(v);
    if (!f || !LLVMIsAFunction(f))
        return 0;
    size_t n;
    const char *s = LLVMGetValueName2(f, &n);
    size_t l = strlen(name);
    return n >= l && !memcmp(s, name, l) && (n == l || s[l] == '.');
}

/* The operation of v (a two-operand integer op), its operands in a, b. */
static red_op op_of(LLVMValueRef v, LLVMValueRef *a, LLVMValueRef *b)
{
    if (LLVMIsABinaryOperator(v)) {
        *a = LLVMGetOperand(v, 0);
        *b = LLVMGetOperand(v, 1);
        switch (LLVMGetInstructionOpcode(v)) {
        case LLVMAdd: return R_ADD;
        case LLVMMul: return R_MUL;
        case LLVMAnd: return R_AND;
        case LLVMOr: return R_OR;
        case LLVMXor: return R_XOR;
        default: return R_NONE;
        }
    }
    static const struct {
        const char *name;
        red_op op;
    } mm[] = {{"llvm.umin", R_UMIN}, {"llvm.umax", R_UMAX}, {"llvm.smin", R_SMIN}, {"llvm.smax", R_SMAX}};
    for (size_t i = 0; i < sizeof mm / sizeof mm[0]; i++)
        if (callee_is(v, mm[i].name) && LLVMGetNumArgOperands(v) == 2) {
            *a = LLVMGetOperand(v, 0);
            *b = LLVMGetOperand(v, 1);
            return mm[i].op;
        }
    return R_NONE;
}

static uint64_t mask_of(LLVMTypeRef t)
{
    unsigned w = LLVMGetIntTypeWidth(t);
    return w >= 64 ? ~0ull : (1ull << w) - 1;
}

static int64_t sext(uint64_t x, unsigned w)
{
    return w >= 64 ? (int64_t)x : (int64_t)(x << (64 - w)) >> (64 - w);
}

/* v evaluated at subgroup place p: 1 and *out, or 0 where it depends on
 * anything but p and constants. */
static int eval(LLVMValueRef v, uint64_t p, unsigned depth, uint64_t *out)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(t) > 64 || depth > 24)
        return 0;
    unsigned w = LLVMGetIntTypeWidth(t);
    uint64_t m = mask_of(t);
    if (LLVMIsAConstantInt(v)) {
        *out = LLVMConstIntGetZExtValue(v) & m;
        return 1;
    }
    if (callee_is(v, "spv.subgroup_local_invocation_id")) {
        *out = p & m;
        return 1;
    }
    if (!LLVMIsAInstruction(v))
        return 0;
    LLVMOpcode oc = LLVMGetInstructionOpcode(v);
    uint64_t a = 0, b = 0, c = 0;
    switch (oc) {
    case LLVMAnd: case LLVMOr: case LLVMXor: case LLVMAdd: case LLVMSub: case LLVMMul:
    case LLVMShl: case LLVMLShr: case LLVMAShr:
        if (!eval(LLVMGetOperand(v, 0), p, depth + 1, &a) || !eval(LLVMGetOperand(v, 1), p, depth + 1, &b))
            return 0;
        switch (oc) {
        case LLVMAnd: *out = a & b; break;
        case LLVMOr: *out = a | b; break;
        case LLVMXor: *out = a ^ b; break;
        case LLVMAdd: *out = (a + b) & m; break;
        case LLVMSub: *out = (a - b) & m; break;
        case LLVMMul: *out = (a * b) & m; break;
        default:
            if (b >= w)
                return 0; /* poison */
            *out = oc == LLVMShl ? (a << b) & m : oc == LLVMLShr ? a >> b : (uint64_t)(sext(a, w) >> b) & m;
        }
        return 1;
    case LLVMZExt: case LLVMSExt: case LLVMTrunc: {
        LLVMValueRef x = LLVMGetOperand(v, 0);
        if (!eval(x, p, depth + 1, &a))
            return 0;
        unsigned xw = LLVMGetIntTypeWidth(LLVMTypeOf(x));
        *out = (oc == LLVMSExt ? (uint64_t)sext(a, xw) : a) & m;
        return 1;
    }
    case LLVMSelect:
        if (!eval(LLVMGetOperand(v, 0), p, depth + 1, &c))
            return 0;
        return eval(LLVMGetOperand(v, c ? 1 : 2), p, depth + 1, out);
    case LLVMICmp: {
        LLVMValueRef x = LLVMGetOperand(v, 0);
        if (!eval(x, p, depth + 1, &a) || !eval(LLVMGetOperand(v, 1), p, depth + 1, &b))
            return 0;
        unsigned xw = LLVMGetIntTypeWidth(LLVMTypeOf(x));
        int64_t sa = sext(a, xw), sb = sext(b, xw);
        switch (LLVMGetICmpPredicate(v)) {
        case LLVMIntEQ: *out = a == b; break;
        case LLVMIntNE: *out = a != b; break;
        case LLVMIntULT: *out = a < b; break;
        case LLVMIntULE: *out = a <= b; break;
        case LLVMIntUGT: *out = a > b; break;
        case LLVMIntUGE: *out = a >= b; break;
        case LLVMIntSLT: *out = sa < sb; break;
        case LLVMIntSLE: *out = sa <= sb; break;
        case LLVMIntSGT: *out = sa > sb; break;
        case LLVMIntSGE: *out = sa >= sb; break;
        default: return 0;
        }
        return 1;
    }
    default:
        return 0;
    }
}

/* ---- the contributions of each lane ------------------------------------------
 *
 * A node of the data tree below a root: x0 (the one leaf), a shuffle of a
 * node, the operation of two nodes, a select of two nodes on a condition
 * of p alone, or the operation's identity. Its value at lane p is the
 * operation over a multiset of x0's lanes: cnt[q] times lane q. Evaluated
 * per lane and lazily (a select's condition first), so a branch no lane
 * takes may hold anything. */

#define MAX_NODES 96

typedef struct node {
    LLVMValueRef v;
    uint8_t state[MAX_S];    /* 0 not yet, 1 done, 2 fails */
    uint8_t cnt[MAX_S][MAX_S];
} node;

typedef struct tree {
    red_op op;
    unsigned S;
    LLVMValueRef leaf;       /* x0, once met */
    node *nodes;
    unsigned n;
} tree;

static int is_identity(red_op op, LLVMValueRef v)
{
    if (!LLVMIsAConstantInt(v))
        return 0;
    uint64_t m = mask_of(LLVMTypeOf(v)), c = LLVMConstIntGetZExtValue(v) & m;
    unsigned w = LLVMGetIntTypeWidth(LLVMTypeOf(v));
    switch (op) {
    case R_ADD: case R_OR: case R_XOR: case R_UMAX: return c == 0;
    case R_MUL: return c == 1;
    case R_AND: case R_UMIN: return c == m;
    case R_SMIN: return c == (m >> 1);               /* the largest signed */
    case R_SMAX: return c == ((m >> 1) ^ m) && w > 1; /* the smallest */
    default: return 0;
    }
}

static node *node_of(tree *t, LLVMValueRef v)
{
    for (unsigned i = 0; i < t->n; i++)
        if (t->nodes[i].v == v)
            return &t->nodes[i];
    if (t->n == MAX_NODES)
        return NULL;
    node *n = &t->nodes[t->n++];
    memset(n, 0, sizeof *n);
    n->v = v;
    return n;
}

/* cnt of v at lane p (1), or 0 where v is not such a tree */
static int lane_cnt(tree *t, LLVMValueRef v, unsigned p, uint8_t out[MAX_S], unsigned depth)
{
    if (depth > 3 * MAX_NODES)
        return 0;
    if (LLVMTypeOf(v) != LLVMTypeOf(t->leaf ? t->leaf : v))
        return 0;
    if (LLVMIsAConstantInt(v)) {
        if (!is_identity(t->op, v))
            return 0;
        memset(out, 0, t->S);
        return 1;
    }
    node *n = node_of(t, v);
    if (!n)
        return 0;
    if (n->state[p] == 1) {
        memcpy(out, n->cnt[p], t->S);
        return 1;
    }
    if (n->state[p] == 2)
        return 0;
    n->state[p] = 2; /* a cycle fails */
    uint8_t a[MAX_S], b[MAX_S];
    LLVMValueRef x, y;
    uint64_t sel = 0;
    red_op o = op_of(v, &x, &y);
    int ok = 0;
    if (v == t->leaf) {
        memset(out, 0, t->S);
        out[p] = 1;
        ok = 1;
    } else if (callee_is(v, "spv.subgroup.shuffle") && LLVMGetNumArgOperands(v) == 2) {
        uint64_t q;
        ok = eval(LLVMGetOperand(v, 1), p, 0, &q) && q < t->S &&
             lane_cnt(t, LLVMGetOperand(v, 0), (unsigned)q, out, depth + 1);
    } else if (o != R_NONE && o == t->op) {
        ok = lane_cnt(t, x, p, a, depth + 1) && lane_cnt(t, y, p, b, depth + 1);
        for (unsigned q = 0; ok && q < t->S; q++) {
            unsigned s = (unsigned)a[q] + b[q];
            ok = s < 200;
            out[q] = (uint8_t)s;
        }
    } else if (LLVMIsAInstruction(v) && LLVMGetInstructionOpcode(v) == LLVMSelect &&
               eval(LLVMGetOperand(v, 0), p, 0, &sel)) {
        ok = lane_cnt(t, LLVMGetOperand(v, sel ? 1 : 2), p, out, depth + 1);
    } else if (!t->leaf) { /* the first value of no other kind is x0 (a select on data too) */
        t->leaf = v;
        memset(out, 0, t->S);
        out[p] = 1;
        ok = 1;
    }
    if (ok) {
        memcpy(n->cnt[p], out, t->S);
        n->state[p] = 1;
    }
    return ok;
}

/* What the counts of every lane make of the root: 0 nothing known; 1 the
 * reduction at lane c (c < S), 1 too where every lane holds it; 2 an
 * inclusive scan; 3 an exclusive one. */
static int classify(tree *t, LLVMValueRef root, int at_lane, unsigned c, int idempotent)
{
    uint8_t cnt[MAX_S];
    int red_all = 1, incl = 1, excl = 1;
    for (unsigned p = 0; p < t->S; p++) {
        if (at_lane >= 0 && p != c)
            continue;
        if (!lane_cnt(t, root, p, cnt, 0))
            return 0;
        for (unsigned q = 0; q < t->S; q++) {
            int one = idempotent ? cnt[q] >= 1 : cnt[q] == 1;
            red_all &= one;
            incl &= q <= p ? one : cnt[q] == 0;
            excl &= q < p ? one : cnt[q] == 0;
        }
    }
    if (!t->leaf)
        return 0;
    if (red_all)
        return 1;
    if (at_lane >= 0)
        return 0;
    return incl ? 2 : excl ? 3 : 0;
}

/* Erases v where nothing uses it, then what it used that is left unused
 * (a shuffle is not known to be free of effects, so LLVM would keep it):
 * a worklist, each value erased once (an operand may be met twice). */
static void erase_dead(LLVMValueRef root)
{
    LLVMValueRef work[4 * MAX_NODES];
    unsigned n = 0;
    wl_ptrmap erased = {0};
    work[n++] = root;
    while (n) {
        LLVMValueRef v = work[--n];
        if (wl_ptrmap_has(&erased, v) || !LLVMIsAInstruction(v) || LLVMGetFirstUse(v))
            continue;
        if (LLVMIsACallInst(v) ? !(callee_is(v, "spv.subgroup.shuffle") || callee_is(v, "llvm.umin") ||
                                   callee_is(v, "llvm.umax") || callee_is(v, "llvm.smin") || callee_is(v, "llvm.smax"))
                               : !LLVMIsABinaryOperator(v) && LLVMGetInstructionOpcode(v) != LLVMSelect)
            continue;
        unsigned k = (unsigned)LLVMGetNumOperands(v);
        for (unsigned i = 0; i < k && n < sizeof work / sizeof work[0]; i++)
            if (LLVMIsAInstruction(LLVMGetOperand(v, i)))
                work[n++] = LLVMGetOperand(v, i);
        if (!wl_ptrmap_put(&erased, v, 1))
            break; /* out of memory: the rest stays (dead but harmless) */
        LLVMInstructionEraseFromParent(v);
    }
    wl_ptrmap_free(&erased);
}

/* The operation of v, or of the first operation under its selects' true
 * sides (a step under a select: select(c, op(shuffle, x), x)) */
static red_op op_below(LLVMValueRef v)
{
    LLVMValueRef a, b;
    for (unsigned d = 0; d < 8 && LLVMIsAInstruction(v); d++) {
        red_op op = op_of(v, &a, &b);
        if (op != R_NONE || LLVMGetInstructionOpcode(v) != LLVMSelect)
            return op;
        v = LLVMGetOperand(v, 1);
    }
    return R_NONE;
}

/* Whether a shuffle lies in v's tree of op (operations op and selects
 * below v, at most *budget values looked at): most candidate roots are
 * plain arithmetic, and this is far cheaper than evaluating every lane. */
static int reaches_shuffle(LLVMValueRef v, red_op op, unsigned *budget)
{
    if (!*budget || !LLVMIsAInstruction(v))
        return 0;
    --*budget;
    if (callee_is(v, "spv.subgroup.shuffle"))
        return 1;
    LLVMValueRef a, b;
    if (op_of(v, &a, &b) == op)
        return reaches_shuffle(a, op, budget) || reaches_shuffle(b, op, budget);
    if (LLVMGetInstructionOpcode(v) == LLVMSelect)
        return reaches_shuffle(LLVMGetOperand(v, 1), op, budget) || reaches_shuffle(LLVMGetOperand(v, 2), op, budget);
    return 0;
}

/* root: a shuffle at a constant lane (at_lane), or an op or select whose
 * value is a scan or every lane's reduction. 1 when replaced. */
static int try_root(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef root, unsigned S, node *scratch)
{
    int at_lane = -1;
    unsigned c = 0;
    LLVMValueRef v = root;
    if (callee_is(root, "spv.subgroup.shuffle")) {
        LLVMValueRef cv = LLVMGetOperand(root, 1);
        if (!LLVMIsAConstantInt(cv) || LLVMConstIntGetZExtValue(cv) >= S)
            return 0;
        c = (unsigned)LLVMConstIntGetZExtValue(cv);
        at_lane = (int)c;
        v = LLVMGetOperand(root, 0);
    }
    red_op op = op_below(v); /* the operation: the first one met below v */
    if (op == R_NONE || LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMIntegerTypeKind)
        return 0;
    unsigned budget = 4 * MAX_NODES;
    if (at_lane < 0 && !reaches_shuffle(v, op, &budget))
        return 0;
    tree t = {op, S, NULL, scratch, 0};
    int idempotent = op == R_AND || op == R_OR || op == R_UMIN || op == R_UMAX || op == R_SMIN || op == R_SMAX;
    int kind = classify(&t, v, at_lane, c, idempotent);
    /* a tree of at least one shuffle: else there is nothing to replace */
    int shuffles = 0;
    for (unsigned i = 0; i < t.n; i++)
        shuffles += callee_is(t.nodes[i].v, "spv.subgroup.shuffle");
    if (!kind || !shuffles || t.leaf == v || LLVMTypeOf(t.leaf) != LLVMTypeOf(root))
        return 0;
    char name[64];
    LLVMTypeRef ty = LLVMTypeOf(t.leaf);
    snprintf(name, sizeof name, "spv.subgroup.%s.i%u", red_names[op], LLVMGetIntTypeWidth(ty));
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    LLVMTypeRef params[2] = {ty, i32};
    LLVMTypeRef fty = LLVMFunctionType(ty, params, 2, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(m, name);
    if (!fn)
        fn = LLVMAddFunction(m, name, fty);
    /* x0 must be available where the root is: it is, as an operand of
     * the tree (a value defined before its uses); place the call at the root */
    LLVMPositionBuilderBefore(b, root);
    LLVMValueRef args[2] = {t.leaf, LLVMConstInt(i32, (unsigned long long)(kind - 1), 0)}; /* 0 reduce, 1, 2 scans */
    LLVMValueRef r = LLVMBuildCall2(b, fty, fn, args, 2, kind == 1 ? "reduce" : "scan");
    LLVMReplaceAllUsesWith(root, r);
    erase_dead(root);
    return 1;
}

int wl_opt_subgroup_reduce(wl_pass_ctx *P, unsigned arg)
{
    (void)arg;
    unsigned S = P->subgroup_size;
    if (!P->li.lanes_per_invocation || S < 4 || S > MAX_S)
        return 0;
    node *scratch = malloc(MAX_NODES * sizeof *scratch);
    if (!scratch)
        return wl_pass_fail(P, WL_ERR_NOMEM, "subgroup-reduce: out of memory");
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(P->m));
    int changed = 0;
    unsigned tries = 0; /* bounded: a block starts again after each replacement */
    for (LLVMValueRef fn = LLVMGetFirstFunction(P->m); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
            /* the roots: shuffles at a constant lane, and the values of
             * the operations and selects whose users are not all of the
             * same tree; the last first, so that a scan's root is met
             * before its inner steps */
            for (LLVMValueRef I = LLVMGetLastInstruction(bb); I;) {
                LLVMValueRef prev = LLVMGetPreviousInstruction(I);
                LLVMValueRef x, y;
                red_op iop = R_NONE;
                int cand = 0;
                if (LLVMGetTypeKind(LLVMTypeOf(I)) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(LLVMTypeOf(I)) > 1) {
                    if (callee_is(I, "spv.subgroup.shuffle") && LLVMGetNumArgOperands(I) == 2)
                        cand = LLVMIsAConstantInt(LLVMGetOperand(I, 1)) != NULL;
                    else if ((iop = op_below(I)) != R_NONE)
                        for (LLVMUseRef u = LLVMGetFirstUse(I); u && !cand; u = LLVMGetNextUse(u)) {
                            LLVMValueRef user = LLVMGetUser(u);
                            red_op uop = op_of(user, &x, &y);
                            cand = !(uop == iop ||
                                     (LLVMIsAInstruction(user) && LLVMGetInstructionOpcode(user) == LLVMSelect) ||
                                     callee_is(user, "spv.subgroup.shuffle"));
                        }
                }
                if (cand && tries++ < 20000 && try_root(P->m, b, I, S, scratch)) {
                    changed = 1;
                    prev = LLVMGetLastInstruction(bb); /* the block changed: again from its end */
                }
                I = prev;
            }
        }
    LLVMDisposeBuilder(b);
    free(scratch);
    return changed;
}
