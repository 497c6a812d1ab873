/* The image descriptors of gfx10.3 (wavelift/image.h; runtime/guest/
 * tsharp.c, img_format.c; docs/images.md).
 *
 * 1. Known T#s and S#s: words written here by hand from the layout (the
 *    sums are in the comments), as RADV 22.3 and ROCr write them, decoded
 *    and checked field by field against values written by hand; the
 *    buffer descriptor of /work/shared/radv-abi.md refused as a T#.
 * 2. Refusals: each one by its word, field and value in the message.
 * 3. The format table: entries written by hand (name, sizes, kind, flags,
 *    Vulkan format), the reserved values, 159 formats in all each at its
 *    value, and every plain format's size and components read from its name.
 * 4. Round trips: 200,000 random descriptors (seeded) over every field's
 *    range, encoded and decoded back equal field by field, with the derived
 *    fields against a model; the fixed-point rounding and clamping.
 * 5. Random words: 300,000 T#s and 300,000 S#s (seeded, some biased to be
 *    valid) never crash and either decode or are refused with a message
 *    naming the word; every one that decodes encodes back to the same bits
 *    in every field (the masks below, from the layout by hand). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan_core.h>

#include "wavelift/image.h"

static uint64_t rng_state;

static uint64_t rnd(void)
{
    /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

static uint32_t rnd_below(uint32_t n)
{
    return (uint32_t)(rnd() >> 32) % n;
}

static void check_refused(wl_status st, const char *err, const char *want)
{
    if (st != WL_ERR_UNSUPPORTED || !strstr(err, want))
        fail_msg("expected a refusal naming \"%s\", got status %d: \"%s\"", want, (int)st, err);
}

/* ---- 1. known descriptors ------------------------------------------------- */

/* RADV 22.3 (gfx10_make_texture_descriptor): a 2D VK_FORMAT_R8G8B8A8_UNORM
 * image, 256 x 128, linear, one level, at 0x8000_1234_5600.
 *   w0 = (0x800012345600 >> 8) & 0xffffffff          = 0x00123456
 *   w1 = 0x80 (address 47:40) | 56 << 20 (FORMAT)
 *        | (255 & 3) << 30 (WIDTH_LO)                 = 0xC3800080
 *   w2 = 255 >> 2 (WIDTH_HI) | 127 << 14 | 1 << 31   = 0x801FC03F
 *   w3 = X|Y|Z|W (4 | 5<<3 | 6<<6 | 7<<9 = 0xFAC) | 9 << 28 = 0x90000FAC
 *   w5 = PERF_MOD 4 << 20                             = 0x00400000 */
static const uint32_t radv_rgba8[8] = {0x00123456, 0xC3800080, 0x801FC03F, 0x90000FAC, 0, 0x00400000, 0, 0};

