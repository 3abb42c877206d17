#version 330 core
#pragma chrisos profile 2
// A mipmapped checkerboard floor receding to the horizon, minified with GL_LINEAR_MIPMAP_LINEAR (trilinear).
in vec2 v_uv;

uniform sampler2D u_checker_ll;

out vec4 frag_color;

void main() {
    frag_color = vec4(texture(u_checker_ll, v_uv).rgb, 1.0);
}
