#pragma chrisos profile 2
layout(location = 0) in vec4 p;
void main() {
    gl_Position = vec4(fwidth(p.x));
}
