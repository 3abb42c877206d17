#version 330 core
void main() {
    float a = 1.0;
    float b = a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a + a;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
