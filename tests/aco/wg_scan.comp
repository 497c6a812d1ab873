#version 450
// layout: ssbo,ssbo
// Work-group prefix scans built from subgroup scans: inclusive and
// exclusive add, inclusive min and max, exclusive xor and an inclusive
// float add (multiples of 0.25: exact), each subgroup's total kept in
// shared memory, a barrier, and every invocation adding the totals of the
// subgroups before its own. The result is the prefix over the work-group
// in local index order, whatever the subgroup size. Output: 6 words per
// invocation.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x = 128) in;

layout(set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(set = 0, binding = 1) buffer Out { uint o[]; };

shared uint t_add[128], t_min[128], t_max[128], t_xor[128];
shared float t_f[128];

void main()
{
    uint gid = gl_GlobalInvocationID.x;
    uint v = x[gid] & 0xffffu;
    float f = float(x[gid] >> 22) * 0.25;
    uint sg = gl_SubgroupID;

    uint inc = subgroupInclusiveAdd(v);
    uint exc = subgroupExclusiveAdd(v);
    uint imn = subgroupInclusiveMin(x[gid]);
    uint imx = subgroupInclusiveMax(x[gid]);
    uint exo = subgroupExclusiveXor(x[gid]);
    float fin = subgroupInclusiveAdd(f);
    if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u) {
        t_add[sg] = inc;
        t_min[sg] = imn;
        t_max[sg] = imx;
        t_xor[sg] = exo ^ x[gid];
        t_f[sg] = fin;
    }
    barrier();
    uint pa = 0u, pmn = ~0u, pmx = 0u, px = 0u;
    float pf = 0.0;
    for (uint i = 0u; i < sg; i++) {
        pa += t_add[i];
        pmn = min(pmn, t_min[i]);
        pmx = max(pmx, t_max[i]);
        px ^= t_xor[i];
        pf += t_f[i];
    }
    uint b = gid * 6u;
    o[b + 0u] = pa + inc;
    o[b + 1u] = pa + exc;
    o[b + 2u] = min(pmn, imn);
    o[b + 3u] = max(pmx, imx);
    o[b + 4u] = px ^ exo;
    o[b + 5u] = floatBitsToUint(pf + fin);
}
