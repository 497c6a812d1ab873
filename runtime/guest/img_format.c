/* The image formats of gfx10.3 (wavelift/image.h, wl_img_format_info): the
 * unified IMG_FORMAT field of a T# (word 1 bits 28:20) as a table.
 *
 * Checked against Mesa 22.3.6 (Debian's mesa_22.3.6.orig.tar.gz, the RADV
 * of this project's oracle): src/amd/registers/gfx10-rsrc.json, enum
 * GFX10_FORMAT (the values and names below, 159 of them besides INVALID;
 * the "buffers_only" flags); src/amd/common/gfx10_format_table.h, whose
 * ac_get_gfx10_format_table gives gfx10.1 and gfx10.3 the same table (only
 * gfx11 has its own enumeration, GFX11_FORMAT in gfx11-rsrc.json, which
 * departs from this one from value 30 on); gfx10_format_table.py, whose
 * reading of the names (bit sizes listed from the most significant
 * component, reversed to little-endian order) and HARDCODED list
 * (R11G11B10_FLOAT is 10_11_11_FLOAT, R9G9B9E5_FLOAT is 5_9_9_9_FLOAT,
 * Z24_UNORM_S8_UINT is 8_24_UNORM, Z32_FLOAT_S8X24_UINT is X24_8_32_FLOAT)
 * fix which bits each component holds.
 *
 * The Vulkan column maps X, Y, Z, W to R, G, B, A and names a format only
 * where it has the same bits read the same way. None where:
 *   - the lowest component is not R's: 10_10_10_2 (X is 2 bits), 11_11_10
 *     (X is 10 bits), 5_5_5_1 (X is 1 bit: it is R5G5B5A1_UNORM_PACK16 with
 *     the components reversed), 4_4 (R4G4_UNORM_PACK8 reversed);
 *   - Vulkan lacks the bit sizes: 10_11_11 but its FLOAT, 11_11_10, the
 *     1-bit formats;
 *   - depth and stencil (8_24, 24_8, X24_8_32): Vulkan's depth/stencil
 *     formats have no defined memory layout;
 *   - 32_FLOAT_CLAMP (R32_SFLOAT bits read clamped; Mesa uses it for depth);
 *   - GB_GR and BG_RG (4:2:2, two texels in 4 bytes): which of Vulkan's
 *     G8B8G8R8_422 and B8G8R8G8_422 byte orders each is, the sources do not
 *     say;
 *   - FMASK (metadata of an MSAA image);
 *   - layouts the sources do not give (WL_IMG_FMT_UNKNOWN_LAYOUT): 6E4 and
 *     7E3 (small floats, presumably 10 bits; their packing is not given),
 *     the MM_ (multimedia) formats (what sets them apart from the plain ones
 *     is not given), YCBCR, and the bit order of 1 and 1_REVERSED.
 * BC1 reads its alpha as the block says (RADV maps BC1_RGB to it with W
 * selected as 1): BC1_RGBA. 1_5_5_5 is Vulkan 1.3.268's
 * A1B5G5R5_UNORM_PACK16_KHR (VK_KHR_maintenance5), newer than some headers:
 * its value is written here. */
#include "wavelift/image.h"

#include <vulkan/vulkan_core.h>

#define VK_A1B5G5R5_UNORM_PACK16 1000470000u /* VK_FORMAT_A1B5G5R5_UNORM_PACK16_KHR */

enum { UN = WL_IMG_KIND_UNORM, SN = WL_IMG_KIND_SNORM, US = WL_IMG_KIND_USCALED,
       SS = WL_IMG_KIND_SSCALED, UI = WL_IMG_KIND_UINT, SI = WL_IMG_KIND_SINT,
       FL = WL_IMG_KIND_FLOAT, SR = WL_IMG_KIND_SRGB };
enum { BUF = WL_IMG_FMT_BUFFER_ONLY, DS = WL_IMG_FMT_DEPTH_STENCIL, FM = WL_IMG_FMT_FMASK,
       UNK = WL_IMG_FMT_UNKNOWN_LAYOUT };

/* value, name, bytes a texel, components, kind, flags, Vulkan format */
#define T(v, nm, bytes, comps, kind, flags, vk) [v] = {v, nm, bytes, bytes, 1, 1, comps, kind, flags, vk}
/* value, name, bytes a block, block width and height, components, kind, Vulkan format */
#define B(v, nm, bytes, bw, bh, comps, kind, vk) [v] = {v, nm, 0, bytes, bw, bh, comps, kind, WL_IMG_FMT_BLOCK, vk}

