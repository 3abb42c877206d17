#version 330 core
void main() {
    {
        float inner = 1.0;
    }
    float b = inner;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
