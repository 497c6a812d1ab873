#version 450
// layout: ssbo,ssbo
// Stream compaction with ballots: a predicate's subgroupBallot, its
// exclusive and inclusive bit counts give each kept element its place in
// the subgroup; subgroup counts in shared memory and a barrier give the
// subgroup's place in the work-group. Inside the divergent branch of the
// kept elements, a subgroupExclusiveAdd over the active invocations only
// gives the running sum of kept values. Also subgroupBallotBitExtract,
// subgroupInverseBallot, subgroupBallotFindLSB/MSB (the first and last
// kept local index through shared atomics), subgroupAny and !subgroupAll
// ("some invocation of the work-group" flags through shared atomics). Nothing in the output depends
// on the subgroup size. Output per group: 128 compacted values, 128 running
// sums, then 8 words of counts and flags.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x = 128) in;

layout(set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(set = 0, binding = 1) buffer Out { uint o[]; };

shared uint cnt[128];
shared uint sums[128];
shared uint first, last, flags, bad;

void main()
{
    uint lid = gl_LocalInvocationIndex;
    uint gid = gl_GlobalInvocationID.x;
    uint v = x[gid];
    uint sg = gl_SubgroupID;
    bool keep = (v % 3u) != 0u && (v & 0x100u) == 0u;
    cnt[lid] = 0u;
    sums[lid] = 0u;
    if (lid == 0u) {
        first = ~0u;
        last = 0u;
        flags = 0u;
        bad = 0u;
    }
    barrier();

    uvec4 bal = subgroupBallot(keep);
    uint before = subgroupBallotExclusiveBitCount(bal);
    uint upto = subgroupBallotInclusiveBitCount(bal);
    uint n = subgroupBallotBitCount(bal);
    if (subgroupBallotBitExtract(bal, gl_SubgroupInvocationID) != keep ||
        subgroupInverseBallot(bal) != keep || upto != before + (keep ? 1u : 0u))
        atomicAdd(bad, 1u);
    uint sgbase = sg * gl_SubgroupSize;
    if (n != 0u) {
        atomicMin(first, sgbase + subgroupBallotFindLSB(bal));
        atomicMax(last, sgbase + subgroupBallotFindMSB(bal));
    }
    if (subgroupAny(v == 0x12345u))
        atomicOr(flags, 1u);
    if (!subgroupAll(v != 7u))
        atomicOr(flags, 2u);
    if (!subgroupAll(v < 0xf0000000u))
        atomicOr(flags, 4u);
    if (gl_SubgroupInvocationID == 0u)
        cnt[sg] = n;
    uint run = 0u, tot = 0u;
    if (keep) {
        run = subgroupExclusiveAdd(v & 0xfffu);
        tot = subgroupAdd(v & 0xfffu);
        if (subgroupElect())
            sums[sg] = tot;
    }
    barrier();
    uint base = 0u, sbase = 0u, all = 0u;
    for (uint i = 0u; i < gl_NumSubgroups; i++) {
        if (i < sg) {
            base += cnt[i];
            sbase += sums[i];
        }
        all += cnt[i];
    }
    uint g = gl_WorkGroupID.x * 264u;
    if (keep) {
        o[g + base + before] = v;
        o[g + 128u + base + before] = sbase + run;
    }
    if (lid == 0u) {
        o[g + 256u] = all;
        o[g + 257u] = first;
        o[g + 258u] = last;
        o[g + 259u] = flags;
        o[g + 260u] = bad;
    }
}
