#version 330 core
#pragma chrisos profile 2
// Post-processing: local histogram equalisation. The 5x5 neighbourhood's luminances are counted
// into eight bins (a dynamic write bins[b] += 1), the cumulative count up to the centre's bin
// remaps its brightness.
uniform sampler2D u_image;
uniform vec2 u_texel;

in vec2 v_uv;
out vec4 frag_color;

void main() {
    int bins[8] = int[](0, 0, 0, 0, 0, 0, 0, 0);
    for (int y = -2; y <= 2; y++) {
        for (int x = -2; x <= 2; x++) {
            vec3 t = texture(u_image, v_uv + vec2(x, y) * u_texel).rgb;
            int b = clamp(int(dot(t, vec3(0.25, 0.5, 0.25)) * 8.0), 0, 7);
            bins[b] += 1;
        }
    }
    vec3 c = texture(u_image, v_uv).rgb;
    int centre = clamp(int(dot(c, vec3(0.25, 0.5, 0.25)) * 8.0), 0, 7);
    int cumulative = 0;
    for (int i = 0; i <= centre; i++)
        cumulative += bins[i];
    float target = float(cumulative) / 25.0;
    float lum = max(dot(c, vec3(0.25, 0.5, 0.25)), 0.02);
    frag_color = vec4(clamp(c * (target / lum) * 0.8, 0.0, 1.0), 1.0);
}
