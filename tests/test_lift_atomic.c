/* The float compare-and-swap and the clamping subtract atomics
 * (frontend/lift/lift_mem_cas.c), executed.
 *
 * Each program loads a lane's operands, runs one atomic through one path
 * (buffer_atomic_*, global_atomic_*, flat_atomic_* to a global address and
 * to the LDS aperture), with and without glc, and stores what it returned;
 * it is assembled by llvm-mc-19 (gfx1030, wave64 and wave32), lifted,
 * checked by the wave-IR verifier and run by the reference executor
 * (tests/wlt_wir_exec.h) with holes in EXEC. The guest memory afterwards
 * must equal the C model's, written here from the ISA's definitions:
 *
 *   fcmpswap  tmp = MEM; MEM = (tmp == cmp) ? src : tmp; RETURN = tmp, the
 *             data {src, cmp}, == the IEEE comparison (-0 == +0, a NaN
 *             equals nothing, otherwise the same value), 32 or 64 bits
 *   csub      tmp = MEM; MEM = tmp < data ? 0 : tmp - data; RETURN = tmp
 *
 * One address a lane: operands from edge values (signed zeros, quiet and
 * signaling NaNs with equal bits, infinities, denormals, equal and unequal
 * bits); buffer forms without glc also have lanes past num_records, which
 * must leave memory alone. All lanes at one address: the results must be
 * those of the lanes' atomics in some order (fcmpswap: one lane finds the
 * initial zero and swaps, every other lane returns the winner's value;
 * csub: the returned values chain from the initial value down by the
 * lanes' subtrahends, clamped at 0). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <llvm-c/Core.h>

#include "support.h"
#include "wavelift/translate.h"
#include "wavelift/runtime.h"
#include "wavelift/lower.h"
#include "wlt_wir_exec.h"
#include "wlt_lift_run.h"

#define IN_OFF 0x0000u  /* 16 bytes a lane: src, cmp (32 bits: at 0 and 4; 64: at 0 and 8) */
#define MEM_OFF 0x1000u /* 8 bytes a lane: the atomic's memory */
#define RES_OFF 0x2000u /* 8 bytes a lane: what it returned */

enum { K_F32, K_F64, K_CSUB };
enum { P_BUFFER, P_GLOBAL, P_FLAT, P_FLAT_LDS, P_NPATHS };
static const char *const path_name[P_NPATHS] = {"buffer", "global", "flat", "flat(lds)"};

static uint32_t rnd_state = 0x9e3779b9u;
static uint32_t rnd(void)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 17;
    rnd_state ^= rnd_state << 5;
    return rnd_state;
}

/* ---- the C models (the ISA's definitions) ---- */

static int feq32(uint32_t a, uint32_t b)
{
    float x, y;
    memcpy(&x, &a, 4);
    memcpy(&y, &b, 4);
    return x == y; /* the host compiler's IEEE comparison (no fast-math, denormals kept by the C ABI) */
}

static int feq64(uint64_t a, uint64_t b)
{
    double x, y;
    memcpy(&x, &a, 8);
    memcpy(&y, &b, 8);
    return x == y;
}

/* One atomic on *mem; returns the old value. */
static uint64_t model(int kind, uint8_t *mem, uint64_t src, uint64_t cmp)
{
    if (kind == K_F64) {
        uint64_t t;
        memcpy(&t, mem, 8);
        if (feq64(t, cmp))
            memcpy(mem, &src, 8);
        return t;
    }
    uint32_t t, n;
    memcpy(&t, mem, 4);
    if (kind == K_F32)
        n = feq32(t, (uint32_t)cmp) ? (uint32_t)src : t;
    else
        n = t < (uint32_t)src ? 0 : t - (uint32_t)src;
    memcpy(mem, &n, 4);
    return t;
}

/* ---- operands ---- */

static uint32_t edge32(void)
{
    static const uint32_t e[] = {0x00000000u, 0x80000000u, 0x7fc00000u, 0xffc00000u, 0x7f800001u, 0x7fbfffffu,
                                 0x7f800000u, 0xff800000u, 0x3f800000u, 0xbf800000u, 0x00000001u, 0x807fffffu,
                                 0x00800000u, 0x7f7fffffu, 0x3f800001u};
    return rnd() % 4 ? e[rnd() % (sizeof e / sizeof e[0])] : rnd();
}

