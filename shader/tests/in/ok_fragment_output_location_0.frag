#version 330 core
layout(location = 0) out vec4 c;
void main() {
    c = vec4(1.0);
}
