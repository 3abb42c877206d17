#version 330 core
#pragma chrisos profile 2
// Types: non-square matrices as affine maps and colour mixers (mat3x2, mat2x3, mat4x3, transpose, ==).
in vec2 v_uv;
uniform float u_time;
out vec4 frag_color;

void main() {
    float a = 0.6 + 0.1 * u_time;
    mat3x2 affine = mat3x2(cos(a), sin(a), -sin(a), cos(a), 0.5, 0.5);
    vec2 p = affine * vec3(v_uv - 0.5, 1.0);
    mat2x3 palette = mat2x3(vec3(0.9, 0.3, 0.1), vec3(0.1, 0.4, 0.9));
    vec3 c = palette * fract(p * 3.0);
    mat4x3 shift = mat4x3(1.0);
    shift[3] = vec3(0.05, 0.0, -0.05);
    c = shift * vec4(c, 1.0);
    vec3 row = vec2(0.5, 0.5) * transpose(palette);
    mat2 m = mat2(affine);
    if (m == mat2(cos(a), sin(a), -sin(a), cos(a)))
        c += row * 0.25;
    frag_color = vec4(clamp(c, 0.0, 1.0), 1.0);
}
