/* LDS accesses that are off or outside the LDS (lower/memory/memory.c, lds_enter:
 * without a branch they go to the spare bytes after the LDS,
 * WL_LDS_SPARE_BYTE; docs/memory.md "LDS").
 *
 * Hand-written wave IR (built below) in groups of 64 work-items (wave64:
 * one wave, wave32: two), 2 groups, LDS of 2048 bytes. Every lane first
 * fills its own words in seven regions, a barrier, then:
 *   - stores of every width (b8 b16 b32 b64) into its words with some lanes
 *     inactive (odd, even, t % 3 != 0, t % 4 == 1 off), next to stores
 *     outside the LDS (past its end, and straddling it) by every lane;
 *   - in the same phase, loads of its own words (in range, active and
 *     inactive) after those stores, so an inactive lane reads where other
 *     lanes' off stores go;
 *   - atomics: add (t % 5 == 0 off) on 8 shared words, cmpswap and swap on
 *     its own word with half the lanes off, an add outside the LDS;
 * a barrier, then loads of every region, loads outside (past the end, and
 * straddling it: 0) and loads with the lane off (0), all written out.
 * Expected values come from a C model of the ISA's rule (an access wholly
 * inside the LDS is made; any other reads 0 and writes nothing; an off lane
 * does nothing and reads 0). Run on lavapipe at S = 8, -O2, both models,
 * in the LDS forms: workgroup words, workgroup 64-bit units (a
 * 64-bit atomic in the program), workgroup under the lock
 * (force_lds_atomic64_lock), device memory (force_lds_buffer; slices filled
 * with garbage) in words and 64-bit units, and workgroup words without the
 * spare bytes (lds_limit between the LDS and its slice: the branches
 * kept); lanes model W 32, W 64 for the two workgroup forms, wave model
 * (W 64) for the two words forms: 10 runs. Every value of every lane is
 * compared; the counts are printed. WLT_LDS_OFF_CFG=i runs form i only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support.h"
#include "wavelift/backend.h"
#include "wavelift/lower.h"
#include "wavelift/runtime.h"
#include "wavelift/translate.h"

#define LOCAL 64u
#define GROUPS 2u
#define S_LANES 8u
#define LDS 2048u
#define NOUT 20u /* u64 values a lane writes */

/* the program; `a64`: with a 64-bit LDS atomic (on a slot of its own at
 * 1312), so that the LDS gets 64-bit units or the lock */
