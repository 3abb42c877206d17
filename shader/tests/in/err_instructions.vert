#version 330 core
uniform vec4 u;
void main() {
    vec4 x = vec4(0.0);
    for (int i = 0; i < 8; i++) {
        for (int j = 0; j < 8; j++) {
            x = x * u + u;
            x = x - u * x;
            x = x * u;
        }
    }
    gl_Position = x;
}
