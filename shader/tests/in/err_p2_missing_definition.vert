#pragma chrisos profile 2
in vec3 pos;
float f(float a);
void main() {
    gl_Position = vec4(pos, f(1.0));
}
