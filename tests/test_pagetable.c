/* The paged guest mapping (docs/memory.md "The paged mapping"; runtime/
 * pagetable.c, lower/memory/helpers/map.ll).
 *
 * 1. The builder on the CPU: several layouts (ranges far apart, one above
 *    2^40; a range across a 4 GiB boundary; adjacent ranges contiguous and
 *    not contiguous on the host; the last page below 2^48), every byte of
 *    windows around every range's edges and of holes, accesses of 1 to 64
 *    bytes: the table, read here as docs/memory.md lays it out, against a
 *    model computed from the range list alone (an access is inside when
 *    every byte is in a range and its bytes follow each other on the host).
 *    The refusals (overlap, alignment, 2^48, too many leaves) by name.
 * 2. lavapipe: hand-written gfx1030 wave64 programs (llvm-mc-19) translated
 *    with mapping_pages, lanes model at S = 8 and 16 (children at
 *    LP_NATIVE_VECTOR_WIDTH 256, 512) and the wave model (in the S = 8
 *    child); four ranges: R0 (one page below 2^32, its own buffer), R1 (3
 *    pages at 2^32, right after R0 in guest addresses but not on the host),
 *    R2 (2 pages at 0x7f00_0000_0000) and R3 (one page right after R2 and
 *    right after it on the host too); holes everywhere else. Loads of
 *    every width at misaligned addresses across a page boundary, dword,
 *    dwordx2 and dwordx4 stores across the contiguous seam R2/R3, halves
 *    across a page boundary, bytes, a scalar dwordx4 load across a page, a
 *    64-bit atomic add by every lane into a slot above 2^40; then loads and
 *    stores by one lane into a hole, an unmapped page of a used leaf, the
 *    end of R1 (straddling), the seams R0/R1 (refused) and R2/R3 (inside),
 *    and dwordx4 loads (a span) at those edges. After every run every byte
 *    of the three buffers is compared with a model of the mapping written
 *    here; escapes are checked by kind, address and lane; the first program
 *    runs again at the end (the device still usable). The S = 16 child
 *    forces the merged sub-word stores (D977).
 * 3. The cost in SPIR-V words per access, printed (docs/memory.md).
 * `wavelift run --pages` and its bundles: tests/test_pages_cli.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "ir/wave_ir.h" /* WL_ESC_* */
#include "wavelift/lift.h"
#include "wavelift/lower.h"
#include "wavelift/runtime.h"
#include "wavelift/translate.h"

#define LVP_ICD "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"
#define TIMEOUT_MS 300000u
#define PG 65536ull
#define TOP (1ull << 48)

/* ---- 1. the builder --------------------------------------------------- */

/* the model: the byte at guest address g (48 bits) maps to host h */
static int model_byte(const wl_rt_mapping *r, size_t n, uint64_t g, uint64_t *h)
{
    for (size_t i = 0; i < n; i++)
        if (g >= r[i].guest_base && g - r[i].guest_base < r[i].size) {
            *h = r[i].host_base + (g - r[i].guest_base);
            return 1;
        }
    return 0;
}

static int model_access(const wl_rt_mapping *r, size_t n, uint64_t a, unsigned len, uint64_t *host)
{
    uint64_t a48 = a & (TOP - 1), h0 = 0, h;
    for (unsigned i = 0; i < len; i++) {
        if (a48 + i >= TOP || !model_byte(r, n, a48 + i, &h))
            return 0;
        if (i == 0)
            h0 = h;
        else if (h != h0 + i)
            return 0;
    }
    *host = h0;
    return 1;
}

#define TABLE_AT 0x7000123400000ull /* the device address the CPU tables are built for */

/* the table as docs/memory.md lays it out, read back */
static int table_access(const uint8_t *t, uint64_t bytes, uint64_t a, unsigned len, uint64_t *host)
{
    uint64_t a48 = a & (TOP - 1), leaf;
    memcpy(&leaf, t + 8 * (a48 >> 32), 8);
    assert_true(leaf >= TABLE_AT + WL_RT_PT_ROOT_BYTES);
    uint64_t eo = leaf - TABLE_AT + 8 * ((a48 >> 16) & 0xffff), e;
    assert_true(eo + 8 <= bytes);
    memcpy(&e, t + eo, 8);
    uint64_t po = a48 & 0xffff, need = po + len - 1 > 0xffff ? 3 : 1;
    *host = (e & ~15ull) + po;
    return (e & need) == need;
}

static unsigned long long checks;

