#version 330
// Built-ins reflect and texture (linear filter, repeat wrap, alpha kept); two bands by
// gl_FragCoord.y.
in vec2 v_uv;
uniform sampler2D u_tex;
out vec4 frag;

void main() {
    vec2 p = v_uv * 2.0 - vec2(1.0);
    vec3 r = reflect(normalize(vec3(p, -1.0)), vec3(0.0, 0.0, 1.0));
    vec4 c = vec4(r * 0.5 + vec3(0.5), 1.0);
    if (gl_FragCoord.y > 32.0) {
        c = texture(u_tex, v_uv * 2.0);
    }
    frag = c;
}
