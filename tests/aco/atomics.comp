#version 450
// layout: ssbo,ssbo,image:push=4
// Atomics and packed small integers: shared-memory and buffer atomics of
// every kind (32- and 64-bit, compare-swap, exchange, float min/max; float
// add on shared memory only: ACO in Mesa 22.3 has no buffer float add),
// image atomics, packed 16-bit integer and float vectors (VOP3P),
// 8-bit arithmetic and bit-field operations.
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_atomic_int64 : require
#extension GL_EXT_shader_atomic_float : require
#extension GL_EXT_shader_atomic_float2 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require

layout(local_size_x = 128) in;

layout(set = 0, binding = 0) buffer Counters {
    uint u[8];
    int i[8];
    uint64_t l[4];
    float f[4];
};
layout(set = 0, binding = 1) buffer Packed {
    i16vec2 a[256];
    u16vec4 b[256];
    f16vec2 h[256];
    u8vec4 c[];
};
layout(set = 0, binding = 2, r32ui) uniform uimage2D img;
layout(push_constant) uniform PC { uint key; };

shared uint s_u[32];
shared int s_i[32];
shared uint64_t s_l[4];
shared float s_f;

void main()
{
    uint id = gl_LocalInvocationIndex;
    uint g = gl_GlobalInvocationID.x;
    if (id < 32u) {
        s_u[id] = 0u;
        s_i[id] = 0;
    }
    if (id < 4u)
        s_l[id] = 0ul;
    if (id == 0u)
        s_f = 0.0;
    barrier();

    uint k = g * 2654435761u ^ key;
    atomicAdd(s_u[k & 31u], 1u);
    atomicMin(s_i[(k >> 5) & 31u], int(k));
    atomicMax(s_i[(k >> 10) & 31u], int(k));
    atomicAnd(s_u[1], k);
    atomicOr(s_u[2], k);
    atomicXor(s_u[3], k);
    uint prev = atomicExchange(s_u[4], k);
    uint cas = atomicCompSwap(s_u[5], prev, k);
    atomicAdd(s_l[0], uint64_t(k));
    atomicMax(s_l[1], uint64_t(k) << 20);
    atomicCompSwap(s_l[2], 0ul, uint64_t(g));
    atomicAdd(s_f, float(k & 255u));
    barrier();

    atomicAdd(u[0], s_u[id & 31u]);
    atomicMin(i[1], s_i[id & 31u]);
    atomicMax(u[2], cas);
    atomicExchange(u[3], prev);
    uint old = atomicCompSwap(u[4], 0u, g);
    atomicAdd(l[0], s_l[0]);
    atomicMin(l[1], s_l[1]);
    atomicXor(l[2], uint64_t(old));
    atomicMin(f[1], float(k));
    atomicMax(f[2], s_f);
    imageAtomicAdd(img, ivec2(g & 63u, g >> 6), 1u);
    imageAtomicCompSwap(img, ivec2(0, 0), 0u, g);
    imageAtomicExchange(img, ivec2(1, 0), k);

    i16vec2 x = a[g & 255u];
    u16vec4 y = b[g & 255u];
    f16vec2 z = h[g & 255u];
    x = x * i16vec2(3, -5) + i16vec2(y.xy) - (x >> 2);
    y = max(y, y.wzyx) + (y << 1) + u16vec4(bitfieldExtract(k, 3, 9));
    z = fma(z, z, f16vec2(1.0hf)) * clamp(z, f16vec2(0.0hf), f16vec2(2.0hf));
    a[g & 255u] = x;
    b[g & 255u] = y;
    h[g & 255u] = z;
    u8vec4 v = c[g];
    c[g] = v * uint8_t(3) + (v >> 1) + u8vec4(bitfieldReverse(k) & 255u);
    u[5] = bitfieldInsert(k, old, 4, 7) + findLSB(k) + findMSB(k) + bitCount(k);
}
