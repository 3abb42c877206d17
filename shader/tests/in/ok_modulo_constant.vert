#version 330 core
void main() {
    const int k = 10 % 4;
    vec4 v = vec4(0.0);
    v[k] = 1.0;
    gl_Position = v + vec4(float(-7 % 3));
}
