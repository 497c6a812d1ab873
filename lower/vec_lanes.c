/* Vectors of lane clones (wl_translate_options.vectorize; docs/backend.md
 * "Vectors"). After the lanes model's lowering and the host passes, the k
 * clones of a varying instruction (lower/lanes.c) are k isomorphic scalar
 * instructions. Where k is 2 or 4, this pass finds them as tuples and
 * writes one instruction on <k x T> instead: in SPIR-V an OpIAdd on a
 * uvec2 costs the words of one on a uint.
 *
 * 1. Seeds: the lane numbers p + j*S (p = spv.subgroup_local_invocation_id)
 *    and the per-lane scratch arrays @wl.scratch.j.
 * 2. Tuples, top down: a tuple's users u_0..u_{k-1} (one per lane, same
 *    block, opcode, type, predicate, callee) form a tuple when each operand
 *    of u_j is the lane-j member of a tuple whose lane-0 member is u_0's, or
 *    the same value as u_0's (uniform). Any instruction may form a tuple
 *    (loads, calls: their results seed further tuples); phis do not.
 * 3. Costs (SPIR-V words): a vector instruction saves (k-1) times its
 *    scalar words; it costs an extract (5 words) for each member with a
 *    scalar user, and an OpCompositeConstruct (3 + k) for each operand
 *    that is not a vector already (a tuple left scalar, a uniform value),
 *    shared between its users. Tuples that do not pay are left scalar,
 *    until nothing changes.
 * 4. Rewrite: vector instructions after each tuple's last member, operands
 *    through `spv.construct` (backend: OpCompositeConstruct), constants as
 *    constant vectors; scalar users read extractelement; the scalars go.
 *
 * Exactness: a vector instruction is its scalars' operation per element
 * (LLVM's and SPIR-V's definitions); poison flags (nuw, nsw, exact) are not
 * carried over, which only removes assumptions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include <stdio.h>

#include "vec_lanes.h"

#define VL_MAXK 4

typedef struct vl_tuple {
    LLVMValueRef m[VL_MAXK];
    LLVMValueRef vec;   /* the vector (rewrite) */
    LLVMValueRef built; /* spv.construct of the members (a scalar tuple used by vectors) */
    int can;            /* vectorizable opcode and type */
    int on;             /* chosen */
    long pos;           /* the vector goes after the original instruction of this ordinal, */
    LLVMValueRef posi;  /* this one (NULL: the block's start) */
    int reads;          /* tuples on that read this scalar tuple's construct */
} vl_tuple;

typedef struct vl_ent {
    LLVMValueRef key;
    int tup; /* tuple index + 1 (0: free slot) */
    int lane;
    LLVMValueRef splat; /* a uniform value's splat */
    long ord;           /* place in its block (original instructions, from 1) */
    int inserted;       /* made by this pass */
    int reads;          /* tuples on that read this uniform value's splat */
} vl_ent;

typedef struct vl {
    unsigned k;
    vl_tuple *t;
    size_t nt, capt;
    vl_ent *h;
    size_t caph, nh;
    int oom;
    LLVMModuleRef mod;
    LLVMContextRef ctx;
    LLVMBuilderRef b;
} vl;

/* ---- a pointer hash: value -> (tuple, lane) ---- */

static size_t hash_ptr(const void *p, size_t cap)
{
    uintptr_t x = (uintptr_t)p;
    x ^= x >> 17;
    x *= 0x9E3779B97F4A7C15ull;
    return (size_t)(x >> 7) & (cap - 1);
}

static vl_ent *slot(vl *V, LLVMValueRef key)
{
    size_t i = hash_ptr(key, V->caph);
    while (V->h[i].key && V->h[i].key != key)
        i = (i + 1) & (V->caph - 1);
    return &V->h[i];
}

static vl_ent *get(vl *V, LLVMValueRef key)
{
    vl_ent *e = slot(V, key);
    return e->key ? e : NULL;
}

