#version 330 core
#pragma chrisos profile 2
// A 3x3 kernel whose tap offsets (two per vec4) and weights are uniform arrays, read through
// the loop index (the neighbours in the loop, the centre weight last).
uniform sampler2D u_image;
uniform vec2 u_texel;
uniform vec4 u_taps[4];
uniform float u_weights[9];
uniform int u_radius;

in vec2 v_uv;
out vec4 frag_color;

void main() {
    vec3 sum = texture(u_image, v_uv).rgb * u_weights[8];
    int pairs = u_radius * 2;
    for (int j = 0; j < pairs; j++) {
        vec4 t = u_taps[j];
        sum += texture(u_image, v_uv + t.xy * u_texel).rgb * u_weights[2 * j];
        sum += texture(u_image, v_uv + t.zw * u_texel).rgb * u_weights[2 * j + 1];
    }
    frag_color = vec4(sum, 1.0);
}
