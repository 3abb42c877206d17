#pragma chrisos profile 2
uniform mat4 bones[200];
uniform mat4 more[60];
void main() { gl_Position = bones[0][0] + more[0][0]; }
