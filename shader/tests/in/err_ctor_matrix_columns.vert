#version 330 core
void main() {
    mat3 m = mat3(vec4(1.0), vec4(1.0), vec4(1.0));
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
