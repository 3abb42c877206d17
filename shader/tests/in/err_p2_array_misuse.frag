#version 330 core
#pragma chrisos profile 2
// sampler2DArray misuse: a vec2 coordinate (the layer is missing).
in vec2 v_uv;
out vec4 frag;
uniform sampler2DArray u_layers;

void main() {
    frag = texture(u_layers, v_uv);
}