static void test_known_tsharps(void **state)
{
    (void)state;
    wl_tsharp t;
    char err[256] = "";

    assert_int_equal(wl_tsharp_decode(radv_rgba8, &t, err, sizeof err), WL_OK);
    assert_true(t.base_address == 0x800012345600ull);
    assert_true(t.min_lod == 0.0f);
    assert_int_equal(t.format, 56);
    assert_int_equal(t.width, 256);
    assert_int_equal(t.height, 128);
    assert_int_equal(t.dst_sel[0], WL_SEL_X);
    assert_int_equal(t.dst_sel[1], WL_SEL_Y);
    assert_int_equal(t.dst_sel[2], WL_SEL_Z);
    assert_int_equal(t.dst_sel[3], WL_SEL_W);
    assert_int_equal(t.base_level, 0);
    assert_int_equal(t.last_level, 0);
    assert_int_equal(t.sw_mode, WL_SW_LINEAR);
    assert_int_equal(t.type, WL_IMG_2D);
    assert_int_equal(t.depth, 1);
    assert_int_equal(t.pitch, 1); /* DEPTH/PITCH 0: RADV 22.3 leaves it so */
    assert_int_equal(t.base_array, 0);
    assert_int_equal(t.last_array, 0);
    assert_int_equal(t.max_mip, 0);
    assert_int_equal(t.perf_mod, 4);
    assert_int_equal(t.compression_en, 0);
    assert_int_equal(t.samples, 1);
    assert_int_equal(t.layers, 1);
    assert_int_equal(t.bytes_per_texel, 4);
    assert_int_equal(t.row_pitch, 256); /* 256 rounded up to 256 bytes / 4 = 64 texels */

    /* the same with DCC: metadata at 0x12_3456_7800
     *   w6 = MAX_UNCOMPRESSED_BLOCK_SIZE 2 << 15 (0x10000) | MAX_COMPRESSED 1 << 17
     *        (0x20000) | META_PIPE_ALIGNED 1 << 19 | COMPRESSION_EN 1 << 21
     *        | 0x78 << 24 (metadata bits 15:8)          = 0x782B0000
     *   w7 = metadata bits 47:16                         = 0x00123456 */
    uint32_t dcc[8];
    memcpy(dcc, radv_rgba8, sizeof dcc);
    dcc[6] = 0x782B0000;
    dcc[7] = 0x00123456;
    assert_int_equal(wl_tsharp_decode(dcc, &t, err, sizeof err), WL_OK);
    assert_int_equal(t.compression_en, 1);
    assert_int_equal(t.meta_pipe_aligned, 1);
    assert_int_equal(t.max_uncompressed_block_size, 2);
    assert_int_equal(t.max_compressed_block_size, 1);
    assert_int_equal(t.write_compress_enable, 0);
    assert_true(t.meta_address == 0x1234567800ull);

    /* ROCr (image_manager_nv.cpp) on gfx1030: a 2D CL_R CL_FLOAT image,
     * 100 x 50, linear, at 0x7F00_0000_1000, pitch 128 written in word 4.
     *   w0 = 0x7F0000001000 >> 8 & 0xffffffff           = 0x00000010
     *   w1 = 0x7F | 22 << 20 | (99 & 3) << 30           = 0xC160007F
     *   w2 = 99 >> 2 (24) | 49 << 14 (0xC4000) | 1 << 31 = 0x800C4018
     *   w3 = X,0,0,1 (4 | 1 << 9 = 0x204) | BC_SWIZZLE XWYZ 1 << 25 | 9 << 28
     *                                                     = 0x92000204
     *   w4 = PITCH 127                                    = 0x0000007F */
    const uint32_t rocr_r32f[8] = {0x00000010, 0xC160007F, 0x800C4018, 0x92000204, 0x7F, 0, 0, 0};
    assert_int_equal(wl_tsharp_decode(rocr_r32f, &t, err, sizeof err), WL_OK);
    assert_true(t.base_address == 0x7F0000001000ull);
    assert_int_equal(t.format, 22);
    assert_int_equal(t.width, 100);
    assert_int_equal(t.height, 50);
    assert_int_equal(t.dst_sel[0], WL_SEL_X);
    assert_int_equal(t.dst_sel[1], WL_SEL_0);
    assert_int_equal(t.dst_sel[2], WL_SEL_0);
    assert_int_equal(t.dst_sel[3], WL_SEL_1);
    assert_int_equal(t.bc_swizzle, 1);
    assert_int_equal(t.pitch, 128);
    assert_int_equal(t.row_pitch, 128);
    assert_int_equal(t.bytes_per_texel, 4);

    /* gfx10.3's pitch above 8192 (bit 13 set): 2D 8_UNORM, 8000 x 4,
     * pitch 9000 (PITCH 8999 = 0x2327).
     *   w1 = 1 << 20 | (7999 & 3) << 30                  = 0xC0100000
     *   w2 = 7999 >> 2 (0x7CF) | 3 << 14 (0xC000) | 1 << 31 = 0x8000C7CF */
    uint32_t pitched[8] = {0, 0xC0100000, 0x8000C7CF, 0x90000204, 0x2327, 0, 0, 0};
    assert_int_equal(wl_tsharp_decode(pitched, &t, err, sizeof err), WL_OK);
    assert_int_equal(t.width, 8000);
    assert_int_equal(t.height, 4);
    assert_int_equal(t.pitch, 9000);
    assert_int_equal(t.row_pitch, 9000);
    assert_int_equal(t.bytes_per_texel, 1);
    /* no pitch (RADV 22.3): 8000 rounded up to 256 */
    pitched[4] = 0;
    assert_int_equal(wl_tsharp_decode(pitched, &t, err, sizeof err), WL_OK);
    assert_int_equal(t.pitch, 1);
    assert_int_equal(t.row_pitch, 8192);
    /* a pitch equal to the width is not above it: the default again */
    pitched[4] = 7999;
    assert_int_equal(wl_tsharp_decode(pitched, &t, err, sizeof err), WL_OK);
    assert_int_equal(t.pitch, 8000);
    assert_int_equal(t.row_pitch, 8192);

    /* 3D 16_16_16_16_FLOAT, 64 x 32 x 16, 64KB_R_X, 7 levels, at 0x1234_0000
     * with pipe/bank xor 5 in the address's low bits.
     *   w0 = 0x12340000 >> 8 | 5                          = 0x00123405
     *   w1 = 71 << 20 (0x04700000) | 3 << 30              = 0xC4700000
     *   w2 = 63 >> 2 (0xF) | 31 << 14 (0x7C000) | 1 << 31 = 0x8007C00F
     *   w3 = 0xFAC | LAST_LEVEL 6 << 16 | SW_MODE 27 << 20 | 10 << 28
     *                                                     = 0xA1B60FAC
     *   w4 = DEPTH 15;  w5 = MAX_MIP 6 << 4 | PERF_MOD 4 << 20 = 0x00400060 */
    const uint32_t vol[8] = {0x00123405, 0xC4700000, 0x8007C00F, 0xA1B60FAC, 15, 0x00400060, 0, 0};
    assert_int_equal(wl_tsharp_decode(vol, &t, err, sizeof err), WL_OK);
    assert_true(t.base_address == 0x12340500ull);
    assert_int_equal(t.type, WL_IMG_3D);
    assert_int_equal(t.width, 64);
    assert_int_equal(t.height, 32);
    assert_int_equal(t.depth, 16);
    assert_int_equal(t.pitch, 0);
    assert_int_equal(t.last_array, 0);
    assert_int_equal(t.layers, 1);
    assert_int_equal(t.sw_mode, WL_SW_64KB_R_X);
    assert_int_equal(t.last_level, 6);
    assert_int_equal(t.max_mip, 6);
    assert_int_equal(t.bytes_per_texel, 8);
    assert_int_equal(t.row_pitch, 0); /* not linear */

    /* 2D_ARRAY BC1_SRGB, 256 x 256, layers 2..5, levels 1..3 of 9, MIN_LOD 1.5,
     * 64KB_S_X, at 0xAB_CD00_0000.
     *   w0 = 0xABCD000000 >> 8                             = 0xABCD0000
     *   w1 = MIN_LOD 384 << 8 (0x18000) | 170 << 20 (0x0AA00000) | 3 << 30
     *                                                      = 0xCAA18000
     *   w2 = 0x3F | 255 << 14 (0x3FC000) | 1 << 31         = 0x803FC03F
     *   w3 = 0xFAC | 1 << 12 | 3 << 16 | 25 << 20 | 13 << 28 = 0xD1931FAC
     *   w4 = DEPTH 5 | BASE_ARRAY 2 << 16                  = 0x00020005
     *   w5 = MAX_MIP 8 << 4 | 4 << 20                      = 0x00400080 */
    const uint32_t bc1[8] = {0xABCD0000, 0xCAA18000, 0x803FC03F, 0xD1931FAC, 0x00020005, 0x00400080, 0, 0};
    assert_int_equal(wl_tsharp_decode(bc1, &t, err, sizeof err), WL_OK);
    assert_true(t.base_address == 0xABCD000000ull);
    assert_int_equal(t.format, 170);
    assert_true(t.min_lod == 1.5f);
    assert_int_equal(t.type, WL_IMG_2D_ARRAY);
    assert_int_equal(t.base_level, 1);
    assert_int_equal(t.last_level, 3);
    assert_int_equal(t.max_mip, 8);
    assert_int_equal(t.base_array, 2);
    assert_int_equal(t.last_array, 5);
    assert_int_equal(t.layers, 6);
    assert_int_equal(t.depth, 1);
    assert_int_equal(t.pitch, 0);
    assert_int_equal(t.bytes_per_texel, 0);
    assert_int_equal(t.row_pitch, 0);

    /* 2D_MSAA, 4 samples, 8_8_8_8_UINT, 64 x 64, 64KB_Z_X, at 0x100_0000.
     *   w1 = 60 << 20 | 3 << 30 = 0xC3C00000;  w2 = 0xF | 63 << 14 | 1 << 31 = 0x800FC00F
     *   w3 = 0xFAC | LAST_LEVEL 2 << 16 | 24 << 20 | 14 << 28 = 0xE1820FAC
     *   w5 = MAX_MIP 2 << 4 | 4 << 20 = 0x00400020 */
    const uint32_t msaa[8] = {0x00010000, 0xC3C00000, 0x800FC00F, 0xE1820FAC, 0, 0x00400020, 0, 0};
    assert_int_equal(wl_tsharp_decode(msaa, &t, err, sizeof err), WL_OK);
    assert_int_equal(t.type, WL_IMG_2D_MSAA);
    assert_int_equal(t.samples, 4);
    assert_int_equal(t.pitch, 1);
    assert_int_equal(t.row_pitch, 0);
    assert_int_equal(t.width, 64);
    assert_int_equal(t.height, 64);
    /* 2D_MSAA has gfx10.3's 14-bit PITCH too (ROCr writes it for 2D_MSAA) */
    uint32_t msaa_pitch[8];
    memcpy(msaa_pitch, msaa, sizeof msaa_pitch);
    msaa_pitch[4] = 0x3FFF;
    assert_int_equal(wl_tsharp_decode(msaa_pitch, &t, err, sizeof err), WL_OK);
    assert_int_equal(t.pitch, 16384);
    assert_int_equal(t.row_pitch, 0);

    /* a cube: 6 faces, 2D view of the faces 0..5 (RADV: DEPTH is the last face)
     *   w3 = 0xFAC | 11 << 28 = 0xB0000FAC;  w4 = 5 */
    uint32_t cube[8];
    memcpy(cube, radv_rgba8, sizeof cube);
    cube[3] = 0xB0000FAC;
    cube[4] = 5;
    assert_int_equal(wl_tsharp_decode(cube, &t, err, sizeof err), WL_OK);
    assert_int_equal(t.type, WL_IMG_CUBE);
    assert_int_equal(t.last_array, 5);
    assert_int_equal(t.layers, 6);
    assert_int_equal(t.pitch, 0);

    /* the VAR swizzle modes exist on gfx10.3 (RB+): SW_MODE 31 = 0x01F00000 */
    uint32_t var[8];
    memcpy(var, radv_rgba8, sizeof var);
    var[3] = 0x91F00FAC;
    assert_int_equal(wl_tsharp_decode(var, &t, err, sizeof err), WL_OK);
    assert_int_equal(t.sw_mode, WL_SW_VAR_R_X);
    assert_int_equal(t.row_pitch, 0);
}

