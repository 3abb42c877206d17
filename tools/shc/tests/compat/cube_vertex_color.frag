#version 330 core
#pragma chrisos profile 2
// The per-vertex environment colour of cube_vertex.vert, interpolated.
in vec3 v_color;
out vec4 frag;

void main() {
    frag = vec4(v_color, 1.0);
}
