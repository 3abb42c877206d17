#version 330 core
#pragma chrisos profile 2
// Procedural: animated concentric rings around a centre in window coordinates, fading out.
uniform vec2 u_center;
uniform float u_time;
uniform vec3 u_color_a;
uniform vec3 u_color_b;

out vec4 frag_color;

void main() {
    vec2 p = gl_FragCoord.xy - u_center;
    float r = length(p);
    float wave = 0.5 + 0.5 * cos(r * 0.6 - u_time * 2.0);
    float fade = clamp(1.0 - r / 45.0, 0.0, 1.0);
    frag_color = vec4(mix(u_color_b, u_color_a, wave) * (0.2 + 0.8 * fade), 1.0);
}
