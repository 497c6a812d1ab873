/* Sub-word stores (D977) and 64-bit global atomics without
 * shaderBufferInt64Atomics (docs/memory.md).
 *
 * One guest program in gfx1030 assembly (llvm-mc-19), wave64 and wave32,
 * groups of LOCAL work-items, GROUPS groups, every lane of every wave:
 *   global (global_store_byte/short and their d16_hi forms,
 *   buffer_store_byte/short, flat_store_byte/short) and LDS
 *   (ds_write_b8/b16 and d16_hi, then copied out):
 *     - neighbouring bytes of one word, one lane each (all must land);
 *     - every lane of the group storing the same byte, and the same aligned
 *       half, values 1 << i (one of the values lands; an OR of two values,
 *       or a half made of two lanes' bytes, is none of them);
 *     - halves at a word's last byte (4t + 3) and at odd addresses, so that
 *       neighbours share both words;
 *     - contention between waves: bytes every wave of the dispatch (global)
 *       or of the group (LDS) stores into, value 1 << wave.
 * Translated in both models, the lanes model at lavapipe's subgroup size
 * (children at LP_NATIVE_VECTOR_WIDTH 128/256/512: S = 4/8/16, so k = 16..2
 * over wave64 and wave32), with the native byte stores and with the merge
 * forced (force_merge_stores), -O2, run on lavapipe. Every byte of the
 * result is compared with a model written here from the ISA's definition
 * (the bytes a store names, little-endian; the others keep the buffer's
 * pattern). The wave model's module must hold one compare-and-swap loop a
 * merged store whatever W (not one per lane).
 *
 * 64-bit atomics: every lane adds a 64-bit value to one qword, takes umax on
 * another, swaps a third and does cmpswap on a fourth, natively and with
 * force_atomic64_lock (whose module must not need Int64Atomics): the sum
 * exact, the max the largest value, the swap one lane's value and the set
 * of returned values plus the final one the initial plus all values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "wavelift/backend.h"
#include "wavelift/lift.h"
#include "wavelift/runtime.h"
#include "wavelift/translate.h"

#define LOCAL 128u
#define GROUPS 4u
#define REGION 4096u
#define SHARED_AT (GROUPS * REGION) /* 64 bytes every wave contends on; the 64-bit qwords after */
#define Q_AT (SHARED_AT + 64)
#define RET_AT (SHARED_AT + 128)     /* 8 bytes a lane: the old value of its swap */
#define MEM_BYTES (RET_AT + 8 * LOCAL * GROUPS)
#define PATTERN 0xa5a5a5a5u
#define LDS_BYTES 1536u
#define LDS_COPY 2304u /* the LDS, copied to this offset of the group's region */
#define TIMEOUT_MS 180000u

static int g_width; /* LP_NATIVE_VECTOR_WIDTH of this child */

/* ---- the program ------------------------------------------------------------
 * s[0:1] the buffer, s2 the group id; v0 = t, the work-item in its group.
 * Region of group g at g * REGION (s[8:9]); values:
 *   A(t) = (37 t + 11 g + 5) & 255        H(t) = (257 t + 3 g + 0x1234) & 0xffff
 * Region offsets:
 *   0     global_store_byte A at t            129 global_store_byte 1 << (t & 7)
 *   136   global_store_short 1 << (t & 15)     256 global_store_short H at 4t + 3
 *   784   global_store_short_d16_hi H at 2t    1040 global_store_byte_d16_hi A ^ 0x5a at t
 *   1168  buffer_store_byte A ^ 0x33 at t     1297 buffer_store_short H ^ 0xbeef at 2t + 1
 *   1560  flat_store_byte A ^ 0x77 at t       1688 flat_store_short H ^ 0x1111 at 4t + 3
 *   2304  the LDS (1536 bytes), after:
 *     0 ds_write_b8 A at t; 130 ds_write_b8 1 << (t & 7); 256 ds_write_b16 H at 4t + 3;
 *     784 ds_write_b16_d16_hi H at 2t; 1040 ds_write_b8_d16_hi A ^ 0x5a at t;
 *     1168 + (t & 31) ds_write_b8 1 << (t >> 5); 1200 ds_write_b16 1 << (t & 15)
 * SHARED_AT + (t & 63): global_store_byte 1 << ((wave of the dispatch) & 7). */
