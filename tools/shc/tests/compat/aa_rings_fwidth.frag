#version 330 core
#pragma chrisos profile 2
// Concentric rings anti-aliased over one pixel with fwidth of the radius.
in vec2 v_uv;
out vec4 frag_color;

void main() {
    vec2 p = (v_uv - 0.5) * 5.0;
    float r = length(p);
    float d = abs(fract(r) - 0.5);
    float w = fwidth(r);
    float line = 1.0 - smoothstep(0.0, w * 1.5, d - 0.1);
    vec3 col = mix(vec3(0.1, 0.15, 0.3), vec3(1.0, 0.85, 0.4), line);
    frag_color = vec4(col, 1.0);
}