static char *program(unsigned W, int a64)
{
    wlt_text t = {0};
    wlt_textf(&t, "define void @wl.wave() {\nentry:\n  %%exec = call i64 @wl.launch_exec()\n"
                  "  %%act = call i1 @wl.lane_active(i64 %%exec)\n  %%lo = call i32 @wl.user_sgpr(i32 0)\n"
                  "  %%hi = call i32 @wl.user_sgpr(i32 1)\n  %%lo64 = zext i32 %%lo to i64\n  %%hi64 = zext i32 %%hi to i64\n"
                  "  %%his = shl i64 %%hi64, 32\n  %%base = or i64 %%lo64, %%his\n  %%t = call i32 @wl.thread_id(i32 0)\n"
                  "  %%g = call i32 @wl.workgroup_id(i32 0)\n  %%t4 = shl i32 %%t, 2\n  %%t8 = shl i32 %%t, 3\n"
                  "  %%t64 = zext i32 %%t to i64\n");
    /* the lanes' masks: odd, even, t % 3 == 0, t % 4 != 1, t % 5 != 0, never */
    wlt_textf(&t, "  %%b0 = and i32 %%t, 1\n  %%isodd = icmp ne i32 %%b0, 0\n  %%odd = and i1 %%act, %%isodd\n"
                  "  %%iseven = icmp eq i32 %%b0, 0\n  %%even = and i1 %%act, %%iseven\n"
                  "  %%r3 = urem i32 %%t, 3\n  %%is3 = icmp eq i32 %%r3, 0\n  %%m3 = and i1 %%act, %%is3\n"
                  "  %%r4 = and i32 %%t, 3\n  %%is4 = icmp ne i32 %%r4, 1\n  %%m4 = and i1 %%act, %%is4\n"
                  "  %%r5 = urem i32 %%t, 5\n  %%is5 = icmp ne i32 %%r5, 0\n  %%m5 = and i1 %%act, %%is5\n"
                  "  %%isn = icmp ugt i32 %%t, 100000\n  %%never = and i1 %%act, %%isn\n"
                  "  %%lt8 = icmp ult i32 %%t, 8\n  %%m8 = and i1 %%act, %%lt8\n");
    /* the regions' addresses */
    wlt_textf(&t, "  %%a0 = add i32 %%t4, 0\n  %%a1 = add i32 %%t8, 256\n  %%a2 = add i32 %%t4, 768\n"
                  "  %%a3 = add i32 %%t4, 1024\n  %%a5 = add i32 %%t4, 1536\n  %%a6 = add i32 %%t4, 1792\n"
                  "  %%t7 = and i32 %%t, 7\n  %%t74 = shl i32 %%t7, 2\n  %%a4 = add i32 %%t74, 1280\n"
                  "  %%aout = add i32 %%t4, %u\n  %%aout8 = add i32 %%t8, %u\n  %%aoutb = add i32 %%t, %u\n",
        LDS, LDS, LDS);
    /* phase 0: fill */
    wlt_textf(&t, "  %%v0 = or i32 %%t, 286326784\n  call void @wl.store.lds.b32(i32 %%a0, i32 %%v0, i1 %%act)\n"
                  "  %%v1h = shl i64 %%t64, 32\n  %%v1 = or i64 %%v1h, 8738\n"
                  "  call void @wl.store.lds.b64(i32 %%a1, i64 %%v1, i1 %%act)\n"
                  "  %%v2 = or i32 %%t, 858980352\n  call void @wl.store.lds.b32(i32 %%a2, i32 %%v2, i1 %%act)\n"
                  "  %%v3 = or i32 %%t, 1145307136\n  call void @wl.store.lds.b32(i32 %%a3, i32 %%v3, i1 %%act)\n"
                  "  call void @wl.store.lds.b32(i32 %%a4, i32 0, i1 %%m8)\n"
                  "  %%v5 = or i32 %%t, 1431633920\n  call void @wl.store.lds.b32(i32 %%a5, i32 %%v5, i1 %%act)\n"
                  "  %%v6 = or i32 %%t, 1717960704\n  call void @wl.store.lds.b32(i32 %%a6, i32 %%v6, i1 %%act)\n");
    if (a64)
        wlt_textf(&t, "  %%t0 = icmp eq i32 %%t, 0\n  %%act0 = and i1 %%act, %%t0\n"
                      "  call void @wl.store.lds.b64(i32 1312, i64 0, i1 %%act0)\n");
    wlt_textf(&t, "  call void @wl.barrier()\n");
    /* phase 1: stores with lanes off and outside, loads of the lane's own words */
    wlt_textf(&t, "  %%w0 = or i32 %%t, -1160839168\n  call void @wl.store.lds.b32(i32 %%a0, i32 %%w0, i1 %%odd)\n"
                  "  call void @wl.store.lds.b32(i32 %%aout, i32 -559038737, i1 %%act)\n"
                  "  call void @wl.store.lds.b32(i32 %u, i32 -559038737, i1 %%act)\n"
                  "  %%q0 = call i32 @wl.load.lds.b32(i32 %%a0, i1 %%act)\n"
                  "  %%q1 = call i32 @wl.load.lds.b32(i32 %%a0, i1 %%even)\n",
        LDS - 2);
    wlt_textf(&t, "  %%w1 = or i64 %%t64, -5715912352063291392\n  call void @wl.store.lds.b64(i32 %%a1, i64 %%w1, i1 %%m3)\n"
                  "  call void @wl.store.lds.b64(i32 %u, i64 -1, i1 %%act)\n"
                  "  call void @wl.store.lds.b64(i32 %%aout8, i64 -1, i1 %%act)\n"
                  "  %%q2 = call i64 @wl.load.lds.b64(i32 %%a1, i1 %%m3)\n",
        LDS - 4);
    wlt_textf(&t, "  %%a2b = add i32 %%a2, %%r4\n  %%w2 = xor i32 %%t, 165\n"
                  "  call void @wl.store.lds.b8(i32 %%a2b, i32 %%w2, i1 %%m4)\n"
                  "  call void @wl.store.lds.b8(i32 %%aoutb, i32 119, i1 %%act)\n"
                  "  %%q3 = call i32 @wl.load.lds.b8(i32 %%a2b, i1 %%act)\n");
    wlt_textf(&t, "  %%a3h = add i32 %%a3, 1\n  %%w3 = or i32 %%t, 49152\n"
                  "  call void @wl.store.lds.b16(i32 %%a3h, i32 %%w3, i1 %%even)\n"
                  "  call void @wl.store.lds.b16(i32 %u, i32 65535, i1 %%act)\n"
                  "  %%q4 = call i32 @wl.load.lds.b16(i32 %%a3h, i1 %%odd)\n",
        LDS - 1);
    wlt_textf(&t, "  %%t3 = lshr i32 %%t, 3\n  %%w4 = shl i32 1, %%t3\n"
                  "  %%x0 = call i32 @wl.atomic.lds.add.b32(i32 %%a4, i32 %%w4, i1 %%m5)\n"
                  "  %%x1 = call i32 @wl.atomic.lds.add.b32(i32 %%aout, i32 5, i1 %%act)\n"
                  "  %%w5 = or i32 %%t, -976945152\n"
                  "  %%x2 = call i32 @wl.atomic.lds.cmpswap.b32(i32 %%a5, i32 %%v5, i32 %%w5, i1 %%odd)\n"
                  "  %%w6 = or i32 %%t, -1717986918\n"
                  "  %%x3 = call i32 @wl.atomic.lds.swap.b32(i32 %%a6, i32 %%w6, i1 %%even)\n");
    if (a64)
        wlt_textf(&t, "  %%x4 = call i64 @wl.atomic.lds.add.b64(i32 1312, i64 %%t64, i1 %%act)\n");
    wlt_textf(&t, "  call void @wl.barrier()\n");
    /* phase 2: everything read back */
    wlt_textf(&t, "  %%l0 = call i32 @wl.load.lds.b32(i32 %%a0, i1 %%act)\n  %%l1 = call i64 @wl.load.lds.b64(i32 %%a1, i1 %%act)\n"
                  "  %%l2 = call i32 @wl.load.lds.b32(i32 %%a2, i1 %%act)\n  %%l3 = call i32 @wl.load.lds.b32(i32 %%a3, i1 %%act)\n"
                  "  %%l4 = call i32 @wl.load.lds.b32(i32 %%a4, i1 %%act)\n  %%l5 = call i32 @wl.load.lds.b32(i32 %%a5, i1 %%act)\n"
                  "  %%l6 = call i32 @wl.load.lds.b32(i32 %%a6, i1 %%act)\n"
                  "  %%o0 = call i32 @wl.load.lds.b32(i32 %%aout, i1 %%act)\n"
                  "  %%o1 = call i64 @wl.load.lds.b64(i32 %u, i1 %%act)\n"
                  "  %%o2 = call i32 @wl.load.lds.b8(i32 %%aoutb, i1 %%act)\n"
                  "  %%o3 = call i32 @wl.load.lds.b16(i32 %u, i1 %%act)\n"
                  "  %%o4 = call i32 @wl.load.lds.b32(i32 %%a0, i1 %%never)\n"
                  "  %%o5 = call i64 @wl.load.lds.b64(i32 %%a1, i1 %%never)\n",
        LDS - 4, LDS - 1);
    const char *outs[NOUT] = {"l0", "l1", "l2", "l3", "l4", "l5", "l6", "o0", "o1", "o2",
                              "o3", "o4", "o5", "q0", "q1", "q2", "q3", "q4", "x1", "x2"};
    wlt_textf(&t, "  %%gt = mul i32 %%g, %u\n  %%gi = add i32 %%gt, %%t\n  %%gb = mul i32 %%gi, %u\n"
                  "  %%gb64 = zext i32 %%gb to i64\n  %%ob = add i64 %%base, %%gb64\n",
        LOCAL, NOUT * 8 + 8);
    for (unsigned i = 0; i < NOUT; i++) {
        const char *n = outs[i];
        int wide = !strcmp(n, "l1") || !strcmp(n, "o1") || !strcmp(n, "o5") || !strcmp(n, "q2");
        if (wide)
            wlt_textf(&t, "  %%z%u = add i64 %%%s, 0\n", i, n);
        else
            wlt_textf(&t, "  %%z%u = zext i32 %%%s to i64\n", i, n);
        wlt_textf(&t, "  %%oa%u = add i64 %%ob, %u\n  call void @wl.store.global.b64(i64 %%oa%u, i64 %%z%u, i1 %%act)\n", i,
            i * 8, i, i);
    }
    /* x3 (swap's old value) beside them; and the 64-bit slot by lane 0 */
    wlt_textf(&t, "  %%z3x = zext i32 %%x3 to i64\n  %%oax = add i64 %%ob, %u\n"
                  "  call void @wl.store.global.b64(i64 %%oax, i64 %%z3x, i1 %%act)\n",
        NOUT * 8);
    wlt_textf(&t, "  ret void\n}\n"
                  "declare i64 @wl.launch_exec()\ndeclare i1 @wl.lane_active(i64)\ndeclare i32 @wl.user_sgpr(i32)\n"
                  "declare i32 @wl.thread_id(i32)\ndeclare i32 @wl.workgroup_id(i32)\ndeclare void @wl.barrier()\n"
                  "declare void @wl.store.lds.b8(i32, i32, i1)\ndeclare void @wl.store.lds.b16(i32, i32, i1)\n"
                  "declare void @wl.store.lds.b32(i32, i32, i1)\ndeclare void @wl.store.lds.b64(i32, i64, i1)\n"
                  "declare i32 @wl.load.lds.b8(i32, i1)\ndeclare i32 @wl.load.lds.b16(i32, i1)\n"
                  "declare i32 @wl.load.lds.b32(i32, i1)\ndeclare i64 @wl.load.lds.b64(i32, i1)\n"
                  "declare i32 @wl.atomic.lds.add.b32(i32, i32, i1)\ndeclare i64 @wl.atomic.lds.add.b64(i32, i64, i1)\n"
                  "declare i32 @wl.atomic.lds.cmpswap.b32(i32, i32, i32, i1)\ndeclare i32 @wl.atomic.lds.swap.b32(i32, i32, i1)\n"
                  "declare void @wl.store.global.b64(i64, i64, i1)\n"
                  "!wl.program = !{!0}\n!0 = !{i32 %u, i32 %u, i32 0, i32 2}\n",
        W, LDS);
    return t.s;
}

