#pragma chrisos profile 2
float asm, class, union, enum, typedef, template, this, packed, goto;
float inline, noinline, volatile, public, static, extern, interface, long;
float short, double, half, fixed, unsigned, superp, input, output, dvec3;
void main() { gl_Position = vec4(0.0); }
