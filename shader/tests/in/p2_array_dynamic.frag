#pragma chrisos profile 2
uniform vec3 offsets[4];
uniform int k;
out vec4 c;
void main() { c = vec4(offsets[k], 1.0); }
