#version 330 core
#pragma chrisos profile 2
// Post-processing: a generic 3x3 convolution with const arrays of offsets and weights (an
// unsharp-mask kernel), as engines write their filter passes.
in vec2 v_uv;
uniform sampler2D u_image;
uniform vec2 u_texel;
out vec4 frag_color;

const vec2 OFFSETS[9] = vec2[](
    vec2(-1.0, 1.0), vec2(0.0, 1.0), vec2(1.0, 1.0),
    vec2(-1.0, 0.0), vec2(0.0, 0.0), vec2(1.0, 0.0),
    vec2(-1.0, -1.0), vec2(0.0, -1.0), vec2(1.0, -1.0));
const float KERNEL[9] = float[](
    -0.0625, -0.125, -0.0625,
    -0.125, 1.75, -0.125,
    -0.0625, -0.125, -0.0625);

void main() {
    vec3 sum = vec3(0.0);
    for (int i = 0; i < OFFSETS.length(); i++) {
        sum += KERNEL[i] * texture(u_image, v_uv + OFFSETS[i] * u_texel).rgb;
    }
    frag_color = vec4(clamp(sum, 0.0, 1.0), 1.0);
}
