#version 330 core
out vec4 a;
out vec4 b;
void main() {
    a = vec4(1.0);
}
