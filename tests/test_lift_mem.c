/* The lifter's memory instructions (frontend/lift_mem*.c): small programs
 * (test_lift_mem_cases.h), assembled by llvm-mc-19 at test time, are lifted
 * (wl_lift) and checked by the wave-IR verifier, then run two ways, and
 * the whole guest memory afterwards must equal the C model's:
 *   1. the reference executor of tests/wlt_wir_exec.h (every lane a thread
 *      in lockstep, the wl.* calls as docs/wave-ir.md defines them), wave64
 *      and wave32 with holes in EXEC;
 *   2. on lavapipe through the translate pipeline (wl_translate: lowering,
 *      LLVM, SPIR-V) at subgroup sizes 4, 8 and 16 (a child process each,
 *      LP_NATIVE_VECTOR_WIDTH), a partial wave (the top two lanes absent);
 *      what the lowering does not carry yet is a refusal by name, counted.
 * Each program starts with a common prologue of global loads that gives
 * every lane its addresses and data (the programs use memory and SMEM
 * instructions only, so they do not depend on the VALU family). Instructions
 * the lifter does not translate must be refused by name. */
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
#include "wavelift/decode.h"
#include "wavelift/lift.h"
#include "wavelift/runtime.h"
#include "wavelift/translate.h"
#include "wlt_wir_exec.h"
#include "test_lift_mem_cases.h"


/* ---- assembling ---- */

/* Assembles `text` for gfx1030 in wave W (support.c's wlt_assemble); the
 * bytes go to *out (malloc). */
static size_t assemble(const char *text, unsigned W, uint8_t **out)
{
    size_t n = 0;
    char *msg = NULL;
    *out = wlt_assemble(text, "gfx1030", W, &n, &msg);
    if (!*out)
        fail_msg("llvm-mc failed:\n%s", msg ? msg : "");
    return n;
}

/* "out K vX" lines become a store of vX to output slot K of the lane. */
static char *expand(const char *body)
{
    static const char *const prologue =
        "s_load_dwordx16 s[16:31], s[0:1], 0x900\n"         /* the other SGPRs */
        "global_load_ubyte v1, v0, s[0:1]\n"                /* v1 = 4 * lane */
        "global_load_dword v2, v1, s[0:1] offset:0x100\n"   /* v2 = 8 * lane */
        "global_load_dwordx2 v[4:5], v2, s[0:1] offset:0x200\n" /* v[4:5] = &OUT[lane] */
        "global_load_dword v3, v1, s[0:1] offset:0x600\n"   /* v3 = D[lane] */
        "global_load_ushort v19, v1, s[0:1] offset:0x400\n" /* v19 = 16 * lane */
        "global_load_dword v6, v1, s[0:1] offset:0x700\n"   /* v6 = 4 * perm(lane) */
        "global_load_dword v8, v1, s[4:5] offset:0x500\n"   /* v8 = 0x10 */
        "global_load_dword v9, v1, s[12:13]\n";             /* v9 = 0 (LDS and scratch start undefined) */
    size_t cap = strlen(body) * 4 + 4096, n = 0;
    char *o = malloc(cap);
    n += (size_t)snprintf(o + n, cap - n, "%s", prologue);
    const char *p = body;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        unsigned k, v;
        if (sscanf(p, " out %u v%u", &k, &v) == 2) {
            static const char *const base[4] = {"s[2:3]", "s[12:13]", "s[14:15]", "s[16:17]"};
            n += (size_t)snprintf(o + n, cap - n, "global_store_dword v1, v%u, %s offset:%u\n", v,
                                  base[k / 8], (k % 8) * 0x100);
        } else {
            n += (size_t)snprintf(o + n, cap - n, "%.*s\n", (int)len, p);
        }
        p += len + (e ? 1 : 0);
    }
    snprintf(o + n, cap - n, "s_endpgm\n");
    return o;
}

/* ---- lifting ---- */

static void fill_program(wl_lift_program *p, const uint8_t *code, size_t size, unsigned W)
{
    memset(p, 0, sizeof *p);
    p->code = code;
    p->size = size;
    p->address = 0x1000;
    p->target = WL_GFX1030;
    p->wave_size = W;
    p->user_sgpr_count = NUSER;
    p->vgpr_workitem_ids = 1;
    p->lds_bytes = LDS_BYTES;
    p->scratch_bytes = SCRATCH_BYTES;
}

