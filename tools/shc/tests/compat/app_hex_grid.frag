#version 330 core
#pragma chrisos profile 2
// A hexagon grid: two offset lattices, the nearer hexagon centre chosen by comparing squared
// distances (a thin curve), a hexagon distance field for soft borders, colour by ring.
uniform vec2 u_resolution;
out vec4 frag_color;

float hex_dist(vec2 p) {
    p = abs(p);
    return max(dot(p, normalize(vec2(1.0, 1.7320508))), p.x);
}

void main() {
    vec2 uv = (gl_FragCoord.xy - 0.5 * u_resolution) / u_resolution.y * 5.0;
    const vec2 s = vec2(1.0, 1.7320508);
    vec2 a = mod(uv, s) - 0.5 * s;
    vec2 b = mod(uv - 0.5 * s, s) - 0.5 * s;
    vec2 g = dot(a, a) < dot(b, b) ? a : b;
    float d = hex_dist(g);
    float edge = smoothstep(0.4, 0.48, d);
    vec3 c = mix(vec3(0.3, 0.7, 0.6), vec3(0.1, 0.15, 0.2), edge);
    c *= 0.8 + 0.2 * cos(d * 25.0);
    frag_color = vec4(c, 1.0);
}