/* ---- 2. refusals ---------------------------------------------------------- */

static void refuse_t(const uint32_t w[8], const char *want)
{
    wl_tsharp t;
    char err[256] = "";
    check_refused(wl_tsharp_decode(w, &t, err, sizeof err), err, want);
}

/* radv_rgba8 with word i replaced by v (and word j by u where j < 8) */
static void refuse_t2(unsigned i, uint32_t v, unsigned j, uint32_t u, const char *want)
{
    uint32_t w[8];
    memcpy(w, radv_rgba8, sizeof w);
    w[i] = v;
    if (j < 8)
        w[j] = u;
    refuse_t(w, want);
}

static void test_refusals(void **state)
{
    (void)state;
    /* the storage-buffer V# of radv-abi.md ("Descriptor memory") as a T#:
     * word 3 0x31016FAC has TYPE 3 */
    const uint32_t vsharp[8] = {0x10001020, 0x00008000, 0x00000100, 0x31016FAC, 0, 0, 0, 0};
    refuse_t(vsharp, "T# word 3 TYPE 3:");
    refuse_t2(3, 0x00000FAC, 8, 0, "T# word 3 TYPE 0:");
    refuse_t2(3, 0x70000FAC, 8, 0, "T# word 3 TYPE 7:");
    refuse_t2(2, 0x001FC03F, 8, 0, "T# word 2 RESOURCE_LEVEL 0:");
    /* w1 = 0x80 | FORMAT << 20 | 3 << 30 */
    refuse_t2(1, 0xC0000080, 8, 0, "T# word 1 FORMAT 0: INVALID");
    refuse_t2(1, 0xC4E00080, 8, 0, "T# word 1 FORMAT 78:");
    refuse_t2(1, 0xC7F00080, 8, 0, "T# word 1 FORMAT 127:");
    refuse_t2(1, 0xC9B00080, 8, 0, "T# word 1 FORMAT 155:");
    refuse_t2(1, 0xCB700080, 8, 0, "T# word 1 FORMAT 183:");
    refuse_t2(1, 0xD0800080, 8, 0, "T# word 1 FORMAT 264:");
    refuse_t2(1, 0xD2500080, 8, 0, "T# word 1 FORMAT 293:");
    refuse_t2(1, 0xDFF00080, 8, 0, "T# word 1 FORMAT 511:");
    refuse_t2(1, 0xC4800080, 8, 0, "T# word 1 FORMAT 72: a buffer format");
    refuse_t2(1, 0xC4A00080, 8, 0, "T# word 1 FORMAT 74: a buffer format");
    /* DST_SEL_Y 2: 0xFAC - 5 << 3 + 2 << 3 = 0xF94; DST_SEL_W 3: 0xFAC - 7 << 9 + 3 << 9 = 0x7AC */
    refuse_t2(3, 0x90000F94, 8, 0, "T# word 3 DST_SEL_Y 2:");
    refuse_t2(3, 0x900007AC, 8, 0, "T# word 3 DST_SEL_W 3:");
    /* SW_MODE 3, 4, 8, 12, 16, 20, 30: n << 20 */
    refuse_t2(3, 0x90300FAC, 8, 0, "T# word 3 SW_MODE 3:");
    refuse_t2(3, 0x90400FAC, 8, 0, "T# word 3 SW_MODE 4:");
    refuse_t2(3, 0x90800FAC, 8, 0, "T# word 3 SW_MODE 8:");
    refuse_t2(3, 0x90C00FAC, 8, 0, "T# word 3 SW_MODE 12:");
    refuse_t2(3, 0x91000FAC, 8, 0, "T# word 3 SW_MODE 16:");
    refuse_t2(3, 0x91400FAC, 8, 0, "T# word 3 SW_MODE 20:");
    refuse_t2(3, 0x91E00FAC, 8, 0, "T# word 3 SW_MODE 30:");
    /* BC_SWIZZLE 6: 6 << 25 = 0x0C000000 */
    refuse_t2(3, 0x9C000FAC, 8, 0, "T# word 3 BC_SWIZZLE 6:");
    /* BASE_LEVEL 2, LAST_LEVEL 1 (2 << 12 | 1 << 16), MAX_MIP 3 */
    refuse_t2(3, 0x90012FAC, 5, 0x00400030, "T# word 3 BASE_LEVEL 2: above LAST_LEVEL");
    /* LAST_LEVEL 3, MAX_MIP 2 */
    refuse_t2(3, 0x90030FAC, 5, 0x00400020, "T# word 3 LAST_LEVEL 3: above word 5's MAX_MIP");
    /* MSAA, 8 samples (LAST_LEVEL 3) with MAX_MIP 2 */
    refuse_t2(3, 0xE0030FAC, 5, 0x00400020, "T# word 3 LAST_LEVEL 3:");
    /* 2D_ARRAY with BASE_ARRAY 4, DEPTH 3 */
    refuse_t2(3, 0xD0000FAC, 4, 0x00040003, "T# word 4 BASE_ARRAY 4: above the last layer");

    /* what is not refused: MSAA ignores BASE_LEVEL against LAST_LEVEL
     * (BASE_LEVEL 1, LAST_LEVEL 0); bits no field names */
    uint32_t w[8];
    wl_tsharp t;
    memcpy(w, radv_rgba8, sizeof w);
    w[3] = 0xE0001FAC;
    assert_int_equal(wl_tsharp_decode(w, &t, NULL, 0), WL_OK);
    memcpy(w, radv_rgba8, sizeof w);
    w[1] |= 1u << 29;
    w[2] |= 0x3u << 12 | 0x7u << 28;
    w[4] |= 0x3u << 14 | 0x7u << 29;
    w[5] |= 1u << 24 | 0xFu << 27;
    w[6] |= 0xFu << 11;
    assert_int_equal(wl_tsharp_decode(w, &t, NULL, 0), WL_OK);
    assert_int_equal(t.width, 256);
    assert_int_equal(t.height, 128);

    /* usage */
    char err[64] = "";
    assert_int_equal(wl_tsharp_decode(NULL, &t, err, sizeof err), WL_ERR_USAGE);
    assert_int_equal(wl_tsharp_decode(radv_rgba8, NULL, NULL, 0), WL_ERR_USAGE);
    wl_ssharp s;
    const uint32_t sw[4] = {0};
    assert_int_equal(wl_ssharp_decode(NULL, &s, NULL, 0), WL_ERR_USAGE);
    assert_int_equal(wl_ssharp_decode(sw, NULL, err, sizeof err), WL_ERR_USAGE);
    /* a small error buffer is cut, not overrun */
    char tiny[8];
    memset(tiny, 'x', sizeof tiny);
    assert_int_equal(wl_tsharp_decode(vsharp, &t, tiny, 5), WL_ERR_UNSUPPORTED);
    assert_int_equal(tiny[4], 0);
    assert_int_equal(tiny[5], 'x');
}

