#version 330
// Function-heavy full-screen shader: nested user functions, an unrolled loop, many built-ins.
in vec2 v_uv;
uniform float u_time;
out vec4 frag;

float wave(float x, float freq, float phase) {
    return 0.5 + 0.5 * sin(x * freq + phase);
}

vec3 palette(float t) {
    vec3 a = vec3(0.5, 0.5, 0.5);
    vec3 b = vec3(0.5, 0.4, 0.3);
    vec3 c = vec3(cos(6.28318 * t), cos(6.28318 * (t + 0.33)), cos(6.28318 * (t + 0.67)));
    return a + b * c;
}

float ring(vec2 p, vec2 centre, float radius) {
    return abs(length(p - centre) - radius);
}

float glow(vec2 p) {
    float d = min(ring(p, vec2(0.2, -0.1), 0.5), ring(p, vec2(-0.4, 0.3), 0.25));
    return clamp(0.04 / (d + 0.04), 0.0, 1.0);
}

void main() {
    vec2 p = v_uv * 2.0 - vec2(1.0);
    float acc = 0.0;
    float k = 1.0;
    for (int i = 0; i < 6; i++) {
        acc = acc + wave(p.x * k + p.y, 3.0, u_time * k) / k;
        k = k + 1.0;
    }
    vec3 col = mix(palette(acc * 0.4), vec3(1.0, 0.9, 0.7), glow(p));
    col = pow(max(col, vec3(0.0)), vec3(0.8));
    frag = vec4(col, 1.0);
}
