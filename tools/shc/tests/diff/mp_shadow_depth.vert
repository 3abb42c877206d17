#version 330
// The shadow map pass: positions seen from the light (an oblique orthographic projection).
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec3 a_color;
uniform mat4 u_light;
out vec3 v_color;

void main() {
    v_color = a_color;
    gl_Position = u_light * vec4(a_pos, 1.0);
}