/* ---- the C model ----------------------------------------------------------- */

/* An LDS of LDS bytes plus the ISA's rule: an access wholly inside is made,
 * any other reads 0 and writes nothing. */
typedef struct mlds {
    uint8_t b[LDS];
} mlds;

static int inside(uint32_t a, unsigned n)
{
    return LDS >= n && a <= LDS - n;
}

static uint64_t mload(const mlds *m, uint32_t a, unsigned n, int act)
{
    uint64_t v = 0;
    if (!act || !inside(a, n))
        return 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)m->b[a + i] << (8 * i);
    return v;
}

static void mstore(mlds *m, uint32_t a, unsigned n, uint64_t v, int act)
{
    if (!act || !inside(a, n))
        return;
    for (unsigned i = 0; i < n; i++)
        m->b[a + i] = (uint8_t)(v >> (8 * i));
}

/* the expected outputs of lane t (the order of `outs` in program, then x3) */
static void c_model(uint64_t exp[LOCAL][NOUT + 1])
{
    static mlds m;
    memset(&m, 0, sizeof m);
    for (uint32_t t = 0; t < LOCAL; t++) {
        mstore(&m, 4 * t, 4, t | 0x11110000u, 1);
        mstore(&m, 256 + 8 * t, 8, ((uint64_t)t << 32) | 0x2222u, 1);
        mstore(&m, 768 + 4 * t, 4, t | 0x33330000u, 1);
        mstore(&m, 1024 + 4 * t, 4, t | 0x44440000u, 1);
        mstore(&m, 1280 + 4 * (t & 7), 4, 0, t < 8);
        mstore(&m, 1536 + 4 * t, 4, t | 0x55550000u, 1);
        mstore(&m, 1792 + 4 * t, 4, t | 0x66660000u, 1);
    }
    /* phase 1: each lane's own words (the shared add words: a sum) */
    uint64_t q[LOCAL][5], x[LOCAL][3];
    for (uint32_t t = 0; t < LOCAL; t++) {
        int odd = t & 1, even = !odd, m3 = t % 3 == 0, m4 = (t & 3) != 1, m5 = t % 5 != 0;
        mstore(&m, 4 * t, 4, t | 0xbacf0000u, odd);
        mstore(&m, LDS + 4 * t, 4, 0xdeadbeefu, 1);
        mstore(&m, LDS - 2, 4, 0xdeadbeefu, 1);
        q[t][0] = mload(&m, 4 * t, 4, 1);
        q[t][1] = mload(&m, 4 * t, 4, even);
        mstore(&m, 256 + 8 * t, 8, t | 0xb0ad000000000000ull, m3);
        mstore(&m, LDS - 4, 8, UINT64_MAX, 1);
        mstore(&m, LDS + 8 * t, 8, UINT64_MAX, 1);
        q[t][2] = mload(&m, 256 + 8 * t, 8, m3);
        uint32_t a2b = 768 + 4 * t + (t & 3);
        mstore(&m, a2b, 1, (t ^ 165) & 0xff, m4);
        mstore(&m, LDS + t, 1, 119, 1);
        q[t][3] = mload(&m, a2b, 1, 1);
        mstore(&m, 1024 + 4 * t + 1, 2, (t | 49152) & 0xffff, even);
        mstore(&m, LDS - 1, 2, 0xffff, 1);
        q[t][4] = mload(&m, 1024 + 4 * t + 1, 2, odd);
        if (m5) {
            uint32_t a4 = 1280 + 4 * (t & 7);
            mstore(&m, a4, 4, mload(&m, a4, 4, 1) + (1u << (t >> 3)), 1);
        }
        x[t][0] = 0; /* the add outside */
        uint32_t old5 = (uint32_t)mload(&m, 1536 + 4 * t, 4, odd);
        if (odd && old5 == (t | 0x55550000u))
            mstore(&m, 1536 + 4 * t, 4, t | 0xc5c50000u, 1);
        x[t][1] = old5;
        x[t][2] = mload(&m, 1792 + 4 * t, 4, even);
        mstore(&m, 1792 + 4 * t, 4, t | 0x9999999au, even);
    }
    for (uint32_t t = 0; t < LOCAL; t++) {
        uint64_t *e = exp[t];
        e[0] = mload(&m, 4 * t, 4, 1);
        e[1] = mload(&m, 256 + 8 * t, 8, 1);
        e[2] = mload(&m, 768 + 4 * t, 4, 1);
        e[3] = mload(&m, 1024 + 4 * t, 4, 1);
        e[4] = mload(&m, 1280 + 4 * (t & 7), 4, 1);
        e[5] = mload(&m, 1536 + 4 * t, 4, 1);
        e[6] = mload(&m, 1792 + 4 * t, 4, 1);
        e[7] = mload(&m, LDS + 4 * t, 4, 1);
        e[8] = mload(&m, LDS - 4, 8, 1);
        e[9] = mload(&m, LDS + t, 1, 1);
        e[10] = mload(&m, LDS - 1, 2, 1);
        e[11] = 0; /* off */
        e[12] = 0;
        for (unsigned i = 0; i < 5; i++)
            e[13 + i] = q[t][i];
        e[18] = x[t][0];
        e[19] = x[t][1];
        e[20] = x[t][2];
    }
}

