#pragma chrisos profile 2
// Samplers as struct members (GLSL 3.30 4.1.7): uniforms of such structs (plain, arrays,
// nested), members read with constant indexes and passed as 'in' parameters; each sampler is
// its own unit, named as GL names it (m.albedo, mats[1].albedo, pr.m.albedo, pr.extra[1]).
struct Mat { sampler2D albedo; vec3 tint; };
struct Pair { float w; Mat m; sampler2D extra[2]; };
uniform Mat m;
uniform Mat mats[2];
uniform Pair pr;
in vec2 uv;
out vec4 color;
vec4 shade(Mat q, vec2 p) { return texture(q.albedo, p) * vec4(q.tint, 1.0); }
void main() {
    vec4 a = texture(m.albedo, uv) * vec4(m.tint, 1.0);
    vec4 b = shade(mats[1], uv) + shade(mats[0], uv * 0.5);
    vec4 c = shade(pr.m, uv) * pr.w + texture(pr.extra[1], uv) + texture(pr.extra[0], uv.yx);
    for (int i = 0; i < 2; i++) {
        c += texture(mats[i].albedo, uv + 0.25);
    }
    color = a + b + c;
}
