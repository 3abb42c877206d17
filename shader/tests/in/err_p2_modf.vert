#pragma chrisos profile 2
uniform vec3 u;
uniform mat3x2 m;
void main() {
    float w;
    vec3 a = modf(u, w);
    float b = modf(u.x, 2.0);
    float c = modf(u.x, u.y);
    mat3x2 d = inverse(m);
    uint e = clamp(1u, 0u, 2.0);
    gl_Position = vec4(0.0);
}
