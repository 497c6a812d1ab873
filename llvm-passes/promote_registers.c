/* Register promotion for the wave IR (fold.h): the lifter keeps every
 * register in an entry-block alloca, loaded and stored around each guest
 * instruction. LLVM's mem2reg takes most of its time on the lifter's long
 * blocks (measured: 68 ms of a 3,164-instruction program, scanning each
 * block from its start once per register), so this does the same in one
 * pass over the function:
 *
 *  1. per block, in order: a load after a store of the same register takes
 *     the stored value; the first load before any store is the block's
 *     live-in placeholder; the value at the block's end is remembered;
 *  2. the value live into a block is its single predecessor's value at
 *     its end (followed up the chain), or a phi at a block with several
 *     predecessors (created when first asked for, its operands filled from
 *     a work list);
 *  3. phis whose operands are one value (or themselves) are replaced by it,
 *     and phis no instruction but dead phis uses are deleted.
 *
 * A register read before any write on some path reads 0 (the lifter stores
 * 0 at entry, so only unreachable blocks see this). An alloca used in any
 * other way than by loads and stores of its own type is left alone. */
#include <stdlib.h>
#include <string.h>

#include "pass.h"
#include "passes.h"
#include "ir/wave_ir.h"

enum { MAX_TABLE = 1 << 23 }; /* blocks x registers beyond this: leave it to mem2reg */

typedef struct ptrmap {
    LLVMValueRef *keys;
    uint32_t *vals;
    size_t cap;
} ptrmap;

static size_t hp(const void *p, size_t cap)
{
    uintptr_t x = (uintptr_t)p;
    x ^= x >> 17;
    x *= 0x9E3779B97F4A7C15ull;
    return (size_t)(x >> 20) & (cap - 1);
}

static int pm_init(ptrmap *m, size_t n)
{
    m->cap = 16;
    while (m->cap < 2 * n + 2)
        m->cap *= 2;
    m->keys = calloc(m->cap, sizeof *m->keys);
    m->vals = calloc(m->cap, sizeof *m->vals);
    return m->keys && m->vals;
}

static void pm_put(ptrmap *m, const void *k, uint32_t v)
{
    size_t i = hp(k, m->cap);
    while (m->keys[i] && m->keys[i] != k)
        i = (i + 1) & (m->cap - 1);
    m->keys[i] = (LLVMValueRef)k;
    m->vals[i] = v;
}

static long pm_get(const ptrmap *m, const void *k)
{
    if (!k)
        return -1;
    for (size_t i = hp(k, m->cap);; i = (i + 1) & (m->cap - 1)) {
        if (!m->keys[i])
            return -1;
        if (m->keys[i] == k)
            return (long)m->vals[i];
    }
}

typedef struct prom {
    LLVMBuilderRef b;
    size_t nb, nv;
    LLVMBasicBlockRef *blocks;
    ptrmap bmap, vmap;      /* block -> index, alloca -> index */
    LLVMTypeRef *vtype;
    uint32_t *npred;        /* predecessor edges */
    uint32_t *pred1;        /* the predecessor, when npred == 1 */
    uint32_t *pstart, *plist; /* predecessor edges of b: plist[pstart[b] .. pstart[b+1]) */
    LLVMValueRef *out;      /* [b * nv + v]: value at the end of b, NULL: as at its start */
    LLVMValueRef *phi;      /* [b * nv + v]: b's phi for v, when created */
    LLVMValueRef *work;     /* phis to fill */
    uint32_t *workv;
    size_t nwork, capwork;
    LLVMValueRef *phis;     /* every phi made (NULL once removed) */
    size_t nphis, capphis;
    int nomem;
} prom;

static int push2(prom *P, LLVMValueRef phi, uint32_t v)
{
    if (P->nwork == P->capwork) {
        size_t nc = P->capwork ? 2 * P->capwork : 256;
        LLVMValueRef *nw = realloc(P->work, nc * sizeof *nw);
        if (!nw)
            return 0;
        P->work = nw;
        uint32_t *nv = realloc(P->workv, nc * sizeof *nv);
        if (!nv)
            return 0;
        P->workv = nv;
        P->capwork = nc;
    }
    if (P->nphis == P->capphis) {
        size_t nc = P->capphis ? 2 * P->capphis : 256;
        LLVMValueRef *np = realloc(P->phis, nc * sizeof *np);
        if (!np)
            return 0;
        P->phis = np;
        P->capphis = nc;
    }
    P->work[P->nwork] = phi;
    P->workv[P->nwork++] = v;
    P->phis[P->nphis++] = phi;
    return 1;
}