/* every byte of [from, to) at every access size: table against model */
static void compare_window(const uint8_t *t, uint64_t bytes, const wl_rt_mapping *r, size_t n, uint64_t from,
                           uint64_t to)
{
    static const unsigned lens[] = {1, 2, 3, 4, 8, 16, 64};
    for (uint64_t a = from; a < to; a++)
        for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
            uint64_t hm = 0, ht = 0;
            int im = model_access(r, n, a, lens[l], &hm), it = table_access(t, bytes, a, lens[l], &ht);
            checks++;
            if (im != it || (im && hm != ht))
                fail_msg("address 0x%llx, %u bytes: model %d 0x%llx, table %d 0x%llx", (unsigned long long)a, lens[l],
                         im, (unsigned long long)hm, it, (unsigned long long)ht);
        }
}

static void check_layout(const char *name, const wl_rt_mapping *r, size_t n, const uint64_t *holes, size_t nh)
{
    uint8_t *t = NULL;
    uint64_t bytes = 0;
    char err[512] = "";
    if (wl_rt_pagetable_build(r, n, 0, TABLE_AT, &t, &bytes, err, sizeof err) != WL_RT_OK)
        fail_msg("%s: %s", name, err);
    assert_int_equal(bytes, wl_rt_pagetable_bytes(r, n, 0, NULL, 0));
    unsigned long long before = checks;
    for (size_t i = 0; i < n; i++) {
        uint64_t s = r[i].guest_base, e = s + r[i].size;
        /* the edges: two pages' worth around each, a page's edge inside */
        compare_window(t, bytes, r, n, s >= 2 * PG ? s - 2 * PG : 0, s + PG + 128);
        compare_window(t, bytes, r, n, e - PG - 128, e + 2 * PG > TOP ? TOP : e + 2 * PG);
        /* and bits 63:48 set */
        compare_window(t, bytes, r, n, s | 0xffff000000000000ull, (s | 0xffff000000000000ull) + 256);
    }
    for (size_t i = 0; i < nh; i++)
        compare_window(t, bytes, r, n, holes[i], holes[i] + PG + 64);
    print_message("%s: %llu bytes of table, %llu accesses compared\n", name, (unsigned long long)bytes,
                  checks - before);
    free(t);
}

static void test_builder(void **state)
{
    (void)state;
    /* far apart, one above 2^40, one across a 4 GiB boundary, the last page */
    const wl_rt_mapping far[] = {{0x100000000ull, 3 * PG, 0x10000000ull},
                                 {0x7f0000000000ull, 2 * PG, 0x20000010ull},
                                 {0x2ffff0000ull, 2 * PG, 0x30000000ull},
                                 {TOP - PG, PG, 0x40000000ull}};
    const uint64_t far_holes[] = {0, 0x400000000000ull, 0x100000000ull + 5 * PG, 0x7f0000000000ull - 7 * PG};
    check_layout("far apart", far, 4, far_holes, 4);
    /* adjacent in guest addresses: contiguous on the host (B follows A),
     * and not (C follows B in guest addresses, elsewhere on the host) */
    const wl_rt_mapping adj[] = {{0x200000000ull, 2 * PG, 0x5000000ull},
                                 {0x200000000ull + 2 * PG, PG, 0x5000000ull + 2 * PG},
                                 {0x200000000ull + 3 * PG, PG, 0x9000000ull},
                                 {0x1ffff0000ull - PG, PG, 0x7000000ull}};
    check_layout("adjacent", adj, 4, NULL, 0);
    /* nothing mapped */
    check_layout("empty", NULL, 0, far_holes, 4);

    /* refusals, each by name */
    struct {
        wl_rt_mapping r[2];
        size_t n;
        uint32_t max_leaves;
        const char *says;
    } bad[] = {
        {{{0x100000000ull, 2 * PG, 0}, {0x100000000ull + PG, PG, 0x100000}}, 2, 0, "overlap"},
        {{{0x100000000ull + 16, PG, 0}}, 1, 0, "multiples of the 64 KiB page"},
        {{{0x100000000ull, PG + 4, 0}}, 1, 0, "multiples of the 64 KiB page"},
        {{{TOP - PG, 2 * PG, 0}}, 1, 0, "passes 2^48"},
        {{{0x100000000ull, PG, 8}}, 1, 0, "host_base must be a multiple of 16"},
        {{{0, PG, 0}, {0x700000000000ull, PG, 0}}, 2, 1, "max_leaves"},
        {{{0x100000000ull, 0, 0}}, 1, 0, "size 0"},
    };
    unsigned refused = 0;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint8_t *t = (uint8_t *)1;
        uint64_t bytes = 1;
        char err[512] = "";
        wl_rt_status st =
            wl_rt_pagetable_build(bad[i].r, bad[i].n, bad[i].max_leaves, TABLE_AT, &t, &bytes, err, sizeof err);
        if (st == WL_RT_ERR_USAGE && !t && !bytes && strstr(err, bad[i].says) &&
            !wl_rt_pagetable_bytes(bad[i].r, bad[i].n, bad[i].max_leaves, NULL, 0))
            refused++;
        else
            print_message("refusal %zu: status %d, message \"%s\", want \"%s\"\n", i, (int)st, err, bad[i].says);
    }
    print_message("%u of %zu bad layouts refused by name\n", refused, sizeof bad / sizeof bad[0]);
    assert_int_equal(refused, sizeof bad / sizeof bad[0]);
    uint32_t w[WL_RT_MAPPING_WORDS];
    assert_int_equal(wl_rt_pagetable_encode(0, w), WL_RT_ERR_USAGE);
    assert_int_equal(wl_rt_pagetable_encode(0x1008, w), WL_RT_ERR_USAGE);
    uint8_t *t = NULL;
    uint64_t bytes = 0;
    assert_int_equal(wl_rt_pagetable_build(far, 4, 0, 0x1008, &t, &bytes, NULL, 0), WL_RT_ERR_USAGE);
    assert_null(t);
    assert_true(checks > 10000000ull);
}

