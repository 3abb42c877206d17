#pragma chrisos profile 2
// Arrays of in/out interface blocks are not supported yet.
in vec4 pos;
out V { vec3 n; } vs_out[2];
void main() { gl_Position = pos; }
