#version 330 core
#pragma chrisos profile 2
// Fractal value noise (fbm, five octaves in a constant-bound loop) over a smooth hash, with a
// rotation between octaves, coloured as clouds over a sky gradient.
in vec2 v_uv;
uniform float u_time;
out vec4 frag_color;

float hash(vec2 p) {
    // Smooth in its input (no large-argument sin), so both compilers agree at every pixel.
    return fract(0.5 + 0.5 * sin(dot(p, vec2(0.37, 0.71))) * 3.7 + 0.13 * p.x);
}
float noise(vec2 p) {
    vec2 i = floor(p);
    vec2 f = fract(p);
    vec2 u = f * f * (3.0 - 2.0 * f);
    float a = hash(i), b = hash(i + vec2(1.0, 0.0));
    float c = hash(i + vec2(0.0, 1.0)), d = hash(i + vec2(1.0, 1.0));
    return mix(mix(a, b, u.x), mix(c, d, u.x), u.y);
}
float fbm(vec2 p) {
    const mat2 m = mat2(1.6, 1.2, -1.2, 1.6);
    float v = 0.0, amp = 0.5;
    for (int i = 0; i < 5; i++) {
        v += amp * noise(p);
        p = m * p;
        amp *= 0.5;
    }
    return v;
}

void main() {
    vec2 p = v_uv * 3.0 + vec2(u_time * 0.2, 0.0);
    float n = fbm(p + 0.37);
    vec3 sky = mix(vec3(0.35, 0.55, 0.9), vec3(0.75, 0.85, 1.0), v_uv.y);
    vec3 c = mix(sky, vec3(1.0), smoothstep(0.35, 0.75, n));
    frag_color = vec4(c, 1.0);
}
