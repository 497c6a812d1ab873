/* Straight-line global accesses (docs/memory.md "Device addressing"):
 * hand-written gfx1030 wave64 programs (llvm-mc-19 assembles them) lifted,
 * translated in the lanes model at S = 4, 8, 16 (k = 16, 8, 4: lavapipe's
 * subgroup size is LP_NATIVE_VECTOR_WIDTH / 32, one child process each) and
 * run on lavapipe through the guest mapping; every output word is compared with a
 * reference computed here from the ISA's definition (little-endian bytes of
 * the input at the lane's address, whatever its alignment):
 *   - misaligned: global_load_dword, _dwordx2, _dwordx4 (a span of four
 *     dwords mapped once), _ushort and _ubyte at addresses 4i + (i & 3) +
 *     offset: the words the access covers shifted together;
 *   - masked: lanes 32..63 masked off (s_and_saveexec) with an address far
 *     outside the mapping in their registers: their loads and stores go to
 *     the runtime's sink, no escape, the mapped memory holds exactly what
 *     the active lanes stored;
 *   - misaligned base: dword and dwordx2 loads at s[0:1] + 4i, 8i, 8i + 8
 *     with s[0:1] = the mapping's base + m, m = 0..3, lanes 48..63 masked
 *     off (their words keep the fill);
 *   (the misaligned loads twice: as for a host with byte access, vectors
 *   of bytes, and without it, force_merge_stores: aligned words shifted)
 *   - misaligned stores: global_store_dword and _dwordx2 at odd addresses,
 *     every output byte against the bytes the ISA writes;
 *   - stores at a base misaligned by m = 0..3: the aligned path and the
 *     bytes of llvm-passes/version_align.c's window, every output byte;
 *   - straddle: a dwordx4 load whose last dwords lie past the mapping: the
 *     address escape, naming the span's first address.
 * Counts are printed per child ("3 programs at S = 8, N words, N match")
 * and the parent checks that every child ran and passed. */
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
#define GUEST 0x500000000000ull /* the mapping's guest base */
#define MAPPED 8192u            /* bytes mapped: input 0..4095, output 4096.. */
#define OUT_OFF 4096u
#define TIMEOUT_MS 300000u


/* s[0:1] the input (guest), s[2:3] the output (guest); v0 the lane */
static const char P_MISALIGN[] =
    "v_and_b32 v1, 3, v0\n"
    "v_lshlrev_b32 v2, 2, v0\n"
    "v_add_nc_u32 v2, v2, v1\n" /* 4i + (i & 3) */
    "v_lshlrev_b32 v4, 3, v0\n"
    "v_add_nc_u32 v4, v4, v1\n" /* 8i + (i & 3) */
    "global_load_dword v3, v2, s[0:1]\n"
    "global_load_dwordx2 v[5:6], v4, s[0:1]\n"
    "global_load_ushort v7, v2, s[0:1] offset:1\n"
    "global_load_ubyte v8, v2, s[0:1] offset:2\n"
    "global_load_dwordx4 v[9:12], v4, s[0:1] offset:3\n"
    "s_waitcnt vmcnt(0)\n"
    "v_lshlrev_b32 v13, 6, v0\n" /* 64 bytes a lane */
    "global_store_dword v13, v3, s[2:3]\n"
    "global_store_dwordx2 v13, v[5:6], s[2:3] offset:4\n"
    "global_store_dword v13, v7, s[2:3] offset:12\n"
    "global_store_dword v13, v8, s[2:3] offset:16\n"
    "global_store_dwordx4 v13, v[9:12], s[2:3] offset:20\n"
    "s_endpgm\n";

/* lanes 0..31: out[16 i + 0..3] = in[4 i + 0..3] + 1 (dwordx4); lanes
 * 32..63 masked off with the address 0x0123456789abcdc0 in v[20:21] */
