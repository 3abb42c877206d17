#pragma chrisos profile 2
struct V { vec3 n; };
in V v;
out vec4 c;
void main() { c = vec4(1.0); }
