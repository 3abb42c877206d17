#version 330 core
float f(vec2 a) {
    return a.x;
}
void main() {
    gl_Position = vec4(f(vec3(1.0)));
}