static char *program_text(unsigned W)
{
    unsigned nw = LOCAL / W, lw = W == 64 ? 6 : 5;
    const char *vcc = W == 64 ? "vcc" : "vcc_lo";
    char *s = malloc(16384);
    assert_non_null(s);
    snprintf(s, 16384,
             "s_lshl_b32 s10, s2, 12\n"
             "s_add_u32 s8, s0, s10\ns_addc_u32 s9, s1, 0\n"
             "s_add_u32 s18, s0, %u\ns_addc_u32 s19, s1, 0\n"
             /* A in v1, 1 << (t & 7) in v2, zero in v4, H in v6 */
             "v_mul_lo_u32 v1, v0, 37\ns_mul_i32 s11, s2, 11\nv_add3_u32 v1, v1, s11, 5\nv_and_b32 v1, 0xff, v1\n"
             "v_and_b32 v3, 7, v0\nv_lshlrev_b32 v2, v3, 1\nv_mov_b32 v4, 0\n"
             "v_mul_lo_u32 v6, v0, 257\ns_mul_i32 s12, s2, 3\nv_add3_u32 v6, v6, s12, 0x1234\n"
             "v_and_b32 v6, 0xffff, v6\n"
             "v_and_b32 v3, 15, v0\nv_lshlrev_b32 v36, v3, 1\n"
             /* global */
             "global_store_byte v0, v1, s[8:9]\n"
             "global_store_byte v4, v2, s[8:9] offset:129\n"
             "global_store_short v4, v36, s[8:9] offset:136\n"
             "v_lshl_add_u32 v5, v0, 2, 259\nglobal_store_short v5, v6, s[8:9]\n"
             "v_lshlrev_b32 v8, 16, v6\nv_or_b32 v8, 0x77, v8\n"
             "v_lshl_add_u32 v7, v0, 1, 784\nglobal_store_short_d16_hi v7, v8, s[8:9]\n"
             "v_xor_b32 v10, 0x5a, v1\nv_lshlrev_b32 v9, 16, v10\nv_or_b32 v9, 0xff00ffff, v9\n"
             "v_add_nc_u32 v11, 0x410, v0\nglobal_store_byte_d16_hi v11, v9, s[8:9]\n"
             /* buffer: V# over the whole buffer, voffset from the buffer's start */
             "s_mov_b32 s4, s0\ns_and_b32 s5, s1, 0xffff\ns_mov_b32 s6, -1\ns_mov_b32 s7, 0x31016fac\n"
             "v_add_nc_u32 v12, s10, v0\nv_add_nc_u32 v12, 0x490, v12\nv_xor_b32 v13, 0x33, v1\n"
             "buffer_store_byte v13, v12, s[4:7], 0 offen\n"
             "v_lshl_add_u32 v12, v0, 1, s10\nv_add_nc_u32 v12, 0x511, v12\nv_xor_b32 v13, 0xbeef, v6\n"
             "buffer_store_short v13, v12, s[4:7], 0 offen\n"
             /* flat: 64-bit addresses */
             "v_add_nc_u32 v14, 0x618, v0\nv_add_co_u32 v20, %s, s8, v14\nv_add_co_ci_u32 v21, %s, s9, 0, %s\n"
             "v_xor_b32 v13, 0x77, v1\nflat_store_byte v[20:21], v13\n"
             "v_lshl_add_u32 v14, v0, 2, 0x69b\nv_add_co_u32 v22, %s, s8, v14\nv_add_co_ci_u32 v23, %s, s9, 0, %s\n"
             "v_xor_b32 v13, 0x1111, v6\nflat_store_short v[22:23], v13\n"
             /* global contention between the waves of the dispatch */
             "v_lshrrev_b32 v15, %u, v0\ns_mul_i32 s13, s2, %u\nv_add_nc_u32 v15, s13, v15\nv_and_b32 v15, 7, v15\n"
             "v_lshlrev_b32 v16, v15, 1\nv_and_b32 v17, 63, v0\nglobal_store_byte v17, v16, s[18:19]\n"
             /* LDS: the pattern, a barrier, the stores, a barrier, copied out */
             "v_lshlrev_b32 v30, 2, v0\nv_mov_b32 v31, 0x%x\n"
             "ds_write_b32 v30, v31\nds_write_b32 v30, v31 offset:512\nds_write_b32 v30, v31 offset:1024\n"
             "s_waitcnt lgkmcnt(0)\ns_barrier\n"
             "ds_write_b8 v0, v1\n"
             "ds_write_b8 v4, v2 offset:130\n"
             "v_lshl_add_u32 v32, v0, 2, 3\nds_write_b16 v32, v6 offset:256\n"
             "v_lshlrev_b32 v33, 1, v0\nds_write_b16_d16_hi v33, v8 offset:784\n"
             "ds_write_b8_d16_hi v0, v9 offset:1040\n"
             "v_and_b32 v34, 31, v0\nv_lshrrev_b32 v35, 5, v0\nv_lshlrev_b32 v35, v35, 1\n"
             "ds_write_b8 v34, v35 offset:1168\n"
             "ds_write_b16 v4, v36 offset:1200\n"
             "s_waitcnt lgkmcnt(0)\ns_barrier\n"
             "ds_read_b32 v40, v30\nds_read_b32 v41, v30 offset:512\nds_read_b32 v42, v30 offset:1024\n"
             "s_waitcnt lgkmcnt(0)\n"
             "v_add_nc_u32 v43, 0x%x, v30\n"
             "global_store_dword v43, v40, s[8:9]\nglobal_store_dword v43, v41, s[8:9] offset:512\n"
             "global_store_dword v43, v42, s[8:9] offset:1024\n"
             "s_endpgm\n",
             SHARED_AT, vcc, vcc, vcc, vcc, vcc, vcc, lw, nw, PATTERN, LDS_COPY);
    return s;
}

