#version 330 core
#pragma chrisos profile 2
// usampler2DArray has no textureProj (GLSL 3.30 has none for array samplers).
in vec4 v_p;
out vec4 frag;
uniform usampler2DArray u_masks;

void main() {
    frag = vec4(textureProj(u_masks, v_p));
}
