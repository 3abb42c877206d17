#version 330 core
#pragma chrisos profile 2
// Screen-space derivatives of a quadratic: fine differences inside each 2x2 pixel quad.
in vec2 v_uv;
out vec4 frag_color;

void main() {
    vec2 p = v_uv * 6.0;
    float f = p.x * p.x * 0.5 + p.y * p.x * 0.25 + p.y * p.y;
    float dx = dFdx(f);
    float dy = dFdy(f);
    frag_color = vec4(dx * 1.2, dy * 0.7, fwidth(f) * 0.45, 1.0);
}
