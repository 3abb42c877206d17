#version 330 core
out vec3 c;
void main() {
    c = vec3(1.0);
}