/* the 64-bit atomics: s[0:1] the buffer, s2 the group; value
 * V(t, g) = 0x0123456789 * (gid + 1) ^ (gid << 40), gid = g * LOCAL + t */
static char *atomics_text(unsigned W)
{
    const char *vcc = W == 64 ? "vcc" : "vcc_lo";
    char *s = malloc(8192);
    assert_non_null(s);
    snprintf(s, 8192,
             "s_add_u32 s8, s0, %u\ns_addc_u32 s9, s1, 0\n"
             "s_mul_i32 s3, s2, %u\nv_add_nc_u32 v1, s3, v0\n"          /* gid */
             "v_add_nc_u32 v2, 1, v1\n"                                 /* gid + 1 */
             "v_mul_lo_u32 v10, v2, 0x23456789\nv_mul_hi_u32 v11, v2, 0x23456789\n"
             "v_mul_lo_u32 v12, v2, 0x01\nv_add_nc_u32 v11, v11, v12\n" /* * 0x0123456789 */
             "v_lshlrev_b32 v13, 8, v1\nv_xor_b32 v11, v11, v13\n"      /* ^ gid << 40 */
             "v_mov_b32 v4, 0\n"
             "global_atomic_add_x2 v4, v[10:11], s[8:9]\n"
             "global_atomic_umax_x2 v4, v[10:11], s[8:9] offset:8\n"
             "global_atomic_swap_x2 v[14:15], v4, v[10:11], s[8:9] offset:16 glc\n"
             "v_mov_b32 v16, v10\nv_mov_b32 v17, v11\nv_mov_b32 v18, 0\nv_mov_b32 v19, 0\n"
             "global_atomic_cmpswap_x2 v4, v[16:19], s[8:9] offset:24\n"
             "v_lshlrev_b32 v5, 3, v1\nv_add_co_u32 v6, %s, s8, v5\nv_add_co_ci_u32 v7, %s, s9, 0, %s\n"
             "s_waitcnt vmcnt(0)\n"
             "global_store_dwordx2 v5, v[14:15], s[8:9] offset:%u\n"
             "s_endpgm\n",
             Q_AT, LOCAL, vcc, vcc, vcc, RET_AT - Q_AT);
    return s;
}

static uint64_t v64(uint32_t gid)
{
    uint64_t x = 0x0123456789ull * (uint64_t)(gid + 1);
    return (x & 0xffffffffull) | ((uint64_t)(((uint32_t)(x >> 32)) ^ (gid << 8)) << 32);
}

