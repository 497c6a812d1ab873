#version 450
// layout: ssbo,ssbo
// Work-group reductions built from subgroup arithmetic: each subgroup
// reduces with subgroupAdd/Mul/Min/Max/And/Or/Xor (uint, int and float),
// its elected lane stores the partial result in shared memory, and after a
// barrier one invocation combines the gl_NumSubgroups partials. The result
// does not depend on the subgroup size (floats hold multiples of 0.25, so
// every sum is exact), so ACO's wave64/wave32 code and the native run at
// any subgroup size must agree bit for bit. Output: 12 words per group.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x = 256) in;

layout(set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(set = 0, binding = 1) buffer Out { uint o[]; };

shared uint s_u[8][256];
shared float s_f[3][256];

void main()
{
    uint gid = gl_GlobalInvocationID.x;
    uint v = x[gid];
    int iv = int(v) >> 3;
    float f = float(v & 1023u) * 0.25 - 100.0;
    uint sg = gl_SubgroupID;

    uint r0 = subgroupAdd(v);
    uint r1 = subgroupMul(v | 1u);
    uint r2 = subgroupMin(v);
    uint r3 = subgroupMax(v);
    uint r4 = subgroupAnd(v | 0x80000001u);
    uint r5 = subgroupOr(v & 0x0f0f0f0fu);
    uint r6 = subgroupXor(v);
    int r7 = subgroupMin(iv);
    int r8 = subgroupMax(iv);
    float f0 = subgroupAdd(f);
    float f1 = subgroupMin(f);
    float f2 = subgroupMax(f);
    if (subgroupElect()) {
        s_u[0][sg] = r0; s_u[1][sg] = r1; s_u[2][sg] = r2; s_u[3][sg] = r3;
        s_u[4][sg] = r4; s_u[5][sg] = r5; s_u[6][sg] = r6;
        s_u[7][sg] = uint(r7);
        s_f[0][sg] = f0; s_f[1][sg] = f1; s_f[2][sg] = f2;
        s_u[7][128u + sg] = uint(r8);
    }
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
        uint a = 0u, m = 1u, mn = ~0u, mx = 0u, an = ~0u, orv = 0u, xo = 0u;
        int imn = 0x7fffffff, imx = -0x7fffffff - 1;
        float fa = 0.0, fmn = 1e30, fmx = -1e30;
        for (uint i = 0u; i < gl_NumSubgroups; i++) {
            a += s_u[0][i]; m *= s_u[1][i]; mn = min(mn, s_u[2][i]); mx = max(mx, s_u[3][i]);
            an &= s_u[4][i]; orv |= s_u[5][i]; xo ^= s_u[6][i];
            imn = min(imn, int(s_u[7][i])); imx = max(imx, int(s_u[7][128u + i]));
            fa += s_f[0][i]; fmn = min(fmn, s_f[1][i]); fmx = max(fmx, s_f[2][i]);
        }
        uint base = gl_WorkGroupID.x * 12u;
        o[base + 0u] = a; o[base + 1u] = m; o[base + 2u] = mn; o[base + 3u] = mx;
        o[base + 4u] = an; o[base + 5u] = orv; o[base + 6u] = xo;
        o[base + 7u] = uint(imn); o[base + 8u] = uint(imx);
        o[base + 9u] = floatBitsToUint(fa); o[base + 10u] = floatBitsToUint(fmn);
        o[base + 11u] = floatBitsToUint(fmx);
    }
}
