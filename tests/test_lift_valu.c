/* VALU lifting (frontend/lift_valu*.c), executed.
 *
 * Each case is a small program assembled by llvm-mc-19 at test time
 * (gfx1030, wave64 and wave32), lifted by wl_lift, checked by
 * wl_wir_verify, then executed by LLVM's MCJIT one thread per lane in
 * lockstep (wl.ballot / wl.shuffle / wl.readfirstlane are wave-wide steps
 * between barriers). The test adds two hooks to the lifted module after
 * verification: at the end of the entry block it stores per-lane inputs
 * into v0..v9 and uniform inputs into s0..s31 (@t.vin / @t.sin), and before
 * each `ret` it reports every VGPR and scalar register (@t.vout / @t.sout;
 * a scalar register must be equal in all lanes). Expected values are
 * computed here in C from the ISA's definitions, independently of the
 * lifter; inputs are edge values (zeros, signs, NaN, inf, denormals,
 * extremes) and random ones, with full and partial EXEC (inactive lanes
 * must keep their old values). Floats compare bit for bit, NaN as NaN. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/ExecutionEngine.h>
#include <llvm-c/Target.h>

#include "support.h"
#include "wavelift/lift.h"
#include "wlt_wir_exec.h"

#define NV 10   /* v0..v9 inputs */
#define NS 32   /* s0..s31 inputs */
#define RUNS 4

/* ---- inputs and outputs of one run ---- */
typedef struct wave {
    unsigned W;
    uint64_t exec;
    uint32_t v[NV][64];
    uint32_t s[NS];
} wave;

typedef struct result {
    uint32_t v[16][64];
    uint32_t s[128];
    uint8_t sbad[128];
} result;

/* ---- the executor (test only: one run at a time): the lane operations
 * of wlt_wir_exec.h (wlx_lane, wlx_sync, wlx_shuffle, ...) over X_st, plus
 * the register hooks below ---- */
static wave *X_in;
static result *X_out;
static wlx_state X_st; /* W and EXEC of the run */

static uint32_t x_vin(uint32_t n) { return n < NV ? X_in->v[n][wlx_lane] : 0; }
static uint32_t x_sin(uint32_t n) { return n < NS ? X_in->s[n] : 0; }
static void x_vout(uint32_t n, uint32_t v)
{
    if (n < 16)
        X_out->v[n][wlx_lane] = v;
}
static void x_sout(uint32_t n, uint32_t v)
{
    wlx_sync();
    wlx_slot[wlx_lane] = v;
    wlx_sync();
    if (wlx_lane == 0 && n < 128) {
        X_out->s[n] = v;
        for (unsigned i = 0; i < X_in->W; i++)
            if (wlx_slot[i] != v)
                X_out->sbad[n] = 1;
    }
    wlx_sync();
}

