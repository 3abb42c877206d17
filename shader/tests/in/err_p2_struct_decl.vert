#pragma chrisos profile 2
struct S { float a; float a; };
struct T { sampler2D s; };
struct U { vec3 p; };
struct U { vec3 q; };
void main() { gl_Position = vec4(0.0); }
