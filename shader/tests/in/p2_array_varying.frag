#pragma chrisos profile 2
in vec3 w[2];
out vec4 c;
void main() { c = vec4(w[0] + w[1], 1.0); }
