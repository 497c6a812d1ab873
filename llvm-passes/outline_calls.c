/* wl_opt_outline_calls (passes.h): each guest function that the call plan
 * copied once and several calls enter, a function of the host module.
 *
 * The lifter's plan per function (frontend/lift/lift_calls.c) lifts a callee
 * once; its calls branch into it and its returns compare the return address
 * against the return sites of its calls. In one host function that makes a
 * cycle through all the callers' code, which the backend's structurizer
 * turns into nested flow regions (seconds to minutes on hashcat's large
 * kernels; docs/benchmarks.md). Where the plan has no recursion, the lifter
 * marks each call edge e with two blocks: wl.call.<e> (the caller's side,
 * which sets the pseudo-register cs to e and branches to the callee's
 * start) and wl.ret.<e> (where a return that compared equal to e's return
 * site, with cs == e, continues), so that a callee entered by call e can only
 * leave to wl.ret.<e> or end the kernel.
 *
 * This pass, on the lowered host IR (both models' lowering leave one host
 * function, main), takes a callee's blocks: those reached from its start
 * without passing its own wl.ret.<e> blocks or a block that returns from the
 * kernel. Where that region has no other entry than its calls, the region
 * moves into a function `i32 @wl.fn.<n>()`, innermost callees first:
 *  - values that cross its boundary pass through one private array
 *    (@wl.xfer): a value from outside is stored at each call and loaded at
 *    the function's entry; a value defined inside and used outside is stored
 *    where it is defined and loaded where it is used (as LLVM's reg2mem
 *    would: exact for any control flow); the phis at the region's start and
 *    at the blocks it leaves to take their incoming values the same way;
 *  - an alloca of main used only inside moves into the function; one used
 *    inside and outside is copied in at each call and out at each exit;
 *  - each way out is an index the function returns; at call e the caller
 *    branches on it to wl.ret.<e> or to the kernel's return (the plan makes
 *    every other way out unreachable from call e: cs would not match).
 * A region with another entry, a pointer crossing its boundary that is not
 * a device address, or a call of a callee not yet made a function (a cycle)
 * is left in main, as before. arg: the fewest calls a callee needs. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Target.h>

#include "ir/ptrmap.h"
#include "passes.h"

/* a pointer -> index map: ir/ptrmap.h */
typedef wl_ptrmap pmap;
static int pm_get(const pmap *m, const void *p) { return (int)wl_ptrmap_get(m, p); }
static int pm_put(pmap *m, void *p, int v) { return wl_ptrmap_put(m, p, v); }
static void pm_free(pmap *m) { wl_ptrmap_free(m); }

/* ---- growable arrays ----------------------------------------------------- */

#define VEC(T)                                                                                                         \
    struct {                                                                                                           \
        T *a;                                                                                                          \
        size_t n, cap;                                                                                                 \
    }
#define VPUSH(vec, x, okvar)                                                                                           \
    do {                                                                                                               \
        if ((vec).n == (vec).cap) {                                                                                    \
            size_t nc_ = (vec).cap ? (vec).cap * 2 : 16;                                                               \
            void *na_ = realloc((vec).a, nc_ * sizeof *(vec).a);                                                       \
            if (!na_) {                                                                                                \
                okvar = 0;                                                                                             \
                break;                                                                                                 \
            }                                                                                                          \
            (vec).a = na_;                                                                                             \
            (vec).cap = nc_;                                                                                           \
        }                                                                                                              \
        (vec).a[(vec).n++] = (x);                                                                                      \
    } while (0)

typedef VEC(LLVMBasicBlockRef) bbvec;
typedef VEC(LLVMValueRef) valvec;

/* ---- the pass's state ---------------------------------------------------- */

typedef struct callee {
    LLVMBasicBlockRef entry;
    valvec calls;   /* the terminators that enter it: of wl.call.<e>, or of the
                       loop budget's block after it (lower/budget.c) */
    VEC(unsigned) succ; /* which successor of each is the start */
    VEC(long) edge; /* their e */
    enum { C_OPEN, C_DONE /* a function now */, C_LEFT /* stays in main */, C_INLINE /* too few calls: its
                                                                                    callers' code */ } state;
} callee;

typedef struct oc {
    LLVMModuleRef m;
    LLVMContextRef ctx;
    LLVMTargetDataRef td;
    LLVMValueRef main;
    LLVMTypeRef i8, i32, i64;
    LLVMBuilderRef b;
    LLVMValueRef xfer;  /* @wl.xfer, or NULL */
    uint32_t xfer_bytes;
    LLVMBasicBlockRef *call_entry; /* per edge e: the callee start wl.call.<e> went to */
    LLVMBasicBlockRef *ret_bb;     /* per edge e: wl.ret.<e> */
    long nedge;
    callee *c;
    size_t nc;
    unsigned made;
    int oom;
} oc;

static long edge_of(LLVMBasicBlockRef bb, const char *prefix)
{
    size_t len, pl = strlen(prefix);
    const char *n = LLVMGetValueName2(LLVMBasicBlockAsValue(bb), &len);
    if (len <= pl || memcmp(n, prefix, pl))
        return -1;
    long e = 0;
    for (size_t i = pl; i < len; i++) {
        if (n[i] < '0' || n[i] > '9' || e > 100000000)
            return -1;
        e = e * 10 + (n[i] - '0');
    }
    return e;
}

