#version 330
// Built-ins pow, normalize, cross, dot and length; two bands by gl_FragCoord.y.
in vec2 v_uv;
uniform vec3 u_axis;
out vec4 frag;

void main() {
    vec2 p = v_uv * 2.0 - vec2(1.0);
    vec4 c = vec4(pow(v_uv.x, 2.2), pow(v_uv.y + 0.1, 0.45), pow(0.5, p.x * 3.0), 1.0);
    if (gl_FragCoord.y > 32.0) {
        vec3 n = normalize(vec3(p, 1.0));
        vec3 x = abs(cross(n, normalize(u_axis)));
        c = vec4(x.x, x.y, dot(n, u_axis) * 0.5 + 0.5, length(vec3(p, 0.5)) * 0.5);
    }
    frag = c;
}
