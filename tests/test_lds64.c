/* 64-bit LDS atomics in the lanes model (lower/memory/memory.c, gen_lds64).
 *
 * Hand-written wave IR (built below as text) in groups of 200 work-items
 * (wave64: 4 waves, the last partial; wave32: 7 waves), 3 groups, lowered
 * at subgroup sizes 4, 8 and 16 on lavapipe (LP_NATIVE_VECTOR_WIDTH), W =
 * 64 and 32 (k = 16 .. 2), -O2 (and -O0 at W = 64), run, and compared with
 * a C model:
 *   - every 64-bit LDS atomic (add sub smin smax umin umax and or xor inc
 *     dec swap cmpswap fmin fmax) by every lane of every wave on one slot
 *     each: the sum of 600 random 64-bit values must be exact (the seed's
 *     lock-budget case);
 *   - mixed 32- and 64-bit atomics on one slot (add, or, xor, and on both
 *     dwords of a 64-bit slot), and every 32-bit atomic on the 64-bit-unit
 *     LDS (the view a program with 64-bit LDS atomics gets);
 *   - dword, byte, half and 64-bit loads and stores at 8- and 4-byte
 *     aligned addresses, neighbours' dwords in one 64-bit unit;
 *   - a 64-bit atomic at an address 4- but not 8-byte aligned: the result
 *     is refused by the WL_ESC_UNALIGNED64 escape (status word 0 = 4, word 2
 *     = the lane), the LDS is unchanged and the lane reads 0.
 * The main module is built in three parts (build_main), each its own
 * dispatch: lavapipe's compile time (most of this test's) grows faster
 * than the module (issue 15: one module of 113,998 words took about 236 s
 * of CPU, its three parts 68.7 s together).
 * Every case runs in a child process of its own (`--child S --case i`), so
 * that a case that times out or loses the device is reported by name (the
 * case, model, S and k, with the time and CPU it had) and cannot turn the
 * later ones into failures; each case line ends with its translate and run
 * times and the CPU it took.
 * Swap and cmpswap results depend on the order of the lanes: the test
 * checks what every order gives (the final value is one of the lanes'
 * values; the sum of the returned values plus the final value is the
 * initial value plus the sum of the values).
 * And without a device: every lock acquire in the lock variants' SPIR-V
 * has its release in the same block (lock_round_one_block).
 * While iterating, run one child alone: `LP_NATIVE_VECTOR_WIDTH=256
 * test_lds64 --child 8` (every case of S = 8 in one process; add `--case
 * i` for one) with WLT_LDS64_VARIANT=0..3 (the LDS places below) and
 * WLT_LDS64_MODEL=0 (lanes) or 1 (wave) to run only those, WLT_LDS64_O0=1
 * to add -O0 runs of every path, WLT_LDS64_DUMP=FILE to write the main
 * module's wave IR (W = 64), WLT_LDS64_SPV=FILE the SPIR-V of the (last)
 * case run, WLT_LDS64_TIMEOUT_MS the fence timeout (300 s). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "support.h"
#include "wavelift/backend.h"
#include "wavelift/runtime.h"
#include "wavelift/translate.h"


#define GROUPS 3
#define LOCAL 200
#define ITEMS (GROUPS * LOCAL)
#define OUT_G 8192  /* per group: the 56 slot dwords (256 bytes) */
#define OUT_I 9216  /* per item: 8 dwords */
#define BUF_BYTES 32768
#define NSLOTW 56   /* slot dwords copied out */

/* ---- the wave IR ---------------------------------------------------------- */

static unsigned tmpn;

/* %rN = atomic; returns N */
static unsigned at(wlt_text *t, const char *op, unsigned bits, unsigned addr, const char *val, const char *act)
{
    unsigned r = ++tmpn;
    if (!strcmp(op, "cmpswap"))
        wlt_textf(t, "  %%r%u = call i%u @wl.atomic.lds.cmpswap.b%u(i32 %u, i%u 0, i%u %s, i1 %s)\n", r, bits, bits, addr,
           bits, bits, val, act);
    else
        wlt_textf(t, "  %%r%u = call i%u @wl.atomic.lds.%s.b%u(i32 %u, i%u %s, i1 %s)\n", r, bits, op, bits, addr, bits, val,
           act);
    return r;
}

static const char *const ops[] = {"swap", "add", "sub", "smin", "umin", "smax", "umax", "and",
                                  "or", "xor", "inc", "dec", "fmin", "fmax", "fadd", "cmpswap"};

static void decls(wlt_text *t)
{
    wlt_textf(t, "declare i64 @wl.launch_exec()\ndeclare i1 @wl.lane_active(i64)\ndeclare i32 @wl.user_sgpr(i32)\n"
                 "declare i32 @wl.thread_id(i32)\ndeclare i32 @wl.workgroup_id(i32)\ndeclare i32 @wl.lane_id()\n"
                 "declare void @wl.barrier()\ndeclare i64 @wl.load.global.b64(i64, i1)\n"
                 "declare void @wl.store.global.b32(i64, i32, i1)\n");
    for (unsigned bits = 8; bits <= 64; bits *= 2) {
        const char *vt = bits == 64 ? "i64" : "i32";
        wlt_textf(t, "declare %s @wl.load.lds.b%u(i32, i1)\ndeclare void @wl.store.lds.b%u(i32, %s, i1)\n", vt, bits, bits,
           vt);
    }
    for (unsigned bits = 32; bits <= 64; bits *= 2)
        for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
            if (!strcmp(ops[i], "cmpswap"))
                wlt_textf(t, "declare i%u @wl.atomic.lds.cmpswap.b%u(i32, i%u, i%u, i1)\n", bits, bits, bits, bits);
            else
                wlt_textf(t, "declare i%u @wl.atomic.lds.%s.b%u(i32, i%u, i1)\n", bits, ops[i], bits, bits);
        }
}

