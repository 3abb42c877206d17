#version 330 core
#pragma chrisos profile 2
// Integer sampler misuse: a uvec4 result into an ivec4, a vec3 texelFetch coordinate, a vec3
// texture coordinate, a non-constant offset, a float level. (A vec4 result is valid GLSL 3.30:
// ivec4 converts implicitly to vec4.)
in vec4 v_uv;
out vec4 frag;
uniform isampler2D u_ints;
uniform usampler2D u_uints;
uniform ivec2 u_off;

void main() {
    vec4 a = texture(u_ints, v_uv.xy);
    ivec4 b = texture(u_uints, v_uv.xy);
    ivec4 c = texelFetch(u_ints, ivec3(0), 0);
    ivec4 d = texture(u_ints, v_uv.xyz);
    ivec4 e = textureOffset(u_ints, v_uv.xy, u_off);
    uvec4 f = texelFetch(u_uints, ivec2(0), 0.5);
    frag = a + vec4(b + c + d + e) + vec4(f);
}
