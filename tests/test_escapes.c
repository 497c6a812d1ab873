/* Escapes (D950), the loop budget (D949) and the guest mapping (D961/D964):
 * docs/escapes.md, docs/memory.md.
 *
 * Guest programs that never end or reach outside their memory must end
 * within their budget with the escape named, and leave the device usable:
 *   - capi: hand-written gfx1030 assembly (llvm-mc-19 assembles it) lifted,
 *     translated in both models (lanes at lavapipe's subgroup size, wave)
 *     and run through the runtime: a uniform loop (its counter stored each
 *     iteration, so the number of backward edges taken is checked exactly),
 *     a loop whose exit waits for EXEC to become 0 while lane 0 alone
 *     leaves, a spin on an LDS flag nobody sets; each followed by a normal
 *     dispatch on the same device whose output is checked against the
 *     ISA's arithmetic. An access outside the mapping: its load reads 0,
 *     its store is dropped (the host bytes just past the mapping keep their
 *     pattern), the escape names the address, and an address with bits
 *     63:48 set reaches the same memory as without.
 *   - cli: OpenCL kernels (tests/kernels/escapes.cl, clang-19) run by
 *     `wavelift run`: exit 3 and the kind named for each spin (the uniform
 *     one at the default budget, timed) and for an access outside the
 *     arena, then a normal kernel's output compared with C. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "support.h"
#include "ir/wave_ir.h" /* WL_ESC_* */
#include "wavelift/lift.h"
#include "wavelift/runtime.h"
#include "wavelift/translate.h"

#define LVP_ICD "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"
#define GUEST 0x700000000000ull /* the mapping's guest base */
#define MAPPED 4096u            /* bytes mapped; the host buffer is twice that */
#define PATTERN 0xa5a5a5a5u     /* the unmapped half */
#define TIMEOUT_MS 120000u

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ---- the programs (wave64; s[0:1] the output, s[2:3] a second address) -- */

typedef struct program {
    const char *name;
    const char *text;
    uint32_t loop_offset; /* the loop header's byte offset: the escape's guest offset */
    uint32_t lds;
} program;

static const program P_UNIFORM = {"uniform",
                                  "s_mov_b32 s4, 0\n"
                                  "v_mov_b32 v1, 0\n"
                                  "loop:\n"
                                  "s_add_u32 s4, s4, 1\n"
                                  "v_mov_b32 v3, s4\n"
                                  "global_store_dword v1, v3, s[0:1]\n"
                                  "s_cmp_eq_u32 s4, 0\n"
                                  "s_cbranch_scc0 loop\n"
                                  "s_endpgm\n",
                                  8, 0};
/* lane 0 leaves at once, the others never: EXEC never becomes 0 */
static const program P_DIVERGENT = {"divergent",
                                    "v_mov_b32 v1, 0\n"
                                    "loop:\n"
                                    "v_add_nc_u32 v1, 1, v1\n"
                                    "v_cmp_ne_u32 vcc, 0, v0\n"
                                    "s_and_b64 exec, exec, vcc\n"
                                    "s_cbranch_execnz loop\n"
                                    "s_endpgm\n",
                                    4, 0};
static const program P_LDS = {"lds-flag",
                              "v_mov_b32 v1, 0\n"
                              "ds_write_b32 v1, v1\n"
                              "s_waitcnt lgkmcnt(0)\n"
                              "loop:\n"
                              "ds_read_b32 v2, v1\n"
                              "s_waitcnt lgkmcnt(0)\n"
                              "v_cmp_eq_u32 vcc, 0, v2\n"
                              "s_and_b64 vcc, exec, vcc\n"
                              "s_cbranch_vccnz loop\n"
                              "s_endpgm\n",
                              16, 256};
/* out[i] = 3 i + 5 */
static const program P_NORMAL = {"normal",
                                 "v_lshlrev_b32 v1, 2, v0\n"
                                 "v_mul_lo_u32 v2, v0, 3\n"
                                 "v_add_nc_u32 v2, 5, v2\n"
                                 "global_store_dword v1, v2, s[0:1]\n"
                                 "s_endpgm\n",
                                 0, 0};
