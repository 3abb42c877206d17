#version 330 core
#pragma chrisos profile 2
// texelFetch on a sampler2DArray takes an ivec3 (x, y, layer).
out vec4 frag;
uniform sampler2DArray u_layers;

void main() {
    frag = texelFetch(u_layers, ivec2(1, 2), 0);
}
