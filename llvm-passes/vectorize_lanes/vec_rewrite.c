/* The chosen tuples of lane clones as vector instructions (vec_internal.h):
 * each vector after its tuple's last operand, operands through
 * spv.construct (OpCompositeConstruct) or constant vectors, scalar readers
 * through extractelement; then the scalars go. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "vec_internal.h"


static LLVMTypeRef vty(vl *V, LLVMTypeRef t) { return LLVMVectorType(t, V->k); }

/* From pos on: the first original instruction that is no phi (NULL: the
 * block's end). The instructions this pass inserts form runs that end
 * before an original one (mark() keeps it as their `stop`), so a run is
 * passed in one step however long it has grown. */
static LLVMValueRef skip_inserted(vl *V, LLVMValueRef pos)
{
    while (pos) {
        vl_ent *e;
        if (LLVMIsAPHINode(pos))
            pos = LLVMGetNextInstruction(pos);
        else if ((e = wl_vl_get(V, pos)) && e->inserted)
            pos = e->stop;
        else
            break;
    }
    return pos;
}

static void position(vl *V, LLVMBasicBlockRef bb, LLVMValueRef pos)
{
    if (pos)
        LLVMPositionBuilderBefore(V->b, pos);
    else
        LLVMPositionBuilderAtEnd(V->b, bb);
}

/* the builder after instruction I and what this pass put after it (after
 * the phis where I is one; at the entry's first non-phi for
 * non-instructions) */
static void after(vl *V, LLVMValueRef fn, LLVMValueRef I)
{
    if (!I || !LLVMIsAInstruction(I)) {
        LLVMBasicBlockRef bb = LLVMGetEntryBasicBlock(fn);
        position(V, bb, skip_inserted(V, LLVMGetFirstInstruction(bb)));
        return;
    }
    position(V, LLVMGetInstructionParent(I), skip_inserted(V, LLVMGetNextInstruction(I)));
}

static void after_start(vl *V, LLVMBasicBlockRef bb)
{
    position(V, bb, skip_inserted(V, LLVMGetFirstInstruction(bb)));
}

static LLVMValueRef mark(vl *V, LLVMValueRef I)
{
    LLVMValueRef nx = LLVMGetNextInstruction(I);
    vl_ent *n = nx ? wl_vl_get(V, nx) : NULL;
    LLVMValueRef stop = n && n->inserted ? n->stop : nx;
    vl_ent *e = wl_vl_put(V, I);
    if (e) {
        e->inserted = 1;
        e->stop = stop;
    }
    return I;
}

static LLVMValueRef construct(vl *V, LLVMTypeRef et, LLVMValueRef *xs)
{
    char name[64];
    LLVMTypeRef vt = vty(V, et);
    char *ts = LLVMPrintTypeToString(vt);
    snprintf(name, sizeof name, "spv.construct.%s", ts);
    LLVMDisposeMessage(ts);
    for (char *c = name; *c; c++)
        if (*c == ' ' || *c == '<' || *c == '>')
            *c = '_';
    LLVMValueRef f = LLVMGetNamedFunction(V->mod, name);
    LLVMTypeRef ps[VL_MAXK];
    for (unsigned j = 0; j < V->k; j++)
        ps[j] = et;
    LLVMTypeRef ft = LLVMFunctionType(vt, ps, V->k, 0);
    if (!f)
        f = LLVMAddFunction(V->mod, name, ft);
    return mark(V, LLVMBuildCall2(V->b, ft, f, xs, V->k, ""));
}

static LLVMValueRef vec_of(vl *V, LLVMValueRef fn, LLVMValueRef a);

static LLVMValueRef materialize(vl *V, LLVMValueRef fn, int ti)
{
    vl_tuple *t = &V->t[ti];
    if (t->vec)
        return t->vec;
    LLVMValueRef I = t->m[0];
    LLVMOpcode op = LLVMGetInstructionOpcode(I);
    if (op == LLVMPHI) { /* its incoming vectors: fill_phis, once every vector is made */
        LLVMBasicBlockRef bb = LLVMGetInstructionParent(I);
        LLVMPositionBuilderBefore(V->b, LLVMGetFirstInstruction(bb));
        t->vec = mark(V, LLVMBuildPhi(V->b, vty(V, LLVMTypeOf(I)), ""));
        return t->vec;
    }
    int n = LLVMGetNumOperands(I);
    if (op == LLVMCall)
        n--; /* the callee */
    LLVMValueRef ops[4];
    for (int i = 0; i < n && i < 4; i++) {
        LLVMValueRef a = LLVMGetOperand(I, i);
        if (!wl_vl_vector_operand(V, I, i))
            ops[i] = a;
        else
            ops[i] = vec_of(V, fn, a);
    }
    if (t->posi)
        after(V, fn, t->posi);
    else
        after_start(V, LLVMGetInstructionParent(I));
    LLVMValueRef v;
    LLVMTypeRef rt = vty(V, LLVMTypeOf(I));
    switch (op) {
    case LLVMICmp: v = LLVMBuildICmp(V->b, LLVMGetICmpPredicate(I), ops[0], ops[1], ""); break;
    case LLVMFCmp: v = LLVMBuildFCmp(V->b, LLVMGetFCmpPredicate(I), ops[0], ops[1], ""); break;
    case LLVMSelect: v = LLVMBuildSelect(V->b, ops[0], ops[1], ops[2], ""); break;
    case LLVMFNeg: v = LLVMBuildFNeg(V->b, ops[0], ""); break;
    case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMFPTrunc: case LLVMFPExt: case LLVMFPToUI:
    case LLVMFPToSI: case LLVMUIToFP: case LLVMSIToFP: case LLVMBitCast:
        v = LLVMBuildCast(V->b, op, ops[0], rt, "");
        break;
    case LLVMCall: {
        const char *name = wl_vl_vector_intrinsic(I);
        unsigned id = LLVMLookupIntrinsicID(name, strcspn(name + 5, ".") + 5);
        LLVMValueRef f = LLVMGetIntrinsicDeclaration(V->mod, id, &rt, 1);
        LLVMTypeRef ft = LLVMIntrinsicGetType(V->ctx, id, &rt, 1);
        v = LLVMBuildCall2(V->b, ft, f, ops, (unsigned)n, "");
        break;
    }
    default: v = LLVMBuildBinOp(V->b, op, ops[0], ops[1], ""); break;
    }
    t->vec = mark(V, v);
    return v;
}

