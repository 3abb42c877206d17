#version 330 core
#pragma chrisos profile 2
// A smooth gradient, so that what the clip planes leave of the quad is easy to see.
in vec2 v_uv;
out vec4 frag_color;

void main() {
    frag_color = vec4(v_uv.x, 0.35 + 0.5 * v_uv.y, 0.8 - 0.6 * v_uv.x * v_uv.y, 1.0);
}
