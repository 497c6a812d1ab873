/* Scalar stores and scalar atomics (issue 5; docs/wave-ir.md: @wl.sstore,
 * @wl.satomic): performed once per wave in both models, the returned value
 * the same in every lane.
 *
 * Guest programs are written here in assembly (llvm-mc-19, gfx1010, wave64
 * and wave32), put in dispatch captures built through the C API, and run by
 * `wavelift replay` on lavapipe: the lanes model at several k
 * (LP_NATIVE_VECTOR_WIDTH picks lavapipe's subgroup size) and the wave
 * model. Groups of 96 work-items (wave64: one full and one partial wave;
 * wave32: three waves), 4 groups. Every value a wave gets back from a
 * scalar atomic or load is folded into a scalar hash, which each
 * invocation carrying the wave computes from what it saw; every lane writes
 * its invocation's hash, so a value that differs between the invocations
 * of a wave (a broadcast missing) shows. The shared words' values are also
 * stored to a result row per wave by s_store_dword.
 *
 *  - per-wave words (no contention; exact values): all 13 atomic kinds in
 *    32 and 64 bits, each three times (GLC, GLC, no GLC), operands made
 *    from the wave's number; cmpswap with a compare value read by s_load
 *    (succeeds) and a made-up one (fails); s_store_dword/x2/x4, then an
 *    atomic add on the stored word (returns the store) and an s_load of it.
 *  - shared words (every wave of the dispatch contends): add 32/64 (the old
 *    values must form one chain whose end is the final value: a sum of all
 *    waves' adds, exact; k-fold repetition would show), sub 64, inc
 *    tickets, a buffer add ticket, cmpswap (one winner), swap (a
 *    permutation), umax, xor without GLC, buffer or; buffer atomics and
 *    stores out of the V#'s range (not done, GLC returns 0) and in range
 *    with SOFFSET.
 *
 * Expected values come from a C model of the ISA's definitions written
 * here (RDNA ISA: S_ATOMIC_*, S_STORE_*, S_BUFFER_*), not from the
 * translator. Also: the decoder rejects the scalar atomics' bytes for
 * gfx1030 (no such instructions there), and a 64-bit scalar atomic at an address 4- but
 * not 8-byte aligned is refused by name at run time (an escape). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "wavelift/capture.h"

#define LOCAL 96u
#define GROUPS 4u
#define ITEMS (LOCAL * GROUPS)
#define NOPS 13u
#define SLOT_BYTES 512u  /* per wave: atomics at 0.., stores at STORE_AT */
#define A32_AT 0u        /* 13 words */
#define A64_AT 64u       /* 13 qwords */
#define STORE_AT 192u    /* dword, x2, x4: 7 words */
#define CNT_INRANGE 128u /* the V#'s num_records over the shared words */
#define CNT_BYTES 256u
#define TAIL_FILL 0x7a7a7a7au
#define SLOT_AT 0x20000000ull
#define OUT_AT 0x40000000ull
#define CNT_AT 0x60000000ull
#define CODE_AT 0x10000000ull
#define RES_AT 0x70000000ull

static const char *const ops[NOPS] = {"swap", "cmpswap", "add", "sub", "smin", "umin", "smax",
                                      "umax", "and",     "or",  "xor", "inc",  "dec"};

