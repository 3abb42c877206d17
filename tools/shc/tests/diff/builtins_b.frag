#version 330
// Built-ins sin, cos and mix (scalar and vector weights); two bands by gl_FragCoord.y.
in vec2 v_uv;
out vec4 frag;

void main() {
    vec2 p = v_uv * 2.0 - vec2(1.0);
    vec4 c = vec4(0.5 + 0.5 * sin(p.x * 5.0), 0.5 + 0.5 * cos(p.y * 7.0 + 1.0), 0.5 + 0.5 * sin(p.x * p.y * 4.0), 1.0);
    if (gl_FragCoord.y > 32.0) {
        c = mix(vec4(1.0, 0.0, 0.2, 1.0), vec4(0.0, 0.8, 1.0, 0.5), v_uv.x);
        c = vec4(mix(c.rgb, vec3(0.0, 0.0, 1.0), vec3(0.0, 0.5, v_uv.y)), c.a);
    }
    frag = c;
}