static vl_ent *put(vl *V, LLVMValueRef key)
{
    if ((V->nh + 1) * 2 > V->caph) {
        size_t oc = V->caph, nc = oc ? oc * 2 : 1024;
        vl_ent *old = V->h, *nh = calloc(nc, sizeof *nh);
        if (!nh) {
            V->oom = 1;
            return NULL;
        }
        V->h = nh;
        V->caph = nc;
        for (size_t i = 0; i < oc; i++)
            if (old[i].key)
                *slot(V, old[i].key) = old[i];
        free(old);
    }
    vl_ent *e = slot(V, key);
    if (!e->key) {
        e->key = key;
        V->nh++;
    }
    return e;
}

static int tuple_of(vl *V, LLVMValueRef v, int *lane)
{
    vl_ent *e = get(V, v);
    if (!e || !e->tup)
        return -1;
    if (lane)
        *lane = e->lane;
    return e->tup - 1;
}

static int add_tuple(vl *V, LLVMValueRef *m)
{
    for (unsigned j = 0; j < V->k; j++) {
        vl_ent *e = get(V, m[j]);
        if (e && e->tup)
            return -1;
    }
    if (V->nt == V->capt) {
        size_t nc = V->capt ? V->capt * 2 : 256;
        vl_tuple *nt = realloc(V->t, nc * sizeof *nt);
        if (!nt) {
            V->oom = 1;
            return -1;
        }
        V->t = nt;
        V->capt = nc;
    }
    vl_tuple *t = &V->t[V->nt];
    memset(t, 0, sizeof *t);
    for (unsigned j = 0; j < V->k; j++) {
        t->m[j] = m[j];
        vl_ent *e = put(V, m[j]);
        if (!e)
            return -1;
        e->tup = (int)V->nt + 1;
        e->lane = (int)j;
    }
    return (int)V->nt++;
}

/* ---- matching ---- */

static int same_shape(LLVMValueRef a, LLVMValueRef b)
{
    if (!LLVMIsAInstruction(b) || LLVMGetInstructionOpcode(a) != LLVMGetInstructionOpcode(b))
        return 0;
    if (LLVMTypeOf(a) != LLVMTypeOf(b) || LLVMGetInstructionParent(a) != LLVMGetInstructionParent(b))
        return 0;
    if (LLVMGetNumOperands(a) != LLVMGetNumOperands(b))
        return 0;
    switch (LLVMGetInstructionOpcode(a)) {
    case LLVMICmp:
        return LLVMGetICmpPredicate(a) == LLVMGetICmpPredicate(b);
    case LLVMFCmp:
        return LLVMGetFCmpPredicate(a) == LLVMGetFCmpPredicate(b);
    case LLVMPHI:
    case LLVMAlloca:
    case LLVMExtractValue:
    case LLVMInsertValue:
    case LLVMShuffleVector:
    case LLVMAtomicCmpXchg:
    case LLVMAtomicRMW:
        return 0; /* phis: no cycles here; the others: indices or orderings not compared */
    case LLVMGetElementPtr:
        return LLVMGetGEPSourceElementType(a) == LLVMGetGEPSourceElementType(b);
    case LLVMCall:
        return LLVMGetCalledValue(a) == LLVMGetCalledValue(b);
    default:
        return 1;
    }
}

/* u_j corresponds to u_0 at lane j: every operand the lane-j member of u_0's
 * operand's tuple, or u_0's operand itself where that is in no tuple. */
static int corresponds(vl *V, LLVMValueRef u0, LLVMValueRef uj, unsigned j)
{
    if (!same_shape(u0, uj))
        return 0;
    int n = LLVMGetNumOperands(u0), any = 0;
    for (int i = 0; i < n; i++) {
        LLVMValueRef a = LLVMGetOperand(u0, i), b = LLVMGetOperand(uj, i);
        int lane = 0, t = tuple_of(V, a, &lane);
        if (t >= 0) {
            if (lane != 0 || V->t[t].m[j] != b)
                return 0;
            any = 1;
        } else if (a != b) {
            return 0;
        }
    }
    return any;
}

