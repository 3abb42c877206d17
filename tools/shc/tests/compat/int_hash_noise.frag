#version 330 core
#pragma chrisos profile 2
// Value noise from an integer hash (Wang/xorshift style): the lattice corners hashed in int
// and uint arithmetic with wrapping multiplies, shifts and xor, interpolated with smoothstep.
in vec2 v_uv;
uniform float u_time;
uniform float u_scale;

out vec4 frag_color;

uint wang(uint x) {
    x = (x ^ 61u) ^ (x >> 16);
    x *= 9u;
    x = x ^ (x >> 4);
    x *= 0x27d4eb2du;
    x = x ^ (x >> 15);
    return x;
}

float lattice(ivec2 p) {
    uint h = wang(uint(p.x) * 1973u + uint(p.y) * 9277u + uint(int(u_time * 100.0)) * 26699u);
    return float(h >> 8) / 16777215.0;
}

void main() {
    vec2 p = v_uv * u_scale * 2.0 - 3.0;
    ivec2 i = ivec2(floor(p));
    vec2 f = fract(p);
    vec2 s = f * f * (3.0 - 2.0 * f);
    float a = lattice(i);
    float b = lattice(i + ivec2(1, 0));
    float c = lattice(i + ivec2(0, 1));
    float d = lattice(i + ivec2(1, 1));
    float n = mix(mix(a, b, s.x), mix(c, d, s.x), s.y);
    frag_color = vec4(vec3(n, n * 0.8, 1.0 - n) * 0.9 + 0.05, 1.0);
}
