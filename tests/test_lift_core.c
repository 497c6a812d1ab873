/* The lifter's framework and scalar families (frontend/lift*.c,
 * ir/wave_ir.c).
 *
 * 1. Corpus: every kernel of WL_KERNEL_DIR/ *.co lifts to a module that
 *    passes wl_wir_verify (which runs LLVMVerifyModule), or is refused with
 *    "unsupported instruction <mnemonic> at offset 0x..": both counted, the
 *    refusals grouped by mnemonic.
 * 2. SALU semantics, executed: a program assembled by llvm-mc-19 (gfx1010,
 *    wave64: it has s_store_dword) applies ~130 scalar operations to inputs
 *    loaded with s_load_dwordx16 and stores each result, SCC and EXEC with
 *    s_store_dword*. It is lifted, verified, JIT-compiled by LLVM's MCJIT
 *    (the wl.* functions are C callbacks: @wl.sload.b32 reads an input
 *    array, @wl.sstore.b32 writes an output array) and run on chosen and
 *    random inputs; every value is compared with a C model written from the
 *    ISA manual's definitions (ref() below, independent of the lifter).
 *    The same module is run again after LLVM's default<O2> pipeline.
 * 3. Control flow and SMEM, executed: a loop (s_cbranch_scc1), every
 *    s_cbranch on vcc and exec, s_getpc_b64, s_buffer_load_dwordx4 with the
 *    V# range check.
 * 4. Refusals: indirect jumps, s_sendmsg, a mode change, ttmp registers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <time.h>

#include <cmocka.h>

#include <llvm-c/Core.h>
#include <llvm-c/ExecutionEngine.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "support.h"
#include "wlt_jit.h"
#include "ir/wave_ir.h"
#include "wavelift/codeobj.h"
#include "wavelift/lift.h"

/* ---------------------------------------------------------------- memory */

#define IN_ADDR 0x100000ull
#define OUT_ADDR 0x200000ull
#define CODE_ADDR 0x7000000ull
#define OUT_WORDS 8192

/* The callbacks' state (one run at a time). */
static struct {
    uint32_t in[64];
    uint32_t out[OUT_WORDS];
    unsigned bad_access, escapes;
    uint64_t clock;
} M;

static uint32_t cb_user_sgpr(uint32_t n)
{
    uint32_t v[4] = {(uint32_t)IN_ADDR, (uint32_t)(IN_ADDR >> 32), (uint32_t)OUT_ADDR,
                     (uint32_t)(OUT_ADDR >> 32)};
    return n < 4 ? v[n] : 0;
}
static uint32_t cb_zero32(uint32_t d) { (void)d; return 0; }
static uint32_t cb_zero0(void) { return 0; }
static uint64_t cb_launch_exec(void) { return ~0ull; }
static bool cb_lane_active(uint64_t exec) { return exec & 1; }
static uint64_t cb_memtime(void) { return ++M.clock; }
static void cb_barrier(void) {}
static void cb_escape(uint32_t kind, uint32_t off, bool active) { (void)kind; (void)off; M.escapes += active; }
static uint32_t cb_sload(uint64_t a)
{
    if (a >= IN_ADDR && a < IN_ADDR + sizeof M.in && !(a & 3))
        return M.in[(a - IN_ADDR) / 4];
    M.bad_access++;
    return 0xdeadbeef;
}
static void cb_sstore(uint64_t a, uint32_t v)
{
    if (a >= OUT_ADDR && a < OUT_ADDR + sizeof M.out && !(a & 3))
        M.out[(a - OUT_ADDR) / 4] = v;
    else
        M.bad_access++;
}

static const wlt_jit_cb callbacks[] = {
    {"wl.user_sgpr", (void *)cb_user_sgpr},   {"wl.workgroup_id", (void *)cb_zero32},
    {"wl.thread_id", (void *)cb_zero32},      {"wl.wave_id", (void *)cb_zero0},
    {"wl.scratch_wave_offset", (void *)cb_zero0}, {"wl.launch_exec", (void *)cb_launch_exec},
    {"wl.lane_active", (void *)cb_lane_active}, {"wl.memtime", (void *)cb_memtime},
    {"wl.barrier", (void *)cb_barrier},       {"wl.escape", (void *)cb_escape},
    {"wl.sload.b32", (void *)cb_sload},       {"wl.sstore.b32", (void *)cb_sstore},
};

/* ------------------------------------------------------------- assembly */

/* Assembles `text` (support.c: llvm-mc-19, .text) */
static uint8_t *assemble(const char *mcpu, unsigned wave, const char *text, size_t *size)
{
    uint8_t *b = wlt_assemble(text, mcpu, wave, size, NULL);
    assert_non_null(b);
    return b;
}

static void prog_init(wl_lift_program *p, const uint8_t *code, size_t size, wl_target t, unsigned wave)
{
    memset(p, 0, sizeof *p);
    p->code = code;
    p->size = size;
    p->address = CODE_ADDR;
    p->target = t;
    p->wave_size = wave;
    p->user_sgpr_count = 4;
    p->enable_workgroup_id[0] = 1;
    p->vgpr_workitem_ids = 1;
}

/* Lifts, verifies, optionally optimizes, JIT-compiles. */
typedef struct jit {
    LLVMContextRef ctx;
    LLVMExecutionEngineRef ee;
    void (*fn)(void);
} jit;

static void jit_make(jit *j, const wl_lift_program *p, int o2)
{
    char err[1024];
    LLVMModuleRef m;
    j->ctx = LLVMContextCreate();
    wl_status st = wl_lift(j->ctx, p, &m, err, sizeof err);
    if (st != WL_OK)
        fprintf(stderr, "lift: %s\n", err);
    assert_int_equal(st, WL_OK);
    st = wl_wir_verify(m, err, sizeof err);
    if (st != WL_OK)
        fprintf(stderr, "verify: %s\n", err);
    assert_int_equal(st, WL_OK);
    j->fn = wlt_jit_compile(m, o2, callbacks, sizeof callbacks / sizeof callbacks[0], WL_WIR_FUNCTION, &j->ee);
}

static void jit_free(jit *j)
{
    LLVMDisposeExecutionEngine(j->ee);
    LLVMContextDispose(j->ctx);
}

/* ------------------------------------------------- SALU reference model */

/* Inputs (s_load_dwordx16 s[4:19]): A = s[4:5], B = s[6:7], C = s8 (SCC in:
 * C != 0), F = s9 (a 32-bit bfe operand), D = s[10:11] (the destination's
 * old value), E = s[12:13] (EXEC), M = s14 (0 or 1, m0), G = s15 (a 64-bit
 * bfe operand). Outputs per case (8 dwords): dst s[20:21], SCC, -, EXEC. */
typedef struct st {
    uint64_t a, b, d, e;
    uint32_t f, g, m;
    int scc;
} st;

typedef struct res {
    uint64_t dst;
    int scc;
    uint64_t exec;
} res;

typedef void (*ref_fn)(const st *s, res *r);

static uint32_t lo(uint64_t v) { return (uint32_t)v; }
static uint64_t set_lo(uint64_t d, uint32_t v) { return (d & 0xffffffff00000000ull) | v; }
static int popc64(uint64_t v) { int n = 0; while (v) { n += (int)(v & 1); v >>= 1; } return n; }

#define R32(name, expr, sccexpr)                                                     \
    static void name(const st *s, res *r)                                            \
    {                                                                                \
        uint32_t a = lo(s->a), b = lo(s->b);                                         \
        (void)a; (void)b;                                                            \
        uint32_t v = (uint32_t)(expr);                                               \
        r->dst = set_lo(s->d, v);                                                    \
        r->scc = (sccexpr);                                                          \
    }
#define R64(name, expr, sccexpr)                                                     \
    static void name(const st *s, res *r)                                            \
    {                                                                                \
        uint64_t a = s->a, b = s->b;                                                 \
        (void)a; (void)b;                                                            \
        uint64_t v = (expr);                                                         \
        r->dst = v;                                                                  \
        r->scc = (sccexpr);                                                          \
    }
#define SCC (s->scc)
#define NZ (v != 0)