/* ---- translate and run ------------------------------------------------------ */

typedef struct compiled {
    uint32_t *words;
    size_t nw;
    wl_translate_info info;
} compiled;

static void translate(const char *text, unsigned W, uint32_t lds, int model, unsigned S, int merge, int lock,
                      compiled *c)
{
    size_t size = 0;
    uint8_t *code = wlt_assemble(text, "gfx1030", W, &size, NULL);
    assert_non_null(code);
    wl_lift_program p;
    memset(&p, 0, sizeof p);
    p.code = code;
    p.size = size;
    p.address = 0x1000;
    p.target = WL_GFX1030;
    p.wave_size = W;
    p.user_sgpr_count = 2;
    p.enable_workgroup_id[0] = 1;
    p.vgpr_workitem_ids = 1;
    p.lds_bytes = lds;
    wl_translate_options o;
    wl_translate_options_init(&o);
    o.model = model;
    o.subgroup_size = S;
    o.local_size[0] = LOCAL;
    o.opt_level = 2;
    o.validate = 1;
    o.force_merge_stores = merge;
    o.force_atomic64_lock = lock;
    char err[1024] = "";
    memset(c, 0, sizeof *c);
    wl_status st = wl_translate(&p, &o, &c->words, &c->nw, &c->info, err, sizeof err);
    free(code);
    if (st != WL_OK)
        fail_msg("translate (W %u, model %d, merge %d, lock %d): %s", W, model, merge, lock, err);
}

static unsigned count_op(const compiled *c, uint32_t opcode)
{
    unsigned n = 0;
    for (size_t i = 5; i < c->nw;) {
        uint32_t wc = c->words[i] >> 16;
        if ((c->words[i] & 0xffff) == opcode)
            n++;
        i += wc ? wc : 1;
    }
    return n;
}

static void run(wl_rt *rt, const compiled *c, int model, unsigned S, wl_rt_buffer *mem, const char *what)
{
    wl_rt_buffer *status = NULL;
    wl_rt_pipeline *pipe = NULL;
    assert_int_equal(wl_rt_buffer_create(rt, WL_RT_STATUS_BYTES, &status), WL_RT_OK);
    wl_rt_pipeline_desc pd = {.words = c->words, .nwords = c->nw, .subgroup_size = model == WL_MODEL_WAVE ? 0 : S,
                              .require_full_subgroups = model != WL_MODEL_WAVE};
    if (wl_rt_pipeline_create(rt, &pd, &pipe) != WL_RT_OK)
        fail_msg("%s: pipeline: %s", what, wl_rt_error(rt));
    uint8_t push[WL_PUSH_BYTES];
    memset(push, 0, sizeof push); /* the identity mapping: guest address = device address */
    uint64_t a = wl_rt_buffer_address(mem);
    memcpy(push, &a, 8);
    wl_rt_buffer *seg = NULL;
    if (wlt_segment(rt, &c->info, GROUPS, push, &seg))
        fail_msg("%s: device segment: %s", what, wl_rt_error(rt));
    wl_rt_dispatch_desc d = {.groups = {GROUPS, 1, 1}, .push_constants = push, .push_constant_size = sizeof push,
                             .runs = 1};
    d.bindings[WL_RT_BINDING_STATUS] = status;
    if (wl_rt_dispatch(rt, pipe, &d, NULL) != WL_RT_OK)
        fail_msg("%s: dispatch: %s", what, wl_rt_error(rt));
    wl_rt_escape esc;
    if (wl_rt_escape_check(rt, status, &esc) != WL_RT_OK)
        fail_msg("%s: escape: %s", what, wl_rt_error(rt));
    wl_rt_pipeline_destroy(rt, pipe);
    wl_rt_buffer_destroy(rt, status);
    if (seg)
        wl_rt_buffer_destroy(rt, seg);
}

/* ---- the model ---------------------------------------------------------------- */

/* per byte: the exact value, or a set (bit mask over 1 << i values) */
typedef struct want {
    uint8_t exact[MEM_BYTES];
    uint8_t is_set[MEM_BYTES];
    uint32_t set8[MEM_BYTES]; /* bytes: the values 1 << i allowed (bit i) */
} want;

