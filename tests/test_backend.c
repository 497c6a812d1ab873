/* The backend: every IR program in tests/backend/ (*.ll) is emitted and
 * validated by SPIRV-Tools (Vulkan 1.3 rules), as written and after LLVM's
 * default<O2>; random CFGs (reducible and irreducible) built with the C API
 * are structurized, emitted and validated; IR outside the host profile is
 * refused with a message naming the instruction and the function. A few
 * modules are also checked by the spirv-val program. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "support.h"
#include "wavelift/backend.h"
#include "backend/be.h" /* wl_prepare_module_counted */

static LLVMModuleRef parse_ir(LLVMContextRef ctx, const char *text, size_t len, const char *name)
{
    LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRangeCopy(text, len, name);
    LLVMModuleRef m = NULL;
    char *msg = NULL;
    if (LLVMParseIRInContext(ctx, mb, &m, &msg)) {
        print_error("%s: %s\n", name, msg ? msg : "parse error");
        LLVMDisposeMessage(msg);
        return NULL;
    }
    return m;
}

static int run_o2(LLVMModuleRef m)
{
    LLVMPassBuilderOptionsRef o = LLVMCreatePassBuilderOptions();
    LLVMErrorRef r = LLVMRunPasses(m, "default<O2>", NULL, o);
    LLVMDisposePassBuilderOptions(o);
    if (r) {
        char *msg = LLVMGetErrorMessage(r);
        print_error("O2: %s\n", msg);
        LLVMDisposeErrorMessage(msg);
        return 0;
    }
    return 1;
}

/* Emits and validates; returns the word count (0 on failure, printed). */
static size_t emit_valid(LLVMModuleRef m, const char *what, int names, const char *save)
{
    wl_emit_options opt = {0};
    opt.local_size[0] = 64;
    opt.debug_names = names;
    opt.validate = 1;
    uint32_t *w = NULL;
    size_t n = 0;
    char err[1024];
    wl_emit_info info;
    wl_status s = wl_emit_spirv(m, &opt, &w, &n, &info, err, sizeof err);
    if (s != WL_OK) {
        print_error("%s: %s\n", what, err);
        return 0;
    }
    if (save)
        wlt_write_file(save, w, n * 4);
    free(w);
    return n;
}

static void programs(void **state)
{
    (void)state;
    size_t n = 0, ok = 0, ok2 = 0;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/tests/backend", WL_SOURCE_DIR);
    char **names = wlt_dir_names(dir, ".ll", &n);
    assert_non_null(names);
    assert_true(n >= 8);
    char *tmp = wlt_tmpdir();
    for (size_t i = 0; i < n; i++) {
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        size_t len = 0;
        uint8_t *text = wlt_read_file(path, &len);
        assert_non_null(text);
        size_t w1 = 0, w2 = 0;
        for (int pass = 0; pass < 2; pass++) {
            LLVMContextRef ctx = LLVMContextCreate();
            LLVMModuleRef m = parse_ir(ctx, (const char *)text, len, names[i]);
            if (m && (pass == 0 || run_o2(m))) {
                char save[1400];
                snprintf(save, sizeof save, "%s/%s%s.spv", tmp, names[i], pass ? ".O2" : "");
                size_t w = emit_valid(m, names[i], pass == 0 && i == 0, save);
                if (pass == 0)
                    w1 = w;
                else
                    w2 = w;
                /* the second check: the spirv-val program on the file */
                if (w) {
                    char cmd[1600];
                    int st = -1;
                    snprintf(cmd, sizeof cmd, "spirv-val --target-env vulkan1.3 '%s' 2>&1", save);
                    char *out = wlt_run(cmd, &st);
                    if (st != 0) {
                        print_error("%s: spirv-val: %s\n", save, out ? out : "");
                        w = 0;
                        if (pass == 0)
                            w1 = 0;
                        else
                            w2 = 0;
                    }
                    free(out);
                }
            }
            if (m)
                LLVMDisposeModule(m);
            LLVMContextDispose(ctx);
        }
        print_message("  %-22s %5zu words valid%s; after O2 %5zu words valid%s\n", names[i], w1, w1 ? "" : " FAILED",
                      w2, w2 ? "" : " FAILED");
        ok += w1 != 0;
        ok2 += w2 != 0;
        free(text);
    }
    wlt_free_names(names, n);
    if (tmp) {
        char cmd[1100];
        int st = 0;
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
        free(wlt_run(cmd, &st));
    }
    free(tmp);
    print_message("programs: %zu, valid as written %zu, valid after O2 %zu\n", n, ok, ok2);
    assert_int_equal(ok, n);
    assert_int_equal(ok2, n);
}