/* A block the lifter made for a callee's code: b<hex offset>.c<context> */
static int lifted_start(LLVMBasicBlockRef bb)
{
    size_t len, i = 1;
    const char *n = LLVMGetValueName2(LLVMBasicBlockAsValue(bb), &len);
    if (len < 4 || n[0] != 'b')
        return 0;
    while (i < len && ((n[i] >= '0' && n[i] <= '9') || (n[i] >= 'a' && n[i] <= 'f')))
        i++;
    if (i == 1 || i + 2 >= len || n[i] != '.' || n[i + 1] != 'c')
        return 0;
    for (i += 2; i < len; i++)
        if (n[i] < '0' || n[i] > '9')
            return 0;
    return 1;
}

/* The kernel's return: a block that returns, or the one the escape
 * records branch every return to (lower/memory/escape_records.c) */
static int is_kernel_ret(LLVMBasicBlockRef bb)
{
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (t && LLVMGetInstructionOpcode(t) == LLVMRet)
        return 1;
    size_t len;
    const char *n = LLVMGetValueName2(LLVMBasicBlockAsValue(bb), &len);
    return len == 7 && !memcmp(n, "wl.exit", 7);
}

/* A byte slot of @wl.xfer for a value of type t (stored as slot_type(t)) */
static LLVMTypeRef slot_type(oc *O, LLVMTypeRef t)
{
    LLVMTypeKind k = LLVMGetTypeKind(t);
    if (k == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) < 32)
        return O->i32;
    if (k == LLVMPointerTypeKind)
        return O->i64;
    if (k == LLVMVectorTypeKind) {
        LLVMTypeRef el = LLVMGetElementType(t);
        if (LLVMGetTypeKind(el) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(el) < 32)
            return LLVMVectorType(O->i32, LLVMGetVectorSize(t));
    }
    return t;
}

/* Whether a value of type t can cross (a slot holds it) */
static int crossable(LLVMTypeRef t)
{
    LLVMTypeKind k = LLVMGetTypeKind(t);
    switch (k) {
    case LLVMIntegerTypeKind: return LLVMGetIntTypeWidth(t) <= 64;
    case LLVMHalfTypeKind:
    case LLVMFloatTypeKind:
    case LLVMDoubleTypeKind: return 1;
    case LLVMPointerTypeKind: return LLVMGetPointerAddressSpace(t) == 1; /* a device address: an i64 */
    case LLVMVectorTypeKind: {
        LLVMTypeRef el = LLVMGetElementType(t);
        return LLVMGetVectorSize(t) <= 4 && LLVMGetTypeKind(el) != LLVMPointerTypeKind && crossable(el);
    }
    default: return 0;
    }
}

static uint32_t new_slot(oc *O, LLVMTypeRef t)
{
    LLVMTypeRef st = slot_type(O, t);
    uint32_t size = (uint32_t)LLVMStoreSizeOfType(O->td, st);
    uint32_t al = size >= 8 ? 8 : 4;
    uint32_t off = (O->xfer_bytes + al - 1) & ~(al - 1);
    O->xfer_bytes = off + ((size + 3) & ~3u);
    return off;
}

/* @wl.xfer at least xfer_bytes long (a larger one replaces a smaller) */
static void xfer_fit(oc *O)
{
    uint32_t words = (O->xfer_bytes + 7) / 4 + 1;
    if (O->xfer && LLVMGetArrayLength2(LLVMGlobalGetValueType(O->xfer)) >= words)
        return;
    LLVMTypeRef at = LLVMArrayType2(O->i32, words);
    LLVMValueRef g = LLVMAddGlobal(O->m, at, "");
    LLVMSetLinkage(g, LLVMInternalLinkage);
    LLVMSetInitializer(g, LLVMConstNull(at));
    LLVMSetAlignment(g, 8);
    if (O->xfer) {
        LLVMReplaceAllUsesWith(O->xfer, g);
        LLVMDeleteGlobal(O->xfer);
    }
    LLVMSetValueName2(g, "wl.xfer", 7);
    O->xfer = g;
}

static LLVMValueRef slot_ptr(oc *O, uint32_t off)
{
    LLVMValueRef idx = LLVMConstInt(O->i32, off, 0);
    return LLVMBuildGEP2(O->b, O->i8, O->xfer, &idx, 1, "");
}

static void slot_store(oc *O, LLVMValueRef v, uint32_t off)
{
    LLVMTypeRef t = LLVMTypeOf(v), st = slot_type(O, t);
    if (st != t)
        v = LLVMGetTypeKind(t) == LLVMPointerTypeKind ? LLVMBuildPtrToInt(O->b, v, st, "") : LLVMBuildZExt(O->b, v, st, "");
    LLVMValueRef s = LLVMBuildStore(O->b, v, slot_ptr(O, off));
    LLVMSetAlignment(s, 4);
}

static LLVMValueRef slot_load(oc *O, LLVMTypeRef t, uint32_t off)
{
    LLVMTypeRef st = slot_type(O, t);
    LLVMValueRef v = LLVMBuildLoad2(O->b, st, slot_ptr(O, off), "");
    LLVMSetAlignment(v, 4);
    if (st != t)
        v = LLVMGetTypeKind(t) == LLVMPointerTypeKind ? LLVMBuildIntToPtr(O->b, v, t, "") : LLVMBuildTrunc(O->b, v, t, "");
    return v;
}

static void at_end(oc *O, LLVMBasicBlockRef bb)
{
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (t)
        LLVMPositionBuilderBefore(O->b, t);
    else
        LLVMPositionBuilderAtEnd(O->b, bb);
}

