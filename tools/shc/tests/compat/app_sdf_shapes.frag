#version 330 core
#pragma chrisos profile 2
// 2D signed distance fields: a circle, a rounded box, a segment and a ring combined with min,
// a smooth union and subtraction, shaded with a soft anti-aliased edge and distance bands.
uniform vec2 u_resolution;
uniform float u_time;
out vec4 frag_color;

float sd_circle(vec2 p, float r) { return length(p) - r; }
float sd_round_box(vec2 p, vec2 b, float r) {
    vec2 q = abs(p) - b + r;
    return length(max(q, 0.0)) + min(max(q.x, q.y), 0.0) - r;
}
float sd_segment(vec2 p, vec2 a, vec2 b) {
    vec2 pa = p - a, ba = b - a;
    float h = clamp(dot(pa, ba) / dot(ba, ba), 0.0, 1.0);
    return length(pa - ba * h);
}
float smin(float a, float b, float k) {
    float h = clamp(0.5 + 0.5 * (b - a) / k, 0.0, 1.0);
    return mix(b, a, h) - k * h * (1.0 - h);
}

void main() {
    vec2 p = (gl_FragCoord.xy - 0.5 * u_resolution) / u_resolution.y;
    float d = smin(sd_circle(p - vec2(-0.18, 0.1), 0.16),
                   sd_round_box(p - vec2(0.15, 0.05), vec2(0.14, 0.1), 0.04), 0.08);
    d = max(d, -sd_circle(p - vec2(0.15, 0.05), 0.05));
    d = min(d, sd_segment(p, vec2(-0.3, -0.25), vec2(0.3, -0.2)) - 0.03);
    d = min(d, abs(sd_circle(p - vec2(0.0, -0.05), 0.42)) - 0.015);
    vec3 c = d > 0.0 ? vec3(0.9, 0.6, 0.3) : vec3(0.65, 0.85, 1.0);
    c *= 1.0 - exp(-6.0 * abs(d));
    c *= 0.8 + 0.2 * cos(120.0 * d);
    c = mix(c, vec3(1.0), 1.0 - smoothstep(0.0, 0.012, abs(d)));
    frag_color = vec4(c, 1.0);
}
