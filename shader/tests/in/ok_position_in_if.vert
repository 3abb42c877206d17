#version 330 core
uniform float t;
void main() {
    if (t > 0.5) {
        gl_Position = vec4(1.0);
    }
}