/* out[i] = *s[2:3] + 7 (reach's and order's first six instructions) */
#define LOAD_PLUS_7                                                                                              \
    "v_mov_b32 v1, 0\n"                                                                                           \
    "global_load_dword v2, v1, s[2:3]\n"                                                                          \
    "s_waitcnt vmcnt(0)\n"                                                                                        \
    "v_lshlrev_b32 v3, 2, v0\n"                                                                                   \
    "v_add_nc_u32 v2, 7, v2\n"                                                                                    \
    "global_store_dword v3, v2, s[0:1]\n"
/* out[i] = *s[2:3] + 7; *s[2:3] = 99 */
static const program P_REACH = {"reach",
                                LOAD_PLUS_7
                                "v_mov_b32 v4, 99\n"
                                "global_store_dword v1, v4, s[2:3]\n"
                                "s_endpgm\n",
                                0, 0};

typedef struct compiled {
    uint32_t *words;
    size_t nw;
    wl_translate_info info;
} compiled;

/* helper_calls: the debug option's helper-calls=N (helpers kept as functions) */
static void translate_hc(const program *pr, int model, unsigned S, uint32_t budget, unsigned helper_calls,
                         compiled *c)
{
    size_t size = 0;
    uint8_t *code = wlt_assemble(pr->text, "gfx1030", 64, &size, NULL);
    assert_non_null(code);
    assert_true(size >= 4 && size % 4 == 0);
    wl_lift_program p;
    wlt_program64(&p, code, size, 4);
    p.lds_bytes = pr->lds;
    wl_translate_options o;
    wlt_options64(&o, model, S);
    o.loop_budget = budget;
    char knob[32];
    snprintf(knob, sizeof knob, "helper-calls=%u", helper_calls); /* the debug option's knob */
    o.passes = helper_calls ? knob : NULL;
    char err[1024] = "";
    memset(c, 0, sizeof *c);
    wl_status st = wl_translate(&p, &o, &c->words, &c->nw, &c->info, err, sizeof err);
    free(code);
    if (st != WL_OK)
        fail_msg("%s: translate: %s", pr->name, err);
}

static void translate(const program *pr, int model, unsigned S, uint32_t budget, compiled *c)
{
    translate_hc(pr, model, S, budget, 0, c);
}

typedef struct result {
    wl_rt_status st;
    wl_rt_escape esc;
    char msg[1024];
    double ms;
} result;

/* Runs one group of 64 work-items with the mapping {GUEST, MAPPED} on mem
 * (2 * MAPPED bytes); s[0:1] = out (guest), s[2:3] = second; push_budget
 * at WL_PUSH_LOOP_BUDGET_OFFSET. */
static void dispatch(wl_rt *rt, const compiled *c, int model, unsigned S, wl_rt_buffer *mem, uint64_t out,
                     uint64_t second, uint32_t push_budget, result *r)
{
    wl_rt_buffer *status = NULL, *lds = NULL;
    wl_rt_pipeline *pipe = NULL;
    memset(r, 0, sizeof *r);
    assert_int_equal(wl_rt_buffer_create(rt, WL_RT_STATUS_BYTES, &status), WL_RT_OK);
    if (c->info.bindings & (1u << WL_RT_BINDING_LDS))
        assert_int_equal(wl_rt_buffer_create(rt, 4096, &lds), WL_RT_OK);
    pipe = wlt_pipeline(rt, c->words, c->nw, model == WL_MODEL_WAVE ? 0 : S);
    uint8_t push[WL_PUSH_BYTES];
    wlt_push_mapped(push, out, second, GUEST, MAPPED, mem);
    memcpy(push + WL_PUSH_LOOP_BUDGET_OFFSET, &push_budget, 4);
    wl_rt_buffer *seg = NULL;
    if (wlt_segment(rt, &c->info, 1, push, &seg))
        fail_msg("device segment: %s", wl_rt_error(rt));
    wl_rt_dispatch_desc d = {.groups = {1, 1, 1}, .push_constants = push, .push_constant_size = sizeof push,
                             .runs = 1};
    d.bindings[WL_RT_BINDING_STATUS] = status;
    d.bindings[WL_RT_BINDING_LDS] = lds;
    double t0 = now_ms();
    if (wl_rt_dispatch(rt, pipe, &d, NULL) != WL_RT_OK)
        fail_msg("dispatch: %s", wl_rt_error(rt));
    r->ms = now_ms() - t0;
    r->st = wl_rt_escape_check(rt, status, &r->esc);
    snprintf(r->msg, sizeof r->msg, "%s", wl_rt_error(rt));
    wl_rt_pipeline_destroy(rt, pipe);
    wl_rt_buffer_destroy(rt, status);
    if (seg)
        wl_rt_buffer_destroy(rt, seg);
    if (lds)
        wl_rt_buffer_destroy(rt, lds);
}