static LLVMValueRef first_non_phi(LLVMBasicBlockRef bb)
{
    LLVMValueRef i = LLVMGetFirstInstruction(bb);
    while (i && LLVMGetInstructionOpcode(i) == LLVMPHI)
        i = LLVMGetNextInstruction(i);
    return i;
}

static int in_region(const pmap *R, LLVMBasicBlockRef bb) { return pm_get(R, bb) >= 0; }

static int inst_in_region(const pmap *R, LLVMValueRef v)
{
    return LLVMIsAInstruction(v) && in_region(R, LLVMGetInstructionParent(v));
}

/* A phi like old with only the incoming entries whose block lies inside R
 * (inside 1) or outside it (inside 0); old replaced. Returns the new phi. */
static LLVMValueRef rebuild_phi(oc *O, LLVMValueRef old, const pmap *R, int inside)
{
    LLVMPositionBuilderBefore(O->b, old);
    LLVMValueRef nphi = LLVMBuildPhi(O->b, LLVMTypeOf(old), "");
    unsigned n = LLVMCountIncoming(old);
    for (unsigned i = 0; i < n; i++) {
        LLVMBasicBlockRef ib = LLVMGetIncomingBlock(old, i);
        if (in_region(R, ib) != inside)
            continue;
        LLVMValueRef iv = LLVMGetIncomingValue(old, i);
        LLVMAddIncoming(nphi, &iv, &ib, 1);
    }
    size_t len;
    const char *nm = LLVMGetValueName2(old, &len);
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(len < 60 ? len : 60), nm);
    LLVMReplaceAllUsesWith(old, nphi);
    LLVMInstructionEraseFromParent(old);
    LLVMSetValueName2(nphi, name, strlen(name));
    return nphi;
}

/* ---- the region ------------------------------------------------------- */

/* The blocks of callee ci: reached from its start, stopping at its own
 * wl.ret.<e> blocks and the kernel's returns. 1: found (R, list); 0: wait
 * (a callee it calls is still in main); -1: leave it in main. */
static int region_of(oc *O, size_t ci, pmap *R, bbvec *list)
{
    callee *c = &O->c[ci];
    int ok = 1;
    VPUSH(*list, c->entry, ok);
    if (!ok || !pm_put(R, c->entry, 0))
        return O->oom = 1, -1;
    for (size_t h = 0; h < list->n; h++) {
        LLVMBasicBlockRef bb = list->a[h];
        long e = edge_of(bb, "wl.call.");
        if (e >= 0 && e < O->nedge && O->call_entry[e]) {
            LLVMBasicBlockRef to = O->call_entry[e];
            if (to == c->entry)
                return -1; /* a call of itself (the plan has none) */
            for (size_t k = 0; k < O->nc; k++)
                if (O->c[k].entry == to && (O->c[k].state == C_OPEN || O->c[k].state == C_LEFT))
                    return O->c[k].state == C_LEFT ? -1 : 0; /* its callee first */
        }
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
        for (unsigned s = 0; s < ns; s++) {
            LLVMBasicBlockRef sb = LLVMGetSuccessor(t, s);
            if (in_region(R, sb) || is_kernel_ret(sb))
                continue;
            long re = edge_of(sb, "wl.ret.");
            if (re >= 0 && re < O->nedge && O->call_entry[re] == c->entry)
                continue;
            VPUSH(*list, sb, ok);
            if (!ok || !pm_put(R, sb, (int)list->n - 1))
                return O->oom = 1, -1;
        }
    }
    return 1;
}

/* Whether every predecessor of a region block lies in the region, but the
 * start's, which must be its calls (one scan of main's terminators) */
static int single_entry(oc *O, size_t ci, const pmap *R)
{
    callee *c = &O->c[ci];
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(O->main); bb; bb = LLVMGetNextBasicBlock(bb)) {
        if (in_region(R, bb))
            continue;
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
        for (unsigned s = 0; s < ns; s++) {
            LLVMBasicBlockRef sb = LLVMGetSuccessor(t, s);
            if (!in_region(R, sb))
                continue;
            if (sb != c->entry)
                return 0;
            int call = 0;
            for (size_t k = 0; k < c->calls.n; k++)
                call |= c->calls.a[k] == t;
            if (!call)
                return 0;
        }
    }
    return 1;
}

/* ---- making the function ---------------------------------------------- */

typedef struct xval {
    LLVMValueRef v;
    uint32_t off;
    int remat; /* a value from outside computed again at the entry */
} xval;

/* The operands of v that are values (a call's: its arguments, not the
 * callee) */
static unsigned value_operands(LLVMValueRef v)
{
    return LLVMIsACallInst(v) ? LLVMGetNumArgOperands(v) : (unsigned)LLVMGetNumOperands(v);
}

/* Whether v (defined outside) can be computed again inside the function
 * instead of crossing: pure integer arithmetic, casts, compares, selects,
 * vector element moves, GEPs, the invocation's ids and loads of the push
 * constants, over constants and such values (at most *budget of them). */
