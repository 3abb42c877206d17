#version 330
// Patterns of the perspective-correct varyings.
in vec2 v_uv;
in float v_w;
out vec4 frag;

void main() {
    float stripes = 0.5 + 0.5 * sin(v_uv.x * 12.0);
    float rings = 0.5 + 0.5 * cos(v_uv.y * 9.0);
    frag = vec4(stripes, rings, clamp(v_w * 0.08, 0.0, 1.0), 1.0);
}