/* the preamble: %act, %base, %t, %gt, %X (this item's 64-bit input), %act0 */
static void preamble(wlt_text *t)
{
    wlt_textf(t, "define void @wl.wave() {\nentry:\n  %%exec = call i64 @wl.launch_exec()\n"
                 "  %%act = call i1 @wl.lane_active(i64 %%exec)\n  %%lo = call i32 @wl.user_sgpr(i32 0)\n"
                 "  %%hi = call i32 @wl.user_sgpr(i32 1)\n  %%lo64 = zext i32 %%lo to i64\n  %%hi64 = zext i32 %%hi to i64\n"
                 "  %%his = shl i64 %%hi64, 32\n  %%base = or i64 %%lo64, %%his\n  %%t = call i32 @wl.thread_id(i32 0)\n"
                 "  %%g = call i32 @wl.workgroup_id(i32 0)\n  %%gb = mul i32 %%g, %u\n  %%gt = add i32 %%gb, %%t\n"
                 "  %%gt64 = zext i32 %%gt to i64\n  %%off = shl i64 %%gt64, 3\n  %%addr = add i64 %%base, %%off\n"
                 "  %%X = call i64 @wl.load.global.b64(i64 %%addr, i1 %%act)\n  %%t0 = icmp eq i32 %%t, 0\n"
                 "  %%act0 = and i1 %%act, %%t0\n",
       LOCAL);
}

/* output dword at byte `off` of the buffer (i64 %base + off) */
static void out32(wlt_text *t, const char *off64, const char *val, const char *act)
{
    unsigned n = ++tmpn;
    wlt_textf(t, "  %%oa%u = add i64 %%base, %s\n  call void @wl.store.global.b32(i64 %%oa%u, i32 %s, i1 %s)\n", n, off64, n,
       val, act);
}

static const struct {
    unsigned addr, bits;
    uint64_t init;
} inits[] = {
    {0, 64, 0}, {8, 64, 0}, {16, 64, 0x7fffffffffffffffull}, {24, 64, 0x8000000000000000ull}, {32, 64, ~0ull},
    {40, 64, 0}, {48, 64, ~0ull}, {56, 64, 0}, {64, 64, 0}, {72, 64, 0}, {80, 64, 100}, {88, 64, 0x1234},
    {96, 64, 0}, {104, 64, 0}, {112, 64, 0}, {120, 64, 0}, {128, 64, 0}, {136, 64, 0}, {144, 64, ~0ull},
    {152, 32, 0x80000000u}, {156, 32, 0xffffffffu}, {160, 32, 0}, {164, 32, 0}, {168, 32, 0}, {172, 32, 5},
    {176, 32, 7}, {180, 32, 0}, {184, 32, 0}, {188, 32, 0}, {192, 32, 0}, {196, 32, 0x7fffffff},
    {200, 64, 0xfff0000000000000ull}, {208, 64, 0x7ff0000000000000ull}, {216, 32, 0}, {220, 32, 0xff800000u},
};

/* The main module's three parts (a module each: lavapipe's compile time
 * grows faster than the module, so three small modules compile several
 * times faster than one holding all; each part keeps a 64-bit LDS atomic,
 * so every part takes the path of its variant):
 *   0  the 64-bit atomics, slots 0..14 (bytes 0..119);
 *   1  mixed 32- and 64-bit atomics on one slot, slots 15..18 (120..151),
 *      and the plain stores and loads (the item words);
 *   2  the 32-bit atomics, slots 19..24 (152..199), and the float atomics,
 *      slots 25..27 (200..223).
 * Every part sets all 28 slots from the table at INIT_AT and copies them
 * out, so a slot of another part must come back unchanged. */
#define NPARTS 3
#define INIT_AT 6144 /* the slots' initial values in the buffer: after the 600 inputs */

static unsigned part_of_slot(unsigned q /* qword */) { return q < 15 ? 0 : q < 19 ? 1 : 2; }

