#version 330 core
void main() {
    float s = 0.0;
    for (int i = 0; i < 8; i++) {
        s = s + float(i);
    }
    gl_Position = vec4(s);
}
