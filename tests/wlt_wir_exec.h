/* A reference executor of the wave IR for tests (docs/wave-ir.md): the
 * module is compiled by LLVM's MCJIT and @wl.wave runs once per lane, one
 * thread a lane, in lockstep: every wl.* call that touches memory or
 * crosses lanes is a wave-wide step between two barriers, so a store of all
 * lanes happens before the next access of any lane, as on the hardware.
 * The wl.* functions are implemented here from the contract's words; the
 * module's declarations are checked against them (an unknown one fails).
 *
 * Guest memory: one global region at WLX_GBASE, the LDS and a private
 * segment per lane; an access outside them counts as a fault (the test
 * fails on any). Only for tests: state is static, one run at a time. */
#ifndef WLT_WIR_EXEC_H
#define WLT_WIR_EXEC_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/ExecutionEngine.h>
#include <llvm-c/Target.h>

#define WLX_GBASE 0x100000000ull
#define WLX_GSIZE 0x10000u
#define WLX_LDS 0x10000u
#define WLX_PRIV 0x1000u

typedef struct wlx_state {
    unsigned W;
    uint64_t gbase; /* guest address of g[0] (WLX_GBASE for this executor) */
    uint64_t exec;
    uint32_t user[32];
    uint8_t g[WLX_GSIZE];
    uint8_t lds[WLX_LDS];
    uint8_t priv[64][WLX_PRIV];
    /* results */
    unsigned faults, escapes;
    char fault_msg[256];
    unsigned calls; /* wave-wide steps */
} wlx_state;

static wlx_state *wlx_s;
static pthread_barrier_t wlx_bar;
static pthread_mutex_t wlx_mu = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local unsigned wlx_lane;
static uint64_t wlx_slot[64];

static void wlx_sync(void) { pthread_barrier_wait(&wlx_bar); }

static void wlx_fault(const char *what, uint64_t a)
{
    pthread_mutex_lock(&wlx_mu);
    if (!wlx_s->faults++)
        snprintf(wlx_s->fault_msg, sizeof wlx_s->fault_msg, "lane %u: %s at 0x%llx", wlx_lane,
                 what, (unsigned long long)a);
    pthread_mutex_unlock(&wlx_mu);
}

/* the bytes of an access, or NULL (fault) */
static uint8_t *wlx_ptr(int space, uint64_t a, unsigned bytes)
{
    switch (space) {
    case 0:
        if (a >= WLX_GBASE && a - WLX_GBASE + bytes <= WLX_GSIZE)
            return wlx_s->g + (a - WLX_GBASE);
        break;
    case 1:
        if (a + bytes <= WLX_LDS)
            return wlx_s->lds + a;
        break;
    default:
        if (a + bytes <= WLX_PRIV)
            return wlx_s->priv[wlx_lane] + a;
        break;
    }
    wlx_fault(space == 0 ? "global access outside memory" : space == 1 ? "LDS access outside" : "scratch access outside", a);
    return NULL;
}

static uint64_t wlx_rd(const uint8_t *p, unsigned bytes)
{
    uint64_t v = 0;
    memcpy(&v, p, bytes);
    return v;
}

static void wlx_wr(uint8_t *p, unsigned bytes, uint64_t v) { memcpy(p, &v, bytes); }

static uint64_t wlx_load(int space, unsigned bits, uint64_t a, uint32_t act)
{
    uint64_t r = 0;
    wlx_sync();
    if (act & 1) {
        uint8_t *p = wlx_ptr(space, a, bits / 8);
        if (p)
            r = wlx_rd(p, bits / 8);
    }
    wlx_sync();
    return r;
}

static void wlx_store(int space, unsigned bits, uint64_t a, uint64_t v, uint32_t act)
{
    wlx_sync();
    if (act & 1) {
        uint8_t *p = wlx_ptr(space, a, bits / 8);
        if (p)
            wlx_wr(p, bits / 8, v);
    }
    wlx_sync();
}

enum { WLX_SWAP, WLX_ADD, WLX_SUB, WLX_SMIN, WLX_UMIN, WLX_SMAX, WLX_UMAX, WLX_AND, WLX_OR,
       WLX_XOR, WLX_INC, WLX_DEC, WLX_FMIN, WLX_FMAX, WLX_FADD, WLX_CMPSWAP, WLX_NOPS };