static const wl_img_format formats[512] = {
    T(1, "8_UNORM", 1, 1, UN, 0, VK_FORMAT_R8_UNORM),
    T(2, "8_SNORM", 1, 1, SN, 0, VK_FORMAT_R8_SNORM),
    T(3, "8_USCALED", 1, 1, US, 0, VK_FORMAT_R8_USCALED),
    T(4, "8_SSCALED", 1, 1, SS, 0, VK_FORMAT_R8_SSCALED),
    T(5, "8_UINT", 1, 1, UI, 0, VK_FORMAT_R8_UINT),
    T(6, "8_SINT", 1, 1, SI, 0, VK_FORMAT_R8_SINT),
    T(7, "16_UNORM", 2, 1, UN, 0, VK_FORMAT_R16_UNORM),
    T(8, "16_SNORM", 2, 1, SN, 0, VK_FORMAT_R16_SNORM),
    T(9, "16_USCALED", 2, 1, US, 0, VK_FORMAT_R16_USCALED),
    T(10, "16_SSCALED", 2, 1, SS, 0, VK_FORMAT_R16_SSCALED),
    T(11, "16_UINT", 2, 1, UI, 0, VK_FORMAT_R16_UINT),
    T(12, "16_SINT", 2, 1, SI, 0, VK_FORMAT_R16_SINT),
    T(13, "16_FLOAT", 2, 1, FL, 0, VK_FORMAT_R16_SFLOAT),
    T(14, "8_8_UNORM", 2, 2, UN, 0, VK_FORMAT_R8G8_UNORM),
    T(15, "8_8_SNORM", 2, 2, SN, 0, VK_FORMAT_R8G8_SNORM),
    T(16, "8_8_USCALED", 2, 2, US, 0, VK_FORMAT_R8G8_USCALED),
    T(17, "8_8_SSCALED", 2, 2, SS, 0, VK_FORMAT_R8G8_SSCALED),
    T(18, "8_8_UINT", 2, 2, UI, 0, VK_FORMAT_R8G8_UINT),
    T(19, "8_8_SINT", 2, 2, SI, 0, VK_FORMAT_R8G8_SINT),
    T(20, "32_UINT", 4, 1, UI, 0, VK_FORMAT_R32_UINT),
    T(21, "32_SINT", 4, 1, SI, 0, VK_FORMAT_R32_SINT),
    T(22, "32_FLOAT", 4, 1, FL, 0, VK_FORMAT_R32_SFLOAT),
    T(23, "16_16_UNORM", 4, 2, UN, 0, VK_FORMAT_R16G16_UNORM),
    T(24, "16_16_SNORM", 4, 2, SN, 0, VK_FORMAT_R16G16_SNORM),
    T(25, "16_16_USCALED", 4, 2, US, 0, VK_FORMAT_R16G16_USCALED),
    T(26, "16_16_SSCALED", 4, 2, SS, 0, VK_FORMAT_R16G16_SSCALED),
    T(27, "16_16_UINT", 4, 2, UI, 0, VK_FORMAT_R16G16_UINT),
    T(28, "16_16_SINT", 4, 2, SI, 0, VK_FORMAT_R16G16_SINT),
    T(29, "16_16_FLOAT", 4, 2, FL, 0, VK_FORMAT_R16G16_SFLOAT),
    /* X: bits 10:0, Y: 21:11, Z: 31:22 */
    T(30, "10_11_11_UNORM", 4, 3, UN, 0, 0),
    T(31, "10_11_11_SNORM", 4, 3, SN, 0, 0),
    T(32, "10_11_11_USCALED", 4, 3, US, 0, 0),
    T(33, "10_11_11_SSCALED", 4, 3, SS, 0, 0),
    T(34, "10_11_11_UINT", 4, 3, UI, 0, 0),
    T(35, "10_11_11_SINT", 4, 3, SI, 0, 0),
    T(36, "10_11_11_FLOAT", 4, 3, FL, 0, VK_FORMAT_B10G11R11_UFLOAT_PACK32),
    /* X: bits 9:0, Y: 20:10, Z: 31:21 */
    T(37, "11_11_10_UNORM", 4, 3, UN, 0, 0),
    T(38, "11_11_10_SNORM", 4, 3, SN, 0, 0),
    T(39, "11_11_10_USCALED", 4, 3, US, 0, 0),
    T(40, "11_11_10_SSCALED", 4, 3, SS, 0, 0),
    T(41, "11_11_10_UINT", 4, 3, UI, 0, 0),
    T(42, "11_11_10_SINT", 4, 3, SI, 0, 0),
    T(43, "11_11_10_FLOAT", 4, 3, FL, 0, 0),
    /* X: bits 1:0, Y: 11:2, Z: 21:12, W: 31:22 */
    T(44, "10_10_10_2_UNORM", 4, 4, UN, 0, 0),
    T(45, "10_10_10_2_SNORM", 4, 4, SN, 0, 0),
    T(46, "10_10_10_2_USCALED", 4, 4, US, 0, 0),
    T(47, "10_10_10_2_SSCALED", 4, 4, SS, 0, 0),
    T(48, "10_10_10_2_UINT", 4, 4, UI, 0, 0),
    T(49, "10_10_10_2_SINT", 4, 4, SI, 0, 0),
    /* X: bits 9:0, Y: 19:10, Z: 29:20, W: 31:30 */
    T(50, "2_10_10_10_UNORM", 4, 4, UN, 0, VK_FORMAT_A2B10G10R10_UNORM_PACK32),
    T(51, "2_10_10_10_SNORM", 4, 4, SN, 0, VK_FORMAT_A2B10G10R10_SNORM_PACK32),
    T(52, "2_10_10_10_USCALED", 4, 4, US, 0, VK_FORMAT_A2B10G10R10_USCALED_PACK32),
    T(53, "2_10_10_10_SSCALED", 4, 4, SS, 0, VK_FORMAT_A2B10G10R10_SSCALED_PACK32),
    T(54, "2_10_10_10_UINT", 4, 4, UI, 0, VK_FORMAT_A2B10G10R10_UINT_PACK32),
    T(55, "2_10_10_10_SINT", 4, 4, SI, 0, VK_FORMAT_A2B10G10R10_SINT_PACK32),
    T(56, "8_8_8_8_UNORM", 4, 4, UN, 0, VK_FORMAT_R8G8B8A8_UNORM),
    T(57, "8_8_8_8_SNORM", 4, 4, SN, 0, VK_FORMAT_R8G8B8A8_SNORM),
    T(58, "8_8_8_8_USCALED", 4, 4, US, 0, VK_FORMAT_R8G8B8A8_USCALED),
    T(59, "8_8_8_8_SSCALED", 4, 4, SS, 0, VK_FORMAT_R8G8B8A8_SSCALED),
    T(60, "8_8_8_8_UINT", 4, 4, UI, 0, VK_FORMAT_R8G8B8A8_UINT),
    T(61, "8_8_8_8_SINT", 4, 4, SI, 0, VK_FORMAT_R8G8B8A8_SINT),
    T(62, "32_32_UINT", 8, 2, UI, 0, VK_FORMAT_R32G32_UINT),
    T(63, "32_32_SINT", 8, 2, SI, 0, VK_FORMAT_R32G32_SINT),
    T(64, "32_32_FLOAT", 8, 2, FL, 0, VK_FORMAT_R32G32_SFLOAT),
    T(65, "16_16_16_16_UNORM", 8, 4, UN, 0, VK_FORMAT_R16G16B16A16_UNORM),
    T(66, "16_16_16_16_SNORM", 8, 4, SN, 0, VK_FORMAT_R16G16B16A16_SNORM),
    T(67, "16_16_16_16_USCALED", 8, 4, US, 0, VK_FORMAT_R16G16B16A16_USCALED),
    T(68, "16_16_16_16_SSCALED", 8, 4, SS, 0, VK_FORMAT_R16G16B16A16_SSCALED),
    T(69, "16_16_16_16_UINT", 8, 4, UI, 0, VK_FORMAT_R16G16B16A16_UINT),
    T(70, "16_16_16_16_SINT", 8, 4, SI, 0, VK_FORMAT_R16G16B16A16_SINT),
    T(71, "16_16_16_16_FLOAT", 8, 4, FL, 0, VK_FORMAT_R16G16B16A16_SFLOAT),
    T(72, "32_32_32_UINT", 12, 3, UI, BUF, VK_FORMAT_R32G32B32_UINT),
    T(73, "32_32_32_SINT", 12, 3, SI, BUF, VK_FORMAT_R32G32B32_SINT),
    T(74, "32_32_32_FLOAT", 12, 3, FL, BUF, VK_FORMAT_R32G32B32_SFLOAT),
    T(75, "32_32_32_32_UINT", 16, 4, UI, 0, VK_FORMAT_R32G32B32A32_UINT),
    T(76, "32_32_32_32_SINT", 16, 4, SI, 0, VK_FORMAT_R32G32B32A32_SINT),
    T(77, "32_32_32_32_FLOAT", 16, 4, FL, 0, VK_FORMAT_R32G32B32A32_SFLOAT),
    /* 78 to 127 reserved */
    T(128, "8_SRGB", 1, 1, SR, 0, VK_FORMAT_R8_SRGB),
    T(129, "8_8_SRGB", 2, 2, SR, 0, VK_FORMAT_R8G8_SRGB),
    T(130, "8_8_8_8_SRGB", 4, 4, SR, 0, VK_FORMAT_R8G8B8A8_SRGB),
    T(131, "6E4_FLOAT", 0, 1, FL, UNK, 0),
    T(132, "5_9_9_9_FLOAT", 4, 3, FL, 0, VK_FORMAT_E5B9G9R9_UFLOAT_PACK32),
    T(133, "5_6_5_UNORM", 2, 3, UN, 0, VK_FORMAT_B5G6R5_UNORM_PACK16),  /* X: bits 4:0 */
    T(134, "1_5_5_5_UNORM", 2, 4, UN, 0, VK_A1B5G5R5_UNORM_PACK16),     /* W: bit 15 */
    T(135, "5_5_5_1_UNORM", 2, 4, UN, 0, 0),                            /* X: bit 0 */
    T(136, "4_4_4_4_UNORM", 2, 4, UN, 0, VK_FORMAT_A4B4G4R4_UNORM_PACK16), /* X: bits 3:0 */
    T(137, "4_4_UNORM", 1, 2, UN, 0, 0),                                /* X: bits 3:0 */
    T(138, "1_UNORM", 0, 1, UN, UNK, 0),
    T(139, "1_REVERSED_UNORM", 0, 1, UN, UNK, 0),
    T(140, "32_FLOAT_CLAMP", 4, 1, FL, 0, 0),
    T(141, "8_24_UNORM", 4, 2, UN, DS, 0), /* X: depth, bits 23:0; Y: stencil, bits 31:24 */
    T(142, "8_24_UINT", 4, 2, UI, DS, 0),
    T(143, "24_8_UNORM", 4, 2, UN, DS, 0), /* X: stencil, bits 7:0; Y: depth, bits 31:8 */
    T(144, "24_8_UINT", 4, 2, UI, DS, 0),
    T(145, "X24_8_32_UINT", 8, 2, UI, DS, 0), /* X: depth, bits 31:0; Y: stencil, bits 39:32 */
    T(146, "X24_8_32_FLOAT", 8, 2, FL, DS, 0),
    B(147, "GB_GR_UNORM", 4, 2, 1, 3, UN, 0),
    B(148, "GB_GR_SNORM", 4, 2, 1, 3, SN, 0),
    B(149, "GB_GR_UINT", 4, 2, 1, 3, UI, 0),
    B(150, "GB_GR_SRGB", 4, 2, 1, 3, SR, 0),
    B(151, "BG_RG_UNORM", 4, 2, 1, 3, UN, 0),
    B(152, "BG_RG_SNORM", 4, 2, 1, 3, SN, 0),
    B(153, "BG_RG_UINT", 4, 2, 1, 3, UI, 0),
    B(154, "BG_RG_SRGB", 4, 2, 1, 3, SR, 0),
    /* 155 reserved */
    T(156, "FMASK8_S2_F1", 1, 1, UI, FM, 0),
    T(157, "FMASK8_S4_F1", 1, 1, UI, FM, 0),
    T(158, "FMASK8_S8_F1", 1, 1, UI, FM, 0),
    T(159, "FMASK8_S2_F2", 1, 1, UI, FM, 0),
    T(160, "FMASK8_S4_F2", 1, 1, UI, FM, 0),
    T(161, "FMASK8_S4_F4", 1, 1, UI, FM, 0),
    T(162, "FMASK16_S16_F1", 2, 1, UI, FM, 0),
    T(163, "FMASK16_S8_F2", 2, 1, UI, FM, 0),
    T(164, "FMASK32_S16_F2", 4, 1, UI, FM, 0),
    T(165, "FMASK32_S8_F4", 4, 1, UI, FM, 0),
    T(166, "FMASK32_S8_F8", 4, 1, UI, FM, 0),
    T(167, "FMASK64_S16_F4", 8, 1, UI, FM, 0),
    T(168, "FMASK64_S16_F8", 8, 1, UI, FM, 0),
    B(169, "BC1_UNORM", 8, 4, 4, 4, UN, VK_FORMAT_BC1_RGBA_UNORM_BLOCK),
    B(170, "BC1_SRGB", 8, 4, 4, 4, SR, VK_FORMAT_BC1_RGBA_SRGB_BLOCK),
    B(171, "BC2_UNORM", 16, 4, 4, 4, UN, VK_FORMAT_BC2_UNORM_BLOCK),
    B(172, "BC2_SRGB", 16, 4, 4, 4, SR, VK_FORMAT_BC2_SRGB_BLOCK),
    B(173, "BC3_UNORM", 16, 4, 4, 4, UN, VK_FORMAT_BC3_UNORM_BLOCK),
    B(174, "BC3_SRGB", 16, 4, 4, 4, SR, VK_FORMAT_BC3_SRGB_BLOCK),
    B(175, "BC4_UNORM", 8, 4, 4, 1, UN, VK_FORMAT_BC4_UNORM_BLOCK),
    B(176, "BC4_SNORM", 8, 4, 4, 1, SN, VK_FORMAT_BC4_SNORM_BLOCK),
    B(177, "BC5_UNORM", 16, 4, 4, 2, UN, VK_FORMAT_BC5_UNORM_BLOCK),
    B(178, "BC5_SNORM", 16, 4, 4, 2, SN, VK_FORMAT_BC5_SNORM_BLOCK),
    B(179, "BC6_UFLOAT", 16, 4, 4, 3, FL, VK_FORMAT_BC6H_UFLOAT_BLOCK),
    B(180, "BC6_SFLOAT", 16, 4, 4, 3, FL, VK_FORMAT_BC6H_SFLOAT_BLOCK),
    B(181, "BC7_UNORM", 16, 4, 4, 4, UN, VK_FORMAT_BC7_UNORM_BLOCK),
    B(182, "BC7_SRGB", 16, 4, 4, 4, SR, VK_FORMAT_BC7_SRGB_BLOCK),
    /* 183 to 264 reserved */
    T(265, "MM_8_UNORM", 0, 1, UN, UNK, 0),
    T(266, "MM_8_UINT", 0, 1, UI, UNK, 0),
    T(267, "MM_8_8_UNORM", 0, 2, UN, UNK, 0),
    T(268, "MM_8_8_UINT", 0, 2, UI, UNK, 0),
    T(269, "MM_8_8_8_8_UNORM", 0, 4, UN, UNK, 0),
    T(270, "MM_8_8_8_8_UINT", 0, 4, UI, UNK, 0),
    T(271, "MM_VYUY8_UNORM", 0, 3, UN, UNK, 0),
    T(272, "MM_VYUY8_UINT", 0, 3, UI, UNK, 0),
    T(273, "MM_10_11_11_UNORM", 0, 3, UN, UNK, 0),
    T(274, "MM_10_11_11_UINT", 0, 3, UI, UNK, 0),
    T(275, "MM_2_10_10_10_UNORM", 0, 4, UN, UNK, 0),
    T(276, "MM_2_10_10_10_UINT", 0, 4, UI, UNK, 0),
    T(277, "MM_16_16_16_16_UNORM", 0, 4, UN, UNK, 0),
    T(278, "MM_16_16_16_16_UINT", 0, 4, UI, UNK, 0),
    T(279, "MM_10_IN_16_UNORM", 0, 1, UN, UNK, 0),
    T(280, "MM_10_IN_16_UINT", 0, 1, UI, UNK, 0),
    T(281, "MM_10_IN_16_16_UNORM", 0, 2, UN, UNK, 0),
    T(282, "MM_10_IN_16_16_UINT", 0, 2, UI, UNK, 0),
    T(283, "MM_10_IN_16_16_16_16_UNORM", 0, 4, UN, UNK, 0),
    T(284, "MM_10_IN_16_16_16_16_UINT", 0, 4, UI, UNK, 0),
    T(285, "7E3_FLOAT", 0, 1, FL, UNK, 0),
    T(286, "YCBCR_UNORM", 0, 3, UN, UNK, 0),
    T(287, "YCBCR_SNORM", 0, 3, SN, UNK, 0),
    T(288, "YCBCR_USCALED", 0, 3, US, UNK, 0),
    T(289, "YCBCR_SSCALED", 0, 3, SS, UNK, 0),
    T(290, "YCBCR_UINT", 0, 3, UI, UNK, 0),
    T(291, "YCBCR_SINT", 0, 3, SI, UNK, 0),
    T(292, "YCBCR_SRGB", 0, 3, SR, UNK, 0),
    /* 293 to 511 reserved */
};

const wl_img_format *wl_img_format_info(uint32_t fmt)
{
    if (fmt >= sizeof formats / sizeof formats[0] || !formats[fmt].name)
        return 0;
    return &formats[fmt];
}