static char *build_main(unsigned W, unsigned part)
{
    wlt_text t = {0};
    tmpn = 0;
    preamble(&t);
    /* values: Xlo Xhi X2 (X * golden) s s2 s3 s4 sm D (double of (int)Xlo) F (float of s & 255) */
    wlt_textf(&t, "  %%Xlo = trunc i64 %%X to i32\n  %%Xs = lshr i64 %%X, 32\n  %%Xhi = trunc i64 %%Xs to i32\n"
                  "  %%X2 = mul i64 %%X, -7046029254386353131\n  %%X2lo = trunc i64 %%X2 to i32\n"
                  "  %%X2s = lshr i64 %%X2, 32\n  %%X2hi = trunc i64 %%X2s to i32\n"
                  "  %%s = and i32 %%Xlo, 65535\n  %%s2 = lshr i32 %%Xlo, 16\n  %%s3 = and i32 %%Xhi, 65535\n"
                  "  %%s4 = lshr i32 %%Xhi, 16\n  %%sz = zext i32 %%s to i64\n  %%s2z = zext i32 %%s2 to i64\n"
                  "  %%s2s = shl i64 %%s2z, 32\n  %%sm = or i64 %%sz, %%s2s\n"
                  "  %%Df = sitofp i32 %%Xlo to double\n  %%D = bitcast double %%Df to i64\n"
                  "  %%s8 = and i32 %%s, 255\n  %%Ff = uitofp i32 %%s8 to float\n  %%F = bitcast float %%Ff to i32\n"
                  "  %%Xand = or i64 %%X, -281470681808896\n  %%Xor = and i64 %%X, -9205322385119247871\n"
                  "  %%Xor2 = and i64 %%X, 281470681808895\n  %%Xhm = and i32 %%Xhi, -65536\n  %%Xlm = and i32 %%Xlo, -65536\n"
                  "  %%Xand2 = or i64 %%X, 6148914691236517205\n  %%X2loa = or i32 %%X2lo, -1431655766\n"
                  "  %%X2hia = or i32 %%X2hi, 252645135\n  %%X1 = or i64 %%X, 1\n  %%Xlo1 = or i32 %%Xlo, 1\n");
    /* the slots' initial values: work-item t < 28 stores qword t of the
     * table (fill_input) */
    wlt_textf(&t, "  %%t4 = shl i32 %%t, 2\n  %%t8 = shl i32 %%t, 3\n  %%ti = icmp ult i32 %%t, %u\n"
                  "  %%acti = and i1 %%act, %%ti\n  %%t8z = zext i32 %%t8 to i64\n  %%ib = add i64 %%base, %u\n"
                  "  %%ia = add i64 %%ib, %%t8z\n  %%iv = call i64 @wl.load.global.b64(i64 %%ia, i1 %%acti)\n"
                  "  call void @wl.store.lds.b64(i32 %%t8, i64 %%iv, i1 %%acti)\n  call void @wl.barrier()\n",
       NSLOTW / 2, INIT_AT);
    char v[32];
    if (part == 0) {
        at(&t, "add", 64, 0, "%X", "%act");
        at(&t, "sub", 64, 8, "%X", "%act");
        at(&t, "smin", 64, 16, "%X", "%act");
        at(&t, "smax", 64, 24, "%X", "%act");
        at(&t, "umin", 64, 32, "%X", "%act");
        at(&t, "umax", 64, 40, "%X", "%act");
        at(&t, "and", 64, 48, "%Xand", "%act");
        at(&t, "or", 64, 56, "%Xor", "%act");
        at(&t, "xor", 64, 64, "%X", "%act");
        at(&t, "inc", 64, 72, "100", "%act");
        at(&t, "dec", 64, 80, "1000", "%act");
        snprintf(v, sizeof v, "%%r%u", at(&t, "swap", 64, 88, "%X", "%act"));
        at(&t, "add", 64, 96, v, "%act");
        snprintf(v, sizeof v, "%%r%u", at(&t, "cmpswap", 64, 104, "%X1", "%act"));
        at(&t, "add", 64, 112, v, "%act");
    }
    if (part == 1) {
        at(&t, "add", 64, 120, "%sm", "%act");
        at(&t, "add", 32, 120, "%s3", "%act");
        at(&t, "add", 32, 124, "%s4", "%act");
        at(&t, "or", 64, 128, "%Xor2", "%act");
        at(&t, "or", 32, 128, "%Xhm", "%act");
        at(&t, "or", 32, 132, "%Xlm", "%act");
        at(&t, "xor", 64, 136, "%X", "%act");
        at(&t, "xor", 32, 136, "%X2lo", "%act");
        at(&t, "xor", 32, 140, "%X2hi", "%act");
        at(&t, "and", 64, 144, "%Xand2", "%act");
        at(&t, "and", 32, 144, "%X2loa", "%act");
        at(&t, "and", 32, 148, "%X2hia", "%act");
        /* plain stores: dword, byte, 64-bit 8- and 4-aligned */
        wlt_textf(&t, "  %%aw = add i32 %%t4, 256\n"
                      "  call void @wl.store.lds.b32(i32 %%aw, i32 %%Xlo, i1 %%act)\n  %%ab = add i32 %%t, 1280\n"
                      "  call void @wl.store.lds.b8(i32 %%ab, i32 %%t, i1 %%act)\n  %%aq = add i32 %%t8, 1536\n"
                      "  call void @wl.store.lds.b64(i32 %%aq, i64 %%X, i1 %%act)\n  %%au = add i32 %%t8, 3204\n"
                      "  call void @wl.store.lds.b64(i32 %%au, i64 %%X2, i1 %%act)\n");
    }
    if (part == 2) {
        at(&t, "smax", 32, 152, "%Xlo", "%act");
        at(&t, "umin", 32, 156, "%Xhi", "%act");
        at(&t, "sub", 32, 160, "%s", "%act");
        at(&t, "add", 32, 164, "%s2", "%act");
        at(&t, "inc", 32, 168, "50", "%act");
        at(&t, "dec", 32, 172, "77", "%act");
        snprintf(v, sizeof v, "%%r%u", at(&t, "swap", 32, 176, "%Xlo", "%act"));
        at(&t, "add", 32, 180, v, "%act");
        snprintf(v, sizeof v, "%%r%u", at(&t, "cmpswap", 32, 184, "%Xlo1", "%act"));
        at(&t, "add", 32, 188, v, "%act");
        at(&t, "umax", 32, 192, "%X2lo", "%act");
        at(&t, "smin", 32, 196, "%X2hi", "%act");
        at(&t, "fmax", 64, 200, "%D", "%act");
        at(&t, "fmin", 64, 208, "%D", "%act");
        at(&t, "fadd", 32, 216, "%F", "%act");
        at(&t, "fmax", 32, 220, "%F", "%act");
    }
    wlt_textf(&t, "  call void @wl.barrier()\n");
    /* the slots out: work-item t < NSLOTW copies dword t */
    wlt_textf(&t, "  %%tc = icmp ult i32 %%t, %u\n  %%actc = and i1 %%act, %%tc\n"
                  "  %%sl = call i32 @wl.load.lds.b32(i32 %%t4, i1 %%actc)\n  %%g4 = mul i32 %%g, 256\n"
                  "  %%go = add i32 %%g4, %%t4\n  %%go64 = zext i32 %%go to i64\n  %%goo = add i64 %%go64, %u\n",
       NSLOTW, OUT_G);
    out32(&t, "%goo", "%sl", "%actc");
    if (part == 1) {
        /* the neighbour n = (t + 1) % LOCAL */
        wlt_textf(&t, "  %%n1 = add i32 %%t, 1\n  %%n = urem i32 %%n1, %u\n  %%n4 = shl i32 %%n, 2\n  %%n8 = shl i32 %%n, 3\n"
                      "  %%nw = add i32 %%n4, 256\n  %%d0 = call i32 @wl.load.lds.b32(i32 %%nw, i1 %%act)\n"
                      "  %%nb = add i32 %%n, 1280\n  %%d1 = call i32 @wl.load.lds.b8(i32 %%nb, i1 %%act)\n"
                      "  %%nq = add i32 %%n8, 1536\n  %%q = call i64 @wl.load.lds.b64(i32 %%nq, i1 %%act)\n"
                      "  %%nu = add i32 %%n8, 3204\n  %%u = call i64 @wl.load.lds.b64(i32 %%nu, i1 %%act)\n"
                      "  %%ne = and i32 %%n, -2\n  %%nh = add i32 %%ne, 1280\n  %%d6 = call i32 @wl.load.lds.b16(i32 %%nh, i1 %%act)\n"
                      "  %%nm = add i32 %%n8, 3208\n  %%d7 = call i32 @wl.load.lds.b32(i32 %%nm, i1 %%act)\n"
                      "  %%d2 = trunc i64 %%q to i32\n  %%qs = lshr i64 %%q, 32\n  %%d3 = trunc i64 %%qs to i32\n"
                      "  %%d4 = trunc i64 %%u to i32\n  %%us = lshr i64 %%u, 32\n  %%d5 = trunc i64 %%us to i32\n"
                      "  %%gt32 = shl i64 %%gt64, 5\n  %%io = add i64 %%gt32, %u\n",
           LOCAL, OUT_I);
        for (int i = 0; i < 8; i++) {
            char o[32], d[8];
            snprintf(o, sizeof o, "%%io%d", i);
            wlt_textf(&t, "  %s = add i64 %%io, %d\n", o, i * 4);
            snprintf(d, sizeof d, "%%d%d", i);
            out32(&t, o, d, "%act");
    }
    }
    wlt_textf(&t, "  ret void\n}\n");
    decls(&t);
    wlt_textf(&t, "!wl.program = !{!0}\n!0 = !{i32 %u, i32 4864, i32 0, i32 2}\n", W);
    return t.s;
}

