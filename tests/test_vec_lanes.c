/* The lane-clone vectorizer (llvm-passes/vectorize_lanes/vec_lanes.c, vec_choose.c,
 * vec_rewrite.c; translate option `vectorize`), executed, and its minimum
 * cut (llvm-passes/vectorize_lanes/vec_flow.c) against exhaustive search.
 *
 * vectors_match: a function written as the lanes model writes k = 2, 4
 * and 8 lane clones (8: vectors of 4, two groups) (lane numbers p + j*S; arithmetic, compares, selects,
 * casts, floats, min/max intrinsics; uniform operands; a chain that reads
 * the previous lane's value, as the bad-address notes do; per-lane loads;
 * a loop carrying a value per lane through phis; a value of 40 users and
 * a phi of 41 incoming blocks, past the pass's limits for trying every
 * pair (both must still be made vectors); per-lane stores) is run
 * by LLVM's MCJIT before and after wl_opt_vectorize_lanes on the same inputs.
 * The oracle is LLVM's execution of the unvectorized IR; the pass must
 * have made vectors (counts printed) and change no output. spv.construct,
 * which only the backend knows, is replaced by insertelements first.
 *
 * cut_is_minimal: random graphs of 2 to 10 nodes; the flow equals the
 * smallest cut found by trying every assignment of the inner nodes, and
 * the source side wl_flow_source_side reports has exactly that capacity. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/ExecutionEngine.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Target.h>

#include "support.h"
#include "wlt_jit.h"
#include "llvm-passes/vectorize_lanes/vec_flow.h"
#include "llvm-passes/passes.h"

#define NIN 16
#define NOUT 128

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)rng;
}

/* ---- the program, for k lanes at subgroup size S ---- */

/* Each line is written once per lane j: "%J" is j, "%L" the lane's name
 * suffix, "%P" the previous lane's suffix (lane 0: "x", a value defined
 * before). */
static void lanes(wlt_text *b, unsigned k, const char *line)
{
    for (unsigned j = 0; j < k; j++) {
        char tmp[512];
        size_t o = 0;
        for (const char *c = line; *c && o + 16 < sizeof tmp; c++) {
            if (c[0] == '%' && (c[1] == 'J' || c[1] == 'L' || c[1] == 'P')) {
                if (c[1] == 'J')
                    o += (size_t)snprintf(tmp + o, sizeof tmp - o, "%u", j);
                else if (c[1] == 'L')
                    o += (size_t)snprintf(tmp + o, sizeof tmp - o, "_%u", j);
                else if (j)
                    o += (size_t)snprintf(tmp + o, sizeof tmp - o, "_%u", j - 1);
                else
                    o += (size_t)snprintf(tmp + o, sizeof tmp - o, "x");
                c++;
            } else {
                tmp[o++] = *c;
            }
        }
        tmp[o] = 0;
        wlt_textf(b, "  %s\n", tmp);
    }
}