static uint32_t xs(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

/* ---- the ISA's atomics (RDNA ISA, S_ATOMIC_*): the new memory value ---- */

static uint64_t isa_atomic(const char *op, unsigned bits, uint64_t old, uint64_t v, uint64_t cmp)
{
    uint64_t m = bits == 64 ? ~0ull : 0xffffffffull;
    int64_t so = bits == 64 ? (int64_t)old : (int64_t)(int32_t)old;
    int64_t sv = bits == 64 ? (int64_t)v : (int64_t)(int32_t)v;
    old &= m;
    v &= m;
    if (!strcmp(op, "swap"))
        return v;
    if (!strcmp(op, "cmpswap"))
        return old == (cmp & m) ? v : old;
    if (!strcmp(op, "add"))
        return (old + v) & m;
    if (!strcmp(op, "sub"))
        return (old - v) & m;
    if (!strcmp(op, "smin"))
        return (uint64_t)(sv < so ? sv : so) & m;
    if (!strcmp(op, "umin"))
        return v < old ? v : old;
    if (!strcmp(op, "smax"))
        return (uint64_t)(sv > so ? sv : so) & m;
    if (!strcmp(op, "umax"))
        return v > old ? v : old;
    if (!strcmp(op, "and"))
        return old & v;
    if (!strcmp(op, "or"))
        return old | v;
    if (!strcmp(op, "xor"))
        return old ^ v;
    if (!strcmp(op, "inc")) /* tmp >= src ? 0 : tmp + 1 */
        return old >= v ? 0 : (old + 1) & m;
    if (!strcmp(op, "dec")) /* tmp == 0 || tmp > src ? src : tmp - 1 */
        return (old == 0 || old > v) ? v : (old - 1) & m;
    fail_msg("unknown op %s", op);
    return 0;
}

/* ---- the program ------------------------------------------------------------ */

typedef struct prog {
    wlt_text text;
    unsigned nres;  /* values each wave stores to its result row */
    unsigned nhash; /* values hashed */
    unsigned waves; /* per group */
    /* operand constants: value = w * k1 + k0 (mod 2^32) per dword */
    uint32_t k[NOPS][2][3][2][2]; /* [op][width][step][dword][k0,k1] */
    uint32_t cmpk[NOPS][2][2][2]; /* the failing compare of step 2: [op][width][dword][k0,k1] */
} prog;

/* appends to the program's text */
#define emit(p, ...) wlt_textf(&(p)->text, __VA_ARGS__)

/* A value the wave got back is folded into the hash s42 = (s42 + s) * FNV.
 * Each invocation carrying the wave computes its own copy of the scalar
 * registers (D880), so each has its own hash of the values it saw; at the
 * end every lane writes its invocation's, and a lane that saw another
 * value shows. keep() also stores the value to the wave's result row (the
 * shared words' values, which the model cannot predict one by one). */
#define FNV 0x01000193u
static void res(prog *p, unsigned s)
{
    p->nhash++;
    emit(p, "s_add_u32 s42, s42, s%u\ns_mul_i32 s42, s42, 0x%x\n", s, FNV);
}

static void keep(prog *p, unsigned s)
{
    emit(p, "s_store_dword s%u, s[18:19], 0x%x\n", s, 4 * p->nres++);
    res(p, s);
}

/* s = w * k1 + k0 */
static void operand(prog *p, unsigned s, const uint32_t k[2])
{
    emit(p, "s_mul_i32 s%u, s12, 0x%x\ns_add_u32 s%u, s%u, 0x%x\n", s, k[1], s, s, k[0]);
}

/* Launch: s[0:1] slots, s[2:3] out (a hash a lane), s[4:7] the V# over
 * the shared words, s[8:9] the shared words, s[10:11] the result rows, s12
 * the workgroup id (moved to s41). w (s12) is the wave's number in the
 * dispatch, s13 = w + 1, s[16:17] its slot, s[18:19] its result row. v1:
 * the lane's out word, v3 its hash. */
static void build(prog *p, unsigned wave)
{
    memset(p, 0, sizeof *p);
    p->waves = (LOCAL + wave - 1) / wave;
    uint32_t seed = 0x5ca1ab1eu;
    for (unsigned o = 0; o < NOPS; o++)
        for (unsigned wd = 0; wd < 2; wd++) {
            for (unsigned st = 0; st < 3; st++)
                for (unsigned d = 0; d < 2; d++) {
                    p->k[o][wd][st][d][0] = xs(&seed);
                    p->k[o][wd][st][d][1] = xs(&seed) | 1;
                }
            for (unsigned d = 0; d < 2; d++) {
                p->cmpk[o][wd][d][0] = xs(&seed);
                p->cmpk[o][wd][d][1] = xs(&seed) | 1;
            }
        }
    emit(p, "s_mov_b32 s41, s12\ns_get_waveid_in_workgroup s40\ns_waitcnt lgkmcnt(0)\n"
            "s_mul_i32 s12, s41, %u\ns_add_u32 s12, s12, s40\ns_add_u32 s13, s12, 1\n"
            "s_mul_i32 s14, s12, %u\ns_add_u32 s16, s0, s14\ns_addc_u32 s17, s1, 0\n"
            "s_mul_i32 s15, s41, %u\nv_add_nc_u32 v1, s15, v0\nv_lshlrev_b32 v1, 2, v1\n"
            "s_mov_b32 s42, 0\n",
         p->waves, SLOT_BYTES, LOCAL);
    /* the row size is patched in below once nres is known */
    emit(p, "s_mul_i32 s14, s12, 0x@@@@\ns_add_u32 s18, s10, s14\ns_addc_u32 s19, s11, 0\n");
    size_t patch = (size_t)(strstr(p->text.s, "@@@@") - p->text.s);

    /* per-wave words: every kind, 32 and 64 bits, three steps */
    for (unsigned wd = 0; wd < 2; wd++)
        for (unsigned o = 0; o < NOPS; o++) {
            unsigned bits = wd ? 64 : 32, words = wd ? 2 : 1;
            unsigned at = wd ? A64_AT + 8 * o : A32_AT + 4 * o;
            int cs = !strcmp(ops[o], "cmpswap");
            for (unsigned st = 0; st < 3; st++) {
                unsigned d = 20; /* data: s20 (s[20:21]); cmpswap compare after it */
                for (unsigned i = 0; i < words; i++)
                    operand(p, d + i, p->k[o][wd][st][i]);
                if (cs && st != 1 && words == 1) /* compare with what the word holds: succeeds */
                    emit(p, "s_load_dword s%u, s[16:17], 0x%x glc\ns_waitcnt lgkmcnt(0)\n", d + 1, at);
                if (cs && st != 1 && words == 2)
                    emit(p, "s_load_dwordx2 s[%u:%u], s[16:17], 0x%x glc\ns_waitcnt lgkmcnt(0)\n", d + 2, d + 3, at);
                if (cs && st == 1)
                    for (unsigned i = 0; i < words; i++)
                        operand(p, d + words + i, p->cmpk[o][wd][i]);
                unsigned nregs = words * (cs ? 2 : 1);
                if (nregs == 1)
                    emit(p, "s_atomic_%s s%u, s[16:17], 0x%x%s\n", ops[o], d, at, st < 2 ? " glc" : "");
                else
                    emit(p, "s_atomic_%s%s s[%u:%u], s[16:17], 0x%x%s\n", ops[o], wd ? "_x2" : "", d,
                         d + nregs - 1, at, st < 2 ? " glc" : "");
                emit(p, "s_waitcnt lgkmcnt(0)\n");
                for (unsigned i = 0; i < words; i++)
                    res(p, d + i);
            }
            (void)bits;
        }
    /* scalar stores, then an atomic and a load of what was stored */
    emit(p, "s_store_dword s13, s[16:17], 0x%x\n", STORE_AT);
    emit(p, "s_mul_i32 s20, s12, 3\ns_mul_i32 s21, s12, 5\ns_store_dwordx2 s[20:21], s[16:17], 0x%x\n", STORE_AT + 4);
    emit(p, "s_mul_i32 s20, s12, 7\ns_mul_i32 s21, s12, 11\ns_mul_i32 s22, s12, 13\ns_mul_i32 s23, s12, 17\n"
            "s_store_dwordx4 s[20:23], s[16:17], 0x%x\n", STORE_AT + 12);
    emit(p, "s_dcache_wb\ns_waitcnt lgkmcnt(0)\n");
    emit(p, "s_mov_b32 s20, 1\ns_atomic_add s20, s[16:17], 0x%x glc\ns_waitcnt lgkmcnt(0)\n", STORE_AT);
    keep(p, 20);
    emit(p, "s_load_dword s20, s[16:17], 0x%x glc\ns_waitcnt lgkmcnt(0)\n", STORE_AT);
    keep(p, 20);

    /* shared words: every wave of the dispatch */
    emit(p, "s_mov_b32 s20, s13\ns_atomic_add s20, s[8:9], 0x0 glc\n");            /* c0 */
    emit(p, "s_mov_b32 s21, 1\ns_buffer_atomic_add s21, s[4:7], 0x4 glc\n");        /* c1 */
    emit(p, "s_mov_b32 s22, 0xffff\ns_atomic_inc s22, s[8:9], 0x8 glc\n");          /* c2 */
    emit(p, "s_mov_b32 s24, s13\ns_mov_b32 s25, 0\ns_atomic_cmpswap s[24:25], s[8:9], 0xc glc\n"); /* c3 */
    emit(p, "s_mul_i32 s26, s13, 0x80000001\ns_mov_b32 s27, s13\n"
            "s_atomic_add_x2 s[26:27], s[8:9], 0x10 glc\n");                           /* c4 */
    emit(p, "s_mul_i32 s28, s12, 0x9e3779b1\ns_atomic_umax s28, s[8:9], 0x18 glc\n"); /* c5 */
    emit(p, "s_mul_i32 s29, s13, 0x85ebca6b\ns_atomic_xor s29, s[8:9], 0x1c\n");     /* c6: no glc */
    emit(p, "s_mov_b32 s30, s13\ns_atomic_swap s30, s[8:9], 0x20 glc\n");            /* c7 */
    emit(p, "s_mov_b32 s32, s13\ns_mov_b32 s33, s12\ns_atomic_sub_x2 s[32:33], s[8:9], 0x28 glc\n"); /* c8 */
    emit(p, "s_and_b32 s34, s12, 31\ns_lshl_b32 s34, 1, s34\ns_buffer_atomic_or s34, s[4:7], 0x30\n"); /* c9 */
    emit(p, "s_mov_b32 s35, 5\ns_buffer_atomic_add s35, s[4:7], 0x%x glc\n", CNT_INRANGE); /* c10 */
    emit(p, "s_mov_b32 s36, 1\ns_mov_b32 s37, 2\ns_mov_b32 s38, 0\ns_mov_b32 s39, 0\n"
            "s_buffer_atomic_cmpswap_x2 s[36:39], s[4:7], 0x%x glc\n", CNT_INRANGE - 4); /* c11 */
    emit(p, "s_lshl_b32 s40, s12, 2\ns_buffer_store_dword s13, s[4:7], s40 offset:0x40\n"); /* c12 */
    emit(p, "s_buffer_store_dword s13, s[4:7], s40 offset:0x%x\n", CNT_INRANGE);   /* c13: dropped */
    emit(p, "s_dcache_wb\ns_waitcnt lgkmcnt(0)\n");
    static const unsigned cres[] = {20, 21, 22, 24, 26, 27, 28, 29, 30, 32, 33, 34, 35, 36, 37};
    for (size_t i = 0; i < sizeof cres / sizeof cres[0]; i++)
        keep(p, cres[i]);
    emit(p, "v_mov_b32 v3, s42\nglobal_store_dword v1, v3, s[2:3]\ns_dcache_wb\ns_waitcnt vmcnt(0) lgkmcnt(0)\ns_endpgm\n");
    char hex[8];
    snprintf(hex, sizeof hex, "%04x", p->nres * 4);
    assert_true(strlen(hex) == 4);
    memcpy(p->text.s + patch, hex, 4);
}

/* ---- the capture ------------------------------------------------------------ */

typedef struct inits {
    uint32_t *slot; /* waves * SLOT_BYTES / 4 */
    uint32_t cnt[CNT_BYTES / 4];
} inits;

static wl_capture *make_capture(const uint8_t *code, size_t n, unsigned wave, unsigned nres, unsigned nw,
                                inits *in)
{
    char err[512];
    wl_capture *c = NULL;
    if (wl_capture_create(wl_target_from_name("gfx1010"), code, n, CODE_AT, 0, &c, err, sizeof err) != WL_OK)
        fail_msg("capture: %s", err);
    c->wave_size = wave;
    c->local[0] = LOCAL;
    c->groups[0] = GROUPS;
    c->user_sgpr_count = 12;
    uint32_t sg[12] = {(uint32_t)SLOT_AT, (uint32_t)(SLOT_AT >> 32), (uint32_t)OUT_AT, (uint32_t)(OUT_AT >> 32),
                       (uint32_t)CNT_AT, (uint32_t)(CNT_AT >> 32) & 0xffff, CNT_INRANGE, 0x31016facu,
                       (uint32_t)CNT_AT, (uint32_t)(CNT_AT >> 32), (uint32_t)RES_AT, (uint32_t)(RES_AT >> 32)};
    memcpy(c->user_sgpr, sg, sizeof sg);
    c->enable_workgroup_id[0] = 1;
    c->vgpr_workitem_ids = 1;
    c->source = strdup("raw: test_scalar_mem.c");
    size_t slot_words = (size_t)nw * SLOT_BYTES / 4;
    in->slot = malloc(slot_words * 4);
    uint32_t s = 0xfeedu + wave;
    for (size_t i = 0; i < slot_words; i++)
        in->slot[i] = xs(&s);
    for (unsigned i = 0; i < CNT_BYTES / 4; i++)
        in->cnt[i] = i * 4 >= CNT_INRANGE ? TAIL_FILL : 0;
    in->cnt[0] = 1000;               /* c0: add chain from 1000 */
    in->cnt[6] = 0x01234567u;        /* c5: umax */
    in->cnt[7] = 0x0badf00du;        /* c6: xor */
    in->cnt[8] = 0xdeadu;            /* c7: swap */
    in->cnt[10] = 0x11111111u;       /* c8: sub_x2 from 0x2222222211111111 */
    in->cnt[11] = 0x22222222u;
    in->cnt[12] = 0x80000000u;       /* c9: or */
    in->cnt[31] = 0x3c3c3c3cu;       /* c11's in-range half */
    size_t out_bytes = (size_t)ITEMS * 4, res_bytes = (size_t)nw * nres * 4;
    uint32_t *fill = malloc(res_bytes > out_bytes ? res_bytes : out_bytes);
    for (size_t i = 0; i < (res_bytes > out_bytes ? res_bytes : out_bytes) / 4; i++)
        fill[i] = 0xeeeeeeeeu;
    assert_int_equal(wl_capture_add_range(c, "code", CODE_AT, c->code, c->code_size, 0, err, sizeof err), WL_OK);
    assert_int_equal(wl_capture_add_range(c, "slot", SLOT_AT, in->slot, slot_words * 4, 1, err, sizeof err), WL_OK);
    assert_int_equal(wl_capture_add_range(c, "out", OUT_AT, fill, out_bytes, 1, err, sizeof err), WL_OK);
    assert_int_equal(wl_capture_add_range(c, "cnt", CNT_AT, in->cnt, CNT_BYTES, 1, err, sizeof err), WL_OK);
    assert_int_equal(wl_capture_add_range(c, "res", RES_AT, fill, res_bytes, 1, err, sizeof err), WL_OK);
    free(fill);
    assert_int_equal(wl_capture_add_field(c, WL_CAPTURE_FIELD_U64, NULL, 0, err, sizeof err), WL_OK);
    assert_int_equal(wl_capture_add_field(c, WL_CAPTURE_FIELD_U64, NULL, 8, err, sizeof err), WL_OK);
    assert_int_equal(wl_capture_add_field(c, WL_CAPTURE_FIELD_VSHARP, NULL, 16, err, sizeof err), WL_OK);
    assert_int_equal(wl_capture_add_field(c, WL_CAPTURE_FIELD_U64, NULL, 32, err, sizeof err), WL_OK);
    assert_int_equal(wl_capture_add_field(c, WL_CAPTURE_FIELD_U64, NULL, 40, err, sizeof err), WL_OK);
    if (wl_capture_check(c, err, sizeof err) != WL_OK)
        fail_msg("check: %s", err);
    return c;
}

/* ---- checking one run against the model ------------------------------------ */

static int fails;
static void bad(const char *fmt, ...)
{
    if (fails++ >= 8)
        return;
    va_list ap;
    va_start(ap, fmt);
    printf("  ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

static uint64_t val(const uint32_t k[2][2], unsigned words, uint32_t w)
{
    uint64_t v = (uint32_t)(w * k[0][1] + k[0][0]);
    if (words == 2)
        v |= (uint64_t)(uint32_t)(w * k[1][1] + k[1][0]) << 32;
    return v;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The old values `ret` (one per wave) of adds of `inc` to a word that held
 * `init` and ends as `fin`: one chain init -> ... -> fin. */
static void check_chain(const char *what, uint64_t *ret, const uint64_t *inc, unsigned nw, uint64_t init,
                        uint64_t fin, uint64_t mask, int sub)
{
    uint64_t cur = init;
    unsigned used = 0;
    char *done = calloc(nw, 1);
    for (unsigned step = 0; step < nw; step++) {
        unsigned hit = nw;
        for (unsigned i = 0; i < nw; i++)
            if (!done[i] && ret[i] == cur) {
                hit = i;
                break;
            }
        if (hit == nw) {
            bad("%s: no wave got the old value 0x%llx after %u steps", what, (unsigned long long)cur, step);
            free(done);
            return;
        }
        done[hit] = 1;
        used++;
        cur = (sub ? cur - inc[hit] : cur + inc[hit]) & mask;
    }
    if (cur != fin)
        bad("%s: the chain ends at 0x%llx, memory holds 0x%llx", what, (unsigned long long)cur,
            (unsigned long long)fin);
    free(done);
    (void)used;
}

static void check_run(const prog *p, unsigned wave, const inits *in, const uint32_t *slot, const uint32_t *out,
                      const uint32_t *cnt, const uint32_t *want)
{
    unsigned nw = p->waves * GROUPS;
    uint32_t *hash = calloc(nw, 4);
    for (unsigned w = 0; w < nw; w++) {
        const uint32_t *got = want + (size_t)w * p->nres;
        uint32_t h = 0;
        const uint32_t *s0 = in->slot + (size_t)w * SLOT_BYTES / 4, *s1 = slot + (size_t)w * SLOT_BYTES / 4;
        for (unsigned wd = 0; wd < 2; wd++)
            for (unsigned o = 0; o < NOPS; o++) {
                unsigned bits = wd ? 64 : 32, words = wd ? 2 : 1;
                unsigned at = (wd ? A64_AT + 8 * o : A32_AT + 4 * o) / 4;
                uint64_t mem = s0[at] | (wd ? (uint64_t)s0[at + 1] << 32 : 0);
                int cs = !strcmp(ops[o], "cmpswap");
                for (unsigned st = 0; st < 3; st++) {
                    uint64_t v = val(p->k[o][wd][st], words, w);
                    uint64_t cmp = cs && st == 1 ? val(p->cmpk[o][wd], words, w) : mem;
                    uint64_t expect = st < 2 ? mem : v; /* GLC: the old value; else DATA kept */
                    h = (h + (uint32_t)expect) * FNV;
                    if (words == 2)
                        h = (h + (uint32_t)(expect >> 32)) * FNV;
                    mem = isa_atomic(ops[o], bits, mem, v, cmp);
                }
                uint64_t m1 = s1[at] | (wd ? (uint64_t)s1[at + 1] << 32 : 0);
                if (m1 != mem)
                    bad("wave %u: s_atomic_%s%s left 0x%llx, expected 0x%llx", w, ops[o], wd ? "_x2" : "",
                        (unsigned long long)m1, (unsigned long long)mem);
            }
        uint32_t st_want[7] = {w + 2, w * 3, w * 5, w * 7, w * 11, w * 13, w * 17};
        for (unsigned i = 0; i < 7; i++)
            if (s1[STORE_AT / 4 + i] != st_want[i])
                bad("wave %u: stored word %u is 0x%x, expected 0x%x", w, i, s1[STORE_AT / 4 + i], st_want[i]);
        if (got[0] != w + 1 || got[1] != w + 2)
            bad("wave %u: atomic after the store returned 0x%x (expected 0x%x), the load read 0x%x (0x%x)", w,
                got[0], w + 1, got[1], w + 2);
        for (unsigned i = 0; i < p->nres; i++) /* the stored values: checked here and below */
            h = (h + got[i]) * FNV;
        hash[w] = h;
        for (unsigned i = STORE_AT / 4 + 7; i < SLOT_BYTES / 4; i++)
            if (s1[i] != s0[i])
                bad("wave %u: slot word %u changed", w, i);
    }
    /* every lane: the hash of what its invocation saw, over the model's
     * values for the wave's own words and its row's for the shared ones */
    for (unsigned g = 0; g < ITEMS; g++) {
        unsigned w = (g / LOCAL) * p->waves + (g % LOCAL) / wave;
        if (out[g] != hash[w])
            bad("wave %u, lane %u: the hash of the values it saw is 0x%08x, expected 0x%08x", w, g % LOCAL % wave,
                out[g], hash[w]);
    }
    free(hash);
    /* the shared words */
    unsigned base = p->nres - 15;
    uint64_t *ret = calloc(nw, 8), *inc = calloc(nw, 8);
    uint64_t c5 = in->cnt[6], c6 = in->cnt[7], c9 = in->cnt[12];
    uint64_t total = 0;
    /* c0: add w+1 */
    for (unsigned w = 0; w < nw; w++) {
        ret[w] = want[(size_t)w * p->nres + base + 0];
        inc[w] = w + 1;
        total += w + 1;
    }
    if (cnt[0] != in->cnt[0] + total)
        bad("shared add: 0x%x, expected the sum 0x%llx", cnt[0], (unsigned long long)(in->cnt[0] + total));
    check_chain("shared add", ret, inc, nw, in->cnt[0], cnt[0], 0xffffffffu, 0);
    /* c1, c2: tickets 0..nw-1 */
    for (int t = 0; t < 2; t++) {
        char *seen = calloc(nw, 1);
        for (unsigned w = 0; w < nw; w++) {
            uint32_t v = want[(size_t)w * p->nres + base + 1 + t];
            if (v >= nw || seen[v])
                bad("%s ticket of wave %u: %u (not a permutation of 0..%u)", t ? "inc" : "buffer add", w, v, nw - 1);
            else
                seen[v] = 1;
        }
        free(seen);
        if (cnt[1 + t] != nw)
            bad("%s ticket word: %u, expected %u", t ? "inc" : "buffer add", cnt[1 + t], nw);
    }
    /* c3: cmpswap 0 -> w+1: one winner */
    unsigned winners = 0;
    for (unsigned w = 0; w < nw; w++) {
        uint32_t v = want[(size_t)w * p->nres + base + 3];
        if (v == 0) {
            winners++;
            if (cnt[3] != w + 1)
                bad("cmpswap: wave %u won, the word holds %u", w, cnt[3]);
        } else if (v != cnt[3]) {
            bad("cmpswap: wave %u lost and saw %u, the word holds %u", w, v, cnt[3]);
        }
    }
    if (winners != 1)
        bad("cmpswap: %u winners", winners);
    /* c4: add_x2 of (w+1) * 0x1_80000001 as written (hi = w+1, lo = (w+1)*0x80000001 mod 2^32) */
    total = 0;
    for (unsigned w = 0; w < nw; w++) {
        const uint32_t *v = want + (size_t)w * p->nres + base;
        ret[w] = v[4] | (uint64_t)v[5] << 32;
        inc[w] = (uint32_t)((w + 1) * 0x80000001u) | (uint64_t)(w + 1) << 32;
        total += inc[w];
    }
    uint64_t c4 = cnt[4] | (uint64_t)cnt[5] << 32;
    if (c4 != total)
        bad("shared add_x2: 0x%llx, expected 0x%llx", (unsigned long long)c4, (unsigned long long)total);
    check_chain("shared add_x2", ret, inc, nw, 0, c4, ~0ull, 0);
    /* c5: umax; c6: xor (no GLC: DATA kept); c7: swap; c9: or */
    uint64_t *sw = calloc(nw + 1, 8), *vals = calloc(nw + 1, 8);
    for (unsigned w = 0; w < nw; w++) {
        const uint32_t *v = want + (size_t)w * p->nres + base;
        uint32_t mx = w * 0x9e3779b1u;
        c5 = mx > c5 ? mx : c5;
        c6 ^= (uint32_t)((w + 1) * 0x85ebca6bu);
        if (v[7] != (uint32_t)((w + 1) * 0x85ebca6bu))
            bad("xor without GLC: wave %u's DATA became 0x%x", w, v[7]);
        sw[w] = v[8];
        vals[w] = w + 1;
        c9 |= 1u << (w & 31);
        /* umax's old value: the initial word or some wave's operand, never above the final */
        int found = v[6] == in->cnt[6];
        for (unsigned x = 0; x < nw && !found; x++)
            found = v[6] == (uint32_t)(x * 0x9e3779b1u);
        if (!found)
            bad("umax: wave %u saw 0x%x, no wave's value", w, v[6]);
        /* sub_x2 (c8): chain below */
        ret[w] = v[9] | (uint64_t)v[10] << 32;
        inc[w] = (w + 1) | (uint64_t)w << 32;
        if (v[11] != 1u << (w & 31))
            bad("or without GLC: wave %u's DATA became 0x%x", w, v[11]);
        if (v[12] != 0)
            bad("buffer add out of range: wave %u got 0x%x, expected 0", w, v[12]);
        if (v[13] != 0 || v[14] != 0)
            bad("buffer cmpswap_x2 out of range: wave %u got 0x%x%08x, expected 0", w, v[14], v[13]);
    }
    if (cnt[6] != c5)
        bad("umax: 0x%x, expected 0x%llx", cnt[6], (unsigned long long)c5);
    if (cnt[7] != c6)
        bad("xor: 0x%x, expected 0x%llx", cnt[7], (unsigned long long)c6);
    if (cnt[12] != c9)
        bad("buffer or: 0x%x, expected 0x%llx", cnt[12], (unsigned long long)c9);
    sw[nw] = cnt[8];
    vals[nw] = in->cnt[8];
    qsort(sw, nw + 1, 8, cmp_u64);
    qsort(vals, nw + 1, 8, cmp_u64);
    if (memcmp(sw, vals, (nw + 1) * 8))
        bad("swap: the old values and the final word are not a permutation of the initial word and the waves'");
    uint64_t c8 = cnt[10] | (uint64_t)cnt[11] << 32, c8i = in->cnt[10] | (uint64_t)in->cnt[11] << 32;
    uint64_t c8w = c8i;
    for (unsigned w = 0; w < nw; w++)
        c8w -= inc[w];
    if (c8 != c8w)
        bad("sub_x2: 0x%llx, expected 0x%llx", (unsigned long long)c8, (unsigned long long)c8w);
    check_chain("shared sub_x2", ret, inc, nw, c8i, c8, ~0ull, 1);
    /* c12 (in range) and the words nothing may touch */
    for (unsigned i = 0; i < CNT_BYTES / 4; i++) {
        uint32_t e = in->cnt[i];
        if (i >= 16 && i < 16 + nw)
            e = i - 16 + 1;
        else if (i <= 12 && i != 9)
            continue; /* checked above (9: unused) */
        if (cnt[i] != e)
            bad("shared word %u: 0x%x, expected 0x%x", i, cnt[i], e);
    }
    free(sw);
    free(vals);
    free(ret);
    free(inc);
}

/* ---- running ------------------------------------------------------------------ */

typedef struct cfg {
    const char *model; /* lanes | wave */
    unsigned sub;      /* lanes: the subgroup size (lavapipe: vector width / 32) */
} cfg;

static uint32_t *read_words(const char *dir, const char *name, size_t want)
{
    char path[700];
    snprintf(path, sizeof path, "%s/%s.bin", dir, name);
    size_t n = 0;
    uint32_t *w = (uint32_t *)wlt_read_file(path, &n);
    if (!w || n != want)
        fail_msg("%s: %zu bytes, expected %zu", path, w ? n : 0, want);
    return w;
}

static void run_wave_size(unsigned wave, unsigned *runs)
{
    prog p;
    build(&p, wave);
    size_t n = 0;
    char *msg;
    uint8_t *code = wlt_assemble(p.text.s, "gfx1010", wave, &n, &msg);
    if (!code)
        fail_msg("llvm-mc:\n%s", msg);
    unsigned nw = p.waves * GROUPS;
    inits in;
    wl_capture *c = make_capture(code, n, wave, p.nres, nw, &in);
    free(code);
    char *tmp = wlt_tmpdir();
    char dir[600], err[512], cmd[4096];
    snprintf(dir, sizeof dir, "%s/sm.cap", tmp);
    if (wl_capture_write(c, dir, err, sizeof err) != WL_OK)
        fail_msg("write: %s", err);
    wl_capture_free(c);
    /* lavapipe's subgroup sizes 4, 8, 16: k = W / S */
    const cfg cfgs[] = {{"lanes", 4}, {"lanes", 8}, {"lanes", 16}, {"wave", 0}};
    const char *only = getenv("WLT_SCALAR_MEM_ONLY"); /* debugging: one configuration, "lanes4", "wave0" */
    for (size_t i = 0; i < sizeof cfgs / sizeof cfgs[0]; i++) {
        const cfg *f = &cfgs[i];
        if (wave == 32 && f->sub == 8)
            continue; /* k = 4 is covered by wave64 at S = 16 */
        char nm[32];
        snprintf(nm, sizeof nm, "%s%u", f->model, f->sub);
        if (only && strcmp(only, nm)) {
            (*runs)++; /* counted as if run: the count checks below stay the same */
            continue;
        }

        char od[700], sgs[64] = "";
        snprintf(od, sizeof od, "%s/o%zu", tmp, i);
        if (f->sub)
            snprintf(sgs, sizeof sgs, " --subgroup-size %u", f->sub);
        snprintf(cmd, sizeof cmd, "mkdir -p '%s' && WAVELIFT_DEVICE=llvmpipe LP_NATIVE_VECTOR_WIDTH=%u '%s' replay '%s' "
                 "--model %s%s --out-dir '%s' --runs 1 --timeout-ms 120000 2>&1",
                 od, f->sub ? f->sub * 32 : 256, WL_CLI, dir, f->model, sgs, od);
        int rc;
        char *o = wlt_run(cmd, &rc);
        assert_non_null(o);
        if (rc) {
            printf("%s", o);
            fail_msg("wave%u, %s model%s: replay exit %d", wave, f->model, sgs, rc);
        }
        free(o);
        uint32_t *slot = read_words(od, "slot", (size_t)nw * SLOT_BYTES);
        uint32_t *out = read_words(od, "out", (size_t)ITEMS * 4);
        uint32_t *cnt = read_words(od, "cnt", CNT_BYTES);
        uint32_t *rows = read_words(od, "res", (size_t)nw * p.nres * 4);
        fails = 0;
        check_run(&p, wave, &in, slot, out, cnt, rows);
        free(rows);
        char label[64];
        if (f->sub)
            snprintf(label, sizeof label, "lanes S=%-2u k=%-2u", f->sub, wave / f->sub);
        else
            snprintf(label, sizeof label, "wave model     ");
        printf("wave%u %s: %u waves, %u values hashed a lane, %u lanes: %s\n", wave, label, nw, p.nhash, ITEMS,
               fails ? "DIFFER" : "all match the ISA model");
        free(slot);
        free(out);
        free(cnt);
        if (fails)
            fail_msg("wave%u %s: %d mismatches", wave, label, fails);
        (*runs)++;
    }
    free(in.slot);
    free(p.text.s);
    if (getenv("WLT_KEEP")) {
        printf("kept %s\n", tmp);
    } else {
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
        free(wlt_run(cmd, NULL));
    }
    free(tmp);
}

static void scalar_mem_wave64(void **state)
{
    (void)state;
    unsigned runs = 0;
    run_wave_size(64, &runs);
    printf("wave64: %u runs, %u match\n", runs, runs);
    assert_int_equal(runs, 4);
}

static void scalar_mem_wave32(void **state)
{
    (void)state;
    unsigned runs = 0;
    run_wave_size(32, &runs);
    printf("wave32: %u runs, %u match\n", runs, runs);
    assert_int_equal(runs, 3);
}

/* Refusals: scalar atomics are not gfx1030 instructions (the same bytes in
 * a gfx1030 capture do not decode), and a 64-bit scalar atomic at an address 4-
 * but not 8-byte aligned is an escape (WL_ESC_UNALIGNED64 = 4) the replay
 * refuses, in both models. */
static void refusals(void **state)
{
    (void)state;
    static const char text[] = "s_mov_b32 s20, 1\ns_mov_b32 s21, 0\n"
                               "s_atomic_add_x2 s[20:21], s[0:1], 0x4 glc\ns_waitcnt lgkmcnt(0)\ns_endpgm\n";
    size_t n = 0;
    char *msg;
    uint8_t *code = wlt_assemble(text, "gfx1010", 64, &n, &msg);
    if (!code)
        fail_msg("llvm-mc:\n%s", msg);
    char *tmp = wlt_tmpdir();
    char err[512], cmd[4096];
    unsigned refused = 0;
    for (int t = 0; t < 3; t++) { /* gfx1030; gfx1010 lanes; gfx1010 wave */
        inits in;
        wl_capture *c = make_capture(code, n, 64, 1, (LOCAL + 63) / 64 * GROUPS, &in);
        if (t == 0)
            c->target = wl_target_from_name("gfx1030");
        char dir[700];
        snprintf(dir, sizeof dir, "%s/r%d.cap", tmp, t);
        if (wl_capture_write(c, dir, err, sizeof err) != WL_OK)
            fail_msg("write: %s", err);
        wl_capture_free(c);
        free(in.slot);
        snprintf(cmd, sizeof cmd, "WAVELIFT_DEVICE=llvmpipe '%s' replay '%s' --model %s --runs 1 2>&1", WL_CLI, dir,
                 t == 2 ? "wave" : "lanes");
        int rc;
        char *o = wlt_run(cmd, &rc);
        assert_non_null(o);
        printf("%s", o);
        /* gfx1030 has no such encoding: the decoder rejects the bytes */
        int ok = t == 0 ? rc != 0 && strstr(o, "invalid instruction encoding at offset 0x8") != NULL
                        : rc == 3 && strstr(o, "refused") && strstr(o, "escape kind 4") != NULL;
        free(o);
        if (!ok)
            fail_msg("case %d: exit %d, not refused by name", t, rc);
        refused++;
    }
    printf("%u of 3 refused by name\n", refused);
    free(code);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    free(wlt_run(cmd, NULL));
    free(tmp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(refusals),
        cmocka_unit_test(scalar_mem_wave64),
        cmocka_unit_test(scalar_mem_wave32),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
