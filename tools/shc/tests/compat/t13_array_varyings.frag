#version 330 core
#pragma chrisos profile 2
// Reads array varyings element by element in a constant-bound loop: two point lights.
in vec3 v_to_light[2];
in float v_weight[2];
in vec3 v_normal;

uniform vec3 u_light0_color;
uniform vec3 u_light1_color;
uniform vec3 u_ambient;

out vec4 frag_color;

void main() {
    vec3 n = normalize(v_normal);
    vec3 colors[2] = vec3[2](u_light0_color, u_light1_color);
    vec3 c = u_ambient;
    for (int i = 0; i < 2; i++) {
        vec3 l = normalize(v_to_light[i]);
        c += colors[i] * v_weight[i] * max(dot(n, l), 0.0);
    }
    frag_color = vec4(c, 1.0);
}