static char *program(unsigned k, unsigned S)
{
    wlt_text b = {0};
    wlt_textf(&b, "@in = global [%d x i32] zeroinitializer\n@out = global [%d x i32] zeroinitializer\n", NIN, NOUT);
    wlt_textf(&b, "declare i32 @llvm.umin.i32(i32, i32)\ndeclare i32 @llvm.smax.i32(i32, i32)\n");
    /* the lane number: a function of that name, defined here so that MCJIT runs it */
    wlt_textf(&b, "define i32 @spv.subgroup_local_invocation_id() {\n"
                  "  %%v = load i32, ptr getelementptr ([%d x i32], ptr @in, i32 0, i32 15)\n"
                  "  %%m = and i32 %%v, %u\n  ret i32 %%m\n}\n",
        NIN, S - 1);
    wlt_textf(&b, "define void @main() {\nentry:\n");
    wlt_textf(&b, "  %%p_0 = call i32 @spv.subgroup_local_invocation_id()\n");
    for (unsigned j = 1; j < k; j++)
        wlt_textf(&b, "  %%p_%u = add i32 %%p_0, %u\n", j, j * S);
    wlt_textf(&b, "  %%u = load i32, ptr @in\n"
                  "  %%u2 = load i32, ptr getelementptr ([%d x i32], ptr @in, i32 0, i32 1)\n"
                  "  %%u3 = load i32, ptr getelementptr ([%d x i32], ptr @in, i32 0, i32 2)\n"
                  "  %%trip = and i32 %%u3, 7\n"
                  "  %%nx = add i64 0, 0\n",
        NIN, NIN);
    lanes(&b, k, "%a%L = urem i32 %p%L, 64");
    lanes(&b, k, "%b%L = mul i32 %a%L, %u");
    lanes(&b, k, "%c%L = xor i32 %b%L, %u2");
    lanes(&b, k, "%d%L = icmp ult i32 %c%L, %u");
    lanes(&b, k, "%e%L = select i1 %d%L, i32 %c%L, i32 %b%L");
    lanes(&b, k, "%f%L = call i32 @llvm.umin.i32(i32 %e%L, i32 %u2)");
    lanes(&b, k, "%f2%L = call i32 @llvm.smax.i32(i32 %f%L, i32 -100)");
    lanes(&b, k, "%g%L = zext i32 %f2%L to i64");
    lanes(&b, k, "%h%L = shl i64 %g%L, 3");
    lanes(&b, k, "%ha%L = ashr i64 %h%L, 1");
    /* the previous lane's value (the notes' chain): never one vector */
    lanes(&b, k, "%n%L = select i1 %d%L, i64 %ha%L, i64 %n%P");
    /* per-lane loads */
    lanes(&b, k, "%i%L = and i32 %c%L, 15");
    lanes(&b, k, "%qp%L = getelementptr [16 x i32], ptr @in, i32 0, i32 %i%L");
    lanes(&b, k, "%q%L = load i32, ptr %qp%L");
    lanes(&b, k, "%r%L = add i32 %q%L, %e%L");
    lanes(&b, k, "%r2%L = sub i32 %r%L, %a%L");
    lanes(&b, k, "%am%L = and i32 %a%L, 15"); /* a shift of 32 or more would be poison */
    lanes(&b, k, "%r3%L = lshr i32 %r2%L, %am%L");
    lanes(&b, k, "%fl%L = uitofp i32 %r3%L to float");
    lanes(&b, k, "%fm%L = fmul float %fl%L, 5.000000e-01");
    lanes(&b, k, "%fa%L = fadd float %fm%L, 1.250000e-01");
    lanes(&b, k, "%fc%L = fcmp olt float %fa%L, 1.000000e+06");
    lanes(&b, k, "%fs%L = select i1 %fc%L, float %fa%L, float 1.000000e+06");
    lanes(&b, k, "%fi%L = fptoui float %fs%L to i32");
    lanes(&b, k, "%t%L = trunc i32 %r3%L to i16");
    lanes(&b, k, "%ts%L = sext i16 %t%L to i32");
    wlt_textf(&b, "  br label %%loop\nloop:\n");
    lanes(&b, k, "%s%L = phi i32 [ %r2%L, %entry ], [ %sm%L, %loop ]");
    wlt_textf(&b, "  %%cnt = phi i32 [ 0, %%entry ], [ %%cntn, %%loop ]\n");
    lanes(&b, k, "%sn%L = add i32 %s%L, %a%L");
    lanes(&b, k, "%sm%L = mul i32 %sn%L, 3");
    wlt_textf(&b, "  %%cntn = add i32 %%cnt, 1\n  %%cc = icmp ult i32 %%cntn, %%trip\n"
                  "  br i1 %%cc, label %%loop, label %%exit\nexit:\n");
    lanes(&b, k, "%sx0%L = xor i32 %sm%L, %u");
    /* a hash of rounds on the same operands: where vectors pay at k = 2 */
    for (int r = 0; r < 8; r++) {
        char line[160];
        snprintf(line, sizeof line, "%%hm%d%%L = mul i32 %%sx%d%%L, %%u2", r, r);
        lanes(&b, k, line);
        snprintf(line, sizeof line, "%%hs%d%%L = lshr i32 %%hm%d%%L, 13", r, r);
        lanes(&b, k, line);
        snprintf(line, sizeof line, "%%hx%d%%L = xor i32 %%hm%d%%L, %%hs%d%%L", r, r, r);
        lanes(&b, k, line);
        snprintf(line, sizeof line, "%%sx%d%%L = add i32 %%hx%d%%L, %%a%%L", r + 1, r);
        lanes(&b, k, line);
    }
    /* a value of many users (more than the 32 that are paired each with
     * each; a return dispatch's state is read by thousands): its lane
     * clones are found beside each other */
    lanes(&b, k, "%wide%L = add i32 %a%L, 7");
    lanes(&b, k, "%ws0%L = add i32 %wide%L, 0");
    for (int i = 1; i <= 40; i++) {
        char line[160];
        snprintf(line, sizeof line, "%%wu%d%%L = xor i32 %%wide%%L, %d", i, 3 * i + 1);
        lanes(&b, k, line);
        snprintf(line, sizeof line, "%%ws%d%%L = add i32 %%ws%d%%L, %%wu%d%%L", i, i - 1, i);
        lanes(&b, k, line);
    }
    lanes(&b, k, "%sx%L = add i32 %sx8%L, %ws40%L");
    /* a phi of many incoming blocks (over 32: its partner is looked for
     * among the next phis only) */
    wlt_textf(&b, "  %%sel = and i32 %%u, 63\n  switch i32 %%sel, label %%m [");
    for (int i = 0; i < 40; i++)
        wlt_textf(&b, " i32 %d, label %%c%d", i, i);
    wlt_textf(&b, " ]\n");
    for (int i = 0; i < 40; i++) {
        char line[160];
        wlt_textf(&b, "c%d:\n", i);
        snprintf(line, sizeof line, "%%cv%d%%L = mul i32 %%sx%%L, %d", i, 2 * i + 3);
        lanes(&b, k, line);
        wlt_textf(&b, "  br label %%m\n");
    }
    wlt_textf(&b, "m:\n");
    for (unsigned j = 0; j < k; j++) {
        wlt_textf(&b, "  %%mp_%u = phi i32 [ %%sx_%u, %%exit ]", j, j);
        for (int i = 0; i < 40; i++)
            wlt_textf(&b, ", [ %%cv%d_%u, %%c%d ]", i, j, i);
        wlt_textf(&b, "\n");
    }
    lanes(&b, k, "%mx%L = add i32 %mp%L, %a%L");
    /* every lane's results to memory: out[8j + i] */
    static const char *const res[] = {"%mx", "%fi", "%ts", "%r3"};
    for (unsigned j = 0; j < k; j++) {
        for (unsigned i = 0; i < 4; i++)
            wlt_textf(&b, "  store i32 %s_%u, ptr getelementptr ([%d x i32], ptr @out, i32 0, i32 %u)\n", res[i], j,
                NOUT, 8 * j + i);
        wlt_textf(&b, "  store i64 %%n_%u, ptr getelementptr ([%d x i32], ptr @out, i32 0, i32 %u)\n", j, NOUT,
            8 * j + 4);
    }
    wlt_textf(&b, "  ret void\n}\n");
    return b.s;
}

