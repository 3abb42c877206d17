#pragma chrisos profile 2
// A fragment input block has the same member rules as a vertex output block.
in B1 { bool ok; } b1;
in B2 { uvec3 u; } b2;
out vec4 c;
void main() { c = vec4(0.0); }
