#version 330 core
#pragma chrisos profile 2
// A tiny CSG interpreter: a constant program of opcodes (push circle n, union, subtract,
// smooth union) evaluated on a distance stack with a dynamic stack pointer (stack[sp++] = d,
// stack[--sp]), dispatched by a switch.
uniform vec2 u_resolution;

out vec4 frag_color;

const int OPS[9] = int[](0, 1, 10, 2, 12, 3, 11, 4, 12);
const vec3 CIRCLES[5] = vec3[](vec3(-0.3, 0.0, 0.45), vec3(0.35, 0.1, 0.35), vec3(0.0, 0.2, 0.25),
                               vec3(0.1, -0.4, 0.3), vec3(-0.45, -0.45, 0.2));

void main() {
    vec2 p = (2.0 * gl_FragCoord.xy - u_resolution) / u_resolution.y;
    float stack[4];
    int sp = 0;
    for (int pc = 0; pc < OPS.length(); pc++) {
        int op = OPS[pc];
        if (op < 10) {
            vec3 c = CIRCLES[op];
            stack[sp++] = length(p - c.xy) - c.z;
            continue;
        }
        float b = stack[--sp];
        float a = stack[--sp];
        float r;
        switch (op) {
        case 10:
            r = min(a, b);
            break;
        case 11:
            r = max(a, -b);
            break;
        default: {
            float h = clamp(0.5 + 0.5 * (b - a) / 0.15, 0.0, 1.0);
            r = mix(b, a, h) - 0.15 * h * (1.0 - h);
        }
        }
        stack[sp++] = r;
    }
    float d = stack[0];
    vec3 col = d < 0.0 ? vec3(0.9, 0.55, 0.3) : vec3(0.2, 0.3, 0.45);
    col *= 1.0 - exp(-8.0 * abs(d));
    col = mix(col, vec3(1.0), 1.0 - smoothstep(0.0, 0.02, abs(d)));
    frag_color = vec4(col, 1.0);
}