/* the device, its default subgroup size and the guest's memory (2 MAPPED
 * bytes: the mapping and the unmapped host words after it) */
static wl_rt *make_rt(unsigned *S, wl_rt_buffer **mem)
{
    wl_rt *rt = wlt_rt(TIMEOUT_MS);
    *S = wl_rt_profile(rt)->subgroup_size;
    assert_int_equal(wl_rt_buffer_create(rt, 2 * MAPPED, mem), WL_RT_OK);
    return rt;
}

static void fill_pattern(wl_rt *rt, wl_rt_buffer *mem)
{
    assert_int_equal(wl_rt_buffer_fill(rt, mem, 0, MAPPED, 0), WL_RT_OK);
    assert_int_equal(wl_rt_buffer_fill(rt, mem, MAPPED, MAPPED, PATTERN), WL_RT_OK);
}

/* the normal program on the same device: out[i] = 3 i + 5 */
static void check_normal(wl_rt *rt, const compiled *normal, int model, unsigned S, wl_rt_buffer *mem)
{
    fill_pattern(rt, mem);
    result r;
    dispatch(rt, normal, model, S, mem, GUEST, GUEST, 0, &r);
    if (r.st != WL_RT_OK)
        fail_msg("normal dispatch after an escape: %s", r.msg);
    uint32_t got[64];
    assert_int_equal(wl_rt_buffer_download(rt, mem, 0, got, sizeof got), WL_RT_OK);
    for (uint32_t i = 0; i < 64; i++)
        if (got[i] != 3 * i + 5)
            fail_msg("normal dispatch after an escape: out[%u] = %u, want %u", i, got[i], 3 * i + 5);
}

/* every lane's out[i] = 7: its load outside the mapping read 0 */
static void check_sevens(wl_rt *rt, wl_rt_buffer *mem, const char *what)
{
    uint32_t got[64];
    assert_int_equal(wl_rt_buffer_download(rt, mem, 0, got, sizeof got), WL_RT_OK);
    for (uint32_t i = 0; i < 64; i++)
        if (got[i] != 7)
            fail_msg("%s: out[%u] = 0x%x, want 7 (the load outside reads 0)", what, i, got[i]);
}

/* OpFunctionCall instructions in a module */
static unsigned function_calls(const compiled *c)
{
    unsigned n = 0;
    for (size_t i = 5; i < c->nw;) {
        uint32_t wc = c->words[i] >> 16;
        if ((c->words[i] & 0xffffu) == 57)
            n++;
        i += wc ? wc : 1;
    }
    return n;
}

/* Only lane `lane` loads outside the mapping (at second + MAPPED + 8):
 * the escape names that lane and bits 47:0 of its address (the bits the
 * hardware uses), every lane's load reads 0 there or in the zeroed
 * mapping, so out[i] = 7. For the lanes, the first and last lane of the
 * wave and lanes in other lane clones (k > 1) than the first; with
 * helper_calls 2 the global helpers stay functions (their notes kept
 * apart: memory.c, bad_note.c). */
