#version 330 core
#pragma chrisos profile 2
// Positions given in clip space (w varies), texture coordinates interpolated three ways:
// perspective-correct, screen-linear (noperspective) and at the centroid.
layout(location = 0) in vec4 a_clip;
layout(location = 2) in vec2 a_uv;

smooth out vec2 v_uv;
noperspective out vec2 v_screen_uv;
centroid out vec2 v_centroid_uv;

void main() {
    v_uv = a_uv;
    v_screen_uv = a_uv;
    v_centroid_uv = a_uv;
    gl_Position = a_clip;
}
