/* The lanes model on the CPU at any subgroup size (hostsim.h). */
#define _GNU_SOURCE
#include "hostsim.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/mman.h>
#include <ucontext.h>

#include <llvm-c/ExecutionEngine.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

/* What a call of an spv.* function does. */
enum op {
    OP_BUILTIN,
    OP_MEMBAR,
    OP_BARRIER_WG,
    OP_BARRIER_SG,
    OP_ELECT,
    OP_ANY,
    OP_ALL,
    OP_ALL_EQUAL,
    OP_BALLOT,
    OP_INVERSE_BALLOT,
    OP_BIT_COUNT,
    OP_BROADCAST_FIRST,
    OP_BROADCAST,
    OP_SHUFFLE,
    OP_SHUFFLE_XOR,
    OP_SHUFFLE_UP,
    OP_SHUFFLE_DOWN,
    OP_ARITH,
    OP_GLSL,
};

enum builtin { B_WG_ID, B_LOCAL_ID, B_GLOBAL_ID, B_NUM_WG, B_LOCAL_INDEX, B_SG_ID, B_NUM_SG, B_SG_SIZE, B_SG_LANE };
enum arith { A_IADD, A_FADD, A_IMUL, A_UMIN, A_UMAX, A_SMIN, A_SMAX, A_FMIN, A_FMAX, A_AND, A_OR, A_XOR };

/* a value's layout in the call buffer: lanes elements of bits each */
typedef struct tyinfo {
    unsigned bytes, lanes, bits;
    int flt;
} tyinfo;

typedef struct site {
    int op, sub;
    char name[80];
    tyinfo ret, arg[4];
    unsigned nargs;
} site;

#define ARG_STRIDE 16
#define RET_AT 64
#define BUF_BYTES 80
#define STACK_BYTES (1u << 20)

enum { RUN, WAIT, DONE };

typedef struct inv {
    ucontext_t ctx;
    uint8_t *stack;
    int state;
    uint32_t site;
    uint8_t *buf;
    unsigned flat, sg, lane;
    uint8_t *priv;
} inv;

typedef struct privvar {
    uint8_t *addr, *init;
    size_t size;
} privvar;

typedef struct sim {
    const wlt_hostsim_launch *L;
    site *sites;
    unsigned nsites, cap_sites;
    inv *inv;
    unsigned ninv, nsg, local_total;
    unsigned wg[3];
    ucontext_t sched;
    inv *cur;
    void (*entry)(void);
    privvar *pv;
    unsigned npv;
    size_t pv_bytes;
    uint8_t push[128];
    uint8_t *group;
    size_t group_bytes;
    char *err;
    size_t errcap;
    int failed;
    int reverse; /* resume a subgroup's invocations last to first */
} sim;

static void fail(sim *S, const char *fmt, ...)
{
    if (S->failed)
        return;
    S->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(S->err, S->errcap, fmt, ap);
    va_end(ap);
}

static int type_info(LLVMTypeRef t, tyinfo *ti)
{
    memset(ti, 0, sizeof *ti);
    LLVMTypeKind k = LLVMGetTypeKind(t);
    if (k == LLVMVoidTypeKind)
        return 0;
    unsigned lanes = 1;
    if (k == LLVMVectorTypeKind) {
        lanes = LLVMGetVectorSize(t);
        t = LLVMGetElementType(t);
        k = LLVMGetTypeKind(t);
    }
    if (k == LLVMIntegerTypeKind) {
        ti->bits = LLVMGetIntTypeWidth(t);
        if (ti->bits == 1 && lanes > 1)
            return -1; /* a vector of i1 is stored as packed bits */
    } else if (k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind || k == LLVMHalfTypeKind) {
        ti->bits = k == LLVMFloatTypeKind ? 32 : k == LLVMDoubleTypeKind ? 64 : 16;
        ti->flt = 1;
    } else
        return -1;
    if (ti->bits != 1 && ti->bits != 8 && ti->bits != 16 && ti->bits != 32 && ti->bits != 64)
        return -1;
    ti->lanes = lanes;
    ti->bytes = ti->bits == 1 ? 1 : ti->bits / 8 * lanes;
    return ti->bytes <= ARG_STRIDE ? 0 : -1;
}

/* ---- the names --------------------------------------------------------- */

static int prefixed(const char *n, const char *p)
{
    size_t l = strlen(p);
    return strncmp(n, p, l) == 0 && (n[l] == 0 || n[l] == '.');
}

