#version 330 core
#pragma chrisos profile 2
// A five-stop colour ramp along a diagonal, the stops chosen by early returns.
uniform vec2 u_resolution;

out vec4 frag_color;

const vec3 C0 = vec3(0.05, 0.02, 0.2);
const vec3 C1 = vec3(0.5, 0.1, 0.5);
const vec3 C2 = vec3(0.95, 0.35, 0.2);
const vec3 C3 = vec3(1.0, 0.8, 0.3);
const vec3 C4 = vec3(1.0, 1.0, 0.9);

vec3 ramp(float t) {
    if (t < 0.25)
        return mix(C0, C1, t * 4.0);
    if (t < 0.5)
        return mix(C1, C2, (t - 0.25) * 4.0);
    if (t < 0.75) {
        return mix(C2, C3, (t - 0.5) * 4.0);
    }
    return mix(C3, C4, (t - 0.75) * 4.0);
}

void main() {
    vec2 uv = gl_FragCoord.xy / u_resolution;
    float t = clamp(uv.y * 0.8 + uv.x * 0.3 - 0.05, 0.0, 1.0);
    frag_color = vec4(ramp(t), 1.0);
}
