#version 330 core
#pragma chrisos profile 2
// Reads its inputs from an interface block with another instance name than the vertex
// shader's, lit by a struct array of lights compared with == against a constructed one.
struct Light {
    vec3 position;
    vec3 color;
    float intensity;
};

in VS_OUT {
    vec3 world;
    vec3 normal;
    vec2 uv;
} surface;

uniform Light u_lights[3];
uniform vec3 u_diffuse_color;
uniform vec3 u_view_pos;

out vec4 frag_color;

void main() {
    vec3 n = normalize(surface.normal);
    vec3 v = normalize(u_view_pos - surface.world);
    vec3 color = vec3(0.03);
    Light off = Light(vec3(0.0), vec3(0.0), 0.0);
    for (int i = 0; i < 3; ++i) {
        Light light = u_lights[i];
        if (light != off) {
            vec3 l = normalize(light.position - surface.world);
            vec3 h = normalize(l + v);
            float stripes = 0.85 + 0.15 * sin(surface.uv.y * 40.0);
            color += light.color * light.intensity *
                     (u_diffuse_color * stripes * max(dot(n, l), 0.0) +
                      vec3(pow(max(dot(n, h), 0.0), 32.0)));
        }
    }
    frag_color = vec4(color, 1.0);
}
