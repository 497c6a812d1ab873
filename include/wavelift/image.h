/* wavelift: the image resource descriptors of gfx10.3 (RDNA2, gfx1030) as
 * data (docs/images.md).
 *
 * A T# is the 8-dword image descriptor an image instruction (image_load,
 * image_sample, ...) names in its SRSRC operand; an S# is the 4-dword
 * sampler descriptor in its SSAMP operand. wl_tsharp_decode and
 * wl_ssharp_decode read them field by field and refuse, with a message
 * naming the word, the field and its value, what cannot be a gfx10.3
 * descriptor or what nothing here can describe (a buffer descriptor, a
 * reserved format, swizzle mode or selector, an inconsistent mip or layer
 * range); the encoders write the same fields back (tests build descriptors
 * with them). wl_img_format_info describes each value of the unified
 * FORMAT field (IMG_FORMAT): its name, texel size, components, number
 * format and the Vulkan format with the same texel layout and meaning.
 *
 * Plain C, no LLVM, no Vulkan: in libwavelift and in the runtime, the same
 * code (runtime/guest/tsharp.c). Vulkan formats are VkFormat values as
 * uint32_t. */
#ifndef WAVELIFT_IMAGE_H
#define WAVELIFT_IMAGE_H

#include "wavelift/api.h"

#include <stddef.h>
#include <stdint.h>

#include "wavelift/decode.h" /* wl_status */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- enumerations (the hardware's values) --------------------------------- */

/* T# word 3 TYPE (SQ_RSRC_IMG_*). 0 to 7 are buffer (V#) types and
 * reserved values: not an image. */
typedef enum wl_img_type {
    WL_IMG_1D = 8,
    WL_IMG_2D = 9,
    WL_IMG_3D = 10,
    WL_IMG_CUBE = 11,
    WL_IMG_1D_ARRAY = 12,
    WL_IMG_2D_ARRAY = 13,
    WL_IMG_2D_MSAA = 14,
    WL_IMG_2D_MSAA_ARRAY = 15
} wl_img_type;

/* T# word 3 DST_SEL_X/Y/Z/W (SQ_SEL_*): what each result component
 * returns. 2 and 3 are reserved. */
enum {
    WL_SEL_0 = 0, /* constant 0 */
    WL_SEL_1 = 1, /* constant 1 (1.0 or integer 1, as the format's kind) */
    WL_SEL_X = 4, /* the format's first component */
    WL_SEL_Y = 5,
    WL_SEL_Z = 6,
    WL_SEL_W = 7
};

/* T# word 3 SW_MODE: the swizzle (tiling) mode, AddrLib's numbering. Only
 * the modes gfx10's AddrLib defines (Gfx10Lib::SwizzleModeTable); the other
 * values (3, 4, 7, 8, 11 to 16, 19, 20, 29, 30) are reserved on gfx10 and
 * refused. The VAR modes are 16 KiB times the pipe count a block (RB+, as
 * gfx10.3 has it). */
enum {
    WL_SW_LINEAR = 0,
    WL_SW_256B_S = 1,
    WL_SW_256B_D = 2,
    WL_SW_4KB_S = 5,
    WL_SW_4KB_D = 6,
    WL_SW_64KB_S = 9,
    WL_SW_64KB_D = 10,
    WL_SW_64KB_S_T = 17,
    WL_SW_64KB_D_T = 18,
    WL_SW_4KB_S_X = 21,
    WL_SW_4KB_D_X = 22,
    WL_SW_4KB_R_X = 23,
    WL_SW_64KB_Z_X = 24,
    WL_SW_64KB_S_X = 25,
    WL_SW_64KB_D_X = 26,
    WL_SW_64KB_R_X = 27,
    WL_SW_VAR_Z_X = 28,
    WL_SW_VAR_R_X = 31
};