/* ---- random CFGs ---- */

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A function of nb blocks: each loads a word, adds it to a private counter
 * and branches on it to one or two random blocks, or returns. */
static LLVMModuleRef random_cfg(LLVMContextRef ctx, uint64_t *seed, int nb)
{
    LLVMModuleRef m = LLVMModuleCreateWithNameInContext("cfg", ctx);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx), i64 = LLVMInt64TypeInContext(ctx);
    LLVMTypeRef gptr = LLVMPointerTypeInContext(ctx, 1), pptr = LLVMPointerTypeInContext(ctx, 0);
    LLVMValueRef push = LLVMAddGlobalInAddressSpace(m, LLVMArrayType2(i32, 4), "wl.push", 6);
    LLVMTypeRef ft = LLVMFunctionType(LLVMVoidTypeInContext(ctx), NULL, 0, 0);
    LLVMValueRef f = LLVMAddFunction(m, "main", ft);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(ctx, f, "entry");
    LLVMBasicBlockRef *bb = calloc((size_t)nb, sizeof *bb);
    for (int i = 0; i < nb; i++)
        bb[i] = LLVMAppendBasicBlockInContext(ctx, f, "b");
    LLVMPositionBuilderAtEnd(b, entry);
    LLVMValueRef ctr = LLVMBuildAlloca(b, i32, "ctr");
    LLVMBuildStore(b, LLVMConstInt(i32, 0, 0), ctr);
    LLVMValueRef base = LLVMBuildIntToPtr(b, LLVMBuildLoad2(b, i64, push, "pa"), gptr, "p");
    LLVMBuildBr(b, bb[0]);
    int has_ret = 0;
    for (int i = 0; i < nb; i++) {
        LLVMPositionBuilderAtEnd(b, bb[i]);
        LLVMValueRef idx = LLVMConstInt(i32, (unsigned)i, 0);
        LLVMValueRef a = LLVMBuildGEP2(b, i32, base, &idx, 1, "a");
        LLVMValueRef v = LLVMBuildLoad2(b, i32, a, "v");
        LLVMValueRef c = LLVMBuildLoad2(b, i32, ctr, "c");
        LLVMValueRef c1 = LLVMBuildAdd(b, c, v, "c1");
        LLVMBuildStore(b, c1, ctr);
        (void)pptr;
        int kind = (int)(rng_next(seed) % 10);
        if ((kind == 0 || i == nb - 1) && !(i == nb - 1 && has_ret && kind > 5)) {
            LLVMBuildStore(b, c1, base);
            LLVMBuildRetVoid(b);
            has_ret = 1;
        } else if (kind < 4) {
            LLVMBuildBr(b, bb[rng_next(seed) % (uint64_t)nb]);
        } else {
            LLVMValueRef cond = LLVMBuildICmp(b, LLVMIntULT, c1, LLVMConstInt(i32, rng_next(seed) % 1000, 0), "k");
            LLVMBuildCondBr(b, cond, bb[rng_next(seed) % (uint64_t)nb], bb[rng_next(seed) % (uint64_t)nb]);
        }
    }
    LLVMDisposeBuilder(b);
    free(bb);
    return m;
}

static void random_cfgs(void **state)
{
    (void)state;
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    int total = 0, valid = 0, irreducible_seen = 0;
    for (int it = 0; it < 1500; it++) {
        int nb = 2 + (int)(rng_next(&seed) % 30);
        LLVMContextRef ctx = LLVMContextCreate();
        LLVMModuleRef m = random_cfg(ctx, &seed, nb);
        char what[64];
        snprintf(what, sizeof what, "random CFG %d (%d blocks)", it, nb);
        int o2 = it % 4 == 3;
        if (o2)
            run_o2(m);
        char *before = LLVMPrintModuleToString(m);
        size_t w = emit_valid(m, what, 0, NULL);
        total++;
        valid += w != 0;
        const char *dump = getenv("WL_BACKEND_DUMP"); /* a directory for failing modules */
        if (!w && dump) {
            char path[1100];
            snprintf(path, sizeof path, "%s/cfg%d.ll", dump, it);
            wlt_write_file(path, before, strlen(before));
        }
        LLVMDisposeMessage(before);
        LLVMDisposeModule(m);
        LLVMContextDispose(ctx);
    }
    (void)irreducible_seen;
    print_message("random CFGs: %d, valid %d\n", total, valid);
    assert_int_equal(valid, total);
}

