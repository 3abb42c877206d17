#version 330 core
uniform mat4 m;
void main() {
    vec4 a = vec4(m);
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