/* S# word 0 CLAMP_X/Y/Z (SQ_TEX_CLAMP). */
typedef enum wl_tex_clamp {
    WL_TEX_WRAP = 0,                    /* Vulkan REPEAT */
    WL_TEX_MIRROR = 1,                  /* MIRRORED_REPEAT */
    WL_TEX_CLAMP_LAST_TEXEL = 2,        /* CLAMP_TO_EDGE */
    WL_TEX_MIRROR_ONCE_LAST_TEXEL = 3,  /* MIRROR_CLAMP_TO_EDGE */
    WL_TEX_CLAMP_HALF_BORDER = 4,       /* no Vulkan equivalent */
    WL_TEX_MIRROR_ONCE_HALF_BORDER = 5, /* no Vulkan equivalent */
    WL_TEX_CLAMP_BORDER = 6,            /* CLAMP_TO_BORDER */
    WL_TEX_MIRROR_ONCE_BORDER = 7       /* no Vulkan equivalent */
} wl_tex_clamp;

/* S# word 2 XY_MAG_FILTER, XY_MIN_FILTER (SQ_TEX_XY_FILTER). */
typedef enum wl_tex_xy_filter {
    WL_TEX_XY_POINT = 0,
    WL_TEX_XY_BILINEAR = 1,
    WL_TEX_XY_ANISO_POINT = 2,
    WL_TEX_XY_ANISO_BILINEAR = 3
} wl_tex_xy_filter;

/* S# word 2 Z_FILTER (SQ_TEX_Z_FILTER): filtering between the slices of a
 * 3D image. 3 is reserved. */
typedef enum wl_tex_z_filter {
    WL_TEX_Z_NONE = 0,
    WL_TEX_Z_POINT = 1,
    WL_TEX_Z_LINEAR = 2
} wl_tex_z_filter;

/* S# word 2 MIP_FILTER (SQ_TEX_MIP_FILTER). */
typedef enum wl_tex_mip_filter {
    WL_TEX_MIP_NONE = 0, /* base level only */
    WL_TEX_MIP_POINT = 1,
    WL_TEX_MIP_LINEAR = 2,
    WL_TEX_MIP_POINT_ANISO_ADJ = 3
} wl_tex_mip_filter;

/* S# word 0 DEPTH_COMPARE_FUNC (SQ_TEX_DEPTH_COMPARE): Vulkan's
 * VkCompareOp order. RADV writes NEVER when compareEnable is off; the
 * instruction (image_sample_c and kin) decides whether it compares. */
typedef enum wl_tex_compare {
    WL_TEX_COMPARE_NEVER = 0,
    WL_TEX_COMPARE_LESS = 1,
    WL_TEX_COMPARE_EQUAL = 2,
    WL_TEX_COMPARE_LEQUAL = 3,
    WL_TEX_COMPARE_GREATER = 4,
    WL_TEX_COMPARE_NOTEQUAL = 5,
    WL_TEX_COMPARE_GEQUAL = 6,
    WL_TEX_COMPARE_ALWAYS = 7
} wl_tex_compare;

/* S# word 3 BORDER_COLOR_TYPE (SQ_TEX_BORDER_COLOR). */
typedef enum wl_tex_border_color {
    WL_TEX_BORDER_TRANS_BLACK = 0,
    WL_TEX_BORDER_OPAQUE_BLACK = 1,
    WL_TEX_BORDER_OPAQUE_WHITE = 2,
    WL_TEX_BORDER_REGISTER = 3 /* the colour at BORDER_COLOR_PTR in the device's table */
} wl_tex_border_color;

/* S# word 0 FILTER_MODE (SQ_IMG_FILTER_TYPE): Vulkan's sampler reduction
 * mode. 3 is reserved. */
typedef enum wl_tex_filter_mode {
    WL_TEX_FILTER_BLEND = 0, /* WEIGHTED_AVERAGE */
    WL_TEX_FILTER_MIN = 1,
    WL_TEX_FILTER_MAX = 2
} wl_tex_filter_mode;

/* ---- image formats ---------------------------------------------------------- */

