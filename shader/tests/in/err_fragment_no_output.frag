#version 330 core
in vec4 c;
void main() {
    vec4 x = c;
}