/* ---- random structured programs ---- */

/* A generator of programs that are structured as written (nested ifs, if-
 * elses and loops; conditional breaks at any depth of ifs in a loop,
 * continues straight from the loop's body: a continue from inside an if
 * takes structurizecfg, see docs/backend.md): wl_prepare_module must emit
 * them as they are, without LLVM's structurizecfg, and the module must
 * validate. After LLVM's -O2 (every other program) the CFG may have lost
 * that shape (a sunk store's split block joins two ifs): those must
 * validate whichever way they go. */
typedef struct sgen {
    LLVMContextRef ctx;
    LLVMValueRef fn, ctr, base;
    LLVMBuilderRef b;
    LLVMTypeRef i32;
    uint64_t *seed;
    int blocks, loops;
    int cont_break; /* blocks whose two edges are a continue and a break */
} sgen;

static LLVMValueRef sgen_cond(sgen *g)
{
    LLVMValueRef c = LLVMBuildLoad2(g->b, g->i32, g->ctr, "c");
    LLVMValueRef idx = LLVMConstInt(g->i32, rng_next(g->seed) % 64, 0);
    LLVMValueRef v = LLVMBuildLoad2(g->b, g->i32, LLVMBuildGEP2(g->b, g->i32, g->base, &idx, 1, "a"), "v");
    LLVMValueRef c1 = LLVMBuildAdd(g->b, c, v, "c1");
    LLVMBuildStore(g->b, c1, g->ctr);
    return LLVMBuildICmp(g->b, LLVMIntULT, c1, LLVMConstInt(g->i32, rng_next(g->seed) % 1000, 0), "k");
}

static LLVMBasicBlockRef sgen_block(sgen *g)
{
    g->blocks++;
    return LLVMAppendBasicBlockInContext(g->ctx, g->fn, "s");
}

/* Statements at the builder's block; brk/cont: the innermost loop's exit and
 * latch (NULL outside loops). The builder ends in an open block. */
static void sgen_stmts(sgen *g, int depth, LLVMBasicBlockRef brk, LLVMBasicBlockRef cont)
{
    int n = 1 + (int)(rng_next(g->seed) % 3);
    for (int i = 0; i < n && g->blocks < 60; i++) {
        int kind = depth >= 4 ? 0 : (int)(rng_next(g->seed) % 7);
        LLVMValueRef c = sgen_cond(g);
        if (kind == 0) {
            continue; /* straight-line code */
        } else if (kind == 1 || kind == 2) { /* if, if-else */
            LLVMBasicBlockRef t = sgen_block(g), f = kind == 2 ? sgen_block(g) : NULL, m = sgen_block(g);
            LLVMBuildCondBr(g->b, c, t, f ? f : m);
            LLVMPositionBuilderAtEnd(g->b, t);
            sgen_stmts(g, depth + 1, brk, NULL);
            LLVMBuildBr(g->b, m);
            if (f) {
                LLVMPositionBuilderAtEnd(g->b, f);
                sgen_stmts(g, depth + 1, brk, NULL);
                LLVMBuildBr(g->b, m);
            }
            LLVMPositionBuilderAtEnd(g->b, m);
        } else if (kind == 3) { /* while (c) { ... } */
            LLVMBasicBlockRef h = sgen_block(g), body = sgen_block(g), latch = sgen_block(g), exit = sgen_block(g);
            g->loops++;
            LLVMBuildBr(g->b, h);
            LLVMPositionBuilderAtEnd(g->b, h);
            LLVMBuildCondBr(g->b, sgen_cond(g), body, exit);
            LLVMPositionBuilderAtEnd(g->b, body);
            sgen_stmts(g, depth + 1, exit, latch);
            LLVMBuildBr(g->b, latch);
            LLVMPositionBuilderAtEnd(g->b, latch);
            LLVMBuildCondBr(g->b, sgen_cond(g), h, exit);
            LLVMPositionBuilderAtEnd(g->b, exit);
        } else if (kind == 6 && brk && cont) { /* if (c) { if (c2) continue; break; } */
            LLVMBasicBlockRef t = sgen_block(g), m = sgen_block(g);
            LLVMBuildCondBr(g->b, c, t, m);
            LLVMPositionBuilderAtEnd(g->b, t);
            LLVMBuildCondBr(g->b, sgen_cond(g), cont, brk);
            g->cont_break++;
            LLVMPositionBuilderAtEnd(g->b, m);
        } else if (brk) { /* if (c) break; or if (c) continue; */
            LLVMBasicBlockRef next = sgen_block(g);
            LLVMBuildCondBr(g->b, c, kind == 4 || !cont ? brk : cont, next);
            LLVMPositionBuilderAtEnd(g->b, next);
        }
    }
}