/* How a format's components read. */
typedef enum wl_img_kind {
    WL_IMG_KIND_UNORM = 0,
    WL_IMG_KIND_SNORM,
    WL_IMG_KIND_USCALED, /* unsigned integer read as float */
    WL_IMG_KIND_SSCALED,
    WL_IMG_KIND_UINT,
    WL_IMG_KIND_SINT,
    WL_IMG_KIND_FLOAT,
    WL_IMG_KIND_SRGB
} wl_img_kind;

/* wl_img_format.flags */
enum {
    WL_IMG_FMT_BUFFER_ONLY = 1u << 0,   /* a buffer format only (32_32_32): a T# with it is refused */
    WL_IMG_FMT_BLOCK = 1u << 1,         /* texels come in block_w x block_h blocks of block_bytes */
    WL_IMG_FMT_DEPTH_STENCIL = 1u << 2, /* 8_24, 24_8, X24_8_32: a depth and a stencil component */
    WL_IMG_FMT_FMASK = 1u << 3,         /* an MSAA image's FMASK, not colour data */
    WL_IMG_FMT_UNKNOWN_LAYOUT = 1u << 4 /* the sources do not give its bit layout (see tsharp.c) */
};

/* One value of the IMG_FORMAT field (Mesa 22.3.6's GFX10_FORMAT
 * enumeration, which gfx10.1 and gfx10.3 share). Components are counted
 * from the least significant bits: the name lists them from the most
 * significant ("2_10_10_10": X is the low 10 bits, W the top 2), so X is
 * the first byte of 8_8_8_8 in memory. vk_format maps X, Y, Z, W to R, G,
 * B, A (the T#'s DST_SEL applies after, as a view's component mapping),
 * and is nonzero only where that Vulkan format has the same bits and reads
 * them the same way. */
typedef struct wl_img_format {
    uint16_t fmt;            /* the IMG_FORMAT value */
    const char *name;        /* "8_8_8_8_UNORM": the enumeration's name less IMG_FORMAT_ */
    uint8_t bytes_per_texel; /* 0: a block format, below a byte, or an unknown layout */
    uint8_t block_bytes;     /* bytes a block (BLOCK), else bytes_per_texel */
    uint8_t block_w, block_h; /* texels a block: 4 x 4 for BC, 2 x 1 for GB_GR, BG_RG; else 1 x 1 */
    uint8_t components;      /* 1 to 4 */
    uint8_t kind;            /* wl_img_kind */
    uint8_t flags;           /* WL_IMG_FMT_* */
    uint32_t vk_format;      /* VkFormat; 0: no Vulkan format is the same */
} wl_img_format;

/* The description of IMG_FORMAT value fmt; NULL for INVALID (0), a
 * reserved value or one above 511. */
WL_API const wl_img_format *wl_img_format_info(uint32_t fmt);

/* ---- the T# (SQ_IMG_RSRC_WORD0..7) ------------------------------------------ */

/* A decoded T#. The fields marked (in) are what wl_tsharp_encode writes;
 * the decoder fills the others from them (derived). Sizes are those of the
 * resource's level 0, whatever levels the view selects. */