/* lane 5 of the group's first wave: a 64-bit add at byte 4 (4- but not
 * 8-byte aligned) of the LDS dwords 0x11, 0x22; then work-item 0 writes
 * the LDS dwords 0 and 1, and lane 5 its result, to out. */
static char *build_unaligned(unsigned W)
{
    wlt_text t = {0};
    tmpn = 0;
    preamble(&t);
    wlt_textf(&t, "  call void @wl.store.lds.b32(i32 0, i32 17, i1 %%act0)\n  call void @wl.store.lds.b32(i32 4, i32 34, i1 %%act0)\n"
                  "  call void @wl.store.lds.b32(i32 8, i32 51, i1 %%act0)\n  call void @wl.barrier()\n"
                  "  %%t5 = icmp eq i32 %%t, 5\n  %%act5 = and i1 %%act, %%t5\n");
    unsigned r = at(&t, "add", 64, 4, "%X", "%act5");
    wlt_textf(&t, "  call void @wl.barrier()\n  %%w0 = call i32 @wl.load.lds.b32(i32 0, i1 %%act0)\n"
                  "  %%w1 = call i32 @wl.load.lds.b32(i32 4, i1 %%act0)\n  %%w2 = call i32 @wl.load.lds.b32(i32 8, i1 %%act0)\n"
                  "  %%rl = trunc i64 %%r%u to i32\n  %%rs = lshr i64 %%r%u, 32\n  %%rh = trunc i64 %%rs to i32\n", r, r);
    out32(&t, "8192", "%w0", "%act0");
    out32(&t, "8196", "%w1", "%act0");
    out32(&t, "8200", "%w2", "%act0");
    out32(&t, "8204", "%rl", "%act5");
    out32(&t, "8208", "%rh", "%act5");
    wlt_textf(&t, "  ret void\n}\n");
    decls(&t);
    wlt_textf(&t, "!wl.program = !{!0}\n!0 = !{i32 %u, i32 64, i32 0, i32 2}\n", W);
    return t.s;
}

/* ---- the C model ------------------------------------------------------------ */

static uint64_t x_of(unsigned i)
{
    uint64_t x = 0x9e3779b97f4a7c15ull * (i + 1);
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ull;
    return x ^ (x >> 32);
}

static uint64_t fbits(double d)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

/* the slots' initial values as qwords */
static void slots_init(uint64_t q[NSLOTW / 2])
{
    for (size_t i = 0; i < sizeof inits / sizeof inits[0]; i++) {
        unsigned a = inits[i].addr;
        if (inits[i].bits == 64)
            q[a / 8] = inits[i].init;
        else
            q[a / 8] = (q[a / 8] & ~(0xffffffffull << (8 * (a & 4)))) | (inits[i].init << (8 * (a & 4)));
    }
}

/* The group's slot dwords after `part` (build_main): the slots of the
 * other parts keep their initial values. Order-dependent slots: want is
 * the got value where it is a possible outcome, else its complement (a
 * mismatch). */
