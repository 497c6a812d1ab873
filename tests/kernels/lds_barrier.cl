// Local memory (LDS) with barriers: a tiled transpose, a tree reduction,
// a histogram with 2-address ds_read2/ds_write2 forms and 64/128-bit
// LDS accesses.
#define TILE 16

kernel void lds_transpose(global const float *in, global float *out, int w, int h)
{
    local float tile[TILE][TILE + 1];
    int x = get_group_id(0) * TILE + get_local_id(0);
    int y = get_group_id(1) * TILE + get_local_id(1);
    if (x < w && y < h)
        tile[get_local_id(1)][get_local_id(0)] = in[y * w + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    x = get_group_id(1) * TILE + get_local_id(0);
    y = get_group_id(0) * TILE + get_local_id(1);
    if (x < h && y < w)
        out[y * h + x] = tile[get_local_id(0)][get_local_id(1)];
}

kernel void lds_reduce(global const float *in, global float *out, local float *scratch)
{
    size_t lid = get_local_id(0);
    size_t n = get_local_size(0);
    scratch[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = n / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = scratch[0];
}

kernel void lds_wide(global const float4 *in, global float4 *out, global double *dout)
{
    local float4 buf[256];
    local double dbuf[256];
    local int pair[512];
    size_t lid = get_local_id(0);
    buf[lid] = in[get_global_id(0)];
    dbuf[lid] = (double)in[get_global_id(0)].x;
    pair[2 * lid] = (int)lid;
    pair[2 * lid + 1] = (int)lid * 7;
    barrier(CLK_LOCAL_MEM_FENCE);
    float4 v = buf[(lid + 1) & 255] + buf[(lid + 3) & 255];
    out[get_global_id(0)] = v + (float)(pair[2 * ((lid + 5) & 255)] + pair[2 * ((lid + 9) & 255) + 1]);
    dout[get_global_id(0)] = dbuf[255 - lid] + dbuf[(lid + 64) & 255];
    work_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}

kernel void lds_bytes(global const uchar *in, global ushort *out)
{
    local uchar b[1024];
    local ushort s[512];
    size_t lid = get_local_id(0);
    b[lid] = in[get_global_id(0)];
    s[lid] = (ushort)(in[get_global_id(0)] * 3);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = (ushort)(b[lid ^ 1] + s[(lid + 1) & 511] + (char)b[lid ^ 2]);
}
