#version 330 core
uniform mat4 m;
in vec4 p;
void main() {
    float a = p[2];
    vec4 c = m[1];
    float d = m[3][2];
    vec4 v = vec4(0.0);
    v[1] = a;
    mat4 n = m;
    n[0] = p;
    gl_Position = n * c + vec4(d);
}