static const char P_MASKED[] =
    "v_lshlrev_b32 v1, 4, v0\n"
    "v_mov_b32 v2, s1\n"
    "v_add_co_u32 v20, vcc, s0, v1\n"
    "v_add_co_ci_u32 v21, vcc, v2, 0, vcc\n"
    "v_lshlrev_b32 v3, 6, v0\n"
    "v_mov_b32 v4, s3\n"
    "v_add_co_u32 v22, vcc, s2, v3\n"
    "v_add_co_ci_u32 v23, vcc, v4, 0, vcc\n"
    "v_cmp_gt_u32 vcc, 32, v0\n"
    "v_cndmask_b32 v20, 0x89abcdc0, v20, vcc\n"
    "v_cndmask_b32 v21, 0x01234567, v21, vcc\n"
    "v_cndmask_b32 v22, 0x89abcdc0, v22, vcc\n"
    "v_cndmask_b32 v23, 0x01234567, v23, vcc\n"
    "s_and_saveexec_b64 s[6:7], vcc\n"
    "global_load_dwordx4 v[8:11], v[20:21], off\n"
    "s_waitcnt vmcnt(0)\n"
    "v_add_nc_u32 v8, 1, v8\n"
    "v_add_nc_u32 v9, 1, v9\n"
    "v_add_nc_u32 v10, 1, v10\n"
    "v_add_nc_u32 v11, 1, v11\n"
    "global_store_dwordx4 v[22:23], v[8:11], off\n"
    "global_store_dword v[22:23], v8, off offset:16\n"
    "s_or_b64 exec, exec, s[6:7]\n"
    "s_endpgm\n";

/* a base s[0:1] misaligned by m (the same for every lane), lane offsets
 * multiples of 4 (the helpers' .ax variant: the shift from the base);
 * lanes 48..63 masked off (their loads read the sink) */
static const char P_BASEMIS[] =
    "v_lshlrev_b32 v2, 2, v0\n"
    "v_lshlrev_b32 v4, 3, v0\n"
    "v_lshlrev_b32 v13, 6, v0\n"
    "v_cmp_gt_u32 vcc, 48, v0\n"
    "s_and_saveexec_b64 s[6:7], vcc\n"
    "global_load_dword v3, v2, s[0:1]\n"
    "global_load_dwordx2 v[5:6], v4, s[0:1]\n"
    "global_load_dword v7, v4, s[0:1] offset:8\n"
    "s_waitcnt vmcnt(0)\n"
    "global_store_dword v13, v3, s[2:3]\n"
    "global_store_dwordx2 v13, v[5:6], s[2:3] offset:4\n"
    "global_store_dword v13, v7, s[2:3] offset:12\n"
    "s_or_b64 exec, exec, s[6:7]\n"
    "s_endpgm\n";

/* misaligned stores (the hardware writes the bytes at any address): lane
 * i stores its loaded dword in[4i] at out + 5i + 1 + (i & 1) and the pair
 * in[8i], in[8i + 4] at out + 1024 + 9i + 3: no two lanes' bytes overlap,
 * the bytes between them keep the fill */
static const char P_MISSTORE[] =
    "v_lshlrev_b32 v1, 2, v0\n"
    "v_lshlrev_b32 v2, 3, v0\n"
    "global_load_dword v3, v1, s[0:1]\n"
    "global_load_dwordx2 v[4:5], v2, s[0:1]\n"
    "v_mul_u32_u24 v6, 5, v0\n"
    "v_and_b32 v7, 1, v0\n"
    "v_add3_u32 v6, v6, v7, 1\n"
    "v_mul_u32_u24 v8, 9, v0\n"
    "v_add_nc_u32 v8, 0x403, v8\n"
    "s_waitcnt vmcnt(0)\n"
    "global_store_dword v6, v3, s[2:3]\n"
    "global_store_dwordx2 v8, v[4:5], s[2:3]\n"
    "s_endpgm\n";

/* stores at a base s[2:3] misaligned by m (the same for every lane): lane
 * i writes in[4i], the pair in[8i] and in[4i] again to out + m + 32i,
 * + 4 and + 12. The stores are one window of llvm-passes/version_align.c:
 * m = 0 takes its aligned path, m = 1..3 the bytes */
