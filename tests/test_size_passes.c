/* The three passes that shrink the SPIR-V, each on its own (docs/backend.md,
 * "Module size"):
 *   llvm-passes/merge_loads.c  adjacent aligned i32 loads of device memory become
 *       one <n x i32> load: LLVM modules built from a small load language,
 *       the loads counted before and after against the pass's rule, the
 *       result verified (LLVMVerifyModule); four of them also run on
 *       lavapipe, as written and merged, against a C model of the program;
 *   backend/blockcse.c  a pure instruction repeated in one block is written
 *       once, in each of two blocks it is written in each, loads around a
 *       store and atomics are never merged, a repeat after wl_bind renamed
 *       a fresh instruction's id (a loop-carried value) still merges, and
 *       so does every repeat in a block of 6000 (the table grows):
 *       opcodes counted in the words, every module checked by
 *       SPIRV-Tools, the loop also run on lavapipe against a C model;
 *   backend/memory.c unit_index  a word-memory offset `shl nuw x, 2`
 *       indexes by x (no shift back), a plain shl is shifted back: the
 *       shifts counted, the module run on lavapipe against a C model;
 *   backend/prune.c  on hand-built words, a constant named only by a
 *       composite constant stays, an unused one goes, and so do an
 *       unused composite and the member only it named; on an emitted
 *       module, every constant is named by an id operand (SPIRV-Tools'
 *       disassembly) and a vector constant's members are there.
 *   llvm-passes/sink_stores.c  a store that can only reach the sink's
 *       store part goes, a store that may be made stays;
 * Each expected count is read off the input and the rule; the runs that
 * happened are printed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>

#include "backend/be.h"
#include "llvm-passes/passes.h"
#include "support.h"
#include "wavelift/backend.h"
#include "wavelift/runtime.h"

#define LANES 64
#define BUF_WORDS 4096 /* in: words 0..1023 (16 a lane), out: 2048.., c: 3072.. */

/* ---- helpers ---- */

static LLVMModuleRef parse(LLVMContextRef ctx, const char *ir)
{
    LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), "test");
    LLVMModuleRef m = NULL;
    char *msg = NULL;
    if (LLVMParseIRInContext(ctx, mb, &m, &msg)) {
        print_error("%s\n---\n%s\n", msg ? msg : "parse error", ir);
        LLVMDisposeMessage(msg);
        fail_msg("the test's IR does not parse");
    }
    return m;
}

static void verify(LLVMModuleRef m)
{
    char *msg = NULL;
    if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
        print_error("%s\n", msg ? msg : "");
        LLVMDisposeMessage(msg);
        fail_msg("module does not verify");
    }
    LLVMDisposeMessage(msg);
}

/* Emits (validated by the emitter) and validates again here. */
static uint32_t *emit(LLVMModuleRef m, size_t *nw)
{
    wl_emit_options opt = {0};
    opt.local_size[0] = LANES;
    opt.validate = 1;
    uint32_t *w = NULL;
    char err[2048];
    if (wl_emit_spirv(m, &opt, &w, nw, NULL, err, sizeof err) != WL_OK)
        fail_msg("emit: %s", err);
    if (wl_validate_spirv(w, *nw, err, sizeof err) != WL_OK)
        fail_msg("spirv-val: %s", err);
    return w;
}

static uint32_t *emit_text(const char *ir, size_t *nw)
{
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = parse(ctx, ir);
    uint32_t *w = emit(m, nw);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    return w;
}

/* Instructions of opcode opc (with result type ty when ty != 0). */
static unsigned spv_count(const uint32_t *w, size_t n, uint32_t opc, uint32_t ty)
{
    unsigned c = 0;
    for (size_t i = 5; i < n;) {
        uint32_t wc = w[i] >> 16;
        assert_true(wc > 0 && i + wc <= n);
        if ((w[i] & 0xffffu) == opc && (!ty || (wc > 1 && w[i + 1] == ty)))
            c++;
        i += wc;
    }
    return c;
}

/* The id of OpTypeInt width 0 (unsigned). */
static uint32_t spv_uint(const uint32_t *w, size_t n, uint32_t width)
{
    for (size_t i = 5; i < n; i += w[i] >> 16)
        if ((w[i] & 0xffffu) == SpvOpTypeInt && w[i + 2] == width && w[i + 3] == 0)
            return w[i + 1];
    fail_msg("no OpTypeInt %u", width);
    return 0;
}

/* The largest number of OpLoads through one pointer id. */
static unsigned spv_max_loads_one_ptr(const uint32_t *w, size_t n)
{
    unsigned best = 0;
    for (size_t i = 5; i < n; i += w[i] >> 16) {
        if ((w[i] & 0xffffu) != SpvOpLoad)
            continue;
        unsigned c = 0;
        for (size_t j = 5; j < n; j += w[j] >> 16)
            c += (w[j] & 0xffffu) == SpvOpLoad && w[j + 3] == w[i + 3];
        best = c > best ? c : best;
    }
    return best;
}

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Runs words on one group of LANES invocations with mem (BUF_WORDS words,
 * in place) at the address in push words 0-1 and push word 2 = arg. */
static void run(wl_rt *rt, const uint32_t *w, size_t nw, uint32_t *mem, uint32_t arg)
{
    wl_rt_pipeline *p = wlt_pipeline(rt, w, nw, 0);
    wl_rt_buffer *b = NULL;
    assert_int_equal(wl_rt_buffer_create(rt, BUF_WORDS * 4ull, &b), WL_RT_OK);
    assert_int_equal(wl_rt_buffer_upload(rt, b, 0, mem, BUF_WORDS * 4ull), WL_RT_OK);
    uint64_t a = wl_rt_buffer_address(b);
    uint32_t push[4] = {(uint32_t)a, (uint32_t)(a >> 32), arg, 0};
    wl_rt_dispatch_desc d;
    memset(&d, 0, sizeof d);
    d.groups[0] = 1;
    d.push_constants = push;
    d.push_constant_size = sizeof push;
    wl_rt_status st = wl_rt_dispatch(rt, p, &d, NULL);
    if (st != WL_RT_OK)
        fail_msg("dispatch: %s", wl_rt_error(rt));
    assert_int_equal(wl_rt_buffer_download(rt, b, 0, mem, BUF_WORDS * 4ull), WL_RT_OK);
    wl_rt_buffer_destroy(rt, b);
    wl_rt_pipeline_destroy(rt, p);
}

