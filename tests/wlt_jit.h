/* MCJIT for the lifter's tests: a lifted module, optionally through LLVM's
 * default<O2>, compiled with every declared function (not an llvm.*
 * intrinsic) bound to the test's own C callback of that name; a
 * declaration without a callback fails the test. */
#ifndef WLT_JIT_H
#define WLT_JIT_H

#include <stdio.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/ExecutionEngine.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>

/* IR text parsed into a module of ctx (the test fails on an error) */
static inline LLVMModuleRef wlt_parse_ir(LLVMContextRef ctx, const char *ir, size_t len, const char *name)
{
    LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, len, name);
    LLVMModuleRef m = NULL;
    char *msg = NULL;
    if (LLVMParseIRInContext(ctx, mb, &m, &msg))
        fail_msg("IR: %s", msg ? msg : "?");
    return m;
}

/* MCJIT and the host target, before the first engine */
static inline void wlt_jit_init(void)
{
    LLVMLinkInMCJIT();
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
}

/* xorshift64: the tests' random inputs, reproducible */
static inline uint32_t wlt_xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (uint32_t)*s;
}

typedef struct wlt_jit_cb {
    const char *name;
    void *fn;
} wlt_jit_cb;

/* Compiles m (the engine owns it from here) into *ee; returns the address
 * of function `entry`. */
static inline void (*wlt_jit_compile(LLVMModuleRef m, int o2, const wlt_jit_cb *cbs, size_t ncbs,
                                     const char *entry, LLVMExecutionEngineRef *ee))(void)
{
    if (o2) {
        LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
        assert_null(LLVMRunPasses(m, "default<O2>", NULL, po));
        LLVMDisposePassBuilderOptions(po);
    }
    struct LLVMMCJITCompilerOptions opt;
    LLVMInitializeMCJITCompilerOptions(&opt, sizeof opt);
    char *msg = NULL;
    assert_int_equal(LLVMCreateMCJITCompilerForModule(ee, m, &opt, sizeof opt, &msg), 0);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (!LLVMIsDeclaration(f))
            continue;
        size_t len;
        const char *n = LLVMGetValueName2(f, &len);
        if (strncmp(n, "llvm.", 5) == 0)
            continue;
        void *cb = NULL;
        for (size_t i = 0; i < ncbs; i++)
            if (strcmp(cbs[i].name, n) == 0)
                cb = cbs[i].fn;
        if (!cb)
            fprintf(stderr, "no callback for %s\n", n);
        assert_non_null(cb);
        LLVMAddGlobalMapping(*ee, f, cb);
    }
    uint64_t addr = LLVMGetFunctionAddress(*ee, entry);
    assert_true(addr != 0);
    return (void (*)(void))(uintptr_t)addr;
}

/* Compiles m (no calls out) into *ee; *in and *out the addresses of its
 * globals @in and @out; returns the address of function `entry`. */
static inline void (*wlt_jit_start(LLVMModuleRef m, const char *entry, LLVMExecutionEngineRef *ee, void **in,
                                   void **out))(void)
{
    struct LLVMMCJITCompilerOptions opt;
    LLVMInitializeMCJITCompilerOptions(&opt, sizeof opt);
    char *msg = NULL;
    if (LLVMCreateMCJITCompilerForModule(ee, m, &opt, sizeof opt, &msg))
        fail_msg("MCJIT: %s", msg ? msg : "?");
    *in = (void *)(uintptr_t)LLVMGetGlobalValueAddress(*ee, "in");
    *out = (void *)(uintptr_t)LLVMGetGlobalValueAddress(*ee, "out");
    void (*fn)(void) = (void (*)(void))(uintptr_t)LLVMGetFunctionAddress(*ee, entry);
    assert_non_null(*in);
    assert_non_null(*out);
    assert_non_null(fn);
    return fn;
}

/* Two compiled forms of one program (wlt_jit_start) on the same input:
 * in_bytes of v into each @in, out_bytes of each @out cleared, both run.
 * 1 where their @out bytes are equal. */
typedef struct wlt_jit_pair {
    void (*f[2])(void);
    void *in[2], *out[2];
} wlt_jit_pair;

static inline int wlt_jit_same(const wlt_jit_pair *p, const void *v, size_t in_bytes, size_t out_bytes)
{
    for (int i = 0; i < 2; i++) {
        memcpy(p->in[i], v, in_bytes);
        memset(p->out[i], 0, out_bytes);
        p->f[i]();
    }
    return memcmp(p->out[0], p->out[1], out_bytes) == 0;
}

#endif
