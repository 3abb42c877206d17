#version 330 core
#pragma chrisos profile 2
// Lambert shading tinted by height, for the sphere the clip planes slice (the scene culls back
// faces, so the openings show the clear colour).
in vec3 v_world;
in vec3 v_normal;
out vec4 frag_color;

void main() {
    vec3 n = normalize(v_normal);
    float d = max(dot(n, normalize(vec3(0.4, 0.7, 0.6))), 0.0);
    vec3 tint = mix(vec3(0.9, 0.6, 0.3), vec3(0.3, 0.6, 0.9), clamp(v_world.y * 0.5 + 0.5, 0.0, 1.0));
    frag_color = vec4(vec3(0.15) + 0.8 * d * tint, 1.0);
}
