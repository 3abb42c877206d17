#version 330 core
#pragma chrisos profile 2
// Post-processing: ordered (Bayer 4x4) dithering to two levels per channel, the threshold
// matrix a const int array indexed by the pixel position (exact at pixel centres).
in vec2 v_uv;
uniform sampler2D u_image;
out vec4 frag_color;

const int BAYER[16] = int[](0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5);

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy) % 4;
    float threshold = (float(BAYER[p.y * 4 + p.x]) + 0.5) / 16.0;
    vec3 c = texture(u_image, v_uv).rgb;
    vec3 q = step(vec3(threshold), c * 0.9 + 0.05);
    frag_color = vec4(mix(vec3(0.1, 0.05, 0.2), vec3(1.0, 0.95, 0.8), q), 1.0);
}