typedef struct wl_tsharp {
    /* words 0 and 1 */
    uint64_t base_address; /* (in) bytes, bits 47:8; the _X swizzle modes keep a pipe/bank
                              xor in the low bits (Mesa's tile_swizzle): not split off */
    float min_lod;         /* (in) MIN_LOD, unsigned 4.8 fixed point: 0 to 15.99609375 */
    uint32_t format;       /* (in) IMG_FORMAT, 9 bits: wl_img_format_info */
    /* words 1 and 2 */
    uint32_t width, height; /* (in) 1 to 16384 texels */
    /* word 3 */
    uint8_t dst_sel[4];   /* (in) WL_SEL_*: result x, y, z, w */
    uint8_t base_level;   /* (in) the view's first level (0 for MSAA) */
    uint8_t last_level;   /* (in) the view's last level; MSAA: log2 of the sample count */
    uint8_t sw_mode;      /* (in) WL_SW_*: 0 linear */
    uint8_t bc_swizzle;   /* (in) border colour swizzle, 0 to 5 (XYZW, XWYZ, WZYX, WXYZ, ZYXW, YXWZ) */
    uint8_t type;         /* (in) wl_img_type */
    /* word 4: DEPTH (bits 12:0) means a different thing for each type; on
     * gfx10.3 bits 13:0 are PITCH for 1D, 2D and 2D_MSAA */
    uint32_t depth;       /* (in) 3D: slices (DEPTH + 1); else 1 */
    uint32_t pitch;       /* (in) 1D, 2D, 2D_MSAA: PITCH + 1 in texels (the hardware uses it
                             where it exceeds width: see row_pitch); else 0 */
    uint32_t base_array;  /* (in) BASE_ARRAY: the first layer (faces for CUBE); a 3D image
                             with array_pitch 1: the first slice */
    uint32_t last_array;  /* (in) 1D_ARRAY, 2D_ARRAY, 2D_MSAA_ARRAY, CUBE: DEPTH, the last
                             layer the view reaches (faces for CUBE); else 0 */
    /* word 5 */
    uint8_t array_pitch;  /* (in) 3D only (Mesa): 0 the whole volume, 1 the slices
                             base_array .. depth - 1 of the bound level (storage views) */
    uint8_t max_mip;      /* (in) the resource's last level (levels - 1); MSAA: log2 samples */
    uint16_t min_lod_warn; /* (in) MIN_LOD_WARN, raw 12 bits */
    uint8_t perf_mod;     /* (in) PERF_MOD, raw 3 bits (RADV writes 4) */
    uint8_t corner_samples, lod_hdw_cnt_en, prt_default, big_page; /* (in) one bit each */
    /* words 6 and 7: compression metadata */
    uint8_t counter_bank_id;            /* (in) 8 bits */
    uint8_t llc_noalloc;                /* (in) 2 bits */
    uint8_t iterate_256;                /* (in) */
    uint8_t max_uncompressed_block_size; /* (in) 2 bits */
    uint8_t max_compressed_block_size;   /* (in) 2 bits */
    uint8_t meta_pipe_aligned, write_compress_enable, compression_en; /* (in) */
    uint8_t alpha_is_on_msb, color_transform;                       /* (in) */
    uint64_t meta_address; /* (in) DCC or HTILE metadata, bits 47:8; read only where
                              compression_en is set */
    /* derived */
    uint32_t samples;         /* MSAA: 1 << last_level; else 1 */
    uint32_t layers;          /* array types and CUBE: last_array + 1 (the layers the resource
                                 needs at least); else 1 */
    uint32_t bytes_per_texel; /* the format's (0 for block formats) */
    uint32_t row_pitch;       /* linear (sw_mode 0), not MSAA, not a block format: level 0's
                                 texels from one row to the next: pitch where it exceeds width
                                 (gfx10.3's custom pitch), else width rounded up to 256 bytes
                                 (AddrLib); 0 where not known. A one-level linear resource's
                                 slice (layer) is row_pitch * height texels; with more levels
                                 AddrLib puts the smallest level first, so level 0 does not
                                 start at base_address (the offsets are not computed here). */
} wl_tsharp;

/* Decodes the 8 words of a T#. WL_OK and *out filled, or
 * WL_ERR_UNSUPPORTED and a message in err (may be NULL) naming the word,
 * field and value of the first of: TYPE below 8 (a buffer descriptor or a
 * reserved type); RESOURCE_LEVEL 0 (must be 1 on gfx10); FORMAT INVALID,
 * reserved or buffer-only; a reserved DST_SEL, SW_MODE or BC_SWIZZLE;
 * BASE_LEVEL above LAST_LEVEL (not MSAA); LAST_LEVEL above MAX_MIP;
 * BASE_ARRAY above the last layer (array types, CUBE). w or out NULL:
 * WL_ERR_USAGE. Bits no field names are ignored. Never reads past w[7]. */
