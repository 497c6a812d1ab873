// Suite: images as clang-19 compiles OpenCL's image built-ins (image_load,
// image_store of linear images; with a nearest sampler image_sample_lz,
// docs/images.md), given by `wavelift run`'s img1d:/img2d: arguments and by
// OpenCL images on PoCL. Sample coordinates keep clear of texel boundaries
// (a quarter texel at least) but where they are exact in texels: what the
// hardware reads nearer than 1/64 of a texel to a boundary is not modelled.
// Conversions are chosen without rounding ties (UNORM8 to UNORM16 is exact;
// how the hardware rounds an exact tie of a float stored to UNORM is not
// known here: docs/images.md).
//! run img_convert global=16,8 local=8,8
//! arg img2d:8_8_8_8_UNORM:16:8:rand:128
//! arg img2d:16_16_16_16_UNORM:16:8:rand:256
//! out 1
//! run img_uint global=32,4 local=16,4
//! arg img2d:32_UINT:32:4:rand:128
//! arg img2d:32_UINT:32:4:rand:128
//! arg rand:16
//! out 1
//! run img_1d global=64 local=64
//! arg img1d:32_32_32_32_FLOAT:64:randf:256
//! arg img1d:16_16_16_16_SINT:64:rand:128
//! arg zero:1024
//! out 2
//! run img_sample_edge global=16,8 local=8,8
//! arg img2d:32_32_32_32_FLOAT:12:6:randf:288
//! arg img2d:8_8_8_8_UINT:12:6:rand:72
//! arg zero:6144
//! out 2
//! run img_sample_norm global=16,8 local=8,8
//! arg img2d:32_32_32_32_FLOAT:16:8:randf:512
//! arg zero:6144
//! out 1
kernel void img_convert(read_only image2d_t src, write_only image2d_t dst)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(dst, p, read_imagef(src, p));
}

kernel void img_uint(read_only image2d_t src, write_only image2d_t dst, global const uint *lut)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    uint4 v = read_imageui(src, p);
    write_imageui(dst, p, v * 3u + lut[p.x & 15]);
}

kernel void img_1d(read_only image1d_t f, read_only image1d_t s, global float4 *out)
{
    int i = get_global_id(0);
    out[i] = read_imagef(f, i) + convert_float4(read_imagei(s, i));
}

constant sampler_t near_edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
constant sampler_t near_repeat = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_NEAREST;
constant sampler_t near_mirror = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_NEAREST;
constant sampler_t near_clamp = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

// unnormalized coordinates, clamped to the edge: integers (exact texels)
// and floats a quarter texel or more from a boundary, some outside
kernel void img_sample_edge(read_only image2d_t f, read_only image2d_t u, global float4 *out)
{
    int x = get_global_id(0), y = get_global_id(1), i = y * 16 + x;
    out[i] = read_imagef(f, near_edge, (int2)(x - 2, y - 1));
    out[128 + i] = read_imagef(f, near_edge, (float2)(x * 1.25f - 2.375f, y * 1.5f - 0.5f));
    out[256 + i] = as_float4(read_imageui(u, near_edge, (int2)(x * 2 - 5, y + 2)));
}

// normalized coordinates, repeated, mirrored and clamped. clang-19 snaps a
// nearest sample's coordinate to its texel's corner (floor(c * size) times
// the size's reciprocal): exact only for a size that is a power of two, so
// this image is 16 x 8 (other sizes escape: docs/images.md)
kernel void img_sample_norm(read_only image2d_t f, global float4 *out)
{
    int x = get_global_id(0), y = get_global_id(1), i = y * 16 + x;
    float2 c = (float2)((x * 1.25f - 4.625f) / 16.0f, (y * 1.25f - 1.625f) / 8.0f);
    out[i] = read_imagef(f, near_repeat, c);
    out[128 + i] = read_imagef(f, near_mirror, c);
    out[256 + i] = read_imagef(f, near_clamp, c);
}
