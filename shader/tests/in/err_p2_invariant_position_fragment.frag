#pragma chrisos profile 2
invariant gl_Position;
out vec4 c;
void main() { c = vec4(1.0); }
