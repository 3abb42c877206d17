#version 330
// Matrix constructors (columns, diagonal), a matrix returned by a function, matrix products;
// u_tint is a mat3 uniform used by both stages.
layout(location = 0) in vec3 a_pos;
uniform mat4 u_proj;
uniform mat4 u_view;
uniform mat3 u_tint;
out vec3 v_color;

mat4 translate(vec3 t) {
    return mat4(vec4(1.0, 0.0, 0.0, 0.0), vec4(0.0, 1.0, 0.0, 0.0), vec4(0.0, 0.0, 1.0, 0.0), vec4(t, 1.0));
}

void main() {
    mat4 view_proj = u_proj * u_view;
    mat3 shrink = mat3(0.9);
    vec4 world = translate(vec3(0.1, -0.05, 0.0)) * vec4(shrink * a_pos, 1.0);
    v_color = u_tint * (a_pos * 0.5 + vec3(0.5));
    gl_Position = view_proj * world;
}
