// 32-bit integer and bit manipulation: SALU and VALU bit ops, bitfield
// extract/insert, clz/ctz/popcount, rotates, min/max, saturation, and
// AMDGPU builtins: perm, alignbit, alignbyte, sad, msad, lerp, ubfe/sbfe,
// fmed3, cubeid/cubetc, dot products, cvt_pk*.

kernel void bits_vector(global const uint *a, global const uint *b, global uint *out)
{
    size_t i = get_global_id(0);
    uint x = a[i], y = b[i];
    out[8 * i + 0] = clz(x) + ctz(y) + popcount(x ^ y) + rotate(x, y) + rotate(x, 7u);
    out[8 * i + 1] = (x >> (y & 31)) | (x << 3) | ((int)x >> 5);
    out[8 * i + 2] = max(x, y) - min(x, 17u) + abs_diff(x, y) + hadd(x, y) + rhadd(x, y);
    out[8 * i + 3] = add_sat(x, y) + sub_sat(x, y) + mul24(x & 0xffff, y & 0xffff) + mad24(x, 3u, y);
    out[8 * i + 4] = __builtin_amdgcn_perm(x, y, 0x05010400u) + __builtin_amdgcn_alignbit(x, y, y & 31) +
                     __builtin_amdgcn_alignbyte(x, y, 2);
    out[8 * i + 5] = __builtin_amdgcn_sad_u8(x, y, 3) + __builtin_amdgcn_msad_u8(x, y, 1) +
                     __builtin_amdgcn_lerp(x, y, 0) + __builtin_amdgcn_sad_hi_u8(x, y, 0) +
                     __builtin_amdgcn_sad_u16(x, y, 5);
    out[8 * i + 6] = __builtin_amdgcn_ubfe(x, 4, 9) + (uint)__builtin_amdgcn_sbfe((int)x, y & 31, 5) +
                     ((x & ~0xff0u) | ((y << 4) & 0xff0u));
    out[8 * i + 7] = (uint)abs((int)x) + (uint)max((int)x, (int)y) + (uint)min((int)x, -3) +
                     (uint)clamp((int)x, -100, 100) + (uint)add_sat((int)x, (int)y) +
                     (uint)sub_sat((int)x, (int)y) + select(x, y, x > y);
}

kernel void bits_scalar(global uint *out, uint x, uint y, int z)
{
    /* Uniform values: SOP1/SOP2/SOPK/SOPC forms. */
    uint r = clz(x) + ctz(y) + popcount(x) + (x >> (y & 31)) + ((uint)z >> 7) + (uint)(z >> 3);
    r += (x & 0xff00ff) | (y ^ 0x1234) | (~x & y) | ~(x | y);
    r += __builtin_amdgcn_ubfe(x, 8, 8) + (uint)__builtin_amdgcn_sbfe(z, 3, 11);
    r += max(x, y) + (uint)min(z, 77) + (uint)abs(z) + x * y + (uint)(z * -13) + (x * 1000u);
    r += __builtin_bitreverse32(x) + __builtin_bswap32(y);
    if (x > 300u) r += 5;
    if (z < -20) r ^= 0x8000;
    if ((y & 4) != 0) r += y >> 1;
    out[get_global_id(0)] = r + (uint)rotate(x, 11u);
}

kernel void bits_float_ops(global const float *a, global const float *b, global float *out,
                           global uint *u)
{
    size_t i = get_global_id(0);
    float x = a[i], y = b[i];
    float4 c = (float4)(x, y, x + y, 0.0f);
    out[4 * i + 0] = __builtin_amdgcn_fmed3f(x, y, 1.0f) + __builtin_amdgcn_frexp_mantf(x) +
                     __builtin_amdgcn_rcpf(y) + __builtin_amdgcn_rsqf(x) + __builtin_amdgcn_sinf(x) +
                     __builtin_amdgcn_cosf(y) + __builtin_amdgcn_fractf(x) + __builtin_amdgcn_ldexpf(x, 3);
    out[4 * i + 1] = __builtin_amdgcn_cubeid(c.x, c.y, c.z) + __builtin_amdgcn_cubesc(c.x, c.y, c.z) +
                     __builtin_amdgcn_cubetc(c.x, c.y, c.z) + __builtin_amdgcn_cubema(c.x, c.y, c.z);
    out[4 * i + 2] = (float)__builtin_amdgcn_frexp_expf(y) + (float)__builtin_amdgcn_class(x, 0x3c);
    u[i] = __builtin_bit_cast(uint, __builtin_amdgcn_cvt_pkrtz(x, y)) +
           __builtin_bit_cast(uint, __builtin_amdgcn_cvt_pknorm_i16(x, y)) +
           __builtin_bit_cast(uint, __builtin_amdgcn_cvt_pk_u16(u[i + 1], u[i + 2])) +
           __builtin_amdgcn_cvt_pk_u8_f32(x, 1, u[i + 3]);
}

kernel void bits_dot(global const uint *a, global const uint *b, global int *out,
                     global const half2 *h, global float *f)
{
    size_t i = get_global_id(0);
    uint x = a[i], y = b[i];
    out[2 * i] = __builtin_amdgcn_sdot4((int)x, (int)y, 5, false) + (int)__builtin_amdgcn_udot4(x, y, 3u, false);
    out[2 * i + 1] = __builtin_amdgcn_sdot8((int)x, (int)y, 1, true) + (int)__builtin_amdgcn_udot8(x, y, 0u, false) +
                     __builtin_amdgcn_sdot2(__builtin_bit_cast(short2, x), __builtin_bit_cast(short2, y), 7, false);
    f[i] = __builtin_amdgcn_fdot2(h[i], h[i + 1], f[i + 1], false);
}
