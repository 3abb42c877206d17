#version 330 core
uniform mat4 m0;
uniform mat4 m1;
uniform mat4 m2;
uniform mat4 m3;
uniform mat4 m4;
uniform mat4 m5;
uniform mat4 m6;
uniform mat3 n;
uniform float f;
void main() {
    gl_Position = m0 * m6 * vec4(n * vec3(f), 1.0);
}