static const char *const wlx_opn[WLX_NOPS] = {"swap", "add", "sub", "smin", "umin", "smax", "umax",
                                              "and", "or", "xor", "inc", "dec", "fmin", "fmax",
                                              "fadd", "cmpswap"};

static uint64_t wlx_apply(int op, unsigned bits, uint64_t o, uint64_t v, uint64_t cmp)
{
    uint64_t m = bits == 64 ? ~0ull : 0xffffffffull;
    int64_t so = bits == 64 ? (int64_t)o : (int32_t)o, sv = bits == 64 ? (int64_t)v : (int32_t)v;
    double fo, fv;
    if (bits == 64) {
        memcpy(&fo, &o, 8);
        memcpy(&fv, &v, 8);
    } else {
        float a, b;
        uint32_t o32 = (uint32_t)o, v32 = (uint32_t)v;
        memcpy(&a, &o32, 4);
        memcpy(&b, &v32, 4);
        fo = a;
        fv = b;
    }
    double fr = 0;
    switch (op) {
    case WLX_SWAP: return v;
    case WLX_ADD: return (o + v) & m;
    case WLX_SUB: return (o - v) & m;
    case WLX_SMIN: return so < sv ? o : v;
    case WLX_UMIN: return o < v ? o : v;
    case WLX_SMAX: return so > sv ? o : v;
    case WLX_UMAX: return o > v ? o : v;
    case WLX_AND: return o & v;
    case WLX_OR: return o | v;
    case WLX_XOR: return o ^ v;
    case WLX_INC: return o >= v ? 0 : (o + 1) & m;
    case WLX_DEC: return (o == 0 || o > v) ? v : o - 1;
    case WLX_CMPSWAP: return o == cmp ? v : o;
    case WLX_FMIN: fr = fv < fo ? fv : fo; break;
    case WLX_FMAX: fr = fv > fo ? fv : fo; break;
    default: fr = fo + fv; break;
    }
    if (bits == 64) {
        uint64_t r;
        memcpy(&r, &fr, 8);
        return r;
    }
    float f = (float)fr;
    uint32_t r;
    memcpy(&r, &f, 4);
    return r;
}

static uint64_t wlx_atomic(int space, int op, unsigned bits, uint64_t a, uint64_t v, uint64_t cmp,
                           uint32_t act)
{
    uint64_t r = 0;
    wlx_sync();
    if (act & 1) {
        pthread_mutex_lock(&wlx_mu);
        uint8_t *p = wlx_ptr(space, a, bits / 8);
        if (p) {
            r = wlx_rd(p, bits / 8);
            wlx_wr(p, bits / 8, wlx_apply(op, bits, r, v, cmp));
        }
        pthread_mutex_unlock(&wlx_mu);
    }
    wlx_sync();
    return r;
}

/* The wl.* memory functions, one C function each. */
#define WLX_LS(SP, SPN, AT)                                                                       \
    static uint32_t wlx_ld_##SPN##_8(AT a, uint32_t act) { return (uint32_t)wlx_load(SP, 8, a, act); } \
    static uint32_t wlx_ld_##SPN##_16(AT a, uint32_t act) { return (uint32_t)wlx_load(SP, 16, a, act); } \
    static uint32_t wlx_ld_##SPN##_32(AT a, uint32_t act) { return (uint32_t)wlx_load(SP, 32, a, act); } \
    static uint64_t wlx_ld_##SPN##_64(AT a, uint32_t act) { return wlx_load(SP, 64, a, act); }   \
    static void wlx_st_##SPN##_8(AT a, uint32_t v, uint32_t act) { wlx_store(SP, 8, a, v, act); } \
    static void wlx_st_##SPN##_16(AT a, uint32_t v, uint32_t act) { wlx_store(SP, 16, a, v, act); } \
    static void wlx_st_##SPN##_32(AT a, uint32_t v, uint32_t act) { wlx_store(SP, 32, a, v, act); } \
    static void wlx_st_##SPN##_64(AT a, uint64_t v, uint32_t act) { wlx_store(SP, 64, a, v, act); }
WLX_LS(0, global, uint64_t)
WLX_LS(1, lds, uint32_t)
WLX_LS(2, scratch, uint32_t)

