#version 450
// layout: ssbo,ssbo,ssbo:push=16
// 64-bit and 16-bit arithmetic with loops: int64 multiply, divide and
// shifts, doubles (division, sqrt, fma, conversions), packed f16 math,
// int64 atomics, a private array indexed dynamically (scratch) and a
// data-dependent loop with divergent exits.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_atomic_int64 : require
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x = 64) in;

layout(set = 0, binding = 0) buffer Longs { int64_t l[]; };
layout(set = 0, binding = 1) buffer Doubles { double d[]; };
layout(set = 0, binding = 2) buffer Halves { uint64_t total; f16vec4 h[]; };
layout(push_constant) uniform PC { uint64_t seed; uint iters; uint n; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= n)
        return;
    int64_t x = l[i];
    uint64_t s = seed ^ uint64_t(i) * 0x9e3779b97f4a7c15ul;
    int64_t acc = 0;
    for (uint k = 0; k < iters; k++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        acc += int64_t(s % 1000003ul) - (x / int64_t(k + 1u));
        if ((s & 0xffu) == 0u)
            break;
    }
    l[i] = acc + (x >> 3) + int64_t(findMSB(x)) + int64_t(bitCount(uint(x)));

    double a = d[i], b = d[i + 1u];
    double r = fma(a, b, 1.0) / (b + 2.0) + sqrt(abs(a)) + floor(b) + fract(a);
    r += double(float(a) * 0.5) + double(int(b)) + double(uint64_t(abs(a)));
    d[i] = r + min(a, b) * max(a, 0.25) + (a < b ? 1.0lf : -1.0lf);

    f16vec4 v = h[i];
    f16vec4 w = v * v + f16vec4(1.0hf, 2.0hf, 3.0hf, 4.0hf);
    w = fma(w, v.wzyx, f16vec4(0.5hf)) - min(v, f16vec4(0.25hf));
    w += f16vec4(sqrt(abs(v.x)), exp2(v.y), log2(abs(v.z) + 1.0hf), float16_t(a));
    h[i] = w / (abs(v) + 1.0hf);

    float table[24];
    for (int k = 0; k < 24; k++)
        table[k] = float(l[(i + uint(k)) % n]);
    float t = table[uint(acc) % 24u] + table[i % 24u];

    int steps = 0;
    uint c = i + 1u;
    while (c != 1u && steps < 500) {
        c = (c & 1u) != 0u ? 3u * c + 1u : c >> 1;
        steps++;
    }
    atomicAdd(total, uint64_t(steps) + uint64_t(t));
    atomicMin(l[0], acc);
}
