#version 330 core
#pragma chrisos profile 2
// A bias needs an implicit level of detail: fragment shaders only.
layout(location = 0) in vec2 a_pos;
uniform sampler2D u_tex;

void main() {
    gl_Position = texture(u_tex, a_pos, 1.0) + textureOffset(u_tex, a_pos, ivec2(1), 0.5);
}