static const char P_STOREBASE[] =
    "v_lshlrev_b32 v1, 2, v0\n"
    "v_lshlrev_b32 v2, 3, v0\n"
    "v_lshlrev_b32 v13, 5, v0\n"
    "global_load_dword v3, v1, s[0:1]\n"
    "global_load_dwordx2 v[4:5], v2, s[0:1]\n"
    "s_waitcnt vmcnt(0)\n"
    "global_store_dword v13, v3, s[2:3]\n"
    "global_store_dwordx2 v13, v[4:5], s[2:3] offset:4\n"
    "global_store_dword v13, v3, s[2:3] offset:12\n"
    "s_endpgm\n";

/* every lane: a dwordx4 load at s[0:1] (MAPPED - 8 bytes into the
 * mapping: its last two dwords are outside), stored to the output */
static const char P_STRADDLE[] =
    "v_mov_b32 v1, 0\n"
    "global_load_dwordx4 v[2:5], v1, s[0:1]\n"
    "s_waitcnt vmcnt(0)\n"
    "v_lshlrev_b32 v6, 4, v0\n"
    "global_store_dwordx4 v6, v[2:5], s[2:3]\n"
    "s_endpgm\n";

static uint8_t in_byte(uint32_t k)
{
    return (uint8_t)(k * 7u + 3u + (k >> 8) * 13u);
}

static uint32_t in_le(uint32_t off, unsigned n)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint32_t)in_byte(off + i) << (8 * i);
    return v;
}

/* 1: translate as for a host without storageBuffer8BitAccess (the
 * misaligned loads read aligned words and shift them together) */
static int merge_stores;

static int compile(const char *text, unsigned S, uint32_t **words, size_t *nw, wl_translate_info *info)
{
    size_t size = 0;
    uint8_t *code = wlt_assemble(text, "gfx1030", 64, &size, NULL);
    assert_non_null(code);
    wl_lift_program p;
    wlt_program64(&p, code, size, 4);
    wl_translate_options o;
    wlt_options64(&o, WL_MODEL_LANES, S);
    o.force_merge_stores = merge_stores; /* a host without byte access: loads by words, shifted */
    char err[1024] = "";
    wl_status st = wl_translate(&p, &o, words, nw, info, err, sizeof err);
    free(code);
    if (st != WL_OK)
        fail_msg("translate at S = %u: %s", S, err);
    return 0;
}

/* one group of 64; returns the escape status; mem's mapped bytes after */
static wl_rt_status run(wl_rt *rt, const char *text, unsigned S, wl_rt_buffer *mem, uint64_t s01, uint64_t s23,
                        wl_rt_escape *esc, uint8_t *after)
{
    uint32_t *words = NULL;
    size_t nw = 0;
    wl_translate_info info;
    compile(text, S, &words, &nw, &info);
    uint8_t init[MAPPED];
    for (uint32_t k = 0; k < MAPPED; k++)
        init[k] = k < OUT_OFF ? in_byte(k) : 0xee;
    assert_int_equal(wl_rt_buffer_upload(rt, mem, 0, init, MAPPED), WL_RT_OK);
    wl_rt_buffer *status = NULL;
    assert_int_equal(wl_rt_buffer_create(rt, WL_RT_STATUS_BYTES, &status), WL_RT_OK);
    wl_rt_pipeline *pipe = wlt_pipeline(rt, words, nw, S);
    uint8_t push[WL_PUSH_BYTES];
    wlt_push_mapped(push, s01, s23, GUEST, MAPPED, mem);
    wl_rt_dispatch_desc d = {.groups = {1, 1, 1}, .push_constants = push, .push_constant_size = sizeof push,
                             .runs = 1};
    d.bindings[WL_RT_BINDING_STATUS] = status;
    if (wl_rt_dispatch(rt, pipe, &d, NULL) != WL_RT_OK)
        fail_msg("dispatch: %s", wl_rt_error(rt));
    wl_rt_status st = wl_rt_escape_check(rt, status, esc);
    assert_int_equal(wl_rt_buffer_download(rt, mem, 0, after, MAPPED), WL_RT_OK);
    wl_rt_pipeline_destroy(rt, pipe);
    wl_rt_buffer_destroy(rt, status);
    free(words);
    return st;
}

static uint32_t word_at(const uint8_t *m, uint32_t off)
{
    uint32_t v;
    memcpy(&v, m + off, 4);
    return v;
}

static unsigned child_S;

