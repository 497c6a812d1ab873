// Vector types: float4 and int8 loads/stores (dwordx2/x3/x4), vload/vstore,
// shuffles, swizzles, dot products, conversions with saturation.

kernel void vec_float4(global const float4 *a, global const float4 *b, global float4 *out,
                       global float *d)
{
    size_t i = get_global_id(0);
    float4 x = a[i], y = b[i];
    out[i] = x * y + x.wzyx - (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    d[i] = dot(x, y) + length(x) + distance(x, y);
    out[i + 4096] = normalize(x) + cross(x, y);
}

kernel void vec_int8(global const int8 *a, global int8 *out, global const int3 *c, global int3 *o3)
{
    size_t i = get_global_id(0);
    int8 x = a[i];
    out[i] = x + x.s76543210 * (int8)(1, 2, 3, 4, 5, 6, 7, 8);
    o3[i] = c[i] * 3 + (int3)(x.s0, x.s1, x.s2);
}

kernel void vec_vload(global const float *a, global float *out, global const short *s,
                      global int *o)
{
    size_t i = get_global_id(0);
    float16 v = vload16(i, a);
    float3 t = vload3(i, a + 7);
    vstore8(v.lo * v.hi, i, out);
    vstore3(t * 2.0f, i, out + 65536);
    short4 q = vload4(i, s);
    vstore2(convert_int2(q.xy) + convert_int2(q.zw), i, o);
}

kernel void vec_shuffle(global const uint4 *a, global uint4 *out, global const uchar16 *b,
                        global uchar16 *bo)
{
    size_t i = get_global_id(0);
    uint4 x = a[i];
    uint4 m = (uint4)(3, 1, 2, 0);
    out[i] = shuffle(x, m) + shuffle2(x, a[i + 1], (uint4)(7, 0, 5, 2));
    uchar16 y = b[i];
    bo[i] = convert_uchar16_sat(convert_int16(y) * 3 - 100);
}
