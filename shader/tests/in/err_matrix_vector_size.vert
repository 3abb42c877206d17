#version 330 core
uniform mat4 m;
in vec3 p;
void main() {
    vec4 a = m * p;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
