#version 330 core
uniform float u;
uniform bool flag;
void main() {
    bool a = u > 0.5 && u < 2.0;
    bool b = !a || flag;
    bool c = a == b;
    float x = 0.0;
    if (b && !c) {
        x = 1.0;
    } else if (c != flag) {
        x = 2.0;
    } else {
        x = 3.0;
    }
    gl_Position = vec4(x);
}