static void *x_lookup(const char *n)
{
    static const struct { const char *name; void *fn; } t[] = {
        {"t.vin", (void *)x_vin}, {"t.sin", (void *)x_sin}, {"t.vout", (void *)x_vout},
        {"t.sout", (void *)x_sout},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (!strcmp(t[i].name, n))
            return t[i].fn;
    return wlx_lookup(n); /* wl.*: the reference executor's (user SGPRs 0) */
}

static void *x_thread(void *arg)
{
    wlx_lane = (unsigned)(uintptr_t)arg >> 0 & 63;
    extern uint64_t x_fn_addr;
    ((void (*)(void))(uintptr_t)x_fn_addr)();
    return NULL;
}
uint64_t x_fn_addr;

/* ---- hooks ---- */
static int reg_of(const char *n, int *is_v)
{
    unsigned k;
    int w = 0;
    *is_v = 0;
    if (sscanf(n, "v%u%n", &k, &w) == 1 && !n[w]) {
        *is_v = 1;
        return (int)k;
    }
    if (sscanf(n, "s%u%n", &k, &w) == 1 && !n[w])
        return (int)k;
    if (!strcmp(n, "vcc_lo")) return 106;
    if (!strcmp(n, "vcc_hi")) return 107;
    if (!strcmp(n, "exec_lo")) return 126;
    if (!strcmp(n, "exec_hi")) return 127;
    if (!strcmp(n, "m0")) return 124;
    return -1;
}

static LLVMValueRef decl(LLVMModuleRef m, const char *name, LLVMTypeRef ret, LLVMTypeRef *a, unsigned n)
{
    LLVMValueRef f = LLVMGetNamedFunction(m, name);
    if (!f)
        f = LLVMAddFunction(m, name, LLVMFunctionType(ret, a, n, 0));
    return f;
}

static void add_hooks(LLVMModuleRef m)
{
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx), vd = LLVMVoidTypeInContext(ctx);
    LLVMTypeRef a2[2] = {i32, i32};
    LLVMTypeRef tin = LLVMFunctionType(i32, &i32, 1, 0), tout = LLVMFunctionType(vd, a2, 2, 0);
    LLVMValueRef vin = decl(m, "t.vin", i32, &i32, 1), sin_ = decl(m, "t.sin", i32, &i32, 1);
    LLVMValueRef vout = decl(m, "t.vout", vd, a2, 2), sout = decl(m, "t.sout", vd, a2, 2);
    LLVMValueRef fn = LLVMGetNamedFunction(m, "wl.wave");
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMValueRef allocas[512];
    unsigned na = 0;
    for (LLVMValueRef i = LLVMGetFirstInstruction(entry); i; i = LLVMGetNextInstruction(i))
        if (LLVMIsAAllocaInst(i) && LLVMGetAllocatedType(i) == i32 && na < 512)
            allocas[na++] = i;
    LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(entry));
    for (unsigned k = 0; k < na; k++) {
        size_t len;
        int is_v, r = reg_of(LLVMGetValueName2(allocas[k], &len), &is_v);
        if (r < 0 || (is_v && r >= NV) || (!is_v && r >= NS))
            continue;
        LLVMValueRef arg = LLVMConstInt(i32, (unsigned)r, 0);
        LLVMBuildStore(b, LLVMBuildCall2(b, tin, is_v ? vin : sin_, &arg, 1, ""), allocas[k]);
    }
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        if (!t || LLVMGetInstructionOpcode(t) != LLVMRet)
            continue;
        LLVMPositionBuilderBefore(b, t);
        for (unsigned k = 0; k < na; k++) {
            size_t len;
            int is_v, r = reg_of(LLVMGetValueName2(allocas[k], &len), &is_v);
            if (r < 0 || (is_v && r >= 16))
                continue;
            LLVMValueRef args[2] = {LLVMConstInt(i32, (unsigned)r, 0),
                                    LLVMBuildLoad2(b, i32, allocas[k], "")};
            LLVMBuildCall2(b, tout, is_v ? vout : sout, args, 2, "");
        }
    }
    LLVMDisposeBuilder(b);
}

/* Lifts `code`, runs it on every input set; 0 or -1 with a message. A
 * refusal gives 1 and the message. */