#define WLX_AT(SP, SPN, AT, OP)                                                                   \
    static uint32_t wlx_at_##SPN##_##OP##_32(AT a, uint32_t v, uint32_t act)                      \
    { return (uint32_t)wlx_atomic(SP, WLX_##OP, 32, a, v, 0, act); }                              \
    static uint64_t wlx_at_##SPN##_##OP##_64(AT a, uint64_t v, uint32_t act)                      \
    { return wlx_atomic(SP, WLX_##OP, 64, a, v, 0, act); }
#define WLX_ATS(SP, SPN, AT)                                                                      \
    WLX_AT(SP, SPN, AT, SWAP) WLX_AT(SP, SPN, AT, ADD) WLX_AT(SP, SPN, AT, SUB)                   \
    WLX_AT(SP, SPN, AT, SMIN) WLX_AT(SP, SPN, AT, UMIN) WLX_AT(SP, SPN, AT, SMAX)                 \
    WLX_AT(SP, SPN, AT, UMAX) WLX_AT(SP, SPN, AT, AND) WLX_AT(SP, SPN, AT, OR)                    \
    WLX_AT(SP, SPN, AT, XOR) WLX_AT(SP, SPN, AT, INC) WLX_AT(SP, SPN, AT, DEC)                    \
    WLX_AT(SP, SPN, AT, FMIN) WLX_AT(SP, SPN, AT, FMAX) WLX_AT(SP, SPN, AT, FADD)                 \
    static uint32_t wlx_cs_##SPN##_32(AT a, uint32_t c, uint32_t v, uint32_t act)                 \
    { return (uint32_t)wlx_atomic(SP, WLX_CMPSWAP, 32, a, v, c, act); }                           \
    static uint64_t wlx_cs_##SPN##_64(AT a, uint64_t c, uint64_t v, uint32_t act)                 \
    { return wlx_atomic(SP, WLX_CMPSWAP, 64, a, v, c, act); }
WLX_ATS(0, global, uint64_t)
WLX_ATS(1, lds, uint32_t)

#define WLX_ATTAB(SPN)                                                                            \
    {(void *)wlx_at_##SPN##_SWAP_32, (void *)wlx_at_##SPN##_SWAP_64},                             \
    {(void *)wlx_at_##SPN##_ADD_32, (void *)wlx_at_##SPN##_ADD_64},                               \
    {(void *)wlx_at_##SPN##_SUB_32, (void *)wlx_at_##SPN##_SUB_64},                               \
    {(void *)wlx_at_##SPN##_SMIN_32, (void *)wlx_at_##SPN##_SMIN_64},                             \
    {(void *)wlx_at_##SPN##_UMIN_32, (void *)wlx_at_##SPN##_UMIN_64},                             \
    {(void *)wlx_at_##SPN##_SMAX_32, (void *)wlx_at_##SPN##_SMAX_64},                             \
    {(void *)wlx_at_##SPN##_UMAX_32, (void *)wlx_at_##SPN##_UMAX_64},                             \
    {(void *)wlx_at_##SPN##_AND_32, (void *)wlx_at_##SPN##_AND_64},                               \
    {(void *)wlx_at_##SPN##_OR_32, (void *)wlx_at_##SPN##_OR_64},                                 \
    {(void *)wlx_at_##SPN##_XOR_32, (void *)wlx_at_##SPN##_XOR_64},                               \
    {(void *)wlx_at_##SPN##_INC_32, (void *)wlx_at_##SPN##_INC_64},                               \
    {(void *)wlx_at_##SPN##_DEC_32, (void *)wlx_at_##SPN##_DEC_64},                               \
    {(void *)wlx_at_##SPN##_FMIN_32, (void *)wlx_at_##SPN##_FMIN_64},                             \
    {(void *)wlx_at_##SPN##_FMAX_32, (void *)wlx_at_##SPN##_FMAX_64},                             \
    {(void *)wlx_at_##SPN##_FADD_32, (void *)wlx_at_##SPN##_FADD_64},                             \
    {(void *)wlx_cs_##SPN##_32, (void *)wlx_cs_##SPN##_64}

static void *const wlx_at_fns[2][WLX_NOPS][2] = {{WLX_ATTAB(global)}, {WLX_ATTAB(lds)}};
static void *const wlx_ls_fns[3][2][4] = {
    {{(void *)wlx_ld_global_8, (void *)wlx_ld_global_16, (void *)wlx_ld_global_32, (void *)wlx_ld_global_64},
     {(void *)wlx_st_global_8, (void *)wlx_st_global_16, (void *)wlx_st_global_32, (void *)wlx_st_global_64}},
    {{(void *)wlx_ld_lds_8, (void *)wlx_ld_lds_16, (void *)wlx_ld_lds_32, (void *)wlx_ld_lds_64},
     {(void *)wlx_st_lds_8, (void *)wlx_st_lds_16, (void *)wlx_st_lds_32, (void *)wlx_st_lds_64}},
    {{(void *)wlx_ld_scratch_8, (void *)wlx_ld_scratch_16, (void *)wlx_ld_scratch_32, (void *)wlx_ld_scratch_64},
     {(void *)wlx_st_scratch_8, (void *)wlx_st_scratch_16, (void *)wlx_st_scratch_32, (void *)wlx_st_scratch_64}},
};

/* Lanes and launch state. */
static uint32_t wlx_user_sgpr(uint32_t n) { return n < 32 ? wlx_s->user[n] : 0; }
static uint32_t wlx_zero_i(uint32_t d) { (void)d; return 0; }
static uint32_t wlx_thread_id(uint32_t d) { return d == 0 ? wlx_lane : 0; }
static uint32_t wlx_zero(void) { return 0; }
static uint64_t wlx_launch_exec(void) { return wlx_s->exec; }
static uint32_t wlx_lane_id(void) { return wlx_lane; }
static uint8_t wlx_lane_active(uint64_t e) { return (uint8_t)((e >> wlx_lane) & 1); }
static uint32_t wlx_shuffle(uint32_t v, uint32_t lane)
{
    wlx_sync();
    wlx_slot[wlx_lane] = v;
    wlx_sync();
    uint32_t r = (uint32_t)wlx_slot[lane % wlx_s->W];
    wlx_sync();
    return r;
}
static uint64_t wlx_ballot(uint32_t p)
{
    wlx_sync();
    wlx_slot[wlx_lane] = p & 1;
    wlx_sync();
    uint64_t m = 0;
    for (unsigned i = 0; i < wlx_s->W; i++)
        m |= wlx_slot[i] << i;
    wlx_sync();
    return m;
}
static uint32_t wlx_readfirstlane(uint32_t v, uint64_t e)
{
    unsigned first = e ? (unsigned)__builtin_ctzll(e) : 0;
    return wlx_shuffle(v, first);
}
static void wlx_barrier(void) { wlx_sync(); }
static uint32_t wlx_sload(uint64_t a) { return (uint32_t)wlx_load(0, 32, a, 1); }
static void wlx_escape(uint32_t kind, uint32_t off, uint32_t act)
{
    wlx_sync();
    if (act & 1) {
        pthread_mutex_lock(&wlx_mu);
        wlx_s->escapes++;
        (void)kind;
        (void)off;
        pthread_mutex_unlock(&wlx_mu);
    }
    wlx_sync();
}

/* The C function for a wl.* declaration, or NULL. */
static void *wlx_lookup(const char *n)
{
    static const struct { const char *name; void *fn; } fixed[] = {
        {"wl.user_sgpr", (void *)wlx_user_sgpr}, {"wl.workgroup_id", (void *)wlx_zero_i},
        {"wl.thread_id", (void *)wlx_thread_id}, {"wl.wave_id", (void *)wlx_zero},
        {"wl.launch_exec", (void *)wlx_launch_exec}, {"wl.scratch_wave_offset", (void *)wlx_zero},
        {"wl.lane_id", (void *)wlx_lane_id}, {"wl.lane_active", (void *)wlx_lane_active},
        {"wl.ballot", (void *)wlx_ballot}, {"wl.shuffle.i32", (void *)wlx_shuffle},
        {"wl.readfirstlane.i32", (void *)wlx_readfirstlane}, {"wl.barrier", (void *)wlx_barrier},
        {"wl.sload.b32", (void *)wlx_sload}, {"wl.escape", (void *)wlx_escape},
    };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (!strcmp(fixed[i].name, n))
            return fixed[i].fn;
    static const char *const spaces[3] = {"global", "lds", "scratch"};
    char op[16], sp[16];
    unsigned bits;
    int w = 0;
    if (sscanf(n, "wl.load.%15[a-z].b%u%n", sp, &bits, &w) == 2 && !n[w]) {
        for (int s = 0; s < 3; s++)
            if (!strcmp(sp, spaces[s]) && (bits == 8 || bits == 16 || bits == 32 || bits == 64))
                return wlx_ls_fns[s][0][bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : 3];
        return NULL;
    }
    if (sscanf(n, "wl.store.%15[a-z].b%u%n", sp, &bits, &w) == 2 && !n[w]) {
        for (int s = 0; s < 3; s++)
            if (!strcmp(sp, spaces[s]) && (bits == 8 || bits == 16 || bits == 32 || bits == 64))
                return wlx_ls_fns[s][1][bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : 3];
        return NULL;
    }
    if (sscanf(n, "wl.atomic.%15[a-z].%15[a-z].b%u%n", sp, op, &bits, &w) == 3 && !n[w]) {
        for (int s = 0; s < 2; s++)
            for (int o = 0; o < WLX_NOPS; o++)
                if (!strcmp(sp, spaces[s]) && !strcmp(op, wlx_opn[o]) && (bits == 32 || bits == 64))
                    return wlx_at_fns[s][o][bits == 64];
    }
    return NULL;
}

typedef struct wlx_arg {
    uint64_t fn;
    unsigned lane;
} wlx_arg;

static void *wlx_thread(void *arg)
{
    const wlx_arg *a = arg;
    wlx_lane = a->lane;
    void (*fn)(void) = (void (*)(void))(uintptr_t)a->fn;
    fn();
    return NULL;
}

/* Runs @wl.wave of `m` (consumed) over st->W lanes. Returns 0, or -1 with a
 * message (an unknown wl.* declaration, a JIT failure). */
__attribute__((unused)) static int wlx_run(LLVMModuleRef m, wlx_state *st, char *err, size_t errcap)
{
    static int inited;
    if (!inited) {
        LLVMLinkInMCJIT();
        LLVMInitializeNativeTarget();
        LLVMInitializeNativeAsmPrinter();
        inited = 1;
    }
    char *msg = NULL;
    LLVMExecutionEngineRef ee;
    struct LLVMMCJITCompilerOptions opt;
    LLVMInitializeMCJITCompilerOptions(&opt, sizeof opt);
    opt.OptLevel = 0;
    /* the declarations, before the engine owns the module */
    const char *names[256];
    LLVMValueRef decls[256];
    unsigned nd = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (!LLVMIsDeclaration(f))
            continue;
        size_t len;
        const char *n = LLVMGetValueName2(f, &len);
        if (strncmp(n, "llvm.", 5) == 0)
            continue;
        if (!wlx_lookup(n) || nd == 256) {
            snprintf(err, errcap, "no reference implementation of %s", n);
            LLVMDisposeModule(m);
            return -1;
        }
        names[nd] = n;
        decls[nd++] = f;
    }
    if (LLVMCreateMCJITCompilerForModule(&ee, m, &opt, sizeof opt, &msg)) {
        snprintf(err, errcap, "MCJIT: %s", msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return -1;
    }
    for (unsigned i = 0; i < nd; i++)
        LLVMAddGlobalMapping(ee, decls[i], wlx_lookup(names[i]));
    uint64_t addr = LLVMGetFunctionAddress(ee, "wl.wave");
    if (!addr) {
        snprintf(err, errcap, "no @wl.wave");
        LLVMDisposeExecutionEngine(ee);
        return -1;
    }
    /* the LDS and scratch start undefined on the hardware: garbage here */
    memset(st->lds, 0xa5, sizeof st->lds);
    memset(st->priv, 0x5a, sizeof st->priv);
    wlx_s = st;
    pthread_barrier_init(&wlx_bar, NULL, st->W);
    pthread_t th[64];
    wlx_arg args[64];
    for (unsigned i = 0; i < st->W; i++) {
        /* each thread learns its lane before it runs */
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setstacksize(&at, 1 << 20);
        args[i].fn = addr;
        args[i].lane = i;
        pthread_create(&th[i], &at, wlx_thread, &args[i]);
        pthread_attr_destroy(&at);
    }
    for (unsigned i = 0; i < st->W; i++)
        pthread_join(th[i], NULL);
    pthread_barrier_destroy(&wlx_bar);
    LLVMDisposeExecutionEngine(ee);
    return 0;
}

#endif
