#version 330 core
uniform float scale;
const float PI = 3.14159265;
const vec3 UP = vec3(0.0, 1.0, 0.0);
float twice = PI * 2.0;
vec3 scaled = UP * scale;
float f(float x) {
    return x * PI + twice;
}
void main() {
    gl_Position = vec4(scaled, f(1.0));
}
