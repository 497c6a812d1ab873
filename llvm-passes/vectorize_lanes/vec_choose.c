/* Which tuples of lane clones become vectors (vec_internal.h): what the
 * backend can write as one vector instruction, where each vector can go,
 * and a minimum cut (vec_flow.c) over their SPIR-V words. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "ir/ptrmap.h" /* wl_ptr_order */
#include "vec_flow.h"
#include "vec_internal.h"


/* The intrinsics whose vector forms the backend writes as one GLSL.std.450
 * instruction (docs/host-ir.md): their name, or NULL. */
const char *wl_vl_vector_intrinsic(LLVMValueRef call)
{
    static const char *const names[] = {"llvm.umin.", "llvm.umax.", "llvm.smin.", "llvm.smax.", "llvm.abs.",
                                        "llvm.fabs.", "llvm.minnum.", "llvm.maxnum.", "llvm.sqrt.", "llvm.floor.",
                                        "llvm.ceil.", "llvm.trunc.", "llvm.rint.", "llvm.roundeven.",
                                        "llvm.nearbyint.", "llvm.fmuladd.", "llvm.fma."};
    LLVMValueRef f = LLVMGetCalledValue(call);
    if (!f || !LLVMIsAFunction(f))
        return NULL;
    size_t len = 0;
    const char *n = LLVMGetValueName2(f, &len);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (len > strlen(names[i]) && !strncmp(n, names[i], strlen(names[i])))
            return n;
    return NULL;
}

static int is_fma(LLVMValueRef call)
{
    const char *n = wl_vl_vector_intrinsic(call);
    return n && !strncmp(n, "llvm.fma.", 9);
}

/* llvm.abs's second argument (is_int_min_poison) stays a scalar constant */
static int scalar_arg(LLVMValueRef I, int i)
{
    if (LLVMGetInstructionOpcode(I) != LLVMCall)
        return 0;
    if (i == LLVMGetNumOperands(I) - 1)
        return 1; /* the callee */
    const char *n = wl_vl_vector_intrinsic(I);
    return i == 1 && n && !strncmp(n, "llvm.abs.", 9);
}

static int vectorizable(LLVMValueRef I, unsigned k)
{
    LLVMTypeRef t = LLVMTypeOf(I);
    LLVMTypeKind tk = LLVMGetTypeKind(t);
    if (tk != LLVMIntegerTypeKind && tk != LLVMHalfTypeKind && tk != LLVMFloatTypeKind && tk != LLVMDoubleTypeKind)
        return 0;
    if (tk == LLVMIntegerTypeKind) {
        unsigned w = LLVMGetIntTypeWidth(t);
        if (w != 1 && w != 8 && w != 16 && w != 32 && w != 64)
            return 0;
    }
    (void)k;
    LLVMOpcode op = LLVMGetInstructionOpcode(I);
    switch (op) {
    case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMUDiv: case LLVMSDiv: case LLVMURem: case LLVMSRem:
    case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMAnd: case LLVMOr: case LLVMXor:
    case LLVMFAdd: case LLVMFSub: case LLVMFMul: case LLVMFDiv: case LLVMFNeg:
    case LLVMICmp: case LLVMFCmp: case LLVMSelect:
    case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMFPTrunc: case LLVMFPExt:
    case LLVMFPToUI: case LLVMFPToSI: case LLVMUIToFP: case LLVMSIToFP:
        break;
    case LLVMBitCast:
        break;
    case LLVMCall:
        if (is_fma(I)) /* f64: the exact routine is per element (backend/fma.c) */
            return tk != LLVMDoubleTypeKind;
        return wl_vl_vector_intrinsic(I) != NULL;
    case LLVMPHI:
        return 1;
    default:
        return 0;
    }
    /* operands: scalars of the profile (no pointers) */
    int n = LLVMGetNumOperands(I);
    for (int i = 0; i < n; i++) {
        if (scalar_arg(I, i))
            continue;
        LLVMTypeKind ok = LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(I, i)));
        if (ok != LLVMIntegerTypeKind && ok != LLVMHalfTypeKind && ok != LLVMFloatTypeKind &&
            ok != LLVMDoubleTypeKind)
            return 0;
    }
    if (op == LLVMBitCast || op == LLVMTrunc || op == LLVMZExt || op == LLVMSExt) {
        LLVMTypeRef st = LLVMTypeOf(LLVMGetOperand(I, 0));
        if (LLVMGetTypeKind(st) == LLVMIntegerTypeKind) {
            unsigned w = LLVMGetIntTypeWidth(st);
            if (w != 1 && w != 8 && w != 16 && w != 32 && w != 64)
                return 0;
        }
    }
    return 1;
}

