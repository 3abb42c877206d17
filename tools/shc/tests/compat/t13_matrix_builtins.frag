#version 330 core
#pragma chrisos profile 2
// The matrix built-ins on values that vary per pixel: determinant, inverse, transpose,
// matrixCompMult, outerProduct, non-square products (mat2x3 * vec2, vec3 * mat2x3).
in vec2 v_uv;
out vec4 frag_color;

void main() {
    vec2 p = v_uv * 2.0 - 1.0;
    mat2 m = mat2(1.5 + p.x, 0.3 * p.y, -0.2, 1.2 - 0.5 * p.y);
    float det = determinant(m);
    vec2 back = inverse(m) * (m * p);
    mat3 a = mat3(1.0 + p.x, 0.2, 0.1, 0.3, 1.0 + p.y * 0.5, 0.0, 0.1, -0.2, 2.0);
    float det3 = determinant(a);
    mat3 t = transpose(a) * matrixCompMult(a, mat3(0.5));
    mat3 o = outerProduct(vec3(p, 1.0), vec3(0.2, 0.3, 0.4));
    mat2x3 ns = mat2x3(0.5, 0.2, 0.1, 0.1, 0.4, 0.3);
    vec3 v = ns * (p * 0.5 + 0.5);
    vec2 w = vec3(0.3, 0.5, 0.2) * mat2x3(1.0, p.x, 0.5, p.y, 0.2, 0.7);
    float r = 0.3 * det + 0.2 * det3 + 0.1 * t[1][1];
    float g = 0.5 + 0.5 * (back.x - p.x + o[2][1]) + v.y;
    float b = 0.5 * (w.x + w.y) + 0.2 * length(back);
    frag_color = vec4(clamp(vec3(r, g, b) * 0.6, 0.0, 1.0), 1.0);
}
