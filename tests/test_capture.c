/* Dispatch captures and replays (docs/capture.md).
 *
 *  - suite_captures: kernels of the suite (tests/kernels/suite_*.cl) run by
 *    `wavelift run --capture` on lavapipe; the capture replayed by `wavelift
 *    replay` gives the same output bytes as the run, and both equal PoCL's
 *    run of the OpenCL C source (the oracle). `replay --both` runs the lanes
 *    and the wave model and must find no difference (or be refused by name).
 *  - raw_capture: a capture built through the C API from raw data, not a
 *    code object: code assembled by llvm-mc-19, a V# and a pointer in user
 *    SGPRs (both address fields), a constant read through s_getpc from the
 *    code's own range, the V#'s range check; expected values computed here
 *    from the ISA's definition. Also: a read-only range the program writes
 *    is reported.
 *  - corrupt_captures: truncated and corrupt files, every prefix of a
 *    manifest, random mutations, and a list of malformed lines: each is
 *    refused with a message (or, for a mutation that still makes sense,
 *    accepted and checked); nothing crashes.
 *  - builder_rules: the C API refuses what docs/capture.md's rules forbid. */
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

#define LAVAPIPE "WAVELIFT_DEVICE=llvmpipe "

static uint32_t xs(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

static char *run_cmd(const char *cmd, int *rc)
{
    char *out = wlt_run(cmd, rc);
    assert_non_null(out);
    return out;
}

static int files_equal(const char *a, const char *b, size_t n)
{
    size_t na, nb;
    uint8_t *x = wlt_read_file(a, &na), *y = wlt_read_file(b, &nb);
    int eq = x && y && na >= n && nb >= n && memcmp(x, y, n) == 0;
    free(x);
    free(y);
    return eq;
}

/* ---- suite kernels: run --capture, replay, PoCL ------------------------- */

typedef struct kspec {
    const char *file, *kernel, *global, *local;
    unsigned wave;
    const char *args[4]; /* "small:N" / "rand:N": N words generated here; else as is */
    unsigned out;        /* the buffer argument compared */
    unsigned out_bytes;
    int both; /* also replay --both */
} kspec;

static const kspec kernels[] = {
    {"suite_control", "collatz", "512", "64", 64, {"small:512", "zero:2048"}, 1, 2048, 1},
    {"suite_reduce", "reduce_dyn", "512", "128", 32, {"small:512", "zero:16", "local:512"}, 1, 16, 1},
    {"suite_misc", "private_array", "128", "64", 64, {"rand:128", "zero:512"}, 1, 512, 1},
    {"suite_misc", "ids_3d", "8,4,4", "4,2,2", 32, {"zero:2048"}, 0, 2048, 1},
    {"suite_atomics", "local_atomics", "512", "128", 64, {"rand:512", "zero:128"}, 1, 128, 1},
};

static void suite_captures(void **state)
{
    (void)state;
#ifndef WL_POCL_RUN
    fail_msg("built without OpenCL (PoCL): install pocl-opencl-icd and re-run cmake");
#else
    char *tmp = wlt_tmpdir();
    assert_non_null(tmp);
    unsigned n = sizeof(kernels) / sizeof(kernels[0]), same = 0, both_same = 0, both_refused = 0;
    for (unsigned i = 0; i < n; i++) {
        const kspec *k = &kernels[i];
        char args[1024] = "", path[600], cmd[4096];
        size_t al = 0;
        uint32_t seed = 0x9e3779b9u + i;
        for (unsigned a = 0; a < 4 && k->args[a]; a++) {
            unsigned words;
            if (sscanf(k->args[a], "small:%u", &words) == 1 || sscanf(k->args[a], "rand:%u", &words) == 1) {
                uint32_t *w = malloc(words * 4u);
                for (unsigned j = 0; j < words; j++)
                    w[j] = k->args[a][0] == 's' ? xs(&seed) % 256 : xs(&seed);
                snprintf(path, sizeof(path), "%s/%s.in%u", tmp, k->kernel, a);
                assert_int_equal(wlt_write_file(path, w, words * 4u), 0);
                free(w);
                al += (size_t)snprintf(args + al, sizeof(args) - al, " --arg buf:%s", path);
            } else {
                al += (size_t)snprintf(args + al, sizeof(args) - al, " --arg %s", k->args[a]);
            }
        }
        int rc;
        snprintf(cmd, sizeof(cmd), "'%s' '%s/tests/kernels/%s.cl' --kernel %s --global %s --local %s%s "
                 "--out %u:'%s/%s.ref' 2>&1",
                 WL_POCL_RUN, WL_SOURCE_DIR, k->file, k->kernel, k->global, k->local, args, k->out,
                 tmp, k->kernel);
        char *o = run_cmd(cmd, &rc);
        if (rc)
            fail_msg("PoCL failed on %s: %s", k->kernel, o);
        free(o);
        snprintf(cmd, sizeof(cmd), LAVAPIPE "'%s' run '%s/%s.w%u.co' --kernel %s --global %s --local %s%s "
                 "--out %u:'%s/%s.run' --capture '%s/%s.cap' --timeout-ms 180000 2>&1",
                 WL_CLI, WL_KERNEL_DIR, k->file, k->wave, k->kernel, k->global, k->local, args,
                 k->out, tmp, k->kernel, tmp, k->kernel);
        o = run_cmd(cmd, &rc);
        if (rc || !strstr(o, "capture: "))
            fail_msg("run --capture of %s: exit %d: %s", k->kernel, rc, o);
        free(o);
        snprintf(cmd, sizeof(cmd), "mkdir -p '%s/%s.rep' && " LAVAPIPE "'%s' replay '%s/%s.cap' "
                 "--out-dir '%s/%s.rep' --runs 1 --timeout-ms 180000 2>&1",
                 tmp, k->kernel, WL_CLI, tmp, k->kernel, tmp, k->kernel);
        o = run_cmd(cmd, &rc);
        if (rc)
            fail_msg("replay of %s: exit %d: %s", k->kernel, rc, o);
        free(o);
        char ref[600], run[600], rep[600];
        snprintf(ref, sizeof(ref), "%s/%s.ref", tmp, k->kernel);
        snprintf(run, sizeof(run), "%s/%s.run", tmp, k->kernel);
        snprintf(rep, sizeof(rep), "%s/%s.rep/arg%u.bin", tmp, k->kernel, k->out);
        int ok = files_equal(ref, run, k->out_bytes) && files_equal(run, rep, k->out_bytes);
        printf("%-14s wave%u: PoCL, run and replay %s\n", k->kernel, k->wave, ok ? "match" : "DIFFER");
        if (!ok)
            fail_msg("%s: the outputs differ (%s, %s, %s)", k->kernel, ref, run, rep);
        same++;
        if (!k->both)
            continue;
        snprintf(cmd, sizeof(cmd), LAVAPIPE "'%s' replay '%s/%s.cap' --both --runs 2 "
                 "--timeout-ms 180000 2>&1", WL_CLI, tmp, k->kernel);
        o = run_cmd(cmd, &rc);
        printf("%s", o);
        if (rc == 0 && strstr(o, "same: "))
            both_same++;
        else if (rc == 3 && strstr(o, "refused"))
            both_refused++;
        else
            fail_msg("replay --both of %s: exit %d", k->kernel, rc);
        free(o);
    }
    printf("%u captures: %u replay as run and PoCL; --both: %u agree, %u refused by name\n", n,
           same, both_same, both_refused);
    assert_true(both_same + both_refused >= 5);
    assert_int_equal(same, n);
    char cmd[700];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
    free(wlt_run(cmd, NULL));
    free(tmp);
#endif
}

/* ---- a capture from raw data -------------------------------------------- */

#define RAW_K 7u
#define RAW_TABLE 0x01000000u
#define RAW_ITEMS 256u
#define RAW_RECORDS 1000u /* the V#'s num_records: bytes 1000.. are out of range */
#define RAW_FILL 0xdeadbeefu
#define CODE_AT 0x10000000ull
#define IN_AT 0x40000000ull
#define OUT_AT 0x80000000ull

/* s[0:1] the input's address, s2 the factor, s[4:7] the output's V#, s8
 * the workgroup id; out[i] = in[i] * s2 + i + TABLE through a V# (raw, num_records 1000),
 * TABLE read by s_load from the code's range through s_getpc. */
static const char raw_program[] =
    "s_getpc_b64 s[10:11]\n"
    "s_add_u32 s10, s10, 0x12345678\n"
    "s_addc_u32 s11, s11, 0\n"
    "s_load_dword s12, s[10:11], 0x0\n"
    "s_lshl_b32 s9, s8, 6\n"
    "v_add_nc_u32 v1, s9, v0\n"
    "v_lshlrev_b32 v2, 2, v1\n"
    "global_load_dword v3, v2, s[0:1]\n"
    "s_waitcnt vmcnt(0) lgkmcnt(0)\n"
    "v_mul_lo_u32 v3, v3, s2\n"
    "v_add_nc_u32 v3, v3, v1\n"
    "v_add_nc_u32 v3, s12, v3\n"
    "buffer_store_dword v3, v2, s[4:7], 0 offen\n"
    "s_endpgm\n";

static wl_capture *raw_capture_build(uint32_t *in, int out_writable)
{
    size_t n;
    uint8_t *code = wlt_assemble(raw_program, "gfx1030", 64, &n, NULL);
    assert_non_null(code);
    assert_true(n > 16 && n % 4 == 0);
    /* the table word after the code; the literal 0x12345678 becomes its
     * offset from the address s_getpc returns (offset 4) */
    uint8_t *all = calloc(1, n + 4);
    memcpy(all, code, n);
    uint32_t table = RAW_TABLE, lit = 0x12345678u, off = (uint32_t)n - 4;
    memcpy(all + n, &table, 4);
    size_t at = 0;
    for (size_t i = 0; i + 4 <= n; i += 4)
        if (memcmp(all + i, &lit, 4) == 0)
            at = i;
    assert_true(at > 0);
    memcpy(all + at, &off, 4);
    free(code);

    char err[512];
    wl_capture *c = NULL;
    assert_int_equal(wl_capture_create(wl_target_from_name("gfx1030"), all, n + 4, CODE_AT, 0, &c,
                                       err, sizeof(err)), WL_OK);
    free(all);
    c->wave_size = 64;
    c->local[0] = 64;
    c->groups[0] = RAW_ITEMS / 64;
    c->user_sgpr_count = 8;
    uint32_t w1 = (uint32_t)(OUT_AT >> 32) & 0xffff;
    uint32_t sg[8] = {(uint32_t)IN_AT, (uint32_t)(IN_AT >> 32), RAW_K, 0, (uint32_t)OUT_AT, w1,
                      RAW_RECORDS, 0x31016facu};
    memcpy(c->user_sgpr, sg, sizeof(sg));
    c->enable_workgroup_id[0] = 1;
    c->vgpr_workitem_ids = 1;
    c->source = strdup("raw: test_capture.c raw_program");
    uint32_t s = 12345;
    for (unsigned i = 0; i < RAW_ITEMS; i++)
        in[i] = xs(&s) & 0xffff;
    uint32_t fill[RAW_ITEMS];
    for (unsigned i = 0; i < RAW_ITEMS; i++)
        fill[i] = RAW_FILL;
    assert_int_equal(wl_capture_add_range(c, "code", CODE_AT, c->code, c->code_size, 0, err, sizeof(err)), WL_OK);
    assert_int_equal(wl_capture_add_range(c, "in", IN_AT, in, RAW_ITEMS * 4, 0, err, sizeof(err)), WL_OK);
    assert_int_equal(wl_capture_add_range(c, "out", OUT_AT, fill, sizeof(fill), out_writable, err,
                                          sizeof(err)), WL_OK);
    assert_int_equal(wl_capture_add_field(c, WL_CAPTURE_FIELD_U64, NULL, 0, err, sizeof(err)), WL_OK);
    assert_int_equal(wl_capture_add_field(c, WL_CAPTURE_FIELD_VSHARP, NULL, 16, err, sizeof(err)), WL_OK);
    if (wl_capture_check(c, err, sizeof(err)) != WL_OK)
        fail_msg("check: %s", err);
    return c;
}

static void raw_capture(void **state)
{
    (void)state;
    char *tmp = wlt_tmpdir();
    uint32_t in[RAW_ITEMS];
    wl_capture *c = raw_capture_build(in, 1);
    char dir[600], err[512], cmd[2048];
    snprintf(dir, sizeof(dir), "%s/raw.cap", tmp);
    if (wl_capture_write(c, dir, err, sizeof(err)) != WL_OK)
        fail_msg("write: %s", err);

    /* the file round trip keeps everything */
    wl_capture *r = NULL;
    if (wl_capture_read(dir, &r, err, sizeof(err)) != WL_OK)
        fail_msg("read: %s", err);
    assert_int_equal(r->code_size, c->code_size);
    assert_memory_equal(r->code, c->code, c->code_size);
    assert_int_equal(r->nranges, 3);
    assert_int_equal(r->nfields, 2);
    assert_memory_equal(r->user_sgpr, c->user_sgpr, sizeof(c->user_sgpr));
    assert_int_equal(r->fields[1].kind, WL_CAPTURE_FIELD_VSHARP);
    assert_string_equal(r->source, c->source);
    for (size_t i = 0; i < 3; i++) {
        assert_string_equal(r->ranges[i].name, c->ranges[i].name);
        assert_int_equal(r->ranges[i].address, c->ranges[i].address);
        assert_int_equal(r->ranges[i].writable, c->ranges[i].writable);
        assert_memory_equal(r->ranges[i].data, c->ranges[i].data, c->ranges[i].size);
    }
    wl_capture_free(r);

    /* relocation to made-up host addresses and back, in memory */
    uint64_t host[3] = {0x7000000000ull, 0x7100000000ull, 0x7200000010ull};
    uint32_t sg[WL_CAPTURE_MAX_USER_SGPRS];
    assert_int_equal(wl_capture_relocate(c, host, sg, (uint8_t *const[3]){NULL, NULL, NULL}, err,
                                         sizeof(err)), WL_OK);
    assert_int_equal(sg[0], (uint32_t)host[1]);
    assert_int_equal(sg[1], (uint32_t)(host[1] >> 32));
    assert_int_equal(sg[2], RAW_K);
    assert_int_equal(sg[4], (uint32_t)host[2]);
    assert_int_equal(sg[5], (uint32_t)(host[2] >> 32)); /* stride 0 kept */
    assert_int_equal(sg[6], RAW_RECORDS);
    assert_int_equal(sg[7], 0x31016facu);

    /* expected, from the ISA: lanes whose offset is below num_records store */
    uint32_t want[RAW_ITEMS];
    for (unsigned i = 0; i < RAW_ITEMS; i++)
        want[i] = i * 4 < RAW_RECORDS ? in[i] * RAW_K + i + RAW_TABLE : RAW_FILL;
    /* the lanes model, the wave model, and auto where lavapipe's subgroup
     * cannot carry the wave (S = 64 asked for: it offers 8): the wave model */
    const char *models[3] = {"lanes", "wave", "auto --subgroup-size 64"};
    unsigned matched = 0, refused = 0;
    for (int m = 0; m < 3; m++) {
        snprintf(cmd, sizeof(cmd), "mkdir -p '%s/o%d' && " LAVAPIPE "'%s' replay '%s' --model %s "
                 "--out-dir '%s/o%d' --runs 1 2>&1", tmp, m, WL_CLI, dir, models[m], tmp, m);
        int rc;
        char *o = run_cmd(cmd, &rc);
        printf("%s", o);
        if (rc == 3 && strstr(o, "refused")) {
            refused++;
            free(o);
            continue;
        }
        if (rc)
            fail_msg("replay --model %s: exit %d", models[m], rc);
        if (m == 2 && !strstr(o, "model: wave (auto: "))
            fail_msg("auto with a subgroup that cannot carry the wave did not pick the wave model");
        free(o);
        char p[700];
        snprintf(p, sizeof(p), "%s/o%d/out.bin", tmp, m);
        size_t n;
        uint32_t *got = (uint32_t *)wlt_read_file(p, &n);
        assert_non_null(got);
        assert_int_equal(n, sizeof(want));
        unsigned bad = 0;
        for (unsigned i = 0; i < RAW_ITEMS; i++)
            if (got[i] != want[i] && bad++ < 4)
                printf("  out[%u] = 0x%08x, expected 0x%08x\n", i, got[i], want[i]);
        free(got);
        if (bad)
            fail_msg("raw capture, %s model: %u of %u words wrong", models[m], bad, RAW_ITEMS);
        matched++;
    }
    printf("raw capture: %u replays (lanes, wave, auto -> wave) match the ISA reference (%u words "
           "each), %u refused by name\n",
           matched, RAW_ITEMS, refused);
    assert_true(matched >= 1);

    /* the same program with the output range read-only: reported */
    wl_capture_free(c);
    c = raw_capture_build(in, 0);
    snprintf(dir, sizeof(dir), "%s/ro.cap", tmp);
    assert_int_equal(wl_capture_write(c, dir, err, sizeof(err)), WL_OK);
    snprintf(cmd, sizeof(cmd), LAVAPIPE "'%s' replay '%s' --model lanes --runs 1 2>&1", WL_CLI, dir);
    int rc;
    char *o = run_cmd(cmd, &rc);
    printf("%s", o);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(o, "read-only range out was written"));
    free(o);
    wl_capture_free(c);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
    free(wlt_run(cmd, NULL));
    free(tmp);
}

