#pragma chrisos profile 2
out ivec4 c;
void main() { c = ivec4(1); }