static int remat_ok(LLVMValueRef v, int depth, int *budget)
{
    if (!LLVMIsAInstruction(v))
        return LLVMIsAConstant(v) != NULL;
    if (depth > 6 || --*budget < 0)
        return 0;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: case LLVMLShr: case LLVMAShr:
    case LLVMAnd: case LLVMOr: case LLVMXor: case LLVMZExt: case LLVMSExt: case LLVMTrunc:
    case LLVMICmp: case LLVMSelect: case LLVMBitCast: case LLVMPtrToInt: case LLVMIntToPtr:
    case LLVMExtractElement: case LLVMInsertElement: case LLVMShuffleVector: case LLVMExtractValue:
    case LLVMInsertValue: case LLVMGetElementPtr: case LLVMFreeze:
        break;
    case LLVMLoad: {
        LLVMValueRef p = LLVMGetOperand(v, 0);
        if (LLVMGetPointerAddressSpace(LLVMTypeOf(p)) != 6 || LLVMGetVolatile(v))
            return 0; /* only the push constants never change */
        break;
    }
    case LLVMCall: {
        LLVMValueRef f = LLVMGetCalledValue(v);
        size_t len;
        const char *n = f && LLVMIsAFunction(f) ? LLVMGetValueName2(f, &len) : NULL;
        static const char *const ids[] = {"spv.subgroup_local_invocation_id", "spv.workgroup_id",
                                          "spv.local_invocation_id", "spv.global_invocation_id",
                                          "spv.subgroup_id", "spv.num_workgroups"};
        int pure = 0;
        for (size_t i = 0; n && i < sizeof ids / sizeof ids[0]; i++)
            pure |= strlen(ids[i]) == len && !memcmp(ids[i], n, len);
        if (!pure)
            return 0;
        break;
    }
    default:
        return 0;
    }
    unsigned n = value_operands(v);
    for (unsigned i = 0; i < n; i++)
        if (!remat_ok(LLVMGetOperand(v, i), depth + 1, budget))
            return 0;
    return 1;
}

/* v computed again at the builder (remat_ok said it can be); done maps
 * each value cloned to its clone */
static LLVMValueRef remat(LLVMBuilderRef b, LLVMValueRef v, pmap *done, valvec *clones, int *ok)
{
    if (!LLVMIsAInstruction(v))
        return v;
    int i = pm_get(done, v);
    if (i >= 0)
        return clones->a[i];
    LLVMValueRef c = LLVMInstructionClone(v);
    unsigned n = value_operands(v);
    for (unsigned k = 0; k < n; k++) {
        LLVMValueRef op = LLVMGetOperand(v, k);
        if (LLVMIsAInstruction(op))
            LLVMSetOperand(c, k, remat(b, op, done, clones, ok));
    }
    LLVMInsertIntoBuilder(b, c);
    VPUSH(*clones, c, *ok);
    if (*ok && !pm_put(done, v, (int)clones->n - 1))
        *ok = 0;
    return c;
}

typedef struct xphi {
    LLVMBasicBlockRef to; /* the block outside (an exit) or the start */
    LLVMValueRef phi;
    uint32_t off;
} xphi;

typedef struct xalloca {
    LLVMValueRef a, local;
    LLVMTypeRef t;
    uint32_t off;
    int copy; /* used outside too: copied in and out */
} xalloca;

typedef struct xuse {
    LLVMValueRef user;
    unsigned op;
    uint32_t off;
    LLVMTypeRef t;
} xuse;

/* Whether alloca a is only loaded and stored (as the pointer) */
static int plain_alloca(LLVMValueRef a)
{
    for (LLVMUseRef u = LLVMGetFirstUse(a); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef us = LLVMGetUser(u);
        LLVMOpcode op = LLVMIsAInstruction(us) ? LLVMGetInstructionOpcode(us) : LLVMRet;
        if (op == LLVMLoad)
            continue;
        if (op == LLVMStore && LLVMGetOperand(us, 1) == a && LLVMGetOperand(us, 0) != a)
            continue;
        return 0;
    }
    return 1;
}

/* The instructions that use v (each once), inside R (inside 1) or outside;
 * 0: out of memory */
static int users_of(LLVMValueRef v, const pmap *R, int inside, valvec *out)
{
    int ok = 1;
    out->n = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(v); u && ok; u = LLVMGetNextUse(u)) {
        LLVMValueRef us = LLVMGetUser(u);
        if (!LLVMIsAInstruction(us) || inst_in_region(R, us) != inside)
            continue;
        int dup = 0;
        for (size_t k = 0; k < out->n; k++)
            dup |= out->a[k] == us;
        if (!dup)
            VPUSH(*out, us, ok);
    }
    return ok;
}

/* Moves callee ci's region (R, list) into a function of its own. 1 done,
 * 0 left as it was (nothing changed). */
