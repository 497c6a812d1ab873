// Images: read_imagef / read_imagei / write_imagef on image1d, image2d and
// image3d with samplers and integer coordinates (MIMG image_load,
// image_sample, image_store, image size queries via the descriptor).

const sampler_t smp_nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
const sampler_t smp_linear = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;

kernel void img_copy2d(read_only image2d_t src, write_only image2d_t dst)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float4 v = read_imagef(src, p);
    write_imagef(dst, p, v * 0.5f);
}

kernel void img_sample(read_only image2d_t src, global float4 *out)
{
    int x = get_global_id(0), y = get_global_id(1);
    int w = get_image_width(src), h = get_image_height(src);
    float2 uv = (float2)((x + 0.5f) / w, (y + 0.5f) / h);
    out[y * w + x] = read_imagef(src, smp_linear, uv) + read_imagef(src, smp_nearest, (int2)(x, y));
}

kernel void img_int(read_only image2d_t src, write_only image2d_t dst, read_only image1d_t lut)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    int4 v = read_imagei(src, p);
    uint4 u = read_imageui(src, p + 1);
    float4 l = read_imagef(lut, v.x & 255);
    write_imagei(dst, p, v + convert_int4(u) + convert_int4(l));
}

kernel void img_3d(read_only image3d_t vol, global float *out)
{
    int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
    float4 v = read_imagef(vol, smp_nearest, p) + read_imagef(vol, smp_linear, convert_float4(p) * 0.1f);
    out[get_global_id(0)] = v.x + v.y + v.z + v.w + (float)get_image_depth(vol);
}