/* spv.construct.* (backend: OpCompositeConstruct) as insertelements */
static void lower_constructs(LLVMModuleRef m)
{
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        size_t len = 0;
        const char *n = LLVMGetValueName2(f, &len);
        if (strncmp(n, "spv.construct", 13))
            continue;
        LLVMValueRef c;
        while ((c = LLVMGetFirstUse(f) ? LLVMGetUser(LLVMGetFirstUse(f)) : NULL)) {
            LLVMPositionBuilderBefore(b, c);
            LLVMValueRef v = LLVMGetPoison(LLVMTypeOf(c));
            for (unsigned i = 0; i < (unsigned)LLVMGetNumArgOperands(c); i++)
                v = LLVMBuildInsertElement(b, v, LLVMGetOperand(c, i),
                                           LLVMConstInt(LLVMInt32TypeInContext(ctx), i, 0), "");
            LLVMReplaceAllUsesWith(c, v);
            LLVMInstructionEraseFromParent(c);
        }
    }
    LLVMDisposeBuilder(b);
}

static size_t count_vector_insts(LLVMModuleRef m)
{
    size_t n = 0;
    LLVMValueRef f = LLVMGetNamedFunction(m, "main");
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I))
            n += LLVMGetTypeKind(LLVMTypeOf(I)) == LLVMVectorTypeKind && !LLVMIsACallInst(I) &&
                 LLVMGetInstructionOpcode(I) != LLVMInsertElement;
    return n;
}