R32(r_add_u32, a + b, (uint64_t)a + b > 0xffffffffu)
R32(r_sub_u32, a - b, b > a)
R32(r_add_i32, a + b, ((int64_t)(int32_t)a + (int32_t)b) != (int32_t)(a + b))
R32(r_sub_i32, a - b, ((int64_t)(int32_t)a - (int32_t)b) != (int32_t)(a - b))
R32(r_addc_u32, a + b + (uint32_t)SCC, (uint64_t)a + b + (uint64_t)SCC > 0xffffffffu)
R32(r_subb_u32, a - b - (uint32_t)SCC, (uint64_t)b + (uint64_t)SCC > a)
R32(r_min_i32, (int32_t)a < (int32_t)b ? a : b, (int32_t)a < (int32_t)b)
R32(r_min_u32, a < b ? a : b, a < b)
R32(r_max_i32, (int32_t)a > (int32_t)b ? a : b, (int32_t)a > (int32_t)b)
R32(r_max_u32, a > b ? a : b, a > b)
R32(r_cselect_b32, SCC ? a : b, SCC)
R64(r_cselect_b64, SCC ? a : b, SCC)
R32(r_and_b32, a & b, NZ) R64(r_and_b64, a & b, NZ)
R32(r_or_b32, a | b, NZ) R64(r_or_b64, a | b, NZ)
R32(r_xor_b32, a ^ b, NZ) R64(r_xor_b64, a ^ b, NZ)
R32(r_andn2_b32, a & ~b, NZ) R64(r_andn2_b64, a & ~b, NZ)
R32(r_orn2_b32, a | ~b, NZ) R64(r_orn2_b64, a | ~b, NZ)
R32(r_nand_b32, ~(a & b), NZ) R64(r_nand_b64, ~(a & b), NZ)
R32(r_nor_b32, ~(a | b), NZ) R64(r_nor_b64, ~(a | b), NZ)
R32(r_xnor_b32, ~(a ^ b), NZ) R64(r_xnor_b64, ~(a ^ b), NZ)
R32(r_lshl_b32, a << (b & 31), NZ) R64(r_lshl_b64, a << (b & 63), NZ)
R32(r_lshr_b32, a >> (b & 31), NZ) R64(r_lshr_b64, a >> (b & 63), NZ)
R32(r_ashr_i32, (uint32_t)((int32_t)a >> (b & 31)), NZ)
R64(r_ashr_i64, (uint64_t)((int64_t)a >> (b & 63)), NZ)
R32(r_bfm_b32, ((1ull << (a & 31)) - 1) << (b & 31), SCC)
R64(r_bfm_b64, ((a & 63) ? ((1ull << (a & 63)) - 1) : 0) << (b & 63), SCC)
R32(r_mul_i32, a * b, SCC)
/* RDNA2 ISA: D.i = S0.i - S1.i; if (D.i < 0) D.i = -D.i (32-bit). Its
 * examples: (0x80000000, 1) -> 0x7fffffff, (0x80000000, 0) -> 0x80000000. */
R32(r_absdiff_i32, (int32_t)(a - b) < 0 ? 0u - (a - b) : a - b, NZ)
R32(r_lshl1_add, (a << 1) + b, ((uint64_t)a << 1) + b > 0xffffffffu)
R32(r_lshl2_add, (a << 2) + b, ((uint64_t)a << 2) + b > 0xffffffffu)
R32(r_lshl3_add, (a << 3) + b, ((uint64_t)a << 3) + b > 0xffffffffu)
R32(r_lshl4_add, (a << 4) + b, ((uint64_t)a << 4) + b > 0xffffffffu)
R32(r_pack_ll, (a & 0xffff) | (b << 16), SCC)
R32(r_pack_lh, (a & 0xffff) | (b & 0xffff0000u), SCC)
R32(r_pack_hh, (a >> 16) | (b & 0xffff0000u), SCC)
R32(r_mul_hi_u32, ((uint64_t)a * b) >> 32, SCC)
R32(r_mul_hi_i32, (uint64_t)((int64_t)(int32_t)a * (int32_t)b) >> 32, SCC)
/* SOPK with the immediates the program uses */
R32(r_movk, 0xffff8001u, SCC)
R32(r_cmovk, SCC ? 0x7fffu : lo(s->d), SCC)
R32(r_cmpk_eq_i32, lo(s->d), a == 0xfffffff0u)
R32(r_cmpk_lt_i32, lo(s->d), (int32_t)a < -16)
R32(r_cmpk_ge_u32, lo(s->d), a >= 0xfff0u)
R32(r_cmpk_lg_u32, lo(s->d), a != 0x8000u)
R32(r_addk, lo(s->d) + 0xffff8123u, ((int64_t)(int32_t)lo(s->d) + (int32_t)0xffff8123u) != (int32_t)(lo(s->d) + 0xffff8123u))
R32(r_mulk, lo(s->d) * 0x1234u, SCC)
/* SOP1 */
R32(r_mov_b32, a, SCC) R64(r_mov_b64, a, SCC)
R32(r_cmov_b32, SCC ? a : lo(s->d), SCC) R64(r_cmov_b64, SCC ? a : s->d, SCC)
R32(r_not_b32, ~a, NZ) R64(r_not_b64, ~a, NZ)
static uint64_t wqm_ref(uint64_t a, int n)
{
    uint64_t r = 0;
    for (int i = 0; i < n; i += 4)
        if ((a >> i) & 0xf)
            r |= 0xfull << i;
    return r;
}
static uint64_t brev_ref(uint64_t a, int n)
{
    uint64_t r = 0;
    for (int i = 0; i < n; i++)
        if ((a >> i) & 1)
            r |= 1ull << (n - 1 - i);
    return r;
}
static uint32_t ff_ref(uint64_t a, int n, int one)
{
    for (int i = 0; i < n; i++)
        if ((int)((a >> i) & 1) == one)
            return (uint32_t)i;
    return 0xffffffffu;
}
static uint32_t flbit_ref(uint64_t a, int n)
{
    for (int i = n - 1; i >= 0; i--)
        if ((a >> i) & 1)
            return (uint32_t)(n - 1 - i);
    return 0xffffffffu;
}
static uint32_t flbit_i_ref(uint64_t a, int n)
{
    int sign = (int)((a >> (n - 1)) & 1);
    for (int i = n - 2; i >= 0; i--)
        if ((int)((a >> i) & 1) != sign)
            return (uint32_t)(n - 1 - i);
    return 0xffffffffu;
}
static uint64_t quad_ref(uint64_t a, int n)
{
    uint64_t r = 0;
    for (int i = 0; i < n / 4; i++)
        if ((a >> (4 * i)) & 0xf)
            r |= 1ull << i;
    return r;
}
R32(r_wqm_b32, wqm_ref(a, 32), NZ) R64(r_wqm_b64, wqm_ref(a, 64), NZ)
R32(r_brev_b32, brev_ref(a, 32), SCC) R64(r_brev_b64, brev_ref(a, 64), SCC)
R32(r_bcnt0_b32, 32 - popc64(a), NZ) R32(r_bcnt0_b64, 64 - popc64(s->a), NZ)
R32(r_bcnt1_b32, popc64(a), NZ) R32(r_bcnt1_b64, popc64(s->a), NZ)
R32(r_ff0_b32, ff_ref(a, 32, 0), SCC) R32(r_ff0_b64, ff_ref(s->a, 64, 0), SCC)
R32(r_ff1_b32, ff_ref(a, 32, 1), SCC) R32(r_ff1_b64, ff_ref(s->a, 64, 1), SCC)
R32(r_flbit_b32, flbit_ref(a, 32), SCC) R32(r_flbit_b64, flbit_ref(s->a, 64), SCC)
R32(r_flbit_i32, flbit_i_ref(a, 32), SCC) R32(r_flbit_i64, flbit_i_ref(s->a, 64), SCC)
R32(r_sext8, (uint32_t)(int32_t)(int8_t)a, SCC) R32(r_sext16, (uint32_t)(int32_t)(int16_t)a, SCC)
R32(r_bitset0_b32, lo(s->d) & ~(1u << (a & 31)), SCC)
R32(r_bitset1_b32, lo(s->d) | (1u << (a & 31)), SCC)
R64(r_bitset0_b64, s->d & ~(1ull << (a & 63)), SCC)
R64(r_bitset1_b64, s->d | (1ull << (a & 63)), SCC)
R32(r_quad_b32, quad_ref(a, 32), NZ) R64(r_quad_b64, quad_ref(a, 64), NZ)
R32(r_abs, (int32_t)a < 0 ? (uint32_t)0 - a : a, NZ)
static void r_bitrepl(const st *s, res *r)
{
    uint64_t v = 0;
    for (int i = 0; i < 32; i++)
        if ((s->a >> i) & 1)
            v |= 3ull << (2 * i);
    r->dst = v;
}
static void r_movrels_b32(const st *s, res *r) { r->dst = set_lo(s->d, s->m ? (uint32_t)(s->a >> 32) : lo(s->a)); }
static void r_movrels_b64(const st *s, res *r) { r->dst = s->m ? s->b : s->a; }
static void r_movreld_b32(const st *s, res *r) { if (s->m) r->dst = set_lo(s->d, lo(s->b)); }
static void r_movreld_b64(const st *s, res *r) { if (s->m) r->dst = s->b; }
/* SOPC: dst untouched */
#define RC(name, cond) R32(name, lo(s->d), cond)
#define RC64(name, cond) R64(name, s->d, cond)
RC(r_cmp_eq_i32, a == b) RC(r_cmp_lg_i32, a != b)
RC(r_cmp_gt_i32, (int32_t)a > (int32_t)b) RC(r_cmp_ge_i32, (int32_t)a >= (int32_t)b)
RC(r_cmp_lt_i32, (int32_t)a < (int32_t)b) RC(r_cmp_le_i32, (int32_t)a <= (int32_t)b)
RC(r_cmp_gt_u32, a > b) RC(r_cmp_ge_u32, a >= b) RC(r_cmp_lt_u32, a < b) RC(r_cmp_le_u32, a <= b)
RC64(r_cmp_eq_u64, a == b) RC64(r_cmp_lg_u64, a != b)
RC(r_bitcmp0_b32, !((a >> (b & 31)) & 1)) RC(r_bitcmp1_b32, (a >> (b & 31)) & 1)
RC64(r_bitcmp0_b64, !((a >> (b & 63)) & 1)) RC64(r_bitcmp1_b64, (a >> (b & 63)) & 1)

