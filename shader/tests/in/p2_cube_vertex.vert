#version 330 core
#pragma chrisos profile 2
// A cube in the vertex stage: level 0 (no implicit level of detail), textureLod.
layout(location = 0) in vec3 a_pos;
out vec4 v_color;
uniform samplerCube u_sky;

void main() {
    v_color = texture(u_sky, a_pos) + textureLod(u_sky, a_pos, 1.0);
    gl_Position = vec4(a_pos, 1.0);
}
