#version 330 core
#pragma chrisos profile 2
// Post-processing: a 3x3 Gaussian blur (weights 1-2-1 by 1-2-1) in two nested loops with
// constant bounds, accumulated with += and counted with ++.
in vec2 v_uv;

uniform sampler2D u_image;
uniform vec2 u_texel;

out vec4 frag_color;

void main() {
    vec3 sum = vec3(0.0);
    float total = 0.0;
    for (int y = -1; y <= 1; y++) {
        for (int x = -1; x <= 1; ++x) {
            float w = (x == 0 ? 2.0 : 1.0) * (y == 0 ? 2.0 : 1.0);
            sum += texture(u_image, v_uv + vec2(float(x), float(y)) * u_texel).rgb * w;
            total += w;
        }
    }
    frag_color = vec4(sum / total, 1.0);
}
