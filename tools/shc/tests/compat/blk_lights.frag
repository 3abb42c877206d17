#version 330 core
#pragma chrisos profile 2
// Three point lights from a std140 uniform block array (each element its own block, indexed by
// constant expressions), plus two soft projector spots tinted by the Projector block array.
layout(std140) uniform Light {
    vec4 pos;
    vec4 color;
} lights[3];

layout(std140, row_major) uniform Projector {
    mat4 proj;
    vec4 tint;
} projectors[2];

in Surface {
    vec3 world;
    vec3 normal;
    vec2 uv;
    vec2 proj_uv[2];
} fs_in;

uniform vec3 u_view_pos;
uniform vec3 u_ambient;

out vec4 frag_color;

const int LAST = 2;

vec3 point(vec4 pos, vec4 color, vec3 p, vec3 n, vec3 v) {
    vec3 l = pos.xyz - p;
    float d = length(l);
    l /= d;
    float diff = max(dot(n, l), 0.0);
    float spec = pow(max(dot(n, normalize(l + v)), 0.0), 20.0);
    float att = color.w / (1.0 + 0.15 * d * d);
    return color.rgb * (diff + 0.4 * spec) * att;
}

float spot(vec2 q) {
    return 1.0 - smoothstep(0.2, 0.9, length(q));
}

void main() {
    vec3 n = normalize(fs_in.normal);
    vec3 v = normalize(u_view_pos - fs_in.world);
    vec3 c = u_ambient;
    c += point(lights[0].pos, lights[0].color, fs_in.world, n, v);
    c += point(lights[1].pos, lights[1].color, fs_in.world, n, v);
    c += point(lights[LAST].pos, lights[LAST].color, fs_in.world, n, v);
    c += projectors[0].tint.rgb * spot(fs_in.proj_uv[0]) * 0.5;
    c += projectors[LAST - 1].tint.rgb * spot(fs_in.proj_uv[1]) * 0.5;
    float stripe = 0.8 + 0.2 * cos(fs_in.uv.x * 25.1327);
    frag_color = vec4(c * stripe, 1.0);
}