static int have_lavapipe(void) { return access(WLT_LVP_ICD, R_OK) == 0 || getenv("VK_ICD_FILENAMES"); }

/* words run once on lavapipe, each lane's input word (0 .. LANES - 1) drawn
 * from seed into in[]: the buffer after the run (BUF_WORDS; the caller
 * frees it) */
static uint32_t *run_random(const uint32_t *w, size_t nw, uint64_t seed, uint32_t in[LANES])
{
    wl_rt *rt = wlt_rt(60000);
    uint32_t *mem = calloc(BUF_WORDS, 4);
    assert_non_null(mem);
    for (unsigned l = 0; l < LANES; l++)
        in[l] = mem[l] = (uint32_t)rng(&seed);
    run(rt, w, nw, mem, 0);
    wl_rt_destroy(rt);
    return mem;
}

/* ---- merge_loads: a small load language ----
 * Tokens, in program order, of one lane's accesses (b = the lane's 64
 * bytes of `in`, c = another base, push word 2 bytes after b):
 *   N[v|u|o|c]  load i32 at b + N (v volatile, u align 2, o atomic
 *               unordered, c at c + N instead)
 *   S           store i32 7 at b + 4       A  atomicrmw add 1 at b + 4
 *   F           fence seq_cst              |  a new block
 * Every load's value is stored, in order, to the lane's words of `out`
 * after the last token. */

static const char prologue[] =
    "@wl.push = external addrspace(6) global [4 x i32]\n"
    "declare i32 @spv.local_invocation_index()\n"
    "define void @main() {\n"
    "entry:\n"
    "  %pa = load i64, ptr addrspace(6) @wl.push, align 4\n"
    "  %n = load i32, ptr addrspace(6) getelementptr (i8, ptr addrspace(6) @wl.push, i64 8), align 4\n"
    "  %n64 = zext i32 %n to i64\n"
    "  %l = call i32 @spv.local_invocation_index()\n"
    "  %l6 = shl i32 %l, 6\n"
    "  %lo = zext i32 %l6 to i64\n"
    "  %b = add i64 %pa, %lo\n"
    "  %c = add i64 %b, %n64\n"
    "  %ob = add i64 %b, 8192\n"
    "  %w4a = add i64 %b, 4\n"
    "  %w4 = inttoptr i64 %w4a to ptr addrspace(1)\n";

/* Builds the module text of spec; the number of loads in *nloads. */
static void gen(wlt_text *t, const char *spec, unsigned *nloads)
{
    wlt_textf(t, "%s", prologue);
    unsigned k = 0, blocks = 0;
    for (const char *s = spec; *s;) {
        if (*s == ' ') {
            s++;
            continue;
        }
        if (isdigit((unsigned char)*s)) {
            char *end;
            unsigned long off = strtoul(s, &end, 10);
            s = end;
            int vol = 0, al2 = 0, atom = 0, onc = 0;
            for (; *s && *s != ' '; s++) {
                vol |= *s == 'v';
                al2 |= *s == 'u';
                atom |= *s == 'o';
                onc |= *s == 'c';
            }
            const char *base = onc ? "c" : "b";
            if (off)
                wlt_textf(t, "  %%a%u = add i64 %%%s, %lu\n  %%p%u = inttoptr i64 %%a%u to ptr addrspace(1)\n", k, base,
                          off, k, k);
            else
                wlt_textf(t, "  %%p%u = inttoptr i64 %%%s to ptr addrspace(1)\n", k, base);
            wlt_textf(t, "  %%x%u = load %s%si32, ptr addrspace(1) %%p%u%s, align %d\n", k, atom ? "atomic " : "",
                      vol ? "volatile " : "", k, atom ? " unordered" : "", al2 ? 2 : 4);
            k++;
            continue;
        }
        switch (*s++) {
        case 'S': wlt_textf(t, "  store i32 7, ptr addrspace(1) %%w4, align 4\n"); break;
        case 'A': wlt_textf(t, "  atomicrmw add ptr addrspace(1) %%w4, i32 1 monotonic, align 4\n"); break;
        case 'F': wlt_textf(t, "  fence seq_cst\n"); break;
        case '|':
            wlt_textf(t, "  br label %%bb%u\nbb%u:\n", blocks, blocks);
            blocks++;
            break;
        default: fail_msg("bad spec token in \"%s\"", spec);
        }
    }
    for (unsigned i = 0; i < k; i++)
        wlt_textf(t, "  %%oa%u = add i64 %%ob, %u\n  %%op%u = inttoptr i64 %%oa%u to ptr addrspace(1)\n"
                     "  store i32 %%x%u, ptr addrspace(1) %%op%u, align 4\n",
                  i, 4 * i, i, i, i, i);
    wlt_textf(t, "  ret void\n}\n");
    *nloads = k;
}

/* Loads of addrspace(1) in m: scalar ones, and the vector ones' widths. */
static void count_loads(LLVMModuleRef m, unsigned *scalar, unsigned *vec, unsigned *vec_lanes)
{
    *scalar = *vec = *vec_lanes = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I)) {
                if (!LLVMIsALoadInst(I) || LLVMGetPointerAddressSpace(LLVMTypeOf(LLVMGetOperand(I, 0))) != 1)
                    continue;
                LLVMTypeRef ty = LLVMTypeOf(I);
                if (LLVMGetTypeKind(ty) == LLVMVectorTypeKind) {
                    (*vec)++;
                    *vec_lanes += LLVMGetVectorSize(ty);
                    assert_true(LLVMGetAlignment(I) >= 4);
                } else {
                    (*scalar)++;
                }
            }
}

