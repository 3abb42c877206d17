#version 330 core
uniform mat3 m;
void main() {
    vec3 a = m[3];
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
