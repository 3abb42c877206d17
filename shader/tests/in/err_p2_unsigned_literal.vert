#pragma chrisos profile 2
void main() {
    int a = 16777217u;
    int b = 0xFFFFFFFFu;
    int c = 1uu;
    float d = 1.0u;
    gl_Position = vec4(float(a + b + c) + d);
}
