/* The order of a wave's LDS accesses in the lanes model (docs/lanes.md,
 * "LDS"). On the guest a wave's LDS instructions run one after another for
 * all its lanes; on the host the invocations of a subgroup need not run in
 * step, so lane a's access of one instruction and lane b's of a later one
 * are ordered only by a subgroup barrier between them. A barrier is needed
 * only where two such accesses can touch the same bytes and one of them
 * writes; this plan, made once on the wave IR before lowering, says after
 * which accesses a barrier goes.
 *
 * In a block, the accesses since the last barrier form an epoch. An access
 * that may conflict with one of the epoch (a store or atomic on either
 * side, byte ranges that may overlap) closes it: a barrier after the
 * access before it. A call that may touch memory (a workgroup barrier, an
 * escape, device memory), other than LLVM's intrinsics and calls to
 * functions of memory(none), and the block's end close the epoch too. An
 * epoch that writes gets its barrier there; one of loads only gets it
 * only where, on some path ahead (this block's rest, then its successors,
 * loops included), an LDS store or atomic that may touch its bytes comes
 * before a work-group barrier, or a call that may touch the LDS does:
 * loads of two lanes need no order between them (an N-body tile loop's
 * reads, nbody.comp, had a subgroup barrier an iteration).
 *
 * Byte ranges: a bound of each access's address over the lanes where it is
 * active (an and, a shift, an add of ranges, a select on the access's own
 * active bit, ...), widened to whole 8-byte units (byte and half stores
 * merge into their word; a program with 64-bit LDS atomics has 64-bit
 * units). An address outside the LDS reads 0 and writes nothing, so its
 * place needs no order; two ranges that cannot meet need none either. */
#include <stdlib.h>
#include <string.h>

#include "lower/context.h"

typedef struct rng {
    uint64_t lo, hi;
} rng;

#define EPOCH_MAX 64 /* accesses an epoch holds; one more closes it */
#define DEPTH_MAX 12

static uint64_t width_max(unsigned w)
{
    return w >= 64 ? ~0ull : (1ull << w) - 1;
}

static rng full(unsigned w)
{
    return (rng){0, width_max(w)};
}

static int const_of(LLVMValueRef v, uint64_t *c)
{
    if (!LLVMIsAConstantInt(v) || LLVMGetIntTypeWidth(LLVMTypeOf(v)) > 64)
        return 0;
    *c = LLVMConstIntGetZExtValue(v);
    return 1;
}

/* The values an integer v may take (unsigned) where `active` is true: a
 * small interval walk, everything unknown the full range. */
static rng range_of(LLVMValueRef v, LLVMValueRef active, unsigned depth)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind)
        return (rng){0, ~0ull};
    unsigned w = LLVMGetIntTypeWidth(t);
    uint64_t c;
    if (const_of(v, &c))
        return (rng){c, c};
    if (w > 64 || !LLVMIsAInstruction(v) || depth > DEPTH_MAX)
        return full(w);
    uint64_t m = width_max(w);
    rng a, b;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMAnd:
        a = range_of(LLVMGetOperand(v, 0), active, depth + 1);
        b = range_of(LLVMGetOperand(v, 1), active, depth + 1);
        return (rng){0, a.hi < b.hi ? a.hi : b.hi};
    case LLVMOr:
        a = range_of(LLVMGetOperand(v, 0), active, depth + 1);
        b = range_of(LLVMGetOperand(v, 1), active, depth + 1);
        if (LLVMGetIsDisjoint(v)) /* an add without carries */
            return a.hi + b.hi >= a.hi && a.hi + b.hi <= m ? (rng){a.lo + b.lo, a.hi + b.hi} : full(w);
        else {
            uint64_t h = a.hi | b.hi;
            for (unsigned s = 1; s < 64; s <<= 1)
                h |= h >> s;
            return (rng){a.lo > b.lo ? a.lo : b.lo, h};
        }
    case LLVMAdd:
        a = range_of(LLVMGetOperand(v, 0), active, depth + 1);
        b = range_of(LLVMGetOperand(v, 1), active, depth + 1);
        if (a.hi + b.hi < a.hi || a.hi + b.hi > m) /* it may wrap */
            return full(w);
        return (rng){a.lo + b.lo, a.hi + b.hi};
    case LLVMSub:
        a = range_of(LLVMGetOperand(v, 0), active, depth + 1);
        b = range_of(LLVMGetOperand(v, 1), active, depth + 1);
        if (a.lo < b.hi)
            return full(w);
        return (rng){a.lo - b.hi, a.hi - b.lo};
    case LLVMShl:
        if (!const_of(LLVMGetOperand(v, 1), &c) || c >= w)
            return full(w);
        a = range_of(LLVMGetOperand(v, 0), active, depth + 1);
        if (a.hi > (m >> c))
            return full(w);
        return (rng){a.lo << c, a.hi << c};
    case LLVMLShr:
        a = range_of(LLVMGetOperand(v, 0), active, depth + 1);
        if (!const_of(LLVMGetOperand(v, 1), &c))
            return (rng){0, a.hi};
        return c >= w ? full(w) : (rng){a.lo >> c, a.hi >> c};
    case LLVMMul:
        if (!const_of(LLVMGetOperand(v, 1), &c) || c > 0xffffffffu)
            return full(w);
        a = range_of(LLVMGetOperand(v, 0), active, depth + 1);
        if (a.hi > 0xffffffffu || a.hi * c > m)
            return full(w);
        return (rng){a.lo * c, a.hi * c};
    case LLVMUDiv:
        if (!const_of(LLVMGetOperand(v, 1), &c) || !c)
            return full(w);
        a = range_of(LLVMGetOperand(v, 0), active, depth + 1);
        return (rng){a.lo / c, a.hi / c};
    case LLVMURem:
        if (!const_of(LLVMGetOperand(v, 1), &c) || !c)
            return full(w);
        a = range_of(LLVMGetOperand(v, 0), active, depth + 1);
        return a.hi < c ? a : (rng){0, c - 1};
    case LLVMZExt:
        return range_of(LLVMGetOperand(v, 0), active, depth + 1);
    case LLVMTrunc:
        a = range_of(LLVMGetOperand(v, 0), active, depth + 1);
        return a.hi <= m ? a : full(w);
    case LLVMSelect:
        /* where the access is active, the select on its own active bit
         * takes its true side (the lifter's exec-masked registers) */
        if (LLVMGetOperand(v, 0) == active)
            return range_of(LLVMGetOperand(v, 1), active, depth + 1);
        a = range_of(LLVMGetOperand(v, 1), active, depth + 1);
        b = range_of(LLVMGetOperand(v, 2), active, depth + 1);
        return (rng){a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi};
    default:
        return full(w);
    }
}

