// Private arrays with dynamic indexing: they live in scratch memory
// (scratch_load/scratch_store with flat scratch, or buffer accesses),
// plus a big array that forces scratch and register spilling pressure.

kernel void priv_dynamic(global const int *in, global int *out, int n)
{
    int buf[64];
    size_t i = get_global_id(0);
    for (int k = 0; k < 64; k++)
        buf[k] = in[i + k] * k;
    int s = 0;
    for (int k = 0; k < n; k++)
        s += buf[(in[k] + k) & 63];
    buf[in[i] & 63] = s;
    out[i] = buf[(s >> 3) & 63] + buf[n & 63];
}

kernel void priv_struct(global const float *in, global float *out)
{
    struct { float v[24]; int idx[8]; } p;
    size_t i = get_global_id(0);
    for (int k = 0; k < 24; k++)
        p.v[k] = in[i * 24 + k];
    for (int k = 0; k < 8; k++)
        p.idx[k] = (int)(in[k] * 10.0f) % 24;
    float s = 0.0f;
    for (int k = 0; k < 8; k++)
        s += p.v[p.idx[k] < 0 ? -p.idx[k] : p.idx[k]];
    out[i] = s;
}

kernel void priv_bytes(global const uchar *in, global uchar *out)
{
    uchar b[128];
    ushort h[32];
    size_t i = get_global_id(0);
    for (int k = 0; k < 128; k++)
        b[k] = in[i + k];
    for (int k = 0; k < 32; k++)
        h[k] = (ushort)(in[k] * 257);
    out[i] = b[in[i] & 127] + (uchar)h[in[i + 1] & 31];
}

/* The same with flat scratch enabled for this kernel only: scratch_load /
 * scratch_store (FLAT encoding, SEG=scratch) instead of MUBUF. */
__attribute__((target("enable-flat-scratch")))
kernel void priv_flat_scratch(global const int *in, global int *out, int n)
{
    int buf[64];
    short sh[16];
    size_t i = get_global_id(0);
    for (int k = 0; k < 64; k++)
        buf[k] = in[i + k] * k;
    for (int k = 0; k < 16; k++)
        sh[k] = (short)in[k];
    buf[in[i + 1] & 63] += n;
    out[i] = buf[n & 63] + buf[in[i] & 63] + sh[n & 15];
}