/* ---- 2. lavapipe ------------------------------------------------------- */

/* user SGPRs: s[0:1] IN, s[2:3] OUT, s[4:5] SUBW, s[6:7] ATOM, s[8:9] a
 * lane's other address, s10 that lane */
static const char P_RW[] =
    "v_and_b32 v1, 3, v0\n"
    "v_lshlrev_b32 v2, 2, v0\n"
    "v_add_nc_u32 v2, v2, v1\n" /* a = 4i + (i & 3) */
    "v_lshlrev_b32 v4, 3, v0\n"
    "v_add_nc_u32 v4, v4, v1\n" /* b = 8i + (i & 3) */
    "global_load_dword v3, v2, s[0:1]\n"
    "global_load_dwordx2 v[5:6], v4, s[0:1]\n"
    "global_load_ushort v7, v2, s[0:1] offset:1\n"
    "global_load_ubyte v8, v2, s[0:1] offset:2\n"
    "global_load_dwordx4 v[9:12], v4, s[0:1] offset:3\n"
    "s_load_dwordx4 s[12:15], s[0:1], 0x78\n"
    "s_waitcnt vmcnt(0) lgkmcnt(0)\n"
    "v_lshlrev_b32 v13, 6, v0\n"
    "global_store_dword v13, v3, s[2:3]\n"
    "global_store_dwordx2 v13, v[5:6], s[2:3] offset:4\n"
    "global_store_dword v13, v7, s[2:3] offset:12\n"
    "global_store_dword v13, v8, s[2:3] offset:16\n"
    "global_store_dwordx4 v13, v[9:12], s[2:3] offset:20\n"
    "v_mul_u32_u24 v15, 0x301, v0\n"
    "v_add_nc_u32 v15, 0x1122, v15\n"
    "v_lshlrev_b32 v14, 1, v0\n"
    "global_store_short v14, v15, s[4:5] offset:1\n"
    "global_store_byte v0, v15, s[4:5] offset:200\n"
    "v_mov_b32 v16, s12\n"
    "v_mov_b32 v17, s13\n"
    "v_mov_b32 v18, s14\n"
    "v_mov_b32 v19, s15\n"
    "v_mov_b32 v20, 0\n"
    "global_store_dwordx4 v20, v[16:19], s[4:5] offset:300\n"
    "v_mov_b32 v21, 1\n"
    "v_mov_b32 v22, 0\n"
    "v_lshlrev_b64 v[21:22], v0, v[21:22]\n"
    "global_atomic_add_x2 v[23:24], v20, v[21:22], s[6:7] glc\n"
    "s_waitcnt vmcnt(0)\n"
    "v_lshlrev_b32 v25, 3, v0\n"
    "global_store_dwordx2 v25, v[23:24], s[6:7] offset:16\n"
    "s_endpgm\n";

/* lane i's address: IN + 4i, lane s10's s[8:9] */
#define LANE_ADDR                                                                                                      \
    "v_lshlrev_b32 v1, 2, v0\n"                                                                                        \
    "v_mov_b32 v2, s1\n"                                                                                               \
    "v_add_co_u32 v1, vcc, s0, v1\n"                                                                                   \
    "v_add_co_ci_u32 v2, vcc, v2, 0, vcc\n"                                                                            \
    "v_mov_b32 v3, s8\n"                                                                                               \
    "v_mov_b32 v4, s9\n"                                                                                               \
    "v_cmp_eq_u32 vcc, s10, v0\n"                                                                                      \
    "v_cndmask_b32 v1, v1, v3, vcc\n"                                                                                  \
    "v_cndmask_b32 v2, v2, v4, vcc\n"

