#version 330 core
layout(location = 3) out vec4 a;
out vec3 b;
layout(location = 0) smooth out vec2 c;
void main() {
    a = vec4(1.0);
    b = vec3(2.0);
    c = vec2(3.0);
    gl_Position = a;
}