static void slots_expect(unsigned g, unsigned part, const uint32_t *got, uint32_t *want)
{
    uint64_t q[NSLOTW / 2], q0[NSLOTW / 2];
    slots_init(q);
    slots_init(q0);
#define LO(u) ((uint32_t)(q[u]))
#define HI(u) ((uint32_t)(q[u] >> 32))
#define SET(u, lo, hi) (q[u] = (uint64_t)(uint32_t)(lo) | ((uint64_t)(uint32_t)(hi) << 32))
    uint64_t sumx = 0;
    uint32_t sumxlo = 0;
    double dmax = -INFINITY, dmin = INFINITY;
    float fsum = 0, fmx = -INFINITY;
    for (unsigned t = 0; t < LOCAL; t++) {
        uint64_t X = x_of(g * LOCAL + t), X2 = X * 0x9e3779b97f4a7c15ull;
        uint32_t Xlo = (uint32_t)X, Xhi = (uint32_t)(X >> 32), X2lo = (uint32_t)X2, X2hi = (uint32_t)(X2 >> 32);
        uint32_t s = Xlo & 0xffff, s2 = Xlo >> 16, s3 = Xhi & 0xffff, s4 = Xhi >> 16;
        sumx += X;
        sumxlo += Xlo;
        q[0] += X;
        q[1] -= X;
        q[2] = (int64_t)X < (int64_t)q[2] ? X : q[2];
        q[3] = (int64_t)X > (int64_t)q[3] ? X : q[3];
        q[4] = X < q[4] ? X : q[4];
        q[5] = X > q[5] ? X : q[5];
        q[6] &= X | 0xffff0000ffff0000ull;
        q[7] |= X & 0x8040201008040201ull;
        q[8] ^= X;
        q[9] = q[9] >= 100 ? 0 : q[9] + 1;
        q[10] = (q[10] == 0 || q[10] > 1000) ? 1000 : q[10] - 1;
        SET(15, LO(15) + s + s3, HI(15) + s2 + s4);
        q[16] |= (X & 0x0000ffff0000ffffull) | (Xhi & 0xffff0000u) | ((uint64_t)(Xlo & 0xffff0000u) << 32);
        q[17] ^= X ^ X2lo ^ ((uint64_t)X2hi << 32);
        q[18] &= (X | 0x5555555555555555ull) & ((X2lo | 0xaaaaaaaau) | ((uint64_t)(X2hi | 0x0f0f0f0fu) << 32));
        SET(19, (int32_t)Xlo > (int32_t)LO(19) ? Xlo : LO(19), Xhi < HI(19) ? Xhi : HI(19));
        SET(20, LO(20) - s, HI(20) + s2);
        SET(21, LO(21) >= 50 ? 0 : LO(21) + 1, (HI(21) == 0 || HI(21) > 77) ? 77 : HI(21) - 1);
        SET(24, X2lo > LO(24) ? X2lo : LO(24), (int32_t)X2hi < (int32_t)HI(24) ? X2hi : HI(24));
        double d = (double)(int32_t)Xlo;
        dmax = d > dmax ? d : dmax;
        dmin = d < dmin ? d : dmin;
        float f = (float)(s & 255);
        fsum += f;
        fmx = f > fmx ? f : fmx;
    }
    q[25] = fbits(dmax);
    q[26] = fbits(dmin);
    uint32_t fs, fm;
    memcpy(&fs, &fsum, 4);
    memcpy(&fm, &fmx, 4);
    SET(27, fs, fm);
    /* order-dependent: 64-bit swap (11) + return sum (12), cmpswap (13) + sum (14) */
    uint64_t g64[4] = {(uint64_t)got[22] | ((uint64_t)got[23] << 32), (uint64_t)got[24] | ((uint64_t)got[25] << 32),
                       (uint64_t)got[26] | ((uint64_t)got[27] << 32), (uint64_t)got[28] | ((uint64_t)got[29] << 32)};
    int in_s = 0, in_c = 0, in_s32 = 0, in_c32 = 0;
    for (unsigned t = 0; t < LOCAL; t++) {
        uint64_t X = x_of(g * LOCAL + t);
        in_s |= g64[0] == X;
        in_c |= g64[2] == (X | 1);
        in_s32 |= got[44] == (uint32_t)X;
        in_c32 |= got[46] == ((uint32_t)X | 1);
    }
    int ok_s = in_s && g64[0] + g64[1] == 0x1234 + sumx;
    if (!ok_s && part == 0)
        printf("  group %u 64-bit swap: final %#llx (%s), returns' sum %#llx, want %#llx\n", g,
               (unsigned long long)g64[0], in_s ? "a lane's value" : "no lane's value", (unsigned long long)g64[1],
               (unsigned long long)(0x1234 + sumx - g64[0]));
    int ok_c = in_c && g64[3] == (uint64_t)(LOCAL - 1) * g64[2];
    int ok_s32 = in_s32 && (uint32_t)(got[44] + got[45]) == 7u + sumxlo;
    int ok_c32 = in_c32 && got[47] == (uint32_t)(LOCAL - 1) * got[46];
    q[11] = ok_s ? g64[0] : ~g64[0];
    q[12] = g64[1];
    q[13] = ok_c ? g64[2] : ~g64[2];
    q[14] = g64[3];
    SET(22, ok_s32 ? got[44] : ~got[44], got[45]);
    SET(23, ok_c32 ? got[46] : ~got[46], got[47]);
    for (unsigned u = 0; u < NSLOTW / 2; u++) {
        if (part_of_slot(u) != part)
            q[u] = q0[u];
        want[2 * u] = LO(u);
        want[2 * u + 1] = HI(u);
    }
#undef LO
#undef HI
#undef SET
}


static void items_expect(unsigned g, uint32_t *want /* LOCAL * 8 */)
{
    for (unsigned t = 0; t < LOCAL; t++) {
        unsigned n = (t + 1) % LOCAL, ne = n & ~1u;
        uint64_t X = x_of(g * LOCAL + n), X2 = X * 0x9e3779b97f4a7c15ull;
        uint32_t *w = want + t * 8;
        w[0] = (uint32_t)X;
        w[1] = n & 255;
        w[2] = (uint32_t)X;
        w[3] = (uint32_t)(X >> 32);
        w[4] = (uint32_t)X2;
        w[5] = (uint32_t)(X2 >> 32);
        w[6] = (ne & 255) | (((ne + 1) & 255) << 8);
        w[7] = (uint32_t)(X2 >> 32);
    }
}

/* ---- running ---------------------------------------------------------------- */

/* Where the LDS lives and how its 64-bit atomics are made (docs/memory.md). */
enum { V_SHARED, V_SHARED_LOCK, V_BUFFER, V_BUFFER_LOCK, NVARIANTS };
static const char *const variant_name[] = {"workgroup LDS, 64-bit units", "workgroup LDS, lock",
                                           "device-memory LDS, 64-bit view", "device-memory LDS, lock"};

static uint32_t *translate_text(const char *ir, unsigned S, int o2, int variant, int model, size_t *nw, wl_translate_info *info,
                                char *err, size_t errcap)
{
    wl_translate_options o;
    wl_translate_options_init(&o);
    o.subgroup_size = S;
    o.local_size[0] = LOCAL;
    o.opt_level = o2 ? 2 : 0;
    o.validate = 1;
    o.passes = variant == V_BUFFER || variant == V_BUFFER_LOCK ? "lds-buffer" : NULL; /* the debug option's knob */
    o.force_atomic64_lock = variant == V_BUFFER_LOCK;
    o.force_lds_atomic64_lock = variant == V_SHARED_LOCK;
    o.model = model ? WL_MODEL_WAVE : WL_MODEL_LANES;
    return wlt_translate_text(ir, &o, nw, info, NULL, err, errcap);
}

/* Runs the module; mem (BUF_BYTES) in and out, st the 4 status words.
 * Returns 0, or -1 when it could not run. */
