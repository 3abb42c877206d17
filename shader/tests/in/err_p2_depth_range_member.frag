#version 330
#pragma chrisos profile 2
out vec4 color;
void main() {
    color = vec4(gl_DepthRange.middle);
}
