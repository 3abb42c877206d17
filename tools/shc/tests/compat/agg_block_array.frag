#version 330 core
#pragma chrisos profile 2
// Reads an array of input interface blocks (one per light) by constant index and mixes the
// two lights' terms, with a striped albedo from the texture coordinates.
in LightVec {
    vec3 to_light;
    vec3 half_vec;
} lights[2];

in Surface {
    vec3 normal;
    vec2 uv;
} surf;

uniform vec3 u_light0_color;
uniform vec3 u_light1_color;
uniform vec3 u_ambient;

out vec4 frag_color;

vec3 shade(vec3 l, vec3 h, vec3 n, vec3 color) {
    float d = max(dot(n, normalize(l)), 0.0);
    float s = pow(max(dot(n, normalize(h)), 0.0), 24.0);
    return color * (d * 0.8 + s * 0.5);
}

void main() {
    vec3 n = normalize(surf.normal);
    vec3 c0 = shade(lights[0].to_light, lights[0].half_vec, n, u_light0_color);
    vec3 c1 = shade(lights[1].to_light, lights[1].half_vec, n, u_light1_color);
    float stripe = 0.75 + 0.25 * cos(surf.uv.y * 31.415926);
    frag_color = vec4(u_ambient + stripe * mix(c0, c1, 0.4) * 1.6, 1.0);
}
