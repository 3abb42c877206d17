#version 330 core
#pragma chrisos profile 2
// Integer hashing as GPU noise code does it: a PCG-style hash of the pixel's cell in uint
// arithmetic (wrapping multiplies, shifts, xor, unsigned hexadecimal literals).
uniform float u_time;

out vec4 frag_color;

uint pcg_hash(uint v) {
    uint state = v * 747796405u + 2891336453u;
    uint word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

void main() {
    uvec2 cell = uvec2(gl_FragCoord.xy) / 4u;
    uint seed = cell.x + cell.y * 0x10u + uint(u_time * 10.0 + 0.5) * 0x9E3779B9u;
    uint h = pcg_hash(seed);
    vec3 color = vec3(float(h & 0xFFu), float((h >> 8) & 0xFFu), float((h >> 16) & 0xFFu)) / 255.0;
    frag_color = vec4(color * 0.8 + 0.1, 1.0);
}
