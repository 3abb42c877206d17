#version 330 core
#pragma chrisos profile 2
// Faceted shading without normals: the face normal from the screen-space derivatives of the
// world position (dFdx, dFdy).
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform vec3 u_light_dir;
uniform vec3 u_diffuse_color;
uniform vec3 u_ambient;

out vec4 frag_color;

void main() {
    vec3 n = normalize(cross(dFdx(v_world), dFdy(v_world)));
    float diffuse = max(dot(n, normalize(u_light_dir)), 0.0);
    frag_color = vec4(u_ambient + u_diffuse_color * diffuse, 1.0);
}
