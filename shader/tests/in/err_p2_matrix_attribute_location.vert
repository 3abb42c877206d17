#pragma chrisos profile 2
// A matrix vertex input takes a location per column: they must be free and in range.
layout(location = 2) in vec4 pos;
layout(location = 1) in mat2 m;
layout(location = 14) in mat4 n;
void main() { gl_Position = pos + vec4(m[0], n[0].xy); }
