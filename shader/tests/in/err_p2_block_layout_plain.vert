#pragma chrisos profile 2
layout(std140) uniform float y;
void main() { gl_Position = vec4(y); }
