#pragma chrisos profile 2
layout(location = 16) in vec4 a;
void main() { gl_Position = a; }
