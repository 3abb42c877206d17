#version 330 core
#pragma chrisos profile 2
// sampler2DArray has no textureProj.
in vec4 v_p;
out vec4 frag;
uniform sampler2DArray u_layers;

void main() {
    frag = textureProj(u_layers, v_p);
}
