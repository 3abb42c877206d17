#version 330 core
void main() {
    float a = 1.0;
}
