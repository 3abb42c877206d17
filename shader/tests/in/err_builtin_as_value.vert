#version 330 core
void main() {
    float c = dot;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
