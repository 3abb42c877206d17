#version 330 core
void main() {
    float s = 0.0;
    for (int i = 0; i < 4; i++, s = s + 1.0) { }
    gl_Position = vec4(s);
}
