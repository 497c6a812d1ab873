/* The image descriptors of gfx10.3 (wavelift/image.h, docs/images.md): the
 * T# (SQ_IMG_RSRC_WORD0..7) and the S# (SQ_IMG_SAMP_WORD0..3) decoded and
 * encoded field by field.
 *
 * Checked against Mesa 22.3.6 (Debian's mesa_22.3.6.orig.tar.gz, the RADV
 * of this project's oracle):
 *   src/amd/registers/gfx10-rsrc.json   every field below: SQ_IMG_RSRC_WORD1
 *       to 3 and 7 shared by gfx10 and gfx103, words 4 to 6 in their gfx103
 *       variants (word 4's PITCH, word 5's BIG_PAGE, word 6's LLC_NOALLOC);
 *       SQ_IMG_SAMP_WORD0 to 3 (gfx10's: SKIP_DEGAMMA, ANISO_OVERRIDE at
 *       bit 29, DERIV_ADJUST_EN)
 *   src/amd/registers/gfx9.json   the enumerations the fields take
 *       (SQ_RSRC_IMG_TYPE, SQ_SEL_XYZW01, SQ_TEX_CLAMP, SQ_TEX_XY_FILTER,
 *       SQ_TEX_Z_FILTER, SQ_TEX_MIP_FILTER, SQ_TEX_DEPTH_COMPARE,
 *       SQ_TEX_BORDER_COLOR, SQ_IMG_FILTER_TYPE); gfx10-rsrc.json's
 *       BC_SWIZZLE
 *   src/amd/vulkan/radv_image.c   gfx10_make_texture_descriptor and
 *       si_set_mutable_tex_desc_fields: the address in 256-byte units with
 *       the tile swizzle ORed in, WIDTH/HEIGHT minus one, DEPTH as depth - 1
 *       (3D) or the last layer, MSAA's LAST_LEVEL and MAX_MIP as log2 of the
 *       samples, the metadata address (word 6 bits 15:8, word 7 bits 47:16)
 *   src/amd/vulkan/radv_device.c   radv_init_sampler: the LODs in 4.8 fixed
 *       point, the bias signed, the border colour in word 3
 *   src/amd/addrlib/src/gfx10/gfx10addrlib.cpp   SwizzleModeTable (the
 *       swizzle modes gfx10 has), HwlComputeSurfaceInfoLinear (a linear
 *       pitch is the width rounded up to 256 bytes; levels smallest first)
 * and, for gfx10.3's pitch in word 4 (which RADV 22.3 does not write): later
 * Mesa's ac_descriptors.c (ac_set_mutable_tex_desc_fields: "GFX10.3+ can set
 * a custom pitch for 1D and 2D non-array", DEPTH holding pitch - 1) and
 * ROCr's image_manager_nv.cpp (the compute runtime writes PITCH = pitch - 1
 * for 1D, 2D and 2D_MSAA on gfx1030 and later). What the hardware does with
 * a PITCH not above the width is from gfx10-rsrc.json's comment on the field
 * ("only for 1D, 2D, and 2D_MSAA if pitch > width"), not from a manual: we
 * take AddrLib's default pitch then, as RADV 22.3's descriptors (which leave
 * 0 there) need. */
#include "wavelift/image.h"
#include "guest_internal.h"

#include <string.h>

/* A field: its word, lowest bit and width. */
#define FIELD(word, lo, n) word, lo, n

static uint32_t get(const uint32_t *w, unsigned word, unsigned lo, unsigned n)
{
    return (w[word] >> lo) & (n == 32 ? 0xffffffffu : (1u << n) - 1);
}

static void put(uint32_t *w, unsigned word, unsigned lo, unsigned n, uint64_t v)
{
    uint32_t mask = n == 32 ? 0xffffffffu : (1u << n) - 1;
    w[word] |= ((uint32_t)v & mask) << lo;
}

