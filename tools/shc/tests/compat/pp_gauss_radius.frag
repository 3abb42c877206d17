#version 330 core
#pragma chrisos profile 2
// Post-processing: a Gaussian blur whose radius is a uniform, so both loops have bounds the
// compiler does not know; weights from exp.
in vec2 v_uv;

uniform sampler2D u_image;
uniform vec2 u_texel;
uniform int u_radius;

out vec4 frag_color;

void main() {
    float sigma = max(float(u_radius) * 0.6, 0.5);
    vec3 sum = vec3(0.0);
    float total = 0.0;
    for (int y = -u_radius; y <= u_radius; ++y) {
        for (int x = -u_radius; x <= u_radius; ++x) {
            float w = exp(-float(x * x + y * y) / (2.0 * sigma * sigma));
            sum += texture(u_image, v_uv + vec2(x, y) * u_texel).rgb * w;
            total += w;
        }
    }
    frag_color = vec4(sum / total, 1.0);
}
