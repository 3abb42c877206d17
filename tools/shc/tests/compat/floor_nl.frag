#version 330 core
#pragma chrisos profile 2
// A mipmapped checkerboard floor receding to the horizon, minified with GL_NEAREST_MIPMAP_LINEAR (nearest magnification).
in vec2 v_uv;

uniform sampler2D u_checker_nl;

out vec4 frag_color;

void main() {
    frag_color = vec4(texture(u_checker_nl, v_uv).rgb, 1.0);
}