/* The C model of spec on mem (every lane, in place): what the program
 * does by the LLVM semantics of each token. */
static void model(const char *spec, uint32_t *mem, uint32_t cbytes)
{
    for (unsigned l = 0; l < LANES; l++) {
        uint32_t b = 16 * l, c = b + cbytes / 4, o = 2048 + 16 * l, k = 0;
        uint32_t val[16];
        for (const char *s = spec; *s;) {
            if (isdigit((unsigned char)*s)) {
                char *end;
                unsigned long off = strtoul(s, &end, 10);
                int onc = 0;
                for (s = end; *s && *s != ' '; s++)
                    onc |= *s == 'c';
                val[k++] = mem[(onc ? c : b) + off / 4];
                continue;
            }
            if (*s == 'S')
                mem[b + 1] = 7;
            if (*s == 'A')
                mem[b + 1] += 1;
            s++;
        }
        for (uint32_t i = 0; i < k; i++)
            mem[o + i] = val[i];
    }
}

static const struct mcase {
    const char *spec;
    int merged;           /* wl_opt_merge_loads' result: vector loads made */
    unsigned scalar, vec_lanes; /* loads left: scalar i32, dwords in vector loads */
    int exec;             /* also run on lavapipe */
} mcases[] = {
    /* merged: consecutive offsets from one base in one block, 4 at most a load */
    {"0 4 8 12", 1, 0, 4, 0},
    {"12 8 4 0", 1, 0, 4, 0},
    {"0 4", 1, 0, 2, 0},
    {"0 4 8 12 16", 1, 1, 4, 0},
    {"0 4 8 12 16 20", 2, 0, 6, 0},
    {"4c 0c", 1, 0, 2, 0},
    {"0 0 4", 1, 1, 2, 0}, /* one offset twice: one of the two joins the run */
    /* kept apart: a write or synchronization between, another block */
    {"0 S 4", 0, 2, 0, 0},
    {"0 A 4", 0, 2, 0, 0},
    {"0 F 4", 0, 2, 0, 0},
    {"0 | 4", 0, 2, 0, 0},
    {"0 4 S 8 12", 2, 0, 4, 0},
    /* not candidates: a gap, other bases, align 2, volatile, atomic */
    {"0 8", 0, 2, 0, 0},
    {"0 4c", 0, 2, 0, 0},
    {"0 4u", 0, 2, 0, 0},
    {"0 4v", 0, 2, 0, 0},
    {"0 4o", 0, 2, 0, 0},
    {"0 4v 8", 0, 3, 0, 0},
    /* run on lavapipe, as written and merged */
    {"12 8 4 0 16 20 28 36 40", 3, 1, 8, 1},
    {"0 4 S 8 4 12", 2, 0, 5, 1},
    {"0 A 4 8 A 12", 1, 2, 2, 1},
    {"0c 4c 8 12u 16 20", 2, 2, 4, 1},
};

/* llvm-passes/sink_stores.c: of four stores, the two whose address is the
 * sink's spread store part with no select (one plus a span's offset) go,
 * with the arithmetic only they used; the one whose lane may be on (a
 * select) and the one at the sink's zero half + 128 read from another word
 * (not the sink) stay. Counted by hand from the IR. */
static void drop_sink_stores(void **state)
{
    (void)state;
    static const char ir[] =
        "@wl.push = external addrspace(6) global [32 x i32]\n"
        "define void @f(i64 %ha, i1 %ok, i32 %v) {\n"
        "e:\n"
        "  %skp = getelementptr i8, ptr addrspace(6) @wl.push, i32 120\n"
        "  %sk0 = load i64, ptr addrspace(6) %skp, align 4\n"
        "  %sks = and i64 %ha, 65535\n"
        "  %sk1 = add i64 %sk0, 128\n"
        "  %sk = add i64 %sk1, %sks\n"
        "  %p1 = inttoptr i64 %sk to ptr addrspace(1)\n"
        "  store i32 %v, ptr addrspace(1) %p1, align 4\n"              /* dead */
        "  %sp = add i64 %sk, 8\n"
        "  %p2 = inttoptr i64 %sp to ptr addrspace(1)\n"
        "  store i32 %v, ptr addrspace(1) %p2, align 4\n"              /* dead: a span's word */
        "  %hs = select i1 %ok, i64 %ha, i64 %sk\n"
        "  %p3 = inttoptr i64 %hs to ptr addrspace(1)\n"
        "  store i32 %v, ptr addrspace(1) %p3, align 4\n"              /* stays */
        "  %op = getelementptr i8, ptr addrspace(6) @wl.push, i32 112\n"
        "  %o0 = load i64, ptr addrspace(6) %op, align 4\n"
        "  %o1 = add i64 %o0, 128\n"
        "  %o = add i64 %o1, %sks\n"
        "  %p4 = inttoptr i64 %o to ptr addrspace(1)\n"
        "  store i32 %v, ptr addrspace(1) %p4, align 4\n"              /* stays: not the sink's word */
        /* @wl.h.sink.store's form (map.ll): sink + 128 + 16 lane + 1 KiB group */
        "  %g = call i32 @spv.workgroup_id(i32 0)\n"
        "  %gs = shl i32 %g, 10\n"
        "  %ls = shl i32 %v, 4\n"
        "  %lo = or i32 %gs, %ls\n"
        "  %l128 = add i32 %lo, 128\n"
        "  %l64 = zext i32 %l128 to i64\n"
        "  %skl = add i64 %sk0, %l64\n"
        "  %p5 = inttoptr i64 %skl to ptr addrspace(1)\n"
        "  store i32 %v, ptr addrspace(1) %p5, align 4\n"              /* dead */
        "  %hl = select i1 %ok, i64 %ha, i64 %skl\n"
        "  %p6 = inttoptr i64 %hl to ptr addrspace(1)\n"
        "  store i32 %v, ptr addrspace(1) %p6, align 4\n"              /* stays */
        "  ret void\n"
        "}\n"
        "declare i32 @spv.workgroup_id(i32) nounwind willreturn memory(none)\n";
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = parse(ctx, ir);
    int r = wlt_run_pass(wl_opt_drop_sink_stores, m, 0);
    unsigned stores = 0, i2p = 0;
    LLVMValueRef f = LLVMGetNamedFunction(m, "f");
    for (LLVMValueRef I = LLVMGetFirstInstruction(LLVMGetFirstBasicBlock(f)); I; I = LLVMGetNextInstruction(I)) {
        stores += LLVMIsAStoreInst(I) != NULL;
        i2p += LLVMIsAIntToPtrInst(I) != NULL;
    }
    printf("  dropped %d; %u stores and %u inttoptr left\n", r, stores, i2p);
    assert_int_equal(r, 3);
    assert_int_equal(stores, 3);
    assert_int_equal(i2p, 3); /* the three dead stores' address casts went too */
    verify(m);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
}