/* Unsigned 4.8 fixed point (12 bits) to float and back, to the nearest
 * 1/256, clamped; NaN is 0. */
static float ufix8(uint32_t raw)
{
    return (float)raw / 256.0f;
}

static uint32_t to_ufix8(float x, uint32_t max)
{
    if (!(x > 0.0f))
        return 0;
    float v = x * 256.0f + 0.5f;
    return v >= (float)max ? max : (uint32_t)v;
}

/* Signed fixed point with 8 fraction bits in n bits (two's complement). */
static float sfix8(uint32_t raw, unsigned n)
{
    int32_t v = (int32_t)raw;
    if (raw & (1u << (n - 1)))
        v -= (int32_t)(1u << n);
    return (float)v / 256.0f;
}

static uint32_t to_sfix8(float x, unsigned n)
{
    const int32_t lo = -(int32_t)(1u << (n - 1)), hi = (int32_t)(1u << (n - 1)) - 1;
    int32_t v;
    if (x != x)
        v = 0;
    else if (x * 256.0f <= (float)lo)
        v = lo;
    else if (x * 256.0f >= (float)hi)
        v = hi;
    else {
        float f = x * 256.0f;
        v = f >= 0.0f ? (int32_t)(f + 0.5f) : -(int32_t)(-f + 0.5f);
    }
    return (uint32_t)v & ((1u << n) - 1);
}

/* ---- the T# ------------------------------------------------------------------
 *
 *   word 0  31:0   BASE_ADDRESS      address bits 39:8
 *   word 1   7:0   BASE_ADDRESS_HI   address bits 47:40
 *           19:8   MIN_LOD           unsigned 4.8
 *           28:20  FORMAT            IMG_FORMAT
 *           31:30  WIDTH_LO          (width - 1) bits 1:0
 *   word 2  11:0   WIDTH_HI          (width - 1) bits 13:2
 *           27:14  HEIGHT            height - 1
 *           31     RESOURCE_LEVEL    1
 *   word 3   2:0   DST_SEL_X  5:3 DST_SEL_Y  8:6 DST_SEL_Z  11:9 DST_SEL_W
 *           15:12  BASE_LEVEL        19:16 LAST_LEVEL
 *           24:20  SW_MODE           27:25 BC_SWIZZLE      31:28 TYPE
 *   word 4  12:0   DEPTH             3D: depth - 1; arrays, cube: last layer
 *           13:0   PITCH             1D, 2D, 2D_MSAA (gfx10.3): pitch - 1
 *           28:16  BASE_ARRAY
 *   word 5   3:0   ARRAY_PITCH        7:4 MAX_MIP         19:8 MIN_LOD_WARN
 *           22:20  PERF_MOD          23 CORNER_SAMPLES   25 LOD_HDW_CNT_EN
 *           26     PRT_DEFAULT       31 BIG_PAGE
 *   word 6   7:0   COUNTER_BANK_ID    9:8 LLC_NOALLOC    10 ITERATE_256
 *           16:15  MAX_UNCOMPRESSED_BLOCK_SIZE  18:17 MAX_COMPRESSED_BLOCK_SIZE
 *           19 META_PIPE_ALIGNED  20 WRITE_COMPRESS_ENABLE  21 COMPRESSION_EN
 *           22 ALPHA_IS_ON_MSB    23 COLOR_TRANSFORM
 *           31:24  META_DATA_ADDRESS_LO   metadata address bits 15:8
 *   word 7  31:0   META_DATA_ADDRESS      metadata address bits 47:16
 */
