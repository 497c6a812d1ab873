// Double precision: f64 VOP3 arithmetic, division (v_div_scale_f64,
// v_div_fmas_f64, v_div_fixup_f64), sqrt, rsqrt, conversions, rounding
// and libm functions from the device libs.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void dbl_arith(global const double *a, global const double *b, global double *out)
{
    size_t i = get_global_id(0);
    double x = a[i], y = b[i];
    double r = x * y + 1.0;
    r = fma(r, x, -y) / y;
    r += sqrt(fabs(x)) + rsqrt(fabs(y) + 1.0);
    r += fmin(x, y) * fmax(x, 0.5) + fabs(x - y);
    r += floor(x) + ceil(y) + trunc(x) + rint(y) + round(x);
    r = ldexp(r, 3) + copysign(2.0, y);
    out[i] = r;
}

kernel void dbl_libm(global const double *a, global double *out)
{
    size_t i = get_global_id(0);
    double x = a[i];
    out[4 * i + 0] = exp(x) + log(fabs(x) + 1.0);
    out[4 * i + 1] = sin(x) + cos(x);
    out[4 * i + 2] = pow(fabs(x), 1.7) + cbrt(x);
    out[4 * i + 3] = atan2(x, 2.0) + tanh(x);
}

kernel void dbl_convert(global const double *a, global float *f, global int *n, global long *l,
                        global double *out, global const int *ni, global const ulong *lu)
{
    size_t i = get_global_id(0);
    double x = a[i];
    f[i] = (float)x;
    n[i] = (int)x + convert_int_sat_rte(x);
    l[i] = (long)x + (long)(uint)x;
    out[i] = (double)ni[i] + (double)(uint)ni[i + 1] + (double)lu[i] + (double)(long)lu[i + 1] +
             (double)f[i + 1];
}

kernel void dbl_cmp(global const double *a, global int *out)
{
    size_t i = get_global_id(0);
    double x = a[i];
    int r = 0;
    if (x < 0.0) r |= 1;
    if (x == 1.0) r |= 2;
    if (isnan(x)) r |= 4;
    if (isinf(x)) r |= 8;
    if (x >= a[i + 1]) r |= 16;
    if (islessgreater(x, 3.0)) r |= 32;
    out[i] = r + isnormal(x);
}
