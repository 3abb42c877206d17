#pragma chrisos profile 2
uniform mat4 m;
uniform vec4 u;
uniform uvec2 k;
out vec4 c;
void main() {
    vec3 ip;
    float f = modf(u.x, ip.y);
    vec3 g = modf(u.xyz, ip);
    uvec2 cl = clamp(k, uvec2(1u), uvec2(5u));
    uint s = clamp(k.x, 2u, 3u);
    float a = abs(k.y);
    c = vec4(f, g.x, float(cl.x + s), a + ip.x);
    gl_Position = inverse(m) * u;
}
