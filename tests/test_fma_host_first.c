/* llvm-passes/outline_fma.c, fma-host-first: the host's float Fma where it
 * is exact for normal operands and results (WL_FMA_F32_NORMAL), the exact
 * routine behind a check elsewhere.
 *
 * The host's Fma is modelled in the module as NVIDIA's was measured
 * (wl_rt_probe_fma on an H100): subnormal operands read as zeros, a result
 * whose exact value is below the least normal (tininess before rounding)
 * a zero of its sign, else the correctly rounded fused result. LLVM's MCJIT
 * runs the function before the pass (llvm.fma: the exact fused result of
 * the host C library) and after it (the model's Fma, the check, llvm.fma in
 * the branch) on the same operands: subnormals, results that round up to
 * the least normal, cancellations, zeros, infinities, NaNs, random bits.
 * The outputs must be equal; the model alone (no check) differs from
 * llvm.fma on some of them, which the test also requires, so that it can
 * fail. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/ExecutionEngine.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Target.h>

#include "wlt_jit.h"
#include "llvm-passes/passes.h"
#include "support.h"
#include "wavelift/backend.h"

static const char ir[] =
    "@in = global [6 x float] zeroinitializer\n"
    "@out = global [10 x i32] zeroinitializer\n"
    "declare float @llvm.fma.f32(float, float, float)\n"
    "declare float @fmaf(float, float, float)\n"
    "declare <2 x float> @llvm.fma.v2f32(<2 x float>, <2 x float>, <2 x float>)\n"
    "declare double @llvm.fma.f64(double, double, double)\n"
    "declare float @llvm.fabs.f32(float)\n"
    "declare double @llvm.fabs.f64(double)\n"
    "declare float @llvm.copysign.f32(float, float)\n"
    /* the flushing host: operands flushed, tininess before rounding */
    "define float @ftz(float %x) {\n  %m = call float @llvm.fabs.f32(float %x)\n"
    "  %s = fcmp olt float %m, 0x3810000000000000\n  %z = call float @llvm.copysign.f32(float 0.0, float %x)\n"
    "  %r = select i1 %s, float %z, float %x\n  ret float %r\n}\n"
    "define float @spv.fma.host.f32(float %a, float %b, float %c) {\n"
    "  %fa = call float @ftz(float %a)\n  %fb = call float @ftz(float %b)\n  %fc = call float @ftz(float %c)\n"
    "  %r = call float @fmaf(float %fa, float %fb, float %fc)\n"
    "  %da = fpext float %fa to double\n  %db = fpext float %fb to double\n  %dc = fpext float %fc to double\n"
    "  %d = call double @llvm.fma.f64(double %da, double %db, double %dc)\n"
    "  %dm = call double @llvm.fabs.f64(double %d)\n  %tiny = fcmp olt double %dm, 0x3810000000000000\n"
    "  %z = call float @llvm.copysign.f32(float 0.0, float %r)\n"
    "  %o = select i1 %tiny, float %z, float %r\n  ret float %o\n}\n"
    "define <2 x float> @spv.fma.host.v2f32(<2 x float> %a, <2 x float> %b, <2 x float> %c) {\n"
    "  %a0 = extractelement <2 x float> %a, i32 0\n  %b0 = extractelement <2 x float> %b, i32 0\n"
    "  %c0 = extractelement <2 x float> %c, i32 0\n  %a1 = extractelement <2 x float> %a, i32 1\n"
    "  %b1 = extractelement <2 x float> %b, i32 1\n  %c1 = extractelement <2 x float> %c, i32 1\n"
    "  %r0 = call float @spv.fma.host.f32(float %a0, float %b0, float %c0)\n"
    "  %r1 = call float @spv.fma.host.f32(float %a1, float %b1, float %c1)\n"
    "  %v0 = insertelement <2 x float> poison, float %r0, i32 0\n"
    "  %v1 = insertelement <2 x float> %v0, float %r1, i32 1\n  ret <2 x float> %v1\n}\n"
    "define void @wl.wave() {\n"
    "entry:\n"
    "  %a = load float, ptr @in\n"
    "  %pb = getelementptr float, ptr @in, i32 1\n  %b = load float, ptr %pb\n"
    "  %pc = getelementptr float, ptr @in, i32 2\n  %c = load float, ptr %pc\n"
    "  %pv = getelementptr float, ptr @in, i32 3\n  %v = load <2 x float>, ptr %pv\n"
    "  %r = call float @llvm.fma.f32(float %a, float %b, float %c)\n"
    "  store float %r, ptr @out\n"
    /* a constant operand (never subnormal: not tested) */
    "  %k = call float @llvm.fma.f32(float %a, float 6.250000e-02, float %c)\n"
    "  %po = getelementptr i32, ptr @out, i32 1\n  store float %k, ptr %po\n"
    "  %av = insertelement <2 x float> %v, float %a, i32 1\n"
    "  %rv = call <2 x float> @llvm.fma.v2f32(<2 x float> %av, <2 x float> %v, <2 x float> %v)\n"
    "  %pq = getelementptr i32, ptr @out, i32 2\n  store <2 x float> %rv, ptr %pq\n"
    /* fmas in a row, a flush between them, the lane vectorizer's
     * <2 x float> among them */
    "  %r1 = call float @llvm.fma.f32(float %a, float %b, float %c)\n"
    "  %m1 = call float @llvm.fabs.f32(float %r1)\n"
    "  %t1 = fcmp olt float %m1, 0x3810000000000000\n"
    "  %f1 = select i1 %t1, float 0.0, float %r1\n"
    "  %r2 = call float @llvm.fma.f32(float %f1, float %b, float %a)\n"
    "  %r3 = call float @llvm.fma.f32(float %r2, float %c, float %r1)\n"
    "  %w = call <2 x float> @llvm.fma.v2f32(<2 x float> %rv, <2 x float> %v, <2 x float> %av)\n"
    "  %p4 = getelementptr i32, ptr @out, i32 4\n  store float %r1, ptr %p4\n"
    "  %p5 = getelementptr i32, ptr @out, i32 5\n  store float %r2, ptr %p5\n"
    "  %p6 = getelementptr i32, ptr @out, i32 6\n  store float %r3, ptr %p6\n"
    "  %p7 = getelementptr i32, ptr @out, i32 7\n  store <2 x float> %w, ptr %p7\n"
    /* fmas in a loop of one block (the wave model's lane loops): the
     * back edge's phi takes the joined value */
    "  br label %loop\n"
    "loop:\n"
    "  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]\n"
    "  %acc = phi float [ %a, %entry ], [ %x3, %loop ]\n"
    "  %x1 = call float @llvm.fma.f32(float %acc, float %b, float %c)\n"
    "  %x2 = call float @llvm.fma.f32(float %x1, float %a, float %b)\n"
    "  %x3 = call float @llvm.fma.f32(float %x2, float %c, float %acc)\n"
    "  %i1 = add i32 %i, 1\n  %done = icmp eq i32 %i1, 3\n"
    "  br i1 %done, label %out, label %loop\n"
    "out:\n"
    "  %p9 = getelementptr i32, ptr @out, i32 9\n  store float %x3, ptr %p9\n"
    "  ret void\n"
    "}\n";

