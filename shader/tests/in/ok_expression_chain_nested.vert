#version 330 core
uniform float a;
void main() {
    float b = (((((((((((((((((((((((((((((a + a + a + a) + a + a + a) + a + a + a) + a + a + a) + a + a + a) + a + a + a) + a + a + a) + a + a + a) + a + a + a) + a + a + a) + a + a + a) + a + a + a) + a + a + a) + a + a + a) + a + a + a) + a + a + a) + a + a + a) + a + a + a) + a + a + a) + a + a + a) + a + a + a) + a + a + a) + a + a + a) + a + a + a) + a + a + a) + a + a + a) + a + a + a) + a + a + a) + a + a + a);
    gl_Position = vec4(b);
}