static uint64_t edge64(void)
{
    static const uint64_t e[] = {0, 0x8000000000000000ull, 0x7ff8000000000000ull, 0xfff8000000000001ull,
                                 0x7ff0000000000001ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
                                 0x3ff0000000000000ull, 0xbff0000000000000ull, 1, 0x800fffffffffffffull,
                                 0x0010000000000000ull, 0x3ff0000000000001ull, 0x3ff0000100000000ull};
    return rnd() % 4 ? e[rnd() % (sizeof e / sizeof e[0])] : (uint64_t)rnd() << 32 | rnd();
}

/* memory value, compare value (fcmpswap: often equal in bits, as a zero of
 * the other sign, or the other half changed for 64 bits) and source */
static void gen(int kind, uint64_t *mem, uint64_t *src, uint64_t *cmp)
{
    if (kind == K_CSUB) {
        static const uint32_t e[] = {0, 1, 5, 0x7fffffffu, 0x80000000u, 0xffffffffu};
        uint32_t m = rnd() % 2 ? e[rnd() % 6] : rnd();
        uint32_t d;
        switch (rnd() % 7) {
        case 0: d = 0; break;
        case 1: d = m; break;
        case 2: d = m + 1; break;
        case 3: d = m - 1; break;
        case 4: d = 0xffffffffu; break;
        case 5: d = rnd() % 16; break;
        default: d = rnd(); break;
        }
        *mem = m;
        *src = d;
        *cmp = 0;
        return;
    }
    uint64_t m = kind == K_F32 ? edge32() : edge64();
    uint64_t sign = kind == K_F32 ? 0x80000000u : 0x8000000000000000ull;
    uint64_t c;
    switch (rnd() % 6) {
    case 0: case 1: c = m; break;
    case 2: c = m ^ sign; break;
    case 3: c = kind == K_F64 ? m ^ (1ull << (rnd() % 2 ? 0 : 32)) : m ^ 1; break;
    default: c = kind == K_F32 ? edge32() : edge64(); break;
    }
    *mem = m;
    *cmp = c;
    *src = kind == K_F32 ? rnd() : (uint64_t)rnd() << 32 | rnd();
}

/* ---- programs ---- */

/* The atomic's text for a kind, path and glc; the data in v[4:5] (32-bit
 * fcmpswap: src v4, cmp v5; 64-bit: v[4:5], v[6:7]; csub: v4); the return
 * in v10 (v[10:11]) for global and flat, in v4 (v[4:5]) for buffer. */
static void op_text(char *t, size_t cap, int kind, int path, int glc)
{
    const char *nm = kind == K_F32 ? "fcmpswap" : kind == K_F64 ? "fcmpswap_x2" : "csub";
    const char *data = kind == K_F32 ? "v[4:5]" : kind == K_F64 ? "v[4:7]" : "v4";
    const char *ret = kind == K_F64 ? "v[10:11]" : "v10";
    const char *g = glc ? " glc" : "";
    if (path == P_BUFFER)
        snprintf(t, cap, "buffer_atomic_%s %s, v2, s[8:11], 0 offen%s", nm, data, g);
    else if (path == P_GLOBAL)
        snprintf(t, cap, "global_atomic_%s %s%sv9, %s, s[0:1]%s", nm, glc ? ret : "", glc ? ", " : "", data, g);
    else
        snprintf(t, cap, "flat_atomic_%s %s%sv[12:13], %s%s", nm, glc ? ret : "", glc ? ", " : "", data, g);
}

/* The whole program: v2 = 8 * lane (buffer offset; the LDS address),
 * v9 = MEM_OFF + v2, v3 = RES_OFF + v2, v[12:13] the flat address; `same`:
 * every lane at the first element. */
