#version 330 core
float unused(float x) {
    return x + undefinedName;
}
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