#define T_BASE_ADDRESS FIELD(0, 0, 32)
#define T_BASE_ADDRESS_HI FIELD(1, 0, 8)
#define T_MIN_LOD FIELD(1, 8, 12)
#define T_FORMAT FIELD(1, 20, 9)
#define T_WIDTH_LO FIELD(1, 30, 2)
#define T_WIDTH_HI FIELD(2, 0, 12)
#define T_HEIGHT FIELD(2, 14, 14)
#define T_RESOURCE_LEVEL FIELD(2, 31, 1)
#define T_DST_SEL(i) FIELD(3, 3 * (i), 3)
#define T_BASE_LEVEL FIELD(3, 12, 4)
#define T_LAST_LEVEL FIELD(3, 16, 4)
#define T_SW_MODE FIELD(3, 20, 5)
#define T_BC_SWIZZLE FIELD(3, 25, 3)
#define T_TYPE FIELD(3, 28, 4)
#define T_DEPTH FIELD(4, 0, 13)
#define T_PITCH FIELD(4, 0, 14)
#define T_BASE_ARRAY FIELD(4, 16, 13)
#define T_ARRAY_PITCH FIELD(5, 0, 4)
#define T_MAX_MIP FIELD(5, 4, 4)
#define T_MIN_LOD_WARN FIELD(5, 8, 12)
#define T_PERF_MOD FIELD(5, 20, 3)
#define T_CORNER_SAMPLES FIELD(5, 23, 1)
#define T_LOD_HDW_CNT_EN FIELD(5, 25, 1)
#define T_PRT_DEFAULT FIELD(5, 26, 1)
#define T_BIG_PAGE FIELD(5, 31, 1)
#define T_COUNTER_BANK_ID FIELD(6, 0, 8)
#define T_LLC_NOALLOC FIELD(6, 8, 2)
#define T_ITERATE_256 FIELD(6, 10, 1)
#define T_MAX_UNCOMPRESSED_BLOCK_SIZE FIELD(6, 15, 2)
#define T_MAX_COMPRESSED_BLOCK_SIZE FIELD(6, 17, 2)
#define T_META_PIPE_ALIGNED FIELD(6, 19, 1)
#define T_WRITE_COMPRESS_ENABLE FIELD(6, 20, 1)
#define T_COMPRESSION_EN FIELD(6, 21, 1)
#define T_ALPHA_IS_ON_MSB FIELD(6, 22, 1)
#define T_COLOR_TRANSFORM FIELD(6, 23, 1)
#define T_META_DATA_ADDRESS_LO FIELD(6, 24, 8)
#define T_META_DATA_ADDRESS FIELD(7, 0, 32)

static int is_array(unsigned type)
{
    return type == WL_IMG_1D_ARRAY || type == WL_IMG_2D_ARRAY || type == WL_IMG_2D_MSAA_ARRAY ||
           type == WL_IMG_CUBE;
}

static int has_pitch(unsigned type)
{
    return type == WL_IMG_1D || type == WL_IMG_2D || type == WL_IMG_2D_MSAA;
}

static int is_msaa(unsigned type)
{
    return type == WL_IMG_2D_MSAA || type == WL_IMG_2D_MSAA_ARRAY;
}

/* The swizzle modes gfx10's AddrLib defines (include/wavelift/image.h). */
static int sw_mode_valid(unsigned m)
{
    static const uint32_t valid = 1u << WL_SW_LINEAR | 1u << WL_SW_256B_S | 1u << WL_SW_256B_D |
                                  1u << WL_SW_4KB_S | 1u << WL_SW_4KB_D | 1u << WL_SW_64KB_S |
                                  1u << WL_SW_64KB_D | 1u << WL_SW_64KB_S_T | 1u << WL_SW_64KB_D_T |
                                  1u << WL_SW_4KB_S_X | 1u << WL_SW_4KB_D_X | 1u << WL_SW_4KB_R_X |
                                  1u << WL_SW_64KB_Z_X | 1u << WL_SW_64KB_S_X | 1u << WL_SW_64KB_D_X |
                                  1u << WL_SW_64KB_R_X | 1u << WL_SW_VAR_Z_X | 1u << WL_SW_VAR_R_X;
    return m < 32 && (valid >> m & 1);
}

