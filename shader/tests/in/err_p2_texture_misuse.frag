#version 330 core
#pragma chrisos profile 2
// Misuse of the texture functions: wrong types, non-constant or out-of-range offsets.
in vec2 v_uv;
uniform sampler2D u_tex;
uniform float u_x;
uniform ivec2 u_off;
out vec4 frag_color;

void main() {
    vec4 a = textureLod(u_tex, v_uv);
    vec4 b = textureLod(u_tex, v_uv, vec2(1.0));
    vec4 c = textureOffset(u_tex, v_uv, u_off);
    vec4 d = textureOffset(u_tex, v_uv, ivec2(8, 0));
    vec4 e = textureOffset(u_tex, v_uv, vec2(1.0));
    vec4 f = texelFetch(u_tex, v_uv, 0);
    vec4 g = texelFetch(u_tex, ivec2(1), 0.0);
    ivec2 h = textureSize(u_tex, 1.0);
    vec4 i = textureProj(u_tex, v_uv);
    vec4 j = textureGrad(u_tex, v_uv, 1.0, vec2(1.0));
    vec4 k = textureLod(u_x, v_uv, 0.0);
    vec4 l = texture(u_tex, v_uv, ivec2(1));
    vec4 m = textureLodOffset(u_tex, v_uv, 0.0, ivec2(-9, 0));
    frag_color = a + b + c + d + e + f + g + vec4(h, 0.0, 0.0) + i + j + k + l + m;
}
