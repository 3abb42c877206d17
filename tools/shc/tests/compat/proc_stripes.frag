#version 330 core
#pragma chrisos profile 2
// Procedural: rotated stripes (a mat2 rotation of the pixel position) with anti-aliased
// edges from fract and smoothstep.
uniform vec2 u_resolution;
uniform float u_time;
uniform float u_scale;
uniform vec3 u_color_a;
uniform vec3 u_color_b;

out vec4 frag_color;

mat2 rotate2d(float a) {
    float c = cos(a), s = sin(a);
    return mat2(c, s, -s, c);
}

void main() {
    vec2 uv = (gl_FragCoord.xy - 0.5 * u_resolution) / u_resolution.y;
    vec2 p = rotate2d(0.6 + u_time * 0.1) * uv;
    float x = fract(p.x * u_scale);
    float stripe = smoothstep(0.25, 0.3, x) - smoothstep(0.7, 0.75, x);
    frag_color = vec4(mix(u_color_b, u_color_a, stripe), 1.0);
}