static wl_status refuse(char *err, size_t errcap, const char *what, unsigned word, const char *field,
                        uint32_t value, const char *why)
{
    wl_rt_format_err(err, errcap, "%s word %u %s %u: %s", what, word, field, (unsigned)value, why);
    return WL_ERR_UNSUPPORTED;
}

/* Level 0's row pitch in texels where the layout is linear and known. */
static uint32_t linear_row_pitch(const wl_tsharp *t, const wl_img_format *f)
{
    if (t->sw_mode != WL_SW_LINEAR || is_msaa(t->type) || !f || (f->flags & WL_IMG_FMT_BLOCK))
        return 0;
    uint32_t bpt = f->bytes_per_texel;
    if (bpt == 0 || (bpt & (bpt - 1)) || bpt > 256)
        return 0;
    if (has_pitch(t->type) && t->pitch > t->width)
        return t->pitch;
    uint32_t align = 256 / bpt;
    return (t->width + align - 1) / align * align;
}

wl_status wl_tsharp_decode(const uint32_t w[8], wl_tsharp *out, char *err, size_t errcap)
{
    static const char T[] = "T#";
    if (!w || !out) {
        wl_rt_format_err(err, errcap, "wl_tsharp_decode: NULL %s", !w ? "words" : "result");
        return WL_ERR_USAGE;
    }
    wl_tsharp t;
    memset(&t, 0, sizeof t);

    t.type = (uint8_t)get(w, T_TYPE);
    if (t.type < WL_IMG_1D)
        return refuse(err, errcap, T, 3, "TYPE", t.type,
                      "not an image (0 is a buffer descriptor, 1 to 7 are reserved)");
    if (!get(w, T_RESOURCE_LEVEL))
        return refuse(err, errcap, T, 2, "RESOURCE_LEVEL", 0, "must be 1 on gfx10");

    t.format = get(w, T_FORMAT);
    const wl_img_format *f = wl_img_format_info(t.format);
    if (!f)
        return refuse(err, errcap, T, 1, "FORMAT", t.format,
                      t.format == 0 ? "INVALID" : "a reserved image format");
    if (f->flags & WL_IMG_FMT_BUFFER_ONLY)
        return refuse(err, errcap, T, 1, "FORMAT", t.format, "a buffer format (32_32_32), not an image's");

    static const char *const sel_name[4] = {"DST_SEL_X", "DST_SEL_Y", "DST_SEL_Z", "DST_SEL_W"};
    for (unsigned i = 0; i < 4; i++) {
        t.dst_sel[i] = (uint8_t)get(w, T_DST_SEL(i));
        if (t.dst_sel[i] == 2 || t.dst_sel[i] == 3)
            return refuse(err, errcap, T, 3, sel_name[i], t.dst_sel[i], "a reserved selector");
    }
    t.sw_mode = (uint8_t)get(w, T_SW_MODE);
    if (!sw_mode_valid(t.sw_mode))
        return refuse(err, errcap, T, 3, "SW_MODE", t.sw_mode, "a swizzle mode gfx10 does not have");
    t.bc_swizzle = (uint8_t)get(w, T_BC_SWIZZLE);
    if (t.bc_swizzle > 5)
        return refuse(err, errcap, T, 3, "BC_SWIZZLE", t.bc_swizzle, "reserved (0 to 5)");

    t.base_level = (uint8_t)get(w, T_BASE_LEVEL);
    t.last_level = (uint8_t)get(w, T_LAST_LEVEL);
    t.max_mip = (uint8_t)get(w, T_MAX_MIP);
    if (!is_msaa(t.type) && t.base_level > t.last_level)
        return refuse(err, errcap, T, 3, "BASE_LEVEL", t.base_level, "above LAST_LEVEL");
    if (t.last_level > t.max_mip)
        return refuse(err, errcap, T, 3, "LAST_LEVEL", t.last_level, "above word 5's MAX_MIP");

    t.base_array = get(w, T_BASE_ARRAY);
    t.depth = 1;
    if (t.type == WL_IMG_3D)
        t.depth = get(w, T_DEPTH) + 1;
    else if (is_array(t.type))
        t.last_array = get(w, T_DEPTH);
    else
        t.pitch = get(w, T_PITCH) + 1;
    if (is_array(t.type) && t.base_array > t.last_array)
        return refuse(err, errcap, T, 4, "BASE_ARRAY", t.base_array, "above the last layer (DEPTH)");

    t.base_address = ((uint64_t)get(w, T_BASE_ADDRESS_HI) << 40) | ((uint64_t)get(w, T_BASE_ADDRESS) << 8);
    t.min_lod = ufix8(get(w, T_MIN_LOD));
    t.width = (get(w, T_WIDTH_HI) << 2 | get(w, T_WIDTH_LO)) + 1;
    t.height = get(w, T_HEIGHT) + 1;

    t.array_pitch = (uint8_t)get(w, T_ARRAY_PITCH);
    t.min_lod_warn = (uint16_t)get(w, T_MIN_LOD_WARN);
    t.perf_mod = (uint8_t)get(w, T_PERF_MOD);
    t.corner_samples = (uint8_t)get(w, T_CORNER_SAMPLES);
    t.lod_hdw_cnt_en = (uint8_t)get(w, T_LOD_HDW_CNT_EN);
    t.prt_default = (uint8_t)get(w, T_PRT_DEFAULT);
    t.big_page = (uint8_t)get(w, T_BIG_PAGE);

    t.counter_bank_id = (uint8_t)get(w, T_COUNTER_BANK_ID);
    t.llc_noalloc = (uint8_t)get(w, T_LLC_NOALLOC);
    t.iterate_256 = (uint8_t)get(w, T_ITERATE_256);
    t.max_uncompressed_block_size = (uint8_t)get(w, T_MAX_UNCOMPRESSED_BLOCK_SIZE);
    t.max_compressed_block_size = (uint8_t)get(w, T_MAX_COMPRESSED_BLOCK_SIZE);
    t.meta_pipe_aligned = (uint8_t)get(w, T_META_PIPE_ALIGNED);
    t.write_compress_enable = (uint8_t)get(w, T_WRITE_COMPRESS_ENABLE);
    t.compression_en = (uint8_t)get(w, T_COMPRESSION_EN);
    t.alpha_is_on_msb = (uint8_t)get(w, T_ALPHA_IS_ON_MSB);
    t.color_transform = (uint8_t)get(w, T_COLOR_TRANSFORM);
    t.meta_address = ((uint64_t)get(w, T_META_DATA_ADDRESS) << 16) | ((uint64_t)get(w, T_META_DATA_ADDRESS_LO) << 8);

    t.samples = is_msaa(t.type) ? 1u << t.last_level : 1;
    t.layers = is_array(t.type) ? t.last_array + 1 : 1;
    t.bytes_per_texel = f->bytes_per_texel;
    t.row_pitch = linear_row_pitch(&t, f);
    *out = t;
    return WL_OK;
}

