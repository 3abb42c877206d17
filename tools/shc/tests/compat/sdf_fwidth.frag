#version 330 core
#pragma chrisos profile 2
// Resolution-independent SDF anti-aliasing: the edge width from fwidth of the distance, for
// a star-like polar shape and a ring.
uniform vec2 u_resolution;
uniform float u_time;
uniform vec3 u_color_a;
uniform vec3 u_color_b;

out vec4 frag_color;

void main() {
    vec2 p = (2.0 * gl_FragCoord.xy - u_resolution) / u_resolution.y;
    float angle = atan(p.y, p.x);
    float radius = 0.55 + 0.12 * cos(5.0 * angle + u_time);
    float d = length(p) - radius;
    float ring = abs(length(p) - 0.85) - 0.03;
    float w = fwidth(d);
    float shape = 1.0 - smoothstep(-w, w, d);
    float ring_mask = 1.0 - smoothstep(-fwidth(ring), fwidth(ring), ring);
    vec3 color = mix(vec3(0.08, 0.08, 0.1), u_color_a, shape);
    frag_color = vec4(mix(color, u_color_b * 1.5, ring_mask), 1.0);
}