static int lift_and_run(const uint8_t *code, size_t size, unsigned W, wave *in, result *out,
                        unsigned nruns, unsigned mode, bool gfx1010, char *err, size_t errcap)
{
    static int inited;
    if (!inited) {
        LLVMLinkInMCJIT();
        LLVMInitializeNativeTarget();
        LLVMInitializeNativeAsmPrinter();
        inited = 1;
    }
    wl_lift_program p;
    memset(&p, 0, sizeof p);
    p.code = code;
    p.size = size;
    p.target = gfx1010 ? WL_GFX1010 : WL_GFX1030;
    p.wave_size = W;
    p.vgpr_workitem_ids = 1;
    if (mode) { /* FM(bits): the kernel descriptor's float mode fields */
        p.float_mode_known = 1;
        p.float_round_mode_32 = mode & 3;
        p.float_round_mode_16_64 = (mode >> 2) & 3;
        p.float_denorm_mode_32 = (mode >> 4) & 3;
        p.float_denorm_mode_16_64 = (mode >> 6) & 3;
        p.dx10_clamp = (mode >> 8) & 1;
        p.ieee_mode = (mode >> 9) & 1;
    }
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = NULL;
    wl_status st = wl_lift(ctx, &p, &m, err, errcap);
    if (st != WL_OK) {
        LLVMContextDispose(ctx);
        return st == WL_ERR_UNSUPPORTED ? 1 : -1;
    }
    if (wl_wir_verify(m, err, errcap) != WL_OK) {
        LLVMDisposeModule(m);
        LLVMContextDispose(ctx);
        return -1;
    }
    add_hooks(m);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        size_t len;
        const char *n = LLVMGetValueName2(f, &len);
        if (LLVMIsDeclaration(f) && strncmp(n, "llvm.", 5) && !x_lookup(n)) {
            snprintf(err, errcap, "no reference implementation of %s", n);
            LLVMDisposeModule(m);
            LLVMContextDispose(ctx);
            return -1;
        }
    }
    struct LLVMMCJITCompilerOptions opt;
    LLVMInitializeMCJITCompilerOptions(&opt, sizeof opt);
    opt.OptLevel = 0;
    LLVMExecutionEngineRef ee;
    char *msg = NULL;
    if (LLVMCreateMCJITCompilerForModule(&ee, m, &opt, sizeof opt, &msg)) {
        snprintf(err, errcap, "MCJIT: %s", msg ? msg : "?");
        LLVMDisposeMessage(msg);
        LLVMContextDispose(ctx);
        return -1;
    }
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        size_t len;
        const char *n = LLVMGetValueName2(f, &len);
        if (LLVMIsDeclaration(f) && strncmp(n, "llvm.", 5))
            LLVMAddGlobalMapping(ee, f, x_lookup(n));
    }
    x_fn_addr = LLVMGetFunctionAddress(ee, "wl.wave");
    for (unsigned r = 0; r < nruns; r++) {
        X_in = &in[r];
        X_out = &out[r];
        memset(X_out, 0, sizeof *X_out);
        X_st.W = W;
        X_st.exec = in[r].exec;
        wlx_s = &X_st;
        pthread_barrier_init(&wlx_bar, NULL, W);
        pthread_t th[64];
        for (unsigned i = 0; i < W; i++)
            pthread_create(&th[i], NULL, x_thread, (void *)(uintptr_t)i);
        for (unsigned i = 0; i < W; i++)
            pthread_join(th[i], NULL);
        pthread_barrier_destroy(&wlx_bar);
    }
    LLVMDisposeExecutionEngine(ee);
    LLVMContextDispose(ctx);
    return 0;
}