void wl_tsharp_encode(const wl_tsharp *t, uint32_t w[8])
{
    memset(w, 0, 8 * sizeof w[0]);
    uint32_t width = t->width ? t->width - 1 : 0, height = t->height ? t->height - 1 : 0;
    put(w, T_BASE_ADDRESS, t->base_address >> 8);
    put(w, T_BASE_ADDRESS_HI, t->base_address >> 40);
    put(w, T_MIN_LOD, to_ufix8(t->min_lod, 4095));
    put(w, T_FORMAT, t->format);
    put(w, T_WIDTH_LO, width);
    put(w, T_WIDTH_HI, width >> 2);
    put(w, T_HEIGHT, height);
    put(w, T_RESOURCE_LEVEL, 1);
    for (unsigned i = 0; i < 4; i++)
        put(w, T_DST_SEL(i), t->dst_sel[i]);
    put(w, T_BASE_LEVEL, t->base_level);
    put(w, T_LAST_LEVEL, t->last_level);
    put(w, T_SW_MODE, t->sw_mode);
    put(w, T_BC_SWIZZLE, t->bc_swizzle);
    put(w, T_TYPE, t->type);
    if (t->type == WL_IMG_3D)
        put(w, T_DEPTH, t->depth ? t->depth - 1 : 0);
    else if (is_array(t->type))
        put(w, T_DEPTH, t->last_array);
    else
        put(w, T_PITCH, t->pitch ? t->pitch - 1 : 0);
    put(w, T_BASE_ARRAY, t->base_array);
    put(w, T_ARRAY_PITCH, t->array_pitch);
    put(w, T_MAX_MIP, t->max_mip);
    put(w, T_MIN_LOD_WARN, t->min_lod_warn);
    put(w, T_PERF_MOD, t->perf_mod);
    put(w, T_CORNER_SAMPLES, t->corner_samples);
    put(w, T_LOD_HDW_CNT_EN, t->lod_hdw_cnt_en);
    put(w, T_PRT_DEFAULT, t->prt_default);
    put(w, T_BIG_PAGE, t->big_page);
    put(w, T_COUNTER_BANK_ID, t->counter_bank_id);
    put(w, T_LLC_NOALLOC, t->llc_noalloc);
    put(w, T_ITERATE_256, t->iterate_256);
    put(w, T_MAX_UNCOMPRESSED_BLOCK_SIZE, t->max_uncompressed_block_size);
    put(w, T_MAX_COMPRESSED_BLOCK_SIZE, t->max_compressed_block_size);
    put(w, T_META_PIPE_ALIGNED, t->meta_pipe_aligned);
    put(w, T_WRITE_COMPRESS_ENABLE, t->write_compress_enable);
    put(w, T_COMPRESSION_EN, t->compression_en);
    put(w, T_ALPHA_IS_ON_MSB, t->alpha_is_on_msb);
    put(w, T_COLOR_TRANSFORM, t->color_transform);
    put(w, T_META_DATA_ADDRESS_LO, t->meta_address >> 8);
    put(w, T_META_DATA_ADDRESS, t->meta_address >> 16);
}

