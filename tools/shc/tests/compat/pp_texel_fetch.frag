#version 330 core
#pragma chrisos profile 2
// Post-processing with texelFetch: a 3x3 maximum filter (morphological dilation, a cheap
// bloom) reading exact texels by integer coordinates, clamped to textureSize.
uniform sampler2D u_image;

out vec4 frag_color;

void main() {
    ivec2 size = textureSize(u_image, 0);
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec3 brightest = vec3(0.0);
    vec3 center = texelFetch(u_image, p, 0).rgb;
    for (int y = -1; y <= 1; ++y) {
        for (int x = -1; x <= 1; ++x) {
            ivec2 q = clamp(p + ivec2(x, y), ivec2(0), size - 1);
            brightest = max(brightest, texelFetch(u_image, q, 0).rgb);
        }
    }
    frag_color = vec4(mix(center, brightest, 0.6), 1.0);
}
