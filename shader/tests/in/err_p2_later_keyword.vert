#pragma chrisos profile 2
uint count;
void main() { gl_Position = vec4(0.0); }
