#pragma chrisos profile 2
flat in vec4 a_pos;
void main() { gl_Position = a_pos; }
