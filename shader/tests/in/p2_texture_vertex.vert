#version 330 core
#pragma chrisos profile 2
// Texture functions in a vertex shader: no implicit derivatives (texture() reads level 0),
// explicit levels, fetches and sizes.
layout(location = 0) in vec2 a_pos;
uniform sampler2D u_height;
out vec4 v_color;

void main() {
    float h = texture(u_height, a_pos).r + textureLod(u_height, a_pos, 1.5).g;
    ivec2 size = textureSize(u_height, 0);
    v_color = texelFetch(u_height, size / 2, 0);
    gl_Position = vec4(a_pos, h, 1.0);
}