static int outline(oc *O, size_t ci, const pmap *R, const bbvec *list)
{
    callee *c = &O->c[ci];
    int ok = 1, done = 0;
    VEC(xval) in = {0}, out = {0};
    VEC(xphi) phis = {0};
    VEC(xalloca) al = {0};
    VEC(xuse) outuse = {0};
    bbvec exits = {0};
    valvec tmp = {0};
    pmap inmap = {0}, outmap = {0}, exitmap = {0}, rdone = {0};
    valvec rclones = {0};
    LLVMValueRef *inval = NULL, *callphi = NULL;
    uint32_t saved_bytes = O->xfer_bytes;

#define IN_VALUE(op)                                                                                                   \
    do {                                                                                                               \
        if (LLVMIsAInstruction(op) && !in_region(R, LLVMGetInstructionParent(op)) &&                                   \
            LLVMGetInstructionOpcode(op) != LLVMAlloca && pm_get(&inmap, op) < 0) {                                    \
            int budget_ = 16;                                                                                          \
            if (remat_ok(op, 0, &budget_)) {                                                                           \
                xval r_ = {op, 0, 1};                                                                                  \
                VPUSH(in, r_, ok);                                                                                     \
                if (ok && !pm_put(&inmap, op, (int)in.n - 1))                                                          \
                    ok = 0;                                                                                            \
                break;                                                                                                 \
            }                                                                                                          \
            if (!crossable(LLVMTypeOf(op)))                                                                            \
                goto leave;                                                                                            \
            xval x_ = {op, new_slot(O, LLVMTypeOf(op)), 0};                                                            \
            VPUSH(in, x_, ok);                                                                                         \
            if (ok && !pm_put(&inmap, op, (int)in.n - 1))                                                              \
                ok = 0;                                                                                                \
        }                                                                                                              \
    } while (0)

    /* allocas of main the region uses */
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(O->main); bb && ok; bb = LLVMGetNextBasicBlock(bb)) {
        if (in_region(R, bb))
            continue;
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I && ok; I = LLVMGetNextInstruction(I)) {
            if (LLVMGetInstructionOpcode(I) != LLVMAlloca)
                continue;
            int inside = 0, outside = 0;
            for (LLVMUseRef u = LLVMGetFirstUse(I); u; u = LLVMGetNextUse(u)) {
                if (inst_in_region(R, LLVMGetUser(u)))
                    inside = 1;
                else
                    outside = 1;
            }
            if (!inside)
                continue;
            LLVMTypeRef t = LLVMGetAllocatedType(I);
            if (!plain_alloca(I) || (outside && !crossable(t)))
                goto leave;
            xalloca x = {I, NULL, t, outside ? new_slot(O, t) : 0, outside};
            VPUSH(al, x, ok);
        }
    }
    /* values crossing the boundary, the exits and their phis */
    for (size_t h = 0; h < list->n && ok; h++) {
        LLVMBasicBlockRef bb = list->a[h];
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I && ok; I = LLVMGetNextInstruction(I)) {
            int phi = LLVMGetInstructionOpcode(I) == LLVMPHI;
            if (phi && bb == c->entry) {
                int outer = 0;
                for (unsigned i = 0; i < LLVMCountIncoming(I); i++)
                    outer |= !in_region(R, LLVMGetIncomingBlock(I, i));
                if (outer) {
                    if (!crossable(LLVMTypeOf(I)))
                        goto leave;
                    xphi x = {bb, I, new_slot(O, LLVMTypeOf(I))};
                    VPUSH(phis, x, ok);
                    /* a call's value made by an earlier run of the region
                     * (f(); f();): defined inside, used at the call */
                    for (unsigned i = 0; i < LLVMCountIncoming(I) && ok; i++) {
                        LLVMValueRef v = LLVMGetIncomingValue(I, i);
                        if (in_region(R, LLVMGetIncomingBlock(I, i)) || !inst_in_region(R, v) || pm_get(&outmap, v) >= 0)
                            continue;
                        xval xo = {v, new_slot(O, LLVMTypeOf(v)), 0};
                        VPUSH(out, xo, ok);
                        if (ok && !pm_put(&outmap, v, (int)out.n - 1))
                            ok = 0;
                    }
                }
            }
            unsigned nops = (unsigned)LLVMGetNumOperands(I);
            for (unsigned k = 0; k < nops && ok; k++) {
                if (phi && !in_region(R, LLVMGetIncomingBlock(I, k)))
                    continue; /* a start phi's value from a call: its slot */
                LLVMValueRef op = LLVMGetOperand(I, k);
                IN_VALUE(op);
            }
            if (LLVMGetTypeKind(LLVMTypeOf(I)) == LLVMVoidTypeKind)
                continue;
            for (LLVMUseRef u = LLVMGetFirstUse(I); u && ok; u = LLVMGetNextUse(u)) {
                LLVMValueRef us = LLVMGetUser(u);
                if (!LLVMIsAInstruction(us) || inst_in_region(R, us))
                    continue;
                int usphi = LLVMGetInstructionOpcode(us) == LLVMPHI;
                unsigned nu = (unsigned)LLVMGetNumOperands(us);
                for (unsigned k = 0; k < nu && ok; k++) {
                    if (LLVMGetOperand(us, k) != I || (usphi && in_region(R, LLVMGetIncomingBlock(us, k))))
                        continue; /* an exit phi's value: its slot */
                    int oi = pm_get(&outmap, I);
                    if (oi < 0) {
                        if (!crossable(LLVMTypeOf(I)))
                            goto leave;
                        xval x = {I, new_slot(O, LLVMTypeOf(I)), 0};
                        VPUSH(out, x, ok);
                        if (!ok || !pm_put(&outmap, I, (int)out.n - 1)) {
                            ok = 0;
                            break;
                        }
                        oi = (int)out.n - 1;
                    }
                    xuse xu = {us, k, out.a[oi].off, LLVMTypeOf(I)};
                    VPUSH(outuse, xu, ok);
                }
                /* a user with I twice appears twice in the use list: the
                 * second pass finds no operand left to take (below, each
                 * taken operand is replaced once) */
            }
        }
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
        for (unsigned s = 0; s < ns && ok; s++) {
            LLVMBasicBlockRef sb = LLVMGetSuccessor(t, s);
            if (in_region(R, sb))
                continue;
            if (pm_get(&exitmap, sb) < 0) {
                VPUSH(exits, sb, ok);
                if (!ok || !pm_put(&exitmap, sb, (int)exits.n - 1)) {
                    ok = 0;
                    break;
                }
                for (LLVMValueRef P = LLVMGetFirstInstruction(sb); P && LLVMGetInstructionOpcode(P) == LLVMPHI;
                     P = LLVMGetNextInstruction(P)) {
                    if (!crossable(LLVMTypeOf(P)))
                        goto leave;
                    xphi x = {sb, P, new_slot(O, LLVMTypeOf(P))};
                    VPUSH(phis, x, ok);
                }
            }
            /* a value from outside that an exit phi takes on this edge */
            for (LLVMValueRef P = LLVMGetFirstInstruction(sb); P && LLVMGetInstructionOpcode(P) == LLVMPHI && ok;
                 P = LLVMGetNextInstruction(P))
                for (unsigned i = 0; i < LLVMCountIncoming(P); i++)
                    if (LLVMGetIncomingBlock(P, i) == bb) {
                        LLVMValueRef v = LLVMGetIncomingValue(P, i);
                        if (LLVMIsAInstruction(v) && LLVMGetInstructionOpcode(v) == LLVMAlloca)
                            goto leave;
                        IN_VALUE(v);
                    }
        }
    }
    if (!ok)
        goto nomem;
    /* the exits: its own returns and the kernel's */
    for (size_t i = 0; i < exits.n; i++) {
        long re = edge_of(exits.a[i], "wl.ret.");
        if (!is_kernel_ret(exits.a[i]) && !(re >= 0 && re < O->nedge && O->call_entry[re] == c->entry)) {
            goto leave;
        }
    }
    /* the calls' values of the start's phis, read before the phis change */
    size_t ncall = c->calls.n, nsp = 0;
    for (size_t i = 0; i < phis.n; i++)
        nsp += phis.a[i].to == c->entry;
    callphi = calloc(ncall * (nsp ? nsp : 1) + 1, sizeof *callphi);
    inval = calloc(in.n + 1, sizeof *inval);
    if (!callphi || !inval)
        goto nomem;
    for (size_t k = 0; k < ncall; k++) {
        LLVMBasicBlockRef cb = LLVMGetInstructionParent(c->calls.a[k]);
        size_t j = 0;
        for (size_t i = 0; i < phis.n; i++) {
            if (phis.a[i].to != c->entry)
                continue;
            LLVMValueRef v = NULL;
            for (unsigned q = 0; q < LLVMCountIncoming(phis.a[i].phi) && !v; q++)
                if (LLVMGetIncomingBlock(phis.a[i].phi, q) == cb)
                    v = LLVMGetIncomingValue(phis.a[i].phi, q);
            callphi[k * nsp + j++] = v ? v : LLVMGetUndef(LLVMTypeOf(phis.a[i].phi));
        }
    }

    /* ---- from here on the module changes ---- */
    xfer_fit(O);
    char fname[32];
    snprintf(fname, sizeof fname, "wl.fn.%u", O->made);
    LLVMValueRef f = LLVMAddFunction(O->m, fname, LLVMFunctionType(O->i32, NULL, 0, 0));
    LLVMSetLinkage(f, LLVMInternalLinkage);
    wl_opt_add_attr(O->ctx, f, "noinline", 0);
    wl_opt_add_attr(O->ctx, f, "nounwind", 0);
    LLVMBasicBlockRef fe = LLVMAppendBasicBlockInContext(O->ctx, f, "entry");
    LLVMPositionBuilderAtEnd(O->b, fe);
    for (size_t i = 0; i < al.n; i++) {
        xalloca *x = &al.a[i];
        if (!x->copy) {
            LLVMInstructionRemoveFromParent(x->a);
            LLVMInsertIntoBuilder(O->b, x->a);
            continue;
        }
        x->local = LLVMBuildAlloca(O->b, x->t, "");
        LLVMBuildStore(O->b, slot_load(O, x->t, x->off), x->local);
        if (!users_of(x->a, R, 1, &tmp))
            goto nomem;
        for (size_t k = 0; k < tmp.n; k++)
            for (unsigned j = 0; j < (unsigned)LLVMGetNumOperands(tmp.a[k]); j++)
                if (LLVMGetOperand(tmp.a[k], j) == x->a)
                    LLVMSetOperand(tmp.a[k], j, x->local);
    }
    for (size_t i = 0; i < in.n; i++) {
        LLVMPositionBuilderAtEnd(O->b, fe);
        if (in.a[i].remat) {
            inval[i] = remat(O->b, in.a[i].v, &rdone, &rclones, &ok);
            if (!ok)
                goto nomem;
        } else {
            inval[i] = slot_load(O, LLVMTypeOf(in.a[i].v), in.a[i].off);
        }
        if (!users_of(in.a[i].v, R, 1, &tmp))
            goto nomem;
        for (size_t k = 0; k < tmp.n; k++) {
            LLVMValueRef us = tmp.a[k];
            int usphi = LLVMGetInstructionOpcode(us) == LLVMPHI;
            for (unsigned j = 0; j < (unsigned)LLVMGetNumOperands(us); j++)
                if (LLVMGetOperand(us, j) == in.a[i].v && !(usphi && !in_region(R, LLVMGetIncomingBlock(us, j))))
                    LLVMSetOperand(us, j, inval[i]);
        }
    }
    /* the values defined inside and used outside: stored where defined,
     * loaded where used */
    for (size_t i = 0; i < out.n; i++) {
        LLVMValueRef d = out.a[i].v;
        LLVMValueRef at = LLVMGetInstructionOpcode(d) == LLVMPHI ? first_non_phi(LLVMGetInstructionParent(d))
                                                                 : LLVMGetNextInstruction(d);
        LLVMPositionBuilderBefore(O->b, at);
        slot_store(O, d, out.a[i].off);
    }
    for (size_t i = 0; i < outuse.n; i++) {
        xuse *u = &outuse.a[i];
        if (LLVMGetInstructionOpcode(u->user) == LLVMPHI)
            at_end(O, LLVMGetIncomingBlock(u->user, u->op));
        else
            LLVMPositionBuilderBefore(O->b, u->user);
        LLVMSetOperand(u->user, u->op, slot_load(O, u->t, u->off));
    }
    /* the ways out: a block of the function each, storing the exit phis'
     * values and the copied allocas, returning the exit's index */
    for (size_t h = 0; h < list->n; h++) {
        LLVMBasicBlockRef bb = list->a[h];
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
        LLVMBasicBlockRef made_for[8] = {0}, made[8] = {0};
        unsigned nmade = 0;
        for (unsigned s = 0; s < ns; s++) {
            LLVMBasicBlockRef sb = LLVMGetSuccessor(t, s);
            int xi = in_region(R, sb) ? -1 : pm_get(&exitmap, sb);
            if (xi < 0)
                continue;
            LLVMBasicBlockRef xb = NULL;
            for (unsigned q = 0; q < nmade; q++)
                if (made_for[q] == sb)
                    xb = made[q];
            if (!xb) {
                xb = LLVMAppendBasicBlockInContext(O->ctx, f, "exit");
                LLVMPositionBuilderAtEnd(O->b, xb);
                for (size_t i = 0; i < phis.n; i++) {
                    if (phis.a[i].to != sb)
                        continue;
                    LLVMValueRef v = NULL;
                    for (unsigned q = 0; q < LLVMCountIncoming(phis.a[i].phi) && !v; q++)
                        if (LLVMGetIncomingBlock(phis.a[i].phi, q) == bb)
                            v = LLVMGetIncomingValue(phis.a[i].phi, q);
                    if (v && LLVMIsAInstruction(v) && !in_region(R, LLVMGetInstructionParent(v)))
                        v = inval[pm_get(&inmap, v)];
                    slot_store(O, v ? v : LLVMGetUndef(LLVMTypeOf(phis.a[i].phi)), phis.a[i].off);
                }
                for (size_t i = 0; i < al.n; i++)
                    if (al.a[i].copy)
                        slot_store(O, LLVMBuildLoad2(O->b, al.a[i].t, al.a[i].local, ""), al.a[i].off);
                LLVMBuildRet(O->b, LLVMConstInt(O->i32, (unsigned)xi, 0));
                if (nmade < 8) {
                    made_for[nmade] = sb;
                    made[nmade++] = xb;
                }
            }
            LLVMSetSuccessor(t, s, xb);
        }
    }
    /* the exit phis without the region's entries (the calls add theirs) */
    for (size_t i = 0; i < phis.n; i++)
        if (phis.a[i].to != c->entry)
            phis.a[i].phi = rebuild_phi(O, phis.a[i].phi, R, 0);
    /* the calls: each enters a block of main that calls the function and
     * branches on its way out */
    for (size_t k = 0; k < ncall; k++) {
        LLVMValueRef t = c->calls.a[k];
        long e = c->edge.a[k];
        LLVMBasicBlockRef nb = LLVMAppendBasicBlockInContext(O->ctx, O->main, "wl.called");
        LLVMSetSuccessor(t, c->succ.a[k], nb);
        LLVMPositionBuilderAtEnd(O->b, nb);
        for (size_t i = 0; i < in.n; i++)
            if (!in.a[i].remat)
                slot_store(O, in.a[i].v, in.a[i].off);
        size_t j = 0;
        for (size_t i = 0; i < phis.n; i++)
            if (phis.a[i].to == c->entry) {
                LLVMValueRef v = callphi[k * nsp + j++];
                int oi = inst_in_region(R, v) ? pm_get(&outmap, v) : -1;
                if (oi >= 0)
                    v = slot_load(O, LLVMTypeOf(v), out.a[oi].off);
                slot_store(O, v, phis.a[i].off);
            }
        for (size_t i = 0; i < al.n; i++)
            if (al.a[i].copy)
                slot_store(O, LLVMBuildLoad2(O->b, al.a[i].t, al.a[i].a, ""), al.a[i].off);
        LLVMValueRef r = LLVMBuildCall2(O->b, LLVMGlobalGetValueType(f), f, NULL, 0, "");
        for (size_t i = 0; i < al.n; i++)
            if (al.a[i].copy)
                LLVMBuildStore(O->b, slot_load(O, al.a[i].t, al.a[i].off), al.a[i].a);
        /* the ways out call e can take: its own return, the kernel's */
        LLVMBasicBlockRef dflt = NULL;
        unsigned nallowed = 0;
        for (size_t x = 0; x < exits.n; x++) {
            LLVMBasicBlockRef xb = exits.a[x];
            if (!(is_kernel_ret(xb) || (e < O->nedge && O->ret_bb[e] == xb)))
                continue;
            for (size_t i = 0; i < phis.n; i++)
                if (phis.a[i].to == xb) {
                    LLVMValueRef v = slot_load(O, LLVMTypeOf(phis.a[i].phi), phis.a[i].off);
                    LLVMAddIncoming(phis.a[i].phi, &v, &nb, 1);
                }
            if (!dflt)
                dflt = xb;
            nallowed++;
        }
        if (!dflt) {
            LLVMBuildUnreachable(O->b);
            continue;
        }
        LLVMValueRef sw = LLVMBuildSwitch(O->b, r, dflt, nallowed);
        for (size_t x = 0; x < exits.n; x++) {
            LLVMBasicBlockRef xb = exits.a[x];
            if (xb != dflt && (is_kernel_ret(xb) || (e < O->nedge && O->ret_bb[e] == xb)))
                LLVMAddCase(sw, LLVMConstInt(O->i32, x, 0), xb);
        }
    }
    /* the start's phis: the calls' values arrive through the entry */
    for (size_t i = 0; i < phis.n; i++)
        if (phis.a[i].to == c->entry) {
            LLVMValueRef np = rebuild_phi(O, phis.a[i].phi, R, 1);
            LLVMPositionBuilderAtEnd(O->b, fe);
            LLVMValueRef v = slot_load(O, LLVMTypeOf(np), phis.a[i].off);
            LLVMAddIncoming(np, &v, &fe, 1);
        }
    /* the blocks move */
    LLVMPositionBuilderAtEnd(O->b, fe);
    LLVMBuildBr(O->b, c->entry);
    LLVMBasicBlockRef last = fe;
    for (size_t h = 0; h < list->n; h++) {
        LLVMMoveBasicBlockAfter(list->a[h], last);
        last = list->a[h];
    }
    O->made++;
    done = 1;
    goto end;
