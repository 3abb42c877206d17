#version 330 core
#pragma chrisos profile 2
// Physically based shading (Cook-Torrance: GGX distribution, Smith-Schlick geometry, Schlick
// Fresnel) over the scene's array of light structs, then Reinhard and gamma.
struct Light {
    vec3 position;
    vec3 color;
    float intensity;
};

in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform Light u_lights[3];
uniform vec3 u_view_pos;

out vec4 frag_color;

const float PI = 3.14159265;

float ggx(float ndh, float rough) {
    float a2 = rough * rough * rough * rough;
    float d = ndh * ndh * (a2 - 1.0) + 1.0;
    return a2 / (PI * d * d);
}
float smith(float ndv, float ndl, float rough) {
    float k = (rough + 1.0) * (rough + 1.0) / 8.0;
    return ndv / (ndv * (1.0 - k) + k) * ndl / (ndl * (1.0 - k) + k);
}
vec3 fresnel(float c, vec3 f0) {
    return f0 + (1.0 - f0) * pow(1.0 - c, 5.0);
}

void main() {
    vec3 albedo = vec3(0.9, 0.55, 0.3);
    float metal = smoothstep(0.3, 0.7, v_uv.x);
    float rough = mix(0.25, 0.6, v_uv.y);
    vec3 f0 = mix(vec3(0.04), albedo, metal);
    vec3 n = normalize(v_normal);
    vec3 v = normalize(u_view_pos - v_world);
    float ndv = max(dot(n, v), 1e-4);
    vec3 lo = vec3(0.0);
    for (int i = 0; i < 3; i++) {
        vec3 tl = u_lights[i].position - v_world;
        vec3 l = normalize(tl);
        vec3 h = normalize(v + l);
        float ndl = max(dot(n, l), 0.0);
        vec3 radiance = u_lights[i].color * u_lights[i].intensity * 8.0 / dot(tl, tl);
        vec3 f = fresnel(max(dot(h, v), 0.0), f0);
        vec3 spec = ggx(max(dot(n, h), 0.0), rough) * smith(ndv, ndl, rough) * f /
                    (4.0 * ndv * ndl + 1e-4);
        vec3 kd = (1.0 - f) * (1.0 - metal);
        lo += (kd * albedo / PI + spec) * radiance * ndl;
    }
    vec3 c = lo + vec3(0.03) * albedo;
    c = c / (c + 1.0);
    frag_color = vec4(pow(c, vec3(1.0 / 2.2)), 1.0);
}
