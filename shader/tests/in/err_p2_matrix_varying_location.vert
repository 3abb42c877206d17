#pragma chrisos profile 2
// A matrix varying takes a location per column: they must be free and in range.
in vec4 pos;
layout(location = 1) out vec4 a;
layout(location = 0) out mat2 m;
layout(location = 14) out mat3 n;
void main() { gl_Position = pos; }
