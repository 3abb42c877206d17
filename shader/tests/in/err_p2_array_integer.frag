#version 330 core
#pragma chrisos profile 2
// isampler2DArray (session 9) returns an ivec4, which does not convert to a uvec4.
out vec4 frag;
uniform isampler2DArray u_ids;

void main() {
    uvec4 w = texelFetch(u_ids, ivec3(0), 0);
    frag = vec4(w);
}
