#version 330 core
#pragma chrisos profile 2
// A full-screen quad: clip-space corners in, texture coordinates 0..1 out.
layout(location = 0) in vec2 a_pos;
out vec2 v_uv;

void main() {
    v_uv = a_pos * 0.5 + 0.5;
    gl_Position = vec4(a_pos, 0.0, 1.0);
}
