#pragma chrisos profile 2
// An array varying cannot be const (the element rules are those of a plain varying).
in vec3 pos;
const out vec3 w[2];
void main() { gl_Position = vec4(pos, 1.0); }
