#version 330 core
float dot(vec3 a, vec3 b) {
    return 0.0;
}
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
