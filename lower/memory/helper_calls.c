/* Which of the lanes model's memory helpers stay functions (docs/backend.md
 * "Functions", docs/benchmarks.md). lower/memory/memory.c writes every helper
 * @wl.h.* as IR text with `alwaysinline`; wl_lc_finish inlines them. A
 * helper inlined at c call sites costs its words c times (less what LLVM
 * shares between the copies: the push-constant loads of the mapping); as a
 * function it costs its words once plus an OpFunctionCall of 4 + arguments
 * words per call. Just before the inlining (wl_lc_outline_helpers, called by
 * wl_lc_finish) the helpers named below that are called at least N times
 * are made `noinline` with internal linkage: they survive the finish and the
 * host passes (function passes only; the wave model's default<O2> respects
 * noinline, and its IPSCCP/deadargelim only specialize what stays valid IR)
 * and become SPIR-V functions (OpFunction, OpFunctionCall). The threshold is
 * measured on the corpus (docs/benchmarks.md: 2 to 8 calls give more words,
 * 12 and 16 the fewest). The mapping @wl.h.gmap is inlined into them. LDS
 * helpers stay inlined (their barriers and memory/lds.c's finish work on the
 * inlined code).
 *
 * Off by default: Mesa inlines every SPIR-V function again before it
 * compiles, and without LLVM's per-call-site folding the pipeline build on
 * lavapipe grew 8 to 13 times for a loop kernel (docs/benchmarks.md, fourth
 * pass) for 2% fewer words. The translate option helper_calls = N (N > 0)
 * turns it on with threshold N (12 measured best); 0: every helper
 * inlined. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lower/context.h"

static const char *const outlined[] = {
    "wl.h.load.global.", "wl.h.store.global.", "wl.h.atomic.global.", "wl.h.merge", "wl.h.sload.",
    "wl.h.sstore.", "wl.h.escape", "wl.h.load.scratch.", "wl.h.store.scratch.",
};

static int is_outlined(const char *n, size_t len)
{
    /* LDS helpers stay inlined: their order barriers and device-memory
     * variant (memory/lds.c) work on the inlined code */
    for (size_t i = 0; i + 3 <= len; i++)
        if (!memcmp(n + i, "lds", 3))
            return 0;
    for (size_t i = 0; i < sizeof outlined / sizeof outlined[0]; i++)
        if (wl_lc_prefix(n, len, outlined[i]))
            return 1;
    return 0;
}

/* instructions of f, those of the helpers it calls (inlined into it) counted in */
static unsigned size_of(LLVMValueRef f, int depth)
{
    unsigned n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I)) {
            n++;
            LLVMValueRef c = LLVMIsACallInst(I) ? LLVMGetCalledValue(I) : NULL;
            if (c && LLVMIsAFunction(c) && !LLVMIsDeclaration(c) && depth < 4)
                n += size_of(c, depth + 1);
        }
    return n;
}

static unsigned calls_of(LLVMValueRef f)
{
    unsigned n = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u))
        n++;
    return n;
}

/* Called before the helpers are inlined (wl_lc_finish): a helper of s
 * instructions called c times costs about 3 s c words inlined, and about
 * 3 s + 12 + c (4 + its arguments) as a function (measured on the corpus:
 * an LLVM instruction of these helpers is 3 to 4 words); kept as a function
 * where that is smaller. */
void wl_lc_outline_helpers(LLVMModuleRef m, unsigned min_calls)
{
    if (!min_calls)
        return; /* off by default: see the header */
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    unsigned ai = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
    unsigned ni = LLVMGetEnumAttributeKindForName("noinline", 8);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        size_t len = 0;
        const char *n = LLVMGetValueName2(f, &len);
        if (LLVMIsDeclaration(f) || !is_outlined(n, len))
            continue;
        unsigned c = calls_of(f), sz = size_of(f, 0), na = LLVMCountParams(f);
        if (c < min_calls || 3ull * sz * c <= 3ull * sz + 12 + (uint64_t)c * (4 + na))
            continue;
        LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, ai);
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, ni, 0));
        LLVMSetLinkage(f, LLVMInternalLinkage);
    }
}

int wl_lc_is_outlined(LLVMValueRef f)
{
    if (!f || LLVMIsDeclaration(f))
        return 0;
    unsigned ni = LLVMGetEnumAttributeKindForName("noinline", 8);
    return LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, ni) != NULL;
}