typedef struct acc {
    uint64_t lo, hi; /* the bytes it may touch, whole 8-byte units */
    int writes;
} acc;

/* An LDS access of the wave IR (wl.load.lds.bN, wl.store.lds.bN,
 * wl.atomic.lds.OP.bN: the address first, the active bit last); 0 if I is
 * none. */
static int lds_access(LLVMValueRef I, acc *a)
{
    size_t len;
    const char *n = wl_lc_callee(I, &len);
    if (!n)
        return 0;
    int load = wl_lc_prefix(n, len, "wl.load.lds.");
    if (!load && !wl_lc_prefix(n, len, "wl.store.lds.") && !wl_lc_prefix(n, len, "wl.atomic.lds."))
        return 0;
    a->writes = !load;
    const char *b = NULL;
    for (size_t i = len; i-- > 0;)
        if (n[i] == '.') {
            b = n + i + 1;
            break;
        }
    unsigned bits = 0;
    if (b && *b == 'b')
        for (const char *p = b + 1; p < n + len && *p >= '0' && *p <= '9'; p++)
            bits = bits * 10 + (unsigned)(*p - '0');
    unsigned nargs = (unsigned)LLVMGetNumArgOperands(I);
    if (!bits || bits > 128 || nargs < 2) { /* not a form this plan knows: it may touch anything */
        a->lo = 0;
        a->hi = ~0ull;
        return 1;
    }
    rng r = range_of(LLVMGetOperand(I, 0), LLVMGetOperand(I, nargs - 1), 0);
    uint64_t end = r.hi + bits / 8 - 1;
    if (end < r.hi) {
        a->lo = 0;
        a->hi = ~0ull;
        return 1;
    }
    a->lo = r.lo & ~7ull;
    a->hi = end | 7;
    return 1;
}

/* A call the plan looks through: LLVM's intrinsics (as before the plan)
 * and calls to functions that touch no memory. */
static int transparent(LLVMValueRef I)
{
    LLVMValueRef f = LLVMGetCalledValue(I);
    if (!f || !LLVMIsAFunction(f))
        return 0;
    size_t n;
    const char *nm = LLVMGetValueName2(f, &n);
    if (n > 5 && !memcmp(nm, "llvm.", 5))
        return 1;
    unsigned kind = LLVMGetEnumAttributeKindForName("memory", 6);
    LLVMAttributeRef a = LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, kind);
    return a && LLVMGetEnumAttributeValue(a) == 0;
}

/* wl.barrier, s_barrier: the lanes model makes it spv.barrier.workgroup */
static int is_group_barrier(LLVMValueRef I)
{
    size_t len;
    const char *n = wl_lc_callee(I, &len);
    return n && len == 10 && !memcmp(n, "wl.barrier", 10);
}

/* two accesses' byte ranges may meet */
static int meets(const acc *a, const acc *b)
{
    return a->lo <= b->hi && b->lo <= a->hi;
}

