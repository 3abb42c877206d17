#pragma chrisos profile 2
struct V { vec3 n; };
out V v;
void main() { gl_Position = vec4(0.0); }