/* a dword load at the lane's address, stored to OUT + 4i */
static const char P_LD[] = LANE_ADDR "global_load_dword v5, v[1:2], off\n"
                                     "s_waitcnt vmcnt(0)\n"
                                     "v_lshlrev_b32 v6, 2, v0\n"
                                     "global_store_dword v6, v5, s[2:3]\n"
                                     "s_endpgm\n";
/* 0xc0de0000 + i stored at the lane's address */
static const char P_ST[] = LANE_ADDR "v_add_nc_u32 v5, 0xc0de0000, v0\n"
                                     "global_store_dword v[1:2], v5, off\n"
                                     "s_endpgm\n";
/* every lane: a dwordx4 load at s[8:9] (one span), stored to OUT + 16i */
static const char P_X4[] = "v_mov_b32 v1, 0\n"
                           "global_load_dwordx4 v[2:5], v1, s[8:9]\n"
                           "s_waitcnt vmcnt(0)\n"
                           "v_lshlrev_b32 v6, 4, v0\n"
                           "global_store_dwordx4 v6, v[2:5], s[2:3]\n"
                           "s_endpgm\n";

/* the layout: guest ranges and the buffers behind them */
#define R0 (0x100000000ull - PG) /* 1 page, buffer 2 */
#define R1 0x100000000ull        /* 3 pages, buffer 0 */
#define R2 0x7f0000000000ull     /* 2 pages, buffer 1 [0, 2 PG) */
#define R3 (R2 + 2 * PG)         /* 1 page, buffer 1 [2 PG, 3 PG) */
#define NBUF 3
static const uint64_t buf_bytes[NBUF] = {3 * PG, 3 * PG, PG};

typedef struct gpu {
    wl_rt *rt;
    wl_rt_buffer *buf[NBUF], *table;
    wl_rt_mapping ranges[4];
    uint32_t mapw[WL_RT_MAPPING_WORDS];
    uint8_t *model[NBUF], *got[NBUF];
} gpu;

/* the model's byte at guest address g: NULL when not mapped */
static uint8_t *mbyte(gpu *G, uint64_t g)
{
    static const int which[4] = {2, 0, 1, 1};
    static const uint64_t at[4] = {0, 0, 0, 2 * PG};
    for (int i = 0; i < 4; i++)
        if (g >= G->ranges[i].guest_base && g - G->ranges[i].guest_base < G->ranges[i].size)
            return G->model[which[i]] + at[i] + (g - G->ranges[i].guest_base);
    return NULL;
}

/* inside: every byte mapped and following on the host */
static int m_in(gpu *G, uint64_t a, unsigned n)
{
    uint8_t *p0 = mbyte(G, a & (TOP - 1));
    for (unsigned i = 0; i < n; i++)
        if (!p0 || mbyte(G, (a & (TOP - 1)) + i) != p0 + i)
            return 0;
    return 1;
}

static uint64_t m_load(gpu *G, uint64_t a, unsigned n)
{
    uint64_t v = 0;
    if (!m_in(G, a, n))
        return 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)*mbyte(G, (a & (TOP - 1)) + i) << (8 * i);
    return v;
}

static void m_store(gpu *G, uint64_t a, unsigned n, uint64_t v)
{
    if (!m_in(G, a, n))
        return;
    for (unsigned i = 0; i < n; i++)
        *mbyte(G, (a & (TOP - 1)) + i) = (uint8_t)(v >> (8 * i));
}

static uint8_t init_byte(int b, uint64_t k)
{
    return (uint8_t)(k * 7u + 3u + (k >> 8) * 13u + (unsigned)b * 101u);
}

static unsigned child_S;
static int child_wave;

static void compile(const char *text, int wave_model, uint32_t **words, size_t *nw, wl_translate_info *info)
{
    size_t size = 0;
    uint8_t *code = wlt_assemble(text, "gfx1030", 64, &size, NULL);
    assert_non_null(code);
    wl_lift_program p;
    wlt_program64(&p, code, size, 11);
    wl_translate_options o;
    wlt_options64(&o, wave_model ? WL_MODEL_WAVE : WL_MODEL_LANES, child_S);
    o.mapping_pages = getenv("WLT_NO_PAGES") ? 0 : 1;
    o.force_merge_stores = child_S == 16;
    char err[1024] = "";
    wl_status st = wl_translate(&p, &o, words, nw, info, err, sizeof err);
    free(code);
    if (st != WL_OK)
        fail_msg("translate (%s, S = %u): %s", wave_model ? "wave" : "lanes", child_S, err);
}

