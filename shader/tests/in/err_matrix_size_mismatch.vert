#version 330 core
uniform mat4 m;
uniform mat3 n;
void main() {
    mat4 a = m * n;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