/* s_bfe: offset S1[4:0] / [5:0], width S1[22:16] (the test keeps width <= size). */
static uint64_t bfe_ref(uint64_t v, uint32_t op, int n, int sgn)
{
    unsigned off = op & (unsigned)(n - 1), w = (op >> 16) & 0x7f;
    uint64_t x;
    if (sgn)
        x = n == 32 ? (uint64_t)(uint32_t)((int32_t)(uint32_t)v >> off) : (uint64_t)((int64_t)v >> off);
    else
        x = (n == 32 ? (uint32_t)v : v) >> off;
    if (w == 0)
        return 0;
    if ((int)w < n) {
        uint64_t mask = (1ull << w) - 1;
        x &= mask;
        if (sgn && ((x >> (w - 1)) & 1))
            x |= ~mask;
    }
    return n == 32 ? (uint32_t)x : x;
}
static void r_bfe_u32(const st *s, res *r) { uint32_t v = (uint32_t)bfe_ref(s->a, s->f, 32, 0); r->dst = set_lo(s->d, v); r->scc = v != 0; }
static void r_bfe_i32(const st *s, res *r) { uint32_t v = (uint32_t)bfe_ref(s->a, s->f, 32, 1); r->dst = set_lo(s->d, v); r->scc = v != 0; }
static void r_bfe_u64(const st *s, res *r) { uint64_t v = bfe_ref(s->a, s->g, 64, 0); r->dst = v; r->scc = v != 0; }
static void r_bfe_i64(const st *s, res *r) { uint64_t v = bfe_ref(s->a, s->g, 64, 1); r->dst = v; r->scc = v != 0; }

/* saveexec: D = old EXEC, EXEC = op(S0, EXEC), SCC = EXEC != 0;
 * wrexec: EXEC = op, D = new EXEC. b32 forms on exec_lo. */
static uint64_t lop(int op, uint64_t s, uint64_t e)
{
    switch (op) {
    case 0: return s & e;
    case 1: return s | e;
    case 2: return s ^ e;
    case 3: return s & ~e;
    case 4: return s | ~e;
    case 5: return ~(s & e);
    case 6: return ~(s | e);
    case 7: return ~(s ^ e);
    case 8: return ~s & e;
    default: return ~s | e;
    }
}
static void saveexec(const st *s, res *r, int op, int w64, int wr)
{
    uint64_t ex = w64 ? s->e : lo(s->e);
    uint64_t src = w64 ? s->a : lo(s->a);
    uint64_t n = lop(op, src, ex);
    if (!w64)
        n &= 0xffffffffu;
    uint64_t save = wr ? n : ex;
    r->dst = w64 ? save : set_lo(s->d, (uint32_t)save);
    r->exec = w64 ? n : ((s->e & 0xffffffff00000000ull) | n);
    r->scc = n != 0;
}
#define SX(name, op, w, wr) static void name(const st *s, res *r) { saveexec(s, r, op, w, wr); }
SX(r_and_sx64, 0, 1, 0) SX(r_or_sx64, 1, 1, 0) SX(r_xor_sx64, 2, 1, 0) SX(r_andn2_sx64, 3, 1, 0)
SX(r_orn2_sx64, 4, 1, 0) SX(r_nand_sx64, 5, 1, 0) SX(r_nor_sx64, 6, 1, 0) SX(r_xnor_sx64, 7, 1, 0)
SX(r_andn1_sx64, 8, 1, 0) SX(r_orn1_sx64, 9, 1, 0) SX(r_andn1_wr64, 8, 1, 1) SX(r_andn2_wr64, 3, 1, 1)
SX(r_and_sx32, 0, 0, 0) SX(r_or_sx32, 1, 0, 0) SX(r_xor_sx32, 2, 0, 0) SX(r_andn2_sx32, 3, 0, 0)
SX(r_orn2_sx32, 4, 0, 0) SX(r_nand_sx32, 5, 0, 0) SX(r_nor_sx32, 6, 0, 0) SX(r_xnor_sx32, 7, 0, 0)
SX(r_andn1_sx32, 8, 0, 0) SX(r_orn1_sx32, 9, 0, 0) SX(r_andn1_wr32, 8, 0, 1) SX(r_andn2_wr32, 3, 0, 1)

/* Constants: a literal in a 64-bit operand is zero-extended, sign-extended
 * in a signed one; inline integers are sign-extended; inline floats are
 * doubles in 64-bit operands. */
R64(r_lit_and64, a & 0x80000000ull, NZ)
R64(r_lit_ashr64, (uint64_t)((int64_t)-16 >> (b & 63)), NZ)
R64(r_inl_and64, a & ~1ull, NZ)
R64(r_inl_f64, 0x3ff0000000000000ull, SCC)
R32(r_inl_f32, 0x3f000000u, SCC)
R32(r_inl_add, a - 16, (uint64_t)a + 0xfffffff0u > 0xffffffffu)
R64(r_src_vcc, (s->e & 0xffffffffull) ^ a, NZ)

static void r_getreg_mode(const st *s, res *r) { (void)s; r->dst = set_lo(r->dst, 0xf0); }

typedef struct tcase {
    const char *text; /* the operation; %-free assembly, may be several lines */
    ref_fn ref;
    const char *fmt;  /* for the counts */
} tcase;

