#version 330 core
#pragma chrisos profile 2
// Post-processing: a five-tap sharpen kernel, the taps written with a function-like macro.
in vec2 v_uv;

uniform sampler2D u_image;
uniform vec2 u_texel;
uniform float u_strength;

out vec4 frag_color;

#define TAP(dx, dy) texture(u_image, v_uv + vec2(dx, dy) * u_texel).rgb

void main() {
    vec3 center = TAP(0.0, 0.0);
    vec3 around = TAP(1.0, 0.0) + TAP(-1.0, 0.0) + TAP(0.0, 1.0) + TAP(0.0, -1.0);
    vec3 sharp = center + (center * 4.0 - around) * u_strength;
    frag_color = vec4(clamp(sharp, 0.0, 1.0), 1.0);
}
