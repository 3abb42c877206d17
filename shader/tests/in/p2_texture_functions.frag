#version 330 core
#pragma chrisos profile 2
// Every sampler2D texture function overload of profile 2.
in vec2 v_uv;
in vec4 v_q;
uniform sampler2D u_tex;
uniform sampler2D u_other;
uniform float u_lod;
out vec4 frag_color;

void main() {
    vec4 a = texture(u_tex, v_uv);
    vec4 b = texture(u_tex, v_uv, 0.5);
    vec4 c = textureLod(u_tex, v_uv, u_lod);
    vec4 d = textureOffset(u_tex, v_uv, ivec2(-8, 7));
    vec4 e = textureOffset(u_tex, v_uv, ivec2(1, 0), -1.0);
    vec4 f = textureLodOffset(u_other, v_uv, 2.0, ivec2(0, -1));
    vec4 g = textureProj(u_tex, v_q.xyz);
    vec4 h = textureProj(u_tex, v_q, 1.0);
    vec4 i = textureProjOffset(u_tex, v_q, ivec2(2, 2));
    vec4 j = textureGrad(u_tex, v_uv, vec2(0.01, 0.0), vec2(0.0, 0.02));
    vec4 k = textureGradOffset(u_tex, v_uv, vec2(0.01), vec2(0.02), ivec2(-1, 1));
    ivec2 size = textureSize(u_tex, 1);
    vec4 l = texelFetch(u_other, ivec2(gl_FragCoord.xy) / size, 0);
    vec4 m = texelFetchOffset(u_other, ivec2(3, 4), 1, ivec2(1, 1));
    frag_color = a + b + c + d + e + f + g + h + i + j + k + l + m + vec4(vec2(size), 0.0, 0.0);
}
