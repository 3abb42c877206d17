#version 330 core
in vec3 n;
in vec2 uv;
uniform sampler2D tex;
uniform vec3 l;
uniform float t;
out vec4 fragColor;
void main() {
    vec4 c = texture(tex, uv);
    float d = dot(n, l) + dot(uv, uv) + dot(t, t) + dot(c, c);
    vec3 x = cross(n, l);
    float len = length(n) + length(t) + length(uv);
    vec3 nn = normalize(n);
    vec2 a = abs(uv - 0.5);
    int ia = abs(-3);
    float s = sin(t) + cos(t);
    vec3 mn = min(n, l) + max(n, 0.5) + min(x, vec3(1.0));
    vec3 cl = clamp(n, 0.0, 1.0) + clamp(n, vec3(0.0), l);
    vec3 m = mix(n, l, 0.25) + mix(n, l, vec3(0.5));
    float p = pow(t, 2.0);
    vec3 pw = pow(n, l);
    vec3 r = reflect(-l, nn);
    fragColor = c * d + vec4(x + nn + mn + cl + m + pw + r, len + s + p + float(ia)) + vec4(a, 0.0, 0.0);
}