static void test_gmem(void **state)
{
    (void)state;
    wl_rt *rt = wlt_rt(TIMEOUT_MS);
    wl_rt_buffer *mem = NULL;
    assert_int_equal(wl_rt_buffer_create(rt, MAPPED, &mem), WL_RT_OK);
    static uint8_t after[MAPPED];
    unsigned programs = 0, words = 0, match = 0;
    {
        unsigned S = child_S;
        wl_rt_escape esc;
        wl_rt_status st;
        /* misaligned loads, with byte access (vectors of bytes) and without (words shifted) */
        for (merge_stores = 1; merge_stores >= 0; merge_stores--) {
        st = run(rt, P_MISALIGN, S, mem, GUEST, GUEST + OUT_OFF, &esc, after);
        if (st != WL_RT_OK)
            fail_msg("misaligned, S = %u: %s", S, wl_rt_error(rt));
        for (uint32_t i = 0; i < 64; i++) {
            uint32_t a = 4 * i + (i & 3), b = 8 * i + (i & 3);
            uint32_t want[9] = {in_le(a, 4),     in_le(b, 4),     in_le(b + 4, 4),  in_le(a + 1, 2),
                                in_le(a + 2, 1), in_le(b + 3, 4), in_le(b + 7, 4), in_le(b + 11, 4),
                                in_le(b + 15, 4)};
            for (uint32_t w = 0; w < 9; w++) {
                uint32_t got = word_at(after, OUT_OFF + 64 * i + 4 * w);
                words++;
                if (got == want[w])
                    match++;
                else
                    print_message("misaligned S = %u lane %u word %u (merge_stores %d): 0x%08x, want 0x%08x\n", S,
                                  i, w, merge_stores, got, want[w]);
            }
        }
        }
        merge_stores = 0;
        /* masked */
        st = run(rt, P_MASKED, S, mem, GUEST, GUEST + OUT_OFF, &esc, after);
        if (st != WL_RT_OK)
            fail_msg("masked, S = %u: want no escape, got: %s", S, wl_rt_error(rt));
        for (uint32_t k = 0; k < MAPPED; k += 4) {
            uint32_t want;
            if (k < OUT_OFF)
                want = in_le(k, 4);
            else {
                uint32_t o = k - OUT_OFF, i = o / 64, w = o % 64 / 4;
                want = 0xeeeeeeeeu;
                if (i < 32 && w < 4)
                    want = in_le(16 * i + 4 * w, 4) + 1;
                else if (i < 32 && w == 4)
                    want = in_le(16 * i, 4) + 1;
            }
            words++;
            if (word_at(after, k) == want)
                match++;
            else
                print_message("masked S = %u byte %u: 0x%08x, want 0x%08x\n", S, k, word_at(after, k), want);
        }
        /* a misaligned base, with byte access and without */
        for (uint32_t m = 0; m < 8; m++) {
            merge_stores = m >= 4;
            st = run(rt, P_BASEMIS, S, mem, GUEST + m % 4, GUEST + OUT_OFF, &esc, after);
            if (st != WL_RT_OK)
                fail_msg("misaligned base %u, S = %u: %s", m, S, wl_rt_error(rt));
            for (uint32_t i = 0; i < 64; i++) {
                uint32_t b0 = m % 4;
                uint32_t want[4] = {in_le(b0 + 4 * i, 4), in_le(b0 + 8 * i, 4), in_le(b0 + 8 * i + 4, 4),
                                    in_le(b0 + 8 * i + 8, 4)};
                for (uint32_t w = 0; w < 4; w++) {
                    uint32_t got = word_at(after, OUT_OFF + 64 * i + 4 * w);
                    uint32_t wv = i < 48 ? want[w] : 0xeeeeeeeeu;
                    words++;
                    if (got == wv)
                        match++;
                    else
                        print_message("misaligned base %u S = %u lane %u word %u: 0x%08x, want 0x%08x\n", m, S, i,
                                      w, got, wv);
                }
            }
        }
        /* misaligned stores: every output byte against the ISA's bytes */
        st = run(rt, P_MISSTORE, S, mem, GUEST, GUEST + OUT_OFF, &esc, after);
        if (st != WL_RT_OK)
            fail_msg("misaligned stores, S = %u: %s", S, wl_rt_error(rt));
        {
            uint8_t want[MAPPED - OUT_OFF];
            memset(want, 0xee, sizeof want);
            for (uint32_t i = 0; i < 64; i++) {
                uint32_t a = 5 * i + 1 + (i & 1), b = 1024 + 9 * i + 3;
                for (uint32_t j = 0; j < 4; j++)
                    want[a + j] = in_byte(4 * i + j);
                for (uint32_t j = 0; j < 8; j++)
                    want[b + j] = in_byte(8 * i + j);
            }
            for (uint32_t k = 0; k < sizeof want; k++) {
                words++;
                if (after[OUT_OFF + k] == want[k])
                    match++;
                else
                    print_message("misaligned stores S = %u byte %u: 0x%02x, want 0x%02x\n", S, k,
                                  after[OUT_OFF + k], want[k]);
            }
        }
        /* stores at a misaligned base: every output byte */
        for (uint32_t m = 0; m < 4; m++) {
            st = run(rt, P_STOREBASE, S, mem, GUEST, GUEST + OUT_OFF + m, &esc, after);
            if (st != WL_RT_OK)
                fail_msg("stores at base + %u, S = %u: %s", m, S, wl_rt_error(rt));
            uint8_t want[MAPPED - OUT_OFF];
            memset(want, 0xee, sizeof want);
            for (uint32_t i = 0; i < 64; i++)
                for (uint32_t j = 0; j < 4; j++) {
                    want[m + 32 * i + j] = in_byte(4 * i + j);
                    want[m + 32 * i + 4 + j] = in_byte(8 * i + j);
                    want[m + 32 * i + 8 + j] = in_byte(8 * i + 4 + j);
                    want[m + 32 * i + 12 + j] = in_byte(4 * i + j);
                }
            for (uint32_t k = 0; k < sizeof want; k++) {
                words++;
                if (after[OUT_OFF + k] == want[k])
                    match++;
                else
                    print_message("stores at base + %u S = %u byte %u: 0x%02x, want 0x%02x\n", m, S, k,
                                  after[OUT_OFF + k], want[k]);
            }
        }
        /* straddle */
        st = run(rt, P_STRADDLE, S, mem, GUEST + MAPPED - 8, GUEST + OUT_OFF, &esc, after);
        words++;
        if (st == WL_RT_ERR_ESCAPE && esc.kind == WL_ESC_ADDRESS && esc.address == GUEST + MAPPED - 8)
            match++;
        else
            print_message("straddle S = %u: want the address escape at 0x%llx, got status %d kind %u address "
                          "0x%llx: %s\n",
                          S, (unsigned long long)(GUEST + MAPPED - 8), (int)st, esc.kind,
                          (unsigned long long)esc.address, wl_rt_error(rt));
        programs = 8; /* misaligned and misaligned base both ways */
    }
    print_message("%u programs at S = %u, %u words, %u match\n", programs, child_S, words, match);
    assert_int_equal(match, words);
    assert_true(words > 64 * 9 + MAPPED / 4 + 4 * 64 * 4 + 5 * (MAPPED - OUT_OFF));
    wl_rt_destroy(rt);
}

/* the parent: one child per subgroup size */
static void test_widths(void **state)
{
    (void)state;
    static const int widths[] = {128, 256, 512};
    unsigned passed = 0;
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        char args[32];
        snprintf(args, sizeof args, "--child %d", widths[i] / 32);
        int st = wlt_run_self_at_width(widths[i], args);
        if (st == 0)
            passed++;
        else
            print_message("child at S = %d: exit %d\n", widths[i] / 32, st);
    }
    print_message("%u of 3 subgroup sizes pass\n", passed);
    assert_int_equal(passed, 3);
}

int main(int argc, char **argv)
{
    setenv("VK_ICD_FILENAMES", LVP_ICD, 1);
    if (argc >= 3 && !strcmp(argv[1], "--child")) {
        child_S = (unsigned)atoi(argv[2]);
        const struct CMUnitTest tests[] = {cmocka_unit_test(test_gmem)};
        return cmocka_run_group_tests(tests, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_widths)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