/* ---- corrupt and truncated captures ------------------------------------- */

typedef struct mem_blobs {
    const char *dir;
} mem_blobs;

static int blob_from_dir(void *ctx, const char *name, uint64_t max, const uint8_t **data,
                         uint64_t *size, char *err, size_t errcap)
{
    const mem_blobs *m = ctx;
    char p[700];
    snprintf(p, sizeof(p), "%s/%s", m->dir, name);
    size_t n;
    uint8_t *b = wlt_read_file(p, &n);
    if (!b) {
        snprintf(err, errcap, "no file %s", name);
        return -1;
    }
    (void)max;
    *data = b;
    *size = n;
    return 0;
}

static void release_blob(void *ctx, const uint8_t *data)
{
    (void)ctx;
    free((void *)data);
}

/* Parses text with the blobs of dir: WL_OK (then checked) or a refusal
 * with a message; returns the status. */
static wl_status parse_text(const char *text, size_t len, const char *dir, char *err, size_t cap)
{
    mem_blobs m = {dir};
    wl_capture *c = NULL;
    err[0] = '\0';
    wl_status st = wl_capture_parse(text, len, blob_from_dir, release_blob, &m, &c, err, cap);
    if (st == WL_OK) {
        assert_non_null(c);
        assert_int_equal(wl_capture_check(c, err, cap), WL_OK);
        wl_capture_free(c);
    } else {
        assert_null(c);
        assert_true(err[0] != '\0');
    }
    return st;
}

