#version 330 core
#pragma chrisos profile 2
// An integer sampler in a vertex shader: texelFetch and textureLod (no bias there).
in vec4 a_pos;
flat out uvec4 v_word;
uniform usampler2D u_table;

void main() {
    v_word = texelFetch(u_table, ivec2(gl_VertexID, 0), 0) ^ textureLod(u_table, a_pos.xy, 0.0);
    gl_Position = a_pos;
}