static void put(want *w, uint32_t at, uint32_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        w->exact[at + i] = (uint8_t)(v >> (8 * i));
}

static void model(want *w, unsigned W)
{
    memset(w, 0, sizeof *w);
    for (uint32_t i = 0; i < MEM_BYTES; i++)
        w->exact[i] = 0xa5;
    unsigned nw = LOCAL / W;
    for (uint32_t g = 0; g < GROUPS; g++) {
        uint32_t R = g * REGION, L = R + LDS_COPY;
        for (uint32_t t = 0; t < LOCAL; t++) {
            uint32_t A = (37 * t + 11 * g + 5) & 255, H = (257 * t + 3 * g + 0x1234) & 0xffff;
            put(w, R + t, A, 1);
            put(w, R + 256 + 4 * t + 3, H, 2);
            put(w, R + 784 + 2 * t, H, 2);
            put(w, R + 1040 + t, A ^ 0x5a, 1);
            put(w, R + 1168 + t, A ^ 0x33, 1);
            put(w, R + 1297 + 2 * t, H ^ 0xbeef, 2);
            put(w, R + 1560 + t, A ^ 0x77, 1);
            put(w, R + 1688 + 4 * t + 3, H ^ 0x1111, 2);
            put(w, L + t, A, 1);
            put(w, L + 256 + 4 * t + 3, H, 2);
            put(w, L + 784 + 2 * t, H, 2);
            put(w, L + 1040 + t, A ^ 0x5a, 1);
            /* sets: byte 129 / LDS 130 values 1 << (t & 7); LDS 1168 + (t & 31): 1 << (t >> 5) */
            w->is_set[R + 129] = w->is_set[L + 130] = 1;
            w->set8[R + 129] |= 1u << (t & 7);
            w->set8[L + 130] |= 1u << (t & 7);
            w->is_set[L + 1168 + (t & 31)] = 1;
            w->set8[L + 1168 + (t & 31)] |= 1u << (t >> 5);
            uint32_t wave = g * nw + t / W;
            w->is_set[SHARED_AT + (t & 63)] = 1;
            w->set8[SHARED_AT + (t & 63)] |= 1u << (wave & 7);
        }
    }
}

/* the aligned half at `at` every lane stored 1 << (t & 15): one of them */
static int half_ok(const uint8_t *m, uint32_t at)
{
    uint32_t h = m[at] | (uint32_t)m[at + 1] << 8;
    return h && !(h & (h - 1)) && h < 0x10000;
}

static unsigned check(const want *w, const uint8_t *m, const char *what)
{
    unsigned bad = 0, checked = 0;
    for (uint32_t i = 0; i < SHARED_AT + 64; i++) {
        uint32_t R = (i / REGION) * REGION;
        int half = i < SHARED_AT && (i - R == 136 || i - R == 137 || i - R == LDS_COPY + 1200 ||
                                     i - R == LDS_COPY + 1201);
        int ok;
        if (half)
            ok = half_ok(m, (i - R == 136 || i - R == 137) ? R + 136 : R + LDS_COPY + 1200);
        else if (w->is_set[i])
            ok = m[i] && !(m[i] & (m[i] - 1)) && (w->set8[i] >> __builtin_ctz(m[i]) & 1);
        else
            ok = m[i] == w->exact[i];
        checked++;
        if (!ok && bad++ < 8)
            print_message("%s: byte %u (group %u, +%u) = 0x%02x, want %s0x%02x\n", what, i, i / REGION,
                          i - R, m[i], w->is_set[i] ? "one of the set " : "", w->is_set[i] ? w->set8[i] : w->exact[i]);
    }
    if (bad)
        fail_msg("%s: %u of %u bytes wrong", what, bad, checked);
    return checked;
}

/* ---- the cases ----------------------------------------------------------------- */

