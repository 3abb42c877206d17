#version 330 core
#pragma chrisos profile 2
// A procedural floor: a soft tile pattern from fract/abs/smoothstep on world xz, a second
// coarser tint from mod, fading into exponential-squared fog with distance.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;

uniform vec3 u_view_pos;
uniform vec3 u_fog_color;
uniform float u_fog_density;

out vec4 frag_color;

void main() {
    vec2 p = v_world.xz * 0.8;
    vec2 f = abs(fract(p) - 0.5);
    float line = 1.0 - smoothstep(0.0, 0.25, min(f.x, f.y));
    float tint = 0.5 + 0.5 * cos(mod(p.x + p.y, 6.2831853));
    vec3 c = mix(vec3(0.35, 0.3, 0.28), vec3(0.5, 0.42, 0.3), tint) + vec3(0.25) * line;
    c *= 0.6 + 0.4 * max(normalize(v_normal).y, 0.0);
    float d = distance(u_view_pos, v_world) * u_fog_density;
    float fog = exp(-d * d);
    frag_color = vec4(mix(u_fog_color, c, fog), 1.0);
}
