#version 330
// Booleans, logical operators, integer constants (modulo, truncating division), constant
// indexing, swizzles of both families, local constants and an unrolled loop.
in vec2 v_uv;
uniform float u_radius;
out vec4 frag;

bool inside(vec2 p, float r) {
    return dot(p, p) < r * r;
}

void main() {
    vec2 p = v_uv * 2.0 - vec2(1.0);
    const float half_step = 0.125;
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
        col = vec4(col.rgb * 0.5, 1.0);
    } else {
        col = col.bgra;
    }
    float steps = 0.0;
    for (int i = 0; i < 8; i++) {
        if (p[0] > -1.0 + half_step * steps * 2.0) {
            steps = steps + 1.0;
        }
    }
    if (n == 1 && m == -3) {
        col = vec4(col.xy, steps / 8.0, col.w);
    }
    frag = col;
}