static void merge_loads(void **state)
{
    (void)state;
    wl_rt *rt = have_lavapipe() ? wlt_rt(60000) : NULL;
    unsigned checked = 0, runs = 0, words = 0;
    const uint32_t cbytes = 12288; /* %c = b + 12288: region 3 of the buffer */
    for (size_t i = 0; i < sizeof mcases / sizeof mcases[0]; i++) {
        const struct mcase *mc = &mcases[i];
        wlt_text t = {0};
        unsigned nloads;
        gen(&t, mc->spec, &nloads);
        LLVMContextRef ctx = LLVMContextCreate();
        LLVMModuleRef m = parse(ctx, t.s), orig = LLVMCloneModule(m);
        unsigned s0, v0, vl0, s1, v1, vl1;
        count_loads(m, &s0, &v0, &vl0);
        assert_int_equal(s0, nloads);
        assert_int_equal(v0, 0);
        int r = wlt_run_pass(wl_opt_merge_loads, m, 0);
        count_loads(m, &s1, &v1, &vl1);
        printf("  \"%s\": %u loads -> %u scalar + %u vector (%u dwords), merged %d\n", mc->spec, nloads, s1, v1, vl1, r);
        if (r != mc->merged || s1 != mc->scalar || vl1 != mc->vec_lanes || v1 != (unsigned)mc->merged) {
            print_error("\"%s\": want merged %d, %u scalar, %u vector dwords\n%s", mc->spec, mc->merged, mc->scalar,
                        mc->vec_lanes, t.s);
            fail();
        }
        assert_int_equal(s1 + vl1, nloads); /* every load is still read once */
        verify(m);
        checked++;
        if (mc->exec && rt) {
            uint32_t *in = malloc(BUF_WORDS * 4), *want = malloc(BUF_WORDS * 4), *got = malloc(BUF_WORDS * 4);
            uint64_t seed = 0x243f6a8885a308d3ull + i;
            for (size_t j = 0; j < BUF_WORDS; j++)
                in[j] = (uint32_t)rng(&seed);
            memcpy(want, in, BUF_WORDS * 4);
            model(mc->spec, want, cbytes);
            for (int merged = 0; merged < 2; merged++) {
                size_t nw;
                uint32_t *w = emit(merged ? m : orig, &nw);
                memcpy(got, in, BUF_WORDS * 4);
                run(rt, w, nw, got, cbytes);
                size_t bad = 0;
                for (size_t j = 0; j < BUF_WORDS; j++)
                    if (got[j] != want[j] && bad++ < 5)
                        print_error("\"%s\"%s: word %zu: got %#x want %#x\n", mc->spec, merged ? " merged" : "", j,
                                    got[j], want[j]);
                assert_int_equal(bad, 0);
                printf("    %s: %zu SPIR-V words, %d words of memory as the model\n", merged ? "merged" : "as written",
                       nw, BUF_WORDS);
                runs++;
                words += BUF_WORDS;
                free(w);
            }
            free(in), free(want), free(got);
        }
        LLVMDisposeModule(orig);
        LLVMDisposeModule(m);
        LLVMContextDispose(ctx);
        free(t.s);
    }
    printf("merge_loads: %u modules checked, %u runs on lavapipe (%u words compared)%s\n", checked, runs, words,
           rt ? "" : " (no lavapipe: runs skipped)");
    if (rt)
        wl_rt_destroy(rt);
}

/* ---- blockcse ---- */

static const char cse_head[] =
    "@wl.push = external addrspace(6) global [4 x i32]\n"
    "declare i32 @spv.local_invocation_index()\n"
    "define void @main() {\n"
    "entry:\n"
    "  %pa = load i64, ptr addrspace(6) @wl.push, align 4\n"
    "  %p = inttoptr i64 %pa to ptr addrspace(1)\n"
    "  %qa = add i64 %pa, 4\n"
    "  %q = inttoptr i64 %qa to ptr addrspace(1)\n"
    "  %ra = add i64 %pa, 8\n"
    "  %r = inttoptr i64 %ra to ptr addrspace(1)\n"
    "  %sa = add i64 %pa, 12\n"
    "  %s = inttoptr i64 %sa to ptr addrspace(1)\n"
    "  %a = load i32, ptr addrspace(1) %p, align 4\n"
    "  %b = load i32, ptr addrspace(1) %q, align 4\n";

/* mul, xor, icmp ugt + select on %a, %b, their results to x (a name
 * prefix), stored at %r and %s */
