#version 330 core
#pragma chrisos profile 2
// Linear-light gradients written through the exact sRGB curve (piecewise, selected per
// channel with lessThanEqual and mix) next to the 2.2 power approximation, with a
// matrix-by-scalar white balance.
uniform vec2 u_resolution;
uniform vec3 u_color_a;
uniform vec3 u_color_b;

out vec4 frag_color;

vec3 linear_to_srgb(vec3 c) {
    bvec3 low = lessThanEqual(c, vec3(0.0031308));
    vec3 lo = c * 12.92;
    vec3 hi = 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055;
    return vec3(low.r ? lo.r : hi.r, low.g ? lo.g : hi.g, low.b ? lo.b : hi.b);
}

void main() {
    vec2 uv = gl_FragCoord.xy / u_resolution;
    mat3 balance = mat3(1.05, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.92) * 0.95;
    vec3 linear_color = balance * mix(u_color_b, u_color_a, uv.x) * uv.y;
    vec3 encoded = uv.y > 0.5 ? linear_to_srgb(linear_color) : pow(linear_color, vec3(1.0 / 2.2));
    frag_color = vec4(encoded, 1.0);
}