static void corrupt_captures(void **state)
{
    (void)state;
    char *tmp = wlt_tmpdir();
    uint32_t in[RAW_ITEMS];
    wl_capture *c = raw_capture_build(in, 1);
    char dir[600], err[1024], path[700], cmd[2048];
    snprintf(dir, sizeof(dir), "%s/good", tmp);
    assert_int_equal(wl_capture_write(c, dir, err, sizeof(err)), WL_OK);
    wl_capture_free(c);
    snprintf(path, sizeof(path), "%s/manifest.txt", dir);
    size_t mlen;
    char *manifest = (char *)wlt_read_file(path, &mlen);
    assert_non_null(manifest);
    assert_int_equal(parse_text(manifest, mlen, dir, err, sizeof(err)), WL_OK);

    /* every prefix of the manifest */
    unsigned refused = 0, accepted = 0;
    for (size_t n = 0; n < mlen; n++)
        if (parse_text(manifest, n, dir, err, sizeof(err)) == WL_OK)
            accepted++;
        else
            refused++;
    printf("%zu manifest prefixes: %u refused, %u accepted (cut after a complete item)\n", mlen,
           refused, accepted);
    assert_true(refused > mlen / 2);

    /* random mutations of its bytes */
    uint32_t s = 777;
    unsigned mref = 0, macc = 0;
    char *mut = malloc(mlen);
    for (unsigned t = 0; t < 3000; t++) {
        memcpy(mut, manifest, mlen);
        unsigned flips = 1 + xs(&s) % 3;
        for (unsigned f = 0; f < flips; f++) {
            size_t at = xs(&s) % mlen;
            static const char pool[] = "0123456789abcdefx -\n#\0\xff";
            mut[at] = (xs(&s) & 1) ? pool[xs(&s) % (sizeof(pool) - 1)] : (char)xs(&s);
        }
        if (parse_text(mut, mlen, dir, err, sizeof(err)) == WL_OK)
            macc++;
        else
            mref++;
    }
    free(mut);
    printf("3000 mutated manifests: %u refused, %u accepted and checked\n", mref, macc);
    assert_true(mref > 1000);

    /* named malformations: each refused with the message given */
    static const struct {
        const char *from, *to, *msg;
    } bad[] = {
        {"wavelift-capture 1", "wavelift-capture 2", "first line"},
        {"wave 64", "wave 48", "32 or 64"},
        {"wave 64", "wave 64\nwave 64", "given twice"},
        {"local 64 1 1", "local 0 1 1", "at least 1"},
        {"local 64 1 1", "local 2048 1 1", "1024"},
        {"thread-id-vgprs 1", "thread-id-vgprs 4", "1, 2 or 3"},
        {"user-sgprs 8", "user-sgprs 9", "user-sgprs N"},
        {"target gfx1030", "target gfx900", "not a gfx10 target"},
        {"scratch 0", "scratch 0\nfrobnicate 1", "unknown item"},
        {"address u64 sgpr 0", "address u64 sgpr 7", "outside"},
        {"address u64 sgpr 0", "address u64 range nowhere 0", "no such range"},
        {"address u64 sgpr 0", "address u64 range in 1020", "outside"},
        {"address u64 sgpr 0", "address u64 range in 0", "lies in no range"},
        {"address vsharp sgpr 4", "address vsharp sgpr 3", "lies in no range"},
        {"address vsharp sgpr 4", "address u64 sgpr 1", "overlap"},
        {"range in 0x40000000", "range in 0x80000100", "overlaps"},
        {"range in 0x40000000", "range out 0x40000000", "named twice"},
        {"range in 0x40000000", "range i/n 0x40000000", "range name"},
        {"mem.in.bin", "../mem.in.bin", "file name"},
        {"mem.in.bin", "mem.none.bin", "no file"},
        {" 1024 rw ", " 1028 rw ", "truncated"},
        {"code code.bin ", "code code.bin x", "code bytes"},
        {"0x10000000 0x0", "0x10000000 0x2", "entry"},
        {"scratch 0", "scratch 0\nfloat-mode 4 0 3 3 1 1", "float-mode"},
        /* the launch convention (docs/capture.md): s2 holds RAW_K, so RADV's
         * pointer 0xffff8000_00000007 names 0x8000_0000_0007, in no range */
        {"scratch 0", "scratch 0\nlaunch radv 1", "lies in no range"},
        {"scratch 0", "scratch 0\nlaunch radv 0", "1 to 14"},
        {"scratch 0", "scratch 0\nlaunch radv 15", "1 to 14"},
        {"scratch 0", "scratch 0\nlaunch radv 1 0x1ffffffff", "not a 32-bit value"},
        {"scratch 0", "scratch 0\nlaunch radv 7", "takes 9 user SGPRs"},
        {"scratch 0", "scratch 0\nlaunch sideways", "launch radv N"},
        {"scratch 0", "scratch 0\nlaunch amdhsa frob", "unknown item"},
        {"scratch 0", "scratch 0\nlaunch amdhsa kernarg-ptr dispatch-ptr", "SGPR order"},
        {"scratch 0", "scratch 0\nlaunch amdhsa dispatch-ptr queue-ptr", "lies in no range"},
        {"scratch 0", "scratch 0\nlaunch amdhsa dispatch-ptr queue-ptr kernarg-ptr dispatch-id private-segment-size", "takes 9"},
        {"scratch 0", "scratch 0\nlaunch amdhsa\nlaunch radv 1", "given twice"},
    };
    unsigned named = 0;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        const char *at = strstr(manifest, bad[i].from);
        if (!at)
            fail_msg("malformation %zu: '%s' not in the manifest:\n%s", i, bad[i].from, manifest);
        size_t pre = (size_t)(at - manifest), fl = strlen(bad[i].from), tl = strlen(bad[i].to);
        char *m = malloc(mlen + tl + 1);
        memcpy(m, manifest, pre);
        memcpy(m + pre, bad[i].to, tl);
        memcpy(m + pre + tl, at + fl, mlen - pre - fl);
        size_t len = mlen - fl + tl;
        wl_status st = parse_text(m, len, dir, err, sizeof(err));
        printf("  %-30s -> %s\n", bad[i].to, st == WL_OK ? "ACCEPTED" : err);
        if (st == WL_OK || !strstr(err, bad[i].msg))
            fail_msg("'%s' for '%s': expected a refusal naming '%s'", bad[i].to, bad[i].from,
                     bad[i].msg);
        free(m);
        named++;
    }

    /* the launch convention accepted: s[0:1] (the input's address) as
     * AMDHSA's dispatch pointer, and s2 as RADV's 32-bit pointer with a
     * high half of 0 (a range at 0x7: none; so RAW_K's s2 is refused above) */
    {
        const char *at = strstr(manifest, "scratch 0");
        assert_non_null(at);
        static const char add[] = "scratch 0\nlaunch amdhsa dispatch-ptr";
        size_t pre = (size_t)(at - manifest), fl = strlen("scratch 0"), tl = strlen(add);
        char *m = malloc(mlen + tl + 1);
        memcpy(m, manifest, pre);
        memcpy(m + pre, add, tl);
        memcpy(m + pre + tl, at + fl, mlen - pre - fl);
        wl_capture *lc = NULL;
        mem_blobs mb = {dir};
        if (wl_capture_parse(m, mlen - fl + tl, blob_from_dir, release_blob, &mb, &lc, err, sizeof(err)) != WL_OK)
            fail_msg("launch amdhsa dispatch-ptr: %s", err);
        free(m);
        assert_int_equal(lc->launch, WL_CAPTURE_LAUNCH_AMDHSA);
        assert_int_equal(lc->launch_hsa, WL_CAPTURE_HSA_DISPATCH_PTR);
        wl_capture_pointer lp[WL_CAPTURE_MAX_POINTERS];
        assert_int_equal(wl_capture_launch_pointers(lc, lp), 1);
        assert_int_equal(lp[0].sgpr, 0);
        assert_int_equal(lp[0].address, IN_AT);
        /* written and read back: the same convention */
        snprintf(path, sizeof(path), "%s/launch", tmp);
        assert_int_equal(wl_capture_write(lc, path, err, sizeof(err)), WL_OK);
        wl_capture *rc2 = NULL;
        if (wl_capture_read(path, &rc2, err, sizeof(err)) != WL_OK)
            fail_msg("read back: %s", err);
        assert_int_equal(rc2->launch, WL_CAPTURE_LAUNCH_AMDHSA);
        assert_int_equal(rc2->launch_hsa, WL_CAPTURE_HSA_DISPATCH_PTR);
        /* RADV with an explicit high half, built in memory: s2 = in's address */
        rc2->launch = WL_CAPTURE_LAUNCH_RADV;
        rc2->launch_pointers = 1;
        rc2->launch_high = 0;
        rc2->user_sgpr[2] = (uint32_t)IN_AT + 16;
        assert_int_equal(wl_capture_check(rc2, err, sizeof(err)), WL_OK);
        snprintf(path, sizeof(path), "%s/launch2", tmp);
        assert_int_equal(wl_capture_write(rc2, path, err, sizeof(err)), WL_OK);
        wl_capture_free(rc2);
        rc2 = NULL;
        if (wl_capture_read(path, &rc2, err, sizeof(err)) != WL_OK)
            fail_msg("read back: %s", err);
        assert_int_equal(rc2->launch, WL_CAPTURE_LAUNCH_RADV);
        assert_int_equal(rc2->launch_pointers, 1);
        assert_int_equal(rc2->launch_high, 0);
        assert_int_equal(wl_capture_launch_pointers(rc2, lp), 1);
        assert_int_equal(lp[0].address, IN_AT + 16);
        /* the identity replay cannot relocate a 32-bit pointer: by name */
        uint64_t host[3] = {0x7000000000ull, 0x7100000000ull, 0x7200000010ull};
        uint32_t sg[WL_CAPTURE_MAX_USER_SGPRS];
        assert_int_equal(wl_capture_relocate(rc2, host, sg, (uint8_t *const[3]){NULL, NULL, NULL}, err,
                                             sizeof(err)), WL_ERR_UNSUPPORTED);
        assert_non_null(strstr(err, "sgpr 2: a 32-bit pointer"));
        printf("launch amdhsa and radv: parsed, written, read back, relocation refused by name\n");
        wl_capture_free(rc2);
        wl_capture_free(lc);
    }

    /* files: one byte short, one byte flipped, missing; through the CLI */
    static const struct {
        const char *shell, *msg;
    } files[] = {
        {"truncate -s -1 '%s/mem.in.bin'", "truncated"},
        {"printf '\\001' | dd of='%s/mem.in.bin' bs=1 seek=17 conv=notrunc 2>/dev/null", "corrupt"},
        {"printf '\\001' | dd of='%s/code.bin' bs=1 seek=5 conv=notrunc 2>/dev/null", "corrupt"},
        {"rm '%s/mem.out.bin'", "cannot open"},
        {"truncate -s 100 '%s/manifest.txt'", "manifest"},
        {"rm '%s/manifest.txt'", "cannot open"},
    };
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        char d[700], sh[1500];
        snprintf(d, sizeof(d), "%s/bad%zu", tmp, i);
        snprintf(cmd, sizeof(cmd), "cp -r '%s' '%s'", dir, d);
        free(run_cmd(cmd, NULL));
        snprintf(sh, sizeof(sh), files[i].shell, d);
        free(run_cmd(sh, NULL));
        snprintf(cmd, sizeof(cmd), LAVAPIPE "'%s' replay '%s' 2>&1", WL_CLI, d);
        int rc;
        char *o = run_cmd(cmd, &rc);
        printf("  file case %zu -> exit %d: %s", i, rc, o);
        if (rc != 1 || !strstr(o, files[i].msg))
            fail_msg("file case %zu: expected exit 1 naming '%s'", i, files[i].msg);
        free(o);
        named++;
    }
    printf("%u named malformations refused by name\n", named);
    free(manifest);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
    free(wlt_run(cmd, NULL));
    free(tmp);
}

