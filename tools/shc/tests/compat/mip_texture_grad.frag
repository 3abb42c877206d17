#version 330 core
#pragma chrisos profile 2
// textureGrad: explicit derivatives pick the level, growing to the right; anisotropic ones
// (longer along y) in the upper half.
in vec2 v_uv;

uniform sampler2D u_levels;

out vec4 frag_color;

void main() {
    float k = exp2(floor(gl_FragCoord.x / 8.0) * 0.7 - 1.3) / 16.0;
    vec2 dx = vec2(k, 0.0);
    vec2 dy = gl_FragCoord.y < 32.0 ? vec2(0.0, k) : vec2(0.3 * k, 2.5 * k);
    frag_color = vec4(textureGrad(u_levels, v_uv * 2.0 + 0.01, dx, dy).rgb, 1.0);
}