static const tcase cases[] = {
    {"s_add_u32 s20, s4, s6", r_add_u32, "SOP2"}, {"s_sub_u32 s20, s4, s6", r_sub_u32, "SOP2"},
    {"s_add_i32 s20, s4, s6", r_add_i32, "SOP2"}, {"s_sub_i32 s20, s4, s6", r_sub_i32, "SOP2"},
    {"s_addc_u32 s20, s4, s6", r_addc_u32, "SOP2"}, {"s_subb_u32 s20, s4, s6", r_subb_u32, "SOP2"},
    {"s_min_i32 s20, s4, s6", r_min_i32, "SOP2"}, {"s_min_u32 s20, s4, s6", r_min_u32, "SOP2"},
    {"s_max_i32 s20, s4, s6", r_max_i32, "SOP2"}, {"s_max_u32 s20, s4, s6", r_max_u32, "SOP2"},
    {"s_cselect_b32 s20, s4, s6", r_cselect_b32, "SOP2"},
    {"s_cselect_b64 s[20:21], s[4:5], s[6:7]", r_cselect_b64, "SOP2"},
    {"s_and_b32 s20, s4, s6", r_and_b32, "SOP2"}, {"s_and_b64 s[20:21], s[4:5], s[6:7]", r_and_b64, "SOP2"},
    {"s_or_b32 s20, s4, s6", r_or_b32, "SOP2"}, {"s_or_b64 s[20:21], s[4:5], s[6:7]", r_or_b64, "SOP2"},
    {"s_xor_b32 s20, s4, s6", r_xor_b32, "SOP2"}, {"s_xor_b64 s[20:21], s[4:5], s[6:7]", r_xor_b64, "SOP2"},
    {"s_andn2_b32 s20, s4, s6", r_andn2_b32, "SOP2"}, {"s_andn2_b64 s[20:21], s[4:5], s[6:7]", r_andn2_b64, "SOP2"},
    {"s_orn2_b32 s20, s4, s6", r_orn2_b32, "SOP2"}, {"s_orn2_b64 s[20:21], s[4:5], s[6:7]", r_orn2_b64, "SOP2"},
    {"s_nand_b32 s20, s4, s6", r_nand_b32, "SOP2"}, {"s_nand_b64 s[20:21], s[4:5], s[6:7]", r_nand_b64, "SOP2"},
    {"s_nor_b32 s20, s4, s6", r_nor_b32, "SOP2"}, {"s_nor_b64 s[20:21], s[4:5], s[6:7]", r_nor_b64, "SOP2"},
    {"s_xnor_b32 s20, s4, s6", r_xnor_b32, "SOP2"}, {"s_xnor_b64 s[20:21], s[4:5], s[6:7]", r_xnor_b64, "SOP2"},
    {"s_lshl_b32 s20, s4, s6", r_lshl_b32, "SOP2"}, {"s_lshl_b64 s[20:21], s[4:5], s6", r_lshl_b64, "SOP2"},
    {"s_lshr_b32 s20, s4, s6", r_lshr_b32, "SOP2"}, {"s_lshr_b64 s[20:21], s[4:5], s6", r_lshr_b64, "SOP2"},
    {"s_ashr_i32 s20, s4, s6", r_ashr_i32, "SOP2"}, {"s_ashr_i64 s[20:21], s[4:5], s6", r_ashr_i64, "SOP2"},
    {"s_bfm_b32 s20, s4, s6", r_bfm_b32, "SOP2"}, {"s_bfm_b64 s[20:21], s4, s6", r_bfm_b64, "SOP2"},
    {"s_mul_i32 s20, s4, s6", r_mul_i32, "SOP2"},
    {"s_bfe_u32 s20, s4, s9", r_bfe_u32, "SOP2"}, {"s_bfe_i32 s20, s4, s9", r_bfe_i32, "SOP2"},
    {"s_bfe_u64 s[20:21], s[4:5], s15", r_bfe_u64, "SOP2"}, {"s_bfe_i64 s[20:21], s[4:5], s15", r_bfe_i64, "SOP2"},
    {"s_absdiff_i32 s20, s4, s6", r_absdiff_i32, "SOP2"},
    {"s_lshl1_add_u32 s20, s4, s6", r_lshl1_add, "SOP2"}, {"s_lshl2_add_u32 s20, s4, s6", r_lshl2_add, "SOP2"},
    {"s_lshl3_add_u32 s20, s4, s6", r_lshl3_add, "SOP2"}, {"s_lshl4_add_u32 s20, s4, s6", r_lshl4_add, "SOP2"},
    {"s_pack_ll_b32_b16 s20, s4, s6", r_pack_ll, "SOP2"}, {"s_pack_lh_b32_b16 s20, s4, s6", r_pack_lh, "SOP2"},
    {"s_pack_hh_b32_b16 s20, s4, s6", r_pack_hh, "SOP2"},
    {"s_mul_hi_u32 s20, s4, s6", r_mul_hi_u32, "SOP2"}, {"s_mul_hi_i32 s20, s4, s6", r_mul_hi_i32, "SOP2"},
    {"s_movk_i32 s20, 0x8001", r_movk, "SOPK"}, {"s_cmovk_i32 s20, 0x7fff", r_cmovk, "SOPK"},
    {"s_cmpk_eq_i32 s4, 0xfff0", r_cmpk_eq_i32, "SOPK"}, {"s_cmpk_lt_i32 s4, 0xfff0", r_cmpk_lt_i32, "SOPK"},
    {"s_cmpk_ge_u32 s4, 0xfff0", r_cmpk_ge_u32, "SOPK"}, {"s_cmpk_lg_u32 s4, 0x8000", r_cmpk_lg_u32, "SOPK"},
    {"s_addk_i32 s20, 0x8123", r_addk, "SOPK"}, {"s_mulk_i32 s20, 0x1234", r_mulk, "SOPK"},
    {"s_getreg_b32 s20, hwreg(HW_REG_MODE, 0, 8)", r_getreg_mode, "SOPK"},
    {"s_mov_b32 s20, s4", r_mov_b32, "SOP1"}, {"s_mov_b64 s[20:21], s[4:5]", r_mov_b64, "SOP1"},
    {"s_cmov_b32 s20, s4", r_cmov_b32, "SOP1"}, {"s_cmov_b64 s[20:21], s[4:5]", r_cmov_b64, "SOP1"},
    {"s_not_b32 s20, s4", r_not_b32, "SOP1"}, {"s_not_b64 s[20:21], s[4:5]", r_not_b64, "SOP1"},
    {"s_wqm_b32 s20, s4", r_wqm_b32, "SOP1"}, {"s_wqm_b64 s[20:21], s[4:5]", r_wqm_b64, "SOP1"},
    {"s_brev_b32 s20, s4", r_brev_b32, "SOP1"}, {"s_brev_b64 s[20:21], s[4:5]", r_brev_b64, "SOP1"},
    {"s_bcnt0_i32_b32 s20, s4", r_bcnt0_b32, "SOP1"}, {"s_bcnt0_i32_b64 s20, s[4:5]", r_bcnt0_b64, "SOP1"},
    {"s_bcnt1_i32_b32 s20, s4", r_bcnt1_b32, "SOP1"}, {"s_bcnt1_i32_b64 s20, s[4:5]", r_bcnt1_b64, "SOP1"},
    {"s_ff0_i32_b32 s20, s4", r_ff0_b32, "SOP1"}, {"s_ff0_i32_b64 s20, s[4:5]", r_ff0_b64, "SOP1"},
    {"s_ff1_i32_b32 s20, s4", r_ff1_b32, "SOP1"}, {"s_ff1_i32_b64 s20, s[4:5]", r_ff1_b64, "SOP1"},
    {"s_flbit_i32_b32 s20, s4", r_flbit_b32, "SOP1"}, {"s_flbit_i32_b64 s20, s[4:5]", r_flbit_b64, "SOP1"},
    {"s_flbit_i32 s20, s4", r_flbit_i32, "SOP1"}, {"s_flbit_i32_i64 s20, s[4:5]", r_flbit_i64, "SOP1"},
    {"s_sext_i32_i8 s20, s4", r_sext8, "SOP1"}, {"s_sext_i32_i16 s20, s4", r_sext16, "SOP1"},
    {"s_bitset0_b32 s20, s4", r_bitset0_b32, "SOP1"}, {"s_bitset1_b32 s20, s4", r_bitset1_b32, "SOP1"},
    {"s_bitset0_b64 s[20:21], s4", r_bitset0_b64, "SOP1"}, {"s_bitset1_b64 s[20:21], s4", r_bitset1_b64, "SOP1"},
    {"s_and_saveexec_b64 s[20:21], s[4:5]", r_and_sx64, "SOP1"}, {"s_or_saveexec_b64 s[20:21], s[4:5]", r_or_sx64, "SOP1"},
    {"s_xor_saveexec_b64 s[20:21], s[4:5]", r_xor_sx64, "SOP1"}, {"s_andn2_saveexec_b64 s[20:21], s[4:5]", r_andn2_sx64, "SOP1"},
    {"s_orn2_saveexec_b64 s[20:21], s[4:5]", r_orn2_sx64, "SOP1"}, {"s_nand_saveexec_b64 s[20:21], s[4:5]", r_nand_sx64, "SOP1"},
    {"s_nor_saveexec_b64 s[20:21], s[4:5]", r_nor_sx64, "SOP1"}, {"s_xnor_saveexec_b64 s[20:21], s[4:5]", r_xnor_sx64, "SOP1"},
    {"s_andn1_saveexec_b64 s[20:21], s[4:5]", r_andn1_sx64, "SOP1"}, {"s_orn1_saveexec_b64 s[20:21], s[4:5]", r_orn1_sx64, "SOP1"},
    {"s_andn1_wrexec_b64 s[20:21], s[4:5]", r_andn1_wr64, "SOP1"}, {"s_andn2_wrexec_b64 s[20:21], s[4:5]", r_andn2_wr64, "SOP1"},
    {"s_and_saveexec_b32 s20, s4", r_and_sx32, "SOP1"}, {"s_or_saveexec_b32 s20, s4", r_or_sx32, "SOP1"},
    {"s_xor_saveexec_b32 s20, s4", r_xor_sx32, "SOP1"}, {"s_andn2_saveexec_b32 s20, s4", r_andn2_sx32, "SOP1"},
    {"s_orn2_saveexec_b32 s20, s4", r_orn2_sx32, "SOP1"}, {"s_nand_saveexec_b32 s20, s4", r_nand_sx32, "SOP1"},
    {"s_nor_saveexec_b32 s20, s4", r_nor_sx32, "SOP1"}, {"s_xnor_saveexec_b32 s20, s4", r_xnor_sx32, "SOP1"},
    {"s_andn1_saveexec_b32 s20, s4", r_andn1_sx32, "SOP1"}, {"s_orn1_saveexec_b32 s20, s4", r_orn1_sx32, "SOP1"},
    {"s_andn1_wrexec_b32 s20, s4", r_andn1_wr32, "SOP1"}, {"s_andn2_wrexec_b32 s20, s4", r_andn2_wr32, "SOP1"},
    {"s_quadmask_b32 s20, s4", r_quad_b32, "SOP1"}, {"s_quadmask_b64 s[20:21], s[4:5]", r_quad_b64, "SOP1"},
    {"s_mov_b32 m0, s14\ns_movrels_b32 s20, s4", r_movrels_b32, "SOP1"},
    {"s_lshl_b32 m0, s14, 1\ns_cmp_lg_u32 s8, 0\ns_movrels_b64 s[20:21], s[4:5]", r_movrels_b64, "SOP1"},
    {"s_mov_b32 m0, s14\ns_movreld_b32 s19, s6", r_movreld_b32, "SOP1"},
    {"s_lshl_b32 m0, s14, 1\ns_cmp_lg_u32 s8, 0\ns_movreld_b64 s[18:19], s[6:7]", r_movreld_b64, "SOP1"},
    {"s_abs_i32 s20, s4", r_abs, "SOP1"}, {"s_bitreplicate_b64_b32 s[20:21], s4", r_bitrepl, "SOP1"},
    {"s_and_b64 s[20:21], s[4:5], 0x80000000", r_lit_and64, "SOP2"},
    {"s_ashr_i64 s[20:21], 0xfffffff0, s6", r_lit_ashr64, "SOP2"},
    {"s_and_b64 s[20:21], s[4:5], -2", r_inl_and64, "SOP2"},
    {"s_mov_b64 s[20:21], 1.0", r_inl_f64, "SOP1"},
    {"s_mov_b32 s20, 0.5", r_inl_f32, "SOP1"},
    {"s_add_u32 s20, s4, -16", r_inl_add, "SOP2"},
    {"s_mov_b32 vcc_lo, s12\ns_mov_b32 vcc_hi, 0\ns_cmp_lg_u32 s8, 0\ns_xor_b64 s[20:21], vcc, s[4:5]", r_src_vcc, "SOP2"},
    {"s_cmp_eq_i32 s4, s6", r_cmp_eq_i32, "SOPC"}, {"s_cmp_lg_i32 s4, s6", r_cmp_lg_i32, "SOPC"},
    {"s_cmp_gt_i32 s4, s6", r_cmp_gt_i32, "SOPC"}, {"s_cmp_ge_i32 s4, s6", r_cmp_ge_i32, "SOPC"},
    {"s_cmp_lt_i32 s4, s6", r_cmp_lt_i32, "SOPC"}, {"s_cmp_le_i32 s4, s6", r_cmp_le_i32, "SOPC"},
    {"s_cmp_gt_u32 s4, s6", r_cmp_gt_u32, "SOPC"}, {"s_cmp_ge_u32 s4, s6", r_cmp_ge_u32, "SOPC"},
    {"s_cmp_lt_u32 s4, s6", r_cmp_lt_u32, "SOPC"}, {"s_cmp_le_u32 s4, s6", r_cmp_le_u32, "SOPC"},
    {"s_cmp_eq_u64 s[4:5], s[6:7]", r_cmp_eq_u64, "SOPC"}, {"s_cmp_lg_u64 s[4:5], s[6:7]", r_cmp_lg_u64, "SOPC"},
    {"s_bitcmp0_b32 s4, s6", r_bitcmp0_b32, "SOPC"}, {"s_bitcmp1_b32 s4, s6", r_bitcmp1_b32, "SOPC"},
    {"s_bitcmp0_b64 s[4:5], s6", r_bitcmp0_b64, "SOPC"}, {"s_bitcmp1_b64 s[4:5], s6", r_bitcmp1_b64, "SOPC"},
};
#define NCASES (sizeof cases / sizeof cases[0])