/* ---- the S# ------------------------------------------------------------------
 *
 *   word 0   2:0 CLAMP_X   5:3 CLAMP_Y   8:6 CLAMP_Z   11:9 MAX_ANISO_RATIO
 *           14:12 DEPTH_COMPARE_FUNC     15 FORCE_UNNORMALIZED
 *           18:16 ANISO_THRESHOLD        19 MC_COORD_TRUNC   20 FORCE_DEGAMMA
 *           26:21 ANISO_BIAS             27 TRUNC_COORD      28 DISABLE_CUBE_WRAP
 *           30:29 FILTER_MODE            31 SKIP_DEGAMMA
 *   word 1  11:0 MIN_LOD (unsigned 4.8)  23:12 MAX_LOD (unsigned 4.8)
 *           27:24 PERF_MIP               31:28 PERF_Z
 *   word 2  13:0 LOD_BIAS (signed 6.8)   19:14 LOD_BIAS_SEC
 *           21:20 XY_MAG_FILTER  23:22 XY_MIN_FILTER  25:24 Z_FILTER  27:26 MIP_FILTER
 *           28 MIP_POINT_PRECLAMP  29 ANISO_OVERRIDE  30 BLEND_ZERO_PRT
 *           31 DERIV_ADJUST_EN
 *   word 3  11:0 BORDER_COLOR_PTR        31:30 BORDER_COLOR_TYPE
 *           (both in word 2 bits 13:0 instead when DERIV_ADJUST_EN is set)
 */
