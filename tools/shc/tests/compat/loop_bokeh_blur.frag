#version 330 core
#pragma chrisos profile 2
// Post-processing: a disc-shaped (bokeh) blur over a uniform radius, nested loops with
// dynamic bounds, continue for taps outside the disc, bright taps weighted up.
uniform sampler2D u_image;
uniform vec2 u_texel;
uniform int u_radius;

in vec2 v_uv;
out vec4 frag_color;

void main() {
    vec3 sum = vec3(0.0);
    float total = 0.0;
    int r2 = u_radius * u_radius;
    for (int y = -u_radius; y <= u_radius; y++) {
        for (int x = -u_radius; x <= u_radius; x++) {
            if (x * x + y * y > r2)
                continue;
            vec3 c = texture(u_image, v_uv + vec2(x, y) * u_texel).rgb;
            float w = 1.0 + 4.0 * dot(c, vec3(0.299, 0.587, 0.114));
            sum += c * w;
            total += w;
        }
    }
    frag_color = vec4(sum / total, 1.0);
}
