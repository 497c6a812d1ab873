#version 450
// layout: ssbo,ssbo:push=8
// A work-group reduction: subgroup arithmetic (DPP, v_permlanex16,
// readlane), ballots and shuffles (ds_bpermute), shared memory and
// barriers, a uniform loop over the input and atomics on the result.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_quad : require
#extension GL_KHR_shader_subgroup_vote : require

layout(local_size_x = 256) in;

layout(set = 0, binding = 0) readonly buffer In { float vals[]; };
layout(set = 0, binding = 1) buffer Out {
    float total;
    uint count;
    int maxv;
    uint bits;
    float partial[];
};
layout(push_constant) uniform PC { uint n; float scale; };

shared float sums[64];
shared uint hist[16];

void main()
{
    uint gid = gl_GlobalInvocationID.x;
    uint lid = gl_LocalInvocationIndex;
    if (lid < 16)
        hist[lid] = 0;
    float acc = 0.0;
    for (uint i = gid; i < n; i += gl_NumWorkGroups.x * 256u)
        acc += vals[i] * scale;

    float s = subgroupAdd(acc);
    float mx = subgroupMax(acc);
    float pre = subgroupInclusiveAdd(acc) + subgroupExclusiveMul(acc);
    float cl = subgroupClusteredAdd(acc, 4) + subgroupClusteredMin(acc, 16);
    float q = subgroupQuadSwapHorizontal(acc) + subgroupQuadSwapVertical(acc) + subgroupQuadBroadcast(acc, 2);
    float sh = subgroupShuffle(acc, (gl_SubgroupInvocationID * 7u) & (gl_SubgroupSize - 1u)) +
               subgroupShuffleXor(acc, 1u) + subgroupShuffleUp(acc, 3u) + subgroupShuffleDown(acc, 5u);
    uvec4 ballot = subgroupBallot(acc > 1.0);
    uint nb = subgroupBallotBitCount(ballot);
    bool anyBig = subgroupAny(acc > 100.0);
    bool allPos = subgroupAll(acc >= 0.0);
    float first = subgroupBroadcastFirst(acc) + subgroupBroadcast(acc, 5u);

    barrier();
    atomicAdd(hist[uint(acc) & 15u], 1u);
    if (subgroupElect())
        sums[gl_SubgroupID] = s;
    barrier();
    if (gl_SubgroupID == 0u) {
        float v = gl_SubgroupInvocationID < gl_NumSubgroups ? sums[gl_SubgroupInvocationID] : 0.0;
        v = subgroupAdd(v);
        if (subgroupElect()) {
            atomicAdd(count, nb + (anyBig ? 1u : 0u) + (allPos ? 2u : 0u));
            atomicMax(maxv, int(mx));
            atomicOr(bits, hist[3] ^ ballot.x);
            partial[gl_WorkGroupID.x] = v;
        }
    }
    partial[gl_NumWorkGroups.x + gid] = pre + cl + q + sh + first;
}
