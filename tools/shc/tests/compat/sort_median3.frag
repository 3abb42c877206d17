#version 330 core
#pragma chrisos profile 2
// Post-processing: a 3x3 median filter. The nine neighbours' luminances go into a local array,
// an insertion sort with a while loop shifts them through dynamic indexes, and the texel whose
// luminance is the median is kept (its colour, so the filter does not invent colours).
uniform sampler2D u_image;
uniform vec2 u_texel;

in vec2 v_uv;
out vec4 frag_color;

void main() {
    float key[9];
    vec3 color[9];
    int n = 0;
    for (int y = -1; y <= 1; y++) {
        for (int x = -1; x <= 1; x++) {
            vec3 c = texture(u_image, v_uv + vec2(x, y) * u_texel).rgb;
            float k = dot(c, vec3(0.299, 0.587, 0.114)) + 0.001 * float(n);
            int j = n - 1;
            while (j >= 0 && key[j] > k) {
                key[j + 1] = key[j];
                color[j + 1] = color[j];
                j--;
            }
            key[j + 1] = k;
            color[j + 1] = c;
            n++;
        }
    }
    frag_color = vec4(color[4], 1.0);
}
