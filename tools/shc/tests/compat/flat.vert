#version 330 core
#pragma chrisos profile 2
// Per-vertex colours passed twice: flat (the provoking, last, vertex wins) and smooth.
layout(location = 0) in vec2 a_pos;
layout(location = 1) in vec4 a_color;

flat out vec3 v_flat_color;
smooth out vec3 v_smooth_color;

void main() {
    v_flat_color = a_color.rgb;
    v_smooth_color = a_color.rgb;
    gl_Position = vec4(a_pos, 0.0, 1.0);
}