static void pure_group(wlt_text *t, const char *x, const char *ptr)
{
    wlt_textf(t,
              "  %%%sm = mul i32 %%a, %%b\n  %%%sx = xor i32 %%a, %%b\n  %%%sc = icmp ugt i32 %%a, %%b\n"
              "  %%%ss = select i1 %%%sc, i32 %%%sm, i32 %%%sx\n  store i32 %%%ss, ptr addrspace(1) %%%s, align 4\n",
              x, x, x, x, x, x, x, x, ptr);
}

/* Counts of the four opcodes of pure_group. */
static void pure_counts(const uint32_t *w, size_t n, unsigned c[4])
{
    c[0] = spv_count(w, n, SpvOpIMul, 0);
    c[1] = spv_count(w, n, SpvOpBitwiseXor, 0);
    c[2] = spv_count(w, n, SpvOpUGreaterThan, 0);
    c[3] = spv_count(w, n, SpvOpSelect, 0);
}

static void expect4(const unsigned c[4], unsigned want, const char *what)
{
    printf("  %s: OpIMul %u, OpBitwiseXor %u, OpUGreaterThan %u, OpSelect %u (want %u each)\n", what, c[0], c[1], c[2],
           c[3], want);
    for (int i = 0; i < 4; i++)
        assert_int_equal(c[i], want);
}

static void blockcse_repeats(void **state)
{
    (void)state;
    unsigned c[4];
    size_t nw;
    uint32_t *w;
    /* once in the block: one of each */
    wlt_text t = {0};
    wlt_textf(&t, "%s", cse_head);
    pure_group(&t, "u", "r");
    wlt_textf(&t, "  ret void\n}\n");
    w = emit_text(t.s, &nw);
    pure_counts(w, nw, c);
    expect4(c, 1, "the group once");
    free(w), free(t.s);
    /* twice in one block: written once */
    t = (wlt_text){0};
    wlt_textf(&t, "%s", cse_head);
    pure_group(&t, "u", "r");
    pure_group(&t, "v", "s");
    wlt_textf(&t, "  ret void\n}\n");
    w = emit_text(t.s, &nw);
    pure_counts(w, nw, c);
    expect4(c, 1, "twice in one block");
    free(w), free(t.s);
    /* in a block and one it dominates (an OpLabel between): written once */
    t = (wlt_text){0};
    wlt_textf(&t, "%s", cse_head);
    pure_group(&t, "u", "r");
    wlt_textf(&t, "  br label %%next\nnext:\n");
    pure_group(&t, "v", "s");
    wlt_textf(&t, "  ret void\n}\n");
    w = emit_text(t.s, &nw);
    pure_counts(w, nw, c);
    expect4(c, 1, "in a block and one it dominates");
    free(w), free(t.s);
    /* in the two arms of a branch, neither dominating the other: written
     * in each (spirv-val, which emit_text runs, checks that every use is
     * dominated by its definition) */
    t = (wlt_text){0};
    wlt_textf(&t, "%s", cse_head);
    wlt_textf(&t, "  %%z = icmp eq i32 %%a, 0\n  br i1 %%z, label %%l, label %%rt\nl:\n");
    pure_group(&t, "u", "r");
    wlt_textf(&t, "  br label %%j\nrt:\n");
    pure_group(&t, "v", "s");
    wlt_textf(&t, "  br label %%j\nj:\n");
    pure_group(&t, "w", "s");
    wlt_textf(&t, "  ret void\n}\n");
    w = emit_text(t.s, &nw);
    pure_counts(w, nw, c);
    expect4(c, 3, "in both arms of a branch and after it");
    free(w), free(t.s);
}

/* Reads and writes are never merged: four loads of %p (%a of the head,
 * %v1, a store, %v2, %v3; all read, or backend/dce.c drops them), two
 * identical atomic adds. */
static void blockcse_memory(void **state)
{
    (void)state;
    wlt_text t = {0};
    wlt_textf(&t, "%s", cse_head);
    wlt_textf(&t, "  %%v1 = load i32, ptr addrspace(1) %%p, align 4\n"
                  "  store i32 %%b, ptr addrspace(1) %%p, align 4\n"
                  "  %%v2 = load i32, ptr addrspace(1) %%p, align 4\n"
                  "  %%v3 = load i32, ptr addrspace(1) %%p, align 4\n"
                  "  %%t1 = atomicrmw add ptr addrspace(1) %%q, i32 1 monotonic, align 4\n"
                  "  %%t2 = atomicrmw add ptr addrspace(1) %%q, i32 1 monotonic, align 4\n"
                  "  %%s0 = add i32 %%v1, %%a\n  %%s1 = add i32 %%s0, %%v2\n  %%s2 = add i32 %%s1, %%v3\n"
                  "  %%s3 = add i32 %%t1, %%t2\n"
                  "  store i32 %%s2, ptr addrspace(1) %%r, align 4\n"
                  "  store i32 %%s3, ptr addrspace(1) %%s, align 4\n  ret void\n}\n");
    size_t nw;
    uint32_t *w = emit_text(t.s, &nw);
    unsigned loads = spv_max_loads_one_ptr(w, nw), atom = spv_count(w, nw, SpvOpAtomicIAdd, 0);
    printf("  memory: %u OpLoads through %%p's pointer (want 4), %u OpAtomicIAdd (want 2)\n", loads, atom);
    assert_int_equal(loads, 4);
    assert_int_equal(atom, 2);
    free(w), free(t.s);
}

/* wl_bind's rename: %k1 is named first by the loop header's phi, so the
 * add that computes it, the last instruction written when it is bound,
 * takes the phi's id (no OpCopyObject). The repeats after it in the same
 * block merge: %m2 with %m1 (one OpIMul) and %k2 with %k1 (one u32
 * OpIAdd: the module has no other 32-bit add). The loop runs on lavapipe
 * against the C model below. */
