#version 330 core
#pragma chrisos profile 2
// out and inout parameters, a void function with an early return, and integer literals in
// hexadecimal and octal, float literals with suffixes and exponents.
uniform vec3 u_color_a;
uniform vec3 u_color_b;

out vec4 frag_color;

const int CELL = 0x10;     // 16
const int EIGHT = 010;     // octal 8
const float QUARTER = 2.5e-1f;
const float HALF = .5F;

void polar(in vec2 p, out float radius, out float along_x) {
    radius = length(p);
    along_x = radius > 0.0 ? p.x / radius : 1.0;
}

void tint(inout vec3 color, const in float amount) {
    if (amount <= 0.0)
        return;
    color = mix(color, vec3(1.0, 0.85, 0.6), amount);
}

void main() {
    vec2 p = gl_FragCoord.xy - vec2(float(CELL * 2));
    float r, c;
    polar(p, r, c);
    vec3 color = mix(u_color_b, u_color_a, HALF + HALF * c);
    tint(color, clamp((r - float(EIGHT * 3)) / float(EIGHT), 0.0, 1.0));
    color *= 1.0 - QUARTER * clamp(r / float(CELL * 3), 0.0, 1.0);
    frag_color = vec4(color, 1.0);
}