WL_API wl_status wl_tsharp_decode(const uint32_t w[8], wl_tsharp *out, char *err, size_t errcap);
/* Writes the (in) fields of t as 8 words, each masked to its field's width
 * (min_lod rounded to the nearest 1/256 and clamped; width, height, depth
 * and pitch of 0 written as 1). RESOURCE_LEVEL is set; the bits no field
 * names are 0. Validates nothing: decoding what it wrote checks. */
WL_API void wl_tsharp_encode(const wl_tsharp *t, uint32_t w[8]);

/* ---- the S# (SQ_IMG_SAMP_WORD0..3) ------------------------------------------ */

typedef struct wl_ssharp {
    /* word 0 */
    uint8_t clamp_x, clamp_y, clamp_z; /* wl_tex_clamp: u, v, w addressing */
    uint8_t max_aniso_ratio;   /* log2 of the ratio: 0 (1:1) to 4 (16:1), as RADV writes it;
                                  5 to 7 are not named by the sources (kept as they are) */
    uint8_t depth_compare;     /* wl_tex_compare */
    uint8_t force_unnormalized; /* coordinates in texels (unnormalizedCoordinates) */
    uint8_t aniso_threshold;   /* raw 3 bits (RADV: max_aniso_ratio >> 1) */
    uint8_t mc_coord_trunc;
    uint8_t force_degamma;
    uint8_t aniso_bias;        /* raw 6 bits (RADV: max_aniso_ratio) */
    uint8_t trunc_coord;       /* coordinates truncated, not rounded, for point sampling
                                  (RADV: when both filters are nearest) */
    uint8_t disable_cube_wrap; /* VK_SAMPLER_CREATE_NON_SEAMLESS_CUBE_MAP_BIT_EXT */
    uint8_t filter_mode;       /* wl_tex_filter_mode */
    uint8_t skip_degamma;
    /* word 1 */
    float min_lod, max_lod;    /* unsigned 4.8 fixed point: 0 to 15.99609375 */
    uint8_t perf_mip, perf_z;  /* raw 4 bits each (RADV: PERF_MIP = ratio + 6 when anisotropic) */
    /* word 2 */
    float lod_bias;            /* signed 6.8 fixed point (two's complement, 14 bits): -32 to
                                  31.99609375 (RADV clamps to -16 .. 16) */
    uint8_t lod_bias_sec;      /* LOD_BIAS_SEC, raw 6 bits: its format is not in the sources */
    uint8_t xy_mag_filter, xy_min_filter; /* wl_tex_xy_filter */
    uint8_t z_filter;          /* wl_tex_z_filter */
    uint8_t mip_filter;        /* wl_tex_mip_filter (Vulkan's mipmapMode) */
    uint8_t mip_point_preclamp, aniso_override, blend_zero_prt;
    /* word 3 */
    uint16_t border_color_ptr; /* 12 bits: the index of the colour in the device's border
                                  colour table (RADV's slot) for WL_TEX_BORDER_REGISTER */
    uint8_t border_color_type; /* wl_tex_border_color */
} wl_ssharp;

/* Decodes the 4 words of an S#. WL_OK, or WL_ERR_UNSUPPORTED naming the
 * field and value of: Z_FILTER 3 or FILTER_MODE 3 (reserved);
 * DERIV_ADJUST_EN set (word 2 bit 31: the border colour then moves to word
 * 2 and word 3 holds derivative adjustments whose layout the sources do not
 * give). w or out NULL: WL_ERR_USAGE. Bits no field names are ignored. */
WL_API wl_status wl_ssharp_decode(const uint32_t w[4], wl_ssharp *out, char *err, size_t errcap);
/* Writes s as 4 words, each field masked to its width; the LOD values
 * rounded to the nearest 1/256 and clamped to their fields' ranges. */
WL_API void wl_ssharp_encode(const wl_ssharp *s, uint32_t w[4]);

#ifdef __cplusplus
}
#endif
#endif
