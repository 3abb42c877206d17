#version 330 core
#pragma chrisos profile 2
// Post-processing: chromatic aberration, red and blue sampled at offsets away from and
// towards the centre.
in vec2 v_uv;

uniform sampler2D u_image;
uniform vec2 u_texel;
uniform float u_offset;

out vec4 frag_color;

void main() {
    vec2 dir = v_uv - vec2(0.5);
    vec2 shift = dir * u_texel * u_offset;
    float r = texture(u_image, v_uv + shift).r;
    float g = texture(u_image, v_uv).g;
    float b = texture(u_image, v_uv - shift).b;
    frag_color = vec4(r, g, b, 1.0);
}
