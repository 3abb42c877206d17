#version 330 core
uniform sampler2D s;
out vec4 fragColor;
void main() {
    vec4 a = vec4(s);
    fragColor = a;
}
