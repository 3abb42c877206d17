#version 330 core
#pragma chrisos profile 2
// Post-processing: a 5x5 box blur with nested constant-bound loops, blended with the sharp
// picture by a radial focus mask (depth-of-field look).
in vec2 v_uv;
uniform sampler2D u_image;
uniform vec2 u_texel;
out vec4 frag_color;

void main() {
    vec3 sum = vec3(0.0);
    for (int y = -2; y <= 2; ++y) {
        for (int x = -2; x <= 2; ++x) {
            sum += texture(u_image, v_uv + vec2(float(x), float(y)) * u_texel).rgb;
        }
    }
    vec3 blurred = sum / 25.0;
    vec3 sharp = texture(u_image, v_uv).rgb;
    float focus = smoothstep(0.1, 0.45, distance(v_uv, vec2(0.5)));
    frag_color = vec4(mix(sharp, blurred, focus), 1.0);
}