/* ---- value helpers for the references ---- */
static float F(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t U(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static double D(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }
static uint64_t UD(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }
static _Float16 H(uint32_t u) { uint16_t x = (uint16_t)u; _Float16 f; memcpy(&f, &x, 2); return f; }
static uint32_t UH(_Float16 f) { uint16_t u; memcpy(&u, &f, 2); return u; }
static uint32_t lo16(uint32_t old, uint32_t v) { return (old & 0xffff0000u) | (v & 0xffff); }
static uint32_t hi16(uint32_t old, uint32_t v) { return (old & 0xffffu) | (v << 16); }

#include "test_lift_valu_cases.h"
#include "test_lift_valu_cases2.h"

/* Case i of cases[], mode_cases[], cases2[], mode_cases2[] (gfx1030) then
 * g10_cases[] (gfx1010); its float mode (0: unknown) and target. */
static const struct case_list {
    const tcase *plain;
    const mcase *moded;
    size_t n;
    bool gfx1010;
} case_lists[] = {
    {cases, NULL, sizeof cases / sizeof cases[0], false},
    {NULL, mode_cases, sizeof mode_cases / sizeof mode_cases[0], false},
    {cases2, NULL, sizeof cases2 / sizeof cases2[0], false},
    {NULL, mode_cases2, sizeof mode_cases2 / sizeof mode_cases2[0], false},
    {g10_cases, NULL, sizeof g10_cases / sizeof g10_cases[0], true},
};
#define NLISTS (sizeof case_lists / sizeof case_lists[0])
static size_t ncases(void)
{
    size_t n = 0;
    for (size_t k = 0; k < NLISTS; k++)
        n += case_lists[k].n;
    return n;
}
#define NCASES ncases()
static const tcase *case_at(size_t i, unsigned *mode, bool *gfx1010)
{
    for (size_t k = 0; k < NLISTS; k++) {
        const struct case_list *cl = &case_lists[k];
        if (i >= cl->n) {
            i -= cl->n;
            continue;
        }
        if (mode)
            *mode = cl->moded ? cl->moded[i].mode : 0;
        if (gfx1010)
            *gfx1010 = cl->gfx1010;
        return cl->plain ? &cl->plain[i] : &cl->moded[i].c;
    }
    return NULL;
}

/* ---- input generation ---- */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

static const uint32_t edge_i[] = {0, 1, 2, 3, 0x7fffffff, 0x80000000u, 0xffffffffu, 0xfffffffeu,
                                  31, 32, 33, 63, 64, 0xff, 0x100, 0xffff, 0x10000, 0x00ffffff,
                                  0x01000000, 0xff800000u, 0x12345678, 0x87654321u};
static const uint32_t edge_f[] = {0x00000000, 0x80000000u, 0x3f800000, 0xbf800000u, 0x7f800000,
                                  0xff800000u, 0x7fc00000, 0xffc00000u, 0x00000001, 0x807fffffu,
                                  0x00800000, 0x7f7fffff, 0xff7fffffu, 0x3f000000, 0x3fc00000,
                                  0x40200000, 0xc0200000u, 0x4f000000, 0xcf000000u, 0x4f800000,
                                  0x4effffff, 0xcf000001u, 0x3effffff, 0x40490fdb, 0x501502f9,
                                  0xbf000000u, 0x3e800000, 0x4b000001, 0x3f7fffff, 0x477fe000,
                                  0x387fc000, 0x33800000, 0x7f800001};
static const uint16_t edge_h[] = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x0001,
                                  0x83ff, 0x0400, 0x7bff, 0xfbff, 0x3800, 0x3e00, 0x4100, 0xc100,
                                  0x5640, 0x7c01};
static const uint64_t edge_d[] = {0, 0x8000000000000000ull, 0x3ff0000000000000ull,
                                  0xbff0000000000000ull, 0x7ff0000000000000ull,
                                  0xfff0000000000000ull, 0x7ff8000000000000ull, 1,
                                  0x000fffffffffffffull, 0x0010000000000000ull,
                                  0x7fefffffffffffffull, 0x3fe0000000000000ull,
                                  0x3ff8000000000000ull, 0x4004000000000000ull,
                                  0xc004000000000000ull, 0x41e0000000000000ull,
                                  0xc1e0000000000000ull, 0x41efffffffe00000ull, 0x400921fb54442d18ull};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static uint32_t gen_f32(void)
{
    switch (rnd() % 4) {
    case 0: return edge_f[rnd() % NELEM(edge_f)];
    case 1: return rnd();
    default: return (rnd() & 0x807fffffu) | ((uint32_t)(112 + rnd() % 40) << 23);
    }
}
static uint32_t gen_f16(void)
{
    uint32_t h = rnd() % 3 == 0 ? edge_h[rnd() % NELEM(edge_h)]
                                : ((rnd() & 0x83ff) | ((uint32_t)(8 + rnd() % 16) << 10));
    return h & 0xffff;
}
static uint64_t gen_f64(void)
{
    switch (rnd() % 4) {
    case 0: return edge_d[rnd() % NELEM(edge_d)];
    case 1: return ((uint64_t)rnd() << 32) | rnd();
    default:
        return (((uint64_t)rnd() << 32 | rnd()) & 0x800fffffffffffffull) |
               ((uint64_t)(1000 + rnd() % 50) << 52);
    }
}

/* subnormal, tiny, huge or any (C_SCALE, C_DSCALE) */
static uint32_t gen_scale32(void)
{
    uint32_t r = rnd();
    switch (rnd() % 5) {
    case 0: return r & (rnd() % 2 ? 0x807fffffu : 0x800000ffu);
    case 1: return (r & 0x807fffffu) | ((1 + rnd() % 30) << 23);
    case 2: return (r & 0x807fffffu) | ((224 + rnd() % 31) << 23);
    case 3: return r;
    default: return gen_f32();
    }
}
static uint64_t gen_scale64(void)
{
    uint64_t r = (uint64_t)rnd() << 32 | rnd();
    switch (rnd() % 5) {
    case 0: return r & (rnd() % 2 ? 0x800fffffffffffffull : 0x80000000000000ffull);
    case 1: return (r & 0x800fffffffffffffull) | ((uint64_t)(1 + rnd() % 60) << 52);
    case 2: return (r & 0x800fffffffffffffull) | ((uint64_t)(1986 + rnd() % 61) << 52);
    case 3: return r;
    default: return gen_f64();
    }
}

/* near 1 (log2's hard case), or a value in [-160, 130] (exp2) */
static uint32_t gen_logexp(void)
{
    float f;
    uint32_t u;
    switch (rnd() % 3) {
    case 0: u = 0x3f800000u + (rnd() % 20001) - 10000; return u;
    case 1: f = (float)((int)(rnd() % 290001) - 160000) / 1000.0f; break;
    default: f = (float)(rnd() % 2000) / 64.0f - 16.0f; break;
    }
    memcpy(&u, &f, 4);
    return u;
}

/* denormals, tiny normals (products and sums fall into the denormal
 * range), zeros, NaNs (quiet and signaling), ordinary values */
static uint32_t gen_dn32(void)
{
    uint32_t r = rnd();
    switch (rnd() % 7) {
    case 0: case 1: return r & 0x807fffffu;
    case 2: return (r & 0x807fffffu) | ((1 + rnd() % 3) << 23);
    case 3: return (r & 0x807fffffu) | ((120 + rnd() % 14) << 23);
    case 4: return (r & 0x80000000u) | 0x7f800000u | (1 + rnd() % 0x7fffff);
    case 5: return r & 0x80000000u;
    default: return gen_f32();
    }
}
static uint32_t gen_dn16(void)
{
    uint32_t r = rnd();
    switch (rnd() % 6) {
    case 0: case 1: return r & 0x83ff;
    case 2: return (r & 0x83ff) | ((1 + rnd() % 3) << 10);
    case 3: return (r & 0x83ff) | ((12 + rnd() % 6) << 10);
    case 4: return (r & 0x8000) | 0x7c00 | (1 + rnd() % 0x3ff);
    default: return gen_f16();
    }
}

static void gen_inputs(wave *w, unsigned W, int cls, unsigned run)
{
    w->W = W;
    uint64_t full = W == 64 ? ~0ull : 0xffffffffull;
    w->exec = run == 0 ? full : run == 1 ? (((uint64_t)rnd() << 32) | rnd()) & full
                                        : (0xf0f0f0f0f0f0f0f0ull ^ ((uint64_t)rnd() << 13)) & full;
    for (unsigned s = 0; s < NS; s++)
        w->s[s] = rnd();
    /* s20/s21: a lane mask; s5: a lane number; s6/s7 permlane selectors */
    w->s[5] = rnd() % 80;
    for (unsigned l = 0; l < 64; l++) {
        for (unsigned v = 0; v < NV; v++) {
            uint32_t x;
            switch (cls) {
            case C_F32: x = gen_f32(); break;
            case C_ZS32: {
                static const uint32_t zs[6] = {0, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x40000000u, 0xc0000000u};
                x = zs[rnd() % 6];
                break;
            }
            case C_F16: x = gen_f16() | (gen_f16() << 16); break;
            case C_SHIFT: x = (v == 0 || v == 2) ? rnd() % 72 : (rnd() % 3 ? rnd() : edge_i[rnd() % NELEM(edge_i)]); break;
            case C_SCALE: x = v % 2 ? (uint32_t)((int32_t)(rnd() % 601) - 300) : gen_scale32(); break;
            case C_LOGEXP: x = gen_logexp(); break;
            case C_DN32: x = gen_dn32(); break;
            case C_DN16: x = gen_dn16() | gen_dn16() << 16; break;
            case C_DSCALE: x = (uint32_t)((int32_t)(rnd() % 4401) - 2200); break;
            case C_F64: {
                uint64_t d = gen_f64();
                if (v % 2 == 0 || v == 9)
                    x = (uint32_t)d;
                else
                    x = (uint32_t)(gen_f64() >> 32);
                break;
            }
            default: x = rnd() % 3 ? rnd() : edge_i[rnd() % NELEM(edge_i)]; break;
            }
            w->v[v][l] = x;
        }
        if (cls == C_F64 || cls == C_DSCALE) {
            /* whole doubles in the pairs v[0:1], v[6:7], v[8:9] */
            uint64_t (*g)(void) = cls == C_F64 ? gen_f64 : gen_scale64;
            uint64_t a = g(), b = g(), c = g();
            w->v[0][l] = (uint32_t)a; w->v[1][l] = (uint32_t)(a >> 32);
            w->v[6][l] = (uint32_t)b; w->v[7][l] = (uint32_t)(b >> 32);
            w->v[8][l] = (uint32_t)c; w->v[9][l] = (uint32_t)(c >> 32);
        }
    }
}

static bool nanh(uint32_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }

/* Equal bits, or both NaN where the value is a float of that kind. */
static bool same_value(uint32_t got, uint32_t want, int cmp)
{
    if (got == want)
        return true;
    switch (cmp) {
    case K_F32: return isnan(F(got)) && isnan(F(want));
    case K_F16: return (got >> 16) == (want >> 16) && nanh(got) && nanh(want);
    case K_F16HI: return (got & 0xffff) == (want & 0xffff) && nanh(got >> 16) && nanh(want >> 16);
    case K_PK16:
        return ((got & 0xffff) == (want & 0xffff) || (nanh(got) && nanh(want))) &&
               ((got >> 16) == (want >> 16) || (nanh(got >> 16) && nanh(want >> 16)));
    default: return false;
    }
}

/* Replaces the placeholders SM, SN and VCC for the wave size. */
static void subst(FILE *f, const char *t, unsigned W)
{
    while (*t) {
        bool start = t[0] >= 'A' && t[0] <= 'Z';
        if (start && !strncmp(t, "SM", 2) && !(t[2] >= 'A' && t[2] <= 'Z') && !(t[2] == '_')) {
            fputs(W == 64 ? "s[20:21]" : "s20", f);
            t += 2;
        } else if (start && !strncmp(t, "SN", 2) && !(t[2] >= 'A' && t[2] <= 'Z') && !(t[2] == '_')) {
            fputs(W == 64 ? "s[22:23]" : "s22", f);
            t += 2;
        } else if (start && !strncmp(t, "VCC", 3) && !(t[3] >= 'A' && t[3] <= 'Z')) {
            fputs(W == 64 ? "vcc" : "vcc_lo", f);
            t += 3;
        } else {
            fputc(*t++, f);
        }
    }
}

/* ---- assembling ---- */
typedef struct asm_out {
    uint8_t *code;
    size_t size;
} asm_out;

/* Assembles every case program of one target (each followed by s_endpgm)
 * in one llvm-mc call; returns 0 or -1. */
static int assemble_cpu(const char *dir, unsigned W, asm_out *outs, size_t ncases, bool gfx1010)
{
    char path[512], cmd[1024];
    snprintf(path, sizeof path, "%s/cases%u_%d.s", dir, W, gfx1010);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    for (size_t i = 0; i < ncases; i++)
    {
        bool g10;
        const tcase *tc = case_at(i, NULL, &g10);
        if (g10 != gfx1010)
            continue;
        subst(f, tc->text, W);
        fprintf(f, "\ns_endpgm\n");
    }
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s -triple=amdgcn-amd-amdhsa -mcpu=%s -mattr=%s -show-encoding %s 2>&1",
             WL_LLVM_MC, gfx1010 ? "gfx1010" : "gfx1030", W == 64 ? "+wavefrontsize64" : "+wavefrontsize32",
             path);
    int status;
    char *o = wlt_run(cmd, &status);
    if (!o || status != 0) {
        fprintf(stderr, "llvm-mc failed:\n%s\n", o ? o : "");
        free(o);
        return -1;
    }
    char *p = o;
    for (size_t i = 0; i < ncases; i++) {
        bool g10;
        case_at(i, NULL, &g10);
        if (g10 != gfx1010)
            continue;
        outs[i].code = malloc(256);
        outs[i].size = 0;
        /* instructions until s_endpgm's encoding */
        for (;;) {
            char *e = strstr(p, "encoding: [");
            if (!e) {
                free(o);
                return -1;
            }
            e += 11;
            char *end = strchr(e, ']');
            size_t start = outs[i].size;
            while (e < end) {
                unsigned byte;
                if (sscanf(e, "0x%x", &byte) != 1)
                    break;
                if (outs[i].size < 256)
                    outs[i].code[outs[i].size++] = (uint8_t)byte;
                char *comma = strchr(e, ',');
                if (!comma || comma > end)
                    break;
                e = comma + 1;
            }
            p = end;
            size_t n = outs[i].size - start;
            if (n == 4 && outs[i].code[start + 3] == 0xbf && outs[i].code[start + 2] == 0x81 &&
                outs[i].code[start + 1] == 0x00 && outs[i].code[start] == 0x00)
                break; /* s_endpgm: 0xbf810000 */
        }
    }
    free(o);
    return 0;
}