#define AHEAD_MAX 20000 /* instructions a search ahead may look at */

/* the search's blocks seen and its work list, kept over the plan */
typedef struct ahead {
    wl_ptrmap seen;
    LLVMBasicBlockRef *work;
    size_t cap;
} ahead;

/* An epoch of loads only needs its barrier where a later LDS store or
 * atomic of the wave may touch its bytes: lane a's load and lane b's
 * later load need no order. 1: from I on (I and the instructions after it
 * in bb; NULL: bb's successors) such a write can run before a work-group
 * barrier on some path, or a call that may touch the LDS can, or the
 * search ran past AHEAD_MAX; 0: none can; -1: out of memory. */
static int write_ahead(LLVMBasicBlockRef bb, LLVMValueRef I, const acc *ep, unsigned n, ahead *A)
{
    wl_ptrmap_clear(&A->seen);
    size_t nw = 0, looked = 0;
    for (;;) {
        int ordered = 0;
        for (; I && !ordered; I = LLVMGetNextInstruction(I)) {
            if (++looked > AHEAD_MAX)
                return 1;
            acc a;
            if (lds_access(I, &a)) {
                for (unsigned i = 0; i < n && a.writes; i++)
                    if (meets(&a, &ep[i]))
                        return 1;
            } else if (is_group_barrier(I))
                ordered = 1;
            else if (LLVMIsACallInst(I) && !transparent(I)) {
                /* the wave IR's other wl.* calls touch no LDS (its accesses
                 * are the wl.*.lds.* calls, flat ones included) */
                size_t len;
                const char *nm = wl_lc_callee(I, &len);
                if (!nm || len < 3 || memcmp(nm, "wl.", 3) != 0)
                    return 1;
            }
        }
        LLVMValueRef term = ordered ? NULL : LLVMGetBasicBlockTerminator(bb);
        for (unsigned k = 0, ns = term ? LLVMGetNumSuccessors(term) : 0; k < ns; k++) {
            LLVMBasicBlockRef s = LLVMGetSuccessor(term, k);
            if (wl_ptrmap_has(&A->seen, s))
                continue;
            if (!wl_ptrmap_put(&A->seen, s, 1))
                return -1;
            if (nw == A->cap) {
                size_t c = A->cap ? 2 * A->cap : 64;
                LLVMBasicBlockRef *w = realloc(A->work, c * sizeof *w);
                if (!w)
                    return -1;
                A->work = w;
                A->cap = c;
            }
            A->work[nw++] = s;
        }
        if (!nw)
            return 0;
        bb = A->work[--nw];
        I = LLVMGetFirstInstruction(bb);
    }
}

/* the epoch ep[0..n) closes at the call `at` (NULL: bb's end): a barrier after its
 * last access, prev, unless it holds loads only and no write follows */
static int close_epoch(wl_lower_ctx *L, LLVMBasicBlockRef bb, LLVMValueRef at, LLVMValueRef prev, const acc *ep,
                       unsigned n, ahead *A)
{
    int writes = 0;
    for (unsigned i = 0; i < n; i++)
        writes |= ep[i].writes;
    if (!writes) {
        int w = write_ahead(bb, at, ep, n, A);
        if (w < 0)
            return 0;
        if (!w)
            return 1;
    }
    return wl_ptrmap_put(&L->lds_barrier_after, prev, 1);
}

int wl_lc_lds_order_plan(wl_lower_ctx *L)
{
    acc epoch[EPOCH_MAX];
    ahead A = {0};
    int ok = 1;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(L->fn); bb && ok; bb = LLVMGetNextBasicBlock(bb)) {
        unsigned n = 0;
        LLVMValueRef prev = NULL; /* the epoch's last access */
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I && ok; I = LLVMGetNextInstruction(I)) {
            acc a;
            if (lds_access(I, &a)) {
                int conflict = n == EPOCH_MAX;
                for (unsigned i = 0; i < n && !conflict; i++)
                    conflict = (a.writes || epoch[i].writes) && meets(&a, &epoch[i]);
                if (conflict) {
                    if (!wl_ptrmap_put(&L->lds_barrier_after, prev, 1))
                        ok = 0;
                    n = 0;
                }
                epoch[n++] = a;
                prev = I;
            } else if (prev && LLVMIsACallInst(I) && !transparent(I)) {
                /* the guest's s_barrier is the work-group's barrier here
                 * (launch.c), which orders every access before it: no
                 * subgroup barrier in front of it */
                if (!is_group_barrier(I))
                    ok = close_epoch(L, bb, I, prev, epoch, n, &A);
                n = 0;
                prev = NULL;
            }
        }
        if (ok && prev)
            ok = close_epoch(L, bb, NULL, prev, epoch, n, &A);
    }
    wl_ptrmap_free(&A.seen);
    free(A.work);
    return ok;
}
