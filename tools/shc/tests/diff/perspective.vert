#version 330
// A floor receding to the horizon: w differs per vertex and one edge passes behind the camera
// (w < 0), so the triangles must be clipped at the near plane, not dropped.
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec2 a_uv;
uniform mat4 u_mvp;
out vec2 v_uv;
out float v_w;

void main() {
    vec4 clip = u_mvp * vec4(a_pos, 1.0);
    v_uv = a_uv;
    v_w = clip.w;
    gl_Position = clip;
}
