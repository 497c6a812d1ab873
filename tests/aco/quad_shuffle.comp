#version 450
// layout: ssbo,ssbo
// Lane exchanges within groups of 8 invocations, whose results are the same
// at any subgroup size of 8 or more: the quad operations (broadcast of each
// lane, swaps horizontal, vertical and diagonal, on uint and float),
// subgroupShuffleXor by 1, 2 and 4 (also as a butterfly sum over the
// 8-block), subgroupShuffle inside the 8-block by a computed and by a
// data-dependent lane, and subgroupShuffleUp/Down by 1..3 where the source
// stays in the block; some of them inside a divergent branch.
// (No clustered reductions: lavapipe 22.3 computes them over the whole
// subgroup, so the native run cannot serve as their reference; docs/aco.md.)
// Output: 16 words per invocation.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_quad : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require

layout(local_size_x = 128) in;

layout(set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(set = 0, binding = 1) buffer Out { uint o[]; };

void main()
{
    uint gid = gl_GlobalInvocationID.x;
    uint v = x[gid];
    float f = float(v >> 20) * 0.5 - 1000.0;
    uint id = gl_SubgroupInvocationID;
    uint b = gid * 16u;

    o[b + 0u] = subgroupQuadBroadcast(v, 0u) ^ subgroupQuadBroadcast(v, 1u) * 3u;
    o[b + 1u] = subgroupQuadBroadcast(v, 2u) + subgroupQuadBroadcast(v, 3u) * 5u;
    o[b + 2u] = subgroupQuadSwapHorizontal(v);
    o[b + 3u] = subgroupQuadSwapVertical(v);
    o[b + 4u] = subgroupQuadSwapDiagonal(v);
    o[b + 5u] = floatBitsToUint(subgroupQuadSwapDiagonal(f) - subgroupQuadBroadcast(f, 1u));
    o[b + 6u] = subgroupShuffleXor(v, 1u);
    o[b + 7u] = subgroupShuffleXor(v, 2u) + subgroupShuffleXor(v, 4u);
    uint s = v + subgroupShuffleXor(v, 1u);
    s += subgroupShuffleXor(s, 2u);
    s += subgroupShuffleXor(s, 4u);
    o[b + 8u] = s;
    o[b + 9u] = subgroupShuffle(v, (id & ~7u) | ((id * 3u + 5u) & 7u));
    uint d = (gid >> 3) % 3u + 1u;
    uint up = subgroupShuffleUp(v, d);
    uint down = subgroupShuffleDown(v, d);
    o[b + 10u] = (id & 7u) >= d ? up : 0xdeadu;
    o[b + 11u] = (id & 7u) + d < 8u ? down : 0xbeefu;
    o[b + 12u] = subgroupShuffle(v * 7u, (id & ~7u) | ((v >> 9) & 7u));
    o[b + 13u] = subgroupShuffleUp(v, 0u) ^ subgroupShuffleDown(v >> 3, 0u);
    if ((v & 3u) != 0u) {
        /* divergent: the sources are read whether or not they are active */
        o[b + 14u] = subgroupQuadSwapHorizontal(v + 1u) & ~3u;
        o[b + 15u] = subgroupShuffleXor(gid, 2u);
    }
}
