#version 330 core
void main() {
    float a = 2;
    vec3 v = ivec3(1, 2, 3);
    gl_Position = vec4(v * a, 1);
}