/* the scalar instruction's words (opcode, type, result, operands) */
static int words_of(LLVMValueRef I)
{
    if (LLVMIsAPHINode(I))
        return 3 + 2 * (int)LLVMCountIncoming(I);
    if (LLVMGetInstructionOpcode(I) == LLVMCall && is_fma(I))
        return 120; /* f16, f32: the exact fma is 27 instructions (backend/fma.c), as a vector too */
    return 3 + LLVMGetNumOperands(I);
}

/* Is operand i of tuple t's instructions read as a vector? (A select's
 * condition that is in no tuple selects whole vectors.) */
int wl_vl_vector_operand(vl *V, LLVMValueRef I, int i)
{
    if (scalar_arg(I, i))
        return 0;
    return !(i == 0 && LLVMGetInstructionOpcode(I) == LLVMSelect && wl_vl_tuple_of(V, LLVMGetOperand(I, i), NULL) < 0);
}

long wl_vl_ord_of(vl *V, LLVMValueRef v)
{
    vl_ent *e = wl_vl_get(V, v);
    return e ? e->ord : 0;
}

/* the last member of a tuple (they are in one block) */
LLVMValueRef wl_vl_last_member(vl *V, vl_tuple *t)
{
    LLVMValueRef last = t->m[0];
    for (unsigned j = 1; j < V->k; j++)
        if (wl_vl_ord_of(V, t->m[j]) > wl_vl_ord_of(V, last))
            last = t->m[j];
    return last;
}

/* Where tuple t's vector can go: after everything its operands need, in
 * its block (ordinals; 0: the block's start). Tuples are made after their
 * operands' tuples, so index order computes this in one pass. */
static void place(vl *V, vl_tuple *t)
{
    LLVMValueRef I = t->m[0];
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(I);
    long pos = 0;
    LLVMValueRef posi = NULL;
    int n = LLVMIsAPHINode(I) ? 0 : LLVMGetNumOperands(I); /* a vector phi: with the phis */
    for (int i = 0; i < n; i++) {
        LLVMValueRef a = LLVMGetOperand(I, i), x = NULL;
        int ot = wl_vl_tuple_of(V, a, NULL);
        long p = 0;
        if (ot >= 0 && V->t[ot].on) {
            if (LLVMGetInstructionParent(V->t[ot].m[0]) == bb) {
                p = V->t[ot].pos;
                x = V->t[ot].posi;
            }
        } else if (ot >= 0) {
            x = wl_vl_last_member(V, &V->t[ot]);
        } else {
            x = a;
        }
        if (ot < 0 || !V->t[ot].on) {
            if (LLVMIsAInstruction(x) && LLVMGetInstructionParent(x) == bb)
                p = wl_vl_ord_of(V, x);
            else
                x = NULL;
        }
        if (p > pos) {
            pos = p;
            posi = x;
        }
    }
    t->pos = pos;
    t->posi = posi;
}

/* Every scalar user of a member must come after the vector (it reads an
 * extractelement placed there). */
static int feasible(vl *V, vl_tuple *t)
{
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(t->m[0]);
    for (unsigned j = 0; j < V->k; j++)
        for (LLVMUseRef u = LLVMGetFirstUse(t->m[j]); u; u = LLVMGetNextUse(u)) {
            LLVMValueRef x = LLVMGetUser(u);
            int l = 0, ut = wl_vl_tuple_of(V, x, &l);
            if (ut >= 0 && V->t[ut].on && l == (int)j)
                continue;
            if (!LLVMIsAInstruction(x) || LLVMIsAPHINode(x) || LLVMGetInstructionParent(x) != bb)
                continue;
            if (wl_vl_ord_of(V, x) <= t->pos)
                return 0;
        }
    return 1;
}

/* Where operand o of tuple t's instructions comes from, read as a vector:
 * VL_SRC_TUPLE (tuple *src, its lanes in order), VL_SRC_VALUE (one value
 * for every lane: a splat or a constant vector), VL_SRC_MIXED (a phi's
 * incoming lanes that are no tuple: put together at the edge). */

