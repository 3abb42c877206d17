#version 330 core
uniform float gl_Time;
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
