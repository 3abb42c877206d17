float x; #version 330
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