static const char loop_ir[] =
    "@wl.push = external addrspace(6) global [4 x i32]\n"
    "declare i32 @spv.local_invocation_index()\n"
    "define void @main() {\n"
    "entry:\n"
    "  %pa = load i64, ptr addrspace(6) @wl.push, align 4\n"
    "  %l = call i32 @spv.local_invocation_index()\n"
    "  %l2 = shl i32 %l, 2\n"
    "  %lo = zext i32 %l2 to i64\n"
    "  %ia = add i64 %pa, %lo\n"
    "  %ip = inttoptr i64 %ia to ptr addrspace(1)\n"
    "  %x = load i32, ptr addrspace(1) %ip, align 4\n"
    "  br label %loop\n"
    "loop:\n"
    "  %k = phi i32 [ 0, %entry ], [ %k1, %loop ]\n"
    "  %s = phi i32 [ %x, %entry ], [ %s1, %loop ]\n"
    "  %m1 = mul i32 %s, %x\n"
    "  %k1 = add i32 %k, 1\n"
    "  %m2 = mul i32 %s, %x\n"
    "  %k2 = add i32 %k, 1\n"
    "  %t = xor i32 %m2, %k2\n"
    "  %s1 = sub i32 %m1, %t\n"
    "  %more = icmp ult i32 %k2, 5\n"
    "  br i1 %more, label %loop, label %done\n"
    "done:\n"
    "  %oa = add i64 %ia, 8192\n"
    "  %op = inttoptr i64 %oa to ptr addrspace(1)\n"
    "  store i32 %s1, ptr addrspace(1) %op, align 4\n"
    "  ret void\n"
    "}\n";

static uint32_t loop_model(uint32_t x)
{
    uint32_t s = x, k = 0;
    for (;;) {
        uint32_t m = s * x;
        k++;
        s = m - (m ^ k);
        if (!(k < 5))
            return s;
    }
}

static void blockcse_rename(void **state)
{
    (void)state;
    size_t nw;
    uint32_t *w = emit_text(loop_ir, &nw);
    unsigned mul = spv_count(w, nw, SpvOpIMul, 0), add = spv_count(w, nw, SpvOpIAdd, spv_uint(w, nw, 32)),
             copy = spv_count(w, nw, SpvOpCopyObject, 0);
    printf("  loop: OpCopyObject %u (want 0: the rename), OpIMul %u (want 1), u32 OpIAdd %u (want 1)\n", copy, mul, add);
    assert_int_equal(copy, 0);
    assert_int_equal(mul, 1);
    assert_int_equal(add, 1);
    if (have_lavapipe()) {
        uint32_t in[LANES], *mem = run_random(w, nw, 0x13198a2e03707344ull, in);
        for (unsigned l = 0; l < LANES; l++)
            if (mem[2048 + l] != loop_model(in[l]))
                fail_msg("lane %u: got %#x want %#x", l, mem[2048 + l], loop_model(in[l]));
        printf("  loop on lavapipe: %d lanes as the model\n", LANES);
        free(mem);
    }
    free(w);
}

/* A block of BIG_N pure instructions and then the same again: x_i = a ^ i,
 * t_i = t_(i-1) + x_i, then y_i = a ^ i, u_i = u_(i-1) + y_i with u_0 =
 * t_0 = a. Every y_i repeats x_i, so every u_i repeats t_i: BIG_N of each
 * opcode. 2 BIG_N entries in one block's table: more than it starts with
 * (WL_CSE_SLOTS), so it must grow to keep them. */
#define BIG_N 3000
static void blockcse_big_block(void **state)
{
    (void)state;
    wlt_text t = {0};
    wlt_textf(&t, "%s", cse_head);
    for (int half = 0; half < 2; half++)
        for (int i = 1; i <= BIG_N; i++) {
            char v = half ? 'y' : 'x', c = half ? 'u' : 't';
            wlt_textf(&t, "  %%%c%d = xor i32 %%a, %d\n", v, i, i);
            if (i == 1)
                wlt_textf(&t, "  %%%c1 = add i32 %%a, %%%c1\n", c, v);
            else
                wlt_textf(&t, "  %%%c%d = add i32 %%%c%d, %%%c%d\n", c, i, c, i - 1, v, i);
        }
    wlt_textf(&t, "  store i32 %%t%d, ptr addrspace(1) %%r, align 4\n  store i32 %%u%d, ptr addrspace(1) %%s, align 4\n"
                  "  ret void\n}\n",
              BIG_N, BIG_N);
    size_t nw;
    uint32_t *w = emit_text(t.s, &nw);
    uint32_t u32 = spv_uint(w, nw, 32);
    unsigned x = spv_count(w, nw, SpvOpBitwiseXor, 0), a = spv_count(w, nw, SpvOpIAdd, u32);
    printf("  %d pure instructions twice in one block: OpBitwiseXor %u, u32 OpIAdd %u (want %d each)\n", 2 * BIG_N, x,
           a, BIG_N);
    assert_int_equal(x, BIG_N);
    assert_int_equal(a, BIG_N);
    free(w), free(t.s);
}

/* ---- prune ---- */

#define W(n, op) (((uint32_t)(n) << 16) | (op))

/* Hand-built types and body: %3 unused, %8 a composite nobody names and
 * %7 named only by %8 go; %4, named only by the composite %6 the body
 * uses, stays. Literals are >= 1000 (above the id bound) or 0, 2 and 32,
 * so no literal names an id that should go. */