static void test_known_ssharps(void **state)
{
    (void)state;
    wl_ssharp s;
    char err[256] = "";

    /* RADV 22.3 (radv_init_sampler): linear min/mag/mip, CLAMP_TO_EDGE, LODs 0..15
     *   w0 = 2 | 2 << 3 | 2 << 6                       = 0x00000092
     *   w1 = MAX_LOD 15 * 256 = 0xF00 << 12            = 0x00F00000
     *   w2 = MAG 1 << 20 | MIN 1 << 22 | MIP LINEAR 2 << 26 = 0x08500000 */
    const uint32_t lin[4] = {0x00000092, 0x00F00000, 0x08500000, 0};
    assert_int_equal(wl_ssharp_decode(lin, &s, err, sizeof err), WL_OK);
    assert_int_equal(s.clamp_x, WL_TEX_CLAMP_LAST_TEXEL);
    assert_int_equal(s.clamp_y, WL_TEX_CLAMP_LAST_TEXEL);
    assert_int_equal(s.clamp_z, WL_TEX_CLAMP_LAST_TEXEL);
    assert_int_equal(s.max_aniso_ratio, 0);
    assert_int_equal(s.depth_compare, WL_TEX_COMPARE_NEVER);
    assert_int_equal(s.force_unnormalized, 0);
    assert_int_equal(s.trunc_coord, 0);
    assert_int_equal(s.filter_mode, WL_TEX_FILTER_BLEND);
    assert_true(s.min_lod == 0.0f);
    assert_true(s.max_lod == 15.0f);
    assert_true(s.lod_bias == 0.0f);
    assert_int_equal(s.xy_mag_filter, WL_TEX_XY_BILINEAR);
    assert_int_equal(s.xy_min_filter, WL_TEX_XY_BILINEAR);
    assert_int_equal(s.z_filter, WL_TEX_Z_NONE);
    assert_int_equal(s.mip_filter, WL_TEX_MIP_LINEAR);
    assert_int_equal(s.border_color_type, WL_TEX_BORDER_TRANS_BLACK);
    assert_int_equal(s.border_color_ptr, 0);

    /* nearest, 16x anisotropy, CLAMP_TO_BORDER opaque white, compare LESS,
     * unnormalized, reduction MIN, LODs 0.25..8.5, bias -1.5
     *   w0 = 6 | 6 << 3 | 6 << 6 (0x1B6) | MAX_ANISO_RATIO 4 << 9 (0x800)
     *        | LESS 1 << 12 | 1 << 15 | ANISO_THRESHOLD 2 << 16 | ANISO_BIAS 4 << 21
     *        | TRUNC_COORD 1 << 27 | FILTER_MODE 1 << 29       = 0x288299B6
     *   w1 = 64 | 2176 << 12 (0x880000) | PERF_MIP 10 << 24  = 0x0A880040
     *   w2 = (16384 - 384 = 0x3E80) | ANISO_POINT 2 << 20 | 2 << 22 | MIP POINT 1 << 26
     *                                                        = 0x04A03E80
     *   w3 = OPAQUE_WHITE 2 << 30                            = 0x80000000 */
    const uint32_t aniso[4] = {0x288299B6, 0x0A880040, 0x04A03E80, 0x80000000};
    assert_int_equal(wl_ssharp_decode(aniso, &s, err, sizeof err), WL_OK);
    assert_int_equal(s.clamp_x, WL_TEX_CLAMP_BORDER);
    assert_int_equal(s.clamp_y, WL_TEX_CLAMP_BORDER);
    assert_int_equal(s.clamp_z, WL_TEX_CLAMP_BORDER);
    assert_int_equal(s.max_aniso_ratio, 4);
    assert_int_equal(s.depth_compare, WL_TEX_COMPARE_LESS);
    assert_int_equal(s.force_unnormalized, 1);
    assert_int_equal(s.aniso_threshold, 2);
    assert_int_equal(s.aniso_bias, 4);
    assert_int_equal(s.trunc_coord, 1);
    assert_int_equal(s.disable_cube_wrap, 0);
    assert_int_equal(s.filter_mode, WL_TEX_FILTER_MIN);
    assert_true(s.min_lod == 0.25f);
    assert_true(s.max_lod == 8.5f);
    assert_int_equal(s.perf_mip, 10);
    assert_true(s.lod_bias == -1.5f);
    assert_int_equal(s.xy_mag_filter, WL_TEX_XY_ANISO_POINT);
    assert_int_equal(s.xy_min_filter, WL_TEX_XY_ANISO_POINT);
    assert_int_equal(s.mip_filter, WL_TEX_MIP_POINT);
    assert_int_equal(s.border_color_type, WL_TEX_BORDER_OPAQUE_WHITE);

    /* the bias's ends, a custom border colour in slot 5, Z_FILTER LINEAR:
     *   w2 = 0x1FFF | 2 << 24 = 0x02001FFF (31.99609375);  0x2000 (-32)
     *   w3 = REGISTER 3 << 30 | 5 = 0xC0000005 */
    const uint32_t ends[4] = {0, 0, 0x02001FFF, 0xC0000005};
    assert_int_equal(wl_ssharp_decode(ends, &s, err, sizeof err), WL_OK);
    assert_true(s.lod_bias == 31.99609375f);
    assert_int_equal(s.z_filter, WL_TEX_Z_LINEAR);
    assert_int_equal(s.border_color_type, WL_TEX_BORDER_REGISTER);
    assert_int_equal(s.border_color_ptr, 5);
    const uint32_t low[4] = {0, 0xFFFFFF, 0x2000, 0};
    assert_int_equal(wl_ssharp_decode(low, &s, err, sizeof err), WL_OK);
    assert_true(s.lod_bias == -32.0f);
    assert_true(s.min_lod == 4095.0f / 256.0f);
    assert_true(s.max_lod == 4095.0f / 256.0f);

    /* refusals */
    const uint32_t deriv[4] = {0, 0, 0x80000000u, 0};
    check_refused(wl_ssharp_decode(deriv, &s, err, sizeof err), err, "S# word 2 DERIV_ADJUST_EN 1:");
    const uint32_t zf[4] = {0, 0, 0x03000000, 0};
    check_refused(wl_ssharp_decode(zf, &s, err, sizeof err), err, "S# word 2 Z_FILTER 3: reserved");
    const uint32_t fm[4] = {0x60000000, 0, 0, 0};
    check_refused(wl_ssharp_decode(fm, &s, err, sizeof err), err, "S# word 0 FILTER_MODE 3: reserved");
}

/* ---- 3. the format table ---------------------------------------------------- */

typedef struct {
    uint32_t fmt;
    const char *name;
    unsigned bpt, block_bytes, bw, bh, comps, kind, flags;
    uint32_t vk;
} fmt_expect;

