#version 330 core
uniform sampler2D heights;
in vec2 uv;
void main() {
    gl_Position = texture(heights, uv);
}
