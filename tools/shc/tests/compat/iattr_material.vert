#version 330 core
#pragma chrisos profile 2
// A per-vertex material id as an integer attribute, passed flat (the provoking vertex's id).
layout(location = 0) in vec2 a_pos;
layout(location = 1) in int a_material;

flat out int v_material;
out vec2 v_uv;

void main() {
    v_material = a_material;
    v_uv = a_pos * 0.5 + 0.5;
    gl_Position = vec4(a_pos, 0.0, 1.0);
}