static unsigned check_lane_reach(wl_rt *rt, int model, unsigned S, unsigned helper_calls, wl_rt_buffer *mem)
{
    static const unsigned lanes[] = {0, 5, 37, 63};
    const char *mname = model == WL_MODEL_WAVE ? "wave" : "lanes";
    unsigned checked = 0;
    for (size_t li = 0; li < sizeof lanes / sizeof lanes[0]; li++) {
        char text[512];
        snprintf(text, sizeof text,
                 "v_mov_b32 v5, %u\n"
                 "v_cmp_eq_u32 vcc, %u, v0\n"
                 "v_cndmask_b32 v1, 0, v5, vcc\n"
                 "global_load_dword v2, v1, s[2:3]\n"
                 "s_waitcnt vmcnt(0)\n"
                 "v_lshlrev_b32 v3, 2, v0\n"
                 "v_add_nc_u32 v2, 7, v2\n"
                 "global_store_dword v3, v2, s[0:1]\n"
                 "s_endpgm\n",
                 MAPPED + 8, lanes[li]);
        program pr = {"reach-lane", text, 0, 0};
        compiled c;
        translate_hc(&pr, model, S, 0, helper_calls, &c);
        if (helper_calls && !function_calls(&c))
            fail_msg("reach lane: helper_calls %u left no OpFunctionCall (the test would not test them)", helper_calls);
        for (int hi = 0; hi < 2; hi++) {
            fill_pattern(rt, mem);
            uint64_t second = GUEST | (hi ? 0xffff000000000000ull : 0);
            uint64_t want = GUEST + MAPPED + 8;
            result r;
            dispatch(rt, &c, model, S, mem, GUEST, second, 0, &r);
            printf("%-5s reach lane %u%s%s: %s\n", mname, lanes[li], hi ? " (0xffff high bits)" : "",
                   helper_calls ? " (helpers as functions)" : "", r.msg);
            if (r.st != WL_RT_ERR_ESCAPE || r.esc.kind != WL_ESC_ADDRESS || r.esc.address != want ||
                r.esc.lane != lanes[li])
                fail_msg("%s reach lane %u: want the address escape at 0x%llx naming lane %u, got status %d kind %u "
                         "address 0x%llx lane %u: %s",
                         mname, lanes[li], (unsigned long long)want, lanes[li], (int)r.st, r.esc.kind,
                         (unsigned long long)r.esc.address, r.esc.lane, r.msg);
            char what[64];
            snprintf(what, sizeof what, "%s reach lane %u", mname, lanes[li]);
            check_sevens(rt, mem, what);
            checked++;
        }
        free(c.words);
    }
    return checked;
}

