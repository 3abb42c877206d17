#pragma chrisos profile 2
struct E { };
void main() { gl_Position = vec4(0.0); }
