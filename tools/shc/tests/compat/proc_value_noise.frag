#version 330 core
#pragma chrisos profile 2
// Procedural: value noise from a sine hash on lattice points, smoothstep-interpolated, summed
// over four octaves (fractal Brownian motion) and coloured as terrain.
uniform vec2 u_resolution;
uniform float u_time;

out vec4 frag_color;

float hash(vec2 cell) {
    // Smooth in its input, so tiny rounding differences stay tiny.
    return 0.5 + 0.5 * sin(dot(cell, vec2(2.31, 5.17)) + 2.7 * sin(dot(cell, vec2(-1.13, 0.87))));
}

float value_noise(vec2 p) {
    vec2 i = floor(p);
    vec2 f = fract(p);
    vec2 u = f * f * (3.0 - 2.0 * f);
    float a = hash(i);
    float b = hash(i + vec2(1.0, 0.0));
    float c = hash(i + vec2(0.0, 1.0));
    float d = hash(i + vec2(1.0, 1.0));
    return mix(mix(a, b, u.x), mix(c, d, u.x), u.y);
}

float fbm(vec2 p) {
    float sum = 0.0;
    float amplitude = 0.5;
    for (int i = 0; i < 4; i++) {
        sum += amplitude * value_noise(p);
        p = p * 2.03 + vec2(1.3, 2.1);
        amplitude *= 0.5;
    }
    return sum;
}

void main() {
    vec2 p = gl_FragCoord.xy / u_resolution * 4.0 + vec2(u_time * 0.2, 0.0);
    float h = fbm(p);
    vec3 water = vec3(0.1, 0.25, 0.55);
    vec3 land = vec3(0.25, 0.5, 0.2);
    vec3 rock = vec3(0.55, 0.5, 0.45);
    vec3 color = mix(water, land, smoothstep(0.42, 0.48, h));
    color = mix(color, rock, smoothstep(0.62, 0.7, h));
    frag_color = vec4(color * (0.7 + 0.6 * h), 1.0);
}
