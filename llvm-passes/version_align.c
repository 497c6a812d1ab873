/* Device-memory accesses of unknown alignment, versioned on the address
 * (docs/backend.md "Unaligned device memory"). A guest dword access may be
 * at any byte address, so the lowering gives it align 1 and the backend
 * makes it bytes (a store: a u8vec4 at Aligned 1, four byte stores on
 * NVIDIA) or two aligned words shifted together (loads). Real programs
 * almost always access aligned data. This pass gathers, within a block, a
 * window of such accesses and branches once on all their addresses:
 *
 *     head:  what came before, the window's pure instructions,
 *            cond = ((a0 | a1 | ...) & 3) == 0
 *            br cond, fast, slow
 *     fast:  the accesses at align 4          slow: the accesses as they were
 *     tail:  (loads) phis of the two results, the window's instructions
 *            that depend on them, then the rest of the block
 *
 * Exact at every address: the fast path runs only where every access of
 * the window is 4-aligned, and reads or writes the same bytes. The guest
 * mapping's check is untouched (the addresses are the checked ones).
 *
 * A window holds either loads or stores of device memory (addrspace(1),
 * not volatile, not atomic, 32/64-bit elements, align < 4) and the pure
 * instructions between them; it ends at anything that may touch memory or
 * synchronize (another kind of access, an atomic, a fence, a call other
 * than a pure builtin), at a load whose address depends on the window's
 * loads, and at the terminator. In a load window, the pure instructions
 * that depend on its loads move after it; the others, and every pure
 * instruction of a store window, before it. Runs before merge_loads, which
 * then merges the fast path's aligned dword loads into vectors. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ptrmap.h"
#include "pass.h"
#include "passes.h"

#define WINDOW_MAX 64 /* accesses a window (phis and the condition's terms stay few) */

/* a growing list of values */
typedef struct vlist {
    LLVMValueRef *v;
    size_t n, cap;
} vlist;

static int vl_push(vlist *l, LLVMValueRef v)
{
    if (l->n == l->cap) {
        size_t nc = l->cap ? 2 * l->cap : 64;
        LLVMValueRef *nv = realloc(l->v, nc * sizeof *nv);
        if (!nv)
            return 0;
        l->v = nv;
        l->cap = nc;
    }
    l->v[l->n++] = v;
    return 1;
}

typedef struct vctx {
    LLVMContextRef ctx;
    LLVMBuilderRef b;
    LLVMTypeRef i64;
    vlist acc, hoist, defer;
    vlist preds; /* the terminators that branch to the block being split */
    wl_ptrmap dep; /* a load window's loads and what depends on them */
    int oom;
} vctx;

enum { K_STOP, K_PURE, K_LOAD, K_STORE, K_OTHER_LOAD };

/* 32/64-bit elements: align 4 is an access the backend makes of words */
static int word_type(LLVMTypeRef t)
{
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
        t = LLVMGetElementType(t);
    switch (LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind: {
        unsigned w = LLVMGetIntTypeWidth(t);
        return w == 32 || w == 64;
    }
    case LLVMFloatTypeKind:
    case LLVMDoubleTypeKind:
        return 1;
    default:
        return 0;
    }
}

/* a load's or a store's pointer */
static LLVMValueRef ptr_of(LLVMValueRef I)
{
    return LLVMGetOperand(I, LLVMIsALoadInst(I) ? 0 : 1);
}

static int plain_access(LLVMValueRef I)
{
    return !LLVMGetVolatile(I) && LLVMGetOrdering(I) == LLVMAtomicOrderingNotAtomic;
}

/* a builtin call without memory effects or synchronization: the backend's
 * spv.* values (not its barriers) and LLVM's intrinsics that touch no memory */
static int pure_call(LLVMValueRef I)
{
    LLVMValueRef f = LLVMGetCalledValue(I);
    if (!f || !LLVMIsAFunction(f))
        return 0;
    size_t len;
    const char *n = LLVMGetValueName2(f, &len);
    if (len > 4 && !strncmp(n, "spv.", 4))
        return !strstr(n, "barrier");
    if (!LLVMGetIntrinsicID(f))
        return 0;
    unsigned mem = LLVMGetEnumAttributeKindForName("memory", 6);
    LLVMAttributeRef a = LLVMGetEnumAttributeAtIndex(f, (unsigned)LLVMAttributeFunctionIndex, mem);
    return a && LLVMGetEnumAttributeValue(a) == 0;
}