static void program(char *text, size_t cap, int kind, int path, int glc, uint32_t nrec, int same)
{
    char op[160];
    op_text(op, sizeof op, kind, path, glc);
    unsigned w = kind == K_F64 ? 2 : 1;
    const char *ld = w == 2 ? "global_load_dwordx2 v[14:15], v9, s[0:1]\n" : "global_load_dword v14, v9, s[0:1]\n";
    const char *dsw = w == 2 ? "ds_write_b64 v2, v[14:15]\n" : "ds_write_b32 v2, v14\n";
    const char *dsr = w == 2 ? "ds_read_b64 v[14:15], v2\n" : "ds_read_b32 v14, v2\n";
    const char *st = w == 2 ? "global_store_dwordx2 v9, v[14:15], s[0:1]\n" : "global_store_dword v9, v14, s[0:1]\n";
    const char *rv = path == P_BUFFER ? (w == 2 ? "v[4:5]" : "v4") : (w == 2 ? "v[10:11]" : "v10");
    char pre[512] = "", post[512] = "", res[128] = "";
    if (path == P_FLAT_LDS) {
        /* the memory value into the LDS, the atomic through the shared aperture, then back */
        snprintf(pre, sizeof pre, "%s s_waitcnt vmcnt(0)\n%s s_waitcnt lgkmcnt(0)\nv_mov_b32 v12, v2\n"
                 "v_mov_b32 v13, 0x10000\n", ld, dsw);
        snprintf(post, sizeof post, "s_waitcnt vmcnt(0) lgkmcnt(0)\n%s s_waitcnt lgkmcnt(0)\n%s", dsr, st);
    } else if (path == P_FLAT) {
        snprintf(pre, sizeof pre, "v_add_nc_u32 v12, s0, v9\nv_mov_b32 v13, s1\n");
    }
    if (glc || path == P_BUFFER)
        snprintf(res, sizeof res, "s_waitcnt vmcnt(0)\nglobal_store_%s v3, %s, s[0:1]\n", w == 2 ? "dwordx2" : "dword",
                 rv);
    snprintf(text, cap,
             "v_lshlrev_b32 v1, 4, v0\n"
             "global_load_dwordx4 v[4:7], v1, s[0:1]\n"
             "v_lshlrev_b32 v2, 3, v0\n"
             "v_add_nc_u32 v3, 0x%x, v2\n"
             "%s"
             "v_add_nc_u32 v9, 0x%x, v2\n"
             "s_add_u32 s8, s0, 0x%x\n" /* the V#'s base: the memory at s[0:1] + MEM_OFF */
             "s_addc_u32 s9, s1, 0\n"
             "s_mov_b32 s10, 0x%x\n"
             "s_mov_b32 s11, 0x30000000\n" /* oob_select 3: offset < num_records */
             "s_waitcnt vmcnt(0)\n"
             "%s%s\n%s%s"
             "s_endpgm\n",
             RES_OFF, same ? "v_mov_b32 v2, 0\n" : "", MEM_OFF, MEM_OFF, nrec, pre, op, post, res);
}

static void init_state(wlx_state *st, unsigned W) { wlt_lr_init(st, W, RES_OFF); }

static void show_byte(const wlx_state *st, const wlx_state *want, unsigned a, const char *label, unsigned W)
{
    unsigned l = (a % 0x1000) / (a < MEM_OFF ? 16 : 8);
    uint64_t s, c;
    memcpy(&s, want->g + IN_OFF + 16 * l, 8);
    memcpy(&c, want->g + IN_OFF + 16 * l + 8, 8);
    print_message("  %s w%u: byte 0x%x (lane %u): got 0x%02x want 0x%02x (in 0x%016llx 0x%016llx)\n", label, W, a,
                  l, st->g[a], want->g[a], (unsigned long long)s, (unsigned long long)c);
}

static unsigned diff_mem(const wlx_state *st, const wlx_state *want, const char *label, unsigned W)
{
    return wlt_lr_diff(st, want, label, W, show_byte);
}

/* One address a lane: the program, the inputs in *st (whose W and EXEC
 * are set) and the model's memory in *want. */
