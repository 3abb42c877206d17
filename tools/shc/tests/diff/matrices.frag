#version 330
in vec3 v_color;
uniform mat3 u_tint;
out vec4 frag;

void main() {
    mat3 swap = mat3(vec3(0.0, 1.0, 0.0), vec3(1.0, 0.0, 0.0), vec3(0.0, 0.0, 1.0));
    vec3 c = swap * (u_tint * v_color);
    frag = vec4(c, 1.0);
}