static const fmt_expect expected_formats[] = {
    {1, "8_UNORM", 1, 1, 1, 1, 1, WL_IMG_KIND_UNORM, 0, VK_FORMAT_R8_UNORM},
    {4, "8_SSCALED", 1, 1, 1, 1, 1, WL_IMG_KIND_SSCALED, 0, VK_FORMAT_R8_SSCALED},
    {13, "16_FLOAT", 2, 2, 1, 1, 1, WL_IMG_KIND_FLOAT, 0, VK_FORMAT_R16_SFLOAT},
    {19, "8_8_SINT", 2, 2, 1, 1, 2, WL_IMG_KIND_SINT, 0, VK_FORMAT_R8G8_SINT},
    {20, "32_UINT", 4, 4, 1, 1, 1, WL_IMG_KIND_UINT, 0, VK_FORMAT_R32_UINT},
    {22, "32_FLOAT", 4, 4, 1, 1, 1, WL_IMG_KIND_FLOAT, 0, VK_FORMAT_R32_SFLOAT},
    {27, "16_16_UINT", 4, 4, 1, 1, 2, WL_IMG_KIND_UINT, 0, VK_FORMAT_R16G16_UINT},
    {30, "10_11_11_UNORM", 4, 4, 1, 1, 3, WL_IMG_KIND_UNORM, 0, 0},
    {36, "10_11_11_FLOAT", 4, 4, 1, 1, 3, WL_IMG_KIND_FLOAT, 0, VK_FORMAT_B10G11R11_UFLOAT_PACK32},
    {43, "11_11_10_FLOAT", 4, 4, 1, 1, 3, WL_IMG_KIND_FLOAT, 0, 0},
    {44, "10_10_10_2_UNORM", 4, 4, 1, 1, 4, WL_IMG_KIND_UNORM, 0, 0},
    {50, "2_10_10_10_UNORM", 4, 4, 1, 1, 4, WL_IMG_KIND_UNORM, 0, VK_FORMAT_A2B10G10R10_UNORM_PACK32},
    {53, "2_10_10_10_SSCALED", 4, 4, 1, 1, 4, WL_IMG_KIND_SSCALED, 0, VK_FORMAT_A2B10G10R10_SSCALED_PACK32},
    {55, "2_10_10_10_SINT", 4, 4, 1, 1, 4, WL_IMG_KIND_SINT, 0, VK_FORMAT_A2B10G10R10_SINT_PACK32},
    {56, "8_8_8_8_UNORM", 4, 4, 1, 1, 4, WL_IMG_KIND_UNORM, 0, VK_FORMAT_R8G8B8A8_UNORM},
    {58, "8_8_8_8_USCALED", 4, 4, 1, 1, 4, WL_IMG_KIND_USCALED, 0, VK_FORMAT_R8G8B8A8_USCALED},
    {61, "8_8_8_8_SINT", 4, 4, 1, 1, 4, WL_IMG_KIND_SINT, 0, VK_FORMAT_R8G8B8A8_SINT},
    {64, "32_32_FLOAT", 8, 8, 1, 1, 2, WL_IMG_KIND_FLOAT, 0, VK_FORMAT_R32G32_SFLOAT},
    {66, "16_16_16_16_SNORM", 8, 8, 1, 1, 4, WL_IMG_KIND_SNORM, 0, VK_FORMAT_R16G16B16A16_SNORM},
    {71, "16_16_16_16_FLOAT", 8, 8, 1, 1, 4, WL_IMG_KIND_FLOAT, 0, VK_FORMAT_R16G16B16A16_SFLOAT},
    {74, "32_32_32_FLOAT", 12, 12, 1, 1, 3, WL_IMG_KIND_FLOAT, WL_IMG_FMT_BUFFER_ONLY, VK_FORMAT_R32G32B32_SFLOAT},
    {75, "32_32_32_32_UINT", 16, 16, 1, 1, 4, WL_IMG_KIND_UINT, 0, VK_FORMAT_R32G32B32A32_UINT},
    {77, "32_32_32_32_FLOAT", 16, 16, 1, 1, 4, WL_IMG_KIND_FLOAT, 0, VK_FORMAT_R32G32B32A32_SFLOAT},
    {128, "8_SRGB", 1, 1, 1, 1, 1, WL_IMG_KIND_SRGB, 0, VK_FORMAT_R8_SRGB},
    {130, "8_8_8_8_SRGB", 4, 4, 1, 1, 4, WL_IMG_KIND_SRGB, 0, VK_FORMAT_R8G8B8A8_SRGB},
    {131, "6E4_FLOAT", 0, 0, 1, 1, 1, WL_IMG_KIND_FLOAT, WL_IMG_FMT_UNKNOWN_LAYOUT, 0},
    {132, "5_9_9_9_FLOAT", 4, 4, 1, 1, 3, WL_IMG_KIND_FLOAT, 0, VK_FORMAT_E5B9G9R9_UFLOAT_PACK32},
    {133, "5_6_5_UNORM", 2, 2, 1, 1, 3, WL_IMG_KIND_UNORM, 0, VK_FORMAT_B5G6R5_UNORM_PACK16},
    {134, "1_5_5_5_UNORM", 2, 2, 1, 1, 4, WL_IMG_KIND_UNORM, 0, 1000470000u /* A1B5G5R5_UNORM_PACK16_KHR */},
    {135, "5_5_5_1_UNORM", 2, 2, 1, 1, 4, WL_IMG_KIND_UNORM, 0, 0},
    {136, "4_4_4_4_UNORM", 2, 2, 1, 1, 4, WL_IMG_KIND_UNORM, 0, VK_FORMAT_A4B4G4R4_UNORM_PACK16},
    {137, "4_4_UNORM", 1, 1, 1, 1, 2, WL_IMG_KIND_UNORM, 0, 0},
    {138, "1_UNORM", 0, 0, 1, 1, 1, WL_IMG_KIND_UNORM, WL_IMG_FMT_UNKNOWN_LAYOUT, 0},
    {140, "32_FLOAT_CLAMP", 4, 4, 1, 1, 1, WL_IMG_KIND_FLOAT, 0, 0},
    {141, "8_24_UNORM", 4, 4, 1, 1, 2, WL_IMG_KIND_UNORM, WL_IMG_FMT_DEPTH_STENCIL, 0},
    {144, "24_8_UINT", 4, 4, 1, 1, 2, WL_IMG_KIND_UINT, WL_IMG_FMT_DEPTH_STENCIL, 0},
    {146, "X24_8_32_FLOAT", 8, 8, 1, 1, 2, WL_IMG_KIND_FLOAT, WL_IMG_FMT_DEPTH_STENCIL, 0},
    {147, "GB_GR_UNORM", 0, 4, 2, 1, 3, WL_IMG_KIND_UNORM, WL_IMG_FMT_BLOCK, 0},
    {154, "BG_RG_SRGB", 0, 4, 2, 1, 3, WL_IMG_KIND_SRGB, WL_IMG_FMT_BLOCK, 0},
    {156, "FMASK8_S2_F1", 1, 1, 1, 1, 1, WL_IMG_KIND_UINT, WL_IMG_FMT_FMASK, 0},
    {162, "FMASK16_S16_F1", 2, 2, 1, 1, 1, WL_IMG_KIND_UINT, WL_IMG_FMT_FMASK, 0},
    {166, "FMASK32_S8_F8", 4, 4, 1, 1, 1, WL_IMG_KIND_UINT, WL_IMG_FMT_FMASK, 0},
    {168, "FMASK64_S16_F8", 8, 8, 1, 1, 1, WL_IMG_KIND_UINT, WL_IMG_FMT_FMASK, 0},
    {169, "BC1_UNORM", 0, 8, 4, 4, 4, WL_IMG_KIND_UNORM, WL_IMG_FMT_BLOCK, VK_FORMAT_BC1_RGBA_UNORM_BLOCK},
    {170, "BC1_SRGB", 0, 8, 4, 4, 4, WL_IMG_KIND_SRGB, WL_IMG_FMT_BLOCK, VK_FORMAT_BC1_RGBA_SRGB_BLOCK},
    {173, "BC3_UNORM", 0, 16, 4, 4, 4, WL_IMG_KIND_UNORM, WL_IMG_FMT_BLOCK, VK_FORMAT_BC3_UNORM_BLOCK},
    {176, "BC4_SNORM", 0, 8, 4, 4, 1, WL_IMG_KIND_SNORM, WL_IMG_FMT_BLOCK, VK_FORMAT_BC4_SNORM_BLOCK},
    {177, "BC5_UNORM", 0, 16, 4, 4, 2, WL_IMG_KIND_UNORM, WL_IMG_FMT_BLOCK, VK_FORMAT_BC5_UNORM_BLOCK},
    {179, "BC6_UFLOAT", 0, 16, 4, 4, 3, WL_IMG_KIND_FLOAT, WL_IMG_FMT_BLOCK, VK_FORMAT_BC6H_UFLOAT_BLOCK},
    {180, "BC6_SFLOAT", 0, 16, 4, 4, 3, WL_IMG_KIND_FLOAT, WL_IMG_FMT_BLOCK, VK_FORMAT_BC6H_SFLOAT_BLOCK},
    {182, "BC7_SRGB", 0, 16, 4, 4, 4, WL_IMG_KIND_SRGB, WL_IMG_FMT_BLOCK, VK_FORMAT_BC7_SRGB_BLOCK},
    {265, "MM_8_UNORM", 0, 0, 1, 1, 1, WL_IMG_KIND_UNORM, WL_IMG_FMT_UNKNOWN_LAYOUT, 0},
    {283, "MM_10_IN_16_16_16_16_UNORM", 0, 0, 1, 1, 4, WL_IMG_KIND_UNORM, WL_IMG_FMT_UNKNOWN_LAYOUT, 0},
    {285, "7E3_FLOAT", 0, 0, 1, 1, 1, WL_IMG_KIND_FLOAT, WL_IMG_FMT_UNKNOWN_LAYOUT, 0},
    {292, "YCBCR_SRGB", 0, 0, 1, 1, 3, WL_IMG_KIND_SRGB, WL_IMG_FMT_UNKNOWN_LAYOUT, 0},
};

