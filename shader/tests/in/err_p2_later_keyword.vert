#pragma chrisos profile 2
samplerCube count;
void main() { gl_Position = vec4(0.0); }