static wl_status lift(const uint8_t *code, size_t size, unsigned W, LLVMContextRef ctx,
                      LLVMModuleRef *m, char *err, size_t errcap)
{
    wl_lift_program p;
    fill_program(&p, code, size, W);
    return wl_lift(ctx, &p, m, err, errcap);
}

/* Per format: distinct mnemonics and instances in the programs. */
typedef struct fmt_count {
    const char *names[128];
    unsigned nnames, instances;
} fmt_count;

static void count_insts(const uint8_t *code, size_t size, unsigned W, fmt_count *fc)
{
    wl_decoder d;
    wl_decoder_init(&d, WL_GFX1030, W == 64);
    for (size_t off = 0; off < size;) {
        wl_inst in;
        if (wl_decode(&d, code + off, size - off, off, &in) != WL_OK)
            fail_msg("cannot decode at 0x%zx", off);
        off += in.size;
        if (in.format < WL_FMT_DS)
            continue;
        fmt_count *c = &fc[in.format];
        c->instances++;
        unsigned i = 0;
        while (i < c->nnames && strcmp(c->names[i], in.name))
            i++;
        if (i == c->nnames && c->nnames < 128)
            c->names[c->nnames++] = in.name;
    }
}

static void test_programs(void **state)
{
    (void)state;
    static wlx_state st, want;
    fmt_count fc[WL_FMT_COUNT];
    memset(fc, 0, sizeof fc);
    unsigned runs = 0, matched = 0, words_total = 0, mism_total = 0;
    for (unsigned W = 64; W >= 32; W /= 2) {
        for (size_t c = 0; c < NCASES; c++) {
            char *text = expand(cases[c].body);
            uint8_t *code;
            size_t size = assemble(text, W, &code);
            free(text);
            if (W == 64)
                count_insts(code, size, W, fc);
            LLVMContextRef ctx = LLVMContextCreate();
            LLVMModuleRef m = NULL;
            char err[1024] = "";
            wl_status s = lift(code, size, W, ctx, &m, err, sizeof err);
            if (s != WL_OK)
                fail_msg("%s w%u: lift: %s", cases[c].name, W, err);
            if (wl_wir_verify(m, err, sizeof err) != WL_OK)
                fail_msg("%s w%u: verify: %s", cases[c].name, W, err);
            char *ir = LLVMPrintModuleToString(m);
            if (getenv("WLT_DUMP") && !strcmp(getenv("WLT_DUMP"), cases[c].name) && W == 64)
                fprintf(stderr, "%s\n", ir);
            char calls[512];
            snprintf(calls, sizeof calls, "%s", cases[c].calls);
            for (char *t = strtok(calls, " "); t; t = strtok(NULL, " ")) {
                char pat[128];
                snprintf(pat, sizeof pat, "@%s(", t);
                if (!strstr(ir, pat))
                    fail_msg("%s w%u: no call to %s in the lifted IR", cases[c].name, W, t);
            }
            LLVMDisposeMessage(ir);

            launch(&st, W, WLX_GBASE, W == 64 ? ~((1ull << 3) | (1ull << 40))
                                              : 0xffffffffull & ~((1ull << 3) | (1ull << 30)));
            want = st;
            cases[c].model(&want);
            if (wlx_run(m, &st, err, sizeof err) != 0)
                fail_msg("%s w%u: run: %s", cases[c].name, W, err);
            LLVMContextDispose(ctx);
            free(code);
            runs++;
            unsigned mism = 0;
            for (uint32_t a = 0; a < WLX_GSIZE; a += 4) {
                uint32_t g = rd32(st.g, a), w = rd32(want.g, a);
                words_total++;
                if (g != w && mism++ < 20)
                    print_message("  %s w%u: word 0x%04x (out %u lane %u): got 0x%08x want 0x%08x\n",
                                  cases[c].name, W, a,
                                  a >= OUT_OFF ? (a - OUT_OFF) / 0x100 : 0,
                                  a >= OUT_OFF ? (a % 0x100) / 4 : 0, g, w);
            }
            if (st.faults)
                print_message("  %s w%u: %u faults, first: %s\n", cases[c].name, W, st.faults,
                              st.fault_msg);
            unsigned want_esc = 0;
            if (st.escapes != want_esc)
                print_message("  %s w%u: %u escapes recorded\n", cases[c].name, W, st.escapes);
            if (!mism && !st.faults && st.escapes == want_esc)
                matched++;
            mism_total += mism;
            print_message("%-10s wave%u: %s\n", cases[c].name, W,
                          !mism && !st.faults && st.escapes == want_esc ? "memory matches the model"
                                                                      : "MISMATCH");
        }
    }
    static const wl_format fmts[] = {WL_FMT_DS, WL_FMT_GLOBAL, WL_FMT_FLAT, WL_FMT_SCRATCH,
                                     WL_FMT_MUBUF};
    for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++)
        print_message("%s: %u opcodes, %u instances (in the wave64 programs; all run in wave64 and wave32), %u programs run\n",
                      wl_format_name(fmts[i]), fc[fmts[i]].nnames, fc[fmts[i]].instances, runs);
    print_message("programs: %u run, %u match (%u words compared, %u differ)\n", runs, matched,
                  words_total, mism_total);
    assert_int_equal(matched, runs);
    assert_true(runs == 2 * NCASES);
}

