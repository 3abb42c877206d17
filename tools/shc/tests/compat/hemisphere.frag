#version 330 core
#pragma chrisos profile 2
// Hemisphere lighting (sky and ground colours blended by the normal's y) plus a sun term,
// with precision statements and qualifiers as ES-minded code writes them.
precision highp float;
precision mediump int;

in highp vec3 v_world;
in mediump vec3 v_normal;
in vec2 v_uv;

uniform lowp vec3 u_sky_color;
uniform lowp vec3 u_ground_color;
uniform vec3 u_light_dir;
uniform vec3 u_light_color;

out lowp vec4 frag_color;

void main() {
    mediump vec3 n = normalize(v_normal);
    highp float up = n.y * 0.5 + 0.5;
    vec3 hemi = mix(u_ground_color, u_sky_color, up);
    float sun = max(dot(n, normalize(u_light_dir)), 0.0);
    const vec3 albedo = vec3(0.75, 0.72, 0.7);
    frag_color = vec4(albedo * (hemi + u_light_color * sun * 0.6), 1.0);
}
