/* Adjacent dword loads as one vector load (docs/benchmarks.md,
 * "Experiments"). After the host passes a guest's s_load_dwordx4, a span of global
 * dword loads or a kernel's argument loads are separate loads of i32 at
 * inttoptr(B + c), c = c0, c0 + 4, ...: each costs an add, a conversion to a
 * pointer and a load (about 15 SPIR-V words). Within a block, loads from one
 * B at consecutive offsets, with no instruction between the first and the
 * last of them that may write memory or synchronize (a store, an atomic, a
 * fence, a call), become one load of <n x i32> (n = 2..4) at the lowest
 * offset and n extracts (a vector of dwords with the dwords' alignment 4 is
 * a valid Vulkan access; about 10 words saved a dword). Only loads of i32
 * with align >= 4, not volatile, not atomic, through inttoptr to
 * addrspace(1) are taken: the same bytes are read, earlier, where nothing
 * in between could have changed them. */
#include <stdlib.h>

#include "pass.h"
#include "passes.h"

typedef struct item {
    LLVMValueRef load, base;
    uint64_t off;
    size_t order; /* position in the block */
} item;

typedef struct mctx {
    LLVMContextRef ctx;
    LLVMBuilderRef b;
    LLVMTypeRef i32, i64;
    item *it;
    size_t n, cap;
    int oom;
} mctx;

static int by_base_off(const void *a, const void *b)
{
    const item *x = a, *y = b;
    if (x->base != y->base)
        return (uintptr_t)x->base < (uintptr_t)y->base ? -1 : 1;
    if (x->off != y->off)
        return x->off < y->off ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* the load's B and c, or 0 where it is not a candidate */
static int candidate(mctx *c, LLVMValueRef I, LLVMValueRef *base, uint64_t *off)
{
    if (!LLVMIsALoadInst(I) || LLVMGetVolatile(I) || LLVMGetOrdering(I) != LLVMAtomicOrderingNotAtomic ||
        LLVMTypeOf(I) != c->i32 || LLVMGetAlignment(I) < 4)
        return 0;
    LLVMValueRef p = LLVMGetOperand(I, 0);
    if (!LLVMIsAIntToPtrInst(p) || LLVMGetPointerAddressSpace(LLVMTypeOf(p)) != 1)
        return 0;
    LLVMValueRef a = LLVMGetOperand(p, 0);
    *base = a;
    *off = 0;
    if (LLVMIsAInstruction(a) && LLVMGetInstructionOpcode(a) == LLVMAdd &&
        LLVMIsAConstantInt(LLVMGetOperand(a, 1))) {
        int64_t k = LLVMConstIntGetSExtValue(LLVMGetOperand(a, 1));
        if (k >= 0 && k < (1 << 20)) {
            *base = LLVMGetOperand(a, 0);
            *off = (uint64_t)k;
        }
    }
    return 1;
}

static void erase_if_dead(LLVMValueRef v)
{
    if (v && LLVMIsAInstruction(v) && !LLVMGetFirstUse(v)) {
        LLVMValueRef op = LLVMGetNumOperands(v) > 0 ? LLVMGetOperand(v, 0) : NULL;
        LLVMInstructionEraseFromParent(v);
        if (op && LLVMIsAInstruction(op) && LLVMGetInstructionOpcode(op) == LLVMAdd && !LLVMGetFirstUse(op))
            LLVMInstructionEraseFromParent(op);
    }
}

/* it[0..n): one base, offsets c0, c0 + 4, ...: one <n x i32> load */
static void merge_run(mctx *c, item *it, unsigned n)
{
    item *first = &it[0];
    for (unsigned i = 1; i < n; i++)
        if (it[i].order < first->order)
            first = &it[i];
    LLVMPositionBuilderBefore(c->b, first->load);
    LLVMValueRef a = it[0].off ? LLVMBuildAdd(c->b, it[0].base, LLVMConstInt(c->i64, it[0].off, 0), "") : it[0].base;
    LLVMTypeRef vt = LLVMVectorType(c->i32, n);
    LLVMValueRef p = LLVMBuildIntToPtr(c->b, a, LLVMPointerTypeInContext(c->ctx, 1), "");
    LLVMValueRef v = LLVMBuildLoad2(c->b, vt, p, "dwords");
    LLVMSetAlignment(v, 4);
    LLVMValueRef x[4];
    for (unsigned i = 0; i < n; i++) /* all before erasing: the builder stands before one of them */
        x[i] = LLVMBuildExtractElement(c->b, v, LLVMConstInt(c->i32, i, 0), "");
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef old = it[i].load, op = LLVMGetOperand(old, 0);
        LLVMReplaceAllUsesWith(old, x[i]);
        LLVMInstructionEraseFromParent(old);
        erase_if_dead(op);
    }
}