typedef struct prog {
    const char *name, *text;
    uint32_t *words;
    size_t nw;
    wl_rt_pipeline *pipe;
    wl_translate_info info; /* its device segment (the wave model's lane arrays) */
} prog;

static void prog_make(gpu *G, prog *P, int wave_model)
{
    compile(P->text, wave_model, &P->words, &P->nw, &P->info);
    wl_rt_pipeline_desc pd = {.words = P->words, .nwords = P->nw, .subgroup_size = wave_model ? 0 : child_S,
                              .require_full_subgroups = !wave_model};
    if (wl_rt_pipeline_create(G->rt, &pd, &P->pipe) != WL_RT_OK)
        fail_msg("%s: pipeline: %s", P->name, wl_rt_error(G->rt));
}

/* fills the buffers and the model with the initial bytes */
static void reset(gpu *G)
{
    for (int b = 0; b < NBUF; b++) {
        for (uint64_t k = 0; k < buf_bytes[b]; k++)
            G->model[b][k] = init_byte(b, k);
        assert_int_equal(wl_rt_buffer_upload(G->rt, G->buf[b], 0, G->model[b], buf_bytes[b]), WL_RT_OK);
    }
}

static unsigned long long bytes_checked, bytes_match;

/* one group of 64 lanes; then every byte against the model */
static wl_rt_status run(gpu *G, prog *P, const uint64_t s[5], uint32_t lane, wl_rt_escape *esc)
{
    wl_rt_buffer *status = NULL;
    assert_int_equal(wl_rt_buffer_create(G->rt, WL_RT_STATUS_BYTES, &status), WL_RT_OK);
    uint8_t push[WL_PUSH_BYTES];
    memset(push, 0, sizeof push);
    memcpy(push, s, 5 * 8);
    memcpy(push + 40, &lane, 4);
    memcpy(push + WL_PUSH_MAP_OFFSET, G->mapw, sizeof G->mapw);
    wl_rt_buffer *seg = NULL;
    if (wlt_segment(G->rt, &P->info, 1, push, &seg))
        fail_msg("%s: device segment: %s", P->name, wl_rt_error(G->rt));
    wl_rt_dispatch_desc d = {.groups = {1, 1, 1}, .push_constants = push, .push_constant_size = sizeof push,
                             .runs = 1};
    d.bindings[WL_RT_BINDING_STATUS] = status;
    if (wl_rt_dispatch(G->rt, P->pipe, &d, NULL) != WL_RT_OK)
        fail_msg("%s: dispatch: %s", P->name, wl_rt_error(G->rt));
    if (seg)
        wl_rt_buffer_destroy(G->rt, seg);
    memset(esc, 0, sizeof *esc);
    wl_rt_status st = wl_rt_escape_check(G->rt, status, esc);
    wl_rt_buffer_destroy(G->rt, status);
    for (int b = 0; b < NBUF; b++)
        assert_int_equal(wl_rt_buffer_download(G->rt, G->buf[b], 0, G->got[b], buf_bytes[b]), WL_RT_OK);
    return st;
}

static void compare(gpu *G, const char *what)
{
    unsigned shown = 0;
    for (int b = 0; b < NBUF; b++)
        for (uint64_t k = 0; k < buf_bytes[b]; k++) {
            bytes_checked++;
            if (G->got[b][k] == G->model[b][k])
                bytes_match++;
            else if (shown++ < 8)
                print_message("%s: buffer %d byte 0x%llx: 0x%02x, want 0x%02x\n", what, b, (unsigned long long)k,
                              G->got[b][k], G->model[b][k]);
        }
}

static unsigned escapes_checked, escapes_match;

static void expect_escape(gpu *G, const char *what, wl_rt_status st, const wl_rt_escape *e, int want, uint64_t addr,
                          uint32_t lane)
{
    escapes_checked++;
    int ok = want ? st == WL_RT_ERR_ESCAPE && e->kind == WL_ESC_ADDRESS && e->address == addr && e->lane == lane
                  : st == WL_RT_OK;
    if (ok)
        escapes_match++;
    else
        print_message("%s: want %s (0x%llx lane %u), got status %d kind %u address 0x%llx lane %u: %s\n", what,
                      want ? "an address escape" : "no escape", (unsigned long long)addr, lane, (int)st, e->kind,
                      (unsigned long long)e->address, e->lane, wl_rt_error(G->rt));
}