/* ---- the builder's rules ------------------------------------------------- */

static void builder_rules(void **state)
{
    (void)state;
    char err[512];
    uint8_t code[8] = {0, 0, 0x81, 0xbf, 0, 0, 0x81, 0xbf}; /* s_endpgm x2 */
    wl_capture *c = NULL;
    assert_int_equal(wl_capture_create(WL_TARGET_COUNT, NULL, 0, 0, 0, &c, err, sizeof(err)), WL_ERR_USAGE);
    assert_null(c);
    assert_int_equal(wl_capture_create(wl_target_from_name("gfx1030"), code, 8, 0x1000, 0, &c, err,
                                       sizeof(err)), WL_OK);
    assert_int_equal(wl_capture_check(c, err, sizeof(err)), WL_OK);
    assert_int_equal(wl_capture_add_range(c, "a", 0x2000, NULL, 64, 1, err, sizeof(err)), WL_OK);
    assert_int_equal(wl_capture_add_range(c, "b", 0x2020, NULL, 64, 1, err, sizeof(err)), WL_ERR_FORMAT);
    assert_non_null(strstr(err, "overlaps"));
    assert_int_equal(wl_capture_add_range(c, "a", 0x3000, NULL, 64, 1, err, sizeof(err)), WL_ERR_FORMAT);
    assert_int_equal(wl_capture_add_range(c, "", 0x3000, NULL, 64, 1, err, sizeof(err)), WL_ERR_FORMAT);
    assert_int_equal(wl_capture_add_range(c, "z", 0x3000, NULL, 0, 1, err, sizeof(err)), WL_ERR_FORMAT);
    assert_int_equal(wl_capture_add_range(c, "w", UINT64_MAX - 8, NULL, 64, 1, err, sizeof(err)), WL_ERR_FORMAT);
    assert_int_equal(wl_capture_add_field(c, WL_CAPTURE_FIELD_U64, "nope", 0, err, sizeof(err)), WL_ERR_FORMAT);
    /* a field whose value lies in no range breaks the check */
    assert_int_equal(wl_capture_add_field(c, WL_CAPTURE_FIELD_U64, "a", 0, err, sizeof(err)), WL_OK);
    assert_int_equal(wl_capture_check(c, err, sizeof(err)), WL_ERR_FORMAT);
    assert_non_null(strstr(err, "lies in no range"));
    uint64_t v = 0x2040; /* one past the end of a: allowed */
    memcpy(c->ranges[0].data, &v, 8);
    assert_int_equal(wl_capture_check(c, err, sizeof(err)), WL_OK);
    c->entry = 2;
    assert_int_equal(wl_capture_check(c, err, sizeof(err)), WL_ERR_FORMAT);
    c->entry = 0;
    c->user_sgpr_count = 17;
    assert_int_equal(wl_capture_check(c, err, sizeof(err)), WL_ERR_FORMAT);
    c->user_sgpr_count = 2;
    c->private_segment_buffer = 1;
    assert_int_equal(wl_capture_check(c, err, sizeof(err)), WL_ERR_FORMAT);
    c->private_segment_buffer = 0;
    wl_lift_program p;
    assert_int_equal(wl_capture_lift_program(c, &p, err, sizeof(err)), WL_OK);
    assert_ptr_equal(p.code, c->code);
    assert_int_equal(p.address, 0x1000);
    wl_capture_free(c);
    wl_capture_free(NULL);
    printf("builder rules: refusals as documented\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(builder_rules),
        cmocka_unit_test(corrupt_captures),
        cmocka_unit_test(raw_capture),
        cmocka_unit_test(suite_captures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
