#pragma chrisos profile 2
// A plain struct member cannot take an interpolation qualifier.
in vec3 pos;
struct S { flat vec3 c; };
void main() { gl_Position = vec4(pos, 1.0); }