static void capi(void **state)
{
    (void)state;
    unsigned S;
    wl_rt_buffer *mem;
    wl_rt *rt = make_rt(&S, &mem);
    const int models[2] = {WL_MODEL_LANES, WL_MODEL_WAVE};
    unsigned spins = 0, ended = 0, lane_reaches = 0;
    for (int mi = 0; mi < 2; mi++) {
        int model = models[mi];
        const char *mname = model == WL_MODEL_WAVE ? "wave" : "lanes";
        compiled normal;
        translate(&P_NORMAL, model, S, 0, &normal);
        const program *spin[3] = {&P_UNIFORM, &P_DIVERGENT, &P_LDS};
        for (int pi = 0; pi < 3; pi++) {
            /* the budget through the translate option (uniform) or the push
             * constant. lavapipe ends a loop nest by itself after 65535
             * iterations (gallivm's loop limiter, counting the wave model's
             * lane loops too): the budget stays below it, so the escape
             * is the budget's and the count exact. */
            uint32_t budget = model == WL_MODEL_WAVE ? 500 : 20000, opt_budget = pi == 0 ? budget : 0, push_budget = pi == 0 ? 0 : budget;
            compiled c;
            translate(spin[pi], model, S, opt_budget, &c);
            fill_pattern(rt, mem);
            result r;
            dispatch(rt, &c, model, S, mem, GUEST, GUEST, push_budget, &r);
            spins++;
            printf("%-5s %-9s budget %u: %.1f ms, %s\n", mname, spin[pi]->name, budget, r.ms,
                   r.st == WL_RT_ERR_ESCAPE ? r.msg : "no escape");
            if (r.st != WL_RT_ERR_ESCAPE || r.esc.kind != WL_ESC_LOOP_BUDGET || !strstr(r.msg, "loop budget exhausted"))
                fail_msg("%s %s: want the loop budget escape, got status %d kind %u: %s", mname, spin[pi]->name,
                         (int)r.st, r.esc.kind, r.msg);
            if (r.esc.guest_offset != spin[pi]->loop_offset)
                fail_msg("%s %s: escape at guest offset 0x%x, want the loop at 0x%x", mname, spin[pi]->name,
                         r.esc.guest_offset, spin[pi]->loop_offset);
            if (pi == 0) {
                /* the body ran once on entry and once after each of the budget's edges */
                uint32_t count;
                assert_int_equal(wl_rt_buffer_download(rt, mem, 0, &count, 4), WL_RT_OK);
                if (count != budget + 1)
                    fail_msg("%s uniform: the loop ran %u times, want %u (budget + 1)", mname, count, budget + 1);
            }
            free(c.words);
            check_normal(rt, &normal, model, S, mem);
            ended++;
        }
        free(normal.words);

        /* outside the mapping: the load reads 0, the store is dropped */
        compiled reach;
        translate(&P_REACH, model, S, 0, &reach);
        for (int hi = 0; hi < 2; hi++) {
            fill_pattern(rt, mem);
            uint64_t out = GUEST | (hi ? 0xffff000000000000ull : 0); /* bits 63:48: ignored */
            uint64_t far = GUEST + MAPPED;                            /* the first byte past the mapping */
            result r;
            dispatch(rt, &reach, model, S, mem, out, far, 0, &r);
            printf("%-5s reach%s: %s\n", mname, hi ? " (0xffff high bits)" : "", r.msg);
            if (r.st != WL_RT_ERR_ESCAPE || r.esc.kind != WL_ESC_ADDRESS || r.esc.address != far ||
                !strstr(r.msg, "address outside the mapping"))
                fail_msg("%s reach: want the address escape at 0x%llx, got status %d kind %u address 0x%llx: %s",
                         mname, (unsigned long long)far, (int)r.st, r.esc.kind, (unsigned long long)r.esc.address,
                         r.msg);
            uint32_t *all = malloc(2 * MAPPED);
            assert_non_null(all);
            assert_int_equal(wl_rt_buffer_download(rt, mem, 0, all, 2 * MAPPED), WL_RT_OK);
            for (uint32_t i = 0; i < 64; i++)
                if (all[i] != 7)
                    fail_msg("%s reach: out[%u] = 0x%x, want 7 (the load outside reads 0)", mname, i, all[i]);
            for (uint32_t i = 64; i < MAPPED / 4; i++)
                if (all[i] != 0)
                    fail_msg("%s reach: mapped word %u changed to 0x%x", mname, i, all[i]);
            for (uint32_t i = MAPPED / 4; i < 2 * MAPPED / 4; i++)
                if (all[i] != PATTERN)
                    fail_msg("%s reach: unmapped host word %u changed to 0x%x (the store was not dropped)", mname,
                             i, all[i]);
            free(all);
        }
        free(reach.words);
        lane_reaches += check_lane_reach(rt, model, S, 0, mem);
        if (model == WL_MODEL_LANES)
            lane_reaches += check_lane_reach(rt, model, S, 2, mem);
    }
    printf("capi: %u spinning dispatches, %u ended by the budget and the device still right after each\n", spins,
           ended);
    printf("capi: %u single-lane reaches named their lane and address\n", lane_reaches);
    assert_int_equal(ended, 6);
    assert_int_equal(lane_reaches, 24);
    wl_rt_destroy(rt);
}

/* The program of order and vgpr_top: every lane loads outside the mapping
 * and stores the value + 7, then M0 = m0 (set by `set`), then `rel` (an
 * M0-relative move), then a loop that never ends. */
static void order_text(char *text, size_t cap, const char *set, unsigned m0, const char *rel)
{
    snprintf(text, cap,
             LOAD_PLUS_7
             "%s m0, %u\n"
             "%s\n"
             "s_mov_b32 s4, 0\n"
             "loop:\n"
             "s_add_u32 s4, s4, 1\n"
             "s_cmp_eq_u32 s4, 0\n"
             "s_cbranch_scc0 loop\n"
             "s_endpgm\n",
             set, m0, rel);
}

/* Several escapes in one invocation (docs/escapes.md, "Which escape"):
 * every lane loads outside the mapping (an address escape), then
 * s_movrels with M0 = 200 (past s105: WL_ESC_INSTRUCTION at 40; with
 * M0 = 104 none), then a loop that never ends (WL_ESC_LOOP_BUDGET at 48).
 * The record names the first escape other than the address: the
 * instruction, or without it the loop budget; the load reads 0 all the
 * same. Both models, and the lanes model with the helpers as functions
 * (the notes in globals: lower/memory/escape_records.c). */
