#version 330 core
void main() {
    float a = 1.0;
    {
        float a = 2.0;
        a = a + 1.0;
    }
    {
        vec2 a = vec2(3.0);
    }
    gl_Position = vec4(a);
}
