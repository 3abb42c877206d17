#version 330 core
#pragma chrisos profile 2
// Per-axis wrap: mirrored repeat along s, clamp to edge along t, linear filtering.
in vec2 v_uv;

uniform sampler2D u_mirror;

out vec4 frag_color;

void main() {
    vec2 uv = (v_uv - 0.5) * vec2(3.3, 1.6) + vec2(0.5, 0.5);
    frag_color = vec4(texture(u_mirror, uv).rgb, 1.0);
}