int wl_vl_source(vl *V, vl_tuple *t, int o, int *src)
{
    LLVMValueRef I = t->m[0];
    if (!LLVMIsAPHINode(I)) { /* wl_vl_corresponds() holds: aligned or uniform */
        *src = wl_vl_tuple_of(V, LLVMGetOperand(I, o), NULL);
        return *src >= 0 ? VL_SRC_TUPLE : VL_SRC_VALUE;
    }
    LLVMValueRef x0 = LLVMGetIncomingValue(I, (unsigned)o);
    int lane = 0, same = 1, ot = wl_vl_tuple_of(V, x0, &lane), aligned = ot >= 0 && lane == 0;
    for (unsigned j = 1; j < V->k; j++) {
        LLVMValueRef xj = LLVMGetIncomingValue(t->m[j], (unsigned)o);
        same &= xj == x0;
        aligned &= ot >= 0 && V->t[ot].m[j] == xj;
    }
    *src = ot;
    return aligned ? VL_SRC_TUPLE : same && ot < 0 ? VL_SRC_VALUE : VL_SRC_MIXED;
}

static int n_sources(vl_tuple *t)
{
    LLVMValueRef I = t->m[0];
    if (LLVMIsAPHINode(I))
        return (int)LLVMCountIncoming(I);
    return LLVMGetNumOperands(I) - (LLVMGetInstructionOpcode(I) == LLVMCall);
}

/* Does candidate tuple u read member m (lane j of tuple ti) as part of a
 * vector? */
static int reads_vector(vl *V, int u, int ti, LLVMValueRef m, unsigned j)
{
    vl_tuple *U = &V->t[u];
    int n = n_sources(U);
    for (int o = 0; o < n; o++) {
        LLVMValueRef x = LLVMIsAPHINode(U->m[j]) ? LLVMGetIncomingValue(U->m[j], (unsigned)o)
                                                 : LLVMGetOperand(U->m[j], o);
        int src;
        if (x == m && wl_vl_vector_operand(V, U->m[0], o) && wl_vl_source(V, U, o, &src) == VL_SRC_TUPLE && src == ti)
            return 1;
    }
    return 0;
}

static int cand(vl *V, int i) { return i >= 0 && V->t[i].can && !V->t[i].barred; }

/* The construct node of tuple ti or of value a (made on first use). */
static int cnode(vl *V, wl_flow *f, int ti, LLVMValueRef a, int round)
{
    int *slotp, *stamp;
    if (ti >= 0) {
        slotp = &V->t[ti].cnode;
        stamp = &V->t[ti].cround;
    } else {
        vl_ent *e = wl_vl_put(V, a);
        if (!e)
            return -1;
        slotp = &e->cnode;
        stamp = &e->cround;
    }
    if (*stamp != round || *slotp < 0) {
        int c = wl_flow_node(f);
        if (c < 0)
            return -1;
        /* wl_vl_put() may have moved the table: look again */
        if (ti < 0) {
            vl_ent *e = wl_vl_get(V, a);
            e->cnode = c;
            e->cround = round;
        } else {
            *slotp = c;
            *stamp = round;
        }
        /* the construct costs 3 + k words unless it is a tuple made a vector */
        if (wl_flow_edge(f, c, ti >= 0 && cand(V, ti) ? 2 + ti : 1, 3 + (long)V->k))
            return -1;
        return c;
    }
    return *slotp;
}

/* The tuples to make vectors, as a minimum cut (vec_flow.c): node 0 the
 * source (vector), 1 the sink (scalar), 2 + i tuple i; a tuple on the
 * source side is made a vector. Costs in SPIR-V words: a vector
 * instruction saves (k-1) times its scalar words (source -> tuple); a
 * member read by a scalar costs an extract (5: tuple -> sink, or through a
 * node that stays on the source side only if every reader is a vector);
 * an operand that is not a vector costs a construct (3 + k), once however
 * many vectors read it. Returns the words saved, or -1. */
