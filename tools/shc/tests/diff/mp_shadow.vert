#version 330
// The lit pass of mp_shadow: the camera's view, and the position in the light's clip space.
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec3 a_color;
uniform mat4 u_mvp;
uniform mat4 u_light;
out vec3 v_color;
out vec4 v_light;

void main() {
    v_color = a_color;
    v_light = u_light * vec4(a_pos, 1.0);
    gl_Position = u_mvp * vec4(a_pos, 1.0);
}