static void subword_stores(wl_rt *rt, unsigned S, int with_wave_model)
{
    wl_rt_buffer *mem;
    assert_int_equal(wl_rt_buffer_create(rt, MEM_BYTES, &mem), WL_RT_OK);
    uint8_t *got = malloc(MEM_BYTES);
    want *w = malloc(sizeof *w);
    assert_true(got && w);
    unsigned runs = 0;
    unsigned cas_wave[2][2] = {{0}}; /* [W][merge]: OpAtomicCompareExchange in the wave model's module */
    for (unsigned wi = 0; wi < 2; wi++) {
        unsigned W = wi ? 32 : 64;
        char *text = program_text(W);
        model(w, W);
        for (int model_k = 0; model_k < 2; model_k++) {
            int md = model_k ? WL_MODEL_WAVE : WL_MODEL_LANES;
            if (md == WL_MODEL_WAVE && !with_wave_model)
                continue;
            if (md == WL_MODEL_LANES && S > W)
                continue;
            for (int merge = 0; merge < 2; merge++) {
                char what[128];
                if (md == WL_MODEL_WAVE)
                    snprintf(what, sizeof what, "W %u wave model%s", W, merge ? " merge forced" : " native");
                else
                    snprintf(what, sizeof what, "W %u lanes S %u k %u%s", W, S, W / S,
                             merge ? " merge forced" : " native");
                compiled c;
                translate(text, W, LDS_BYTES, md, S, merge, 0, &c);
                unsigned ncas = count_op(&c, 230 /* OpAtomicCompareExchange */);
                if (md == WL_MODEL_WAVE)
                    cas_wave[wi][merge] = ncas;
                assert_int_equal(wl_rt_buffer_fill(rt, mem, 0, MEM_BYTES, PATTERN), WL_RT_OK);
                run(rt, &c, md, S, mem, what);
                assert_int_equal(wl_rt_buffer_download(rt, mem, 0, got, MEM_BYTES), WL_RT_OK);
                unsigned n = check(w, got, what);
                printf("%s: %u bytes match, %u compare-exchanges in the module, %zu words\n", what, n, ncas, c.nw);
                runs++;
                free(c.words);
            }
        }
        free(text);
    }
    if (with_wave_model) {
        /* one swap loop a merged store: the same count at W 64 and 32 */
        printf("wave model compare-exchanges: W64 native %u merge %u, W32 native %u merge %u\n", cas_wave[0][0],
               cas_wave[0][1], cas_wave[1][0], cas_wave[1][1]);
        assert_int_equal(cas_wave[0][1], cas_wave[1][1]);
        assert_int_equal(cas_wave[0][0], cas_wave[1][0]);
        assert_true(cas_wave[0][1] > cas_wave[0][0]);
    }
    printf("sub-word stores: %u runs, %u match\n", runs, runs);
    free(got);
    free(w);
    wl_rt_buffer_destroy(rt, mem);
}

