/* Vectors of lane clones (the pass vectorize-lanes; docs/backend.md
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

#include "llvm-passes/pass.h"
#include "vec_internal.h"
#include "llvm-passes/passes.h"

/* ---- a pointer hash: value -> (tuple, lane) ---- */

/* Fibonacci hashing: the product's top bits (cap a power of two >= 2),
 * which every bit of the pointer reaches */
static size_t hash_ptr(const void *p, size_t cap)
{
    uint64_t x = (uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15ull;
    return (size_t)(x >> (64 - __builtin_ctzll((unsigned long long)cap)));
}

static vl_ent *slot(vl *V, LLVMValueRef key)
{
    size_t i = hash_ptr(key, V->caph);
    while (V->h[i].key && V->h[i].key != key)
        i = (i + 1) & (V->caph - 1);
    return &V->h[i];
}

vl_ent *wl_vl_get(vl *V, LLVMValueRef key)
{
    vl_ent *e = slot(V, key);
    return e->key ? e : NULL;
}

vl_ent *wl_vl_put(vl *V, LLVMValueRef key)
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

int wl_vl_tuple_of(vl *V, LLVMValueRef v, int *lane)
{
    vl_ent *e = wl_vl_get(V, v);
    if (!e || !e->tup)
        return -1;
    if (lane)
        *lane = e->lane;
    return e->tup - 1;
}

static int add_tuple(vl *V, LLVMValueRef *m)
{
    for (unsigned j = 0; j < V->k; j++) {
        vl_ent *e = wl_vl_get(V, m[j]);
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
        vl_ent *e = wl_vl_put(V, m[j]);
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
int wl_vl_corresponds(vl *V, LLVMValueRef u0, LLVMValueRef uj, unsigned j)
{
    if (!same_shape(u0, uj))
        return 0;
    int n = LLVMGetNumOperands(u0), any = 0;
    for (int i = 0; i < n; i++) {
        LLVMValueRef a = LLVMGetOperand(u0, i), b = LLVMGetOperand(uj, i);
        int lane = 0, t = wl_vl_tuple_of(V, a, &lane);
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

/* The lane-j clone of u0 among the instructions beside it (the lowering
 * makes a lane's clones one after another), a user of mj: for values of
 * many users, where trying each against each would be quadratic (a return
 * dispatch's state, read by thousands of phis). NULL: none there. */
static LLVMValueRef near_clone(vl *V, LLVMValueRef u0, LLVMValueRef mj, unsigned j)
{
    for (int dir = 0; dir < 2; dir++) {
        LLVMValueRef c = u0;
        for (unsigned d = 0; d < 4 * VL_MAXK; d++) {
            c = dir ? LLVMGetPreviousInstruction(c) : LLVMGetNextInstruction(c);
            if (!c)
                break;
            int uses = 0;
            for (int i = 0, n = LLVMGetNumOperands(c); i < n && !uses; i++)
                uses = LLVMGetOperand(c, (unsigned)i) == mj;
            if (uses && wl_vl_tuple_of(V, c, NULL) < 0 && wl_vl_corresponds(V, u0, c, j))
                return c;
        }
    }
    return NULL;
}

#define VL_FEW_USES 32 /* up to this many users, every pair is tried */

static void grow(vl *V, int ti)
{
    /* worklist: tuples whose users are not yet looked at (index order) */
    for (size_t w = (size_t)ti; w < V->nt && !V->oom; w++) {
        LLVMValueRef m0 = V->t[w].m[0];
        unsigned many = 0; /* lanes whose member has more users than VL_FEW_USES */
        for (unsigned j = 1; j < V->k; j++) {
            unsigned n = 0;
            for (LLVMUseRef u = LLVMGetFirstUse(V->t[w].m[j]); u && n <= VL_FEW_USES; u = LLVMGetNextUse(u))
                n++;
            many |= (n > VL_FEW_USES) << j;
        }
        for (LLVMUseRef us = LLVMGetFirstUse(m0); us; us = LLVMGetNextUse(us)) {
            LLVMValueRef u0 = LLVMGetUser(us);
            if (!LLVMIsAInstruction(u0) || wl_vl_tuple_of(V, u0, NULL) >= 0)
                continue;
            LLVMValueRef m[VL_MAXK] = {u0};
            unsigned j = 1;
            for (; j < V->k; j++) {
                m[j] = NULL;
                if (many >> j & 1) {
                    m[j] = near_clone(V, u0, V->t[w].m[j], j);
                } else {
                    for (LLVMUseRef uj = LLVMGetFirstUse(V->t[w].m[j]); uj && !m[j]; uj = LLVMGetNextUse(uj)) {
                        LLVMValueRef c = LLVMGetUser(uj);
                        if (c != u0 && wl_vl_tuple_of(V, c, NULL) < 0 && wl_vl_corresponds(V, u0, c, j))
                            m[j] = c;
                    }
                }
                if (!m[j])
                    break;
            }
            if (j == V->k)
                add_tuple(V, m);
        }
    }
}

/* The lane number p + l*S of lane l (l < lanes), or NULL. */
static LLVMValueRef lane_number(LLVMValueRef p, unsigned l, unsigned S)
{
    if (!l)
        return p;
    for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef a = LLVMGetUser(u);
        if (LLVMIsAInstruction(a) && LLVMGetInstructionOpcode(a) == LLVMAdd && LLVMGetOperand(a, 0) == p &&
            LLVMIsAConstantInt(LLVMGetOperand(a, 1)) &&
            LLVMConstIntGetZExtValue(LLVMGetOperand(a, 1)) == (unsigned long long)l * S)
            return a;
    }
    return NULL;
}

/* Seeds for each group of V->k lanes (lanes g*k .. g*k + k-1 of the
 * invocation's `lanes`): their lane numbers and scratch arrays. */
static void seed(vl *V, LLVMValueRef fn, unsigned lanes, unsigned S)
{
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
    for (unsigned g = 0; g < lanes / V->k; g++) {
        LLVMValueRef m[VL_MAXK], s[VL_MAXK];
        unsigned got = 0, ng = 0;
        for (unsigned j = 0; j < V->k; j++) {
            unsigned l = g * V->k + j;
            m[j] = p ? lane_number(p, l, S) : NULL;
            got += m[j] != NULL;
            char name[32];
            snprintf(name, sizeof name, "wl.scratch.%u", l); /* lower/memory/memory.c: one array a lane */
            s[j] = LLVMGetNamedGlobal(V->mod, name);
            ng += s[j] != NULL;
        }
        if (got == V->k)
            add_tuple(V, m);
        if (ng == V->k)
            add_tuple(V, s);
    }
}

/* Phis of lane clones (loop-carried registers): phi p_j of lane j follows
 * p_0 in the same block, has its type and incoming blocks, and for each
 * incoming block its value is p_0's (uniform), the lane-j member of the
 * tuple of p_0's, or not yet in a tuple and of the same opcode (a value
 * the loop computes later). Any such tuple may be a vector phi: its
 * incoming vectors are made whatever they turn out to be. */
static int phi_like(vl *V, LLVMValueRef p0, LLVMValueRef pj, unsigned j)
{
    if (!LLVMIsAPHINode(pj) || LLVMTypeOf(p0) != LLVMTypeOf(pj) || wl_vl_tuple_of(V, pj, NULL) >= 0)
        return 0;
    unsigned n = LLVMCountIncoming(p0);
    if (LLVMCountIncoming(pj) != n)
        return 0;
    int differ = 0;
    for (unsigned i = 0; i < n; i++) {
        if (LLVMGetIncomingBlock(p0, i) != LLVMGetIncomingBlock(pj, i))
            return 0;
        LLVMValueRef a = LLVMGetIncomingValue(p0, i), b = LLVMGetIncomingValue(pj, i);
        if (a == b)
            continue;
        differ = 1;
        int lane = 0, t = wl_vl_tuple_of(V, a, &lane);
        if (t >= 0) {
            if (lane != 0 || V->t[t].m[j] != b)
                return 0;
            continue;
        }
        if (!LLVMIsAInstruction(a) || !LLVMIsAInstruction(b) || wl_vl_tuple_of(V, b, NULL) >= 0 ||
            LLVMGetInstructionOpcode(a) != LLVMGetInstructionOpcode(b))
            return 0;
    }
    return differ;
}

static size_t seed_phis(vl *V, LLVMValueRef fn)
{
    size_t before = V->nt;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef p = LLVMGetFirstInstruction(bb); p && LLVMIsAPHINode(p); p = LLVMGetNextInstruction(p)) {
            if (wl_vl_tuple_of(V, p, NULL) >= 0)
                continue;
            LLVMValueRef m[VL_MAXK] = {p};
            unsigned j = 1;
            LLVMValueRef q = p;
            for (; j < V->k; j++) {
                /* the clones follow one another: in a block of many phis
                 * (a return dispatch's, hundreds of incoming values each)
                 * only the next few are tried, not all of them */
                unsigned tried = 0;
                for (q = LLVMGetNextInstruction(q); q && LLVMIsAPHINode(q); q = LLVMGetNextInstruction(q)) {
                    if (phi_like(V, p, q, j))
                        break;
                    if (++tried == 4 * VL_MAXK && LLVMCountIncoming(p) > VL_FEW_USES) {
                        q = NULL;
                        break;
                    }
                }
                if (!q || !LLVMIsAPHINode(q))
                    break;
                m[j] = q;
            }
            if (j == V->k)
                add_tuple(V, m);
        }
    return V->nt - before;
}

static int vectorize_lanes(LLVMModuleRef m, unsigned k, unsigned S)
{
    /* vectors of 2 or 4 (Vulkan: no 8 or 16 without Kernel capabilities):
     * k = 8 and 16 as groups of 4 lanes */
    unsigned width = k == 2 ? 2 : k >= 4 && k <= 64 && k % 4 == 0 ? 4 : 0;
    if (!width)
        return 0;
    vl V;
    memset(&V, 0, sizeof V);
    V.k = width;
    V.mod = m;
    V.ctx = LLVMGetModuleContext(m);
    V.b = LLVMCreateBuilderInContext(V.ctx);
    int done = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn && !V.oom; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn))
            continue;
        V.nt = 0;
        if (V.h) /* none before the first function's table */
            memset(V.h, 0, V.caph * sizeof *V.h);
        V.nh = 0;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
            long o = 0;
            for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I)) {
                vl_ent *e = wl_vl_put(&V, I);
                if (e)
                    e->ord = (o += 1);
            }
        }
        seed(&V, fn, k, S);
        size_t from = 0;
        for (int round = 0; round < 64 && !V.oom; round++) {
            grow(&V, (int)from);
            from = V.nt;
            if (!seed_phis(&V, fn))
                break;
        }
        if (V.oom)
            break;
        wl_vl_choose(&V);
        wl_vl_rewrite(&V, fn);
        for (size_t i = 0; i < V.nt; i++)
            done += V.t[i].on;
    }
    LLVMDisposeBuilder(V.b);
    free(V.t);
    free(V.h);
    return V.oom ? -1 : done;
}

/* the pass (passes.h): k and S from the lanes model's lowering */
int wl_opt_vectorize_lanes(wl_pass_ctx *P, unsigned arg)
{
    (void)arg;
    int n = vectorize_lanes(P->m, P->li.lanes_per_invocation, P->subgroup_size);
    return n < 0 ? wl_pass_fail(P, WL_ERR_NOMEM, "vectorizing lane clones: out of memory") : n;
}
