#version 330
// Booleans, logical operators, integer constants (modulo, truncating division), constant
// indexing, swizzles of both families, a local constant and an unrolled loop.
in vec2 v_uv;
uniform float u_radius;
out vec4 frag;

bool inside(vec2 p, float r) {
    return dot(p, p) < r * r;
}

void main() {
    vec2 p = v_uv * 2.0 - vec2(1.0);
    const float step_size = 0.5;
    int n = 7 % 3;
    int m = -7 / 2;
    bool a = inside(p, u_radius);
    bool b = p.x > 0.0;
    bool c = !(p.y > 0.3) || (a && b);
    vec4 col = vec4(0.1, 0.2, 0.3, 1.0);
    if (a && !b) {
        col = vec4(1.0, 0.5, 0.0, 1.0);
    }
    if (c) {
        col = col.bgra;
    }
    float edge = -0.75;
    float steps = 0.0;
    for (int i = 0; i < 3; i++) {
        if (p[0] > edge) {
            steps = steps + 0.25;
        }
        edge = edge + step_size;
    }
    if (n == 1 && m == -3) {
        col = vec4(col.xy, steps, col.w);
    }
    frag = col;
}
