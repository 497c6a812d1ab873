/* Subgroup reductions built from shuffles (docs/lanes.md, "Optimization"):
 * the lanes model at k = 1 (S = W), -O2.
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
#include <string.h>

#include <llvm-c/Core.h>

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

/* shuffle(y, idx) as one operand of a step and y the other */
static int step_of(LLVMValueRef sh, LLVMValueRef other, LLVMValueRef *idx)
{
    if (!callee_is(sh, "spv.subgroup.shuffle") || LLVMGetNumArgOperands(sh) != 2 || LLVMGetOperand(sh, 0) != other)
        return 0;
    *idx = LLVMGetOperand(sh, 1);
    return 1;
}

/* Whether the steps (indices idx[0..n), first step first) leave in lane
 * c every lane's x0 exactly once (idempotent: at least once). */
static int covers(LLVMValueRef *idx, unsigned n, unsigned S, unsigned c, int idempotent)
{
    uint16_t cnt[MAX_S][MAX_S], nxt[MAX_S][MAX_S];
    unsigned at[MAX_STEPS][MAX_S];
    for (unsigned k = 0; k < n; k++)
        for (unsigned p = 0; p < S; p++) {
            uint64_t q;
            if (!eval(idx[k], p, 0, &q) || q >= S)
                return 0;
            at[k][p] = (unsigned)q;
        }
    memset(cnt, 0, sizeof cnt);
    for (unsigned p = 0; p < S; p++)
        cnt[p][p] = 1;
    for (unsigned k = 0; k < n; k++) {
        for (unsigned p = 0; p < S; p++)
            for (unsigned q = 0; q < S; q++)
                nxt[p][q] = (uint16_t)(cnt[p][q] + cnt[at[k][p]][q]);
        memcpy(cnt, nxt, sizeof cnt);
    }
    for (unsigned q = 0; q < S; q++)
        if (idempotent ? cnt[c][q] == 0 : cnt[c][q] != 1)
            return 0;
    return 1;
}

/* The chain ending in shuffle call f at a constant lane: replaced where it
 * is a reduction. 1 when replaced. */
static int try_chain(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef f, unsigned S)
{
    LLVMValueRef cv = LLVMGetOperand(f, 1);
    if (!LLVMIsAConstantInt(cv) || LLVMConstIntGetZExtValue(cv) >= S)
        return 0;
    unsigned c = (unsigned)LLVMConstIntGetZExtValue(cv);
    LLVMValueRef x = LLVMGetOperand(f, 0), idx[MAX_STEPS], chain[2 * MAX_STEPS];
    red_op op = R_NONE;
    unsigned n = 0;
    while (n < MAX_STEPS) {
        LLVMValueRef a, bb, i, op_inst = x;
        red_op o = op_of(x, &a, &bb);
        if (o == R_NONE || (op != R_NONE && o != op))
            break;
        if (step_of(a, bb, &i))
            x = bb;
        else if (step_of(bb, a, &i))
            x = a;
        else
            break;
        op = o;
        chain[2 * n] = x == a ? bb : a; /* the shuffle */
        chain[2 * n + 1] = op_inst;
        idx[n++] = i;
    }
    if (!n || LLVMTypeOf(x) != LLVMTypeOf(f))
        return 0;
    /* the steps were found last first */
    for (unsigned k = 0; k < n / 2; k++) {
        LLVMValueRef t = idx[k];
        idx[k] = idx[n - 1 - k];
        idx[n - 1 - k] = t;
    }
    int idempotent = op == R_AND || op == R_OR || op == R_UMIN || op == R_UMAX || op == R_SMIN || op == R_SMAX;
    if (!covers(idx, n, S, c, idempotent))
        return 0;
    char name[64];
    LLVMTypeRef t = LLVMTypeOf(x);
    snprintf(name, sizeof name, "spv.subgroup.%s.i%u", red_names[op], LLVMGetIntTypeWidth(t));
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    LLVMTypeRef params[2] = {t, i32};
    LLVMTypeRef fty = LLVMFunctionType(t, params, 2, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(m, name);
    if (!fn)
        fn = LLVMAddFunction(m, name, fty);
    LLVMPositionBuilderBefore(b, f);
    LLVMValueRef args[2] = {x, LLVMConstInt(i32, 0, 0)}; /* 0: reduce */
    LLVMValueRef r = LLVMBuildCall2(b, fty, fn, args, 2, "reduce");
    LLVMReplaceAllUsesWith(f, r);
    LLVMInstructionEraseFromParent(f);
    /* the steps nothing else uses (the shuffles are not known to be free
     * of effects, so LLVM would keep them): the last step first */
    for (unsigned k = 0; k < n; k++) {
        LLVMValueRef s = chain[2 * k + 1], sh = chain[2 * k];
        if (LLVMGetFirstUse(s))
            break;
        LLVMInstructionEraseFromParent(s);
        if (!LLVMGetFirstUse(sh))
            LLVMInstructionEraseFromParent(sh);
    }
    return 1;
}

int wl_opt_subgroup_reduce(wl_pass_ctx *P, unsigned arg)
{
    (void)arg;
    unsigned S = P->subgroup_size;
    if (P->li.lanes_per_invocation != 1 || S < 4 || S > MAX_S)
        return 0;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(P->m));
    int changed = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(P->m); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;) {
                LLVMValueRef next = LLVMGetNextInstruction(I);
                if (callee_is(I, "spv.subgroup.shuffle") && LLVMGetNumArgOperands(I) == 2 &&
                    LLVMGetTypeKind(LLVMTypeOf(I)) == LLVMIntegerTypeKind)
                    changed |= try_chain(P->m, b, I, S);
                I = next;
            }
    LLVMDisposeBuilder(b);
    return changed;
}