#define IN (R1 + PG - 128)          /* loads across R1's first page boundary */
#define OUT (R3 - 2048 - 8)         /* 64 bytes a lane across the seam R2/R3 */
#define SUBW (R1 + 2 * PG - 64)     /* lane 31's half straddles R1's second boundary */
#define ATOM (R2 + 8)               /* above 2^40 */
#define ATOM_INIT 0x0123456789abcdefull

static void run_rw(gpu *G, prog *P, const char *what)
{
    reset(G);
    uint64_t a0 = m_load(G, ATOM, 8);
    (void)a0;
    m_store(G, ATOM, 8, ATOM_INIT);
    assert_int_equal(wl_rt_buffer_upload(G->rt, G->buf[1], 0, G->model[1], buf_bytes[1]), WL_RT_OK);
    const uint64_t s[5] = {IN, OUT, SUBW, ATOM, 0};
    wl_rt_escape e;
    wl_rt_status st = run(G, P, s, 99, &e);
    expect_escape(G, what, st, &e, 0, 0, 0);
    /* the model: loads first (nothing stored overlaps what is read) */
    uint32_t w[64][9];
    for (uint32_t i = 0; i < 64; i++) {
        uint64_t a = IN + 4 * i + (i & 3), b = IN + 8 * i + (i & 3);
        uint64_t x2 = m_load(G, b, 8);
        w[i][0] = (uint32_t)m_load(G, a, 4);
        w[i][1] = (uint32_t)x2;
        w[i][2] = (uint32_t)(x2 >> 32);
        w[i][3] = (uint32_t)m_load(G, a + 1, 2);
        w[i][4] = (uint32_t)m_load(G, a + 2, 1);
        for (int q = 0; q < 4; q++)
            w[i][5 + q] = (uint32_t)m_load(G, b + 3 + 4 * q, 4);
    }
    uint32_t sc[4];
    for (int q = 0; q < 4; q++)
        sc[q] = (uint32_t)m_load(G, IN + 0x78 + 4 * q, 4);
    for (uint32_t i = 0; i < 64; i++) {
        for (int q = 0; q < 9; q++)
            m_store(G, OUT + 64 * i + 4 * q, 4, w[i][q]);
        uint32_t v15 = 0x301 * i + 0x1122;
        m_store(G, SUBW + 2 * i + 1, 2, v15 & 0xffff);
        m_store(G, SUBW + 200 + i, 1, v15 & 0xff);
    }
    for (int q = 0; q < 4; q++)
        m_store(G, SUBW + 300 + 4 * q, 4, sc[q]);
    /* the atomic: the sum exact; the returned values a chain (sorted, each
     * the one before plus its lane's 1 << lane), then into the model */
    uint64_t ret[64], fin;
    unsigned chain = 0;
    uint8_t *gb = G->got[1];
    memcpy(&fin, gb + (ATOM - R2), 8);
    for (uint32_t i = 0; i < 64; i++)
        memcpy(&ret[i], gb + (ATOM - R2) + 16 + 8 * i, 8);
    uint64_t cur = ATOM_INIT;
    for (int step = 0; step < 64; step++) {
        int found = -1;
        for (int i = 0; i < 64; i++)
            if (ret[i] == cur)
                found = i;
        if (found < 0)
            break;
        cur += 1ull << found;
        chain++;
    }
    if (chain != 64 || fin != ATOM_INIT - 1)
        print_message("%s: atomic: final 0x%llx (want 0x%llx), chain of %u returns\n", what, (unsigned long long)fin,
                      (unsigned long long)(ATOM_INIT - 1), chain);
    escapes_checked++;
    escapes_match += chain == 64 && fin == ATOM_INIT - 1;
    m_store(G, ATOM, 8, ATOM_INIT - 1);
    for (uint32_t i = 0; i < 64; i++)
        m_store(G, ATOM + 16 + 8 * i, 8, ret[i]);
    compare(G, what);
}

/* P_LD, P_ST, P_X4 with one lane (or all, P_X4) at address x */
static void run_one(gpu *G, prog *P, int kind, uint64_t x, uint32_t lane, const char *what)
{
    reset(G);
    const uint64_t s[5] = {R2 + 64, R1 + 512, 0, 0, x};
    wl_rt_escape e;
    wl_rt_status st = run(G, P, s, lane, &e);
    int bad = 0;
    if (kind == 0) { /* dword loads */
        bad = !m_in(G, x, 4);
        uint32_t v[64];
        for (uint32_t i = 0; i < 64; i++)
            v[i] = (uint32_t)m_load(G, i == lane ? x : R2 + 64 + 4 * i, 4);
        for (uint32_t i = 0; i < 64; i++)
            m_store(G, R1 + 512 + 4 * i, 4, v[i]);
    } else if (kind == 1) { /* dword stores */
        bad = !m_in(G, x, 4);
        for (uint32_t i = 0; i < 64; i++)
            m_store(G, i == lane ? x : R2 + 64 + 4 * i, 4, 0xc0de0000u + i);
    } else { /* dwordx4 by every lane at x: one span, checked as 16 bytes */
        bad = !m_in(G, x, 16);
        uint32_t v[4];
        for (int q = 0; q < 4; q++)
            v[q] = bad ? 0 : (uint32_t)m_load(G, x + 4 * q, 4);
        for (uint32_t i = 0; i < 64; i++)
            for (int q = 0; q < 4; q++)
                m_store(G, R1 + 512 + 16 * i + 4 * q, 4, v[q]);
    }
    /* the lane the escape names: P_X4's is the first active lane noting it */
    expect_escape(G, what, st, &e, bad, x, kind == 2 ? e.lane : lane);
    compare(G, what);
}