static int kind_of(LLVMValueRef I)
{
    if (LLVMIsATerminatorInst(I) || LLVMIsAPHINode(I) || LLVMIsAAllocaInst(I) || LLVMIsAAtomicRMWInst(I) ||
        LLVMIsAAtomicCmpXchgInst(I) || LLVMIsAFenceInst(I) || LLVMIsAVAArgInst(I))
        return K_STOP;
    if (LLVMIsACallInst(I))
        return pure_call(I) ? K_PURE : K_STOP;
    int ld = LLVMIsALoadInst(I) != NULL, st = LLVMIsAStoreInst(I) != NULL;
    if (!ld && !st)
        return K_PURE;
    if (!plain_access(I))
        return K_STOP;
    LLVMValueRef p = ptr_of(I);
    LLVMTypeRef t = ld ? LLVMTypeOf(I) : LLVMTypeOf(LLVMGetOperand(I, 0));
    if (LLVMGetPointerAddressSpace(LLVMTypeOf(p)) == 1 && LLVMGetAlignment(I) < 4 && word_type(t))
        return ld ? K_LOAD : K_STORE;
    return ld ? K_OTHER_LOAD : K_STOP;
}

static int uses_dep(const vctx *c, LLVMValueRef I)
{
    int n = LLVMGetNumOperands(I);
    for (int i = 0; i < n; i++)
        if (wl_ptrmap_has(&c->dep, LLVMGetOperand(I, (unsigned)i)))
            return 1;
    return 0;
}

/* Gathers the window from I0 (a candidate access of kind k) into c->acc,
 * c->hoist and c->defer; returns the first instruction after it (NULL at
 * the block's end: never, the terminator stops it). */
static LLVMValueRef gather(vctx *c, LLVMValueRef I0, int k)
{
    c->acc.n = c->hoist.n = c->defer.n = 0;
    wl_ptrmap_clear(&c->dep);
    LLVMValueRef I = I0, after = I0; /* after: the first instruction not in the window */
    size_t nh = 0, nd = 0;            /* the lists' lengths at the last access */
    while (I) {
        int ki = kind_of(I);
        if (ki == K_STOP || (ki != k && (ki == K_LOAD || ki == K_STORE)))
            break;
        if (k == K_STORE && ki == K_OTHER_LOAD)
            break;
        if (ki == k) {
            if (c->acc.n == WINDOW_MAX || (k == K_LOAD && uses_dep(c, I)))
                break;
            if (!vl_push(&c->acc, I) || (k == K_LOAD && !wl_ptrmap_put(&c->dep, I, 1)))
                return c->oom = 1, NULL;
            after = LLVMGetNextInstruction(I);
            nh = c->hoist.n;
            nd = c->defer.n;
        } else if (k == K_LOAD && uses_dep(c, I)) {
            if (!vl_push(&c->defer, I) || !wl_ptrmap_put(&c->dep, I, 1))
                return c->oom = 1, NULL;
        } else if (!vl_push(&c->hoist, I)) {
            return c->oom = 1, NULL;
        }
        I = LLVMGetNextInstruction(I);
    }
    /* what follows the last access stays where it is */
    c->hoist.n = nh;
    c->defer.n = nd;
    return after;
}

/* moves I to the builder's position, keeping its name */
static int move_here(vctx *c, LLVMValueRef I)
{
    size_t len;
    const char *n = LLVMGetValueName2(I, &len);
    char *name = malloc(len + 1);
    if (!name)
        return c->oom = 1, 0;
    memcpy(name, n, len);
    name[len] = 0;
    LLVMInstructionRemoveFromParent(I);
    LLVMInsertIntoBuilderWithName(c->b, I, name);
    free(name);
    return 1;
}

/* the access's address as an i64: the integer its inttoptr converts, or
 * one made at the builder */
static LLVMValueRef address(vctx *c, LLVMValueRef acc)
{
    LLVMValueRef p = ptr_of(acc);
    if (LLVMIsAIntToPtrInst(p) && LLVMTypeOf(LLVMGetOperand(p, 0)) == c->i64)
        return LLVMGetOperand(p, 0);
    return LLVMBuildPtrToInt(c->b, p, c->i64, "va.addr");
}

/* the access's address as B + k, split where it is an add of a constant,
 * so the window's accesses at one base and offsets that are multiples of 4
 * test the base once */
