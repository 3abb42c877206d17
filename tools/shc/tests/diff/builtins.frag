#version 330
// Every built-in function, one band of eight rows each (bands chosen by gl_FragCoord.y, whose
// values are exact, so band borders are the same in every renderer).
in vec2 v_uv;
uniform vec3 u_axis;
uniform sampler2D u_tex;
out vec4 frag;

void main() {
    vec2 p = v_uv * 2.0 - vec2(1.0);
    vec3 q = vec3(p, 0.5);
    float y = gl_FragCoord.y;
    vec4 c = vec4(0.0, 0.0, 0.0, 1.0);
    if (y < 8.0) {
        c = vec4(abs(p), abs(p.x - p.y) * 0.5, 1.0);
    } else if (y < 16.0) {
        c = vec4(0.5 + 0.5 * sin(p.x * 5.0), 0.5 + 0.5 * cos(p.y * 7.0 + 1.0), 0.5 + 0.5 * sin(p.x * p.y * 4.0), 1.0);
    } else if (y < 24.0) {
        vec3 clamped = clamp(q, vec3(0.2), vec3(0.8));
        c = vec4(min(p.x, p.y) * 0.5 + 0.5, max(p.x, -p.y) * 0.5 + 0.5, clamp(p.x * 3.0, 0.0, 1.0), clamped.x);
    } else if (y < 32.0) {
        c = mix(vec4(1.0, 0.0, 0.2, 1.0), vec4(0.0, 0.8, 1.0, 0.5), v_uv.x);
    } else if (y < 40.0) {
        c = vec4(pow(v_uv.x, 2.2), pow(v_uv.y + 0.1, 0.45), pow(0.5, p.x * 3.0), 1.0);
    } else if (y < 48.0) {
        vec3 n = normalize(vec3(p, 1.0));
        vec3 x = abs(cross(n, normalize(u_axis)));
        c = vec4(x.x, x.y, dot(n, u_axis) * 0.5 + 0.5, length(q) * 0.5);
    } else if (y < 56.0) {
        vec3 r = reflect(normalize(vec3(p, -1.0)), vec3(0.0, 0.0, 1.0));
        c = vec4(r * 0.5 + vec3(0.5), 1.0);
    } else {
        c = texture(u_tex, v_uv * 2.0);
    }
    frag = c;
}
