#pragma chrisos profile 2
uniform vec4 big[1025];
uniform vec4 none[0];
void main() { gl_Position = big[0] + none[0]; }