static int run(wl_rt *rt, const uint32_t *words, size_t nw, unsigned S /* 0: the wave model */, uint32_t lds_bytes, uint32_t *mem,
               uint32_t st[4])
{
    wl_rt_buffer *buf = NULL, *status = NULL;
    int rc = -1;
    if (wl_rt_buffer_create(rt, BUF_BYTES, &buf) != WL_RT_OK || wl_rt_buffer_upload(rt, buf, 0, mem, BUF_BYTES) != WL_RT_OK ||
        wlt_run_lds(rt, words, nw, NULL, S, GROUPS, buf, lds_bytes, &status, NULL) != WL_RT_OK ||
        wl_rt_buffer_download(rt, buf, 0, mem, BUF_BYTES) != WL_RT_OK ||
        wl_rt_buffer_download(rt, status, 0, st, 16) != WL_RT_OK) {
        printf("runtime: %s\n", wl_rt_error(rt));
        goto out;
    }
    rc = 0;
out:
    if (status)
        wl_rt_buffer_destroy(rt, status);
    if (buf)
        wl_rt_buffer_destroy(rt, buf);
    return rc;
}

/* the inputs (a qword an item) and the slots' initial values at INIT_AT */
static void fill_input(uint32_t *mem)
{
    memset(mem, 0, BUF_BYTES);
    for (unsigned i = 0; i < ITEMS; i++) {
        uint64_t x = x_of(i);
        mem[2 * i] = (uint32_t)x;
        mem[2 * i + 1] = (uint32_t)(x >> 32);
    }
    uint64_t q[NSLOTW / 2];
    slots_init(q);
    for (unsigned u = 0; u < NSLOTW / 2; u++) {
        mem[INIT_AT / 4 + 2 * u] = (uint32_t)q[u];
        mem[INIT_AT / 4 + 2 * u + 1] = (uint32_t)(q[u] >> 32);
    }
}

/* the main module: mismatching words (-1: did not run) */
static int check_main(wl_rt *rt, const uint32_t *w, size_t nw, unsigned S, unsigned part, uint32_t st[4])
{
    uint32_t *mem = malloc(BUF_BYTES), *want = malloc(LOCAL * 8 * 4);
    fill_input(mem);
    int bad = run(rt, w, nw, S, 4864, mem, st);
    if (bad == 0) {
        for (unsigned g = 0; g < GROUPS; g++) {
            uint32_t sw[NSLOTW];
            const uint32_t *got = mem + (OUT_G + g * 256) / 4;
            slots_expect(g, part, got, sw);
            for (unsigned i = 0; i < NSLOTW; i++)
                if (got[i] != sw[i] && bad++ < 12)
                    printf("  group %u slot byte %u: %#x want %#x\n", g, i * 4, got[i], sw[i]);
            if (part != 1)
                continue;
            items_expect(g, want);
            const uint32_t *gi = mem + (OUT_I + g * LOCAL * 32) / 4;
            for (unsigned i = 0; i < LOCAL * 8; i++)
                if (gi[i] != want[i] && bad++ < 12)
                    printf("  group %u item %u word %u: %#x want %#x\n", g, i / 8, i % 8, gi[i], want[i]);
        }
    }
    free(mem);
    free(want);
    return bad;
}

/* the unaligned module: 0 when refused by the escape with the LDS unchanged
 * (-1: did not run) */
static int check_unaligned(wl_rt *rt, const uint32_t *w, size_t nw, unsigned S)
{
    uint32_t *mem = malloc(BUF_BYTES), st[4] = {0};
    fill_input(mem);
    int bad = run(rt, w, nw, S, 64, mem, st) ? -1 : 0;
    if (!bad) {
        const uint32_t *o = mem + 8192 / 4;
        bad = st[0] != 4 || st[2] != 5 || o[0] != 17 || o[1] != 34 || o[2] != 51 || o[3] != 0 || o[4] != 0;
        printf("  unaligned: status %u lane %u, LDS %#x %#x %#x, result %#x%08x: %s\n", st[0], st[2], o[0], o[1],
               o[2], o[4], o[3], bad ? "WRONG" : "refused by escape, nothing done");
    }
    free(mem);
    return bad;
}

/* One run: the main module or the unaligned one, at one LDS place, model,
 * W and -O level. */
typedef struct {
    int variant, model, o2, which;
    unsigned W, part; /* part: of the main module (build_main) */
} lds64_case;

#define MAX_CASES 96
/* The runs of the child at subgroup size S, in order (at most MAX_CASES);
 * the number of them. */
static unsigned cases_of(unsigned S, lds64_case *c)
{
    unsigned n = 0;
    /* while iterating: WLT_LDS64_VARIANT=0..3, WLT_LDS64_MODEL=0 (lanes) or 1
     * (wave) run only those */
    const char *fv = getenv("WLT_LDS64_VARIANT"), *fm = getenv("WLT_LDS64_MODEL");
    for (int variant = 0; variant < NVARIANTS; variant++)
    for (int model = 0; model < 2; model++)
    for (unsigned W = 64; W >= 32; W /= 2)
        for (int o2 = 0; o2 < 2; o2++)
            for (int which = 0; which < 2; which++) {
                if ((fv && *fv && atoi(fv) != variant) || (fm && *fm && atoi(fm) != model))
                    continue;
                if (!which && !o2 && W == 32)
                    continue; /* the run time: -O0 of the main module at W = 64 only */
                if ((variant != V_SHARED || model) && !o2 && !getenv("WLT_LDS64_O0"))
                    continue; /* the other paths and the wave model at -O2 */
                if ((model || variant != V_SHARED) && S != 8)
                    continue; /* the wave model and the other LDS places: at S = 8 (time) */
                for (unsigned part = 0; part < (which ? 1u : NPARTS); part++) {
                    if (n == MAX_CASES) {
                        fprintf(stderr, "test_lds64: more than MAX_CASES (%d) cases at S = %u\n", MAX_CASES, S);
                        abort();
                    }
                    c[n++] = (lds64_case){variant, model, o2, which, W, part};
                }
            }
    return n;
}

static double seconds(const struct timespec *a, const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) + 1e-9 * (double)(b->tv_nsec - a->tv_nsec);
}

