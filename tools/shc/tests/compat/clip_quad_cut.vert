#version 330 core
#pragma chrisos profile 2
// A full-screen quad cut by three user clip planes (gl_ClipDistance 0..2): a diagonal, a
// vertical and a slanted edge, each a straight line in the picture.
layout(location = 0) in vec2 a_pos;
out vec2 v_uv;

void main() {
    v_uv = a_pos * 0.5 + 0.5;
    gl_Position = vec4(a_pos, 0.0, 1.0);
    gl_ClipDistance[0] = a_pos.x + a_pos.y + 0.61;
    gl_ClipDistance[1] = 0.69 - a_pos.x;
    gl_ClipDistance[2] = 0.77 - a_pos.y + 0.3 * a_pos.x;
}
