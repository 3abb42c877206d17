#version 330 core
#pragma chrisos profile 2
// texture() of an isampler2D with a bias in a vertex shader: there is no implicit level of
// detail there.
in vec4 a_pos;
flat out ivec4 v_word;
uniform isampler2D u_table;

void main() {
    v_word = texture(u_table, a_pos.xy, 1.0);
    gl_Position = a_pos;
}
