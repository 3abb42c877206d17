#version 330 core
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
/* this comment
 never ends