static void prune_words(void **state)
{
    (void)state;
    const uint32_t types0[] = {
        W(4, SpvOpTypeInt), 1, 32, 0,
        W(4, SpvOpConstant), 1, 2, 1000,
        W(4, SpvOpConstant), 1, 3, 1001,
        W(4, SpvOpConstant), 1, 4, 1002,
        W(4, SpvOpTypeVector), 5, 1, 2,
        W(5, SpvOpConstantComposite), 5, 6, 4, 4,
        W(4, SpvOpConstant), 1, 7, 1003,
        W(5, SpvOpConstantComposite), 5, 8, 7, 7,
    };
    const uint32_t want[] = {
        W(4, SpvOpTypeInt), 1, 32, 0,
        W(4, SpvOpConstant), 1, 2, 1000,
        W(4, SpvOpConstant), 1, 4, 1002,
        W(4, SpvOpTypeVector), 5, 1, 2,
        W(5, SpvOpConstantComposite), 5, 6, 4, 4,
    };
    uint32_t body0[] = {W(5, SpvOpIAdd), 5, 20, 6, 2};
    wl_em e;
    memset(&e, 0, sizeof e);
    e.next_id = 21;
    wl_wbuf types = {malloc(sizeof types0), sizeof types0 / 4, sizeof types0 / 4};
    wl_wbuf body = {body0, 5, 5};
    memcpy(types.w, types0, sizeof types0);
    const wl_wbuf *others[] = {&body};
    wl_prune_constants(&e, &types, others, 1);
    printf("  prune: %zu words -> %zu (want %zu)\n", sizeof types0 / 4, types.n, sizeof want / 4);
    assert_int_equal(types.n, sizeof want / 4);
    assert_memory_equal(types.w, want, sizeof want);
    /* a word count of 0: no crash, that instruction and what follows kept */
    const uint32_t bad[] = {W(4, SpvOpConstant), 1, 3, 1001, W(0, SpvOpConstant), 1, 9, 1004};
    memcpy(types.w, bad, sizeof bad);
    types.n = sizeof bad / 4;
    wl_prune_constants(&e, &types, others, 1);
    assert_true(types.n == 4 || types.n == 8);
    assert_memory_equal(types.w + types.n - 4, bad + 4, 16);
    free(types.w);
}

/* The names SPIRV-Tools' disassembly gives the constants; each must
 * appear again after its definition (a use). */
static unsigned unnamed_constants(const char *dis, unsigned *nconst)
{
    unsigned unused = 0;
    *nconst = 0;
    for (const char *line = dis; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        const char *pc = strchr(line, '%'), *eq = strstr(line, " = OpConstant");
        const char *nl = strchr(line, '\n');
        if (!pc || !eq || (nl && eq > nl) || eq < pc)
            continue;
        char name[128];
        size_t len = (size_t)(eq - pc);
        if (len >= sizeof name)
            continue;
        memcpy(name, pc, len);
        name[len] = 0;
        (*nconst)++;
        unsigned uses = 0;
        for (const char *u = strstr(dis, name); u; u = strstr(u + 1, name)) {
            char after = u[len];
            if (!(isalnum((unsigned char)after) || after == '_'))
                uses++;
        }
        if (uses < 2) {
            print_error("constant %s is defined and never used\n", name);
            unused++;
        }
    }
    return unused;
}

/* A vector constant whose members only it names, a private array read at
 * constant byte offsets, and a push constant read at byte 16: the emitter
 * looks that offset up as a constant (memory.c mobj_of) and then writes
 * the push struct's member index instead, so without prune %uint_16
 * stays, named by nothing (checked: the test fails with prune off). */
static const char prune_ir[] =
    "@wl.push = external addrspace(6) global [8 x i32]\n"
    "define void @main() {\n"
    "entry:\n"
    "  %priv = alloca [8 x i32], align 4\n"
    "  %pa = load i64, ptr addrspace(6) @wl.push, align 4\n"
    "  %p = inttoptr i64 %pa to ptr addrspace(1)\n"
    "  %v = load <2 x i32>, ptr addrspace(1) %p, align 8\n"
    "  %w = add <2 x i32> %v, <i32 1000001, i32 1000002>\n"
    "  %e0 = extractelement <2 x i32> %w, i32 0\n"
    "  %e1 = extractelement <2 x i32> %w, i32 1\n"
    "  %g3 = getelementptr i8, ptr %priv, i64 12\n"
    "  %g5 = getelementptr i8, ptr %priv, i64 20\n"
    "  store i32 %e0, ptr %g3, align 4\n"
    "  store i32 %e1, ptr %g5, align 4\n"
    "  %y0 = load i32, ptr %g3, align 4\n"
    "  %y1 = load i32, ptr %g5, align 4\n"
    "  %n = load i32, ptr addrspace(6) getelementptr (i8, ptr addrspace(6) @wl.push, i64 16), align 4\n"
    "  %y2 = xor i32 %y0, %y1\n"
    "  %y = xor i32 %y2, %n\n"
    "  %qa = add i64 %pa, 8\n"
    "  %q = inttoptr i64 %qa to ptr addrspace(1)\n"
    "  store i32 %y, ptr addrspace(1) %q, align 4\n"
    "  ret void\n"
    "}\n";

static void prune_module(void **state)
{
    (void)state;
    size_t nw;
    uint32_t *w = emit_text(prune_ir, &nw);
    char *dis = wl_disassemble_spirv(w, nw);
    assert_non_null(dis);
    unsigned nconst, unused = unnamed_constants(dis, &nconst);
    /* the vector constant and its two members */
    int c1 = strstr(dis, "OpConstant %uint 1000001") != NULL, c2 = strstr(dis, "OpConstant %uint 1000002") != NULL;
    unsigned comp = spv_count(w, nw, SpvOpConstantComposite, 0);
    printf("  module: %u constants, %u never used (want 0); members 1000001 %s, 1000002 %s; %u composite(s)\n", nconst,
           unused, c1 ? "kept" : "GONE", c2 ? "kept" : "GONE", comp);
    assert_true(nconst > 0);
    assert_int_equal(unused, 0);
    assert_true(c1 && c2);
    assert_true(comp >= 1);
    free(dis);
    free(w);
}

/* backend/dce.c: an instruction without side effects nobody reads goes,
 * and so does what only it read (a load, then a chain of arithmetic on
 * it); a volatile load and a store stay. Counted from the IR below: the
 * loads of the push word, %a (unread), %b, %d (unread, as are the mul and
 * xor on it), %l and a volatile one: 4 left (6 without the pass), no
 * OpIMul, no OpBitwiseXor. */
