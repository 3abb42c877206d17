#pragma chrisos profile 2
void main() {
    int a = 09;
    int b = 0100000001;
    gl_Position = vec4(float(a + b));
}
