#version 330 core
uniform mat4 m;
void main() {
    mat4 a = m / m;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
