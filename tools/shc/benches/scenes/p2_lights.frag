#version 330
#pragma chrisos profile 2
// Profile-2 benchmark: structs, an array of 4 point lights with attenuation, GLSL 3.30 built-ins.
struct PointLight {
    vec3 position;
    vec3 color;
    float constant;
    float linear;
    float quadratic;
};
struct Material {
    vec3 specular;
    float shininess;
};
const int NUM_LIGHTS = 4;
uniform PointLight u_lights[NUM_LIGHTS];
uniform Material u_mat;
uniform sampler2D u_tex;
uniform vec3 u_eye;
in VS_OUT { vec3 world; vec3 normal; vec2 uv; } fs_in;
out vec4 frag;

vec3 point_light(PointLight l, Material m, vec3 albedo, vec3 n, vec3 p, vec3 v) {
    vec3 to_light = l.position - p;
    float d = length(to_light);
    vec3 ld = to_light / d;
    float att = 1.0 / (l.constant + l.linear * d + l.quadratic * d * d);
    float diff = max(dot(n, ld), 0.0);
    vec3 r = reflect(-ld, n);
    float spec = pow(max(dot(v, r), 0.0), m.shininess);
    return att * l.color * (albedo * diff + m.specular * spec);
}

void main() {
    vec3 n = normalize(fs_in.normal);
    vec3 v = normalize(u_eye - fs_in.world);
    vec3 albedo = texture(u_tex, fs_in.uv).rgb;
    vec3 c = 0.08 * albedo;
    for (int i = 0; i < NUM_LIGHTS; ++i) {
        c += point_light(u_lights[i], u_mat, albedo, n, fs_in.world, v);
    }
    float edge = smoothstep(0.0, 0.35, dot(n, v));
    c = mix(c * 0.5, c, edge);
    frag = vec4(clamp(c, 0.0, 1.0), 1.0);
}