static void grow(vl *V, int ti)
{
    /* worklist: tuples whose users are not yet looked at (index order) */
    for (size_t w = (size_t)ti; w < V->nt && !V->oom; w++) {
        LLVMValueRef m0 = V->t[w].m[0];
        for (LLVMUseRef us = LLVMGetFirstUse(m0); us; us = LLVMGetNextUse(us)) {
            LLVMValueRef u0 = LLVMGetUser(us);
            if (!LLVMIsAInstruction(u0) || tuple_of(V, u0, NULL) >= 0)
                continue;
            LLVMValueRef m[VL_MAXK] = {u0};
            unsigned j = 1;
            for (; j < V->k; j++) {
                m[j] = NULL;
                for (LLVMUseRef uj = LLVMGetFirstUse(V->t[w].m[j]); uj && !m[j]; uj = LLVMGetNextUse(uj)) {
                    LLVMValueRef c = LLVMGetUser(uj);
                    if (c != u0 && tuple_of(V, c, NULL) < 0 && corresponds(V, u0, c, j))
                        m[j] = c;
                }
                if (!m[j])
                    break;
            }
            if (j == V->k)
                add_tuple(V, m);
        }
    }
}

static void seed(vl *V, LLVMValueRef fn, unsigned S)
{
    /* p + j*S */
    LLVMValueRef p = NULL;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && !p; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I && !p; I = LLVMGetNextInstruction(I)) {
            if (!LLVMIsACallInst(I))
                continue;
            LLVMValueRef f = LLVMGetCalledValue(I);
            size_t len = 0;
            const char *n = f && LLVMIsAFunction(f) ? LLVMGetValueName2(f, &len) : "";
            if (!strcmp(n, "spv.subgroup_local_invocation_id"))
                p = I;
        }
    if (p) {
        LLVMValueRef m[VL_MAXK] = {p};
        unsigned got = 1;
        for (unsigned j = 1; j < V->k; j++) {
            m[j] = NULL;
            for (LLVMUseRef u = LLVMGetFirstUse(p); u && !m[j]; u = LLVMGetNextUse(u)) {
                LLVMValueRef a = LLVMGetUser(u);
                if (LLVMIsAInstruction(a) && LLVMGetInstructionOpcode(a) == LLVMAdd && LLVMGetOperand(a, 0) == p &&
                    LLVMIsAConstantInt(LLVMGetOperand(a, 1)) &&
                    LLVMConstIntGetZExtValue(LLVMGetOperand(a, 1)) == (unsigned long long)j * S)
                    m[j] = a;
            }
            got += m[j] != NULL;
        }
        if (got == V->k)
            add_tuple(V, m);
    }
    /* @wl.scratch.j */
    LLVMValueRef g[VL_MAXK];
    unsigned ng = 0;
    for (unsigned j = 0; j < V->k; j++) {
        char name[32];
        snprintf(name, sizeof name, "wl.scratch.%u", j);
        g[j] = LLVMGetNamedGlobal(V->mod, name);
        ng += g[j] != NULL;
    }
    if (ng == V->k)
        add_tuple(V, g);
}

