#version 330 core
#pragma chrisos profile 2
// The sampler's LOD bias and min/max LOD clamp on a trilinear checkerboard, plus a shader
// bias (texture(s, P, bias)) in the right half.
in vec2 v_uv;

uniform sampler2D u_biased;

out vec4 frag_color;

void main() {
    vec2 uv = v_uv * (1.0 + 3.0 * v_uv.y);
    vec3 c = gl_FragCoord.x < 32.0 ? texture(u_biased, uv).rgb : texture(u_biased, uv, -1.25).rgb;
    frag_color = vec4(c, 1.0);
}
