#version 330 core
void main() {
    float d = dot(vec3(1.0), vec2(1.0));
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
