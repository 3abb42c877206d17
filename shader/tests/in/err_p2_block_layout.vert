#pragma chrisos profile 2
layout(binding = 0) uniform U { float x; };
void main() { gl_Position = vec4(x); }
