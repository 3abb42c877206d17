#pragma chrisos profile 2
flat uniform float u_x;
void main() { gl_Position = vec4(u_x); }