static void test_gpu(void **state)
{
    (void)state;
    gpu G;
    memset(&G, 0, sizeof G);
    G.rt = wlt_rt(TIMEOUT_MS);
    for (int b = 0; b < NBUF; b++) {
        assert_int_equal(wl_rt_buffer_create(G.rt, buf_bytes[b], &G.buf[b]), WL_RT_OK);
        G.model[b] = malloc(buf_bytes[b]);
        G.got[b] = malloc(buf_bytes[b]);
        assert_non_null(G.model[b]);
        assert_non_null(G.got[b]);
    }
    uint64_t h0 = wl_rt_buffer_address(G.buf[0]), h1 = wl_rt_buffer_address(G.buf[1]),
             h2 = wl_rt_buffer_address(G.buf[2]);
    const wl_rt_mapping r[4] = {{R0, PG, h2}, {R1, 3 * PG, h0}, {R2, 2 * PG, h1}, {R3, PG, h1 + 2 * PG}};
    memcpy(G.ranges, r, sizeof r);
    if (wl_rt_pagetable_create(G.rt, r, 4, 0, &G.table, G.mapw) != WL_RT_OK)
        fail_msg("page table: %s", wl_rt_error(G.rt));
    /* R0 and R1 must not follow each other on the host for the seam case */
    assert_true(h2 + PG != h0);
    const char *model = child_wave ? "wave" : "lanes";
    prog P[4] = {{.name = "rw", .text = P_RW}, {.name = "ld", .text = P_LD}, {.name = "st", .text = P_ST},
                 {.name = "x4", .text = P_X4}};
    for (int i = 0; i < 4; i++)
        prog_make(&G, &P[i], child_wave);
    char what[128];
    snprintf(what, sizeof what, "%s S=%u rw", model, child_S);
    run_rw(&G, &P[0], what);
    const struct {
        uint64_t x;
        const char *name;
    } edge[] = {
        {0x400000000000ull + 0x1234, "hole (empty leaf)"},
        {R1 + 4 * PG + 8, "unmapped page of a used leaf"},
        {R1 + 3 * PG - 2, "straddling R1's end"},
        {R1 - 2, "straddling the seam R0/R1 (not contiguous on the host)"},
        {R3 - 2, "straddling the seam R2/R3 (contiguous)"},
        {R1 + PG - 2, "straddling a page inside R1"},
        {0xabcd000000000000ull | (R2 + 100), "bits 63:48 set, inside R2"},
    };
    const int kinds[3] = {0, 1, 2};
    for (int k = 0; k < 3; k++)
        for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
            uint64_t x = kinds[k] == 2 ? edge[i].x - 6 : edge[i].x; /* dwordx4: 16 bytes around the same edge */
            if (kinds[k] == 1 && m_in(&G, x, 4))
                x &= ~3ull; /* a dword store inside: aligned (the helpers store a dword where it is 4-aligned) */
            snprintf(what, sizeof what, "%s S=%u %s %s", model, child_S, P[1 + k].name, edge[i].name);
            run_one(&G, &P[1 + k], kinds[k], x, 5 + 2 * (uint32_t)i, what);
        }
    snprintf(what, sizeof what, "%s S=%u rw again", model, child_S);
    run_rw(&G, &P[0], what);
    print_message("%s model, S = %u: %llu bytes compared, %llu match; %u escape and atomic checks, %u match\n", model,
                  child_S, bytes_checked, bytes_match, escapes_checked, escapes_match);
    assert_true(bytes_checked > 20 * 7 * PG);
    assert_true(bytes_match == bytes_checked);
    assert_int_equal(escapes_match, escapes_checked);
    assert_int_equal(escapes_checked, 2 * 2 + 3 * 7);
    for (int i = 0; i < 4; i++) {
        wl_rt_pipeline_destroy(G.rt, P[i].pipe);
        free(P[i].words);
    }
    for (int b = 0; b < NBUF; b++) {
        free(G.model[b]);
        free(G.got[b]);
    }
    wl_rt_destroy(G.rt);
}

