#version 330 core
#pragma chrisos profile 2
// Marble from gradient noise: lattice gradients from the murmur3 finaliser (xor-shift and
// multiply with uint wrap), a few octaves of turbulence bending sine veins.
uniform vec2 u_resolution;
uniform float u_scale;

out vec4 frag_color;

uint fmix(uint h) {
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

vec2 gradient(ivec2 c) {
    uint h = fmix(uint(c.x) + fmix(uint(c.y) + 0x9e3779b9u));
    float a = float(h >> 8) / 16777216.0 * 6.2831853;
    return vec2(cos(a), sin(a));
}

float gnoise(vec2 x) {
    vec2 i = floor(x);
    vec2 f = x - i;
    ivec2 c = ivec2(i);
    vec2 u = f * f * (3.0 - 2.0 * f);
    float a = dot(gradient(c), f);
    float b = dot(gradient(c + ivec2(1, 0)), f - vec2(1.0, 0.0));
    float d = dot(gradient(c + ivec2(0, 1)), f - vec2(0.0, 1.0));
    float e = dot(gradient(c + ivec2(1, 1)), f - vec2(1.0, 1.0));
    return mix(mix(a, b, u.x), mix(d, e, u.x), u.y);
}

void main() {
    vec2 p = gl_FragCoord.xy / u_resolution * u_scale * 0.5 - vec2(7.0, 3.0);
    float turb = 0.0;
    float amp = 1.0;
    for (int i = 0; i < 3; i++) {
        turb += amp * abs(gnoise(p));
        p *= 2.0;
        amp *= 0.5;
    }
    float vein = 0.5 + 0.5 * sin((gl_FragCoord.x / u_resolution.x) * 9.0 + turb * 5.0);
    vec3 col = mix(vec3(0.3, 0.25, 0.3), vec3(0.93, 0.9, 0.85), pow(vein, 0.6));
    frag_color = vec4(col, 1.0);
}
