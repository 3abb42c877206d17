#version 330 core
#pragma chrisos profile 2
// A grid of instances placed by a per-instance mat4 attribute (GLSL 3.30 4.3.4: locations 2..5,
// one column each, every column with divisor 1), the instancing tutorials' per-instance
// transform: each copy scaled, sheared and moved by its matrix, coloured by a per-instance
// vec4. The copies do not touch.
layout(location = 0) in vec2 a_corner;
layout(location = 1) in vec4 a_color;
layout(location = 2) in mat4 a_model;
out vec4 v_color;

void main() {
    v_color = vec4(a_color.rgb * (0.6 + 0.4 * a_corner.x), a_color.a);
    gl_Position = a_model * vec4(a_corner, 0.0, 1.0);
}
