#version 450 core
// naga copy of tools/shc/tests/compat/proc_rings.frag (uniform block).
layout(set = 0, binding = 0) uniform U {
    vec2 u_center;
    float u_time;
    vec3 u_color_a;
    vec3 u_color_b;
};

layout(location = 0) out vec4 frag_color;

void main() {
    vec2 p = gl_FragCoord.xy - u_center;
    float r = length(p);
    float wave = 0.5 + 0.5 * cos(r * 0.6 - u_time * 2.0);
    float fade = clamp(1.0 - r / 45.0, 0.0, 1.0);
    frag_color = vec4(mix(u_color_b, u_color_a, wave) * (0.2 + 0.8 * fade), 1.0);
}