static LLVMValueRef base_and_offset(vctx *c, LLVMValueRef acc, int64_t *k)
{
    LLVMValueRef a = address(c, acc);
    *k = 0;
    if (wl_fold_is_op(a, LLVMAdd) && LLVMIsAConstantInt(LLVMGetOperand(a, 1))) {
        *k = LLVMConstIntGetSExtValue(LLVMGetOperand(a, 1));
        a = LLVMGetOperand(a, 0);
    }
    return a;
}

/* ((a0 + k0) | (a1 + k1) | ...) & 3 == 0, each (base, k mod 4) once */
static LLVMValueRef aligned_cond(vctx *c)
{
    LLVMValueRef bases[WINDOW_MAX];
    int64_t ks[WINDOW_MAX];
    size_t nt = 0;
    LLVMValueRef any = NULL;
    for (size_t i = 0; i < c->acc.n; i++) {
        int64_t k;
        LLVMValueRef a = base_and_offset(c, c->acc.v[i], &k);
        k &= 3;
        size_t j = 0;
        while (j < nt && !(bases[j] == a && ks[j] == k))
            j++;
        if (j < nt)
            continue;
        bases[nt] = a;
        ks[nt++] = k;
        LLVMValueRef t = k ? LLVMBuildAdd(c->b, a, LLVMConstInt(c->i64, (uint64_t)k, 0), "") : a;
        any = any ? LLVMBuildOr(c->b, any, t, "") : t;
    }
    LLVMValueRef low = LLVMBuildAnd(c->b, any, LLVMConstInt(c->i64, 3, 0), "");
    return LLVMBuildICmp(c->b, LLVMIntEQ, low, LLVMConstInt(c->i64, 0, 0), "va.aligned");
}

/* The routine making one access of type t (a load, or a store of a value
 * of type t) at an address of unknown alignment, once a module: the
 * slow path's accesses are calls, so a window's bytes are not repeated at
 * every access (the backend emits the access in it once). */
static LLVMValueRef routine(vctx *c, LLVMValueRef proto, int load, LLVMTypeRef t)
{
    LLVMModuleRef m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(proto)));
    char *ts = LLVMPrintTypeToString(t), name[96];
    size_t j = 0;
    for (const char *p = ts; *p && j < 40; p++)
        if ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9'))
            name[j++] = *p;
    name[j] = 0;
    LLVMDisposeMessage(ts);
    char full[128];
    snprintf(full, sizeof full, "wl.va.%s.%s", load ? "load" : "store", name);
    LLVMValueRef f = LLVMGetNamedFunction(m, full);
    if (f)
        return f;
    LLVMTypeRef params[2] = {c->i64, t};
    LLVMTypeRef fty = LLVMFunctionType(load ? t : LLVMVoidTypeInContext(c->ctx), params, load ? 1 : 2, 0);
    f = LLVMAddFunction(m, full, fty);
    LLVMSetLinkage(f, LLVMInternalLinkage);
    wl_opt_add_attr(c->ctx, f, "noinline", 0);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c->ctx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c->ctx, f, "entry"));
    LLVMValueRef p = LLVMBuildIntToPtr(b, LLVMGetParam(f, 0), LLVMPointerTypeInContext(c->ctx, 1), "p");
    LLVMValueRef a;
    if (load) {
        a = LLVMBuildLoad2(b, t, p, "v");
        LLVMSetAlignment(a, 1);
        LLVMBuildRet(b, a);
    } else {
        a = LLVMBuildStore(b, LLVMGetParam(f, 1), p);
        LLVMSetAlignment(a, 1);
        LLVMBuildRetVoid(b);
    }
    LLVMDisposeBuilder(b);
    return f;
}

/* at the builder: the call of I's routine (the access I makes) */
static LLVMValueRef slow_call(vctx *c, LLVMValueRef I)
{
    int load = LLVMIsALoadInst(I) != NULL;
    LLVMTypeRef t = load ? LLVMTypeOf(I) : LLVMTypeOf(LLVMGetOperand(I, 0));
    LLVMValueRef f = routine(c, I, load, t);
    LLVMValueRef args[2] = {address(c, I), load ? NULL : LLVMGetOperand(I, 0)};
    return LLVMBuildCall2(c->b, LLVMGlobalGetValueType(f), f, args, load ? 1 : 2, "");
}