static int assemble_all(const char *dir, unsigned W, asm_out *outs, size_t ncases)
{
    return assemble_cpu(dir, W, outs, ncases, false) || assemble_cpu(dir, W, outs, ncases, true) ? -1 : 0;
}

static void run_wave(unsigned W, const char *dir)
{
    size_t nc = NCASES;
    asm_out *as = calloc(nc, sizeof *as);
    assert_int_equal(assemble_all(dir, W, as, nc), 0);
    long lifted = 0, refused = 0, instances = 0, matched = 0, shown = 0, bad = 0;
    /* per group counts */
    long g_cases[G_COUNT] = {0}, g_inst[G_COUNT] = {0}, g_match[G_COUNT] = {0};
    wave *in = calloc(RUNS, sizeof *in);
    result *out = calloc(RUNS, sizeof *out);
    for (size_t i = 0; i < nc; i++) {
        unsigned mode;
        bool g10;
        const tcase *tc = case_at(i, &mode, &g10);
        for (unsigned r = 0; r < RUNS; r++)
            gen_inputs(&in[r], W, tc->cls, r);
        char err[512] = "";
        int rc = lift_and_run(as[i].code, as[i].size, W, in, out, RUNS, mode, g10, err, sizeof err);
        if (rc == 1) {
            refused++;
            printf("  REFUSED (fails the test): %s: %s\n", tc->text, err);
            bad++;
            continue;
        }
        if (rc != 0) {
            printf("  ERROR: %s: %s\n", tc->text, err);
            bad++;
            continue;
        }
        lifted++;
        g_cases[tc->group]++;
        for (unsigned r = 0; r < RUNS; r++) {
            expect ex;
            memset(&ex, 0, sizeof ex);
            tc->ref(&in[r], &ex);
            for (unsigned l = 0; l < W; l++) {
                for (unsigned k = 0; k < ex.nv; k++) {
                    unsigned reg = ex.vreg[k];
                    uint32_t got = out[r].v[reg][l], want = ex.v[k][l];
                    bool ok;
                    if (ex.vcmp[k] == K_F64 && k + 1 < ex.nv) {
                        uint64_t g64 = got | (uint64_t)out[r].v[ex.vreg[k + 1]][l] << 32;
                        uint64_t w64 = want | (uint64_t)ex.v[k + 1][l] << 32;
                        ok = g64 == w64 || (isnan(D(g64)) && isnan(D(w64)));
                        if (!ok) {
                            got = (uint32_t)(g64 >> 32);
                            want = (uint32_t)(w64 >> 32);
                            reg = ex.vreg[k + 1];
                        }
                        instances++;
                        g_inst[tc->group]++;
                        if (ok) {
                            matched++;
                            g_match[tc->group]++;
                        }
                        k++;
                    } else {
                        ok = same_value(got, want, ex.vcmp[k]);
                    }
                    instances++;
                    g_inst[tc->group]++;
                    if (ok) {
                        matched++;
                        g_match[tc->group]++;
                    } else if (shown++ < 20) {
                        printf("  MISMATCH w%u %s: run %u lane %u v%u: got 0x%08x want 0x%08x "
                               "(in v0=0x%08x v1=0x%08x v2=0x%08x v3=0x%08x exec=0x%llx)\n",
                               W, tc->text, r, l, reg, got, want, in[r].v[0][l], in[r].v[1][l],
                               in[r].v[2][l], in[r].v[3][l], (unsigned long long)in[r].exec);
                    }
                }
            }
            for (unsigned k = 0; k < ex.ns; k++) {
                unsigned reg = ex.sreg[k];
                uint32_t got = out[r].s[reg], want = ex.s[k];
                instances++;
                g_inst[tc->group]++;
                if (got == want && !out[r].sbad[reg]) {
                    matched++;
                    g_match[tc->group]++;
                } else if (shown++ < 20) {
                    printf("  MISMATCH w%u %s: run %u s%u: got 0x%08x want 0x%08x%s (exec=0x%llx)\n", W,
                           tc->text, r, reg, got, want, out[r].sbad[reg] ? " (not uniform)" : "",
                           (unsigned long long)in[r].exec);
                }
            }
        }
    }
    printf("wave%u: %zu cases, %ld lifted and run, %ld refused\n", W, nc, lifted, refused);
    for (int g = 0; g < G_COUNT; g++)
        printf("  %-8s %3ld cases, %6ld instances, %6ld match\n", group_names[g], g_cases[g], g_inst[g],
               g_match[g]);
    printf("  total: %ld instances, %ld match\n", instances, matched);
    for (size_t i = 0; i < nc; i++)
        free(as[i].code);
    free(as);
    free(in);
    free(out);
    assert_true(instances > 0);
    assert_int_equal(bad, 0);
    assert_int_equal(matched, instances);
}