static void setup_lanes(int kind, int path, int glc, char *text, size_t cap, wlx_state *st, wlx_state *want,
                        unsigned *swaps)
{
    unsigned W = st->W;
    /* buffer without glc: the last lanes past num_records (their memory untouched) */
    uint32_t nrec = path == P_BUFFER && !glc ? 8 * (W - 6) : 0x10000;
    program(text, cap, kind, path, glc, nrec, 0);
    for (unsigned l = 0; l < 64; l++) {
        uint64_t m, s, c;
        gen(kind, &m, &s, &c);
        if (kind == K_F64) {
            memcpy(st->g + IN_OFF + 16 * l, &s, 8);
            memcpy(st->g + IN_OFF + 16 * l + 8, &c, 8);
            memcpy(st->g + MEM_OFF + 8 * l, &m, 8);
        } else {
            uint32_t s32 = (uint32_t)s, c32 = (uint32_t)c, m32 = (uint32_t)m, junk = rnd();
            memcpy(st->g + IN_OFF + 16 * l, &s32, 4);
            memcpy(st->g + IN_OFF + 16 * l + 4, &c32, 4);
            memcpy(st->g + IN_OFF + 16 * l + 8, &junk, 4);
            memcpy(st->g + MEM_OFF + 8 * l, &m32, 4);
            memcpy(st->g + MEM_OFF + 8 * l + 4, &junk, 4);
        }
    }
    *want = *st;
    unsigned nb = kind == K_F64 ? 8 : 4;
    for (unsigned l = 0; l < W; l++) {
        if (!((want->exec >> l) & 1))
            continue;
        uint64_t s = 0, c = 0, before = 0, after = 0;
        memcpy(&s, want->g + IN_OFF + 16 * l, nb);
        memcpy(&c, want->g + IN_OFF + 16 * l + nb, nb);
        uint8_t *mem = want->g + MEM_OFF + 8 * l;
        memcpy(&before, mem, nb);
        uint64_t r = s; /* buffer without glc: vdata kept */
        if (8 * l < nrec) {
            uint64_t old = model(kind, mem, s, c);
            if (glc)
                r = old;
        }
        memcpy(&after, mem, nb);
        *swaps += after != before;
        if (glc || path == P_BUFFER)
            memcpy(want->g + RES_OFF + 8 * l, &r, nb);
    }
}

static const char *kind_name(int kind) { return kind == K_F32 ? "fcmpswap" : kind == K_F64 ? "fcmpswap_x2" : "csub"; }

/* One address a lane on the reference executor; returns the differing bytes. */
static unsigned run_lanes(int kind, int path, int glc, unsigned W, unsigned *swaps)
{
    char text[4096], label[96];
    snprintf(label, sizeof label, "%s %s%s", path_name[path], kind_name(kind), glc ? " glc" : "");
    static wlx_state st, want;
    init_state(&st, W);
    setup_lanes(kind, path, glc, text, sizeof text, &st, &want, swaps);
    wlt_lr_lift_run(text, W, &st, label);
    return diff_mem(&st, &want, label, W);
}

static void per_lane(void **state)
{
    (void)state;
    unsigned runs = 0, ok = 0, swaps = 0;
    for (int kind = K_F32; kind <= K_CSUB; kind++)
        for (int path = 0; path < P_NPATHS; path++) {
            if (kind == K_CSUB && path >= P_FLAT)
                continue; /* csub: buffer_ and global_ only */
            for (int glc = 1; glc >= 0; glc--)
                for (unsigned W = 64; W >= 32; W /= 2) {
                    for (int rep = 0; rep < 2; rep++) {
                        unsigned bad = run_lanes(kind, path, glc, W, &swaps);
                        runs++;
                        ok += bad == 0;
                    }
                }
        }
    print_message("fcmpswap/_x2 (buffer, global, flat, flat to LDS) and csub (buffer, global), glc and not, "
                  "wave64 and wave32, one address a lane: %u programs, %u match (%u lanes changed memory)\n",
                  runs, ok, swaps);
    assert_int_equal(runs, 80);
    assert_int_equal(ok, runs);
    assert_true(swaps > 500);
}

/* Every lane at one address: the results must come from one order of the
 * lanes' atomics. */
static const uint32_t same_m0[3] = {0x80000000u, 0, 1000u}; /* fcmpswap: -0 in memory; csub: 1000 */