/* Runs of four i32 loads of the window at one base and offsets k, k + 4,
 * k + 8, k + 12: grp[i] the index of its run's first load (-1: none), pos[i]
 * its element. Each run is one <4 x i32> access on both paths and one
 * phi, not four (the fast path's four merge into one anyway: merge_loads);
 * a run starts at a load with no ungrouped load 4 bytes below it. */
static void group_loads(vctx *c, int *grp, int *pos)
{
    LLVMValueRef base[WINDOW_MAX];
    int64_t k[WINDOW_MAX];
    int ok[WINDOW_MAX];
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->ctx);
    size_t n = c->acc.n;
    for (size_t i = 0; i < n; i++) {
        grp[i] = -1;
        pos[i] = 0;
        ok[i] = LLVMIsALoadInst(c->acc.v[i]) && LLVMTypeOf(c->acc.v[i]) == i32;
        base[i] = ok[i] ? base_and_offset(c, c->acc.v[i], &k[i]) : NULL;
    }
    for (size_t i = 0; i < n; i++) {
        if (!ok[i] || grp[i] >= 0)
            continue;
        int below = 0;
        for (size_t j = 0; j < n && !below; j++)
            below = j != i && ok[j] && grp[j] < 0 && base[j] == base[i] && k[j] == k[i] - 4;
        if (below)
            continue;
        size_t m[4] = {i, 0, 0, 0};
        int found = 1;
        for (int e = 1; e < 4 && found; e++) {
            found = 0;
            for (size_t j = 0; j < n && !found; j++)
                if (ok[j] && grp[j] < 0 && j != i && base[j] == base[i] && k[j] == k[i] + 4 * e) {
                    m[e] = j;
                    found = 1;
                }
        }
        if (!found)
            continue;
        for (int e = 0; e < 4; e++) {
            grp[m[e]] = (int)i;
            pos[m[e]] = e;
        }
    }
}

/* the window gathered in c, from I0 to before `after`: head, fast, slow,
 * the tail B (from `after` on) */
