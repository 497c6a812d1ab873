// Suite: images as clang-19 compiles OpenCL's image built-ins without a
// sampler (image_load, image_store of linear images, docs/images.md), given
// by `wavelift run`'s img1d:/img2d: arguments and by OpenCL images on PoCL.
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