static void random_structured(void **state)
{
    (void)state;
    uint64_t seed = 0x243f6a8885a308d3ull;
    int total = 0, valid = 0, direct = 0, direct_o2 = 0, loops = 0, with_cb = 0, direct_cb = 0;
    for (int it = 0; it < 400; it++) {
        LLVMContextRef ctx = LLVMContextCreate();
        LLVMModuleRef m = LLVMModuleCreateWithNameInContext("sp", ctx);
        sgen g = {.ctx = ctx, .seed = &seed, .i32 = LLVMInt32TypeInContext(ctx)};
        LLVMValueRef push = LLVMAddGlobalInAddressSpace(m, LLVMArrayType2(g.i32, 4), "wl.push", 6);
        g.fn = LLVMAddFunction(m, "main", LLVMFunctionType(LLVMVoidTypeInContext(ctx), NULL, 0, 0));
        g.b = LLVMCreateBuilderInContext(ctx);
        LLVMPositionBuilderAtEnd(g.b, LLVMAppendBasicBlockInContext(ctx, g.fn, "entry"));
        g.ctr = LLVMBuildAlloca(g.b, g.i32, "ctr");
        LLVMBuildStore(g.b, LLVMConstInt(g.i32, 0, 0), g.ctr);
        g.base = LLVMBuildIntToPtr(g.b, LLVMBuildLoad2(g.b, LLVMInt64TypeInContext(ctx), push, "pa"),
                                   LLVMPointerTypeInContext(ctx, 1), "p");
        sgen_stmts(&g, 0, NULL, NULL);
        LLVMBuildStore(g.b, LLVMBuildLoad2(g.b, g.i32, g.ctr, "c"), g.base);
        LLVMBuildRetVoid(g.b);
        LLVMDisposeBuilder(g.b);
        loops += g.loops;
        if (it % 2)
            run_o2(m); /* what LLVM makes of it: still structured */
        char err[512];
        unsigned structurized = 99;
        wl_status st = wl_prepare_module_counted(m, &structurized, err, sizeof err);
        char what[64];
        snprintf(what, sizeof what, "structured program %d (%d blocks)", it, g.blocks);
        if (st != WL_OK)
            print_error("%s: %s\n", what, err);
        /* as written, every program is emitted directly but one with a
         * block whose edges are a continue and a break inside an if (a
         * continue from inside an if: the latch post-dominates the if,
         * structurizecfg) */
        if (structurized != 0 && it % 2 == 0 && !g.cont_break)
            print_error("%s: needed structurizecfg\n", what);
        direct += st == WL_OK && structurized == 0 && it % 2 == 0;
        direct_cb += st == WL_OK && structurized == 0 && it % 2 == 0 && g.cont_break;
        with_cb += it % 2 == 0 && g.cont_break;
        direct_o2 += st == WL_OK && structurized == 0 && it % 2;
        wl_emit_options opt = {.local_size = {64, 1, 1}, .validate = 1, .skip_prepare = 1};
        uint32_t *w = NULL;
        size_t nw = 0;
        if (st == WL_OK && wl_emit_spirv(m, &opt, &w, &nw, NULL, err, sizeof err) == WL_OK) {
            valid++;
            /* WLT_SPV_DIR: each module and a list for bench/wl_pipebuild
             * (ctest random_pipelines: a Vulkan driver builds them all) */
            const char *dir = getenv("WLT_SPV_DIR");
            if (dir) {
                char path[1024];
                snprintf(path, sizeof path, "%s/sp%d.spv", dir, it);
                FILE *f = fopen(path, "wb");
                assert_non_null(f);
                assert_int_equal(fwrite(w, 4, nw, f), nw);
                fclose(f);
                snprintf(path, sizeof path, "%s/list.txt", dir);
                f = fopen(path, it ? "a" : "w");
                assert_non_null(f);
                fprintf(f, "sp%d sp%d.spv 0\n", it, it);
                fclose(f);
            }
        }
        else if (st == WL_OK)
            print_error("%s: %s\n", what, err);
        free(w);
        total++;
        LLVMDisposeModule(m);
        LLVMContextDispose(ctx);
    }
    print_message("random structured programs: %d (%d loops), valid %d; emitted without structurizecfg: %d of %d as "
                  "written (%d of the %d with a continue-or-break block), %d of %d after -O2\n",
                  total, loops, valid, direct, (total + 1) / 2, direct_cb, with_cb, direct_o2, total / 2);
    assert_int_equal(valid, total);
    assert_int_equal(direct - direct_cb, (total + 1) / 2 - with_cb);
    assert_true(with_cb > 10);
    assert_true(loops > 100);
}