/* The vector of operand a (of a tuple whose last member is `at`). */
static LLVMValueRef vec_of(vl *V, LLVMValueRef fn, LLVMValueRef a)
{
    int ti = wl_vl_tuple_of(V, a, NULL);
    if (ti >= 0 && V->t[ti].on)
        return materialize(V, fn, ti);
    LLVMTypeRef et = LLVMTypeOf(a);
    if (ti >= 0) {
        vl_tuple *t = &V->t[ti];
        if (!t->built) {
            after(V, fn, wl_vl_last_member(V, t));
            t->built = construct(V, et, t->m);
        }
        return t->built;
    }
    LLVMValueRef xs[VL_MAXK];
    for (unsigned j = 0; j < V->k; j++)
        xs[j] = a;
    if (LLVMIsAConstant(a) && !LLVMIsAGlobalValue(a) && !LLVMIsAConstantExpr(a))
        return LLVMConstVector(xs, V->k);
    vl_ent *e = wl_vl_put(V, a);
    if (!e)
        return LLVMGetUndef(vty(V, et));
    if (!e->splat) {
        after(V, fn, LLVMIsAInstruction(a) ? a : NULL);
        LLVMValueRef s = construct(V, et, xs);
        e = wl_vl_put(V, a); /* the table may have moved */
        if (e)
            e->splat = s;
        return s;
    }
    return e->splat;
}

static void fill_phis(vl *V, LLVMValueRef fn)
{
    for (size_t i = 0; i < V->nt && !V->oom; i++) {
        vl_tuple *t = &V->t[i];
        if (!t->on || !LLVMIsAPHINode(t->m[0]))
            continue;
        unsigned n = LLVMCountIncoming(t->m[0]);
        for (unsigned e = 0; e < n; e++) {
            LLVMBasicBlockRef b = LLVMGetIncomingBlock(t->m[0], e);
            LLVMValueRef xs[VL_MAXK], v;
            for (unsigned j = 0; j < V->k; j++)
                xs[j] = LLVMGetIncomingValue(t->m[j], e);
            int src;
            if (wl_vl_source(V, t, (int)e, &src) != VL_SRC_MIXED) {
                v = vec_of(V, fn, xs[0]);
            } else { /* lanes from elsewhere: put together at the edge */
                LLVMPositionBuilderBefore(V->b, LLVMGetBasicBlockTerminator(b));
                v = construct(V, LLVMTypeOf(xs[0]), xs);
            }
            LLVMAddIncoming(t->vec, &v, &b, 1);
        }
    }
}

void wl_vl_rewrite(vl *V, LLVMValueRef fn)
{
    for (size_t i = 0; i < V->nt && !V->oom; i++)
        if (V->t[i].on)
            materialize(V, fn, (int)i);
    fill_phis(V, fn);
    /* scalar users read the lanes out of the vector */
    LLVMTypeRef i32 = LLVMInt32TypeInContext(V->ctx);
    for (size_t i = 0; i < V->nt; i++) {
        vl_tuple *t = &V->t[i];
        if (!t->on)
            continue;
        for (unsigned j = 0; j < V->k; j++) {
            LLVMValueRef m = t->m[j], ex = NULL;
            LLVMUseRef u = LLVMGetFirstUse(m);
            while (u) {
                LLVMUseRef nx = LLVMGetNextUse(u);
                LLVMValueRef user = LLVMGetUser(u);
                int l = 0, ut = wl_vl_tuple_of(V, user, &l);
                if (ut < 0 || !V->t[ut].on || l != (int)j) {
                    if (!ex) {
                        after(V, fn, t->vec);
                        ex = mark(V, LLVMBuildExtractElement(V->b, t->vec, LLVMConstInt(i32, j, 0), ""));
                    }
                    int no = LLVMGetNumOperands(user);
                    for (int o = 0; o < no; o++)
                        if (LLVMGetOperand(user, o) == m)
                            LLVMSetOperand(user, (unsigned)o, ex);
                    nx = LLVMGetFirstUse(m); /* the use list changed */
                }
                u = nx;
            }
        }
    }
    for (size_t i = 0; i < V->nt; i++)
        if (V->t[i].on)
            for (unsigned j = 0; j < V->k; j++)
                LLVMReplaceAllUsesWith(V->t[i].m[j], LLVMGetPoison(LLVMTypeOf(V->t[i].m[j])));
    for (size_t i = 0; i < V->nt; i++)
        if (V->t[i].on)
            for (unsigned j = 0; j < V->k; j++)
                LLVMInstructionEraseFromParent(V->t[i].m[j]);
}