static char *salu_program(void)
{
    size_t cap = 1 << 18, len = 0;
    char *t = malloc(cap);
    assert_non_null(t);
#define EMIT(...) (len += (size_t)snprintf(t + len, cap - len, __VA_ARGS__))
    EMIT("s_load_dwordx16 s[4:19], s[0:1], 0x0\ns_waitcnt lgkmcnt(0)\n");
    for (size_t i = 0; i < NCASES; i++) {
        unsigned off = (unsigned)i * 32;
        EMIT("s_mov_b64 exec, s[12:13]\ns_mov_b64 s[20:21], s[10:11]\ns_cmp_lg_u32 s8, 0\n");
        EMIT("%s\n", cases[i].text);
        EMIT("s_cselect_b32 s22, 1, 0\ns_mov_b64 s[24:25], exec\n");
        EMIT("s_store_dwordx4 s[20:23], s[2:3], 0x%x\n", off);
        EMIT("s_store_dwordx2 s[24:25], s[2:3], 0x%x\n", off + 16);
        assert_true(len < cap - 256);
    }
    EMIT("s_endpgm\n");
#undef EMIT
    return t;
}

static uint64_t rnd_state = 0x243f6a8885a308d3ull;
static uint64_t rnd(void)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 7;
    rnd_state ^= rnd_state << 17;
    return rnd_state;
}

static uint64_t pick(void)
{
    static const uint64_t special[] = {0, 1, 2, 31, 32, 63, 64, 0x7fffffff, 0x80000000, 0xffffffff,
                                       0xfffffffe, 0x8000, 0xfff0, 0xfffffff0,
                                       0xffffffffffffffffull, 0x8000000000000000ull,
                                       0x7fffffffffffffffull, 0x100000000ull, 0xf0f0f0f00f0f0f0full};
    switch (rnd() % 4) {
    case 0: return special[rnd() % (sizeof special / sizeof special[0])];
    case 1: return rnd() & 0xff;
    default: return rnd();
    }
}

static void fill_inputs(st *s, unsigned iter)
{
    s->a = pick();
    if (iter < 4) {
        /* the ISA manual's s_absdiff_i32 examples among the first inputs */
        static const uint32_t ex[4][2] = {{0x80000000u, 1}, {0x80000000u, 0xffffffffu},
                                           {0x80000000u, 0xfffffffeu}, {2, 5}};
        s->a = ex[iter][0];
    }
    s->b = (rnd() % 5 == 0) ? s->a : pick();
    if (iter % 7 == 3)
        s->b = (s->b & ~0xffffffffull) | (uint32_t)s->a;
    if (iter < 4) {
        static const uint32_t exb[4] = {1, 0xffffffffu, 0xfffffffeu, 5};
        s->b = exb[iter];
    }
    s->scc = (int)(rnd() & 1);
    s->d = rnd();
    s->e = (rnd() % 4 == 0) ? 0 : pick();
    s->m = (uint32_t)(rnd() & 1);
    unsigned w32 = (unsigned)(rnd() % 33), o32 = (unsigned)(rnd() % 32);
    unsigned w64 = (unsigned)(rnd() % 65), o64 = (unsigned)(rnd() % 64);
    s->f = (w32 << 16) | o32 | (uint32_t)(rnd() & 0xffe0);  /* junk in unused bits [15:5] */
    s->g = (w64 << 16) | o64 | (uint32_t)(rnd() & 0xffc0);
    memset(M.in, 0, sizeof M.in);
    M.in[0] = lo(s->a); M.in[1] = (uint32_t)(s->a >> 32);
    M.in[2] = lo(s->b); M.in[3] = (uint32_t)(s->b >> 32);
    M.in[4] = (uint32_t)s->scc * (uint32_t)(1 + (rnd() % 1000));
    M.in[5] = s->f;
    M.in[6] = lo(s->d); M.in[7] = (uint32_t)(s->d >> 32);
    M.in[8] = lo(s->e); M.in[9] = (uint32_t)(s->e >> 32);
    M.in[10] = s->m;
    M.in[11] = s->g;
    M.in[12] = (uint32_t)rnd(); M.in[13] = (uint32_t)rnd();
    M.in[14] = (uint32_t)rnd(); M.in[15] = (uint32_t)rnd();
}

static void salu_exec_wave(unsigned wave)
{
    char *text = salu_program();
    size_t size;
    uint8_t *code = assemble("gfx1010", wave, text, &size);
    free(text);
    wl_lift_program p;
    prog_init(&p, code, size, WL_GFX1010, wave);
    unsigned mism = 0, total = 0;
    unsigned per_fmt_ok[4] = {0}, per_fmt_n[4] = {0}, per_fmt_ops[4] = {0};
    static const char *fmts[4] = {"SOP2", "SOPK", "SOP1", "SOPC"};
    /* Distinct mnemonics (the first word of each case's last line). */
    for (size_t i = 0; i < NCASES; i++) {
        char mi[64], mj[64];
        const char *li = strrchr(cases[i].text, '\n');
        sscanf(li ? li + 1 : cases[i].text, "%63s", mi);
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++) {
            const char *lj = strrchr(cases[j].text, '\n');
            sscanf(lj ? lj + 1 : cases[j].text, "%63s", mj);
            seen = strcmp(mi, mj) == 0;
        }
        for (int f = 0; f < 4; f++)
            per_fmt_ops[f] += !seen && strcmp(cases[i].fmt, fmts[f]) == 0;
    }
    for (int o2 = 0; o2 < 2; o2++) {
        jit j;
        jit_make(&j, &p, o2);
        for (unsigned iter = 0; iter < 400; iter++) {
            st s;
            fill_inputs(&s, iter);
            memset(M.out, 0xcc, sizeof M.out);
            M.bad_access = 0;
            M.escapes = 0;
            j.fn();
            assert_int_equal(M.bad_access, 0);
            assert_int_equal(M.escapes, 0);
            for (size_t i = 0; i < NCASES; i++) {
                res r = {s.d, s.scc, s.e};
                cases[i].ref(&s, &r);
                const uint32_t *o = &M.out[i * 8];
                uint64_t dst = o[0] | (uint64_t)o[1] << 32, ex = o[4] | (uint64_t)o[5] << 32;
                int ok = dst == r.dst && (int)o[2] == (r.scc != 0) && ex == r.exec;
                int f = 0;
                while (f < 3 && strcmp(cases[i].fmt, fmts[f]) != 0)
                    f++;
                per_fmt_n[f]++;
                per_fmt_ok[f] += ok;
                total++;
                if (!ok && mism++ < 20)
                    fprintf(stderr,
                            "MISMATCH%s `%s`: A=%016llx B=%016llx scc=%d D=%016llx E=%016llx M=%u F=%08x G=%08x\n"
                            "   ours dst=%016llx scc=%u exec=%016llx\n   ref  dst=%016llx scc=%d exec=%016llx\n",
                            o2 ? " (O2)" : "", cases[i].text, (unsigned long long)s.a,
                            (unsigned long long)s.b, s.scc, (unsigned long long)s.d,
                            (unsigned long long)s.e, s.m, s.f, s.g, (unsigned long long)dst, o[2],
                            (unsigned long long)ex, (unsigned long long)r.dst, r.scc,
                            (unsigned long long)r.exec);
            }
        }
        jit_free(&j);
    }
    for (int f = 0; f < 4; f++)
        printf("%s: %u opcodes, %u instances, %u match\n", fmts[f], per_fmt_ops[f], per_fmt_n[f],
               per_fmt_ok[f]);
    printf("SALU executed (wave%u): %zu operations x 400 inputs x {O0, O2}: %u instances, %u mismatches\n",
           wave, NCASES, total, mism);
    free(code);
    assert_int_equal(mism, 0);
}