/* The kind a name's suffix says. */
static unsigned kind_of_name(const char *name)
{
    static const struct {
        const char *suffix;
        unsigned kind;
    } k[] = {{"_UNORM", WL_IMG_KIND_UNORM},     {"_SNORM", WL_IMG_KIND_SNORM},
             {"_USCALED", WL_IMG_KIND_USCALED}, {"_SSCALED", WL_IMG_KIND_SSCALED},
             {"_UINT", WL_IMG_KIND_UINT},       {"_SINT", WL_IMG_KIND_SINT},
             {"_FLOAT", WL_IMG_KIND_FLOAT},     {"_UFLOAT", WL_IMG_KIND_FLOAT},
             {"_SFLOAT", WL_IMG_KIND_FLOAT},    {"_FLOAT_CLAMP", WL_IMG_KIND_FLOAT},
             {"_SRGB", WL_IMG_KIND_SRGB}};
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        size_t m = strlen(k[i].suffix);
        if (n > m && !strcmp(name + n - m, k[i].suffix))
            return k[i].kind;
    }
    if (!strncmp(name, "FMASK", 5))
        return WL_IMG_KIND_UINT;
    return 99;
}

static void test_formats(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof expected_formats / sizeof expected_formats[0]; i++) {
        const fmt_expect *e = &expected_formats[i];
        const wl_img_format *f = wl_img_format_info(e->fmt);
        if (!f)
            fail_msg("format %u missing", e->fmt);
        if (f->fmt != e->fmt || strcmp(f->name, e->name) || f->bytes_per_texel != e->bpt ||
            f->block_bytes != e->block_bytes || f->block_w != e->bw || f->block_h != e->bh ||
            f->components != e->comps || f->kind != e->kind || f->flags != e->flags || f->vk_format != e->vk)
            fail_msg("format %u: got %s bpt %u block %u %ux%u comps %u kind %u flags %u vk %u", e->fmt,
                     f->name, f->bytes_per_texel, f->block_bytes, f->block_w, f->block_h, f->components,
                     f->kind, f->flags, f->vk_format);
    }
    const uint32_t reserved[] = {0, 78, 100, 127, 155, 183, 200, 264, 293, 400, 511, 512, 4096, 0xffffffffu};
    for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
        if (wl_img_format_info(reserved[i]))
            fail_msg("format %u should be reserved", reserved[i]);

    unsigned count = 0;
    for (uint32_t v = 0; v < 512; v++) {
        const wl_img_format *f = wl_img_format_info(v);
        if (!f)
            continue;
        count++;
        assert_int_equal(f->fmt, v);
        assert_non_null(f->name);
        for (uint32_t u = 0; u < v; u++) {
            const wl_img_format *g = wl_img_format_info(u);
            if (g && !strcmp(g->name, f->name))
                fail_msg("formats %u and %u are both %s", u, v, f->name);
        }
        if (f->kind != kind_of_name(f->name))
            fail_msg("%s: kind %u", f->name, f->kind);
        assert_true(f->components >= 1 && f->components <= 4);
        if (f->flags & WL_IMG_FMT_BLOCK) {
            assert_int_equal(f->bytes_per_texel, 0);
            assert_true(f->block_bytes > 0 && f->block_w * f->block_h > 1);
            continue;
        }
        assert_int_equal(f->block_w, 1);
        assert_int_equal(f->block_h, 1);
        assert_int_equal(f->block_bytes, f->bytes_per_texel);
        if (f->flags & WL_IMG_FMT_UNKNOWN_LAYOUT) {
            assert_int_equal(f->bytes_per_texel, 0);
            assert_int_equal(f->vk_format, 0);
            continue;
        }
        if (f->flags & WL_IMG_FMT_FMASK)
            continue;
        /* the bit sizes in the name: bytes a texel; the components but the X padding */
        unsigned bits = 0, comps = 0;
        const char *p = f->name;
        while (*p) {
            int pad = *p == 'X';
            if (pad)
                p++;
            if (*p < '0' || *p > '9')
                break;
            char *end;
            unsigned long n = strtoul(p, &end, 10);
            if (*end != '_')
                break;
            bits += (unsigned)n;
            comps += !pad;
            p = end + 1;
        }
        if (!strcmp(f->name, "5_9_9_9_FLOAT"))
            comps = 3; /* a shared exponent */
        if (bits % 8 || bits / 8 != f->bytes_per_texel || comps != f->components)
            fail_msg("%s: %u bits, %u components against %u bytes, %u", f->name, bits, comps,
                     f->bytes_per_texel, f->components);
    }
    assert_int_equal(count, 159); /* Mesa 22.3.6's GFX10_FORMAT, less INVALID */
}

/* ---- 4. round trips ------------------------------------------------------- */

