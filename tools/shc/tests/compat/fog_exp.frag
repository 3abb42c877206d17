#version 330 core
#pragma chrisos profile 2
// Exponential distance fog (GL's fog mode EXP) over the lit floor and boxes.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform vec3 u_view_pos;
uniform vec3 u_light_dir;
uniform vec3 u_light_color;
uniform vec3 u_ambient;
uniform vec3 u_fog_color;
uniform float u_fog_density;
uniform sampler2D u_albedo;

out vec4 frag_color;

void main() {
    vec3 n = normalize(v_normal);
    float diffuse = max(dot(n, normalize(u_light_dir)), 0.0);
    vec3 base = texture(u_albedo, v_uv).rgb * (u_ambient * 3.0 + u_light_color * diffuse);
    float d = distance(v_world, u_view_pos);
    float fog = exp(-u_fog_density * d);
    frag_color = vec4(mix(u_fog_color, base, fog), 1.0);
}