static void setup_same(int kind, int path, char *text, size_t cap, wlx_state *st)
{
    program(text, cap, kind, path, 1, 0x10000, 1);
    memcpy(st->g + MEM_OFF, &same_m0[kind], 4);
    for (unsigned l = 0; l < 64; l++) {
        uint32_t s, c = l % 2 ? 0x00000000u : 0x80000000u; /* compare with +0 or -0: both equal -0 */
        if (kind == K_F32) {
            float f = (float)(l + 1);
            memcpy(&s, &f, 4);
        } else {
            s = 1 + (l * 7) % 40; /* >= 1: each step lowers the value until it is 0 */
        }
        memcpy(st->g + IN_OFF + 16 * l, &s, 4);
        memcpy(st->g + IN_OFF + 16 * l + 4, &c, 4);
    }
}

/* The results after the run (st: its memory; W, EXEC): 0 when they are one
 * order of the lanes' atomics. */
static unsigned check_same(int kind, const wlx_state *st, const char *label)
{
    unsigned W = st->W;
    uint32_t m0 = same_m0[kind];
    unsigned bad = st->faults + st->escapes;
    uint32_t fin, r[64];
    memcpy(&fin, st->g + MEM_OFF, 4);
    unsigned n = 0, act[64];
    for (unsigned l = 0; l < W; l++)
        if ((st->exec >> l) & 1) {
            memcpy(&r[n], st->g + RES_OFF + 8 * l, 4);
            act[n++] = l;
        }
    if (kind == K_F32) {
        /* exactly one lane got -0 (and swapped); all others got its value, now in memory */
        unsigned winners = 0, w = 0;
        for (unsigned i = 0; i < n; i++)
            if (r[i] == m0) {
                winners++;
                w = act[i];
            }
        uint32_t ws;
        memcpy(&ws, st->g + IN_OFF + 16 * w, 4);
        bad += winners != 1 || fin != ws;
        for (unsigned i = 0; i < n; i++)
            bad += r[i] != m0 && r[i] != ws;
    } else {
        /* replay: the lane that read the current value goes next (unique while it is above 0) */
        uint32_t cur = m0;
        int used[64] = {0};
        for (unsigned k = 0; k < n; k++) {
            unsigned pick = n;
            for (unsigned i = 0; i < n && pick == n; i++)
                if (!used[i] && r[i] == cur)
                    pick = i;
            if (pick == n) {
                bad++;
                break;
            }
            used[pick] = 1;
            uint32_t d;
            memcpy(&d, st->g + IN_OFF + 16 * act[pick], 4);
            cur = cur < d ? 0 : cur - d;
        }
        bad += cur != fin;
    }
    if (bad)
        print_message("  %s w%u: results are no order of the lanes' atomics (memory 0x%08x)\n", label, W, fin);
    return bad;
}

static unsigned run_same(int kind, int path, unsigned W)
{
    char text[4096], label[96];
    snprintf(label, sizeof label, "%s %s, one address", path_name[path], kind_name(kind));
    static wlx_state st;
    init_state(&st, W);
    setup_same(kind, path, text, sizeof text, &st);
    wlt_lr_lift_run(text, W, &st, label);
    return check_same(kind, &st, label);
}

static void one_address(void **state)
{
    (void)state;
    unsigned runs = 0, ok = 0;
    for (int kind = K_F32; kind <= K_CSUB; kind += K_CSUB - K_F32)
        for (int path = P_BUFFER; path <= P_GLOBAL; path++)
            for (unsigned W = 64; W >= 32; W /= 2) {
                ok += run_same(kind, path, W) == 0;
                runs++;
            }
    print_message("fcmpswap and csub, every lane at one address (buffer, global; wave64, wave32): "
                  "%u programs, %u consistent with one order\n", runs, ok);
    assert_int_equal(runs, 8);
    assert_int_equal(ok, runs);
}

/* The programs through the whole pipeline: the lanes model (S = 8 and 32)
 * and the wave model, -O0 and -O2, the backend and SPIR-V validation (the
 * loops' uniform phi and ballots are something the lowerings carry). */