/* the value of register v live into block b */
static LLVMValueRef live_in(prom *P, size_t b, uint32_t v)
{
    for (size_t steps = 0; steps <= P->nb; steps++) {
        if (b == 0 || P->npred[b] == 0)
            return LLVMConstNull(P->vtype[v]); /* entry, or unreachable */
        if (P->npred[b] >= 2) {
            LLVMValueRef *slot = &P->phi[b * P->nv + v];
            if (!*slot) {
                LLVMBasicBlockRef bb = P->blocks[b];
                LLVMValueRef first = LLVMGetFirstInstruction(bb);
                if (first)
                    LLVMPositionBuilderBefore(P->b, first);
                else
                    LLVMPositionBuilderAtEnd(P->b, bb);
                *slot = LLVMBuildPhi(P->b, P->vtype[v], "");
                if (!push2(P, *slot, v)) {
                    P->nomem = 1;
                    return LLVMConstNull(P->vtype[v]);
                }
            }
            return *slot;
        }
        size_t p = P->pred1[b];
        LLVMValueRef o = P->out[p * P->nv + v];
        if (o)
            return o;
        b = p;
    }
    return LLVMConstNull(P->vtype[v]); /* a cycle of single predecessors: unreachable */
}

/* A block's end value can be another register's load that its block read
 * before writing (a placeholder): follow it to what it reads. */
static LLVMValueRef resolve(prom *P, LLVMValueRef x)
{
    for (size_t steps = 0; steps <= P->nb + 1; steps++) {
        if (!LLVMIsALoadInst(x))
            return x;
        long v = pm_get(&P->vmap, LLVMGetOperand(x, 0));
        if (v < 0)
            return x;
        long b = pm_get(&P->bmap, LLVMGetInstructionParent(x));
        if (b < 0)
            return x;
        x = live_in(P, (size_t)b, (uint32_t)v);
    }
    return LLVMConstNull(LLVMTypeOf(x)); /* unreachable cycle */
}

static LLVMValueRef out_of(prom *P, size_t b, uint32_t v)
{
    LLVMValueRef o = P->out[b * P->nv + v];
    return resolve(P, o ? o : live_in(P, b, v));
}

static int promotable(LLVMValueRef a)
{
    LLVMTypeRef t = LLVMGetAllocatedType(a);
    LLVMValueRef n = LLVMGetNumOperands(a) > 0 ? LLVMGetOperand(a, 0) : NULL;
    if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind || !n || !LLVMIsAConstantInt(n) || LLVMConstIntGetZExtValue(n) != 1)
        return 0;
    for (LLVMUseRef u = LLVMGetFirstUse(a); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef I = LLVMGetUser(u);
        if (LLVMIsALoadInst(I)) {
            if (LLVMTypeOf(I) != t || LLVMGetVolatile(I))
                return 0;
        } else if (LLVMIsAStoreInst(I)) {
            if (LLVMGetOperand(I, 1) != a || LLVMTypeOf(LLVMGetOperand(I, 0)) != t || LLVMGetVolatile(I))
                return 0;
        } else {
            return 0;
        }
    }
    return 1;
}

