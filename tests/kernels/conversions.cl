// Conversions between integer and floating types with rounding modes and
// saturation: v_cvt_* in all flavours, v_cvt_pk*, f16/f32/f64 pairs.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void cvt_float_int(global const float *f, global int *i32, global uint *u32,
                          global char *i8, global uchar *u8, global short *i16)
{
    size_t i = get_global_id(0);
    float x = f[i];
    i32[i] = convert_int(x) + convert_int_rte(x) + convert_int_rtp(x) + convert_int_rtn(x) + convert_int_sat(x);
    u32[i] = convert_uint(x) + convert_uint_sat_rte(x);
    i8[i] = convert_char_sat(x);
    u8[i] = convert_uchar_sat_rtz(x * 255.0f);
    i16[i] = convert_short_sat_rtn(x);
}

kernel void cvt_int_float(global const int *n, global const uint *u, global const long *l,
                          global float *f, global half *h)
{
    size_t i = get_global_id(0);
    f[i] = convert_float(n[i]) + convert_float(u[i]) + convert_float(l[i]) + convert_float_rtz(u[i]) +
           (float)(uchar)n[i] + (float)(short)u[i];
    h[i] = convert_half(n[i]) + convert_half(u[i]) + convert_half_rtp(f[i + 1]);
}

kernel void cvt_double(global const double *d, global const float *f, global double *od,
                       global float *of, global long *ol, global half *oh)
{
    size_t i = get_global_id(0);
    double x = d[i];
    od[i] = (double)f[i] + convert_double(ol[i + 1]);
    of[i] = convert_float(x) + convert_float_rtn(x);
    ol[i] = convert_long(x) + convert_long_sat(x) + (long)convert_ulong(fabs(x));
    oh[i] = convert_half(x);
}

kernel void cvt_vectors(global const float4 *f, global int4 *n, global uchar4 *c, global const int4 *ni,
                        global float4 *fo)
{
    size_t i = get_global_id(0);
    n[i] = convert_int4_rte(f[i]);
    c[i] = convert_uchar4_sat(f[i] * 255.0f);
    fo[i] = convert_float4(ni[i]) * 0.5f + convert_float4(convert_uint4(ni[i] >> 3));
}