#define S_CLAMP_X FIELD(0, 0, 3)
#define S_CLAMP_Y FIELD(0, 3, 3)
#define S_CLAMP_Z FIELD(0, 6, 3)
#define S_MAX_ANISO_RATIO FIELD(0, 9, 3)
#define S_DEPTH_COMPARE_FUNC FIELD(0, 12, 3)
#define S_FORCE_UNNORMALIZED FIELD(0, 15, 1)
#define S_ANISO_THRESHOLD FIELD(0, 16, 3)
#define S_MC_COORD_TRUNC FIELD(0, 19, 1)
#define S_FORCE_DEGAMMA FIELD(0, 20, 1)
#define S_ANISO_BIAS FIELD(0, 21, 6)
#define S_TRUNC_COORD FIELD(0, 27, 1)
#define S_DISABLE_CUBE_WRAP FIELD(0, 28, 1)
#define S_FILTER_MODE FIELD(0, 29, 2)
#define S_SKIP_DEGAMMA FIELD(0, 31, 1)
#define S_MIN_LOD FIELD(1, 0, 12)
#define S_MAX_LOD FIELD(1, 12, 12)
#define S_PERF_MIP FIELD(1, 24, 4)
#define S_PERF_Z FIELD(1, 28, 4)
#define S_LOD_BIAS FIELD(2, 0, 14)
#define S_LOD_BIAS_SEC FIELD(2, 14, 6)
#define S_XY_MAG_FILTER FIELD(2, 20, 2)
#define S_XY_MIN_FILTER FIELD(2, 22, 2)
#define S_Z_FILTER FIELD(2, 24, 2)
#define S_MIP_FILTER FIELD(2, 26, 2)
#define S_MIP_POINT_PRECLAMP FIELD(2, 28, 1)
#define S_ANISO_OVERRIDE FIELD(2, 29, 1)
#define S_BLEND_ZERO_PRT FIELD(2, 30, 1)
#define S_DERIV_ADJUST_EN FIELD(2, 31, 1)
#define S_BORDER_COLOR_PTR FIELD(3, 0, 12)
#define S_BORDER_COLOR_TYPE FIELD(3, 30, 2)

wl_status wl_ssharp_decode(const uint32_t w[4], wl_ssharp *out, char *err, size_t errcap)
{
    static const char S[] = "S#";
    if (!w || !out) {
        wl_rt_format_err(err, errcap, "wl_ssharp_decode: NULL %s", !w ? "words" : "result");
        return WL_ERR_USAGE;
    }
    if (get(w, S_DERIV_ADJUST_EN))
        return refuse(err, errcap, S, 2, "DERIV_ADJUST_EN", 1,
                      "derivative adjustment (word 3's layout then is not in the sources)");
    if (get(w, S_Z_FILTER) == 3)
        return refuse(err, errcap, S, 2, "Z_FILTER", 3, "reserved");
    if (get(w, S_FILTER_MODE) == 3)
        return refuse(err, errcap, S, 0, "FILTER_MODE", 3, "reserved");

    wl_ssharp s;
    memset(&s, 0, sizeof s);
    s.clamp_x = (uint8_t)get(w, S_CLAMP_X);
    s.clamp_y = (uint8_t)get(w, S_CLAMP_Y);
    s.clamp_z = (uint8_t)get(w, S_CLAMP_Z);
    s.max_aniso_ratio = (uint8_t)get(w, S_MAX_ANISO_RATIO);
    s.depth_compare = (uint8_t)get(w, S_DEPTH_COMPARE_FUNC);
    s.force_unnormalized = (uint8_t)get(w, S_FORCE_UNNORMALIZED);
    s.aniso_threshold = (uint8_t)get(w, S_ANISO_THRESHOLD);
    s.mc_coord_trunc = (uint8_t)get(w, S_MC_COORD_TRUNC);
    s.force_degamma = (uint8_t)get(w, S_FORCE_DEGAMMA);
    s.aniso_bias = (uint8_t)get(w, S_ANISO_BIAS);
    s.trunc_coord = (uint8_t)get(w, S_TRUNC_COORD);
    s.disable_cube_wrap = (uint8_t)get(w, S_DISABLE_CUBE_WRAP);
    s.filter_mode = (uint8_t)get(w, S_FILTER_MODE);
    s.skip_degamma = (uint8_t)get(w, S_SKIP_DEGAMMA);
    s.min_lod = ufix8(get(w, S_MIN_LOD));
    s.max_lod = ufix8(get(w, S_MAX_LOD));
    s.perf_mip = (uint8_t)get(w, S_PERF_MIP);
    s.perf_z = (uint8_t)get(w, S_PERF_Z);
    s.lod_bias = sfix8(get(w, S_LOD_BIAS), 14);
    s.lod_bias_sec = (uint8_t)get(w, S_LOD_BIAS_SEC);
    s.xy_mag_filter = (uint8_t)get(w, S_XY_MAG_FILTER);
    s.xy_min_filter = (uint8_t)get(w, S_XY_MIN_FILTER);
    s.z_filter = (uint8_t)get(w, S_Z_FILTER);
    s.mip_filter = (uint8_t)get(w, S_MIP_FILTER);
    s.mip_point_preclamp = (uint8_t)get(w, S_MIP_POINT_PRECLAMP);
    s.aniso_override = (uint8_t)get(w, S_ANISO_OVERRIDE);
    s.blend_zero_prt = (uint8_t)get(w, S_BLEND_ZERO_PRT);
    s.border_color_ptr = (uint16_t)get(w, S_BORDER_COLOR_PTR);
    s.border_color_type = (uint8_t)get(w, S_BORDER_COLOR_TYPE);
    *out = s;
    return WL_OK;
}

