#version 330 core
#pragma chrisos profile 2
// Post-processing: quantisation to three levels per channel with white-noise dithering from
// the PCG hash of the pixel index (uint multiply-add with wrap, a data-dependent shift).
uniform sampler2D u_image;

in vec2 v_uv;
out vec4 frag_color;

uint pcg(uint v) {
    uint state = v * 747796405u + 2891336453u;
    uint word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

void main() {
    uvec2 p = uvec2(gl_FragCoord.xy);
    uint seed = p.y * 64u + p.x;
    vec3 noise = vec3(float(pcg(seed) & 255u), float(pcg(seed + 4096u) & 255u),
                      float(pcg(seed + 8192u) & 255u)) / 256.0 + 0.5 / 256.0;
    vec3 c = texture(u_image, v_uv).rgb;
    vec3 q = floor(c * 2.0 + noise) / 2.0;
    frag_color = vec4(q, 1.0);
}
