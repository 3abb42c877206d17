#version 330 core
in float a;
out vec4 fragColor;
void main() {
    if (a < 0.5) discard;
    fragColor = vec4(a);
}
