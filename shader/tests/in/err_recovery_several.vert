#version 330 core
void main() {
    float a = ;
    float b = 1.0 +;
    gl_Position = vec4(0.0)
    float c = (1.0;
}
float d = 2.0 2.0;
