#version 330 core
#pragma chrisos profile 2
// ACES filmic tone mapping (the fitted RRT+ODT curve between two colour matrices), exposure
// in stops through exp2, and the exact sRGB transfer curve.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform vec3 u_view_pos;
uniform vec3 u_light0_pos;
uniform vec3 u_light0_color;
uniform vec3 u_light1_pos;
uniform vec3 u_light1_color;
uniform vec3 u_diffuse_color;
uniform float u_exposure;

out vec4 frag_color;

const mat3 ACES_IN = mat3(0.59719, 0.07600, 0.02840,
                          0.35458, 0.90834, 0.13383,
                          0.04823, 0.01566, 0.83777);
const mat3 ACES_OUT = mat3(1.60475, -0.10208, -0.00327,
                           -0.53108, 1.10813, -0.07276,
                           -0.07367, -0.00605, 1.07602);

vec3 rrt_odt_fit(vec3 v) {
    vec3 a = v * (v + 0.0245786) - 0.000090537;
    vec3 b = v * (0.983729 * v + 0.4329510) + 0.238081;
    return a / b;
}

vec3 srgb_encode(vec3 c) {
    vec3 low = c * 12.92;
    vec3 high = 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055;
    return mix(low, high, step(vec3(0.0031308), c));
}

void main() {
    vec3 n = normalize(v_normal);
    vec3 v = normalize(u_view_pos - v_world);
    vec3 hdr = vec3(0.02);
    vec3 l0 = normalize(u_light0_pos - v_world);
    vec3 l1 = normalize(u_light1_pos - v_world);
    hdr += u_light0_color * 3.0 * (u_diffuse_color * max(dot(n, l0), 0.0) +
                                   pow(max(dot(n, normalize(l0 + v)), 0.0), 80.0));
    hdr += u_light1_color * 2.0 * u_diffuse_color * max(dot(n, l1), 0.0);
    hdr *= exp2(u_exposure - 1.0);
    vec3 mapped = ACES_OUT * rrt_odt_fit(ACES_IN * hdr);
    frag_color = vec4(srgb_encode(clamp(mapped, 0.0, 1.0)), 1.0);
}
