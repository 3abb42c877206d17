#pragma chrisos profile 2
// Interface block members of every type GLSL 3.30 allows there (sections 4.3.6, 4.3.7):
// a matrix takes a varying slot per column (VS_OUT.tbn[0..2]), an array a slot per element
// (VS_OUT.uv[0], VS_OUT.uv[1]), integer members (and arrays of them) are flat.
in vec4 pos;
in vec3 nrm;
out VS_OUT {
    mat3 tbn;
    vec2 uv[2];
    flat ivec2 id[2];
    mat2x3 m23;
} vs_out;
out Extra { mat2 rot; float w[3]; };
void main() {
    vs_out.tbn = mat3(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, nrm);
    vs_out.uv[0] = pos.xy;
    vs_out.uv[1] = pos.yx * 0.5;
    vs_out.id[0] = ivec2(1, 2);
    vs_out.id[1] = ivec2(3, -4);
    vs_out.m23 = mat2x3(pos.xyz, nrm);
    rot = mat2(0.0, 1.0, -1.0, 0.0);
    w[0] = 0.25;
    w[1] = pos.x;
    w[2] = w[0] + w[1];
    gl_Position = pos;
}
