#version 330 core
#pragma chrisos profile 2
// Bump mapping without tangents: the surface gradient from screen-space derivatives of the
// position and of a height map (the map's alpha), perturbing the interpolated normal.
in vec3 v_world;
in vec2 v_uv;
in vec3 v_tangent;
in vec3 v_bitangent;
in vec3 v_normal;

uniform sampler2D u_normal_map;
uniform vec3 u_light0_pos;
uniform vec3 u_light_color;
uniform vec3 u_ambient;

out vec4 frag_color;

vec3 perturb_normal(vec3 n, vec3 p, float height) {
    vec3 dpdx = dFdx(p);
    vec3 dpdy = dFdy(p);
    vec3 r1 = cross(dpdy, n);
    vec3 r2 = cross(n, dpdx);
    float det = dot(dpdx, r1);
    vec3 grad = sign(det) * (dFdx(height) * r1 + dFdy(height) * r2);
    return normalize(abs(det) * n - grad);
}

void main() {
    vec3 n = normalize(v_normal);
    float height = texture(u_normal_map, v_uv * 2.0).a * 0.04;
    vec3 bumped = perturb_normal(n, v_world, height);
    vec3 l = normalize(u_light0_pos - v_world);
    vec3 color = vec3(0.7, 0.65, 0.6) * (u_ambient * 2.0 + u_light_color * max(dot(bumped, l), 0.0));
    frag_color = vec4(color, 1.0);
}