typedef struct jit {
    LLVMExecutionEngineRef ee;
    uint32_t *in, *out;
    void (*fn)(void);
} jit;

static void start(jit *J, LLVMModuleRef m)
{
    void *in, *out;
    J->fn = wlt_jit_start(m, "main", &J->ee, &in, &out);
    J->in = in;
    J->out = out;
}

static void run_k(unsigned k, unsigned S)
{
    char *text = program(k, S);
    if (getenv("WLT_VEC_DUMP")) { /* the program, to look at */
        FILE *fp = fopen(getenv("WLT_VEC_DUMP"), "w");
        if (fp) {
            fputs(text, fp);
            fclose(fp);
        }
    }
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef mods[2];
    for (int i = 0; i < 2; i++) {
        LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRangeCopy(text, strlen(text), "vec");
        char *msg = NULL;
        if (LLVMParseIRInContext(ctx, mb, &mods[i], &msg))
            fail_msg("IR (k = %u): %s", k, msg ? msg : "?");
    }
    free(text);
    char perr[512];
    wl_pass_ctx P;
    wl_pass_ctx_init(&P, mods[1], NULL, perr, sizeof perr);
    P.li.lanes_per_invocation = k;
    P.subgroup_size = S;
    int tuples = wl_opt_vectorize_lanes(&P, 0);
    char *msg = NULL;
    if (LLVMVerifyModule(mods[1], LLVMReturnStatusAction, &msg))
        fail_msg("vectorized module (k = %u) does not verify: %s", k, msg ? msg : "?");
    LLVMDisposeMessage(msg);
    size_t vec = count_vector_insts(mods[1]);
    printf("k = %u: %d tuples made vectors, %zu vector instructions\n", k, tuples, vec);
    /* the many-user chain and the phi of 41 blocks made vectors too: no
     * scalar clone of them is left */
    size_t left = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(mods[1]); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I)) {
                size_t len = 0;
                const char *n = LLVMGetValueName2(I, &len);
                left += len >= 2 && (!strncmp(n, "wu", 2) || !strncmp(n, "mp", 2)) &&
                        LLVMGetTypeKind(LLVMTypeOf(I)) != LLVMVectorTypeKind;
            }
    printf("k = %u: scalar clones left of the many-user chain and the wide phi: %zu\n", k, left);
    assert_int_equal(left, 0);
    assert_true(tuples >= 20);
    assert_true(vec >= 20);
    lower_constructs(mods[1]);
    jit A, B;
    start(&A, mods[0]);
    start(&B, mods[1]);
    unsigned runs = 0, bad = 0, words = 0;
    static const uint32_t edge[] = {0, 1, 0x7fffffffu, 0x80000000u, 0xffffffffu, 63, 64};
    for (unsigned r = 0; r < 3000; r++) {
        uint32_t v[NIN];
        for (int i = 0; i < NIN; i++)
            v[i] = r < 343 && i < 3 ? edge[(r / (i == 0 ? 1 : i == 1 ? 7 : 49)) % 7] : rnd();
        memcpy(A.in, v, sizeof v);
        memcpy(B.in, v, sizeof v);
        memset(A.out, 0xa5, NOUT * 4);
        memset(B.out, 0x5a, NOUT * 4);
        A.fn();
        B.fn();
        runs++;
        int diff = 0, at = -1;
        for (unsigned j = 0; j < k; j++)
            for (unsigned i = 0; i < 6; i++) {
                words++;
                if (A.out[8 * j + i] != B.out[8 * j + i] && at < 0)
                    at = (int)(8 * j + i);
                diff |= A.out[8 * j + i] != B.out[8 * j + i];
            }
        if (diff && bad < 5)
            printf("word %d: %08x vs %08x\n", at, A.out[at], B.out[at]);
        if (diff && bad++ < 5)
            printf("MISMATCH k = %u, inputs %08x %08x %08x lane %08x: lane 0 %08x %08x %08x %08x vs %08x %08x %08x "
                   "%08x\n",
                   k, v[0], v[1], v[2], v[15], A.out[0], A.out[1], A.out[2], A.out[3], B.out[0], B.out[1], B.out[2],
                   B.out[3]);
    }
    printf("k = %u: %u input sets, %u match; %u words compared\n", k, runs, runs - bad, words);
    assert_int_equal(bad, 0);
    LLVMDisposeExecutionEngine(A.ee); /* owns the modules */
    LLVMDisposeExecutionEngine(B.ee);
    LLVMContextDispose(ctx);
}

