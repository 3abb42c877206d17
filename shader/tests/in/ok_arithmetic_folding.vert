#version 330 core
void main() {
    const float k = 2.0 * 3.0 + 1.0;
    const int n = 7 / 2 * 2 + 7 % 3;
    vec4 v = vec4(k, float(n), -k, 1.0 / 4.0);
    gl_Position = v;
}
