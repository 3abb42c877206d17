#version 330 core
#pragma chrisos profile 2
// Fixed-level lookups of the mipmapped environment cube: level 2 over the skybox rays.
in vec2 v_uv;
out vec4 frag;
uniform samplerCube u_env_mip;
uniform vec3 u_right;
uniform vec3 u_up;
uniform vec3 u_forward;
uniform float u_fov_scale;

void main() {
    vec2 p = (v_uv * 2.0 - 1.0) * u_fov_scale;
    vec3 dir = normalize(u_forward + p.x * u_right + p.y * u_up);
    frag = textureLod(u_env_mip, dir, 2.0);
}