/* ---- runs ------------------------------------------------------------------ */

/* the forms; the first two also at W 64 (lds_off_run) */
typedef struct cfg {
    const char *name;
    int a64, buffer, lock, nospare;
} cfg;

static const cfg cfgs[] = {
    {"workgroup words", 0, 0, 0, 0},
    {"workgroup 64-bit units", 1, 0, 0, 0},
    {"workgroup, lock", 1, 0, 1, 0},
    {"device memory words", 0, 1, 0, 0},
    {"device memory 64-bit units", 1, 1, 0, 0},
    {"workgroup words without spare bytes", 0, 0, 0, 1},
};

/* the number of wrong values (printed, the first few) */
static unsigned run_one(wl_rt *rt, const cfg *c, unsigned W, int model, unsigned *checked)
{
    char err[4096] = "";
    wl_translate_options o;
    wl_translate_options_init(&o);
    o.subgroup_size = S_LANES;
    o.local_size[0] = LOCAL;
    o.opt_level = 2;
    o.validate = 1;
    o.model = model;
    /* the LDS fits; without spare bytes: its slice does not */
    o.lds_limit = c->nospare ? (uint32_t)WL_LDS_SLICE_BYTES(LDS) - 4 : 32768;
    o.passes = c->buffer ? "lds-buffer" : NULL; /* the debug option's knob */
    o.force_lds_atomic64_lock = c->lock;
    size_t nw = 0;
    wl_translate_info info;
    char *ir = program(W, c->a64);
    uint32_t *w = wlt_translate_text(ir, &o, &nw, &info, NULL, err, sizeof err);
    free(ir);
    if (!w)
        fail_msg("%s, W %u, %s model: translate failed: %s", c->name, W, model ? "wave" : "lanes", err);
    unsigned bad = 0;
    int used_buffer = (info.bindings & (1u << WL_RT_BINDING_LDS)) != 0;
    if (used_buffer != c->buffer || (c->lock && (info.features & WL_FEAT_INT64_ATOMICS))) {
        printf("  not the path asked for: bindings %#x features %#x\n", info.bindings, info.features);
        bad++;
    }
    wl_rt_buffer *buf = NULL, *status = NULL;
    size_t out_bytes = (size_t)GROUPS * LOCAL * (NOUT * 8 + 8);
    assert_int_equal(wl_rt_buffer_create(rt, out_bytes, &buf), WL_RT_OK);
    assert_int_equal(wl_rt_buffer_fill(rt, buf, 0, UINT64_MAX, 0x5a5a5a5au), WL_RT_OK);
    if (wlt_run_lds(rt, w, nw, &info, model ? 0 : S_LANES, GROUPS, buf, LDS, &status, NULL) != WL_RT_OK)
        fail_msg("%s: dispatch: %s", c->name, wl_rt_error(rt));
    uint64_t *out = malloc(out_bytes);
    assert_non_null(out);
    assert_int_equal(wl_rt_buffer_download(rt, buf, 0, out, out_bytes), WL_RT_OK);
    wl_rt_escape esc;
    if (wl_rt_escape_check(rt, status, &esc) != WL_RT_OK) {
        printf("  %s\n", wl_rt_error(rt));
        bad++;
    }
    static uint64_t exp[LOCAL][NOUT + 1];
    c_model(exp);
    for (unsigned g = 0; g < GROUPS; g++)
        for (unsigned t = 0; t < LOCAL; t++)
            for (unsigned i = 0; i <= NOUT; i++) {
                uint64_t got = out[(g * LOCAL + t) * (NOUT + 1) + i];
                (*checked)++;
                if (got != exp[t][i] && bad++ < 8)
                    printf("  group %u lane %u value %u: 0x%016llx, want 0x%016llx\n", g, t, i,
                           (unsigned long long)got, (unsigned long long)exp[t][i]);
            }
    printf("%s, W %u, %s model: %zu words: %s\n", c->name, W, model ? "wave" : "lanes", nw,
           bad ? "WRONG" : "every value as the model");
    free(out);
    wl_rt_buffer_destroy(rt, status);
    wl_rt_buffer_destroy(rt, buf);
    free(w);
    return bad;
}

