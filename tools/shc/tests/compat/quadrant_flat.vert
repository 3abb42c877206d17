#version 330 core
#pragma chrisos profile 2
// A full-screen quad with a flat uint varying (the provoking vertex's quadrant).
layout(location = 0) in vec2 a_pos;
out vec2 v_uv;
flat out uint v_quadrant;

void main() {
    v_uv = a_pos * 0.5 + 0.5;
    v_quadrant = uint(a_pos.x > 0.0) + 2u * uint(a_pos.y > 0.0);
    gl_Position = vec4(a_pos, 0.0, 1.0);
}
