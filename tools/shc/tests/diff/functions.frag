#version 330
// Function-heavy full-screen shader: nested user functions, an unrolled loop, built-ins (sized
// to fit the 3600-byte TGSI budget that link enforces for VirGL).
in vec2 v_uv;
uniform float u_time;
out vec4 frag;

float wave(float x) {
    return sin(x * 3.0);
}

vec3 palette(float t) {
    return vec3(0.5) + vec3(0.5, 0.4, 0.3) * cos(6.28318 * t);
}

float ring(vec2 p, vec2 centre, float radius) {
    return abs(length(p - centre) - radius);
}

float glow(vec2 p) {
    return clamp(0.04 / (ring(p, vec2(0.2, -0.1), 0.5) + 0.04), 0.0, 1.0);
}

void main() {
    vec2 p = v_uv * 2.0 - vec2(1.0);
    float phase = p.y + u_time;
    float acc = 0.0;
    float k = 1.0;
    for (int i = 0; i < 3; i++) {
        acc = acc + wave(p.x * k + phase);
        k = k + 1.0;
    }
    vec3 col = mix(palette(acc * 0.15 + 0.5), vec3(1.0, 0.9, 0.7), glow(p));
    frag = vec4(col, 1.0);
}
