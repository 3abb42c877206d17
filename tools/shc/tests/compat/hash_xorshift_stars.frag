#version 330 core
#pragma chrisos profile 2
// A starfield: the screen is cut in 8x8-pixel cells, each seeded by the cell index and stepped
// through xorshift32 (left and right shifts, xor) to place a star, pick its size and tint;
// cells whose first draw is low stay empty.
uniform vec2 u_resolution;

out vec4 frag_color;

uint xorshift(inout uint s) {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return s;
}

void main() {
    ivec2 pix = ivec2(gl_FragCoord.xy);
    ivec2 cell = pix >> 3;
    uint state = uint(cell.x * 131 + cell.y * 7919) + 0x6d2b79f5u;
    xorshift(state);
    vec3 sky = mix(vec3(0.0, 0.0, 0.05), vec3(0.05, 0.02, 0.15), gl_FragCoord.y / u_resolution.y);
    vec3 col = sky;
    if ((xorshift(state) & 3u) != 0u) {
        vec2 centre = vec2(cell * 8) + 1.5 + vec2(float(xorshift(state) % 5u), float(xorshift(state) % 5u));
        float radius = 0.8 + float(xorshift(state) & 7u) * 0.25;
        uint tint = xorshift(state) % 3u;
        vec3 star = tint == 0u ? vec3(1.0, 0.85, 0.6) : (tint == 1u ? vec3(0.7, 0.8, 1.0) : vec3(1.0));
        float d = length(gl_FragCoord.xy - centre);
        col += star * exp(-d * d / (radius * radius));
    }
    frag_color = vec4(col, 1.0);
}
