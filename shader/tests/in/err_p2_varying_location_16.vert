#pragma chrisos profile 2
layout(location = 16) out vec4 v;
void main() { v = vec4(1.0); gl_Position = v; }
