#version 330 core
#pragma chrisos profile 2
// A 3x3 kernel whose taps and weights are uniform arrays, read through the loop index.
uniform sampler2D u_image;
uniform vec2 u_texel;
uniform vec2 u_offsets[9];
uniform float u_weights[9];
uniform int u_radius;

in vec2 v_uv;
out vec4 frag_color;

void main() {
    vec3 sum = vec3(0.0);
    int taps = u_radius * 4 + 1;
    for (int k = 0; k < taps; k++)
        sum += texture(u_image, v_uv + u_offsets[k] * u_texel).rgb * u_weights[k];
    frag_color = vec4(sum, 1.0);
}
