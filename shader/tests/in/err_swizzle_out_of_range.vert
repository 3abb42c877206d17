#version 330 core
in vec2 uv;
void main() {
    float z = uv.z;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
