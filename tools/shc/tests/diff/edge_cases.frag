#version 330
// Run-time edge cases where the software executor must give what Mesa gives, one per quarter:
// division by a zero uniform (+inf, -inf; colours clamp them to 1 and 0), NaN from 0/0, from
// normalize of a zero vector and from pow of a negative base (a NaN colour is written as 0),
// and min/max/clamp with a NaN operand (they return the other operand).
in vec2 v_uv;
uniform float u_zero;
out vec4 frag;

void main() {
    float pos_inf = 1.0 / u_zero;
    float neg_inf = -1.0 / u_zero;
    float nan = u_zero / u_zero;
    vec3 n = normalize(vec3(u_zero));
    vec4 c = vec4(0.0);
    if (gl_FragCoord.x < 32.0) {
        if (gl_FragCoord.y < 32.0) {
            c = vec4(clamp(pos_inf, 0.0, 1.0), min(neg_inf, 0.5) + 1.0, v_uv.x, 1.0);
        } else {
            c = vec4(pos_inf, 0.25, neg_inf, 1.0);
        }
    } else {
        if (gl_FragCoord.y < 32.0) {
            c = vec4(clamp(nan, 0.25, 0.75), pow(-2.0, 0.5 + u_zero), nan, 1.0);
        } else {
            c = vec4(n.x, max(nan, 0.5), min(0.5, nan), 1.0);
        }
    }
    frag = c;
}
