#pragma chrisos profile 2
// Matrix vertex inputs (GLSL 3.30 4.3.4): a location per column, reflected as m[c] with the
// column type; layout(location = L) gives column 0, the others follow it.
layout(location = 0) in vec3 pos;
layout(location = 1) in mat4 instanceModel;
in mat3x2 warp;
in vec2 uv;
out vec2 t;
void main() {
    t = warp * vec3(uv, 1.0);
    gl_Position = instanceModel * vec4(pos, 1.0);
}
