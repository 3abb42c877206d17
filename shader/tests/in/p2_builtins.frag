#pragma chrisos profile 2
// Profile 2's built-in library: one use of each family (the lane-wise opcodes 36..=43).
in vec3 n;
in vec2 uv;
uniform mat3 m3;
uniform mat4 m4;
out vec4 color;
void main() {
    vec2 cell = floor(uv * 8.0) + ceil(uv) - trunc(uv) + round(uv) + roundEven(uv);
    vec2 f = fract(uv * 8.0) + mod(uv, 0.25) + mod(uv, vec2(0.5));
    float e = exp(uv.x) + log(uv.y + 1.0) + exp2(uv.x) + log2(uv.y + 2.0);
    float t = tan(uv.x) + sinh(uv.x) + cosh(uv.y) + tanh(uv.x) + asinh(uv.y) + acosh(uv.y + 1.0) + atanh(uv.x * 0.5);
    float s = sqrt(uv.x) + inversesqrt(uv.y + 1.0) + radians(degrees(uv.x)) + sign(uv.x - 0.5);
    vec3 g = faceforward(n, vec3(0.0, 0.0, -1.0), n) + refract(normalize(n), vec3(0.0, 0.0, 1.0), 0.9);
    float d = distance(uv, vec2(0.5)) + determinant(m3) + determinant(m4) + determinant(mat2(uv, uv.yx));
    mat3 tm = matrixCompMult(transpose(m3), m3) + outerProduct(n, n);
    bvec2 lt = lessThan(uv, vec2(0.5));
    bool edge = any(greaterThanEqual(uv, vec2(0.9))) || all(lessThanEqual(uv, vec2(0.1)))
        || any(isnan(uv)) || any(isinf(uv)) || all(not(equal(lt, notEqual(uv, uv))));
    float st = step(0.5, uv.x) + smoothstep(0.2, 0.8, uv.y);
    color = vec4(cell * 0.01 + f * 0.1, e + t + s + d + st + g.x + tm[1][1], edge ? 1.0 : 0.0);
}
