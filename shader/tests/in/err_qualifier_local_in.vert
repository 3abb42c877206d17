#version 330 core
void main() {
    in float a;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
