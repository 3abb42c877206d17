#version 330 core
#pragma chrisos profile 2
// A constant array palette (array constructor, .length()) blended over a horizontal ramp
// with a loop that indexes it by the loop counter only.
uniform vec2 u_resolution;

out vec4 frag_color;

const vec3 PALETTE[5] = vec3[](vec3(0.1, 0.1, 0.3), vec3(0.2, 0.5, 0.6), vec3(0.9, 0.8, 0.4),
                               vec3(0.9, 0.4, 0.2), vec3(0.5, 0.1, 0.2));
const float WEIGHTS[3] = float[3](0.25, 0.5, 0.25);

void main() {
    vec2 uv = gl_FragCoord.xy / u_resolution;
    float t = uv.x * float(PALETTE.length() - 1);
    vec3 color = vec3(0.0);
    for (int i = 0; i < PALETTE.length(); ++i) {
        float w = clamp(1.0 - abs(t - float(i)), 0.0, 1.0);
        color += PALETTE[i] * w;
    }
    float shade = WEIGHTS[0] + WEIGHTS[1] * uv.y + WEIGHTS[2] * uv.y * uv.y;
    frag_color = vec4(color * (0.5 + shade), 1.0);
}
