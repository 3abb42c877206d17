#pragma chrisos profile 2
// The fragment side of p2_block_members.vert: matrix and array members read back, whole and
// by column, element or component.
in VS_OUT {
    mat3 tbn;
    vec2 uv[2];
    flat ivec2 id[2];
    mat2x3 m23;
} fs_in;
in Extra { mat2 rot; float w[3]; };
out vec4 color;
void main() {
    vec3 n = fs_in.tbn * vec3(0.0, 0.0, 1.0) + fs_in.tbn[1] + fs_in.m23[1];
    vec2 t = rot * (fs_in.uv[0] + fs_in.uv[1]) + vec2(fs_in.id[1]) * w[2];
    color = vec4(n + vec3(t, w[1]), float(fs_in.id[0].y));
}
