#version 330 core
#pragma chrisos profile 2
// isampler2D and usampler2D: every gsampler2D overload of GLSL 3.30 §8.7, ivec4/uvec4
// results (the texel words; SVIEW SINT/UINT in TGSI).
in vec4 v_uv;
flat in ivec2 v_texel;
out vec4 frag;
uniform isampler2D u_ints;
uniform usampler2D u_uints;

void main() {
    ivec4 a = texture(u_ints, v_uv.xy);
    ivec4 b = texture(u_ints, v_uv.xy, 0.5);
    ivec4 c = textureLod(u_ints, v_uv.xy, 0.0);
    ivec4 d = textureOffset(u_ints, v_uv.xy, ivec2(1, -1));
    ivec4 e = textureLodOffset(u_ints, v_uv.xy, 0.0, ivec2(-2, 3));
    ivec4 f = textureProj(u_ints, v_uv.xyz);
    ivec4 g = textureProjOffset(u_ints, v_uv, ivec2(1, 0));
    ivec4 h = textureGrad(u_ints, v_uv.xy, vec2(0.1, 0.0), vec2(0.0, 0.1));
    ivec4 i = textureGradOffset(u_ints, v_uv.xy, vec2(0.1, 0.0), vec2(0.0, 0.1), ivec2(0, 2));
    ivec4 j = texelFetch(u_ints, v_texel, 0);
    ivec4 k = texelFetchOffset(u_ints, v_texel, 0, ivec2(1, 1));
    uvec4 m = texelFetch(u_uints, v_texel, 0) + texture(u_uints, v_uv.zw);
    ivec2 s = textureSize(u_ints, 0) + textureSize(u_uints, 0);
    ivec4 sum = a + b + c + d + e + f + g + h + i + j + k;
    frag = vec4(sum) + vec4(m) + vec4(float(s.x));
}
