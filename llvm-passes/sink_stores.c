/* Stores that can only reach the sink (docs/memory.md, "Straight-line
 * accesses"): a masked-off lane's dword store is made at
 * sink + 128 + (host address & 0xffff) (lower/memory/helpers/global.ll),
 * and no module reads that part of the sink (loads of masked-off lanes read
 * its first 128 bytes). Where the optimizer has folded the store's
 * condition to false, its address is that sum itself, with no select: the
 * store is dead and goes (the lifter's private-memory programs have many:
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

/* v is sink + 128 + (x & 0xffff) */
static int spread(LLVMValueRef v)
{
    if (!wl_fold_is_op(v, LLVMAdd))
        return 0;
    for (int i = 0; i < 2; i++) {
        LLVMValueRef a = LLVMGetOperand(v, (unsigned)i), m = LLVMGetOperand(v, (unsigned)(1 - i));
        if (wl_fold_is_op(a, LLVMAdd) && wl_fold_is_op(m, LLVMAnd) &&
            wl_fold_is_const(LLVMGetOperand(m, 1), 0xffff) &&
            ((is_sink(LLVMGetOperand(a, 0)) && wl_fold_is_const(LLVMGetOperand(a, 1), 128)) ||
             (is_sink(LLVMGetOperand(a, 1)) && wl_fold_is_const(LLVMGetOperand(a, 0), 128))))
            return 1;
    }
    return 0;
}

/* a store's address: that sum, or it plus a span's constant offset
 * (at most 127: global.ll's spans) */
static int to_sink(LLVMValueRef ptr)
{
    if (!LLVMIsAIntToPtrInst(ptr))
        return 0;
    LLVMValueRef a = LLVMGetOperand(ptr, 0);
    if (spread(a))
        return 1;
    if (!wl_fold_is_op(a, LLVMAdd))
        return 0;
    for (int i = 0; i < 2; i++) {
        LLVMValueRef c = LLVMGetOperand(a, (unsigned)(1 - i));
        if (LLVMIsAConstantInt(c) && LLVMConstIntGetZExtValue(c) <= 127 && spread(LLVMGetOperand(a, (unsigned)i)))
            return 1;
    }
    return 0;
}

/* v and the operands that fed only it, where they are arithmetic with no
 * other use */
static void erase_dead(LLVMValueRef v, int depth)
{
    if (!LLVMIsAInstruction(v) || LLVMGetFirstUse(v) || depth > 8)
        return;
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    if (op != LLVMAdd && op != LLVMSub && op != LLVMAnd && op != LLVMIntToPtr && op != LLVMZExt)
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
