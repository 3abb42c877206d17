#version 330 core
#pragma chrisos profile 2
// Built-ins: hyperbolic and inverse trigonometric functions, rounding, sign, mix with a bvec.
in vec2 v_uv;
out vec4 frag_color;

void main() {
    vec2 p = v_uv * 2.0 - 1.0;
    float ang = atan(p.y, p.x) / 6.2831853 + 0.5;
    float r = length(p);
    float t = tanh(3.0 * p.x) * 0.5 + 0.5;
    float h = (sinh(p.y) / cosh(p.y)) * 0.5 + 0.5;
    float s = asin(clamp(p.x, -1.0, 1.0)) / 3.14159265 + 0.5;
    float k = acos(clamp(p.y, -1.0, 1.0)) / 3.14159265;
    vec2 q = roundEven(p * 4.0) / 4.0 + ceil(p) * 0.1 + sign(p) * 0.05;
    vec3 a = vec3(ang, t, h);
    vec3 b = vec3(s, k, log(1.0 + r) + exp(-r) * 0.2);
    vec3 c = mix(a, b, lessThan(vec3(q, r), vec3(0.0, 0.25, 0.6)));
    frag_color = vec4(clamp(c, 0.0, 1.0), 1.0);
}
