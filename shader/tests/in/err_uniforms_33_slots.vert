#version 330 core
uniform mat4 m0;
uniform mat4 m1;
uniform mat4 m2;
uniform mat4 m3;
uniform mat4 m4;
uniform mat4 m5;
uniform mat4 m6;
uniform mat4 m7;
uniform float f;
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
