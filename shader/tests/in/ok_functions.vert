#version 330 core
uniform vec3 u;
out float o;
float sq(float x) {
    return x * x;
}
vec3 scale(vec3 v, float s) {
    vec3 r = v * s;
    return r;
}
void setOut(float v) {
    o = v;
}
float sum4(float a, float b, float c, float d) {
    return a + b + c + d;
}
mat3 ident() {
    return mat3(1.0);
}
void main() {
    setOut(sq(2.0));
    vec3 s = ident() * scale(u, sq(u.x));
    gl_Position = vec4(s, sum4(1.0, 2, 3.0, o));
}