static void lds_off_run(void **state)
{
    (void)state;
    wl_rt *rt = wlt_rt(300000);
    const wl_host_profile *hp = wl_rt_profile(rt);
    if (hp->min_subgroup_size > S_LANES || hp->max_subgroup_size < S_LANES) {
        wl_rt_destroy(rt);
        fail_msg("this test needs subgroup size %u (lavapipe)", S_LANES);
    }
    /* WLT_LDS_OFF_CFG=i: only configuration i (while iterating) */
    const char *only = getenv("WLT_LDS_OFF_CFG");
    unsigned runs = 0, failed = 0, checked = 0;
    for (size_t i = 0; i < sizeof cfgs / sizeof cfgs[0]; i++)
        for (unsigned W = 64; W >= 32; W /= 2)
            for (int model = 0; model < 2; model++) {
                /* every form in the lanes model at W 32 (k = 4); at W 64
                 * (k = 8) the two workgroup forms, and the wave model (one
                 * helper call a lane loop) in the words forms: large
                 * modules are slow to build on lavapipe, and the helpers
                 * are the same */
                int want = model ? W == 64 && !cfgs[i].a64 && !cfgs[i].nospare
                                 : W == 32 || (i <= 1);
                if ((only && (size_t)atoi(only) != i) || !want)
                    continue;
                runs++;
                failed += run_one(rt, &cfgs[i], W, model, &checked) != 0;
            }
    wl_rt_destroy(rt);
    printf("%u runs, %u exact; %u values compared with the model\n", runs, runs - failed, checked);
    assert_true(checked == runs * GROUPS * LOCAL * (NOUT + 1));
    assert_int_equal(failed, 0);
}

int main(void)
{
    wlt_use_lavapipe(1); /* correctness only: faster compiles */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lds_off_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
