// Scratch beyond the suite (issue 6, tests/test_scratch_o0.c): a 16 KiB
// private array per lane, and register spills forced at -O2.

// 4096 words a lane, filled, then read and written at data-dependent
// places.
kernel void big_private(global const uint *in, global uint *out, uint n)
{
    uint a[4096];
    size_t i = get_global_id(0);
    uint x = in[i];
    for (uint k = 0; k < 4096; k++)
        a[k] = x ^ (k * 2654435761u);
    uint s = 0;
    for (uint k = 0; k < n; k++) {
        uint j = (x + k * 977u) & 4095u;
        s += a[j];
        a[(j * 7u + s) & 4095u] = s ^ k;
    }
    out[i] = s + a[x & 4095u] + a[4095];
}

// 48 values live at once in at most 24 VGPRs: the compiler spills them
// (VGPRs to scratch through the private segment buffer, SGPRs by
// v_writelane).
__attribute__((amdgpu_num_vgpr(24)))
kernel void spills(global const uint *in, global uint *out)
{
    size_t i = get_global_id(0);
    uint v[48];
#pragma unroll
    for (int k = 0; k < 48; k++)
        v[k] = in[i * 48 + k];
#pragma unroll
    for (int r = 0; r < 3; r++) {
#pragma unroll
        for (int k = 0; k < 48; k++)
            v[k] = (v[k] * 0x9e3779b1u + v[(k + 17) % 48]) ^ (v[(k + 5) % 48] >> 3);
    }
#pragma unroll
    for (int k = 0; k < 48; k++)
        out[i * 48 + k] = v[k];
}
