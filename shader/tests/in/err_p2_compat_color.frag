#version 330
#pragma chrisos profile 2
out vec4 color;
void main() {
    color = gl_Color * 0.5;
}
