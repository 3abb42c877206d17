#version 330 core
#pragma chrisos profile 2
// Procedural: signed distance fields in pixels (a circle and a box), united, with a one-pixel
// anti-aliased fill and an outline.
uniform vec3 u_color_a;
uniform vec3 u_color_b;

out vec4 frag_color;

float sd_circle(vec2 p, float r) {
    return length(p) - r;
}

float sd_box(vec2 p, vec2 half_size) {
    vec2 q = abs(p) - half_size;
    return length(max(q, 0.0)) + min(max(q.x, q.y), 0.0);
}

void main() {
    vec2 p = gl_FragCoord.xy;
    float d = min(sd_circle(p - vec2(24.0, 38.0), 15.0), sd_box(p - vec2(42.0, 22.0), vec2(14.0, 9.0)));
    float fill = clamp(0.5 - d, 0.0, 1.0);
    float outline = clamp(1.5 - abs(d + 3.0), 0.0, 1.0);
    vec3 background = mix(u_color_b * 0.4, u_color_b, gl_FragCoord.y / 64.0);
    vec3 color = mix(background, u_color_a, fill);
    frag_color = vec4(mix(color, vec3(1.0), outline), 1.0);
}
