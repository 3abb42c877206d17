#pragma chrisos profile 2
// Profile 2's integer literals are 32-bit: one more bit is an error (decimal, hex and octal).
void main() {
    uint a = 0x100000000u;
    int b = 4294967296;
    int c = 040000000000;
    gl_Position = vec4(float(a) + float(b + c));
}
