#version 330 core
#pragma chrisos profile 2
// Post-processing: a lens zoom (barrel distortion) sampled with textureLod at level 0, as
// code does in loops or branches where implicit derivatives are unavailable.
in vec2 v_uv;

uniform sampler2D u_image_linear;
uniform float u_strength;

out vec4 frag_color;

void main() {
    vec2 p = v_uv - 0.5;
    float r2 = dot(p, p);
    vec2 uv = 0.5 + p * (1.0 - u_strength * 0.6 * r2);
    vec3 color = textureLod(u_image_linear, uv, 0.0).rgb;
    frag_color = vec4(color, 1.0);
}