/* Instructions the lifter must refuse, naming them. */
static void test_refusals(void **state)
{
    (void)state;
    static const char *const refused[] = {
        "ds_rsub_u32 v1, v2", "ds_mskor_b32 v1, v2, v3", "ds_append v1", "ds_consume v1",
        "ds_gws_init v1 gds", "ds_swizzle_b32 v1, v2 offset:0xc000", "ds_read_addtid_b32 v1",
        "ds_write_b32 v1, v2 gds", "ds_cmpst_f32 v1, v2, v3", "ds_condxchg32_rtn_b64 v[1:2], v3, v[4:5]",
        "tbuffer_load_format_d16_x v1, v0, s[4:7], 0 format:[BUF_FMT_32_UINT] offen",
        "tbuffer_load_format_d16_x v1, v0, s[4:7], 0 format:[BUF_FMT_10_11_11_FLOAT] offen",
        "tbuffer_store_format_xyz v[1:3], v0, s[4:7], 0 format:[BUF_FMT_10_11_11_FLOAT] offen",
        "tbuffer_store_format_x v1, v0, s[4:7], 0 format:[BUF_FMT_32_32_UINT] offen",
        "buffer_load_dword v[1:2], v0, s[4:7], 0 offen tfe",
        "global_load_dword_addtid v1, s[0:1]",
        "image_sample v[0:3], v[0:2], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_3D",
    };
    unsigned ok = 0, n = sizeof refused / sizeof refused[0];
    for (unsigned i = 0; i < n; i++) {
        char text[256], mn[64];
        snprintf(text, sizeof text, "%s\ns_endpgm\n", refused[i]);
        sscanf(refused[i], "%63s", mn);
        uint8_t *code;
        size_t size = assemble(text, 64, &code);
        LLVMContextRef ctx = LLVMContextCreate();
        LLVMModuleRef m = NULL;
        char err[1024] = "";
        wl_status s = lift(code, size, 64, ctx, &m, err, sizeof err);
        char want[128];
        snprintf(want, sizeof want, "unsupported instruction %s ", mn);
        if (s == WL_ERR_UNSUPPORTED && strstr(err, want))
            ok++;
        else
            print_message("  %s: status %d, message \"%s\"\n", refused[i], (int)s, err);
        if (m)
            LLVMDisposeModule(m);
        LLVMContextDispose(ctx);
        free(code);
    }
    print_message("refusals: %u instructions, %u refused by name\n", n, ok);
    assert_int_equal(ok, n);
}


/* ---- on lavapipe, through the translate pipeline ---- */


typedef enum { RUN_MATCH, RUN_REFUSED, RUN_WRONG } run_result;

/* One program, one wave of W - 2 work-items (the top two lanes do not
 * exist: EXEC at launch has W - 2 bits), at subgroup size S. */
