#version 330 core
#pragma chrisos profile 2
// Shader art with a cosine palette (a + b * cos(2pi(c t + d))) driven by distance and angle
// from the centre, in the style of shader-toy snippets: atan, length, fract, mix, smoothstep.
uniform vec2 u_resolution;
uniform float u_time;
out vec4 frag_color;

vec3 palette(float t) {
    vec3 a = vec3(0.5), b = vec3(0.5), c = vec3(1.0), d = vec3(0.0, 0.33, 0.67);
    return a + b * cos(6.28318 * (c * t + d));
}

void main() {
    vec2 uv = (gl_FragCoord.xy * 2.0 - u_resolution) / u_resolution.y;
    float r = length(uv);
    float a = atan(uv.y, uv.x + 1e-3);
    float wave = sin(r * 10.0 - u_time * 2.0 + sin(a * 3.0));
    float glow = 0.02 / (abs(wave) * 0.1 + 0.02);
    vec3 c = palette(r + a / 6.28318 + u_time * 0.1) * mix(0.4, 1.0, smoothstep(0.0, 1.0, glow * 0.2));
    frag_color = vec4(c * (1.0 - smoothstep(0.8, 1.4, r)), 1.0);
}
