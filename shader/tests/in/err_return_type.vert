#version 330 core
vec2 f(float x) {
    return vec3(x);
}
void main() {
    gl_Position = vec4(f(1.0), 0.0, 1.0);
}
