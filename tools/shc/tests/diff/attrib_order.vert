#version 330
// Inputs without a location take the lowest free ones after the explicit locations are
// reserved: a_color gets 1 (declared before a_pos, which is at 0), a_offset gets 2.
in vec4 a_color;
layout(location = 0) in vec2 a_pos;
in vec2 a_offset;
out vec4 v_color;

void main() {
    v_color = a_color;
    gl_Position = vec4(a_pos + a_offset, 0.0, 1.0);
}
