#version 330 core
#pragma chrisos profile 2
// Procedural SDF art: a rounded box and two circles blended by a smooth minimum, inside and
// outside coloured by sign, distance contours and a smoothstep edge.
uniform vec2 u_resolution;
uniform float u_time;

out vec4 frag_color;

float sd_round_box(vec2 p, vec2 b, float r) {
    vec2 q = abs(p) - b + r;
    return length(max(q, 0.0)) + min(max(q.x, q.y), 0.0) - r;
}

float smooth_min(float a, float b, float k) {
    float h = clamp(0.5 + 0.5 * (b - a) / k, 0.0, 1.0);
    return mix(b, a, h) - k * h * (1.0 - h);
}

void main() {
    vec2 p = (2.0 * gl_FragCoord.xy - u_resolution) / u_resolution.y;
    float d = sd_round_box(p - vec2(0.25, -0.2), vec2(0.4, 0.25), 0.1);
    d = smooth_min(d, length(p - vec2(-0.4, 0.3)) - 0.3, 0.2);
    d = smooth_min(d, length(p - vec2(0.3 * sin(u_time), 0.5)) - 0.15, 0.2);
    vec3 color = sign(d) > 0.0 ? vec3(0.9, 0.6, 0.3) : vec3(0.65, 0.85, 1.0);
    color *= 1.0 - exp(-6.0 * abs(d));
    color *= 0.8 + 0.2 * cos(150.0 * d);
    color = mix(color, vec3(1.0), 1.0 - smoothstep(0.0, 0.02, abs(d)));
    frag_color = vec4(color, 1.0);
}
