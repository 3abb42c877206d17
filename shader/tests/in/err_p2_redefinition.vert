#pragma chrisos profile 2
in vec3 pos;
float f(float a) { return a; }
float f(float b) { return b * 2.0; }
int f(vec2 a);
vec2 f(vec2 a);
void main() {
    gl_Position = vec4(pos, f(1.0));
}