/* ---- 3. the cost: SPIR-V words per access ------------------------------
 * n dword loads from n different addresses (no span: lane << j), summed
 * and stored once; (words(8) - words(4)) / 4 is what one more access
 * costs, contiguous and paged, at S = 32 (k = 2) and S = 8 (k = 8), -O2.
 * Printed for docs/memory.md; no expectation but that paging costs more. */
static size_t words_of(unsigned n, unsigned S, int pages, int wave_model)
{
    char text[4096] = "v_mov_b32 v30, 0\n";
    for (unsigned j = 1; j <= n; j++) {
        char l[256];
        snprintf(l, sizeof l,
                 "v_lshlrev_b32 v%u, %u, v0\nglobal_load_dword v%u, v%u, s[0:1]\ns_waitcnt vmcnt(0)\n"
                 "v_add_nc_u32 v30, v30, v%u\n",
                 10 + j, j, 20 + j, 10 + j, 20 + j);
        strcat(text, l);
    }
    strcat(text, "v_lshlrev_b32 v31, 2, v0\nglobal_store_dword v31, v30, s[2:3]\ns_endpgm\n");
    size_t size = 0;
    uint8_t *code = wlt_assemble(text, "gfx1030", 64, &size, NULL);
    assert_non_null(code);
    wl_lift_program p;
    wlt_program64(&p, code, size, 4);
    wl_translate_options o;
    wlt_options64(&o, wave_model ? WL_MODEL_WAVE : WL_MODEL_LANES, S);
    o.mapping_pages = pages;
    uint32_t *w = NULL;
    size_t nw = 0;
    char err[1024] = "";
    if (wl_translate(&p, &o, &w, &nw, NULL, err, sizeof err) != WL_OK)
        fail_msg("translate: %s", err);
    const char *dump = getenv("WLT_PAGETABLE_DUMP"); /* a directory: the modules, for spirv-dis */
    if (dump) {
        char path[512];
        snprintf(path, sizeof path, "%s/cost_n%u_s%u_p%d_w%d.spv", dump, n, S, pages, wave_model);
        FILE *f = fopen(path, "wb");
        if (f) {
            fwrite(w, 4, nw, f);
            fclose(f);
        }
    }
    free(code);
    free(w);
    return nw;
}

static void test_cost(void **state)
{
    (void)state;
    static const struct {
        unsigned S;
        int wave;
    } cfg[] = {{32, 0}, {8, 0}, {64, 1}};
    for (size_t i = 0; i < sizeof cfg / sizeof cfg[0]; i++) {
        double per[2];
        for (int pages = 0; pages < 2; pages++) {
            size_t w4 = words_of(4, cfg[i].S, pages, cfg[i].wave), w8 = words_of(8, cfg[i].S, pages, cfg[i].wave);
            per[pages] = ((double)w8 - (double)w4) / 4;
        }
        print_message("%s model, S = %u: one more dword load costs %.1f words contiguous, %.1f paged\n",
                      cfg[i].wave ? "wave" : "lanes", cfg[i].S, per[0], per[1]);
        assert_true(per[1] > per[0]);
    }
}

/* the parent: children at S = 8 (lanes, wave) and S = 16 (lanes) */
static void test_children(void **state)
{
    (void)state;
    static const struct {
        int width;
        const char *args;
    } runs[] = {{256, "--child 8 0"}, {512, "--child 16 0"}, {256, "--child 8 1"}};
    unsigned passed = 0;
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        int st = wlt_run_self_at_width(runs[i].width, runs[i].args);
        if (st == 0)
            passed++;
        else
            print_message("child %s: exit %d\n", runs[i].args, st);
    }
    print_message("%u of 3 configurations pass\n", passed);
    assert_int_equal(passed, 3);
}

int main(int argc, char **argv)
{
    setenv("VK_ICD_FILENAMES", LVP_ICD, 1);
    if (argc >= 4 && !strcmp(argv[1], "--child")) {
        child_S = (unsigned)atoi(argv[2]);
        child_wave = atoi(argv[3]);
        if (!getenv("GALLIVM_PERF"))
            setenv("GALLIVM_PERF", "no_opt", 1); /* correctness only: short lavapipe compiles */
        const struct CMUnitTest tests[] = {cmocka_unit_test(test_gpu)};
        return cmocka_run_group_tests(tests, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_builder), cmocka_unit_test(test_cost),
                                       cmocka_unit_test(test_children)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