static uint64_t rng = 0xD1B54A32D192ED03ull;
static uint32_t rnd(void) { return wlt_xorshift(&rng); }

static float bits_f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static float pick(unsigned k)
{
    static const uint32_t special[] = {0x00000001u, 0x807fffffu, 0x00000000u, 0x80000000u, 0x00800000u,
                                       0x80800000u, 0x7fc00000u, 0x7f800000u, 0x3f800000u, 0xbf800000u,
                                       0x20800000u, /* 2^-62 */ 0x1f7fffffu /* 0x1.fffffep-65 */, 0x3f800800u,
                                       0x3f7ff000u, 0x7f7fffffu, 0x1f800000u};
    if (k % 4 == 3)
        return bits_f(rnd());
    if (k % 4 == 2)
        return bits_f((rnd() & 0x807fffffu) | ((rnd() % 8 + 60) << 23)); /* near 2^-63: products near the least normal */
    return bits_f(special[rnd() % (sizeof special / sizeof special[0])]);
}

static void host_first_exact(void **state)
{
    (void)state;
    wlt_jit_init();
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef ref = wlt_parse_ir(ctx, ir, sizeof ir - 1, "fma_ref");
    LLVMModuleRef got = wlt_parse_ir(ctx, ir, sizeof ir - 1, "fma_host");
    LLVMModuleRef raw = wlt_parse_ir(ctx, ir, sizeof ir - 1, "fma_raw");
    char err[512] = "";
    wl_pass_ctx P;
    wl_pass_ctx_init(&P, got, NULL, err, sizeof err);
    P.fused_fma = WL_FMA_F32_NORMAL;
    /* the three single calls of @wl.wave, its run of four and the loop's run (the model
     * calls the C library's fmaf) */
    int n = wl_opt_fma_host_first(&P, 0);
    printf("fma-host-first: %d fma rewritten\n", n);
    assert_int_equal(n, 10);
    unsigned branches = 0;
    LLVMValueRef gw = LLVMGetNamedFunction(got, "wl.wave");
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(gw); bb; bb = LLVMGetNextBasicBlock(bb))
        branches += LLVMGetNumSuccessors(LLVMGetBasicBlockTerminator(bb)) == 2;
    assert_int_equal(branches, 11); /* one an fma, and the loop's own */
    char *msg = NULL;
    if (LLVMVerifyModule(got, LLVMReturnStatusAction, &msg))
        fail_msg("module does not verify: %s", msg ? msg : "?");
    LLVMDisposeMessage(msg);
    P.fused_fma = WL_FMA_F32 | WL_FMA_F32_NORMAL; /* an exact host: nothing to do */
    assert_int_equal(wl_opt_fma_host_first(&P, 0), 0);
    /* raw: every llvm.fma in @wl.wave replaced by the model, unchecked */
    LLVMValueRef wave = LLVMGetNamedFunction(raw, "wl.wave");
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(wave); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            if (!LLVMIsACallInst(i))
                continue;
            size_t len;
            const char *cn = LLVMGetValueName2(LLVMGetCalledValue(i), &len);
            if (!strcmp(cn, "llvm.fma.f32"))
                LLVMSetOperand(i, 3, LLVMGetNamedFunction(raw, "spv.fma.host.f32"));
            else if (!strcmp(cn, "llvm.fma.v2f32"))
                LLVMSetOperand(i, 3, LLVMGetNamedFunction(raw, "spv.fma.host.v2f32"));
        }
    wlt_jit_pair jp, jr;
    LLVMExecutionEngineRef ea, eb, ec;
    jp.f[0] = jr.f[0] = wlt_jit_start(ref, "wl.wave", &ea, &jp.in[0], &jp.out[0]);
    jr.in[0] = jp.in[0], jr.out[0] = jp.out[0];
    jp.f[1] = wlt_jit_start(got, "wl.wave", &eb, &jp.in[1], &jp.out[1]);
    jr.f[1] = wlt_jit_start(raw, "wl.wave", &ec, &jr.in[1], &jr.out[1]);
    unsigned runs = 0, bad = 0, raw_bad = 0;
    for (unsigned r = 0; r < 20000; r++) {
        float v[6];
        for (int k = 0; k < 6; k++)
            v[k] = pick(r + (unsigned)k);
        if (r % 7 == 0) { /* a cancellation: (1 + x)(1 - x) - 1 */
            v[0] = 1.0f + 0x1p-13f, v[1] = 1.0f - 0x1p-13f, v[2] = -1.0f;
        }
        if (r % 11 == 0) { /* 2^-126 - 2^-150 exactly: rounds up to the least normal */
            v[0] = 0x1p-62f, v[1] = 0x1.fffffep-65f, v[2] = 0.0f;
        }
        runs++;
        if (!wlt_jit_same(&jp, v, sizeof v, 40) && bad++ < 5)
            printf("MISMATCH a=%a b=%a c=%a v=%a,%a\n", (double)v[0], (double)v[1], (double)v[2], (double)v[3],
                   (double)v[4]);
        raw_bad += !wlt_jit_same(&jr, v, sizeof v, 40);
    }
    printf("%u operand sets: %u match the exact fma; the host model unchecked differs on %u\n", runs, runs - bad,
           raw_bad);
    assert_int_equal(bad, 0);
    assert_true(raw_bad > 100); /* the model is not exact: the check is what makes it so */
    LLVMDisposeExecutionEngine(ea);
    LLVMDisposeExecutionEngine(eb);
    LLVMDisposeExecutionEngine(ec);
    LLVMContextDispose(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(host_first_exact)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
