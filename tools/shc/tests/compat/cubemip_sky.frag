#version 330 core
#pragma chrisos profile 2
// The skybox through the mipmapped environment cube (trilinear, implicit level of detail).
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
    frag = texture(u_env_mip, dir);
}
