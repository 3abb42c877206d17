#version 330 core
#pragma chrisos profile 2
// A while loop whose trip count depends on the pixel: rings of shrinking width are counted
// outwards until the radius is reached, and the count picks the colour.
uniform vec2 u_center;
uniform vec3 u_color_a;
uniform vec3 u_color_b;

out vec4 frag_color;

void main() {
    float r = length(gl_FragCoord.xy - u_center);
    float edge = 0.0;
    float width = 10.0;
    int ring = 0;
    while (edge + width < r && ring < 12) {
        edge += width;
        width *= 0.85;
        ring++;
    }
    float t = (r - edge) / width;
    vec3 color = (ring & 1) == 0 ? u_color_a : u_color_b;
    frag_color = vec4(color * (0.6 + 0.4 * t), 1.0);
}
