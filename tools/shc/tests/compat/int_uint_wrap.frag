#version 330 core
#pragma chrisos profile 2
// uint arithmetic that wraps on purpose: a linear congruential generator stepped a few times
// (multiplies past 2^32), a subtraction below zero, and signed/unsigned comparisons of the same
// bits, the way GPU random number code runs.
uniform float u_time;
uniform int u_steps;

out vec4 frag_color;

uint lcg(uint s) {
    return s * 1664525u + 1013904223u;
}

void main() {
    uvec2 p = uvec2(gl_FragCoord.xy);
    uint s = p.x * 64u + p.y + uint(u_time * 7.0);
    for (int i = 0; i < 4; i++) {
        s = lcg(s);
    }
    uint below = p.x - 32u;                 // wraps for the left half
    bool wrapped = below > 0x7fffffffu;
    bool negative = int(below) < 0;         // the same bits read as int
    float r = float(s >> 24) / 255.0;
    float g = wrapped == negative ? float(below & 0xffu) / 255.0 : 1.0;
    float b = float((s ^ uint(u_steps)) % 251u) / 250.0;
    frag_color = vec4(r, g, b, 1.0);
}
