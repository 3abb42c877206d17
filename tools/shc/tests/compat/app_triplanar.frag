#version 330 core
#pragma chrisos profile 2
// Triplanar texture mapping on the box: the albedo texture projected along the three world
// axes and blended by the normal's components raised to a power, then Lambert lit.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform sampler2D u_albedo;
uniform vec3 u_light_dir;
uniform vec3 u_light_color;
uniform vec3 u_ambient;

out vec4 frag_color;

void main() {
    vec3 n = normalize(v_normal);
    vec3 w = pow(abs(n), vec3(4.0));
    w /= w.x + w.y + w.z;
    vec3 cx = texture(u_albedo, v_world.yz * 0.5 + 0.5).rgb;
    vec3 cy = texture(u_albedo, v_world.xz * 0.5 + 0.5).rgb;
    vec3 cz = texture(u_albedo, v_world.xy * 0.5 + 0.5).rgb;
    vec3 albedo = cx * w.x + cy * w.y + cz * w.z;
    float diff = max(dot(n, normalize(u_light_dir)), 0.0);
    frag_color = vec4(albedo * (u_ambient * 3.0 + u_light_color * diff), 1.0);
}
