#pragma chrisos profile 2
// mat2, the non-square matrices and their products (linear algebra), constructors, indexing.
layout(location = 0) in vec2 position;
uniform mat2 rot;
uniform mat3x2 affine;
uniform mat2x4 lift;
void main() {
    vec2 p = rot * position;
    vec2 q = affine * vec3(p, 1.0);
    vec4 r = lift * q;
    vec3 row = q * affine;
    mat2 m = mat2(cos(p.x), sin(p.x), -sin(p.x), cos(p.x));
    mat2x2 n = m * rot * 2.0;
    mat4x3 big = mat4x3(1.0);
    mat3 sq = mat3(affine * mat3x2(big)[0].x);
    mat2 fromv = mat2(r);
    r.xy += n[1] + fromv[0] - row.xy + sq[2].xy;
    gl_Position = r;
}
