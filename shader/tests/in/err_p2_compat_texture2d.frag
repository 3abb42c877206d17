#version 330
#pragma chrisos profile 2
uniform sampler2D tex;
in vec2 uv;
out vec4 color;
void main() {
    color = texture2D(tex, uv);
}