static void salu_exec(void **state)
{
    (void)state;
    salu_exec_wave(64);
    salu_exec_wave(32);
}

/* Random words (half of them scalar encodings, with a few branches) never
 * crash the lifter; what lifts passes the verifier. */
static void random_programs(void **state)
{
    (void)state;
    unsigned ok = 0, refused = 0, invalid = 0;
    for (unsigned iter = 0; iter < 3000; iter++) {
        uint32_t w[24];
        unsigned n = 1 + (unsigned)(rnd() % 24);
        for (unsigned i = 0; i < n; i++) {
            uint32_t r = (uint32_t)rnd();
            switch (rnd() % 6) {
            case 0: w[i] = 0x80000000u | (r & 0x3fffffffu); break;            /* SOP2 */
            case 1: w[i] = 0xbe800000u | (r & 0x007fffffu); break;            /* SOP1 */
            case 2: w[i] = 0xbf000000u | (r & 0x007fffffu); break;            /* SOPC */
            case 3: w[i] = 0xbf800000u | ((r % 10) << 16) | (r >> 28); break; /* SOPP, short jumps */
            case 4: w[i] = 0xb0000000u | (r & 0x0fffffffu); break;            /* SOPK */
            default: w[i] = r; break;
            }
        }
        if (rnd() % 2)
            w[n - 1] = 0xbf810000u; /* s_endpgm */
        wl_lift_program p;
        prog_init(&p, (const uint8_t *)w, n * 4, (rnd() & 1) ? WL_GFX1030 : WL_GFX1010,
                  (rnd() & 1) ? 64 : 32);
        LLVMContextRef ctx = LLVMContextCreate();
        LLVMModuleRef m = NULL;
        char err[512];
        wl_status st = wl_lift(ctx, &p, &m, err, sizeof err);
        if (st == WL_OK) {
            char verr[1024];
            wl_status vs = wl_wir_verify(m, verr, sizeof verr);
            if (vs != WL_OK)
                fprintf(stderr, "random program %u: %s\n", iter, verr);
            assert_int_equal(vs, WL_OK);
            LLVMDisposeModule(m);
            ok++;
        } else {
            assert_null(m);
            assert_true(err[0] != '\0');
            if (st == WL_ERR_UNSUPPORTED)
                refused++;
            else
                invalid++;
        }
        LLVMContextDispose(ctx);
    }
    printf("random programs: 3000: %u lifted and verified, %u refused by name, %u rejected as malformed\n",
           ok, refused, invalid);
    assert_true(ok > 0);
}

/* ------------------------------------------------- control flow and SMEM */

static const char cf_program[] =
    "s_load_dword s4, s[0:1], 0x0\n"
    "s_waitcnt lgkmcnt(0)\n"
    "s_mov_b32 s5, 0\n"
    "s_mov_b32 s6, 0\n"
    "loop:\n"
    "s_add_u32 s5, s5, s6\n"
    "s_add_u32 s6, s6, 1\n"
    "s_cmp_lt_u32 s6, s4\n"
    "s_cbranch_scc1 loop\n"
    "s_store_dword s5, s[2:3], 0x0\n"
    "s_mov_b32 s7, 0\n"
    "s_mov_b64 vcc, 0\n"
    "s_cbranch_vccz l1\n"
    "s_or_b32 s7, s7, 1\n"
    "l1:\n"
    "s_cbranch_vccnz l2\n"
    "s_or_b32 s7, s7, 2\n"          /* runs */
    "l2:\n"
    "s_mov_b32 vcc_hi, 1\n"
    "s_mov_b32 vcc_lo, 0\n"
    "s_cbranch_vccnz l3\n"
    "s_or_b32 s7, s7, 4\n"
    "l3:\n"
    "s_mov_b64 exec, 0\n"
    "s_cbranch_execz l4\n"
    "s_or_b32 s7, s7, 8\n"
    "l4:\n"
    "s_mov_b64 exec, -1\n"
    "s_cbranch_execz l5\n"
    "s_or_b32 s7, s7, 16\n"         /* runs */
    "l5:\n"
    "s_cbranch_execnz l6\n"
    "s_or_b32 s7, s7, 32\n"
    "l6:\n"
    "s_cmp_eq_u32 s4, 0\n"
    "s_cbranch_scc0 l7\n"
    "s_or_b32 s7, s7, 64\n"
    "l7:\n"
    "s_branch l8\n"
    "s_or_b32 s7, s7, 128\n"
    "l8:\n"
    "s_store_dword s7, s[2:3], 0x4\n"
    "s_getpc_b64 s[8:9]\n"
    "s_store_dwordx2 s[8:9], s[2:3], 0x8\n"
    "s_mov_b32 s12, s0\n"
    "s_and_b32 s13, s1, 0xffff\n"
    "s_mov_b32 s14, 8\n"
    "s_mov_b32 s15, 0\n"
    "s_buffer_load_dwordx4 s[16:19], s[12:15], 0x0\n"
    "s_mov_b32 s20, 4\n"
    "s_buffer_load_dwordx2 s[20:21], s[12:15], s20\n"
    "s_waitcnt lgkmcnt(0)\n"
    "s_store_dwordx4 s[16:19], s[2:3], 0x10\n"
    "s_store_dwordx2 s[20:21], s[2:3], 0x20\n"
    "s_memtime s[22:23]\n"
    "s_memtime s[24:25]\n"
    "s_waitcnt lgkmcnt(0)\n"
    "s_sub_u32 s22, s24, s22\n"
    "s_store_dword s22, s[2:3], 0x28\n"
    "s_nop 0\n"
    "s_barrier\n"
    "s_endpgm\n"
    "s_code_end\n";

static void control_flow_exec(void **state)
{
    (void)state;
    size_t size;
    uint8_t *code = assemble("gfx1010", 64, cf_program, &size);
    /* The s_getpc_b64's offset: find its encoding (SOP1 op 0x1f, sdst s8). */
    uint64_t getpc_next = 0;
    for (size_t i = 0; i + 4 <= size; i += 4) {
        uint32_t w = code[i] | code[i + 1] << 8 | code[i + 2] << 16 | (uint32_t)code[i + 3] << 24;
        if (w == 0xbe881f00u)
            getpc_next = CODE_ADDR + i + 4;
    }
    assert_true(getpc_next != 0);
    wl_lift_program p;
    prog_init(&p, code, size, WL_GFX1010, 64);
    unsigned checks = 0;
    for (int o2 = 0; o2 < 2; o2++) {
        jit j;
        jit_make(&j, &p, o2);
        for (uint32_t n = 1; n < 40; n += 3) {
            memset(M.in, 0, sizeof M.in);
            M.in[0] = n;
            M.in[1] = 0x1234;
            M.in[2] = 0x5678;
            memset(M.out, 0xcc, 64);
            M.bad_access = 0;
            j.fn();
            assert_int_equal(M.bad_access, 0);
            assert_int_equal(M.out[0], n * (n - 1) / 2);
            assert_int_equal(M.out[1], 2 | 16);
            assert_int_equal(M.out[2] | (uint64_t)M.out[3] << 32, getpc_next);
            /* num_records 8 bytes: dwords 0 and 1 in range, 2 and 3 read 0 */
            assert_int_equal(M.out[4], n);
            assert_int_equal(M.out[5], 0x1234);
            assert_int_equal(M.out[6], 0);
            assert_int_equal(M.out[7], 0);
            /* soffset 4: dword at 4 in range, at 8 not */
            assert_int_equal(M.out[8], 0x1234);
            assert_int_equal(M.out[9], 0);
            assert_true(M.out[10] >= 1);
            checks += 10;
        }
        jit_free(&j);
    }
    printf("control flow and SMEM: %u checks passed (loop, s_cbranch_scc0/scc1/vccz/vccnz/execz/execnz, "
           "s_branch, s_getpc_b64, s_buffer_load range check, s_memtime)\n", checks);
    free(code);
}

/* Calls: s_getpc_b64 + s_add_u32/s_addc_u32 + s_swappc_b64 into a function
 * that returns with s_setpc_b64; `bad` makes the function return to a wrong
 * address, which must record an escape and end the wave. */
