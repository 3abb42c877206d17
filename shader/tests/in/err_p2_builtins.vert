#pragma chrisos profile 2
uniform mat3x2 m;
void main() {
    float a = determinant(m);
    bvec2 b = lessThan(vec2(1.0), ivec2(1));
    bool c = any(vec2(1.0));
    float d = sign(1u);
    vec3 e = refract(vec3(1.0), vec3(1.0), vec2(1.0));
    mat2 f = matrixCompMult(mat2(1.0), 1.0);
    float floor = 1.0;
    float g = floor(2.5);
    gl_Position = vec4(0.0);
}
