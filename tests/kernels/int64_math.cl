// 64-bit integer math: multiply, mul_hi, division and remainder (which
// expand to long VALU sequences), shifts, bit counts, rotates, saturation.

kernel void i64_arith(global const long *a, global const long *b, global long *out)
{
    size_t i = get_global_id(0);
    long x = a[i], y = b[i];
    out[6 * i + 0] = x * y + (x << 7) - (y >> 3);
    out[6 * i + 1] = mul_hi(x, y) + mad_hi(x, y, 5l);
    out[6 * i + 2] = x / (y | 1);
    out[6 * i + 3] = x % (y | 1);
    out[6 * i + 4] = add_sat(x, y) + sub_sat(x, y) + abs_diff(x, y);
    out[6 * i + 5] = rotate(x, y) + (long)clz(x) + (long)popcount(y) + (long)ctz(x);
}

kernel void u64_arith(global const ulong *a, global const ulong *b, global ulong *out, ulong k)
{
    size_t i = get_global_id(0);
    ulong x = a[i], y = b[i];
    out[5 * i + 0] = x / (y | 1) + x / k;
    out[5 * i + 1] = x % (y | 1) + x % 1000003ul;
    out[5 * i + 2] = mul_hi(x, y) + (x >> (y & 63)) + (x << (y & 63));
    out[5 * i + 3] = max(x, y) - min(x, k) + hadd(x, y) + rhadd(x, y);
    out[5 * i + 4] = (x * 0x9e3779b97f4a7c15ul) ^ (y >> 29) ^ upsample((uint)x, (uint)y);
}

kernel void i32_div(global const int *a, global const int *b, global int *out,
                    global const uint *ua, global uint *uout)
{
    size_t i = get_global_id(0);
    int x = a[i], y = b[i] | 1;
    out[2 * i] = x / y + x % y + x / 7 + x % 13;
    out[2 * i + 1] = mul_hi(x, y) + mad24(x, y, 3) + mul24(x, 11);
    uint u = ua[i];
    uout[i] = u / (uint)y + u % 10u + mul_hi(u, 0x12345679u) + mad_sat(u, u, 7u);
}

kernel void i64_scalar(global long *out, long a, long b, ulong c)
{
    /* Uniform 64-bit math stays on the SALU: s_mul_hi, s_lshl_b64, s_bfe_u64 ... */
    long r = a * b + (a >> 5) + (long)(c >> 17) + (a & 0xffffffffffl);
    r ^= (long)popcount(c) << 40;
    r += (long)clz(c) + (long)ctz(a);
    out[get_global_id(0)] = r + (long)(c / 3u);
}