static void translate(void **state)
{
    (void)state;
    unsigned runs = 0, ok = 0;
    for (int kind = K_F32; kind <= K_CSUB; kind++)
        for (int path = 0; path < P_NPATHS; path++) {
            if (kind == K_CSUB && path >= P_FLAT)
                continue;
            for (unsigned W = 64; W >= 32; W /= 2) {
                char text[4096];
                program(text, sizeof text, kind, path, 1, 0x10000, 0);
                uint8_t *code;
                size_t size = wlt_lr_assemble(text, W, &code);
                wl_lift_program p;
                wlt_lr_program(&p, code, size, W);
                p.lds_bytes = 0x1000;
                static const struct { int model; unsigned s; } how[] = {{0, 8}, {0, 32}, {1, 0}};
                for (size_t h = 0; h < 3; h++)
                    for (int o2 = 0; o2 <= 1; o2++) {
                        wl_translate_options o;
                        wl_translate_options_init(&o);
                        o.subgroup_size = how[h].s;
                        o.model = how[h].model;
                        o.local_size[0] = W;
                        o.opt_level = o2 ? 2 : 0;
                        o.validate = 1;
                        wl_translate_info info;
                        uint32_t *words = NULL;
                        size_t nwords = 0;
                        char err[1024] = "";
                        wl_status st = wl_translate(&p, &o, &words, &nwords, &info, err, sizeof err);
                        runs++;
                        ok += st == WL_OK && nwords > 0;
                        if (st != WL_OK)
                            print_message("  %s kind %d w%u model %d S %u -O%d: %s\n", path_name[path], kind, W,
                                          how[h].model, how[h].s, o2 ? 2 : 0, err);
                        free(words);
                    }
                free(code);
            }
        }
    print_message("the same programs (glc) translated: lanes S = 8, 32 and the wave model, -O0 and -O2, "
                  "validated: %u translations, %u ok\n", runs, ok);
    assert_int_equal(runs, 120);
    assert_int_equal(ok, runs);
}

/* ---- on lavapipe: the loops through lowering, the backend and a Vulkan
 * driver (one wave of W - 2 work-items: EXEC at launch has W - 2 bits) ---- */


/* One program on the device; 0 when the memory is the model's (same: the
 * one-address check), else 1 with the reason in msg. */
