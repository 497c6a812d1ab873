#version 450
// layout: ssbo,ssbo
// N-body forces, tiled through shared memory (issue 15): 1024 bodies (one
// a work-item of the 4 groups of 256), each tile of 256 staged into 16 KiB
// of shared memory (two buffers of positions and of weights, the tile's
// parity choosing one), a barrier, an inner loop over the tile's 256
// bodies, a barrier. The inner loop's counter is a scalar register in
// ACO's code (s_cmpk_ge_u32 sN, 0x100 at its header). Positions are
// multiples of 1/16 below 64 and masses 1 to 4: every product and sum is
// exact in fp32 (at most 22 significant bits), so the output does not
// depend on the order of the sums nor on ACO's fused multiply-adds, and
// the native run and the lifted one must agree bit for bit. Output: 4
// words an invocation (the acceleration's x, y, z and the close bodies).

layout(local_size_x = 256) in;

layout(set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(set = 0, binding = 1) buffer Out { uint o[]; };

shared vec4 s_pos[2][256];
shared vec4 s_wgt[2][256];

vec4 body(uint w)
{
    return vec4(float(w & 1023u), float((w >> 10) & 1023u), float((w >> 20) & 1023u), 0.0) * 0.0625 +
           vec4(0.0, 0.0, 0.0, float(1u + (w >> 30)));
}

void main()
{
    uint gid = gl_GlobalInvocationID.x;
    uint lid = gl_LocalInvocationID.x;
    vec4 me = body(x[gid]);
    vec3 acc = vec3(0.0);
    uint close = 0u;
    for (uint t = 0u; t < 4u; t++) {
        uint b = t & 1u;
        vec4 p = body(x[t * 256u + lid]);
        s_pos[b][lid] = p;
        s_wgt[b][lid] = vec4(p.w, p.w * 0.5, float(lid & 7u), 1.0);
        barrier();
        for (uint j = 0u; j < 256u; j++) {
            vec4 q = s_pos[b][j];
            vec4 w = s_wgt[b][j];
            vec3 d = q.xyz - me.xyz;
            acc += d * w.x - d.zxy * w.y + vec3(w.z);
            if (dot(d, d) < 16.0)
                close += 1u;
        }
        barrier();
    }
    o[gid * 4u + 0u] = floatBitsToUint(acc.x);
    o[gid * 4u + 1u] = floatBitsToUint(acc.y);
    o[gid * 4u + 2u] = floatBitsToUint(acc.z);
    o[gid * 4u + 3u] = close;
}
