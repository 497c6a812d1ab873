// AMDGPU cross-lane builtins: ds_bpermute, ds_swizzle, readlane,
// readfirstlane, DPP moves (mov_dpp / update_dpp with many controls),
// permlane16 / permlanex16, mbcnt, ballot.

kernel void lanes_bpermute(global const int *in, global int *out)
{
    size_t i = get_global_id(0);
    int x = in[i];
    int lane = (int)(i & 63);
    out[5 * i + 0] = __builtin_amdgcn_ds_bpermute(((lane + 1) & 63) << 2, x);
    out[5 * i + 1] = __builtin_amdgcn_ds_permute((lane ^ 5) << 2, x);
    out[5 * i + 2] = __builtin_amdgcn_ds_swizzle(x, 0x041f); /* swap 1 */
    out[5 * i + 3] = __builtin_amdgcn_ds_swizzle(x, 0x8055); /* quad perm */
    out[5 * i + 4] = __builtin_amdgcn_ds_swizzle(x, 0x00e0); /* bitmask */
}

kernel void lanes_readlane(global const int *in, global int *out, int which)
{
    size_t i = get_global_id(0);
    int x = in[i];
    int a = __builtin_amdgcn_readlane(x, 0);
    int b = __builtin_amdgcn_readlane(x, 31);
    int c = __builtin_amdgcn_readlane(x, which & 31);
    int d = __builtin_amdgcn_readfirstlane(x * 3);
    out[i] = a + b + c + d;
}

kernel void lanes_dpp(global const int *in, global int *out, global const float *fin,
                      global float *fout)
{
    size_t i = get_global_id(0);
    int x = in[i];
    float f = fin[i];
    int r = 0;
    r += __builtin_amdgcn_mov_dpp(x, 0x1b, 0xf, 0xf, false);   /* quad_perm:[3,2,1,0] */
    r += __builtin_amdgcn_mov_dpp(x, 0x101, 0xf, 0xf, true);   /* row_shl:1 */
    r += __builtin_amdgcn_mov_dpp(x, 0x11f, 0xa, 0x5, false);  /* row_shr:15 */
    r += __builtin_amdgcn_mov_dpp(x, 0x121, 0xf, 0xf, false);  /* row_ror:1 */
    r += __builtin_amdgcn_mov_dpp(x, 0x140, 0xf, 0xf, false);  /* row_mirror */
    r += __builtin_amdgcn_mov_dpp(x, 0x141, 0x3, 0xc, true);   /* row_half_mirror */
    r += __builtin_amdgcn_update_dpp(7, x, 0x150, 0xf, 0xf, false); /* row_share:0 */
    r += __builtin_amdgcn_update_dpp(x, r, 0x16f, 0xf, 0xf, true);  /* row_xmask:15 */
    float g = __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(
        0, __builtin_bit_cast(int, f), 0x4e, 0xf, 0xf, false));
    out[i] = r;
    fout[i] = g * f + f;
}

kernel void lanes_permlane(global const uint *in, global uint *out, uint s0, uint s1)
{
    size_t i = get_global_id(0);
    uint x = in[i];
    uint a = __builtin_amdgcn_permlane16(x, x, 0x76543210u, 0xfedcba98u, false, false);
    uint b = __builtin_amdgcn_permlanex16(x, a, s0, s1, true, false);
    uint c = __builtin_amdgcn_permlanex16(b, x, 0, 0, false, true);
    out[i] = a ^ b ^ c;
}

kernel void lanes_mbcnt_ballot(global const int *in, global ulong *out)
{
    size_t i = get_global_id(0);
    int x = in[i];
    uint lo = __builtin_amdgcn_mbcnt_lo(~0u, 0u);
    uint id = __builtin_amdgcn_mbcnt_hi(~0u, lo);
    ulong mask = __builtin_amdgcn_ballot_w64(x > 0);
    out[i] = mask + id + __builtin_popcountl(mask & ((1ul << (id & 63)) - 1));
}
