#version 330 core
in vec4 p;
void main() {
    vec3 a = p.xyz;
    vec4 b = p.wzyx;
    vec2 c = p.rg;
    float s = p.a;
    vec3 d = s.xxx;
    vec4 e = a.xyzz;
    b.xz = c;
    b.w = 1.0;
    e.bgr = d;
    gl_Position = b + e;
}