static run_result lvp_run(wl_rt *rt, const pcase *pc, unsigned W, unsigned S, int opt, char *msg,
                          size_t cap)
{
    static wlx_state st, want;
    char *text = expand(pc->body);
    uint8_t *code;
    size_t size = assemble(text, W, &code);
    free(text);
    wl_lift_program p;
    fill_program(&p, code, size, W);
    wl_translate_options o;
    wl_translate_options_init(&o);
    o.subgroup_size = S;
    o.local_size[0] = W - 2;
    o.opt_level = opt;
    o.validate = 1;
    uint32_t *words = NULL;
    size_t nw = 0;
    wl_translate_info info;
    char err[1024] = "";
    wl_status ts = wl_translate(&p, &o, &words, &nw, &info, err, sizeof err);
    free(code);
    if (ts == WL_ERR_UNSUPPORTED) {
        snprintf(msg, cap, "refused: %s", err);
        return RUN_REFUSED;
    }
    if (ts != WL_OK) {
        snprintf(msg, cap, "translate failed (%d): %s", (int)ts, err);
        return RUN_WRONG;
    }
    wl_rt_buffer *mem = NULL, *status = NULL, *scratch = NULL, *lds = NULL;
    wl_rt_pipeline *pipe = NULL;
    run_result res = RUN_WRONG;
    if (wl_rt_buffer_create(rt, WLX_GSIZE, &mem) || wl_rt_buffer_create(rt, 64, &status)) {
        snprintf(msg, cap, "buffers: %s", wl_rt_error(rt));
        goto out;
    }
    launch(&st, W, wl_rt_buffer_address(mem), (1ull << (W - 2)) - 1);
    want = st;
    pc->model(&want);
    uint8_t push[WL_PUSH_BYTES];
    memset(push, 0, sizeof push);
    memcpy(push, st.user, 16 * 4);
    if (wlt_segment(rt, &info, 1, push, &scratch)) { /* the one group dispatched */
        snprintf(msg, cap, "scratch: %s", wl_rt_error(rt));
        goto out;
    }
    if ((info.bindings & (1u << WL_RT_BINDING_LDS)) &&
        wl_rt_buffer_create(rt, WL_LDS_SLICE_BYTES(LDS_BYTES), &lds)) {
        snprintf(msg, cap, "lds: %s", wl_rt_error(rt));
        goto out;
    }
    if (wl_rt_buffer_upload(rt, mem, 0, st.g, WLX_GSIZE)) {
        snprintf(msg, cap, "upload: %s", wl_rt_error(rt));
        goto out;
    }
    wl_rt_pipeline_desc pd = {.words = words, .nwords = nw, .subgroup_size = S,
                              .require_full_subgroups = 1};
    if (wl_rt_pipeline_create(rt, &pd, &pipe)) {
        snprintf(msg, cap, "pipeline: %s", wl_rt_error(rt));
        goto out;
    }
    wl_rt_dispatch_desc dd;
    memset(&dd, 0, sizeof dd);
    dd.groups[0] = dd.groups[1] = dd.groups[2] = 1;
    dd.push_constants = push;
    dd.push_constant_size = sizeof push;
    dd.bindings[WL_RT_BINDING_STATUS] = status;
    dd.bindings[WL_RT_BINDING_LDS] = lds;
    if (wl_rt_dispatch(rt, pipe, &dd, NULL)) {
        snprintf(msg, cap, "dispatch: %s", wl_rt_error(rt));
        goto out;
    }
    uint32_t sw[4];
    if (wl_rt_buffer_download(rt, mem, 0, st.g, WLX_GSIZE) ||
        wl_rt_buffer_download(rt, status, 0, sw, sizeof sw)) {
        snprintf(msg, cap, "download: %s", wl_rt_error(rt));
        goto out;
    }
    unsigned mism = 0, first = 0;
    for (uint32_t a = 0; a < WLX_GSIZE; a += 4)
        if (rd32(st.g, a) != rd32(want.g, a) && !mism++)
            first = a;
    if (sw[0]) {
        snprintf(msg, cap, "escape kind %u at guest offset 0x%x (%u words differ)", sw[0], sw[1], mism);
    } else if (mism) {
        snprintf(msg, cap, "%u words differ, first 0x%04x (out %u lane %u): got 0x%08x want 0x%08x",
                 mism, first, first >= OUT_OFF ? (first - OUT_OFF) / 0x100 : 0,
                 first >= OUT_OFF ? (first % 0x100) / 4 : 0, rd32(st.g, first), rd32(want.g, first));
    } else {
        snprintf(msg, cap, "memory matches the model (k=%u, %zu SPIR-V words)",
                 info.lanes_per_invocation, nw);
        res = RUN_MATCH;
    }
out:
    if (pipe)
        wl_rt_pipeline_destroy(rt, pipe);
    if (lds)
        wl_rt_buffer_destroy(rt, lds);
    if (scratch)
        wl_rt_buffer_destroy(rt, scratch);
    if (status)
        wl_rt_buffer_destroy(rt, status);
    if (mem)
        wl_rt_buffer_destroy(rt, mem);
    free(words);
    return res;
}

