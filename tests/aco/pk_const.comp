#version 450
// layout: ssbo,ssbo
// Packed 16-bit math with constants whose two halves differ, so that ACO
// encodes them as inline constants read through op_sel/op_sel_hi
// (v_pk_add_u16 v, v, 1 adds (1, 0): the high half of an inline
// constant), in integer and f16 forms. Output: 10 words per invocation.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x = 64) in;

layout(set = 0, binding = 0) buffer In { uint a[]; };
layout(set = 0, binding = 1) buffer Out { uint o[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    u16vec2 u = unpack16(x);
    i16vec2 s = i16vec2(u);
    f16vec2 h = unpackFloat2x16((x & 0x03ff03ffu) | 0x3c003c00u); /* [1, 2): exact or rounded once */
    u16vec2 r0 = u + u16vec2(1, 0);
    u16vec2 r1 = u - u16vec2(0, 7);
    u16vec2 r2 = u * u16vec2(64, 1);
    i16vec2 r3 = max(s, i16vec2(-16, 0));
    u16vec2 r4 = u + u16vec2(0xffff, 0xffff);
    f16vec2 r5 = h + f16vec2(1.0, 0.0);
    f16vec2 r6 = h * f16vec2(2.0, 1.0);
    f16vec2 r7 = fma(h, f16vec2(0.5, 1.0), f16vec2(0.0, -4.0));
    u16vec2 r8 = u << u16vec2(3, 0);
    o[10 * i + 0] = pack32(r0);
    o[10 * i + 1] = pack32(r1);
    o[10 * i + 2] = pack32(r2);
    o[10 * i + 3] = pack32(u16vec2(r3));
    o[10 * i + 4] = pack32(r4);
    o[10 * i + 5] = packFloat2x16(r5);
    o[10 * i + 6] = packFloat2x16(r6);
    o[10 * i + 7] = packFloat2x16(r7);
    o[10 * i + 8] = pack32(r8);
    o[10 * i + 9] = x;
}
