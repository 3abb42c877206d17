#version 330 core
#pragma chrisos profile 2
// Integer array sampler misuse: a uvec4 result into an ivec4, a vec2 coordinate (the layer
// is missing), an ivec2 texelFetch coordinate, a non-constant offset, a float level, an
// ivec2 textureSize. (A vec4 result is valid GLSL 3.30: ivec4 converts implicitly to vec4.)
in vec3 v_uvl;
out vec4 frag;
uniform isampler2DArray u_ids;
uniform usampler2DArray u_masks;
uniform ivec2 u_off;

void main() {
    vec4 a = texture(u_ids, v_uvl);
    ivec4 b = texture(u_masks, v_uvl);
    ivec4 c = texture(u_ids, v_uvl.xy);
    ivec4 d = texelFetch(u_ids, ivec2(0), 0);
    ivec4 e = textureOffset(u_ids, v_uvl, u_off);
    uvec4 f = texelFetch(u_masks, ivec3(0), 0.5);
    ivec2 s = textureSize(u_ids, 0);
    frag = a + vec4(c + d + e) + vec4(f) + vec4(s, 0.0, 0.0);
}
