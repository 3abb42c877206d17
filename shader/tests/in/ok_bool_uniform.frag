#version 330 core
uniform bool on;
uniform int count;
out vec4 fragColor;
void main() {
    fragColor = vec4(0.0);
    if (on) fragColor = vec4(float(count));
}
