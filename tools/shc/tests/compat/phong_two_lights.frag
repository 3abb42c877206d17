#version 330 core
#pragma chrisos profile 2
// Phong lighting with two point lights (constant/linear/quadratic falloff) and a material
// given by uniforms; the specular term is accumulated through an inout parameter.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform vec3 u_view_pos;
uniform vec3 u_light0_pos;
uniform vec3 u_light0_color;
uniform vec3 u_light1_pos;
uniform vec3 u_light1_color;
uniform vec3 u_ambient;
uniform vec3 u_diffuse_color;
uniform vec3 u_specular_color;
uniform float u_shininess;

out vec4 frag_color;

#define ATTENUATION_LINEAR 0.09
#define ATTENUATION_QUADRATIC 0.032

vec3 point_light(in vec3 n, in vec3 v, in vec3 light_pos, in vec3 light_color,
                 inout vec3 specular) {
    vec3 to_light = light_pos - v_world;
    float d = length(to_light);
    vec3 l = to_light / d;
    float attenuation = 1.0 / (1.0 + ATTENUATION_LINEAR * d + ATTENUATION_QUADRATIC * d * d);
    float diffuse = max(dot(n, l), 0.0);
    vec3 r = reflect(-l, n);
    specular += light_color * (pow(max(dot(r, v), 0.0), u_shininess) * attenuation);
    return light_color * (diffuse * attenuation);
}

void main() {
    vec3 n = normalize(v_normal);
    vec3 v = normalize(u_view_pos - v_world);
    vec3 specular = vec3(0.0);
    vec3 diffuse = point_light(n, v, u_light0_pos, u_light0_color, specular);
    diffuse += point_light(n, v, u_light1_pos, u_light1_color, specular);
    vec3 color = u_ambient + u_diffuse_color * diffuse + u_specular_color * specular;
    frag_color = vec4(color, 1.0);
}