nomem:
    O->oom = 1;
leave:
    if (!done)
        O->xfer_bytes = saved_bytes;
end:
#undef IN_VALUE
    free(in.a);
    free(out.a);
    free(phis.a);
    free(al.a);
    free(outuse.a);
    free(exits.a);
    free(tmp.a);
    free(inval);
    free(callphi);
    pm_free(&inmap);
    pm_free(&outmap);
    pm_free(&exitmap);
    pm_free(&rdone);
    free(rclones.a);
    return done;
}

int wl_opt_outline_calls(wl_pass_ctx *P, unsigned arg)
{
    oc O;
    memset(&O, 0, sizeof O);
    O.m = P->m;
    O.main = LLVMGetNamedFunction(P->m, "main");
    if (!O.main || LLVMIsDeclaration(O.main))
        return 0;
    /* the calls: wl.call.<e> blocks ending in a branch to a callee's start */
    long maxe = -1;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(O.main); bb; bb = LLVMGetNextBasicBlock(bb)) {
        long e = edge_of(bb, "wl.call.");
        if (e > maxe)
            maxe = e;
        e = edge_of(bb, "wl.ret.");
        if (e > maxe)
            maxe = e;
    }
    if (maxe < 0)
        return 0;
    O.ctx = LLVMGetModuleContext(P->m);
    O.td = LLVMGetModuleDataLayout(P->m);
    O.i8 = LLVMInt8TypeInContext(O.ctx);
    O.i32 = LLVMInt32TypeInContext(O.ctx);
    O.i64 = LLVMInt64TypeInContext(O.ctx);
    O.nedge = maxe + 1;
    O.call_entry = calloc((size_t)O.nedge, sizeof *O.call_entry);
    O.ret_bb = calloc((size_t)O.nedge, sizeof *O.ret_bb);
    O.c = calloc((size_t)O.nedge, sizeof *O.c);
    O.b = LLVMCreateBuilderInContext(O.ctx);
    int ok = O.call_entry && O.ret_bb && O.c;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(O.main); bb && ok; bb = LLVMGetNextBasicBlock(bb)) {
        long re = edge_of(bb, "wl.ret.");
        if (re >= 0)
            O.ret_bb[re] = bb;
        long e = edge_of(bb, "wl.call.");
        if (e < 0)
            continue;
        /* from wl.call.<e> to the callee's start, through the loop
         * budget's block where the budget split the edge */
        LLVMValueRef t = NULL;
        LLVMBasicBlockRef to = NULL;
        unsigned si = 0;
        LLVMBasicBlockRef cur = bb;
        for (int step = 0; step < 4 && !to && cur; step++) {
            t = LLVMGetBasicBlockTerminator(cur);
            unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
            for (unsigned q = 0; q < ns && !to; q++)
                if (lifted_start(LLVMGetSuccessor(t, q))) {
                    to = LLVMGetSuccessor(t, q);
                    si = q;
                }
            cur = !to && ns == 1 ? LLVMGetSuccessor(t, 0) : NULL;
        }
        if (!to)
            continue;
        O.call_entry[e] = to;
        size_t k = 0;
        while (k < O.nc && O.c[k].entry != to)
            k++;
        if (k == O.nc)
            O.c[O.nc++].entry = to;
        VPUSH(O.c[k].calls, t, ok);
        VPUSH(O.c[k].succ, si, ok);
        VPUSH(O.c[k].edge, e, ok);
    }
    /* a callee with fewer calls than arg stays the callers' code (3) */
    for (size_t k = 0; k < O.nc; k++)
        if (O.c[k].calls.n < (arg ? arg : 2))
            O.c[k].state = C_INLINE;
    for (int progress = ok; progress && !O.oom;) {
        progress = 0;
        for (size_t k = 0; k < O.nc && !O.oom; k++) {
            if (O.c[k].state != C_OPEN)
                continue;
            pmap R = {0};
            bbvec list = {0};
            int r = region_of(&O, k, &R, &list);
            if (r != 0) {
                progress = 1;
                int se = r > 0 && single_entry(&O, k, &R);
                O.c[k].state = r < 0 || !se || !outline(&O, k, &R, &list) ? C_LEFT : C_DONE;
            }
            pm_free(&R);
            free(list.a);
        }
    }
    LLVMDisposeBuilder(O.b);
    for (size_t k = 0; k < O.nc; k++) {
        free(O.c[k].calls.a);
        free(O.c[k].succ.a);
        free(O.c[k].edge.a);
    }
    free(O.c);
    free(O.call_entry);
    free(O.ret_bb);
    if (!ok || O.oom)
        return wl_pass_fail(P, WL_ERR_NOMEM, "out of memory");
    return (int)O.made;
}
