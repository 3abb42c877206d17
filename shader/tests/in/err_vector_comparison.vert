#version 330 core
in vec4 p;
void main() {
    bool b = p.xy < vec2(1.0);
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