/* ---- costs ---- */

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
    default:
        return 0;
    }
    /* operands: scalars of the profile (no pointers) */
    int n = LLVMGetNumOperands(I);
    for (int i = 0; i < n; i++) {
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
static int words_of(LLVMValueRef I) { return 3 + LLVMGetNumOperands(I); }

/* Does member m have a user that will not read the vector? */
static int scalar_use(vl *V, LLVMValueRef m, int lane)
{
    for (LLVMUseRef u = LLVMGetFirstUse(m); u; u = LLVMGetNextUse(u)) {
        int l = 0, t = tuple_of(V, LLVMGetUser(u), &l);
        if (t < 0 || !V->t[t].on || l != lane)
            return 1;
    }
    return 0;
}

/* Is operand i of tuple t's instructions read as a vector? (A select's
 * condition that is in no tuple selects whole vectors.) */
static int vector_operand(vl *V, LLVMValueRef I, int i)
{
    return !(i == 0 && LLVMGetInstructionOpcode(I) == LLVMSelect && tuple_of(V, LLVMGetOperand(I, i), NULL) < 0);
}

/* Counts, for the tuples now on, how many read each scalar tuple's and
 * each uniform value's construct (vl_tuple.reads, vl_ent.reads). */
static void count_reads(vl *V)
{
    for (size_t i = 0; i < V->nt; i++)
        V->t[i].reads = 0;
    for (size_t i = 0; i < V->caph; i++)
        V->h[i].reads = 0;
    for (size_t i = 0; i < V->nt; i++) {
        if (!V->t[i].on)
            continue;
        LLVMValueRef I = V->t[i].m[0];
        int n = LLVMGetNumOperands(I);
        for (int o = 0; o < n; o++) {
            if (!vector_operand(V, I, o))
                continue;
            LLVMValueRef a = LLVMGetOperand(I, o);
            int ot = tuple_of(V, a, NULL);
            if (ot >= 0) {
                if (!V->t[ot].on)
                    V->t[ot].reads++;
            } else {
                vl_ent *e = put(V, a);
                if (e)
                    e->reads++;
            }
        }
    }
}

/* What leaving tuple t scalar would save in words, the others as they are
 * (> 0: leave it scalar). A vector instruction saves (k-1) times its
 * scalar words; an extract costs 5 words a member read by a scalar, a
 * construct 3 + k (constant vectors: about 1, written once). */
static int loss(vl *V, vl_tuple *t)
{
    unsigned k = V->k;
    LLVMValueRef I = t->m[0];
    int d = -(int)(k - 1) * words_of(I);
    int users_on = 0;
    for (unsigned j = 0; j < k; j++) {
        if (scalar_use(V, t->m[j], (int)j))
            d += 5;
        for (LLVMUseRef u = LLVMGetFirstUse(t->m[j]); u && !users_on; u = LLVMGetNextUse(u)) {
            int l = 0, ut = tuple_of(V, LLVMGetUser(u), &l);
            users_on = ut >= 0 && V->t[ut].on && l == (int)j;
        }
    }
    if (users_on)
        d -= 3 + (int)k; /* its users would need its construct */
    int n = LLVMGetNumOperands(I);
    for (int o = 0; o < n; o++) {
        if (!vector_operand(V, I, o))
            continue;
        LLVMValueRef a = LLVMGetOperand(I, o);
        int ot = tuple_of(V, a, NULL);
        if (ot >= 0 && V->t[ot].on) {
            /* its members would be read by scalars */
            for (unsigned j = 0; j < k; j++)
                if (!scalar_use(V, V->t[ot].m[j], (int)j))
                    d -= 5;
        } else if (ot >= 0) {
            if (V->t[ot].reads == 1)
                d += 3 + (int)k;
        } else {
            vl_ent *e = get(V, a);
            if (e && e->reads == 1)
                d += LLVMIsAConstant(a) && !LLVMIsAGlobalValue(a) && !LLVMIsAConstantExpr(a) ? 1 : 3 + (int)k;
        }
    }
    return d;
}

static long ord_of(vl *V, LLVMValueRef v)
{
    vl_ent *e = get(V, v);
    return e ? e->ord : 0;
}

/* the last member of a tuple (they are in one block) */
static LLVMValueRef last_member(vl *V, vl_tuple *t)
{
    LLVMValueRef last = t->m[0];
    for (unsigned j = 1; j < V->k; j++)
        if (ord_of(V, t->m[j]) > ord_of(V, last))
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
    int n = LLVMGetNumOperands(I);
    for (int i = 0; i < n; i++) {
        LLVMValueRef a = LLVMGetOperand(I, i), x = NULL;
        int ot = tuple_of(V, a, NULL);
        long p = 0;
        if (ot >= 0 && V->t[ot].on) {
            if (LLVMGetInstructionParent(V->t[ot].m[0]) == bb) {
                p = V->t[ot].pos;
                x = V->t[ot].posi;
            }
        } else if (ot >= 0) {
            x = last_member(V, &V->t[ot]);
        } else {
            x = a;
        }
        if (ot < 0 || !V->t[ot].on) {
            if (LLVMIsAInstruction(x) && LLVMGetInstructionParent(x) == bb)
                p = ord_of(V, x);
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
            int l = 0, ut = tuple_of(V, x, &l);
            if (ut >= 0 && V->t[ut].on && l == (int)j)
                continue;
            if (!LLVMIsAInstruction(x) || LLVMIsAPHINode(x) || LLVMGetInstructionParent(x) != bb)
                continue;
            if (ord_of(V, x) <= t->pos)
                return 0;
        }
    return 1;
}

static void choose(vl *V)
{
    for (size_t i = 0; i < V->nt; i++)
        V->t[i].on = V->t[i].can = LLVMIsAInstruction(V->t[i].m[0]) && vectorizable(V->t[i].m[0], V->k);
    int settled = 0;
    for (int round = 0; round < 64 && !settled; round++) {
        int changed = 0;
        for (size_t i = 0; i < V->nt; i++)
            if (V->t[i].on)
                place(V, &V->t[i]);
        count_reads(V);
        for (size_t i = 0; i < V->nt; i++)
            if (V->t[i].on && (!feasible(V, &V->t[i]) || loss(V, &V->t[i]) > 0)) {
                if (getenv("WL_VEC_DEBUG")) { /* DEBUG */
                    char *str = LLVMPrintValueToString(V->t[i].m[0]);
                    fprintf(stderr, "round %d off: feasible %d loss %d: %s\n", round, feasible(V, &V->t[i]), loss(V, &V->t[i]), str);
                    LLVMDisposeMessage(str);
                }
                V->t[i].on = 0;
                changed = 1;
            }
        settled = !changed;
    }
    if (!settled) /* not settled: leave everything scalar */
        for (size_t i = 0; i < V->nt; i++)
            V->t[i].on = 0;
}

/* ---- rewrite ---- */

static LLVMTypeRef vty(vl *V, LLVMTypeRef t) { return LLVMVectorType(t, V->k); }

/* the builder after instruction I (after the phis where I is one; at the
 * entry's first non-phi for non-instructions) */
static void after(vl *V, LLVMValueRef fn, LLVMValueRef I)
{
    LLVMValueRef pos;
    LLVMBasicBlockRef bb;
    if (!I || !LLVMIsAInstruction(I)) {
        bb = LLVMGetEntryBasicBlock(fn);
        pos = LLVMGetFirstInstruction(bb);
    } else {
        bb = LLVMGetInstructionParent(I);
        pos = LLVMGetNextInstruction(I);
    }
    while (pos && LLVMIsAPHINode(pos))
        pos = LLVMGetNextInstruction(pos);
    for (vl_ent *e; pos && (e = get(V, pos)) && e->inserted;) /* after what this pass put there */
        pos = LLVMGetNextInstruction(pos);
    if (pos)
        LLVMPositionBuilderBefore(V->b, pos);
    else
        LLVMPositionBuilderAtEnd(V->b, bb);
}

static void after_start(vl *V, LLVMBasicBlockRef bb)
{
    LLVMValueRef pos = LLVMGetFirstInstruction(bb);
    while (pos && LLVMIsAPHINode(pos))
        pos = LLVMGetNextInstruction(pos);
    for (vl_ent *e; pos && (e = get(V, pos)) && e->inserted;)
        pos = LLVMGetNextInstruction(pos);
    if (pos)
        LLVMPositionBuilderBefore(V->b, pos);
    else
        LLVMPositionBuilderAtEnd(V->b, bb);
}

static LLVMValueRef mark(vl *V, LLVMValueRef I)
{
    vl_ent *e = put(V, I);
    if (e)
        e->inserted = 1;
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
    int n = LLVMGetNumOperands(I);
    LLVMValueRef ops[3];
    for (int i = 0; i < n && i < 3; i++) {
        LLVMValueRef a = LLVMGetOperand(I, i);
        if (i == 0 && op == LLVMSelect && tuple_of(V, a, NULL) < 0)
            ops[i] = a;
        else
            ops[i] = vec_of(V, fn, a);
    }
    if (getenv("WL_VEC_DEBUG")) { /* DEBUG */
        char *a = LLVMPrintValueToString(I), *b = t->posi ? LLVMPrintValueToString(t->posi) : NULL;
        fprintf(stderr, "mat %s pos %ld after %s\n", a, t->pos, b ? b : "(start)");
        LLVMDisposeMessage(a);
        if (b)
            LLVMDisposeMessage(b);
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
    default: v = LLVMBuildBinOp(V->b, op, ops[0], ops[1], ""); break;
    }
    t->vec = mark(V, v);
    return v;
}

/* The vector of operand a (of a tuple whose last member is `at`). */
static LLVMValueRef vec_of(vl *V, LLVMValueRef fn, LLVMValueRef a)
{
    int ti = tuple_of(V, a, NULL);
    if (ti >= 0 && V->t[ti].on)
        return materialize(V, fn, ti);
    LLVMTypeRef et = LLVMTypeOf(a);
    if (ti >= 0) {
        vl_tuple *t = &V->t[ti];
        if (!t->built) {
            after(V, fn, last_member(V, t));
            t->built = construct(V, et, t->m);
        }
        return t->built;
    }
    LLVMValueRef xs[VL_MAXK];
    for (unsigned j = 0; j < V->k; j++)
        xs[j] = a;
    if (LLVMIsAConstant(a) && !LLVMIsAGlobalValue(a) && !LLVMIsAConstantExpr(a))
        return LLVMConstVector(xs, V->k);
    vl_ent *e = put(V, a);
    if (!e)
        return LLVMGetUndef(vty(V, et));
    if (!e->splat) {
        after(V, fn, LLVMIsAInstruction(a) ? a : NULL);
        LLVMValueRef s = construct(V, et, xs);
        e = put(V, a); /* the table may have moved */
        if (e)
            e->splat = s;
        return s;
    }
    return e->splat;
}

static void rewrite(vl *V, LLVMValueRef fn)
{
    for (size_t i = 0; i < V->nt && !V->oom; i++)
        if (V->t[i].on)
            materialize(V, fn, (int)i);
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
                int l = 0, ut = tuple_of(V, user, &l);
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

int wl_vectorize_lanes(LLVMModuleRef m, unsigned k, unsigned S)
{
    if (k != 2 && k != 4)
        return 0;
    vl V;
    memset(&V, 0, sizeof V);
    V.k = k;
    V.mod = m;
    V.ctx = LLVMGetModuleContext(m);
    V.b = LLVMCreateBuilderInContext(V.ctx);
    int done = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn && !V.oom; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn))
            continue;
        V.nt = 0;
        memset(V.h, 0, V.caph * sizeof *V.h);
        V.nh = 0;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
            long o = 0;
            for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I)) {
                vl_ent *e = put(&V, I);
                if (e)
                    e->ord = (o += 1);
            }
        }
        seed(&V, fn, S);
        if (V.nt)
            grow(&V, 0);
        if (V.oom)
            break;
        size_t ncan = 0;
        choose(&V);
        for (size_t i = 0; i < V.nt; i++)
            ncan += V.t[i].can;
        if (getenv("WL_VEC_DEBUG")) /* DEBUG */
            fprintf(stderr, "vec: %zu tuples, %zu vectorizable\n", V.nt, ncan);
        rewrite(&V, fn);
        for (size_t i = 0; i < V.nt; i++)
            done += V.t[i].on;
    }
    LLVMDisposeBuilder(V.b);
    free(V.t);
    free(V.h);
    return V.oom ? -1 : done;
}