static void vectors_match(void **state)
{
    (void)state;
    LLVMLinkInMCJIT();
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
    run_k(2, 32);
    run_k(4, 16);
    run_k(8, 8); /* two groups of 4 lanes */
}

/* ---- the minimum cut ---- */

static void cut_is_minimal(void **state)
{
    (void)state;
    unsigned graphs = 0, agree = 0;
    for (int g = 0; g < 400; g++) {
        int n = 2 + (int)(rnd() % 9);
        long cap[10][10] = {{0}};
        wl_flow *f = wl_flow_new(n);
        assert_non_null(f);
        int edges = (int)(rnd() % 30);
        for (int e = 0; e < edges; e++) {
            int a = (int)(rnd() % (unsigned)n), b = (int)(rnd() % (unsigned)n);
            long c = rnd() % 8 == 0 ? WL_FLOW_INF : (long)(rnd() % 20);
            if (a == b)
                continue;
            cap[a][b] += c;
            assert_int_equal(wl_flow_edge(f, a, b, c), 0);
        }
        long flow = wl_flow_run(f, 0, 1), best = -1;
        for (unsigned mask = 0; mask < 1u << (n - 2); mask++) {
            long c = 0;
            for (int a = 0; a < n; a++)
                for (int b = 0; b < n; b++) {
                    int sa = a == 0 || (a > 1 && (mask >> (a - 2) & 1));
                    int sb = b == 0 || (b > 1 && (mask >> (b - 2) & 1));
                    if (sa && !sb)
                        c += cap[a][b];
                }
            if (best < 0 || c < best)
                best = c;
        }
        long side = 0;
        for (int a = 0; a < n; a++)
            for (int b = 0; b < n; b++)
                if (wl_flow_source_side(f, a) && !wl_flow_source_side(f, b))
                    side += cap[a][b];
        assert_true(wl_flow_source_side(f, 0));
        assert_false(wl_flow_source_side(f, 1) && flow < WL_FLOW_INF);
        graphs++;
        agree += flow == best && side == best;
        if (flow != best || side != best)
            printf("graph %d (%d nodes): flow %ld, source side %ld, exhaustive %ld\n", g, n, flow, side, best);
        wl_flow_free(f);
    }
    printf("minimum cut: %u graphs, %u agree with exhaustive search\n", graphs, agree);
    assert_int_equal(agree, graphs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(vectors_match), cmocka_unit_test(cut_is_minimal)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