/* --child S: every program, both waves, at -O2 (and -O0 at S = 8), at subgroup size S.
 * Exit 0 when nothing gave wrong output (refusals are counted). */
static int child_main(unsigned S)
{
    char err[1024];
    wl_rt *rt = NULL;
    /* lavapipe compiles at the first dispatch: generous on a loaded machine */
    wl_rt_options ro;
    memset(&ro, 0, sizeof ro);
    ro.timeout_ms = 180000;
    if (wl_rt_create(&ro, &rt, err, sizeof err) != WL_RT_OK) {
        printf("child: no device: %s\n", err);
        return 1;
    }
    unsigned match = 0, refused = 0, wrong = 0;
    setvbuf(stdout, NULL, _IONBF, 0);
    const char *only = getenv("WLT_CASE");
    for (unsigned W = 64; W >= 32; W /= 2)
        for (size_t c = 0; c < NCASES; c++)
            for (int opt = 0; opt <= 2; opt += 2) {
                char msg[1400];
                if (only && strcmp(only, cases[c].name))
                    continue;
                if (opt == 0 && S != 8) /* -O0 at one size: the test's time */
                    continue;
                /* buf_format (the run-time format's generic conversions: 100k
                 * SPIR-V words at k = 8) at one size: the test's time */
                if (!strcmp(cases[c].name, "buf_format") && S != 8)
                    continue;
                run_result r = lvp_run(rt, &cases[c], W, S, opt, msg, sizeof msg);
                printf("%-10s wave%u S=%u -O%d: %s\n", cases[c].name, W, S, opt, msg);
                match += r == RUN_MATCH;
                refused += r == RUN_REFUSED;
                wrong += r == RUN_WRONG;
            }
    wl_rt_destroy(rt);
    printf("child S=%u: %u runs, %u match, %u refused, %u wrong\n", S, match + refused + wrong,
           match, refused, wrong);
    fflush(stdout);
    return wrong ? 1 : match ? 0 : 2;
}

static void test_lavapipe(void **state)
{
    (void)state;
    if (access(WLT_LVP_ICD, R_OK) != 0) {
        print_message("lavapipe is not installed: the programs ran on the reference executor only\n");
        skip();
    }
    char self[512];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    assert_true(len > 0);
    self[len] = 0;
    static const struct { int width; unsigned size; } sizes[] = {{128, 4}, {256, 8}, {512, 16}};
    int failed = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "LP_NATIVE_VECTOR_WIDTH=%d '%s' --child %u 2>&1", sizes[i].width,
                 self, sizes[i].size);
        int status = -1;
        char *o = wlt_run(cmd, &status);
        /* printf: cmocka's print_message cuts messages at 4 KiB */
        printf("--- subgroup size %u (exit %d)\n%s", sizes[i].size, status, o ? o : "");
        fflush(stdout);
        if (status != 0)
            failed++;
        free(o);
    }
    assert_int_equal(failed, 0);
}

int main(int argc, char **argv)
{
    wlt_use_lavapipe(0);
    if (argc == 3 && strcmp(argv[1], "--child") == 0)
        return child_main((unsigned)strtoul(argv[2], NULL, 10));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_programs),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_lavapipe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