/* ---- refusals ---- */

static const struct {
    const char *ir, *needle;
} refusals[] = {
    {"define void @helper() {\n call void @helper()\n ret void\n}\ndefine void @main() {\n call void @helper()\n ret void\n}\n",
     "call void @helper()"},
    {"define void @main() {\n %a = alloca i32, i32 ptrtoint (ptr @main to i32)\n store i32 1, ptr %a\n ret void\n}\n",
     "alloca"},
    {"@g = addrspace(3) global [4 x i32] poison\n"
     "define void @main() {\n %p = addrspacecast ptr addrspace(3) @g to ptr\n store i32 1, ptr %p\n ret void\n}\n",
     "addrspacecast"},
    {"@wl.push = external addrspace(6) global [4 x i32]\n"
     "define void @main() {\n %a = load i64, ptr addrspace(6) @wl.push\n %b = zext i64 %a to i128\n"
     " %c = mul i128 %b, %b\n %d = trunc i128 %c to i32\n store i32 %d, ptr addrspace(6) @wl.push\n ret void\n}\n",
     "i128"},
    {"define void @main(i32 %x) {\n ret void\n}\n", "parameters"},
    {"@wl.push = external addrspace(6) global [4 x i32]\n"
     "define void @main() {\n %a = load float, ptr addrspace(6) @wl.push\n"
     " %b = call float @llvm.minimum.f32(float %a, float 1.0)\n ret void\n}\n"
     "declare float @llvm.minimum.f32(float, float)\n",
     "llvm.minimum"},
    {"@wl.push = external addrspace(6) global [4 x i32]\n"
     "define void @main() {\n store i32 1, ptr addrspace(6) @wl.push\n ret void\n}\n",
     "read-only"},
    {"@x = addrspace(9) global i32 0\n"
     "define void @main() {\n store i32 1, ptr addrspace(9) @x\n ret void\n}\n",
     "address space"},
    {"@wl.push = external addrspace(6) global [4 x i32]\n"
     "define void @main() {\n %a = load double, ptr addrspace(6) @wl.push\n"
     " %b = call double @llvm.sin.f64(double %a)\n ret void\n}\n"
     "declare double @llvm.sin.f64(double)\n",
     "llvm.sin.f64"},
    {"@wl.push = external addrspace(6) global [4 x i32]\n"
     "define void @main() {\n %a = load i32, ptr addrspace(6) @wl.push\n"
     " %b = call i32 @spv.frobnicate(i32 %a)\n ret void\n}\ndeclare i32 @spv.frobnicate(i32)\n",
     "spv.frobnicate"},
};

static void refused(void **state)
{
    (void)state;
    size_t good = 0, n = sizeof refusals / sizeof refusals[0];
    for (size_t i = 0; i < n; i++) {
        LLVMContextRef ctx = LLVMContextCreate();
        LLVMModuleRef m = parse_ir(ctx, refusals[i].ir, strlen(refusals[i].ir), "refusal");
        assert_non_null(m);
        wl_emit_options opt = {0};
        opt.entry = "main";
        uint32_t *w = NULL;
        size_t nw = 0;
        char err[1024];
        wl_status s = wl_emit_spirv(m, &opt, &w, &nw, NULL, err, sizeof err);
        int ok = s == WL_ERR_INVALID && w == NULL && strstr(err, refusals[i].needle) && strstr(err, "@main");
        if (!ok)
            print_error("refusal %zu: status %d, message: %s\n", i, s, err);
        else
            print_message("  refused: %s\n", err);
        good += ok;
        free(w);
        LLVMDisposeModule(m);
        LLVMContextDispose(ctx);
    }
    print_message("refusals: %zu, named correctly %zu\n", n, good);
    assert_int_equal(good, n);
}

