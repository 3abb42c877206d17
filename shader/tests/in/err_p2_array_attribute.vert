#pragma chrisos profile 2
in vec3 pos[2];
void main() { gl_Position = vec4(pos[0], 1.0); }
