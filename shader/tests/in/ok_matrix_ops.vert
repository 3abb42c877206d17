#version 330 core
uniform mat4 a;
uniform mat4 b;
uniform mat3 n;
in vec4 p;
in vec3 q;
void main() {
    mat4 c = a * b;
    mat4 d = a + b - c;
    vec3 r = n * q;
    vec4 s = p * a;
    vec3 t = q * n;
    gl_Position = d * p + s + vec4(r + t, 0.0);
}
