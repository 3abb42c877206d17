#version 330 core
#pragma chrisos profile 2
// The full-screen quad folded along x by y: one triangle keeps its winding (front), the other
// is mirrored (back), so both faces are drawn.
layout(location = 0) in vec2 a_pos;
out vec2 v_uv;

void main() {
    v_uv = a_pos * 0.5 + 0.5;
    gl_Position = vec4(a_pos.x * a_pos.y, a_pos.y, 0.0, 1.0);
}
