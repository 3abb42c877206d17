#version 330
#pragma chrisos profile 2
// Issue 14's benchmark: a full-screen quad for the loop-heavy fractal.
layout(location = 0) in vec2 a_pos;
out vec2 v_pos;

void main() {
    v_pos = a_pos;
    gl_Position = vec4(a_pos, 0.0, 1.0);
}
