#version 330 core
#pragma chrisos profile 2
// HDR lighting (bright point lights) scaled by an exposure, Reinhard tone mapping and gamma
// encoding, to a vec3 output at an explicit location.
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

layout(location = 0) out vec3 out_color;

vec3 reinhard(vec3 hdr) {
    return hdr / (hdr + vec3(1.0));
}

vec3 gamma_encode(vec3 linear_color) {
    return pow(linear_color, vec3(1.0 / 2.2));
}

vec3 light(vec3 n, vec3 v, vec3 pos, vec3 color) {
    vec3 l = normalize(pos - v_world);
    vec3 h = normalize(l + v);
    float diffuse = max(dot(n, l), 0.0);
    float spec = pow(max(dot(n, h), 0.0), 64.0);
    return color * 4.0 * (diffuse * u_diffuse_color + vec3(spec));
}

void main() {
    vec3 n = normalize(v_normal);
    vec3 v = normalize(u_view_pos - v_world);
    vec3 hdr = light(n, v, u_light0_pos, u_light0_color) + light(n, v, u_light1_pos, u_light1_color);
    hdr *= u_exposure;
    out_color = gamma_encode(reinhard(hdr));
}