static int version(vctx *c, LLVMValueRef I0, LLVMValueRef after)
{
    LLVMBasicBlockRef B = LLVMGetInstructionParent(I0);
    LLVMBasicBlockRef H = LLVMInsertBasicBlockInContext(c->ctx, B, "va.head");
    /* B's predecessors (B itself, where it loops) now enter at H; the phis
     * of B's successors still name B, which keeps the terminator (so no
     * replaceAllUsesWith of the block: it would rename those too) */
    c->preds.n = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(B)); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef t = LLVMGetUser(u);
        if (LLVMIsATerminatorInst(t) && !vl_push(&c->preds, t))
            return c->oom = 1, 0;
    }
    for (size_t i = 0; i < c->preds.n; i++)
        for (unsigned j = 0, n = LLVMGetNumSuccessors(c->preds.v[i]); j < n; j++)
            if (LLVMGetSuccessor(c->preds.v[i], j) == B)
                LLVMSetSuccessor(c->preds.v[i], j, H);
    LLVMPositionBuilderAtEnd(c->b, H);
    for (LLVMValueRef I = LLVMGetFirstInstruction(B); I != I0;) {
        LLVMValueRef next = LLVMGetNextInstruction(I);
        if (!move_here(c, I))
            return 0;
        I = next;
    }
    for (size_t i = 0; i < c->hoist.n; i++)
        if (!move_here(c, c->hoist.v[i]))
            return 0;
    LLVMValueRef cond = aligned_cond(c);
    int grp[WINDOW_MAX], pos[WINDOW_MAX];
    group_loads(c, grp, pos);
    LLVMTypeRef v4 = LLVMVectorType(LLVMInt32TypeInContext(c->ctx), 4);
    LLVMBasicBlockRef F = LLVMInsertBasicBlockInContext(c->ctx, B, "va.fast");
    LLVMBasicBlockRef S = LLVMInsertBasicBlockInContext(c->ctx, B, "va.slow");
    LLVMBuildCondBr(c->b, cond, F, S);
    LLVMValueRef fast[WINDOW_MAX], slow[WINDOW_MAX];
    LLVMPositionBuilderAtEnd(c->b, F);
    for (size_t i = 0; i < c->acc.n; i++) {
        if (grp[i] == (int)i) { /* a run's four loads as one */
            fast[i] = LLVMBuildLoad2(c->b, v4, ptr_of(c->acc.v[i]), "va.v4");
        } else if (grp[i] < 0) {
            fast[i] = LLVMInstructionClone(c->acc.v[i]);
            LLVMInsertIntoBuilder(c->b, fast[i]);
        } else {
            continue;
        }
        LLVMSetAlignment(fast[i], 4);
    }
    LLVMBuildBr(c->b, B);
    LLVMPositionBuilderAtEnd(c->b, S);
    for (size_t i = 0; i < c->acc.n; i++) {
        LLVMValueRef I = c->acc.v[i];
        if (grp[i] == (int)i) {
            LLVMValueRef f = routine(c, I, 1, v4);
            LLVMValueRef a = address(c, I);
            slow[i] = LLVMBuildCall2(c->b, LLVMGlobalGetValueType(f), f, &a, 1, "");
            continue;
        }
        if (grp[i] >= 0)
            continue; /* its run's leader loads it; replaced below */
        /* the access as a call of its routine; a load's call takes its place */
        LLVMValueRef call = slow_call(c, I);
        c->acc.v[i] = call;
        if (LLVMIsALoadInst(I))
            LLVMReplaceAllUsesWith(I, call);
        LLVMInstructionEraseFromParent(I);
    }
    LLVMBuildBr(c->b, B);
    LLVMPositionBuilderBefore(c->b, after); /* the window's own have all moved */
    for (size_t i = 0; i < c->acc.n; i++) {
        LLVMValueRef L = c->acc.v[i];
        LLVMBasicBlockRef from[2] = {F, S};
        if (grp[i] == (int)i) { /* the run's phi; its elements after every phi */
            LLVMValueRef phi = LLVMBuildPhi(c->b, v4, "va.v4");
            LLVMValueRef vals[2] = {fast[i], slow[i]};
            LLVMAddIncoming(phi, vals, from, 2);
            slow[i] = phi;
            continue;
        }
        if (grp[i] >= 0 || LLVMGetTypeKind(LLVMTypeOf(L)) == LLVMVoidTypeKind)
            continue;
        LLVMValueRef phi = LLVMBuildPhi(c->b, LLVMTypeOf(L), "");
        LLVMReplaceAllUsesWith(L, phi);
        LLVMValueRef vals[2] = {fast[i], L};
        LLVMAddIncoming(phi, vals, from, 2);
    }
    for (size_t j = 0; j < c->acc.n; j++)
        if (grp[j] >= 0) {
            LLVMValueRef e = LLVMBuildExtractElement(
                c->b, slow[grp[j]], LLVMConstInt(LLVMInt32TypeInContext(c->ctx), (unsigned)pos[j], 0), "");
            LLVMReplaceAllUsesWith(c->acc.v[j], e);
        }
    for (size_t i = 0; i < c->acc.n; i++)
        if (grp[i] >= 0)
            LLVMInstructionEraseFromParent(c->acc.v[i]);
    for (size_t i = 0; i < c->defer.n; i++)
        if (!move_here(c, c->defer.v[i]))
            return 0;
    return 1;
}

static int version_align(LLVMModuleRef m)
{
    vctx c;
    memset(&c, 0, sizeof c);
    c.ctx = LLVMGetModuleContext(m);
    c.i64 = LLVMInt64TypeInContext(c.ctx);
    c.b = LLVMCreateBuilderInContext(c.ctx);
    int windows = 0;
    LLVMValueRef last = LLVMGetLastFunction(m); /* the routines come after it */
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f && !c.oom; f = f == last ? NULL : LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb && !c.oom; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I && !c.oom;) {
                int k = kind_of(I);
                if (k != K_LOAD && k != K_STORE) {
                    I = LLVMGetNextInstruction(I);
                    continue;
                }
                LLVMValueRef after = gather(&c, I, k);
                if (c.oom || !version(&c, I, after))
                    break;
                windows++;
                I = after; /* in bb, now the tail */
            }
    free(c.acc.v);
    free(c.hoist.v);
    free(c.defer.v);
    free(c.preds.v);
    wl_ptrmap_free(&c.dep);
    LLVMDisposeBuilder(c.b);
    return c.oom ? -1 : windows;
}

/* the pass (passes.h) */
int wl_opt_version_align(wl_pass_ctx *P, unsigned arg)
{
    (void)arg;
    int n = version_align(P->m);
    return n < 0 ? wl_pass_fail(P, WL_ERR_NOMEM, "versioning unaligned accesses: out of memory") : n;
}
