/* Stores that can only reach the sink (docs/memory.md, "Straight-line
 * accesses"): a masked-off lane's dword store is made in the sink's other
 * half (@wl.h.sink.store, lower/memory/helpers/map.ll), and no module reads
 * the sink but for the zeros of its first 128 bytes, which no store
 * reaches. Where the optimizer has folded the store's condition to false,
 * its address is the sink plus offsets, with no select: the store is dead
 * and goes (the lifter's private-memory programs have many:
 * their stores of lanes a span never reaches). */
#include <string.h>

#include "passes.h"
#include "wavelift/abi.h"

/* the value loaded from the push constants' sink word (bytes 120..127 of
 * @wl.push, WL_PUSH_SINK_OFFSET) */
static int is_sink(LLVMValueRef v)
{
    if (!v || !LLVMIsALoadInst(v))
        return 0;
    LLVMValueRef p = LLVMGetOperand(v, 0);
    int gep = LLVMIsAGetElementPtrInst(p) ||
              (LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMGetElementPtr);
    if (!gep || LLVMGetNumOperands(p) != 2)
        return 0;
    LLVMValueRef base = LLVMGetOperand(p, 0), off = LLVMGetOperand(p, 1);
    size_t n;
    const char *name = LLVMIsAGlobalVariable(base) ? LLVMGetValueName2(base, &n) : NULL;
    return name && n == 7 && !memcmp(name, "wl.push", 7) && wl_fold_is_const(off, WL_PUSH_SINK_OFFSET) &&
           LLVMGetTypeKind(LLVMGetGEPSourceElementType(p)) == LLVMIntegerTypeKind &&
           LLVMGetIntTypeWidth(LLVMGetGEPSourceElementType(p)) == 8;
}

/* v is the sink plus offsets: a tree of adds (of any operands: a store
 * made there reaches only the sink, whatever it adds) with the sink's
 * load at a leaf */
static int on_sink(LLVMValueRef v, int depth)
{
    if (is_sink(v))
        return 1;
    if (depth > 6 || !wl_fold_is_op(v, LLVMAdd))
        return 0;
    return on_sink(LLVMGetOperand(v, 0), depth + 1) || on_sink(LLVMGetOperand(v, 1), depth + 1);
}

/* a store's address: the sink plus offsets (@wl.h.sink.store's sum, and
 * a span's constant offset) */
static int to_sink(LLVMValueRef ptr)
{
    return LLVMIsAIntToPtrInst(ptr) && wl_fold_is_op(LLVMGetOperand(ptr, 0), LLVMAdd) &&
           on_sink(LLVMGetOperand(ptr, 0), 0);
}

/* v and the operands that fed only it, where they are arithmetic with no
 * other use */
static void erase_dead(LLVMValueRef v, int depth)
{
    if (!LLVMIsAInstruction(v) || LLVMGetFirstUse(v) || depth > 8)
        return;
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    if (op != LLVMAdd && op != LLVMSub && op != LLVMAnd && op != LLVMOr && op != LLVMShl && op != LLVMIntToPtr &&
        op != LLVMZExt)
        return;
    LLVMValueRef ops[2] = {LLVMGetOperand(v, 0), LLVMGetNumOperands(v) > 1 ? LLVMGetOperand(v, 1) : NULL};
    LLVMInstructionEraseFromParent(v);
    for (int i = 0; i < 2; i++)
        if (ops[i])
            erase_dead(ops[i], depth + 1);
}

int wl_opt_drop_sink_stores(wl_pass_ctx *P, unsigned arg)
{
    (void)arg;
    int n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(P->m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef I = LLVMGetFirstInstruction(bb), next; I; I = next) {
                next = LLVMGetNextInstruction(I);
                if (LLVMIsAStoreInst(I) && !LLVMGetVolatile(I) && LLVMGetOrdering(I) == LLVMAtomicOrderingNotAtomic &&
                    to_sink(LLVMGetOperand(I, 1))) {
                    LLVMValueRef ptr = LLVMGetOperand(I, 1), val = LLVMGetOperand(I, 0);
                    LLVMInstructionEraseFromParent(I);
                    erase_dead(ptr, 0);
                    erase_dead(val, 0);
                    n++;
                }
            }
    return n;
}
