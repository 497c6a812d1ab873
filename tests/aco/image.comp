#version 450
// layout: image,image,sampled,ssbo,ubo,texel
// Image and buffer processing: storage image loads and stores, sampling
// with explicit LOD and gradients, texel fetch, image atomics, texel
// buffers, 8- and 16-bit storage, uniform-buffer parameters and a 3x3
// filter loop.
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require

layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 0, rgba8) uniform readonly image2D src;
layout(set = 0, binding = 1, r32ui) uniform uimage2D dst;
layout(set = 0, binding = 2) uniform sampler2D tex;
layout(set = 0, binding = 3) buffer Bytes {
    uint8_t b8[256];
    int16_t s16[128];
    uint8_t rest[];
};
layout(set = 0, binding = 4) uniform Params {
    vec4 weights[9];
    ivec2 size;
    float lod;
    uint mode;
};
layout(set = 0, binding = 5, r32f) uniform imageBuffer tbuf;

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(p, size)))
        return;
    vec4 acc = vec4(0.0);
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            ivec2 q = clamp(p + ivec2(dx, dy), ivec2(0), size - 1);
            acc += imageLoad(src, q) * weights[(dy + 1) * 3 + dx + 1];
        }
    vec2 uv = (vec2(p) + 0.5) / vec2(size);
    vec4 t = textureLod(tex, uv, lod) + texelFetch(tex, p >> 1, 0) +
             textureGrad(tex, uv, vec2(0.01, 0.0), vec2(0.0, 0.01)) + textureGather(tex, uv, 1);
    if (mode == 1u)
        t += texture(tex, uv * 2.0) * 0.5;
    ivec2 ts = textureSize(tex, 0);
    uint lum = uint(dot(acc.rgb + t.rgb, vec3(0.299, 0.587, 0.114)) * 255.0);
    imageAtomicMax(dst, p, lum);
    uint old = imageAtomicAdd(dst, p ^ 1, 1u);
    uint idx = uint(p.y * size.x + p.x);
    b8[idx & 255u] = uint8_t(lum + uint(b8[(idx + 1u) & 255u]));
    s16[idx & 127u] = int16_t(int(s16[idx & 127u]) * 3 - int(old));
    rest[idx] = uint8_t(ts.x ^ ts.y);
    imageStore(tbuf, int(idx), vec4(acc.a + imageLoad(tbuf, int(idx) + 1).x));
}