static void compare_tsharp(const wl_tsharp *a, const wl_tsharp *b)
{
#define EQ(f)                                                                                      \
    if (a->f != b->f)                                                                              \
        fail_msg("T# field " #f ": %llu against %llu", (unsigned long long)a->f, (unsigned long long)b->f)
    EQ(base_address);
    if (a->min_lod != b->min_lod)
        fail_msg("T# min_lod %g against %g", a->min_lod, b->min_lod);
    EQ(format); EQ(width); EQ(height);
    EQ(dst_sel[0]); EQ(dst_sel[1]); EQ(dst_sel[2]); EQ(dst_sel[3]);
    EQ(base_level); EQ(last_level); EQ(sw_mode); EQ(bc_swizzle); EQ(type);
    EQ(depth); EQ(pitch); EQ(base_array); EQ(last_array);
    EQ(array_pitch); EQ(max_mip); EQ(min_lod_warn); EQ(perf_mod);
    EQ(corner_samples); EQ(lod_hdw_cnt_en); EQ(prt_default); EQ(big_page);
    EQ(counter_bank_id); EQ(llc_noalloc); EQ(iterate_256);
    EQ(max_uncompressed_block_size); EQ(max_compressed_block_size);
    EQ(meta_pipe_aligned); EQ(write_compress_enable); EQ(compression_en);
    EQ(alpha_is_on_msb); EQ(color_transform); EQ(meta_address);
#undef EQ
}

static void compare_ssharp(const wl_ssharp *a, const wl_ssharp *b)
{
#define EQ(f)                                                                                      \
    if (a->f != b->f)                                                                              \
        fail_msg("S# field " #f ": %g against %g", (double)a->f, (double)b->f)
    EQ(clamp_x); EQ(clamp_y); EQ(clamp_z); EQ(max_aniso_ratio); EQ(depth_compare);
    EQ(force_unnormalized); EQ(aniso_threshold); EQ(mc_coord_trunc); EQ(force_degamma);
    EQ(aniso_bias); EQ(trunc_coord); EQ(disable_cube_wrap); EQ(filter_mode); EQ(skip_degamma);
    EQ(min_lod); EQ(max_lod); EQ(perf_mip); EQ(perf_z);
    EQ(lod_bias); EQ(lod_bias_sec); EQ(xy_mag_filter); EQ(xy_min_filter); EQ(z_filter);
    EQ(mip_filter); EQ(mip_point_preclamp); EQ(aniso_override); EQ(blend_zero_prt);
    EQ(border_color_ptr); EQ(border_color_type);
#undef EQ
}

static const uint8_t valid_sw[] = {0, 1, 2, 5, 6, 9, 10, 17, 18, 21, 22, 23, 24, 25, 26, 27, 28, 31};
static const uint8_t valid_sel[] = {0, 1, 4, 5, 6, 7};

static int model_array(unsigned type)
{
    return type == WL_IMG_1D_ARRAY || type == WL_IMG_2D_ARRAY || type == WL_IMG_2D_MSAA_ARRAY ||
           type == WL_IMG_CUBE;
}

static int model_msaa(unsigned type)
{
    return type == WL_IMG_2D_MSAA || type == WL_IMG_2D_MSAA_ARRAY;
}

/* level 0's linear row pitch: the custom pitch where it exceeds the width
 * (1D, 2D), else the width rounded up to 256 bytes */
static uint32_t model_row_pitch(const wl_tsharp *t, unsigned bpt)
{
    if (t->sw_mode != 0 || model_msaa(t->type) || bpt == 0)
        return 0;
    if ((t->type == WL_IMG_1D || t->type == WL_IMG_2D) && t->pitch > t->width)
        return t->pitch;
    unsigned a = 256 / bpt;
    return (t->width + a - 1) / a * a;
}

static uint32_t random_image_format(void)
{
    for (;;) {
        uint32_t v = rnd_below(512);
        const wl_img_format *f = wl_img_format_info(v);
        if (f && !(f->flags & WL_IMG_FMT_BUFFER_ONLY))
            return v;
    }
}

static void random_tsharp(wl_tsharp *t)
{
    memset(t, 0, sizeof *t);
    t->type = (uint8_t)(8 + rnd_below(8));
    t->format = random_image_format();
    t->base_address = rnd() & 0xFFFFFFFFFF00ull;
    t->min_lod = (float)rnd_below(4096) / 256.0f;
    t->width = 1 + rnd_below(16384);
    t->height = 1 + rnd_below(16384);
    for (unsigned i = 0; i < 4; i++)
        t->dst_sel[i] = valid_sel[rnd_below(6)];
    t->max_mip = (uint8_t)rnd_below(16);
    t->last_level = (uint8_t)rnd_below(t->max_mip + 1u);
    t->base_level = (uint8_t)(model_msaa(t->type) ? rnd_below(16) : rnd_below(t->last_level + 1u));
    t->sw_mode = valid_sw[rnd_below(sizeof valid_sw)];
    t->bc_swizzle = (uint8_t)rnd_below(6);
    t->depth = 1;
    t->base_array = rnd_below(8192);
    if (t->type == WL_IMG_3D)
        t->depth = 1 + rnd_below(8192);
    else if (model_array(t->type)) {
        t->last_array = rnd_below(8192);
        t->base_array = rnd_below(t->last_array + 1);
    } else
        t->pitch = 1 + rnd_below(16384);
    t->array_pitch = (uint8_t)rnd_below(16);
    t->min_lod_warn = (uint16_t)rnd_below(4096);
    t->perf_mod = (uint8_t)rnd_below(8);
    t->corner_samples = (uint8_t)rnd_below(2);
    t->lod_hdw_cnt_en = (uint8_t)rnd_below(2);
    t->prt_default = (uint8_t)rnd_below(2);
    t->big_page = (uint8_t)rnd_below(2);
    t->counter_bank_id = (uint8_t)rnd_below(256);
    t->llc_noalloc = (uint8_t)rnd_below(4);
    t->iterate_256 = (uint8_t)rnd_below(2);
    t->max_uncompressed_block_size = (uint8_t)rnd_below(4);
    t->max_compressed_block_size = (uint8_t)rnd_below(4);
    t->meta_pipe_aligned = (uint8_t)rnd_below(2);
    t->write_compress_enable = (uint8_t)rnd_below(2);
    t->compression_en = (uint8_t)rnd_below(2);
    t->alpha_is_on_msb = (uint8_t)rnd_below(2);
    t->color_transform = (uint8_t)rnd_below(2);
    t->meta_address = rnd() & 0xFFFFFFFFFF00ull;
}

static void random_ssharp(wl_ssharp *s)
{
    memset(s, 0, sizeof *s);
    s->clamp_x = (uint8_t)rnd_below(8);
    s->clamp_y = (uint8_t)rnd_below(8);
    s->clamp_z = (uint8_t)rnd_below(8);
    s->max_aniso_ratio = (uint8_t)rnd_below(8);
    s->depth_compare = (uint8_t)rnd_below(8);
    s->force_unnormalized = (uint8_t)rnd_below(2);
    s->aniso_threshold = (uint8_t)rnd_below(8);
    s->mc_coord_trunc = (uint8_t)rnd_below(2);
    s->force_degamma = (uint8_t)rnd_below(2);
    s->aniso_bias = (uint8_t)rnd_below(64);
    s->trunc_coord = (uint8_t)rnd_below(2);
    s->disable_cube_wrap = (uint8_t)rnd_below(2);
    s->filter_mode = (uint8_t)rnd_below(3);
    s->skip_degamma = (uint8_t)rnd_below(2);
    s->min_lod = (float)rnd_below(4096) / 256.0f;
    s->max_lod = (float)rnd_below(4096) / 256.0f;
    s->perf_mip = (uint8_t)rnd_below(16);
    s->perf_z = (uint8_t)rnd_below(16);
    s->lod_bias = (float)((int)rnd_below(16384) - 8192) / 256.0f;
    s->lod_bias_sec = (uint8_t)rnd_below(64);
    s->xy_mag_filter = (uint8_t)rnd_below(4);
    s->xy_min_filter = (uint8_t)rnd_below(4);
    s->z_filter = (uint8_t)rnd_below(3);
    s->mip_filter = (uint8_t)rnd_below(4);
    s->mip_point_preclamp = (uint8_t)rnd_below(2);
    s->aniso_override = (uint8_t)rnd_below(2);
    s->blend_zero_prt = (uint8_t)rnd_below(2);
    s->border_color_ptr = (uint16_t)rnd_below(4096);
    s->border_color_type = (uint8_t)rnd_below(4);
}

static void test_round_trips(void **state)
{
    (void)state;
    rng_state = 0x9E3779B97F4A7C15ull;
    char err[256];
    for (unsigned n = 0; n < 200000; n++) {
        wl_tsharp t, d;
        uint32_t w[8];
        random_tsharp(&t);
        wl_tsharp_encode(&t, w);
        err[0] = 0;
        if (wl_tsharp_decode(w, &d, err, sizeof err) != WL_OK)
            fail_msg("round trip %u refused: %s", n, err);
        compare_tsharp(&t, &d);
        const wl_img_format *f = wl_img_format_info(t.format);
        assert_int_equal(d.samples, model_msaa(t.type) ? 1u << t.last_level : 1u);
        assert_int_equal(d.layers, model_array(t.type) ? t.last_array + 1 : 1u);
        assert_int_equal(d.bytes_per_texel, f->bytes_per_texel);
        assert_int_equal(d.row_pitch, model_row_pitch(&t, f->bytes_per_texel));

        wl_ssharp s, e;
        uint32_t v[4];
        random_ssharp(&s);
        wl_ssharp_encode(&s, v);
        if (wl_ssharp_decode(v, &e, err, sizeof err) != WL_OK)
            fail_msg("S# round trip %u refused: %s", n, err);
        compare_ssharp(&s, &e);
    }

    /* the fixed-point conversions: to the nearest 1/256, clamped, NaN as 0
     *   min_lod 1.3 -> 332.8 -> 333 = 0x14D at word 1 bit 8; 100 -> 4095; -5 -> 0 */
    wl_tsharp t;
    uint32_t w[8];
    memset(&t, 0, sizeof t);
    t.type = WL_IMG_2D;
    t.format = 56;
    t.min_lod = 1.3f;
    wl_tsharp_encode(&t, w);
    assert_int_equal((w[1] >> 8) & 0xFFF, 333);
    assert_int_equal(w[2] >> 31, 1);                /* RESOURCE_LEVEL */
    assert_int_equal(w[1] >> 30 | (w[2] & 0xFFF), 0); /* width 0 written as 1 */
    t.min_lod = 100.0f;
    wl_tsharp_encode(&t, w);
    assert_int_equal((w[1] >> 8) & 0xFFF, 4095);
    t.min_lod = -5.0f;
    wl_tsharp_encode(&t, w);
    assert_int_equal((w[1] >> 8) & 0xFFF, 0);

    /* lod_bias -1.3 -> -332.8 -> -333 -> 16384 - 333 = 16051; 100 -> 8191;
     * -100 -> -8192 (0x2000); NaN -> 0; max_lod 15.999 -> 4095.74 -> 4095 */
    wl_ssharp s;
    uint32_t v[4];
    memset(&s, 0, sizeof s);
    s.lod_bias = -1.3f;
    s.max_lod = 15.999f;
    wl_ssharp_encode(&s, v);
    assert_int_equal(v[2] & 0x3FFF, 16051);
    assert_int_equal((v[1] >> 12) & 0xFFF, 4095);
    s.lod_bias = 100.0f;
    wl_ssharp_encode(&s, v);
    assert_int_equal(v[2] & 0x3FFF, 8191);
    s.lod_bias = -100.0f;
    wl_ssharp_encode(&s, v);
    assert_int_equal(v[2] & 0x3FFF, 0x2000);
    volatile float zero = 0.0f;
    s.lod_bias = zero / zero;
    s.min_lod = zero / zero;
    wl_ssharp_encode(&s, v);
    assert_int_equal(v[2] & 0x3FFF, 0);
    assert_int_equal(v[1] & 0xFFF, 0);
}

/* ---- 5. random words ------------------------------------------------------ */

/* The bits each word's fields name (from the layout, by hand); word 4's
 * DEPTH is 13 bits but PITCH, for 1D, 2D and 2D_MSAA, 14. */
static const uint32_t t_mask[8] = {0xFFFFFFFF, 0xDFFFFFFF, 0x8FFFCFFF, 0xFFFFFFFF,
                                   0x1FFF1FFF, 0x86FFFFFF, 0xFFFF87FF, 0xFFFFFFFF};
static const uint32_t s_mask[4] = {0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xC0000FFF};

static void test_random_words(void **state)
{
    (void)state;
    rng_state = 0x0123456789ABCDEFull;
    char err[256];
    unsigned t_ok = 0, s_ok = 0;
    for (unsigned n = 0; n < 300000; n++) {
        uint32_t w[8], back[8];
        for (unsigned i = 0; i < 8; i++)
            w[i] = (uint32_t)(rnd() >> 32);
        if (n & 1) {
            /* biased: an image type, RESOURCE_LEVEL, an image format, a valid
             * swizzle mode and selectors, levels in order */
            w[3] = (w[3] & 0x0000F000u) | (8u + rnd_below(8)) << 28 | (uint32_t)rnd_below(6) << 25 |
                   (uint32_t)valid_sw[rnd_below(sizeof valid_sw)] << 20;
            for (unsigned i = 0; i < 4; i++)
                w[3] |= (uint32_t)valid_sel[rnd_below(6)] << (3 * i);
            w[3] |= (uint32_t)((w[3] >> 12) & 0xF) << 16; /* LAST_LEVEL = BASE_LEVEL */
            w[5] |= 0xFu << 4;                            /* MAX_MIP 15 */
            w[2] |= 1u << 31;
            w[1] = (w[1] & ~(0x1FFu << 20)) | random_image_format() << 20;
            if (rnd_below(2))
                w[4] = (w[4] & 0xFFFF0000u) | 0x1FFF; /* arrays: the last layer at its highest */
        }
        wl_tsharp t, t2;
        err[0] = 0;
        wl_status st = wl_tsharp_decode(w, &t, err, sizeof err);
        if (st == WL_OK) {
            t_ok++;
            wl_tsharp_encode(&t, back);
            unsigned type = w[3] >> 28;
            for (unsigned i = 0; i < 8; i++) {
                uint32_t m = t_mask[i];
                if (i == 4 && (type == WL_IMG_1D || type == WL_IMG_2D || type == WL_IMG_2D_MSAA))
                    m |= 1u << 13;
                if (back[i] != (w[i] & m))
                    fail_msg("T# %u word %u: %08x encoded back as %08x", n, i, w[i], back[i]);
            }
            assert_int_equal(wl_tsharp_decode(back, &t2, err, sizeof err), WL_OK);
            compare_tsharp(&t, &t2);
        } else if (st != WL_ERR_UNSUPPORTED || strncmp(err, "T# word ", 8) || err[8] < '0' || err[8] > '7')
            fail_msg("T# %u: status %d, message \"%s\"", n, (int)st, err);

        uint32_t v[4], vback[4];
        for (unsigned i = 0; i < 4; i++)
            v[i] = (uint32_t)(rnd() >> 32);
        if (n & 1)
            v[2] &= ~(1u << 31);
        wl_ssharp s, s2;
        err[0] = 0;
        st = wl_ssharp_decode(v, &s, err, sizeof err);
        if (st == WL_OK) {
            s_ok++;
            wl_ssharp_encode(&s, vback);
            for (unsigned i = 0; i < 4; i++)
                if (vback[i] != (v[i] & s_mask[i]))
                    fail_msg("S# %u word %u: %08x encoded back as %08x", n, i, v[i], vback[i]);
            assert_int_equal(wl_ssharp_decode(vback, &s2, err, sizeof err), WL_OK);
            compare_ssharp(&s, &s2);
        } else if (st != WL_ERR_UNSUPPORTED || strncmp(err, "S# word ", 8) || err[8] < '0' || err[8] > '3')
            fail_msg("S# %u: status %d, message \"%s\"", n, (int)st, err);
    }
    printf("random words: %u of 300000 T#s decoded, %u of 300000 S#s\n", t_ok, s_ok);
    assert_true(t_ok > 20000);
    assert_true(s_ok > 50000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_tsharps), cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_known_ssharps), cmocka_unit_test(test_formats),
        cmocka_unit_test(test_round_trips),   cmocka_unit_test(test_random_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
