#version 450
// layout: ssbo,ssbo
// A histogram with ballots and atomics: for each of 4 bins a
// subgroupBallot of the invocations whose key falls in it, its bit count
// added by the elected invocation to a shared counter (shared atomics),
// per-bin float maxima by subgroupMax and shared atomicMax on the bits of
// non-negative floats, subgroupAny/subgroupAll folded into shared flag
// words, a barrier, and the group's counters added to the global result
// with buffer atomics. Every result is a sum or extremum over the
// work-group or the whole grid, so it does not depend on the subgroup size
// nor on the order of the atomics. Output: 16 counts, 16 float maxima
// (bits), 16 sums (bins 4..15 stay 0), 2 flag words (any; not all), all from a zeroed buffer.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x = 256) in;

layout(set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(set = 0, binding = 1) buffer Out { uint o[]; };

shared uint hist[16], fmax_bits[16], sums[16], anyw, allw;

void main()
{
    uint lid = gl_LocalInvocationIndex;
    uint v = x[gl_GlobalInvocationID.x];
    uint key = (v >> 4) & 3u;
    float f = float(v & 0xffffu) * 0.125;
    if (lid < 16u) {
        hist[lid] = 0u;
        fmax_bits[lid] = 0u;
        sums[lid] = 0u;
    }
    if (lid == 0u) {
        anyw = 0u;
        allw = ~0u;
    }
    barrier();
    for (uint bin = 0u; bin < 4u; bin++) {
        bool in_bin = key == bin;
        uvec4 bal = subgroupBallot(in_bin);
        uint n = subgroupBallotBitCount(bal);
        if (subgroupElect() && n != 0u)
            atomicAdd(hist[bin], n);
        if (in_bin) {
            float m = subgroupMax(f);
            uint s = subgroupAdd(v & 0xfffu);
            if (subgroupElect()) {
                atomicMax(fmax_bits[bin], floatBitsToUint(m));
                atomicAdd(sums[bin], s);
            }
        }
        if (subgroupAny(in_bin && (v & 0x10000u) != 0u))
            atomicOr(anyw, 1u << bin);
        if (!subgroupAll(!in_bin || (v & 0x20000u) != 0u))
            atomicAnd(allw, ~(1u << bin));
    }
    barrier();
    if (lid < 16u) {
        atomicAdd(o[lid], hist[lid]);
        atomicMax(o[16u + lid], fmax_bits[lid]);
        atomicAdd(o[32u + lid], sums[lid]);
    }
    if (lid == 0u) {
        atomicOr(o[48], anyw);
        atomicOr(o[49], ~allw);
    }
}
