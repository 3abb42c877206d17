#version 330 core
#pragma chrisos profile 2
// Rotated, scaled stripes and dots: a mat2 rotation built from an angle, applied to centred
// coordinates (column-major constructor, matrix times vector and vector times matrix).
in vec2 v_uv;
uniform float u_time;
out vec4 frag_color;

mat2 rot(float a) {
    float c = cos(a), s = sin(a);
    return mat2(c, s, -s, c);
}

void main() {
    vec2 p = v_uv - 0.5;
    vec2 q = rot(0.6 + u_time * 0.3) * p * 6.0;
    vec2 r = p * rot(-1.1) * 9.0;
    float stripes = 0.5 + 0.5 * sin(q.x * 3.14159);
    vec2 cell = fract(r) - 0.5;
    float dots = 1.0 - smoothstep(0.2, 0.35, length(cell));
    mat2 shear = mat2(1.0, 0.0, 0.5, 1.0) * rot(0.3);
    float w = 0.5 + 0.5 * cos((shear * p).y * 20.0);
    frag_color = vec4(stripes * 0.8, dots * 0.7 + 0.1, w * 0.6 + 0.2, 1.0);
}
