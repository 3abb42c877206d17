#pragma chrisos profile 2
// Vertex shaders have no input blocks, arrays of them neither.
in vec4 pos;
in V { vec3 n; } vs_in[2];
void main() { gl_Position = pos; }