static void dce_unread(void **state)
{
    (void)state;
    wlt_text t = {0};
    wlt_textf(&t, "%s", cse_head);
    wlt_textf(&t, "  %%d = load i32, ptr addrspace(1) %%r, align 4\n"
                  "  %%d2 = mul i32 %%d, 77\n  %%d3 = xor i32 %%d2, %%b\n"
                  "  %%l = load i32, ptr addrspace(1) %%s, align 4\n"
                  "  %%vol = load volatile i32, ptr addrspace(1) %%s, align 4\n"
                  "  %%u = add i32 %%l, %%b\n"
                  "  store i32 %%u, ptr addrspace(1) %%r, align 4\n  ret void\n}\n");
    size_t nw;
    uint32_t *w = emit_text(t.s, &nw);
    unsigned loads = spv_count(w, nw, SpvOpLoad, 0), muls = spv_count(w, nw, SpvOpIMul, 0);
    unsigned xors = spv_count(w, nw, SpvOpBitwiseXor, 0);
    printf("  dce: %u OpLoads (want 4: the push word, %%b, %%l, the volatile one), %u OpIMul, %u OpBitwiseXor (want 0)\n",
           loads, muls, xors);
    assert_int_equal(loads, 4);
    assert_int_equal(muls, 0);
    assert_int_equal(xors, 0);
    free(w), free(t.s);
}

/* backend/memory.c unit_index: a word-memory offset `shl nuw i32 x, 2`
 * (4-byte units) indexes the array by x itself (backend/emit.c
 * note_scaled), where a plain shl is shifted back (x << 2 >> 2 would keep
 * only x's low 30 bits without nuw). A private array of 16 words (a
 * Private global: its constant offsets are constant indices): every word
 * set at a constant offset, then arr[i] (i = lane & 15, nuw) = 7x,
 * then arr[i ^ 5] (no nuw) and arr[i] read back. Counted: one u32
 * OpShiftRightLogical (the plain shl's), none for the nuw one; run on
 * lavapipe against the model: out = (x + (i ^ 5), 7x). */
static const char scaled_ir[] =
    "@wl.push = external addrspace(6) global [4 x i32]\n"
    "declare i32 @spv.local_invocation_index()\n"
    "@arr = internal global [16 x i32] zeroinitializer, align 4\n"
    "define void @main() {\n"
    "entry:\n"
    "  %pa = load i64, ptr addrspace(6) @wl.push, align 4\n"
    "  %l = call i32 @spv.local_invocation_index()\n"
    "  %l2 = shl i32 %l, 2\n  %lo = zext i32 %l2 to i64\n  %ia = add i64 %pa, %lo\n"
    "  %ip = inttoptr i64 %ia to ptr addrspace(1)\n"
    "  %x = load i32, ptr addrspace(1) %ip, align 4\n";

static void scaled_index(void **state)
{
    (void)state;
    wlt_text t = {0};
    wlt_textf(&t, "%s", scaled_ir);
    for (unsigned c = 0; c < 16; c++)
        wlt_textf(&t, "  %%v%u = add i32 %%x, %u\n  store i32 %%v%u, ptr getelementptr (i8, ptr @arr, i32 %u), align 4\n",
                  c, c, c, 4 * c);
    wlt_textf(&t, "  %%i = and i32 %%l, 15\n  %%off = shl nuw i32 %%i, 2\n"
                  "  %%pi = getelementptr i8, ptr @arr, i32 %%off\n  %%x7 = mul i32 %%x, 7\n"
                  "  store i32 %%x7, ptr %%pi, align 4\n"
                  "  %%j = xor i32 %%i, 5\n  %%off2 = shl i32 %%j, 2\n"
                  "  %%pj = getelementptr i8, ptr @arr, i32 %%off2\n  %%y = load i32, ptr %%pj, align 4\n"
                  "  %%z = load i32, ptr %%pi, align 4\n"
                  "  %%oa = add i64 %%ia, 8192\n  %%op = inttoptr i64 %%oa to ptr addrspace(1)\n"
                  "  store i32 %%y, ptr addrspace(1) %%op, align 4\n"
                  "  %%ob = add i64 %%ia, 12288\n  %%oq = inttoptr i64 %%ob to ptr addrspace(1)\n"
                  "  store i32 %%z, ptr addrspace(1) %%oq, align 4\n  ret void\n}\n");
    size_t nw;
    uint32_t *w = emit_text(t.s, &nw);
    unsigned shr = spv_count(w, nw, SpvOpShiftRightLogical, spv_uint(w, nw, 32));
    printf("  scaled index: %u u32 OpShiftRightLogical (want 1: the shl without nuw)\n", shr);
    assert_int_equal(shr, 1);
    if (have_lavapipe()) {
        uint32_t in[LANES], *mem = run_random(w, nw, 0xa4093822299f31d0ull, in);
        for (unsigned l = 0; l < LANES; l++) {
            uint32_t i = l & 15;
            if (mem[2048 + l] != in[l] + (i ^ 5) || mem[3072 + l] != in[l] * 7)
                fail_msg("lane %u: got %#x %#x want %#x %#x", l, mem[2048 + l], mem[3072 + l], in[l] + (i ^ 5),
                         in[l] * 7);
        }
        printf("  scaled index on lavapipe: %d lanes as the model\n", LANES);
        free(mem);
    }
    free(w), free(t.s);
}

int main(void)
{
    wlt_use_lavapipe(1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(merge_loads),      cmocka_unit_test(drop_sink_stores), cmocka_unit_test(blockcse_repeats), cmocka_unit_test(blockcse_memory), cmocka_unit_test(dce_unread), cmocka_unit_test(scaled_index),
        cmocka_unit_test(blockcse_rename),  cmocka_unit_test(blockcse_big_block), cmocka_unit_test(prune_words),      cmocka_unit_test(prune_module),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