static long cut(vl *V, int round)
{
    wl_flow *f = wl_flow_new(2 + (int)V->nt);
    if (!f)
        return -1;
    long all = 0, bad = 0;
    unsigned k = V->k;
    for (size_t i = 0; i < V->nt && !bad; i++) {
        if (!cand(V, (int)i))
            continue;
        vl_tuple *t = &V->t[i];
        int T = 2 + (int)i;
        long w = (long)(k - 1) * words_of(t->m[0]);
        all += w;
        bad |= wl_flow_edge(f, 0, T, w);
        for (unsigned j = 0; j < k && !bad; j++) {
            int fixed = 0, y = -1;
            for (LLVMUseRef us = LLVMGetFirstUse(t->m[j]); us && !bad; us = LLVMGetNextUse(us)) {
                int l = 0, u = wl_vl_tuple_of(V, LLVMGetUser(us), &l);
                if (cand(V, u) && l == (int)j && reads_vector(V, u, (int)i, t->m[j], j)) {
                    if (y < 0) {
                        y = wl_flow_node(f);
                        bad |= y < 0 || wl_flow_edge(f, T, y, 5);
                    }
                    bad |= wl_flow_edge(f, y, 2 + u, WL_FLOW_INF);
                } else {
                    fixed = 1;
                }
            }
            if (fixed)
                bad |= wl_flow_edge(f, T, 1, 5);
        }
        int n = n_sources(t);
        for (int o = 0; o < n && !bad; o++) {
            if (!wl_vl_vector_operand(V, t->m[0], o))
                continue;
            int src, kind = wl_vl_source(V, t, o, &src), c;
            LLVMValueRef a = LLVMIsAPHINode(t->m[0]) ? LLVMGetIncomingValue(t->m[0], (unsigned)o)
                                                     : LLVMGetOperand(t->m[0], o);
            if (kind == VL_SRC_MIXED) {
                bad |= wl_flow_edge(f, T, 1, 3 + (long)k);
                continue;
            }
            c = cnode(V, f, kind == VL_SRC_TUPLE ? src : -1, a, round);
            bad |= c < 0 || wl_flow_edge(f, T, c, WL_FLOW_INF);
        }
    }
    long saved = -1;
    long flow = bad ? -1 : wl_flow_run(f, 0, 1); /* -1: out of memory, nothing made a vector */
    if (flow >= 0) {
        saved = all - flow;
        for (size_t i = 0; i < V->nt; i++)
            V->t[i].on = cand(V, (int)i) && wl_flow_source_side(f, 2 + (int)i);
    }
    wl_flow_free(f);
    return saved;
}

/* whether phi names one block twice: its blocks sorted, then neighbours
 * compared (a phi of a return dispatch has thousands of them: the pairs
 * were a translation's largest cost); an allocation that fails says yes,
 * which only keeps the phi scalar */
static int names_a_block_twice(LLVMValueRef phi)
{
    unsigned n = LLVMCountIncoming(phi);
    if (n < 2)
        return 0;
    LLVMBasicBlockRef *b = malloc(n * sizeof *b);
    if (!b)
        return 1;
    for (unsigned i = 0; i < n; i++)
        b[i] = LLVMGetIncomingBlock(phi, i);
    qsort(b, n, sizeof *b, wl_ptr_order);
    int twice = 0;
    for (unsigned i = 1; i < n && !twice; i++)
        twice = b[i] == b[i - 1];
    free(b);
    return twice;
}

void wl_vl_choose(vl *V)
{
    for (size_t i = 0; i < V->nt; i++) {
        vl_tuple *t = &V->t[i];
        t->can = LLVMIsAInstruction(t->m[0]) && vectorizable(t->m[0], V->k);
        /* still clones of one another (a uniform operand may have joined a
         * tuple since: then it is not uniform) */
        for (unsigned j = 1; j < V->k && t->can && !LLVMIsAPHINode(t->m[0]); j++)
            t->can = wl_vl_corresponds(V, t->m[0], t->m[j], j);
        /* a phi naming a block twice (a switch's cases) must get one value
         * from it: not made a vector */
        if (t->can && LLVMIsAPHINode(t->m[0]))
            t->can = !names_a_block_twice(t->m[0]);
        t->barred = 0;
        t->cnode = -1;
        t->cround = -1;
        t->on = 0;
    }
    for (size_t i = 0; i < V->caph; i++)
        V->h[i].cround = -1;
    long saved = 0;
    for (int round = 0; round < 16; round++) {
        saved = cut(V, round);
        if (saved < 0)
            break;
        /* a vector must come before every scalar reader of its lanes:
         * those that cannot are left scalar, and the cut made again */
        int barred = 0;
        for (size_t i = 0; i < V->nt; i++)
            if (V->t[i].on)
                place(V, &V->t[i]);
        for (size_t i = 0; i < V->nt; i++)
            if (V->t[i].on && !feasible(V, &V->t[i])) {
                V->t[i].barred = 1;
                barred = 1;
            }
        if (!barred)
            break;
        saved = -1;
    }
    /* the vector types it declares (OpTypeVector, 4 words each) must pay too */
    LLVMTypeRef types[8];
    int ntypes = 0;
    for (size_t i = 0; i < V->nt && saved > 0; i++) {
        if (!V->t[i].on)
            continue;
        LLVMTypeRef ty = LLVMTypeOf(V->t[i].m[0]);
        int seen = 0;
        for (int x = 0; x < ntypes; x++)
            seen |= types[x] == ty;
        if (!seen && ntypes < 8)
            types[ntypes++] = ty;
    }
    if (saved <= 4L * ntypes)
        for (size_t i = 0; i < V->nt; i++)
            V->t[i].on = 0;
}

