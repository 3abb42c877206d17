#version 330 core
#pragma chrisos profile 2
// Structs holding arrays, functions taking and returning structs and arrays, struct ==, array
// constructors and .length(): a gradient ramp built as a value and evaluated per pixel.
in vec2 v_uv;
uniform float u_time;
out vec4 frag_color;

struct Ramp {
    vec3 colors[4];
    float stops[4];
};

Ramp make_ramp(float shift) {
    Ramp r;
    r.colors = vec3[4](vec3(0.1, 0.1, 0.3), vec3(0.8, 0.2, 0.3), vec3(1.0, 0.8, 0.2), vec3(1.0));
    r.stops = float[](0.0, 0.3 + shift, 0.7, 1.0);
    return r;
}

vec3 eval(Ramp r, float t) {
    vec3 c = r.colors[0];
    for (int i = 1; i < r.stops.length(); i++) {
        c = mix(c, r.colors[i], smoothstep(r.stops[i - 1], r.stops[i], t));
    }
    return c;
}

float[3] weights(float x) {
    return float[3](1.0 - x, x * (1.0 - x) * 4.0, x);
}

void main() {
    Ramp a = make_ramp(0.05 * u_time);
    Ramp b = make_ramp(0.05 * u_time);
    float same = (a == b) ? 1.0 : 0.0;
    float w[3] = weights(v_uv.y);
    vec3 c = eval(a, v_uv.x) * (w[0] + w[2]) + w[1] * vec3(0.2, 0.6, 0.9) * 0.5;
    frag_color = vec4(c * same, 1.0);
}