static void valu_wave64(void **state)
{
    (void)state;
    char *dir = wlt_tmpdir();
    run_wave(64, dir);
    free(dir);
}

static void valu_wave32(void **state)
{
    (void)state;
    char *dir = wlt_tmpdir();
    run_wave(32, dir);
    free(dir);
}

/* Instructions not lifted are refused by name, never skipped. */
static void valu_refusals(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "v_cvt_i32_f32_e64 v3, v0 mul:2",
        "v_movrels_b32_dpp v3, v0 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf",
        "v_mullit_f32 v3, v0, v1, v2",
        "v_msad_u8 v3, v0, v1, v2 clamp",
        "v_dot2_f32_f16 v3, v0, v1, v2 op_sel:[1,0,0]",
        "v_qsad_pk_u16_u8 v[4:5], v[0:1], v2, v[6:7] clamp",
    };
    static const char *const names[] = {"v_cvt_i32_f32", "v_movrels_b32", "v_mullit_f32",
                                        "v_msad_u8", "v_dot2_f32_f16", "v_qsad_pk_u16_u8"};
    char *dir = wlt_tmpdir();
    for (size_t i = 0; i < NELEM(texts); i++) {
        char path[512], cmd[1024];
        snprintf(path, sizeof path, "%s/r.s", dir);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fprintf(f, "%s\ns_endpgm\n", texts[i]);
        fclose(f);
        snprintf(cmd, sizeof cmd, "%s -triple=amdgcn-amd-amdhsa -mcpu=gfx1030 -mattr=+wavefrontsize64 -show-encoding %s", WL_LLVM_MC, path);
        int status;
        char *o = wlt_run(cmd, &status);
        assert_non_null(o);
        assert_int_equal(status, 0);
        uint8_t code[64];
        size_t n = 0;
        for (char *p = o; (p = strstr(p, "encoding: [")) != NULL;) {
            p += 11;
            char *end = strchr(p, ']');
            while (p < end) {
                unsigned byte;
                if (sscanf(p, "0x%x", &byte) != 1 || n == sizeof code)
                    break;
                code[n++] = (uint8_t)byte;
                char *c = strchr(p, ',');
                if (!c || c > end)
                    break;
                p = c + 1;
            }
            p = end;
        }
        free(o);
        wave w;
        result r;
        gen_inputs(&w, 64, C_INT, 0);
        char err[512] = "";
        int rc = lift_and_run(code, n, 64, &w, &r, 1, 0, false, err, sizeof err);
        printf("  %s -> %s\n", texts[i], err);
        assert_int_equal(rc, 1);
        assert_non_null(strstr(err, names[i]));
    }
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(valu_wave64),
        cmocka_unit_test(valu_wave32),
        cmocka_unit_test(valu_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