/* the window it[0..n) of one block: runs of consecutive offsets, 4 at most */
static unsigned flush(mctx *c)
{
    unsigned merged = 0;
    if (c->n > 1) {
        qsort(c->it, c->n, sizeof *c->it, by_base_off);
        for (size_t i = 0; i < c->n;) {
            size_t j = i + 1;
            while (j < c->n && j - i < 4 && c->it[j].base == c->it[i].base &&
                   c->it[j].off == c->it[j - 1].off + 4)
                j++;
            if (j - i >= 2) {
                merge_run(c, &c->it[i], (unsigned)(j - i));
                merged++;
            }
            /* the same load twice (one offset) stays: early-cse took those */
            i = j;
        }
    }
    c->n = 0;
    return merged;
}

static int writes_or_syncs(LLVMValueRef I)
{
    return LLVMIsAStoreInst(I) || LLVMIsAAtomicRMWInst(I) || LLVMIsAAtomicCmpXchgInst(I) || LLVMIsAFenceInst(I) ||
           LLVMIsACallInst(I) || (LLVMIsALoadInst(I) && (LLVMGetVolatile(I) ||
                                                        LLVMGetOrdering(I) != LLVMAtomicOrderingNotAtomic));
}

static int merge_loads(LLVMModuleRef m)
{
    mctx c = {0};
    c.ctx = LLVMGetModuleContext(m);
    c.i32 = LLVMInt32TypeInContext(c.ctx);
    c.i64 = LLVMInt64TypeInContext(c.ctx);
    c.b = LLVMCreateBuilderInContext(c.ctx);
    int merged = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f && !c.oom; f = LLVMGetNextFunction(f)) {
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb && !c.oom; bb = LLVMGetNextBasicBlock(bb)) {
            size_t order = 0;
            for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;) {
                LLVMValueRef next = LLVMGetNextInstruction(I);
                LLVMValueRef base;
                uint64_t off;
                if (candidate(&c, I, &base, &off)) {
                    if (c.n == c.cap) {
                        size_t nc = c.cap ? 2 * c.cap : 64;
                        item *ni = realloc(c.it, nc * sizeof *ni);
                        if (!ni) {
                            c.oom = 1;
                            break;
                        }
                        c.it = ni;
                        c.cap = nc;
                    }
                    c.it[c.n++] = (item){I, base, off, order};
                } else if (writes_or_syncs(I) || LLVMIsATerminatorInst(I)) {
                    /* the loads before it stay before it */
                    merged += (int)flush(&c);
                }
                order++;
                I = next;
            }
            merged += (int)flush(&c);
        }
    }
    free(c.it);
    LLVMDisposeBuilder(c.b);
    return c.oom ? -1 : merged;
}

/* the pass (passes.h) */
int wl_opt_merge_loads(wl_pass_ctx *P, unsigned arg)
{
    (void)arg;
    int n = merge_loads(P->m);
    return n < 0 ? wl_pass_fail(P, WL_ERR_NOMEM, "merging dword loads: out of memory") : n;
}
