// Half precision: scalar f16 VALU ops, packed half2 (VOP3P v_pk_*),
// conversions, f16 transcendental functions from the device libs.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

kernel void half_scalar(global const half *a, global const half *b, global half *out)
{
    size_t i = get_global_id(0);
    half x = a[i], y = b[i];
    half r = x * y + (half)1.5h;
    r = fma(r, x, y);
    r = fmax(r, (half)0.25h) - fmin(x, y);
    r += sqrt(fabs(x)) + exp(y) + log(fabs(x) + (half)1.0h);
    r += sin(x) * cos(y) + rsqrt(fabs(y) + (half)2.0h);
    r = r / y + floor(x) + ceil(y) + trunc(x) + rint(y);
    out[i] = r;
}

kernel void half_packed(global const half2 *a, global const half2 *b, global half2 *out,
                        global const half4 *c, global half4 *out4)
{
    size_t i = get_global_id(0);
    half2 x = a[i], y = b[i];
    half2 r = x * y + (half2)(1.0h, -2.0h);
    r = fma(r, x, y);
    r = fmax(r, y) - fmin(x, (half2)(0.5h));
    out[i] = r * (half2)(x.y, x.x);
    half4 v = c[i];
    out4[i] = v * v - (half4)(1.0h) + v.wzyx;
}

kernel void half_convert(global const half *h, global float *f, global int *n, global half *ho,
                         global const float *fi, global short *s)
{
    size_t i = get_global_id(0);
    half x = h[i];
    f[i] = (float)x;
    n[i] = convert_int_sat(x) + (int)x;
    ho[i] = (half)fi[i] + convert_half_rtz(fi[i + 1]);
    s[i] = convert_short(x);
    vstore_half(fi[i] * 2.0f, i, (global half *)(s + 8192));
    f[i + 4096] = vload_half(i, (global const half *)(h + 1));
}

kernel void half_cmp(global const half *a, global int *out)
{
    size_t i = get_global_id(0);
    half x = a[i];
    int r = 0;
    if (x < (half)0.0h) r |= 1;
    if (x == (half)1.0h) r |= 2;
    if (isnan(x)) r |= 4;
    if (isinf(x)) r |= 8;
    if (x >= a[i + 1]) r |= 16;
    out[i] = r + (int)(signbit(x)) + isfinite(x);
}