static unsigned check_order(wl_rt *rt, int model, unsigned S, unsigned helper_calls, wl_rt_buffer *mem)
{
    const char *mname = model == WL_MODEL_WAVE ? "wave" : "lanes";
    unsigned checked = 0;
    for (int movrel = 0; movrel < 2; movrel++) {
        char text[1024]; /* M0 a literal: 8 bytes either way */
        order_text(text, sizeof text, "s_mov_b32", movrel ? 200u : 104u, "s_movrels_b32 s5, s0");
        program pr = {"order", text, 48, 0};
        uint32_t budget = model == WL_MODEL_WAVE ? 500 : 20000;
        compiled c;
        translate_hc(&pr, model, S, budget, helper_calls, &c);
        if (helper_calls && !function_calls(&c))
            fail_msg("order: helper_calls %u left no OpFunctionCall (the test would not test them)", helper_calls);
        fill_pattern(rt, mem);
        result r;
        dispatch(rt, &c, model, S, mem, GUEST, GUEST + MAPPED, 0, &r);
        printf("%-5s order, %s%s: %s\n", mname, movrel ? "address, instruction, loop" : "address, loop",
               helper_calls ? " (helpers as functions)" : "", r.msg);
        uint32_t kind = movrel ? WL_ESC_INSTRUCTION : WL_ESC_LOOP_BUDGET, off = movrel ? 40 : 48;
        if (r.st != WL_RT_ERR_ESCAPE || r.esc.kind != kind || r.esc.guest_offset != off || r.esc.lane >= 64 ||
            r.esc.address != 0)
            fail_msg("%s order: want kind %u at guest offset 0x%x, a lane and no address, got status %d kind %u at "
                     "0x%x lane %u address 0x%llx: %s",
                     mname, kind, off, (int)r.st, r.esc.kind, r.esc.guest_offset, r.esc.lane,
                     (unsigned long long)r.esc.address, r.msg);
        char what[64];
        snprintf(what, sizeof what, "%s order", mname);
        check_sevens(rt, mem, what);
        free(c.words);
        checked++;
    }
    return checked;
}

/* M0-relative VGPR indexing past the highest VGPR the program names
 * (frontend/lift/lift.c, vgpr_top: v0..v5 here): v_movrels with M0 = 200
 * reads no register, so it records WL_ESC_INSTRUCTION at 36 (and reads 0);
 * with M0 = 3 (v3, named) none, and the loop's budget is what ends it (at
 * 44). The same program as order's otherwise, s_movk_i32 keeping the
 * offsets the same for both M0 values. */
static unsigned check_vgpr_top(wl_rt *rt, int model, unsigned S, wl_rt_buffer *mem)
{
    const char *mname = model == WL_MODEL_WAVE ? "wave" : "lanes";
    unsigned checked = 0;
    for (int past = 0; past < 2; past++) {
        char text[1024];
        order_text(text, sizeof text, "s_movk_i32", past ? 200u : 3u, "v_movrels_b32 v5, v0");
        program pr = {"vgpr_top", text, 48, 0};
        uint32_t budget = model == WL_MODEL_WAVE ? 500 : 20000;
        compiled c;
        translate_hc(&pr, model, S, budget, 0, &c);
        fill_pattern(rt, mem);
        result r;
        dispatch(rt, &c, model, S, mem, GUEST, GUEST + MAPPED, 0, &r);
        printf("%-5s v_movrels, M0 = %u: %s\n", mname, past ? 200u : 3u, r.msg);
        uint32_t kind = past ? WL_ESC_INSTRUCTION : WL_ESC_LOOP_BUDGET, off = past ? 36 : 44;
        if (r.st != WL_RT_ERR_ESCAPE || r.esc.kind != kind || r.esc.guest_offset != off)
            fail_msg("%s vgpr_top: want kind %u at guest offset 0x%x, got status %d kind %u at 0x%x: %s", mname, kind,
                     off, (int)r.st, r.esc.kind, r.esc.guest_offset, r.msg);
        check_sevens(rt, mem, "vgpr_top");
        free(c.words);
        checked++;
    }
    return checked;
}

static void order(void **state)
{
    (void)state;
    unsigned S;
    wl_rt_buffer *mem;
    wl_rt *rt = make_rt(&S, &mem);
    unsigned n = check_order(rt, WL_MODEL_LANES, S, 0, mem) + check_order(rt, WL_MODEL_WAVE, S, 0, mem) +
                 check_order(rt, WL_MODEL_LANES, S, 2, mem);
    printf("order: %u dispatches named their first escape other than the address\n", n);
    assert_int_equal(n, 6);
    n = check_vgpr_top(rt, WL_MODEL_LANES, S, mem) + check_vgpr_top(rt, WL_MODEL_WAVE, S, mem);
    assert_int_equal(n, 4);
    wl_rt_buffer_destroy(rt, mem);
    wl_rt_destroy(rt);
}

