/* wl_opt_fold_odd_widths (passes.h): sext/zext of a trunc to an odd width
 * (i4, i24: outside the host IR profile) as shifts and masks in the source
 * width. */
#include <string.h>

#include "pass.h"
#include "passes.h"
#include "lower/context.h"
#include "ir/wave_ir.h"

static int odd_width(unsigned n) { return n != 1 && n != 8 && n != 16 && n != 32 && n != 64; }

static unsigned fold_odd_widths(LLVMModuleRef m)
{
    LLVMValueRef fn = m ? wl_opt_the_wave(m) : NULL;
    if (!fn)
        return 0;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    unsigned count = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef I = LLVMGetFirstInstruction(bb);
        while (I) {
            LLVMValueRef next = LLVMGetNextInstruction(I);
            LLVMOpcode op = LLVMIsAInstruction(I) ? LLVMGetInstructionOpcode(I) : (LLVMOpcode)0;
            LLVMValueRef t = (op == LLVMSExt || op == LLVMZExt) ? LLVMGetOperand(I, 0) : NULL;
            if (t && LLVMIsATruncInst(t) && LLVMGetTypeKind(LLVMTypeOf(t)) == LLVMIntegerTypeKind &&
                odd_width(LLVMGetIntTypeWidth(LLVMTypeOf(t))) && LLVMGetIntTypeWidth(LLVMTypeOf(I)) <= 64) {
                LLVMValueRef x = LLVMGetOperand(t, 0);
                LLVMTypeRef xt = LLVMTypeOf(x), rt = LLVMTypeOf(I);
                unsigned xs = LLVMGetIntTypeWidth(xt), n = LLVMGetIntTypeWidth(LLVMTypeOf(t));
                unsigned rs = LLVMGetIntTypeWidth(rt);
                LLVMPositionBuilderBefore(b, I);
                LLVMValueRef y;
                if (op == LLVMSExt) {
                    LLVMValueRef sh = LLVMConstInt(xt, xs - n, 0);
                    y = LLVMBuildAShr(b, LLVMBuildShl(b, x, sh, ""), sh, "");
                    y = rs > xs ? LLVMBuildSExt(b, y, rt, "") : rs < xs ? LLVMBuildTrunc(b, y, rt, "") : y;
                } else {
                    y = LLVMBuildAnd(b, x, LLVMConstInt(xt, n >= 64 ? ~0ull : (1ull << n) - 1, 0), "");
                    y = rs > xs ? LLVMBuildZExt(b, y, rt, "") : rs < xs ? LLVMBuildTrunc(b, y, rt, "") : y;
                }
                LLVMReplaceAllUsesWith(I, y);
                LLVMInstructionEraseFromParent(I);
                if (!LLVMGetFirstUse(t)) {
                    if (next == t)
                        next = LLVMGetNextInstruction(t);
                    LLVMInstructionEraseFromParent(t);
                }
                count++;
            }
            I = next;
        }
    }
    LLVMDisposeBuilder(b);
    return count;
}

/* the pass (passes.h) */
int wl_opt_fold_odd_widths(wl_pass_ctx *P, unsigned arg)
{
    (void)arg;
    return (int)fold_odd_widths(P->m);
}
