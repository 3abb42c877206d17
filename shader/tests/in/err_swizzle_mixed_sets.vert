#version 330 core
in vec4 p;
void main() {
    vec2 a = p.xg;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