/* 3: phis of one value go; then phis only dead phis use */
static void cleanup(prom *P)
{
    int changed = 1;
    while (changed) {
        changed = 0;
        for (size_t i = 0; i < P->nphis; i++) {
            LLVMValueRef ph = P->phis[i];
            if (!ph)
                continue;
            LLVMValueRef same = NULL;
            int trivial = 1;
            unsigned n = LLVMCountIncoming(ph);
            for (unsigned k = 0; k < n && trivial; k++) {
                LLVMValueRef x = LLVMGetIncomingValue(ph, k);
                if (x == ph || x == same)
                    continue;
                if (same)
                    trivial = 0;
                same = x;
            }
            if (!trivial)
                continue;
            LLVMReplaceAllUsesWith(ph, same ? same : LLVMConstNull(LLVMTypeOf(ph)));
            LLVMInstructionEraseFromParent(ph);
            P->phis[i] = NULL;
            changed = 1;
        }
    }
    /* liveness: a phi is live when a non-phi uses it or a live phi does */
    ptrmap idx;
    uint8_t *live = calloc(P->nphis + 1, 1);
    size_t *stack = malloc((P->nphis + 1) * sizeof *stack), sp = 0;
    if (!live || !stack || !pm_init(&idx, P->nphis)) {
        free(live);
        free(stack);
        free(idx.keys);
        free(idx.vals);
        return; /* dead phis stay; the optimizer removes them */
    }
    for (size_t i = 0; i < P->nphis; i++)
        if (P->phis[i])
            pm_put(&idx, P->phis[i], (uint32_t)i);
    for (size_t i = 0; i < P->nphis; i++) {
        if (!P->phis[i])
            continue;
        for (LLVMUseRef u = LLVMGetFirstUse(P->phis[i]); u; u = LLVMGetNextUse(u))
            if (pm_get(&idx, LLVMGetUser(u)) < 0) {
                live[i] = 1;
                stack[sp++] = i;
                break;
            }
    }
    while (sp) {
        LLVMValueRef ph = P->phis[stack[--sp]];
        unsigned n = LLVMCountIncoming(ph);
        for (unsigned k = 0; k < n; k++) {
            long j = pm_get(&idx, LLVMGetIncomingValue(ph, k));
            if (j >= 0 && !live[j]) {
                live[j] = 1;
                stack[sp++] = (size_t)j;
            }
        }
    }
    for (size_t i = 0; i < P->nphis; i++)
        if (P->phis[i] && !live[i])
            LLVMReplaceAllUsesWith(P->phis[i], LLVMGetUndef(LLVMTypeOf(P->phis[i])));
    for (size_t i = 0; i < P->nphis; i++)
        if (P->phis[i] && !live[i]) {
            LLVMInstructionEraseFromParent(P->phis[i]);
            P->phis[i] = NULL;
        }
    free(live);
    free(stack);
    free(idx.keys);
    free(idx.vals);
}