static int lvp_one(wl_rt *rt, int kind, int path, int same, unsigned W, int model, char *msg, size_t cap)
{
    static wlx_state st, want;
    char text[4096];
    unsigned S = wl_rt_profile(rt)->subgroup_size, swaps = 0;
    init_state(&st, W);
    st.exec = (1ull << (W - 2)) - 1;
    if (same)
        setup_same(kind, path, text, sizeof text, &st);
    else
        setup_lanes(kind, path, 1, text, sizeof text, &st, &want, &swaps);
    uint8_t *code;
    size_t size = wlt_lr_assemble(text, W, &code);
    wl_lift_program p;
    wlt_lr_program(&p, code, size, W);
    p.lds_bytes = 0x1000;
    wl_translate_options o;
    wl_translate_options_init(&o);
    o.subgroup_size = S;
    o.model = model;
    o.local_size[0] = W - 2;
    o.opt_level = 2;
    o.validate = 1;
    uint32_t *words = NULL;
    size_t nw = 0;
    wl_translate_info info;
    char err[1024] = "";
    wl_status ts = wl_translate(&p, &o, &words, &nw, &info, err, sizeof err);
    free(code);
    if (ts != WL_OK) {
        snprintf(msg, cap, "translate: %s", err);
        return 1;
    }
    wl_rt_buffer *mem = NULL, *status = NULL;
    wl_rt_pipeline *pipe = NULL;
    int bad = 1;
    uint64_t base = 0;
    if (wl_rt_buffer_create(rt, WLX_GSIZE, &mem) || wl_rt_buffer_create(rt, 64, &status)) {
        snprintf(msg, cap, "buffers: %s", wl_rt_error(rt));
        goto out;
    }
    base = wl_rt_buffer_address(mem);
    st.user[0] = (uint32_t)base;
    st.user[1] = (uint32_t)(base >> 32);
    uint8_t push[WL_PUSH_BYTES];
    memset(push, 0, sizeof push);
    memcpy(push, st.user, 16 * 4);
    wl_rt_pipeline_desc pd = {.words = words, .nwords = nw, .subgroup_size = model ? 0 : S,
                              .require_full_subgroups = !model};
    wl_rt_dispatch_desc dd;
    memset(&dd, 0, sizeof dd);
    dd.groups[0] = dd.groups[1] = dd.groups[2] = 1;
    dd.push_constants = push;
    dd.push_constant_size = sizeof push;
    dd.bindings[WL_RT_BINDING_STATUS] = status;
    uint32_t sw[4];
    if (wl_rt_buffer_upload(rt, mem, 0, st.g, WLX_GSIZE) || wl_rt_pipeline_create(rt, &pd, &pipe) ||
        wl_rt_dispatch(rt, pipe, &dd, NULL) || wl_rt_buffer_download(rt, mem, 0, st.g, WLX_GSIZE) ||
        wl_rt_buffer_download(rt, status, 0, sw, sizeof sw)) {
        snprintf(msg, cap, "device: %s", wl_rt_error(rt));
        goto out;
    }
    if (sw[0]) {
        snprintf(msg, cap, "escape kind %u at guest offset 0x%x", sw[0], sw[1]);
        goto out;
    }
    unsigned d = same ? check_same(kind, &st, "lavapipe") : diff_mem(&st, &want, "lavapipe", W);
    snprintf(msg, cap, "%s (k = %u, %zu SPIR-V words)", d ? "WRONG" : same ? "one order" : "memory matches the model",
             info.lanes_per_invocation, nw);
    bad = d != 0;
out:
    if (pipe)
        wl_rt_pipeline_destroy(rt, pipe);
    if (status)
        wl_rt_buffer_destroy(rt, status);
    if (mem)
        wl_rt_buffer_destroy(rt, mem);
    free(words);
    return bad;
}

static void lavapipe(void **state)
{
    (void)state;
    if (access(WLT_LVP_ICD, R_OK) != 0) {
        print_message("lavapipe is not installed: the loops ran on the reference executor only\n");
        skip();
    }
    wl_rt_options ro;
    memset(&ro, 0, sizeof ro);
    ro.device = "llvmpipe";
    ro.timeout_ms = 180000; /* lavapipe compiles at the first dispatch: generous on a loaded machine */
    wl_rt *rt = NULL;
    char err[1024];
    if (wl_rt_create(&ro, &rt, err, sizeof err) != WL_RT_OK)
        fail_msg("lavapipe: %s", err);
    static const struct { int kind, path, same; } cases[] = {
        {K_F32, P_BUFFER, 0}, {K_F64, P_GLOBAL, 0}, {K_CSUB, P_GLOBAL, 0}, {K_F32, P_FLAT_LDS, 0},
        {K_F32, P_BUFFER, 1}, {K_CSUB, P_BUFFER, 1},
    };
    unsigned runs = 0, ok = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (unsigned W = 64; W >= 32; W /= 2)
            for (int model = 0; model <= 1; model++) {
                char msg[1400];
                int bad = lvp_one(rt, cases[c].kind, cases[c].path, cases[c].same, W, model, msg, sizeof msg);
                print_message("  %-11s %-9s %s wave%u %s: %s\n", kind_name(cases[c].kind), path_name[cases[c].path],
                              cases[c].same ? "one address " : "one a lane  ", W, model ? "wave model " : "lanes model",
                              msg);
                runs++;
                ok += !bad;
            }
    wl_rt_destroy(rt);
    print_message("on lavapipe (-O2, lanes model at its subgroup size and wave model): %u programs, %u right\n", runs,
                  ok);
    assert_int_equal(runs, 24);
    assert_int_equal(ok, runs);
}

int main(void)
{
    /* lavapipe, and without its own LLVM optimization: only the results matter here */
    wlt_use_lavapipe(1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(per_lane),
        cmocka_unit_test(one_address),
        cmocka_unit_test(translate),
        cmocka_unit_test(lavapipe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
