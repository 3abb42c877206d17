#version 330
// Built-ins abs, min, max and clamp (scalar and vector forms); two bands chosen by
// gl_FragCoord.y, whose values are exact, so the band border is the same in every renderer.
in vec2 v_uv;
out vec4 frag;

void main() {
    vec2 p = v_uv * 2.0 - vec2(1.0);
    vec4 c = vec4(abs(p), abs(p.x - p.y) * 0.5, 1.0);
    if (gl_FragCoord.y > 32.0) {
        vec3 clamped = clamp(vec3(p, 0.5), vec3(0.2), vec3(0.8));
        c = vec4(min(p.x, p.y) * 0.5 + 0.5, max(p.x, -p.y) * 0.5 + 0.5, clamp(p.x * 3.0, 0.0, 1.0), clamped.x);
    }
    frag = c;
}