static int classify(site *s)
{
    static const char *const bi[] = {"spv.workgroup_id",     "spv.local_invocation_id",   "spv.global_invocation_id",
                                     "spv.num_workgroups",   "spv.local_invocation_index", "spv.subgroup_id",
                                     "spv.num_subgroups",    "spv.subgroup_size",         "spv.subgroup_local_invocation_id"};
    for (int i = 0; i < 9; i++)
        if (!strcmp(s->name, bi[i]))
            return s->op = OP_BUILTIN, s->sub = i, 0;
    static const char *const ar[] = {"spv.subgroup.iadd", "spv.subgroup.fadd", "spv.subgroup.imul",
                                     "spv.subgroup.umin", "spv.subgroup.umax", "spv.subgroup.smin",
                                     "spv.subgroup.smax", "spv.subgroup.fmin", "spv.subgroup.fmax",
                                     "spv.subgroup.and",  "spv.subgroup.or",   "spv.subgroup.xor"};
    for (int i = 0; i < 12; i++)
        if (prefixed(s->name, ar[i]))
            return s->op = OP_ARITH, s->sub = i, 0;
    static const struct {
        const char *n;
        int op, sub;
    } t[] = {
        {"spv.barrier.workgroup", OP_BARRIER_WG, 0},
        {"spv.barrier.subgroup", OP_BARRIER_SG, 0},
        {"spv.memory_barrier.workgroup", OP_MEMBAR, 0},
        {"spv.memory_barrier.device", OP_MEMBAR, 0},
        {"spv.memory_barrier.subgroup", OP_MEMBAR, 0},
        {"spv.subgroup.elect", OP_ELECT, 0},
        {"spv.subgroup.any", OP_ANY, 0},
        {"spv.subgroup.all", OP_ALL, 0},
        {"spv.subgroup.all_equal", OP_ALL_EQUAL, 0},
        {"spv.subgroup.ballot", OP_BALLOT, 0},
        {"spv.subgroup.inverse_ballot", OP_INVERSE_BALLOT, 0},
        {"spv.subgroup.ballot_bit_count", OP_BIT_COUNT, 0},
        {"spv.subgroup.ballot_inclusive_count", OP_BIT_COUNT, 1},
        {"spv.subgroup.ballot_exclusive_count", OP_BIT_COUNT, 2},
        {"spv.subgroup.broadcast_first", OP_BROADCAST_FIRST, 0},
        {"spv.subgroup.broadcast", OP_BROADCAST, 0},
        {"spv.subgroup.shuffle", OP_SHUFFLE, 0},
        {"spv.subgroup.shuffle_xor", OP_SHUFFLE_XOR, 0},
        {"spv.subgroup.shuffle_up", OP_SHUFFLE_UP, 0},
        {"spv.subgroup.shuffle_down", OP_SHUFFLE_DOWN, 0},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (prefixed(s->name, t[i].n))
            return s->op = t[i].op, s->sub = t[i].sub, 0;
    if (!strncmp(s->name, "spv.glsl.", 9) || !strncmp(s->name, "spv.fma.host", 12))
        return s->op = OP_GLSL, 0;
    return -1;
}

/* ---- element access ------------------------------------------------------ */

static uint64_t get_u(const uint8_t *p, unsigned bits, unsigned i)
{
    switch (bits) {
    case 1:
        return p[0] & 1;
    case 8:
        return p[i];
    case 16: {
        uint16_t v;
        memcpy(&v, p + 2 * i, 2);
        return v;
    }
    case 32: {
        uint32_t v;
        memcpy(&v, p + 4 * i, 4);
        return v;
    }
    default: {
        uint64_t v;
        memcpy(&v, p + 8 * i, 8);
        return v;
    }
    }
}

static void put_u(uint8_t *p, unsigned bits, unsigned i, uint64_t v)
{
    switch (bits) {
    case 1:
        p[0] = (uint8_t)(v & 1);
        break;
    case 8:
        p[i] = (uint8_t)v;
        break;
    case 16: {
        uint16_t x = (uint16_t)v;
        memcpy(p + 2 * i, &x, 2);
        break;
    }
    case 32: {
        uint32_t x = (uint32_t)v;
        memcpy(p + 4 * i, &x, 4);
        break;
    }
    default:
        memcpy(p + 8 * i, &v, 8);
    }
}

static double get_f(const uint8_t *p, unsigned bits, unsigned i)
{
    if (bits == 32) {
        float f;
        memcpy(&f, p + 4 * i, 4);
        return f;
    }
    double d;
    memcpy(&d, p + 8 * i, 8);
    return d;
}

static void put_f(uint8_t *p, unsigned bits, unsigned i, double v)
{
    if (bits == 32) {
        float f = (float)v;
        memcpy(p + 4 * i, &f, 4);
    } else
        memcpy(p + 8 * i, &v, 8);
}

static int64_t sext(uint64_t v, unsigned bits)
{
    return bits >= 64 ? (int64_t)v : (int64_t)(v << (64 - bits)) >> (64 - bits);
}

static uint64_t mask_of(unsigned bits)
{
    return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

/* ---- builtins and GLSL.std.450 (no other invocation involved) ----------- */

static void builtin(sim *S, const site *s, inv *v)
{
    const wlt_hostsim_launch *L = S->L;
    unsigned d = s->nargs ? (unsigned)get_u(v->buf, 32, 0) : 0;
    unsigned lid[3] = {v->flat % L->local[0], v->flat / L->local[0] % L->local[1],
                       v->flat / (L->local[0] * L->local[1])};
    uint32_t r = 0;
    if (d > 2) {
        fail(S, "%s: dimension %u", s->name, d);
        d = 0;
    }
    switch (s->sub) {
    case B_WG_ID: r = S->wg[d]; break;
    case B_LOCAL_ID: r = lid[d]; break;
    case B_GLOBAL_ID: r = S->wg[d] * L->local[d] + lid[d]; break;
    case B_NUM_WG: r = L->groups[d]; break;
    case B_LOCAL_INDEX: r = v->flat; break;
    case B_SG_ID: r = v->sg; break;
    case B_NUM_SG: r = S->nsg; break;
    case B_SG_SIZE: r = L->subgroup; break;
    default: r = v->lane; break;
    }
    put_u(v->buf + RET_AT, 32, 0, r);
}

/* the one-operand float instruction n of a into *r: 1, or 0 where n is none
 * the simulator knows */
static int glsl1(const char *n, double a, int f32, double *r)
{
    if (!strcmp(n, "FAbs"))
        *r = fabs(a);
    else if (!strcmp(n, "Floor"))
        *r = floor(a);
    else if (!strcmp(n, "Ceil"))
        *r = ceil(a);
    else if (!strcmp(n, "Trunc"))
        *r = trunc(a);
    else if (!strcmp(n, "RoundEven"))
        *r = nearbyint(a);
    else if (!strcmp(n, "Sqrt"))
        *r = f32 ? sqrtf((float)a) : sqrt(a);
    else
        return 0;
    return 1;
}

static void glsl(sim *S, const site *s, inv *v)
{
    const char *n = s->name + (s->name[4] == 'f' ? 4 : 9); /* "fma.host...": Fma */
    char nm[32];
    size_t l = 0;
    if (s->name[4] == 'f')
        snprintf(nm, sizeof nm, "Fma");
    else {
        while (n[l] && n[l] != '.' && l < sizeof nm - 1)
            l++;
        memcpy(nm, n, l);
        nm[l] = 0;
    }
    const tyinfo *t = &s->ret;
    for (unsigned i = 0; i < t->lanes; i++) {
        const uint8_t *a = v->buf, *b = v->buf + ARG_STRIDE, *c = v->buf + 2 * ARG_STRIDE;
        if (t->flt) {
            if (t->bits != 32 && t->bits != 64) {
                fail(S, "%s: half floats not simulated", s->name);
                return;
            }
            int f32 = t->bits == 32;
            double x = get_f(a, t->bits, i), r;
            if (!strcmp(nm, "Fma"))
                r = f32 ? fmaf((float)x, (float)get_f(b, 32, i), (float)get_f(c, 32, i))
                        : fma(x, get_f(b, 64, i), get_f(c, 64, i));
            else if (!strcmp(nm, "FMin") || !strcmp(nm, "NMin"))
                r = fmin(x, get_f(b, t->bits, i));
            else if (!strcmp(nm, "FMax") || !strcmp(nm, "NMax"))
                r = fmax(x, get_f(b, t->bits, i));
            else if (!strcmp(nm, "FClamp") || !strcmp(nm, "NClamp"))
                r = fmin(fmax(x, get_f(b, t->bits, i)), get_f(c, t->bits, i));
            else if (!glsl1(nm, x, f32, &r)) {
                fail(S, "%s: GLSL.std.450 %s not simulated", s->name, nm);
                return;
            }
            put_f(v->buf + RET_AT, t->bits, i, r);
        } else {
            uint64_t x = get_u(a, t->bits, i), y = s->nargs > 1 ? get_u(b, t->bits, i) : 0, r;
            int64_t sx = sext(x, t->bits), sy = sext(y, t->bits);
            if (!strcmp(nm, "UMin"))
                r = x < y ? x : y;
            else if (!strcmp(nm, "UMax"))
                r = x > y ? x : y;
            else if (!strcmp(nm, "SMin"))
                r = (uint64_t)(sx < sy ? sx : sy);
            else if (!strcmp(nm, "SMax"))
                r = (uint64_t)(sx > sy ? sx : sy);
            else if (!strcmp(nm, "SAbs"))
                r = (uint64_t)(sx < 0 ? -sx : sx);
            else {
                fail(S, "%s: GLSL.std.450 %s not simulated", s->name, nm);
                return;
            }
            put_u(v->buf + RET_AT, t->bits, i, r & mask_of(t->bits));
        }
    }
}

/* ---- the call every spv.* call became ------------------------------------ */

static void sim_call(sim *S, uint32_t id, uint8_t *buf)
{
    inv *v = S->cur;
    const site *s = &S->sites[id];
    v->buf = buf;
    if (s->op == OP_BUILTIN) {
        builtin(S, s, v);
        return;
    }
    if (s->op == OP_GLSL) {
        glsl(S, s, v);
        return;
    }
    if (s->op == OP_MEMBAR)
        return;
    v->site = id;
    v->state = WAIT;
    swapcontext(&v->ctx, &S->sched);
}

static void trampoline(unsigned lo, unsigned hi)
{
    sim *S = (sim *)(uintptr_t)(((uint64_t)hi << 32) | lo);
    S->entry();
    S->cur->state = DONE;
}

static void resume(sim *S, inv *v)
{
    for (unsigned i = 0; i < S->npv; i++)
        memcpy(S->pv[i].addr, v->priv + (S->pv[i].init - S->pv[0].init), S->pv[i].size);
    S->cur = v;
    v->state = RUN;
    swapcontext(&S->sched, &v->ctx);
    for (unsigned i = 0; i < S->npv; i++)
        memcpy(v->priv + (S->pv[i].init - S->pv[0].init), S->pv[i].addr, S->pv[i].size);
}

/* ---- subgroup operations over the waiting invocations ------------------- */

/* the waiting invocation of subgroup g at lane l, or NULL */
static inv *at_lane(sim *S, unsigned g, unsigned l)
{
    unsigned f = g * S->L->subgroup + l;
    if (l >= S->L->subgroup || f >= S->local_total)
        return NULL;
    inv *v = &S->inv[f];
    return v->state == WAIT ? v : NULL;
}

static double as_double(uint64_t v, unsigned bits)
{
    if (bits == 32) {
        float f;
        uint32_t u = (uint32_t)v;
        memcpy(&f, &u, 4);
        return f;
    }
    double d;
    memcpy(&d, &v, 8);
    return d;
}

static uint64_t of_double(double d, unsigned bits)
{
    uint64_t o = 0;
    if (bits == 32) {
        float f = (float)d;
        uint32_t u;
        memcpy(&u, &f, 4);
        return u;
    }
    memcpy(&o, &d, 8);
    return o;
}

static uint64_t arith(int op, uint64_t a, uint64_t b, unsigned bits, int flt)
{
    if (flt) {
        double x = as_double(a, bits), y = as_double(b, bits);
        if (op == A_FADD)
            return bits == 32 ? of_double((double)((float)x + (float)y), 32) : of_double(x + y, 64);
        return of_double(op == A_FMIN ? fmin(x, y) : fmax(x, y), bits);
    }
    int64_t sa = sext(a, bits), sb = sext(b, bits);
    uint64_t r;
    switch (op) {
    case A_IADD: r = a + b; break;
    case A_IMUL: r = a * b; break;
    case A_UMIN: r = a < b ? a : b; break;
    case A_UMAX: r = a > b ? a : b; break;
    case A_SMIN: r = (uint64_t)(sa < sb ? sa : sb); break;
    case A_SMAX: r = (uint64_t)(sa > sb ? sa : sb); break;
    case A_AND: r = a & b; break;
    case A_OR: r = a | b; break;
    default: r = a ^ b; break;
    }
    return r & mask_of(bits);
}

static uint64_t identity(int op, unsigned bits, int flt)
{
    if (flt)
        return op == A_FADD ? of_double(-0.0, bits) : of_double(op == A_FMIN ? INFINITY : -INFINITY, bits);
    switch (op) {
    case A_IMUL: return 1;
    case A_UMIN: case A_AND: return mask_of(bits);
    case A_SMIN: return mask_of(bits) >> 1;
    case A_SMAX: return (mask_of(bits) >> 1) + 1;
    default: return 0;
    }
}

static void group_op(sim *S, unsigned g, const site *s)
{
    unsigned n = S->L->subgroup;
    inv *first = NULL;
    for (unsigned l = 0; l < n && !first; l++)
        first = at_lane(S, g, l);
    const tyinfo *a0 = &s->arg[0];
    uint32_t ballot[4] = {0};
    int any = 0, all = 1, eq = 1;
    for (unsigned l = 0; l < n; l++) {
        inv *v = at_lane(S, g, l);
        if (!v)
            continue;
        if (s->op == OP_BALLOT || s->op == OP_ANY || s->op == OP_ALL) {
            int b = v->buf[0] & 1;
            if (b && l < 128)
                ballot[l / 32] |= 1u << (l % 32);
            any |= b;
            all &= b;
        }
        if (s->op == OP_ALL_EQUAL && memcmp(v->buf, first->buf, a0->bytes))
            eq = 0;
    }
    if (s->op == OP_ARITH) {
        unsigned gop = (unsigned)get_u(first->buf + ARG_STRIDE, 32, 0);
        const tyinfo *t = &s->ret;
        for (unsigned e = 0; e < t->lanes; e++) {
            uint64_t acc = identity(s->sub, t->bits, t->flt);
            for (unsigned l = 0; l < n; l++) {
                inv *v = at_lane(S, g, l);
                if (!v)
                    continue;
                uint64_t incl = arith(s->sub, acc, get_u(v->buf, t->bits, e), t->bits, t->flt);
                uint64_t out = gop == 2 ? acc : incl;
                acc = incl;
                put_u(v->buf + RET_AT, t->bits, e, out);
            }
            if (gop == 0)
                for (unsigned l = 0; l < n; l++) {
                    inv *v = at_lane(S, g, l);
                    if (v)
                        put_u(v->buf + RET_AT, t->bits, e, acc);
                }
        }
        return;
    }
    /* every result goes to the buffer's RET_AT, after the arguments: a
     * lane read sees its source's arguments whatever order */
    for (unsigned l = 0; l < n; l++) {
        inv *v = at_lane(S, g, l);
        if (!v)
            continue;
        uint8_t *r = v->buf + RET_AT;
        uint32_t x = (uint32_t)get_u(v->buf + ARG_STRIDE, 32, 0), from = l;
        switch (s->op) {
        case OP_BARRIER_SG: break;
        case OP_ELECT: r[0] = v == first; break;
        case OP_ANY: r[0] = (uint8_t)any; break;
        case OP_ALL: r[0] = (uint8_t)all; break;
        case OP_ALL_EQUAL: r[0] = (uint8_t)eq; break;
        case OP_BALLOT: memcpy(r, ballot, 16); break;
        case OP_INVERSE_BALLOT: {
            uint32_t w = (uint32_t)get_u(v->buf, 32, l / 32);
            r[0] = (uint8_t)(w >> (l % 32) & 1);
            break;
        }
        case OP_BIT_COUNT: {
            unsigned c = 0;
            for (unsigned b = 0; b < n && b < 128; b++) {
                int in = s->sub == 0 || (s->sub == 1 ? b <= l : b < l);
                if (in && (get_u(v->buf, 32, b / 32) >> (b % 32) & 1))
                    c++;
            }
            put_u(r, 32, 0, c);
            break;
        }
        default:
            from = s->op == OP_BROADCAST_FIRST ? (unsigned)(first - &S->inv[g * n])
                   : s->op == OP_BROADCAST || s->op == OP_SHUFFLE ? x
                   : s->op == OP_SHUFFLE_XOR                      ? l ^ x
                   : s->op == OP_SHUFFLE_UP                       ? l - x
                                                                  : l + x;
            if (!at_lane(S, g, from)) {
                fail(S, "%s (call %u): invocation %u of subgroup %u reads invocation %u, which is %s "
                        "(work-group %u %u %u)",
                     s->name, (unsigned)(s - S->sites), l, g, from,
                     from >= n ? "outside the subgroup" : "not active", S->wg[0], S->wg[1], S->wg[2]);
                return;
            }
            memcpy(r, at_lane(S, g, from)->buf, s->ret.bytes);
        }
    }
}

/* ---- a work-group -------------------------------------------------------- */

/* v at the start of @main, returning to the scheduler */
static __attribute__((noinline)) void start(sim *S, inv *v)
{
    getcontext(&v->ctx);
    v->ctx.uc_stack.ss_sp = v->stack;
    v->ctx.uc_stack.ss_size = STACK_BYTES;
    v->ctx.uc_link = &S->sched;
    makecontext(&v->ctx, (void (*)(void))trampoline, 2, (unsigned)(uintptr_t)S,
                (unsigned)((uint64_t)(uintptr_t)S >> 32));
}

static int run_group(sim *S)
{
    const unsigned n = S->L->subgroup;
    for (unsigned i = 0; i < S->local_total; i++) {
        inv *v = &S->inv[i];
        start(S, v);
        v->state = RUN;
        for (unsigned p = 0; p < S->npv; p++)
            memcpy(v->priv + (S->pv[p].init - S->pv[0].init), S->pv[p].init, S->pv[p].size);
    }
    memset(S->group, getenv("WLT_SIM_LDS0") ? 0 : 0xa5, S->group_bytes); /* LDS starts undefined */
    for (;;) {
        for (unsigned g = 0; g < S->nsg; g++) {
            for (;;) {
                for (unsigned i = 0; i < n; i++) {
                    unsigned l = S->reverse ? n - 1 - i : i;
                    if (g * n + l < S->local_total && S->inv[g * n + l].state == RUN) {
                        resume(S, &S->inv[g * n + l]);
                        if (S->failed)
                            return -1;
                    }
                }
                inv *w = NULL;
                for (unsigned l = 0; l < n && !w; l++)
                    w = at_lane(S, g, l);
                if (!w)
                    break; /* done */
                for (unsigned l = 0; l < n; l++) {
                    inv *v = at_lane(S, g, l);
                    if (v && v->site != w->site) {
                        fail(S, "divergent subgroup operations: invocation %u of subgroup %u at call %u (%s), "
                                "invocation %u at call %u (%s) (work-group %u %u %u)",
                             (unsigned)(w - &S->inv[g * n]), g, w->site, S->sites[w->site].name, l, v->site,
                             S->sites[v->site].name, S->wg[0], S->wg[1], S->wg[2]);
                        return -1;
                    }
                }
                if (S->sites[w->site].op == OP_BARRIER_WG)
                    break;
                group_op(S, g, &S->sites[w->site]);
                if (S->failed)
                    return -1;
                if (getenv("WLT_SIM_TRACE") && g == 0 && !S->wg[0]) {
                    fprintf(stderr, "call %u %s:", w->site, S->sites[w->site].name);
                    for (unsigned l = 0; l < n; l++) {
                        inv *v = at_lane(S, g, l);
                        if (v)
                            fprintf(stderr, " %x>%x", (unsigned)get_u(v->buf, 32, 0),
                                    (unsigned)get_u(v->buf + RET_AT, 32, 0));
                    }
                    fprintf(stderr, "\n");
                }
                for (unsigned l = 0; l < n; l++) {
                    inv *v = at_lane(S, g, l);
                    if (v)
                        v->state = RUN;
                }
            }
        }
        unsigned done = 0, waiting = 0;
        uint32_t bsite = UINT32_MAX;
        for (unsigned i = 0; i < S->local_total; i++) {
            if (S->inv[i].state == DONE)
                done++;
            else {
                waiting++;
                if (bsite != UINT32_MAX && S->inv[i].site != bsite) {
                    fail(S, "work-group barrier: invocations at calls %u and %u", bsite, S->inv[i].site);
                    return -1;
                }
                bsite = S->inv[i].site;
            }
        }
        if (!waiting)
            return 0;
        if (done) {
            fail(S, "work-group barrier (call %u) not reached by %u invocations that returned (work-group %u %u %u)",
                 bsite, done, S->wg[0], S->wg[1], S->wg[2]);
            return -1;
        }
        for (unsigned i = 0; i < S->local_total; i++)
            S->inv[i].state = RUN;
    }
}

/* ---- the module ---------------------------------------------------------- */

static int add_site(sim *S, const char *name, LLVMValueRef call)
{
    if (S->nsites == S->cap_sites) {
        S->cap_sites = S->cap_sites ? 2 * S->cap_sites : 256;
        site *ns = realloc(S->sites, S->cap_sites * sizeof *ns);
        if (!ns)
            return -1;
        S->sites = ns;
    }
    site *s = &S->sites[S->nsites];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    if (classify(s)) {
        fail(S, "%s: not simulated", name);
        return -1;
    }
    s->nargs = (unsigned)LLVMGetNumArgOperands(call);
    if (s->nargs > 4 || type_info(LLVMTypeOf(call), &s->ret)) {
        fail(S, "%s: a call the simulator cannot pass", name);
        return -1;
    }
    for (unsigned i = 0; i < s->nargs; i++)
        if (type_info(LLVMTypeOf(LLVMGetOperand(call, i)), &s->arg[i])) {
            fail(S, "%s: argument %u: a type the simulator cannot pass", name, i);
            return -1;
        }
    return (int)S->nsites++;
}

/* every spv.* call: spv.construct as insertelements, the others through
 * the buffer to @wl.sim.call(sim, site, buffer) */
static int rewrite(sim *S, LLVMModuleRef m)
{
    LLVMContextRef c = LLVMGetModuleContext(m);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c), i64 = LLVMInt64TypeInContext(c), ptr = LLVMPointerTypeInContext(c, 0);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(c), bufty = LLVMArrayType2(i8, BUF_BYTES);
    LLVMTypeRef cargs[3] = {ptr, i32, ptr};
    LLVMTypeRef cty = LLVMFunctionType(LLVMVoidTypeInContext(c), cargs, 3, 0);
    LLVMValueRef simcall = LLVMAddFunction(m, "wl.sim.call", cty);
    LLVMValueRef self = LLVMConstIntToPtr(LLVMConstInt(i64, (uint64_t)(uintptr_t)S, 0), ptr);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
    int rc = 0;
    LLVMValueRef fns[512];
    unsigned nf = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        size_t len;
        const char *n = LLVMGetValueName2(f, &len);
        if (LLVMIsDeclaration(f) && !strncmp(n, "spv.", 4) && nf < 512)
            fns[nf++] = f;
    }
    /* one call buffer a function, made on first use */
    LLVMValueRef owner[256] = {0}, bufs[256] = {0};
    unsigned nown = 0;
    for (unsigned k = 0; k < nf && !rc; k++) {
        size_t len;
        const char *n = LLVMGetValueName2(fns[k], &len);
        int construct = !strncmp(n, "spv.construct", 13);
        LLVMValueRef calls[4096];
        unsigned nc = 0;
        for (LLVMUseRef u = LLVMGetFirstUse(fns[k]); u; u = LLVMGetNextUse(u)) {
            LLVMValueRef call = LLVMGetUser(u);
            if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != fns[k] || nc == 4096) {
                fail(S, "%s: used other than as a callee", n);
                rc = -1;
                break;
            }
            calls[nc++] = call;
        }
        for (unsigned i = 0; i < nc && !rc; i++) {
            LLVMValueRef call = calls[i];
            LLVMPositionBuilderBefore(b, call);
            unsigned na = (unsigned)LLVMGetNumArgOperands(call);
            LLVMValueRef r;
            if (construct) {
                r = LLVMGetUndef(LLVMTypeOf(call));
                for (unsigned a = 0; a < na; a++)
                    r = LLVMBuildInsertElement(b, r, LLVMGetOperand(call, a), LLVMConstInt(i32, a, 0), "");
            } else {
                int id = add_site(S, n, call);
                if (id < 0) {
                    rc = -1;
                    break;
                }
                LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)), buf = NULL;
                for (unsigned o = 0; o < nown; o++)
                    if (owner[o] == fn)
                        buf = bufs[o];
                if (!buf) {
                    if (nown == 256) {
                        fail(S, "more than 256 functions call spv.*");
                        rc = -1;
                        break;
                    }
                    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
                    LLVMBuilderRef eb = LLVMCreateBuilderInContext(c);
                    LLVMPositionBuilder(eb, entry, LLVMGetFirstInstruction(entry));
                    buf = LLVMBuildAlloca(eb, bufty, "sim.buf");
                    LLVMSetAlignment(buf, 16);
                    LLVMDisposeBuilder(eb);
                    owner[nown] = fn;
                    bufs[nown++] = buf;
                }
                for (unsigned a = 0; a < na; a++) {
                    LLVMValueRef off = LLVMConstInt(i64, a * ARG_STRIDE, 0);
                    LLVMValueRef p = LLVMBuildGEP2(b, i8, buf, &off, 1, "");
                    LLVMValueRef st = LLVMBuildStore(b, LLVMGetOperand(call, a), p);
                    LLVMSetAlignment(st, 1);
                }
                LLVMValueRef args[3] = {self, LLVMConstInt(i32, (unsigned)id, 0), buf};
                LLVMBuildCall2(b, cty, simcall, args, 3, "");
                r = NULL;
                if (S->sites[id].ret.bytes) {
                    LLVMValueRef off = LLVMConstInt(i64, RET_AT, 0);
                    LLVMValueRef p = LLVMBuildGEP2(b, i8, buf, &off, 1, "");
                    r = LLVMBuildLoad2(b, LLVMTypeOf(call), p, "");
                    LLVMSetAlignment(r, 1);
                }
            }
            if (r)
                LLVMReplaceAllUsesWith(call, r);
            LLVMInstructionEraseFromParent(call);
        }
        if (!rc)
            LLVMDeleteFunction(fns[k]);
    }
    LLVMDisposeBuilder(b);
    return rc;
}

