#pragma chrisos profile 2
in vec3 pos;
float f(float a, int b) { return a; }
float f(int a, float b) { return b; }
void main() {
    float x = f(1.0, 2);
    gl_Position = vec4(pos, x + f(1, 2));
}
