#version 330
// Colour varyings on flat triangles; a_color has no layout and takes the next free location (1).
layout(location = 0) in vec2 a_pos;
in vec4 a_color;
out vec4 v_color;

void main() {
    v_color = a_color;
    gl_Position = vec4(a_pos, 0.0, 1.0);
}