static const char call_program[] =
    "s_load_dword s4, s[0:1], 0x0\n"
    "s_load_dword s5, s[0:1], 0x4\n"
    "s_waitcnt lgkmcnt(0)\n"
    "s_getpc_b64 s[8:9]\n"
    ".Lpc1:\n"
    "s_add_u32 s8, s8, func-.Lpc1\n"
    "s_addc_u32 s9, s9, 0\n"
    "s_swappc_b64 s[30:31], s[8:9]\n"
    "s_store_dword s4, s[2:3], 0x0\n"
    "s_getpc_b64 s[10:11]\n"
    ".Lpc2:\n"
    "s_add_u32 s10, s10, func-.Lpc2\n"
    "s_addc_u32 s11, s11, 0\n"
    "s_mov_b64 s[8:9], s[10:11]\n"
    "s_swappc_b64 s[30:31], s[8:9]\n"
    "s_store_dword s4, s[2:3], 0x4\n"
    "s_endpgm\n"
    "func:\n"
    "s_mul_i32 s4, s4, 3\n"
    "s_add_u32 s4, s4, 1\n"
    "s_add_u32 s30, s30, s5\n"   /* s5: 0, or a corruption */
    "s_setpc_b64 s[30:31]\n";

static void calls_exec(void **state)
{
    (void)state;
    size_t size;
    uint8_t *code = assemble("gfx1010", 64, call_program, &size);
    wl_lift_program p;
    prog_init(&p, code, size, WL_GFX1010, 64);
    unsigned runs = 0;
    for (int o2 = 0; o2 < 2; o2++) {
        jit j;
        jit_make(&j, &p, o2);
        for (uint32_t n = 0; n < 20; n++) {
            memset(M.in, 0, sizeof M.in);
            M.in[0] = n * 7919u;
            M.in[1] = (n % 5 == 4) ? 8 : 0;
            memset(M.out, 0xcc, 64);
            M.bad_access = 0;
            M.escapes = 0;
            j.fn();
            assert_int_equal(M.bad_access, 0);
            uint32_t x = n * 7919u * 3 + 1;
            if (M.in[1]) {
                /* the first return goes astray: escape, nothing stored */
                assert_int_equal(M.escapes, 1);
                assert_int_equal(M.out[0], 0xccccccccu);
            } else {
                assert_int_equal(M.escapes, 0);
                assert_int_equal(M.out[0], x);
                assert_int_equal(M.out[1], x * 3 + 1);
            }
            runs++;
        }
        jit_free(&j);
    }
    printf("calls: %u runs of s_getpc/s_swappc/s_setpc programs (two call sites, a corrupted return "
           "escapes)\n", runs);
    free(code);
}

/* ---------------------------------------------------------- refusals */

static void refusals(void **state)
{
    (void)state;
    static const struct { const char *text; const char *mnemonic; } r[] = {
        {"s_setpc_b64 s[0:1]\n", "s_setpc_b64"},
        {"s_swappc_b64 s[0:1], s[2:3]\ns_endpgm\n", "s_swappc_b64"},
        {"s_getpc_b64 s[4:5]\ns_load_dwordx2 s[4:5], s[0:1], 0x0\ns_swappc_b64 s[30:31], s[4:5]\ns_endpgm\n",
         "s_swappc_b64"},
        {"s_sendmsg sendmsg(MSG_INTERRUPT)\ns_endpgm\n", "s_sendmsg"},
        /* float mode: non-nearest rounding refused at the float operation,
         * a mode change still in effect at a branch, bits not modelled,
         * run-time mode values */
        {"s_round_mode 0x3\nv_add_f32 v0, v1, v2\ns_round_mode 0x0\ns_endpgm\n", "v_add_f32"},
        {"s_setreg_imm32_b32 hwreg(HW_REG_MODE, 2, 2), 1\nv_add_f64 v[0:1], v[2:3], v[4:5]\ns_endpgm\n",
         "v_add_f64"},
        {"s_denorm_mode 0x0\ns_cbranch_scc0 1\ns_nop 0\ns_denorm_mode 0xf\ns_endpgm\n", "s_cbranch_scc0"},
        {"s_cbranch_scc0 1\ns_denorm_mode 0x0\ns_nop 0\ns_endpgm\n", "s_nop"},
        {"s_setreg_imm32_b32 hwreg(HW_REG_MODE, 12, 1), 1\ns_endpgm\n", "s_setreg_imm32_b32"},
        {"s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s0\ns_endpgm\n", "s_setreg_b32"},
        {"s_getreg_b32 s0, hwreg(HW_REG_HW_ID)\ns_endpgm\n", "s_getreg_b32"},
        {"s_mov_b32 s0, ttmp0\ns_endpgm\n", "s_mov_b32"},
        {"s_nop 0\ns_code_end\n", "s_code_end"},
        {"s_trap 2\ns_endpgm\n", "s_trap"},
    };
    unsigned n = 0;
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
        size_t size;
        uint8_t *code = assemble("gfx1010", 64, r[i].text, &size);
        wl_lift_program p;
        prog_init(&p, code, size, WL_GFX1010, 64);
        LLVMContextRef ctx = LLVMContextCreate();
        LLVMModuleRef m = NULL;
        char err[512], want[128];
        wl_status st = wl_lift(ctx, &p, &m, err, sizeof err);
        snprintf(want, sizeof want, "unsupported instruction %s at offset 0x", r[i].mnemonic);
        if (st != WL_ERR_UNSUPPORTED || strncmp(err, want, strlen(want)) != 0)
            fprintf(stderr, "`%s`: status %d, message `%s`\n", r[i].text, st, err);
        assert_int_equal(st, WL_ERR_UNSUPPORTED);
        assert_null(m);
        assert_true(strncmp(err, want, strlen(want)) == 0);
        n++;
        LLVMContextDispose(ctx);
        free(code);
    }
    /* Malformed: an empty program, a branch out of the code, garbage. */
    static const uint8_t junk[] = {0xff, 0xff, 0xff, 0xff, 0x00, 0x00};
    uint8_t br_out[4] = {0x10, 0x00, 0x82, 0xbf}; /* s_branch +16 words */
    const struct { const uint8_t *b; size_t n; } bad[] = {{junk, sizeof junk}, {br_out, 4}, {junk, 2}};
    for (size_t i = 0; i < 3; i++) {
        wl_lift_program p;
        prog_init(&p, bad[i].b, bad[i].n, WL_GFX1030, 64);
        LLVMContextRef ctx = LLVMContextCreate();
        LLVMModuleRef m = NULL;
        char err[512];
        wl_status st = wl_lift(ctx, &p, &m, err, sizeof err);
        assert_true(st != WL_OK);
        assert_null(m);
        LLVMContextDispose(ctx);
        n++;
    }
    printf("refusals: %u programs refused by name or rejected as malformed\n", n);
}

/* ------------------------------------------------------- the verifier */

#define WIR_HEAD                                                                     \
    "define void @wl.wave() {\n"                                                    \
    "entry:\n"                                                                      \
    "  %s0 = alloca i32\n"                                                          \
    "  %v0 = alloca i32, !wl.vgpr !1\n"                                             \
    "  store i32 0, ptr %s0\n"                                                      \
    "  store i32 0, ptr %v0\n"                                                      \
    "  br label %b\n"                                                               \
    "b:\n"
#define WIR_TAIL "!wl.program = !{!0}\n!0 = !{i32 64, i32 0, i32 0, i32 4}\n!1 = !{}\n"