static void atomics64(wl_rt *rt, unsigned S, int with_wave_model)
{
    const wl_host_profile *hp = wl_rt_profile(rt);
    wl_rt_buffer *mem;
    assert_int_equal(wl_rt_buffer_create(rt, MEM_BYTES, &mem), WL_RT_OK);
    unsigned runs = 0;
    for (unsigned wi = 0; wi < 2; wi++) {
        unsigned W = wi ? 32 : 64;
        char *text = atomics_text(W);
        for (int model_k = 0; model_k < 2; model_k++) {
            int md = model_k ? WL_MODEL_WAVE : WL_MODEL_LANES;
            if ((md == WL_MODEL_WAVE && !with_wave_model) || (md == WL_MODEL_LANES && S > W))
                continue;
            for (int lock = 0; lock < 2; lock++) {
                char what[128];
                snprintf(what, sizeof what, "atomics64 W %u %s S %u %s", W, md == WL_MODEL_WAVE ? "wave" : "lanes",
                         S, lock ? "lock forced" : "native");
                if (!lock && !hp->shader_buffer_int64_atomics) {
                    printf("%s: skipped, the device has no shaderBufferInt64Atomics\n", what);
                    continue;
                }
                compiled c;
                translate(text, W, 0, md, S, 0, lock, &c);
                int needs64 = (c.info.features & WL_FEAT_INT64_ATOMICS) != 0;
                if (lock && needs64)
                    fail_msg("%s: the module still needs Int64Atomics", what);
                if (!lock && !needs64)
                    fail_msg("%s: the native module has no 64-bit atomic", what);
                assert_int_equal(wl_rt_buffer_fill(rt, mem, 0, MEM_BYTES, 0), WL_RT_OK);
                uint64_t init[4] = {0x1111222233334444ull, 5, 0xfedcba9876543210ull, 0};
                assert_int_equal(wl_rt_buffer_upload(rt, mem, Q_AT, init, sizeof init), WL_RT_OK);
                run(rt, &c, md, S, mem, what);
                uint64_t q[4];
                uint64_t *ret = malloc(8 * LOCAL * GROUPS);
                assert_non_null(ret);
                assert_int_equal(wl_rt_buffer_download(rt, mem, Q_AT, q, sizeof q), WL_RT_OK);
                assert_int_equal(wl_rt_buffer_download(rt, mem, RET_AT, ret, 8 * LOCAL * GROUPS), WL_RT_OK);
                uint64_t sum = init[0], mx = init[1], vsum = 0, rsum = 0;
                int swap_is_value = 0, cas_is_value = 0;
                for (uint32_t gid = 0; gid < LOCAL * GROUPS; gid++) {
                    uint64_t v = v64(gid);
                    sum += v;
                    mx = v > mx ? v : mx;
                    vsum += v;
                    rsum += ret[gid];
                    swap_is_value |= q[2] == v;
                    cas_is_value |= q[3] == v;
                }
                if (q[0] != sum)
                    fail_msg("%s: add: 0x%016llx, want 0x%016llx", what, (unsigned long long)q[0],
                             (unsigned long long)sum);
                if (q[1] != mx)
                    fail_msg("%s: umax: 0x%016llx, want 0x%016llx", what, (unsigned long long)q[1],
                             (unsigned long long)mx);
                /* swap: the final value one lane's; the old values returned plus the final
                 * one are the initial plus every lane's (each value went in once, came out once) */
                if (!swap_is_value || rsum + q[2] != init[2] + vsum)
                    fail_msg("%s: swap: final 0x%016llx (a lane's value: %d), returned values do not add up", what,
                             (unsigned long long)q[2], swap_is_value);
                if (!cas_is_value) /* compare 0 succeeds for the first lane only */
                    fail_msg("%s: cmpswap: 0x%016llx is no lane's value", what, (unsigned long long)q[3]);
                printf("%s: add, umax, swap (%u returns), cmpswap exact\n", what, LOCAL * GROUPS);
                free(ret);
                free(c.words);
                runs++;
            }
        }
        free(text);
    }
    printf("64-bit atomics: %u runs, %u match\n", runs, runs);
    wl_rt_buffer_destroy(rt, mem);
}

static void child(void **state)
{
    (void)state;
    setenv("VK_DRIVER_FILES", "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json", 0);
    wl_rt *rt = wlt_rt(TIMEOUT_MS);
    const wl_host_profile *hp = wl_rt_profile(rt);
    unsigned S = hp->subgroup_size;
    printf("child: %s, subgroup %u, storageBuffer8BitAccess %d, shaderBufferInt64Atomics %d\n", hp->device_name, S,
           hp->storage_buffer_8bit_access, hp->shader_buffer_int64_atomics);
    int with_wave = g_width == 256; /* the wave model needs no subgroup: once */
    subword_stores(rt, S, with_wave);
    atomics64(rt, S, with_wave);
    wl_rt_destroy(rt);
}

static void parent(void **state)
{
    (void)state;
    /* S = 8 (k = 8 and 4, and the wave model) by default: each child
     * compiles 16 modules; WL_SUBWORD_FULL=1 adds S = 4 and 16. */
    static const int widths[] = {256, 128, 512};
    size_t nw = getenv("WL_SUBWORD_FULL") ? 3 : 1;
    for (size_t i = 0; i < nw; i++) {
        char args[64];
        snprintf(args, sizeof args, "--child %d", widths[i]);
        int st = wlt_run_self_at_width(widths[i], args);
        if (st != 0)
            fail_msg("child at LP_NATIVE_VECTOR_WIDTH=%d failed (%d)", widths[i], st);
    }
}

int main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "--child")) {
        g_width = atoi(argv[2]);
        const struct CMUnitTest t[] = {cmocka_unit_test(child)};
        return cmocka_run_group_tests(t, NULL, NULL);
    }
    const struct CMUnitTest t[] = {cmocka_unit_test(parent)};
    return cmocka_run_group_tests(t, NULL, NULL);
}
