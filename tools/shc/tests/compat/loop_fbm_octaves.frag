#version 330 core
#pragma chrisos profile 2
// Fractal value noise with the octave count from a uniform: lattice values from an integer
// hash (uint multiply, xor and shifts), a quintic fade, and a domain rotation per octave.
uniform vec2 u_resolution;
uniform int u_octaves;
uniform float u_scale;

out vec4 frag_color;

float lattice(ivec2 p) {
    uint h = uint(p.x) * 0x27d4eb2du ^ uint(p.y) * 0x165667b1u;
    h ^= h >> 15;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    return float(h & 0xffffu) / 65535.0;
}

float value_noise(vec2 x) {
    vec2 i = floor(x);
    vec2 f = x - i;
    vec2 u = f * f * f * (f * (f * 6.0 - 15.0) + 10.0);
    ivec2 c = ivec2(i);
    float a = lattice(c);
    float b = lattice(c + ivec2(1, 0));
    float d = lattice(c + ivec2(0, 1));
    float e = lattice(c + ivec2(1, 1));
    return mix(mix(a, b, u.x), mix(d, e, u.x), u.y);
}

void main() {
    vec2 p = gl_FragCoord.xy / u_resolution * u_scale * 0.7 + vec2(3.1, 1.7);
    const mat2 ROT = mat2(0.8, 0.6, -0.6, 0.8);
    float sum = 0.0;
    float amp = 0.5;
    for (int o = 0; o < u_octaves; o++) {
        sum += amp * value_noise(p);
        p = ROT * p * 2.03 + vec2(1.3, 0.7);
        amp *= 0.5;
    }
    vec3 col = mix(vec3(0.1, 0.2, 0.35), vec3(0.95, 0.85, 0.7), smoothstep(0.2, 0.8, sum));
    frag_color = vec4(col, 1.0);
}