static void verifier(void **state)
{
    (void)state;
    static const struct { const char *why; int ok; const char *ir; } c[] = {
        {"a well-formed module", 1,
         WIR_HEAD "  %x = load i32, ptr %v0\n  %e = call i64 @wl.launch_exec()\n"
         "  %a = call i1 @wl.lane_active(i64 %e)\n  %y = add i32 %x, 1\n"
         "  %z = select i1 %a, i32 %y, i32 %x\n  store i32 %z, ptr %v0\n"
         "  %u = call i32 @wl.shuffle.i32(i32 %x, i32 3)\n  store i32 %u, ptr %s0\n"
         "  %c = icmp eq i32 %u, 0\n  br i1 %c, label %b, label %d\nd:\n  ret void\n}\n"
         "declare i64 @wl.launch_exec()\ndeclare i1 @wl.lane_active(i64)\n"
         "declare i32 @wl.shuffle.i32(i32, i32)\n" WIR_TAIL},
        {"rule 1: a varying branch", 0,
         WIR_HEAD "  %x = load i32, ptr %v0\n  %c = icmp eq i32 %x, 0\n"
         "  br i1 %c, label %b, label %d\nd:\n  ret void\n}\n" WIR_TAIL},
        {"rule 2: a VGPR write without select", 0,
         WIR_HEAD "  %x = load i32, ptr %v0\n  %y = add i32 %x, 1\n  store i32 %y, ptr %v0\n"
         "  ret void\n}\n" WIR_TAIL},
        {"rule 3: a varying value in an SGPR", 0,
         WIR_HEAD "  %x = call i32 @wl.lane_id()\n  store i32 %x, ptr %s0\n  ret void\n}\n"
         "declare i32 @wl.lane_id()\n" WIR_TAIL},
        {"rule 3: a shuffle with a varying lane into an SGPR", 0,
         WIR_HEAD "  %x = load i32, ptr %v0\n  %u = call i32 @wl.shuffle.i32(i32 7, i32 %x)\n"
         "  store i32 %u, ptr %s0\n  ret void\n}\ndeclare i32 @wl.shuffle.i32(i32, i32)\n" WIR_TAIL},
        {"rule 4: an unknown function", 0,
         WIR_HEAD "  call void @helper()\n  ret void\n}\ndeclare void @helper()\n" WIR_TAIL},
        {"rule 4: an undocumented wl.* function", 0,
         WIR_HEAD "  call void @wl.frobnicate()\n  ret void\n}\ndeclare void @wl.frobnicate()\n" WIR_TAIL},
        {"rule 4: a global pointer", 0,
         WIR_HEAD "  %p = inttoptr i64 4096 to ptr addrspace(1)\n  %x = load i32, ptr addrspace(1) %p\n"
         "  store i32 %x, ptr %s0\n  ret void\n}\n" WIR_TAIL},
        {"a wl.* function with the wrong type", 0,
         WIR_HEAD "  %a = call i1 @wl.lane_active(i32 0)\n  ret void\n}\ndeclare i1 @wl.lane_active(i32)\n"
         WIR_TAIL},
        {"no !wl.program", 0, WIR_HEAD "  ret void\n}\n!1 = !{}\n"},
        {"a second defined function", 0,
         WIR_HEAD "  ret void\n}\ndefine void @other() {\n  ret void\n}\n" WIR_TAIL},
        {"a pure function called with a varying operand", 1,
         WIR_HEAD "  %x = load i32, ptr %v0\n  %y = call i32 @wl_pure.f(i32 %x)\n"
         "  %e = call i64 @wl.launch_exec()\n  %a = call i1 @wl.lane_active(i64 %e)\n"
         "  %z = select i1 %a, i32 %y, i32 %x\n  store i32 %z, ptr %v0\n  ret void\n}\n"
         "define internal i32 @wl_pure.f(i32 %p) {\n  %q = call i32 @llvm.umin.i32(i32 %p, i32 9)\n"
         "  ret i32 %q\n}\ndeclare i32 @llvm.umin.i32(i32, i32)\n"
         "declare i64 @wl.launch_exec()\ndeclare i1 @wl.lane_active(i64)\n" WIR_TAIL},
        {"rule 3: a pure function's varying result into an SGPR", 0,
         WIR_HEAD "  %x = load i32, ptr %v0\n  %y = call i32 @wl_pure.f(i32 %x)\n  store i32 %y, ptr %s0\n"
         "  ret void\n}\ndefine internal i32 @wl_pure.f(i32 %p) {\n  ret i32 %p\n}\n" WIR_TAIL},
        {"a pure function that reads memory", 0,
         WIR_HEAD "  %y = call i32 @wl_pure.f(i64 4096)\n  ret void\n}\n"
         "define internal i32 @wl_pure.f(i64 %p) {\n  %a = inttoptr i64 %p to ptr\n  %q = load i32, ptr %a\n"
         "  ret i32 %q\n}\n" WIR_TAIL},
        {"a pure function that calls a wl.* function", 0,
         WIR_HEAD "  %y = call i32 @wl_pure.f()\n  ret void\n}\n"
         "define internal i32 @wl_pure.f() {\n  %q = call i32 @wl.lane_id()\n  ret i32 %q\n}\n"
         "declare i32 @wl.lane_id()\n" WIR_TAIL},
        {"a pure function with external linkage", 0,
         WIR_HEAD "  %y = call i32 @wl_pure.f(i32 1)\n  ret void\n}\n"
         "define i32 @wl_pure.f(i32 %p) {\n  ret i32 %p\n}\n" WIR_TAIL},
        {"invalid LLVM IR (a block without terminator is caught by LLVMVerifyModule)", 0, NULL},
    };
    unsigned n = 0;
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        LLVMContextRef ctx = LLVMContextCreate();
        LLVMModuleRef m = NULL;
        if (c[i].ir) {
            char *msg = NULL;
            LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRangeCopy(c[i].ir, strlen(c[i].ir), "t");
            if (LLVMParseIRInContext(ctx, mb, &m, &msg)) {
                fprintf(stderr, "%s: parse: %s\n", c[i].why, msg);
                fail();
            }
        } else {
            m = LLVMModuleCreateWithNameInContext("t", ctx);
            LLVMValueRef f = LLVMAddFunction(m, "wl.wave", LLVMFunctionType(LLVMVoidTypeInContext(ctx), NULL, 0, 0));
            LLVMAppendBasicBlockInContext(ctx, f, "entry");
        }
        char err[1024];
        wl_status st = wl_wir_verify(m, err, sizeof err);
        if ((st == WL_OK) != c[i].ok)
            fprintf(stderr, "%s: status %d: %s\n", c[i].why, st, err);
        assert_int_equal(st == WL_OK, c[i].ok);
        if (!c[i].ok)
            printf("  rejected (%s): %.160s\n", c[i].why, err);
        n++;
        LLVMDisposeModule(m);
        LLVMContextDispose(ctx);
    }
    printf("verifier: %u modules judged as expected (2 accepted, %u rejected)\n", n, n - 2);
}

/* ------------------------------------------------------------- corpus */

typedef struct group {
    char name[64];
    unsigned n;
} group;

static void corpus(void **state)
{
    (void)state;
    DIR *d = opendir(WL_KERNEL_DIR);
    assert_non_null(d);
    struct dirent *e;
    unsigned files = 0, kernels = 0, lifted = 0, refused = 0;
    group g[128];
    size_t ng = 0;
    double lift_ms = 0, verify_ms = 0, worst_ms = 0;
    char worst[256] = "";
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 4 || strcmp(e->d_name + l - 3, ".co") != 0)
            continue;
        char path[1024], err[1024];
        snprintf(path, sizeof path, "%s/%s", WL_KERNEL_DIR, e->d_name);
        wl_codeobj *co = NULL;
        assert_int_equal(wl_codeobj_load(path, &co, err, sizeof err), WL_OK);
        files++;
        for (size_t k = 0; k < co->nkernels; k++) {
            wl_lift_program p;
            assert_int_equal(wl_lift_program_from_kernel(co, &co->kernels[k], &p, err, sizeof err), WL_OK);
            assert_int_equal(p.wave_size, strstr(e->d_name, ".w32.") ? 32u : 64u);
            LLVMContextRef ctx = LLVMContextCreate();
            LLVMModuleRef m = NULL;
            struct timespec t0, t1, t2;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            wl_status st = wl_lift(ctx, &p, &m, err, sizeof err);
            clock_gettime(CLOCK_MONOTONIC, &t1);
            kernels++;
            if (st == WL_OK) {
                char verr[1024];
                wl_status vs = wl_wir_verify(m, verr, sizeof verr);
                clock_gettime(CLOCK_MONOTONIC, &t2);
                double lms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
                double vms = (double)(t2.tv_sec - t1.tv_sec) * 1e3 + (double)(t2.tv_nsec - t1.tv_nsec) / 1e6;
                lift_ms += lms;
                verify_ms += vms;
                if (lms + vms > worst_ms) {
                    worst_ms = lms + vms;
                    snprintf(worst, sizeof worst, "%s %s", e->d_name, co->kernels[k].name);
                }
                if (vs != WL_OK)
                    fprintf(stderr, "%s %s: %s\n", e->d_name, co->kernels[k].name, verr);
                assert_int_equal(vs, WL_OK);
                wl_wir_info info;
                assert_int_equal(wl_wir_program_info(m, &info), 0);
                assert_int_equal(info.wave_size, p.wave_size);
                lifted++;
                LLVMDisposeModule(m);
            } else {
                const char *pre = "unsupported instruction ";
                if (st != WL_ERR_UNSUPPORTED || strncmp(err, pre, strlen(pre)) != 0 ||
                    !strstr(err, " at offset 0x"))
                    fprintf(stderr, "%s %s: status %d: %s\n", e->d_name, co->kernels[k].name, st, err);
                assert_int_equal(st, WL_ERR_UNSUPPORTED);
                assert_true(strncmp(err, pre, strlen(pre)) == 0 && strstr(err, " at offset 0x"));
                assert_null(m);
                char mn[64];
                sscanf(err + strlen(pre), "%63s", mn);
                size_t i = 0;
                while (i < ng && strcmp(g[i].name, mn) != 0)
                    i++;
                if (i == ng && ng < 128) {
                    snprintf(g[ng].name, sizeof g[ng].name, "%s", mn);
                    g[ng++].n = 0;
                }
                if (i < ng)
                    g[i].n++;
                refused++;
            }
            LLVMContextDispose(ctx);
        }
        wl_codeobj_free(co);
    }
    closedir(d);
    printf("corpus: %u code objects, %u kernels: %u lifted and verified, %u refused by name\n", files,
           kernels, lifted, refused);
    printf("corpus: lifting took %.1f ms and verifying %.1f ms in all (slowest: %s, %.1f ms)\n", lift_ms,
           verify_ms, worst, worst_ms);
    for (size_t i = 0; i < ng; i++)
        printf("  refused at %-28s %u\n", g[i].name, g[i].n);
    assert_true(files > 0 && kernels > 0);
    assert_int_equal(lifted + refused, kernels);
}

int main(void)
{
    LLVMLinkInMCJIT();
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(corpus),
        cmocka_unit_test(refusals),
        cmocka_unit_test(verifier),
        cmocka_unit_test(control_flow_exec),
        cmocka_unit_test(calls_exec),
        cmocka_unit_test(salu_exec),
        cmocka_unit_test(random_programs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
