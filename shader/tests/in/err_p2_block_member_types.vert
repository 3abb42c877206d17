#pragma chrisos profile 2
// Interface block members GLSL 3.30 does not allow (sections 4.3.4, 4.3.6): bool types,
// structs; an integer array member must be flat; arrays of matrices are not carried yet.
struct S { vec3 a; };
out B1 { bool ok; } b1;
out B2 { bvec2 m; } b2;
out B3 { S s; } b3;
out B4 { int k[2]; } b4;
out B5 { mat3 ms[2]; } b5;
void main() { gl_Position = vec4(0.0); }
