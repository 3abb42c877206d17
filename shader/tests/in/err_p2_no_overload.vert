#pragma chrisos profile 2
in vec3 pos;
float f(float a) { return a; }
float f(vec2 a) { return a.x; }
void main() {
    gl_Position = vec4(pos, f(vec3(1.0)));
}