static int run(prom *P, LLVMValueRef fn)
{
    P->nb = LLVMCountBasicBlocks(fn);
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
    size_t na = 0;
    for (LLVMValueRef I = LLVMGetFirstInstruction(entry); I; I = LLVMGetNextInstruction(I))
        na += LLVMIsAAllocaInst(I) != NULL;
    if (!na || (uint64_t)P->nb * na > MAX_TABLE)
        return 0;
    LLVMValueRef *allocas = malloc(na * sizeof *allocas);
    P->vtype = malloc(na * sizeof *P->vtype);
    P->blocks = malloc(P->nb * sizeof *P->blocks);
    P->npred = calloc(P->nb, sizeof *P->npred);
    P->pred1 = calloc(P->nb, sizeof *P->pred1);
    if (!allocas || !P->vtype || !P->blocks || !P->npred || !P->pred1 || !pm_init(&P->vmap, na) ||
        !pm_init(&P->bmap, P->nb)) {
        free(allocas);
        return -1;
    }
    for (LLVMValueRef I = LLVMGetFirstInstruction(entry); I; I = LLVMGetNextInstruction(I))
        if (LLVMIsAAllocaInst(I) && promotable(I)) {
            pm_put(&P->vmap, I, (uint32_t)P->nv);
            P->vtype[P->nv] = LLVMGetAllocatedType(I);
            allocas[P->nv++] = I;
        }
    size_t bi = 0;
    for (LLVMBasicBlockRef bb = entry; bb; bb = LLVMGetNextBasicBlock(bb)) {
        P->blocks[bi] = bb;
        pm_put(&P->bmap, bb, (uint32_t)bi++);
    }
    size_t nedges = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass) {
            P->pstart = calloc(P->nb + 1, sizeof *P->pstart);
            P->plist = malloc((nedges ? nedges : 1) * sizeof *P->plist);
            if (!P->pstart || !P->plist) {
                free(allocas);
                return -1;
            }
            for (size_t b = 0; b < P->nb; b++)
                P->pstart[b + 1] = P->pstart[b] + P->npred[b];
            memset(P->npred, 0, P->nb * sizeof *P->npred);
        }
        for (size_t b = 0; b < P->nb; b++) {
            LLVMValueRef t = LLVMGetBasicBlockTerminator(P->blocks[b]);
            unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
            for (unsigned s = 0; s < ns; s++) {
                long d = pm_get(&P->bmap, LLVMGetSuccessor(t, s));
                if (d < 0)
                    continue;
                if (pass)
                    P->plist[P->pstart[d] + P->npred[d]] = (uint32_t)b;
                else
                    nedges++;
                P->npred[d]++;
                P->pred1[d] = (uint32_t)b;
            }
        }
    }
    int rc = 0;
    P->out = calloc(P->nb * (P->nv ? P->nv : 1), sizeof *P->out);
    P->phi = calloc(P->nb * (P->nv ? P->nv : 1), sizeof *P->phi);
    LLVMValueRef *cur = calloc(P->nv ? P->nv : 1, sizeof *cur);
    uint8_t *exposed = calloc(P->nv ? P->nv : 1, 1);
    /* the loads read before any store in their block: resolved after step 1 */
    LLVMValueRef *loads = NULL;
    size_t nloads = 0, caploads = 0;
    if (!P->out || !P->phi || !cur || !exposed || !P->nv) {
        rc = P->nv ? -1 : 0;
        goto done;
    }
    /* 1 */
    for (size_t b = 0; b < P->nb; b++) {
        memset(cur, 0, P->nv * sizeof *cur);
        memset(exposed, 0, P->nv);
        LLVMValueRef I = LLVMGetFirstInstruction(P->blocks[b]);
        while (I) {
            LLVMValueRef next = LLVMGetNextInstruction(I);
            if (LLVMIsALoadInst(I)) {
                long v = pm_get(&P->vmap, LLVMGetOperand(I, 0));
                if (v >= 0) {
                    if (cur[v]) {
                        LLVMReplaceAllUsesWith(I, cur[v]);
                        LLVMInstructionEraseFromParent(I);
                    } else {
                        if (nloads == caploads) {
                            size_t nc = caploads ? 2 * caploads : 256;
                            LLVMValueRef *nl = realloc(loads, nc * sizeof *nl);
                            if (!nl) {
                                rc = -1;
                                goto done;
                            }
                            loads = nl;
                            caploads = nc;
                        }
                        loads[nloads++] = I;
                        cur[v] = I;
                        exposed[v] = 1;
                    }
                }
            } else if (LLVMIsAStoreInst(I)) {
                long v = pm_get(&P->vmap, LLVMGetOperand(I, 1));
                if (v >= 0) {
                    cur[v] = LLVMGetOperand(I, 0);
                    exposed[v] = 0;
                    LLVMInstructionEraseFromParent(I);
                }
            }
            I = next;
        }
        for (size_t v = 0; v < P->nv; v++)
            P->out[b * P->nv + v] = exposed[v] ? NULL : cur[v];
    }
    LLVMValueRef *res = calloc(nloads ? nloads : 1, sizeof *res);
    if (!res) {
        rc = -1;
        goto done;
    }
    for (size_t i = 0; i < nloads; i++)
        res[i] = resolve(P, loads[i]);
    /* 2: placeholders keep their loads (out[] may name them) until the end */
    while (P->nwork && !P->nomem) {
        LLVMValueRef ph = P->work[--P->nwork];
        uint32_t v = P->workv[P->nwork];
        long b = pm_get(&P->bmap, LLVMGetInstructionParent(ph));
        for (uint32_t e = P->pstart[b]; e < P->pstart[b + 1]; e++) {
            LLVMValueRef x = out_of(P, P->plist[e], v);
            LLVMBasicBlockRef pb = P->blocks[P->plist[e]];
            LLVMAddIncoming(ph, &x, &pb, 1);
        }
    }
    for (size_t i = 0; i < nloads; i++)
        LLVMReplaceAllUsesWith(loads[i], res[i]);
    for (size_t i = 0; i < nloads; i++)
        LLVMInstructionEraseFromParent(loads[i]);
    free(res);
    if (P->nomem) {
        rc = -1;
        goto done;
    }
    /* 3 */
    cleanup(P);
    for (size_t v = 0; v < P->nv; v++)
        LLVMInstructionEraseFromParent(allocas[v]);
    rc = (int)P->nv;
done:
    free(loads);
    free(cur);
    free(exposed);
    free(allocas);
    return rc;
}

static int promote_registers(LLVMModuleRef m)
{
    LLVMValueRef fn = m ? LLVMGetNamedFunction(m, WL_WIR_FUNCTION) : NULL;
    if (!fn || LLVMIsDeclaration(fn))
        return 0;
    prom P;
    memset(&P, 0, sizeof P);
    P.b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    int rc = run(&P, fn);
    LLVMDisposeBuilder(P.b);
    free(P.blocks);
    free(P.vtype);
    free(P.npred);
    free(P.pred1);
    free(P.pstart);
    free(P.plist);
    free(P.out);
    free(P.phi);
    free(P.work);
    free(P.workv);
    free(P.phis);
    free(P.bmap.keys);
    free(P.bmap.vals);
    free(P.vmap.keys);
    free(P.vmap.vals);
    return rc;
}

/* the pass (passes.h) */
int wl_opt_promote_registers(wl_pass_ctx *P, unsigned arg)
{
    (void)arg;
    int n = promote_registers(P->m);
    return n < 0 ? wl_pass_fail(P, WL_ERR_NOMEM, "register promotion: out of memory") : n;
}