int wlt_hostsim_run(LLVMModuleRef m, const wlt_hostsim_launch *L, char *err, size_t errcap)
{
    sim S0, *S = &S0;
    memset(S, 0, sizeof *S);
    S->L = L;
    S->reverse = getenv("WLT_SIM_REVERSE") != NULL;
    S->err = err;
    S->errcap = errcap;
    if (errcap)
        err[0] = 0;
    memcpy(S->push, L->push, sizeof S->push);
    S->local_total = L->local[0] * L->local[1] * L->local[2];
    if (!L->subgroup || !S->local_total || S->local_total > 1024 || L->subgroup > 128) {
        fail(S, "launch: subgroup %u, work-group of %u (at most 1024, subgroup at most 128)", L->subgroup,
             S->local_total);
        LLVMDisposeModule(m);
        return -1;
    }
    S->nsg = (S->local_total + L->subgroup - 1) / L->subgroup;
    LLVMExecutionEngineRef ee = NULL;
    int rc = -1;
    if (rewrite(S, m)) {
        LLVMDisposeModule(m);
        goto out;
    }
    /* the JIT finds its variables by name: internal ones made external */
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
        if (!LLVMIsDeclaration(g) &&
            (LLVMGetLinkage(g) == LLVMInternalLinkage || LLVMGetLinkage(g) == LLVMPrivateLinkage))
            LLVMSetLinkage(g, LLVMExternalLinkage);
    LLVMLinkInMCJIT();
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
    char *triple = LLVMGetDefaultTargetTriple(), *msg = NULL;
    LLVMTargetRef tgt;
    if (LLVMGetTargetFromTriple(triple, &tgt, &msg)) {
        fail(S, "no target for %s: %s", triple, msg ? msg : "?");
        LLVMDisposeMessage(msg);
        LLVMDisposeMessage(triple);
        LLVMDisposeModule(m);
        goto out;
    }
    LLVMTargetMachineRef tm =
        LLVMCreateTargetMachine(tgt, triple, "", "", LLVMCodeGenLevelLess, LLVMRelocDefault, LLVMCodeModelJITDefault);
    LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
    char *dl = LLVMCopyStringRepOfTargetData(td);
    LLVMSetDataLayout(m, dl);
    LLVMSetTarget(m, triple);
    LLVMDisposeMessage(dl);
    LLVMDisposeTargetData(td);
    LLVMDisposeTargetMachine(tm);
    LLVMDisposeMessage(triple);
    struct LLVMMCJITCompilerOptions opt;
    LLVMInitializeMCJITCompilerOptions(&opt, sizeof opt);
    opt.OptLevel = 1;
    if (LLVMCreateMCJITCompilerForModule(&ee, m, &opt, sizeof opt, &msg)) {
        fail(S, "MCJIT: %s", msg ? msg : "?");
        LLVMDisposeMessage(msg);
        ee = NULL;
        goto out;
    }
    /* the module's externals */
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
        size_t len;
        const char *n = LLVMGetValueName2(g, &len);
        if (!LLVMIsDeclaration(g))
            continue;
        static const char *const own[] = {"wl.status", "wl.pagetable", "wl.lds", "wl.state"};
        void *p = NULL;
        for (int i = 0; i < 4; i++)
            if (!strcmp(n, own[i]))
                p = L->binding[i];
        if (!strcmp(n, "wl.push"))
            p = S->push;
        if (!p) {
            fail(S, "@%s: an external the simulator does not provide", n);
            goto out;
        }
        LLVMAddGlobalMapping(ee, g, p);
    }
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        size_t len;
        const char *n = LLVMGetValueName2(f, &len);
        if (!LLVMIsDeclaration(f) || !strncmp(n, "llvm.", 5))
            continue;
        if (strcmp(n, "wl.sim.call")) {
            fail(S, "@%s: a function the simulator does not provide", n);
            goto out;
        }
        LLVMAddGlobalMapping(ee, f, (void *)(uintptr_t)sim_call);
    }
    S->entry = (void (*)(void))(uintptr_t)LLVMGetFunctionAddress(ee, "main");
    if (!S->entry) {
        fail(S, "no @main");
        goto out;
    }
    /* private variables: one copy an invocation; work-group memory */
    LLVMTargetDataRef etd = LLVMGetExecutionEngineTargetData(ee);
    unsigned npv = 0;
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
        npv++;
    S->pv = calloc(npv ? npv : 1, sizeof *S->pv);
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g && S->pv; g = LLVMGetNextGlobal(g)) {
        size_t len;
        const char *n = LLVMGetValueName2(g, &len);
        if (LLVMIsDeclaration(g) || LLVMIsGlobalConstant(g))
            continue;
        uint8_t *addr = (uint8_t *)(uintptr_t)LLVMGetGlobalValueAddress(ee, n);
        size_t size = (size_t)LLVMABISizeOfType(etd, LLVMGlobalGetValueType(g));
        if (!addr)
            continue;
        unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(g));
        if (as == 3) {
            if (S->group) {
                fail(S, "two work-group variables (@%s)", n);
                goto out;
            }
            S->group = addr;
            S->group_bytes = size;
            continue;
        }
        if (as != 0) {
            fail(S, "@%s: a variable in address space %u", n, as);
            goto out;
        }
        S->pv[S->npv++] = (privvar){addr, NULL, size};
        S->pv_bytes += size;
    }
    uint8_t *init = S->pv_bytes ? malloc(S->pv_bytes) : NULL;
    for (unsigned i = 0, o = 0; i < S->npv; o += (unsigned)S->pv[i].size, i++) {
        S->pv[i].init = init + o;
        memcpy(S->pv[i].init, S->pv[i].addr, S->pv[i].size);
    }
    S->inv = calloc(S->local_total, sizeof *S->inv);
    if (!S->inv || (S->pv_bytes && !init)) {
        fail(S, "out of memory");
        free(init);
        goto out;
    }
    for (unsigned i = 0; i < S->local_total; i++) {
        inv *v = &S->inv[i];
        v->flat = i;
        v->sg = i / L->subgroup;
        v->lane = i % L->subgroup;
        v->stack = mmap(NULL, STACK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        v->priv = S->pv_bytes ? malloc(S->pv_bytes) : NULL;
        if (v->stack == MAP_FAILED || (S->pv_bytes && !v->priv)) {
            v->stack = NULL;
            fail(S, "out of memory");
            break;
        }
    }
    uint8_t dummy_group[16];
    if (!S->group)
        S->group = dummy_group, S->group_bytes = 0;
    unsigned ran = 0;
    rc = 0;
    for (unsigned z = 0; z < L->groups[2] && !rc && !S->failed; z++)
        for (unsigned y = 0; y < L->groups[1] && !rc; y++)
            for (unsigned x = 0; x < L->groups[0] && !rc; x++) {
                if (L->max_groups && ran == L->max_groups)
                    break;
                S->wg[0] = x, S->wg[1] = y, S->wg[2] = z;
                rc = run_group(S);
                ran++;
            }
    if (S->failed)
        rc = -1;
    for (unsigned i = 0; i < S->local_total; i++) {
        if (S->inv[i].stack)
            munmap(S->inv[i].stack, STACK_BYTES);
        free(S->inv[i].priv);
    }
    free(init);
out:
    free(S->inv);
    free(S->pv);
    free(S->sites);
    if (ee)
        LLVMDisposeExecutionEngine(ee); /* and m */
    return rc;
}
