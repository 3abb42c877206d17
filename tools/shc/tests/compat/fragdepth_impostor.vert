#version 330 core
#pragma chrisos profile 2
// A sphere impostor's quad: position, the quad's -1..1 coordinates and its colour.
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec2 a_quad;
layout(location = 2) in vec3 a_color;

out vec2 v_quad;
out vec3 v_color;

void main() {
    v_quad = a_quad;
    v_color = a_color;
    gl_Position = vec4(a_pos, 1.0);
}
