#version 330 core
#pragma chrisos profile 2
// isampler2DArray is not supported in profile 2 (sampler2DArray is).
out vec4 frag;
uniform isampler2DArray u_ids;

void main() {
    frag = vec4(texelFetch(u_ids, ivec3(0), 0));
}
