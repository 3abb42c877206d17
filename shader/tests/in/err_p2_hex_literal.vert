#pragma chrisos profile 2
void main() {
    int a = 0x;
    int b = 0x1g;
    int c = 0x1000001;
    gl_Position = vec4(float(a + b + c));
}
