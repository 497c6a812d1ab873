// Byte and short loads and stores: global_load_ubyte/sbyte/ushort/sshort,
// global_store_byte/short (and the d16 hi forms), char4 / short2 vectors
// that produce SDWA and v_perm_b32 / v_lshl_or_b32 packing.

kernel void bytes_copy(global const char *in, global char *out, global const uchar *uin,
                       global uchar *uout)
{
    size_t i = get_global_id(0);
    out[i] = in[i] + 1;
    uout[i] = (uchar)(uin[i] * 3u + (uin[i + 1] >> 2));
    out[i + 4096] = (char)((int)in[i] >> 1);
}

kernel void shorts_mix(global const short *in, global short *out, global const ushort *uin,
                       global int *iout)
{
    size_t i = get_global_id(0);
    short a = in[i];
    ushort b = uin[i];
    out[i] = (short)(a * b);
    iout[i] = a + (int)b + (in[i + 1] << 3);
}

kernel void bytes_vectors(global const uchar4 *in, global uchar4 *out, global const char2 *c2,
                          global short2 *s2)
{
    size_t i = get_global_id(0);
    uchar4 v = in[i];
    uchar4 w = (uchar4)(v.w, v.z, v.y, v.x);
    out[i] = add_sat(v, w);
    char2 c = c2[i];
    s2[i] = convert_short2(c) * (short2)(3, -5);
}

kernel void bytes_pack(global const uint *in, global uint *out)
{
    size_t i = get_global_id(0);
    uint x = in[i];
    uchar a = x & 0xff, b = (x >> 8) & 0xff, c = (x >> 16) & 0xff, d = x >> 24;
    uint y = (uint)d | ((uint)c << 8) | ((uint)b << 16) | ((uint)a << 24);
    ushort lo = (ushort)x, hi = (ushort)(x >> 16);
    out[2 * i] = y + as_uint((ushort2)(hi, lo));
    out[2 * i + 1] = (uint)(lo * hi) + (uint)((short)lo >> 3);
}