/* ---- the CLI on OpenCL kernels -------------------------------------------- */

static char *cli(const char *args, int *status)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' run '%s/escapes.w64.co' --timeout-ms %u %s 2>&1", WL_CLI, WL_KERNEL_DIR,
             TIMEOUT_MS, args);
    char *o = wlt_run(cmd, status);
    assert_non_null(o);
    return o;
}

static void cli_cases(void **state)
{
    (void)state;
    char *dir = wlt_tmpdir();
    assert_non_null(dir);
    char path[512], args[1536];
    /* input: word 64 = 12345 (lane 0 of spin_divergent leaves) */
    uint32_t in[256] = {0};
    in[64] = 12345;
    snprintf(path, sizeof path, "%s/in.bin", dir);
    assert_int_equal(wlt_write_file(path, in, sizeof in), 0);
    static const struct {
        const char *kernel, *extra;
    } spins[] = {
        {"spin_uniform", ""}, /* the default budget (lavapipe's loop limiter may end it first) */
        {"spin_uniform", "--model wave --loop-budget 500"},
        {"spin_divergent", "--loop-budget 20000"},
        {"spin_divergent", "--model wave --loop-budget 500"}, /* its uniform ballot of a constant carry */
        {"spin_lds", "--loop-budget 20000"},
        {"spin_lds", "--model wave --loop-budget 500"},
    };
    unsigned refused = 0;
    for (size_t i = 0; i < sizeof spins / sizeof spins[0]; i++) {
        snprintf(args, sizeof args, "--kernel %s --global 64 --local 64 --arg buf:%s %s", spins[i].kernel, path,
                 spins[i].extra);
        int st = 0;
        double t0 = now_ms();
        char *o = cli(args, &st);
        double ms = now_ms() - t0;
        const char *line = strstr(o, "refused");
        printf("cli %s %s: exit %d in %.0f ms: %.*s\n", spins[i].kernel, spins[i].extra, st, ms,
               line ? (int)strcspn(line, "\n") : 0, line ? line : "");
        if (st != 3 || !strstr(o, "loop budget exhausted"))
            fail_msg("%s %s: want exit 3 naming the loop budget, got %d:\n%s", spins[i].kernel, spins[i].extra, st, o);
        free(o);
        refused++;
    }
    /* an access 1 TiB past the argument: outside the arena */
    snprintf(args, sizeof args, "--kernel reach --global 64 --local 64 --arg zero:256 --arg i64:%llu",
             1ull << 40);
    int st = 0;
    char *o = cli(args, &st);
    printf("cli reach: exit %d: %s", st, strstr(o, "refused") ? strstr(o, "refused") : o);
    if (st != 3 || !strstr(o, "address outside the mapping") || !strstr(o, "0x110000000000"))
        fail_msg("reach: want exit 3 naming the address 0x110000000000, got %d:\n%s", st, o);
    free(o);
    refused++;
    /* and a normal kernel afterwards */
    char outp[512];
    snprintf(outp, sizeof outp, "%s/out.bin", dir);
    snprintf(args, sizeof args, "--kernel normal --global 256 --local 64 --arg zero:1024 --out 0:%s", outp);
    o = cli(args, &st);
    if (st != 0)
        fail_msg("normal: exit %d:\n%s", st, o);
    free(o);
    size_t n = 0;
    uint8_t *got = wlt_read_file(outp, &n);
    assert_non_null(got);
    assert_int_equal(n, 1024);
    unsigned match = 0;
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t v;
        memcpy(&v, got + 4 * i, 4);
        match += v == 3 * i + 5;
    }
    free(got);
    printf("cli: %u runs refused by name, normal kernel %u of 256 words match\n", refused, match);
    assert_int_equal(match, 256);
    snprintf(args, sizeof args, "rm -rf '%s'", dir);
    free(wlt_run(args, &st));
    free(dir);
}

int main(void)
{
    setenv("VK_ICD_FILENAMES", LVP_ICD, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(capi),
        cmocka_unit_test(order),
        cmocka_unit_test(cli_cases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