void wl_ssharp_encode(const wl_ssharp *s, uint32_t w[4])
{
    memset(w, 0, 4 * sizeof w[0]);
    put(w, S_CLAMP_X, s->clamp_x);
    put(w, S_CLAMP_Y, s->clamp_y);
    put(w, S_CLAMP_Z, s->clamp_z);
    put(w, S_MAX_ANISO_RATIO, s->max_aniso_ratio);
    put(w, S_DEPTH_COMPARE_FUNC, s->depth_compare);
    put(w, S_FORCE_UNNORMALIZED, s->force_unnormalized);
    put(w, S_ANISO_THRESHOLD, s->aniso_threshold);
    put(w, S_MC_COORD_TRUNC, s->mc_coord_trunc);
    put(w, S_FORCE_DEGAMMA, s->force_degamma);
    put(w, S_ANISO_BIAS, s->aniso_bias);
    put(w, S_TRUNC_COORD, s->trunc_coord);
    put(w, S_DISABLE_CUBE_WRAP, s->disable_cube_wrap);
    put(w, S_FILTER_MODE, s->filter_mode);
    put(w, S_SKIP_DEGAMMA, s->skip_degamma);
    put(w, S_MIN_LOD, to_ufix8(s->min_lod, 4095));
    put(w, S_MAX_LOD, to_ufix8(s->max_lod, 4095));
    put(w, S_PERF_MIP, s->perf_mip);
    put(w, S_PERF_Z, s->perf_z);
    put(w, S_LOD_BIAS, to_sfix8(s->lod_bias, 14));
    put(w, S_LOD_BIAS_SEC, s->lod_bias_sec);
    put(w, S_XY_MAG_FILTER, s->xy_mag_filter);
    put(w, S_XY_MIN_FILTER, s->xy_min_filter);
    put(w, S_Z_FILTER, s->z_filter);
    put(w, S_MIP_FILTER, s->mip_filter);
    put(w, S_MIP_POINT_PRECLAMP, s->mip_point_preclamp);
    put(w, S_ANISO_OVERRIDE, s->aniso_override);
    put(w, S_BLEND_ZERO_PRT, s->blend_zero_prt);
    put(w, S_BORDER_COLOR_PTR, s->border_color_ptr);
    put(w, S_BORDER_COLOR_TYPE, s->border_color_type);
}