/* this process's CPU time, every thread (lavapipe compiles and runs in its own) */
static double cpu_now(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + 1e-6 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

/* lavapipe compiles at the first dispatch (most of a case's time); a loaded
 * machine is slow. WLT_LDS64_TIMEOUT_MS overrides it (to see a timeout
 * reported). */
#define RUN_TIMEOUT_MS 300000u

static uint32_t run_timeout_ms(void)
{
    const char *e = getenv("WLT_LDS64_TIMEOUT_MS");
    return e && *e ? (uint32_t)strtoul(e, NULL, 10) : RUN_TIMEOUT_MS;
}

/* One case on rt: 0 as expected, 1 not, 2 did not run (rt is then unusable) */
static int run_case(wl_rt *rt, unsigned S, const lds64_case *c)
{
    char err[4096];
    char *ir = c->which ? build_unaligned(c->W) : build_main(c->W, c->part);
    if (getenv("WLT_LDS64_DUMP") && !c->which && c->W == 64) { /* the main module's wave IR, W = 64 */
        FILE *f = fopen(getenv("WLT_LDS64_DUMP"), "w");
        if (f) {
            fputs(ir, f);
            fclose(f);
        }
    }
    struct timespec t0, t1, t2;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    double c0 = cpu_now();
    wl_translate_info info;
    size_t nw = 0;
    uint32_t *w = translate_text(ir, S, c->o2, c->variant, c->model, &nw, &info, err, sizeof err);
    free(ir);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double c1 = cpu_now();
    char tag[256];
    char what[32];
    snprintf(what, sizeof what, c->which ? "unaligned" : "lds64 part %u", c->part);
    snprintf(tag, sizeof tag, "%s W=%u S=%u k=%u O%d (%s, %s model)", what, c->W, S,
             w && !c->model ? info.lanes_per_invocation : 0, c->o2 ? 2 : 0, variant_name[c->variant],
             c->model ? "wave" : "lanes");
    if (!w) {
        printf("%s: translate failed: %s\n", tag, err);
        return 1;
    }
    if (getenv("WLT_LDS64_SPV") && wlt_write_file(getenv("WLT_LDS64_SPV"), w, nw * 4)) /* the case's SPIR-V */
        printf("  could not write %s\n", getenv("WLT_LDS64_SPV"));
    /* the path must be the one asked for: the buffer's binding, and no
     * 64-bit atomic in a lock variant */
    int buffer = c->variant == V_BUFFER || c->variant == V_BUFFER_LOCK;
    int lock = c->variant == V_SHARED_LOCK || c->variant == V_BUFFER_LOCK;
    int path_ok = !!(info.bindings & (1u << WL_RT_BINDING_LDS)) == buffer &&
                  (!lock || !(info.features & WL_FEAT_INT64_ATOMICS));
    uint32_t st[4] = {0};
    int bad = c->which ? check_unaligned(rt, w, nw, c->model ? 0 : S) : check_main(rt, w, nw, c->model ? 0 : S, c->part, st);
    free(w);
    clock_gettime(CLOCK_MONOTONIC, &t2);
    double c2 = cpu_now();
    if (bad < 0) {
        /* the runtime's own message (printed by run) names the call; this
         * names the case, and how much of the wait the process ran */
        printf("%s: %zu SPIR-V words: DID NOT RUN: %s after %.1f s of a %.3g s limit (CPU %.1f s in that time%s)\n",
               tag, nw, wl_rt_error(rt), seconds(&t1, &t2), run_timeout_ms() / 1000.0, c2 - c1,
               c2 - c1 < 0.5 * seconds(&t1, &t2) ? ": a loaded machine" : "");
        return 2;
    }
    if (!path_ok) {
        printf("  not the path asked for: bindings %#x, features %#x\n", info.bindings, info.features);
        bad++;
    }
    if (!c->which) {
        if (st[0])
            bad++;
        static const char *const parts[] = {"slots 0..14: 15 64-bit atomic ops",
                                            "slots 15..18: 12 mixed 32- and 64-bit atomic ops, and 4800 item words",
                                            "slots 19..27: 14 32-bit and 2 64-bit atomic ops"};
        printf("%s: %zu SPIR-V words; 3 groups x %u items, %s: %s (status %u)", tag, nw, LOCAL, parts[c->part],
               bad ? "MISMATCH" : "all match", st[0]);
    } else {
        printf("%s: %s", tag, bad ? "WRONG" : "ok");
    }
    printf(" [translate %.1f s, run %.1f s; CPU %.1f s]\n", seconds(&t0, &t1), seconds(&t1, &t2), c2 - c0);
    return bad ? 1 : 0;
}

/* `--child S`: every case of S in this process; `--child S --case i`: case
 * i alone (what the test runs: one process a case, so a case that loses
 * the device or times out cannot make the next ones fail) */
static int child_main(unsigned S, int only)
{
    char err[4096];
    wl_rt *rt = NULL;
    if (wl_rt_create(&(wl_rt_options){.timeout_ms = run_timeout_ms()}, &rt, err, sizeof err) != WL_RT_OK) {
        printf("child: no device: %s\n", err);
        return 1;
    }
    const wl_host_profile *hp = wl_rt_profile(rt);
    if (only < 0)
        printf("child: %s, subgroup %u..%u, shaderSharedInt64Atomics %d\n", hp->device_name, hp->min_subgroup_size,
               hp->max_subgroup_size, hp->shader_shared_int64_atomics);
    if (!hp->shader_shared_int64_atomics) {
        printf("child: the device has no 64-bit shared atomics\n");
        wl_rt_destroy(rt);
        return 1;
    }
    lds64_case c[MAX_CASES];
    unsigned n = cases_of(S, c), runs = 0, failed = 0;
    for (unsigned i = 0; i < n; i++) {
        if (only >= 0 && i != (unsigned)only)
            continue;
        runs++;
        int r = run_case(rt, S, &c[i]);
        if (r == 2) {
            /* the context is unusable, and destroying it would wait for
             * lavapipe to finish what timed out: leave at once */
            unsigned left = 0;
            for (unsigned j = i + 1; j < n; j++)
                left += only < 0;
            if (left)
                printf("child S=%u: %u later cases SKIPPED after that failure\n", S, left);
            fflush(stdout);
            _exit(1);
        }
        failed += r != 0;
    }
    wl_rt_destroy(rt);
    if (only < 0)
        printf("child S=%u: %u runs, %u as expected\n", S, runs, runs - failed);
    return failed ? 1 : 0;
}

/* ---- tests ------------------------------------------------------------------ */

/* The lock's round in the SPIR-V (lower/memory/lds.c): each acquire (a
 * compare-exchange on a pointer that an OpAtomicISub also names: the lock)
 * has its release in its own block, after it. A holder whose release sat
 * after the loop, or in a block the loop's other lanes do not run, would
 * wait there for lanes of its own subgroup spinning on its lock (no
 * independent forward progress: lavapipe runs a subgroup as SIMD lanes);
 * with both in one block every round frees the lock it took. Returns the
 * acquires found; *bad counts those without their release. */
static unsigned lock_rounds(const uint32_t *w, size_t nw, unsigned *bad)
{
    /* a pointer's key: its access chain's operands (base and indices) */
    uint32_t bound = nw > 3 ? w[3] : 0;
    uint64_t *key = calloc(bound ? bound : 1, sizeof *key);
    assert_non_null(key);
    for (size_t i = 5; i < nw && (w[i] >> 16);) {
        unsigned n = w[i] >> 16, op = w[i] & 0xffff;
        if ((op == 65 || op == 66) && n >= 4 && w[i + 2] < bound) { /* OpAccessChain, OpInBoundsAccessChain */
            uint64_t h = 1469598103934665603ull;
            for (unsigned j = 3; j < n; j++)
                h = (h ^ w[i + j]) * 1099511628211ull;
            key[w[i + 2]] = h | 1;
        }
        i += n;
    }
#define KEY(id) ((id) < bound && key[id] ? key[id] : (uint64_t)(id) << 1)
    /* the lock pointers: those an OpAtomicISub names */
    uint64_t *locks = malloc(nw * sizeof *locks);
    assert_non_null(locks);
    size_t nl = 0;
    for (size_t i = 5; i < nw && (w[i] >> 16); i += w[i] >> 16)
        if ((w[i] & 0xffff) == 235 && (w[i] >> 16) >= 7) /* OpAtomicISub */
            locks[nl++] = KEY(w[i + 3]);
    unsigned acquires = 0;
    *bad = 0;
    int open = 0; /* an acquire in this block not released yet */
    uint64_t held = 0;
    for (size_t i = 5; i < nw && (w[i] >> 16); i += w[i] >> 16) {
        unsigned op = w[i] & 0xffff;
        if (op == 248 || op == 249 || op == 250 || op == 251 || op == 253 || op == 254) { /* a label, branch, return */
            *bad += open;
            open = 0;
        }
        if (op == 230 && (w[i] >> 16) >= 9) { /* OpAtomicCompareExchange */
            uint64_t k = KEY(w[i + 3]);
            size_t j = 0;
            while (j < nl && locks[j] != k)
                j++;
            if (j < nl) {
                acquires++;
                *bad += open;
                open = 1;
                held = k;
            }
        }
        if (op == 235 && open && KEY(w[i + 3]) == held)
            open = 0;
    }
#undef KEY
    free(locks);
    free(key);
    return acquires;
}

static void lock_round_one_block(void **state)
{
    (void)state;
    char err[4096];
    unsigned total = 0;
    for (int variant = V_SHARED_LOCK; variant <= V_BUFFER_LOCK; variant += V_BUFFER_LOCK - V_SHARED_LOCK)
        for (int model = 0; model < 2; model++)
            for (unsigned part = 0; part < NPARTS; part++) {
                char *ir = build_main(64, part);
                wl_translate_info info;
                size_t nw = 0;
                uint32_t *w = translate_text(ir, 8, 1, variant, model, &nw, &info, err, sizeof err);
                free(ir);
                if (!w)
                    fail_msg("translate: %s", err);
                static const unsigned ops_of_part[NPARTS] = {15, 12, 16}; /* build_main */
                unsigned bad = 0, n = lock_rounds(w, nw, &bad), want = ops_of_part[part] * (model ? 1 : 64 / 8);
                printf("%s, %s model, part %u: %u lock acquires (want %u: an atomic a lane clone), %u without their "
                       "release in the same block\n",
                       variant_name[variant], model ? "wave" : "lanes", part, n, want, bad);
                assert_int_equal(n, want);
                assert_int_equal(bad, 0);
                total += n;
                free(w);
            }
    printf("%u lock rounds, each releasing in its own block\n", total);
}

static void lds64_run(void **state)
{
    (void)state;
    /* One child process a case (cases_of), at each lavapipe subgroup size
     * (4, 8, 16; WL_SUITE_QUICK, the sanitizer build: 8 alone, which has
     * every LDS place and both models) */
    static const unsigned sizes[] = {8, 4, 16};
    const char *quick = getenv("WL_SUITE_QUICK");
    size_t nsizes = quick && strcmp(quick, "1") == 0 ? 1 : sizeof sizes / sizeof sizes[0];
    unsigned runs = 0, failed = 0;
    for (size_t s = 0; s < nsizes; s++) {
        lds64_case c[MAX_CASES];
        unsigned n = cases_of(sizes[s], c);
        for (unsigned i = 0; i < n; i++) {
            char args[64];
            snprintf(args, sizeof args, "--child %u --case %u", sizes[s], i);
            runs++;
            failed += wlt_run_self_at_width((int)(32 * sizes[s]), args) != 0;
        }
    }
    printf("test_lds64: %u runs, %u as expected\n", runs, runs - failed);
    assert_int_equal(failed, 0);
}

int main(int argc, char **argv)
{
    /* correctness only: lavapipe's own LLVM optimization off (results stay
     * exact; compile time dominates on a loaded machine) */
    wlt_use_lavapipe(1);
    if (argc == 3 && strcmp(argv[1], "--child") == 0)
        return child_main((unsigned)strtoul(argv[2], NULL, 10), -1);
    if (argc == 5 && strcmp(argv[1], "--child") == 0 && strcmp(argv[3], "--case") == 0)
        return child_main((unsigned)strtoul(argv[2], NULL, 10), atoi(argv[4]));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lock_round_one_block),
        cmocka_unit_test(lds64_run),
    };
    if (getenv("WLT_TEST_FILTER")) /* e.g. lock_round_one_block alone */
        cmocka_set_test_filter(getenv("WLT_TEST_FILTER"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