/* GPU float semantics keep signed zeros, infinities and NaNs: every module
 * declares SignedZeroInfNanPreserve for 32-bit floats, and for 64-bit (16-bit)
 * floats when it uses them. Without it Mesa folds (float)(int)x to trunc(x),
 * giving -0.0 for x in (-1, 0) (the suite's `conversions` kernel). */
static void float_controls(void **state)
{
    (void)state;
    static const struct {
        const char *ir;
        unsigned widths; /* bit 0: 32, bit 1: 64; 0: no float type, no float modes nor capabilities */
    } cases[] = {
        {"@wl.push = external addrspace(6) global [4 x i32]\n"
         "define void @main() {\n ret void\n}\n", 0},
        {"@wl.push = external addrspace(6) global [4 x i32]\n"
         "@wl.status = addrspace(4) global [4 x i32] zeroinitializer\n"
         "define void @main() {\n %a = load float, ptr addrspace(6) @wl.push\n"
         " %i = fptosi float %a to i32\n %f = sitofp i32 %i to float\n"
         " %b = bitcast float %f to i32\n store i32 %b, ptr addrspace(4) @wl.status\n ret void\n}\n", 1},
        {"@wl.push = external addrspace(6) global [4 x i32]\n"
         "@wl.status = addrspace(4) global [4 x i32] zeroinitializer\n"
         "define void @main() {\n %a = load double, ptr addrspace(6) @wl.push\n"
         " %i = fptosi double %a to i32\n %f = sitofp i32 %i to double\n"
         " %b = bitcast double %f to i64\n store i64 %b, ptr addrspace(4) @wl.status\n ret void\n}\n", 2},
        {"@wl.push = external addrspace(6) global [4 x i32]\n"
         "@wl.status = addrspace(4) global [4 x i32] zeroinitializer\n"
         "define void @main() {\n %a = load double, ptr addrspace(6) @wl.push\n"
         " %f = fptrunc double %a to float\n %g = fpext float %f to double\n"
         " %b = bitcast double %g to i64\n store i64 %b, ptr addrspace(4) @wl.status\n ret void\n}\n", 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        LLVMContextRef ctx = LLVMContextCreate();
        LLVMModuleRef m = parse_ir(ctx, cases[i].ir, strlen(cases[i].ir), "float_controls");
        assert_non_null(m);
        wl_emit_options opt = {0};
        opt.entry = "main";
        opt.validate = 1;
        uint32_t *w = NULL;
        size_t n = 0;
        char err[1024];
        wl_status s = wl_emit_spirv(m, &opt, &w, &n, NULL, err, sizeof err);
        if (s != WL_OK)
            fail_msg("case %zu: %s", i, err);
        unsigned cap = 0, modes = 0;
        for (size_t at = 5; at < n;) {
            uint32_t len = w[at] >> 16, op = w[at] & 0xffffu;
            assert_true(len >= 1 && at + len <= n);
            if (op == 17 && len == 2 && w[at + 1] == 4466) /* OpCapability SignedZeroInfNanPreserve */
                cap = 1;
            if (op == 16 && len == 4 && w[at + 2] == 4461) /* OpExecutionMode .. SignedZeroInfNanPreserve W */
                modes |= w[at + 3] == 32 ? 1u : w[at + 3] == 64 ? 2u : 4u;
            at += len;
        }
        print_message("  case %zu: capability %u, SignedZeroInfNanPreserve widths 0x%x (want 0x%x)\n", i,
                      cap, modes, cases[i].widths);
        assert_int_equal(cap, cases[i].widths != 0);
        assert_int_equal(modes, cases[i].widths);
        free(w);
        LLVMDisposeModule(m);
        LLVMContextDispose(ctx);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(programs),
        cmocka_unit_test(random_cfgs),
        cmocka_unit_test(random_structured),
        cmocka_unit_test(refused),
        cmocka_unit_test(float_controls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
