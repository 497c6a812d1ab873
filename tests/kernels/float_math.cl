// Single-precision math through the ROCm device libraries (ocml):
// sqrt, exp, log, sin, cos, pow, fma, rsqrt, the native_* variants and
// friends; v_div_scale / v_div_fmas / v_div_fixup division.

kernel void f32_libm(global const float *a, global const float *b, global float *out)
{
    size_t i = get_global_id(0);
    float x = a[i], y = b[i];
    out[8 * i + 0] = sqrt(fabs(x)) + rsqrt(fabs(y) + 1.0f);
    out[8 * i + 1] = exp(x) + exp2(y) + log(fabs(x) + 1.0f) + log2(fabs(y) + 2.0f);
    out[8 * i + 2] = sin(x) + cos(y) + tan(x);
    out[8 * i + 3] = pow(fabs(x), y) + pown(x, 3) + powr(fabs(y), 0.5f);
    out[8 * i + 4] = fma(x, y, 1.0f) + mad(x, y, 2.0f) + x / y;
    out[8 * i + 5] = atan2(x, y) + asin(clamp(x, -1.0f, 1.0f)) + acos(clamp(y, -1.0f, 1.0f));
    out[8 * i + 6] = sinh(x) + cosh(y) + tanh(x) + erf(y) + erfc(x);
    out[8 * i + 7] = hypot(x, y) + cbrt(x) + exp10(y) + log10(fabs(x) + 1.0f) + expm1(x) + log1p(fabs(y));
}

kernel void f32_native(global const float *a, global const float *b, global float *out)
{
    size_t i = get_global_id(0);
    float x = a[i], y = b[i];
    out[2 * i] = native_sqrt(x) + native_rsqrt(y) + native_exp(x) + native_log(y) +
                 native_sin(x) + native_cos(y) + native_recip(x) + native_divide(x, y) +
                 native_exp2(x) + native_log2(y) + native_powr(x, y) + native_tan(x);
    out[2 * i + 1] = half_sqrt(x) + half_exp(y) + half_recip(x) + half_divide(x, y);
}

kernel void f32_basic(global const float *a, global const float *b, global float *out, float k)
{
    size_t i = get_global_id(0);
    float x = a[i], y = b[i];
    float r = fmin(x, y) + fmax(x, k) + fabs(x) * copysign(1.0f, y);
    r += floor(x) + ceil(y) + trunc(x) + round(y) + rint(x);
    r += fract(x, &out[4 * i + 3]) + ldexp(y, 5);
    int e;
    r += frexp(x, &e) + (float)e + (float)ilogb(y) + logb(x);
    r += clamp(x, 0.0f, 1.0f) + step(0.5f, y) + smoothstep(0.0f, 1.0f, x) + mix(x, y, 0.25f);
    r += fdim(x, y) + fmod(x, y) + remainder(x, y) + nextafter(x, y);
    out[4 * i] = r;
    out[4 * i + 1] = (isnan(x) ? 1.0f : 0.0f) + (isinf(y) ? 2.0f : 0.0f) + (x < y ? k : -k);
    out[4 * i + 2] = degrees(x) + radians(y) + sign(x) + 3.0e-7f * y + 0.5f + x * 4.0f;
}

kernel void f32_sincos(global const float *a, global float *s, global float *c)
{
    size_t i = get_global_id(0);
    float cv;
    s[i] = sincos(a[i], &cv);
    c[i] = cv + sinpi(a[i]) + cospi(a[i]) + lgamma(a[i]) + tgamma(a[i]);
}
