#version 330 core
#pragma chrisos profile 2
// Layered surface: samplers as struct members (a uniform struct and an array of them, passed
// to a function as in parameters), blended by each layer's weight and lit by one light.
struct Layer {
    sampler2D tex;
    float weight;
    vec2 scale;
};
struct Surface {
    vec3 tint;
    sampler2D albedo;
};

in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform Surface u_surf;
uniform Layer u_layers[2];
uniform vec3 u_light_dir;
uniform vec3 u_light_color;
uniform vec3 u_ambient;

out vec4 frag_color;

vec3 layer(Layer l, vec2 uv) {
    return texture(l.tex, uv * l.scale).rgb * l.weight;
}

void main() {
    vec3 n = normalize(v_normal);
    float diffuse = max(dot(n, normalize(u_light_dir)), 0.0);
    vec3 base = texture(u_surf.albedo, v_uv).rgb * u_surf.tint;
    for (int i = 0; i < 2; i++) {
        base += layer(u_layers[i], v_uv);
    }
    frag_color = vec4(base * (u_ambient * 3.0 + u_light_color * diffuse), 1.0);
}
