#version 330 core
#pragma chrisos profile 2
// 2D homogeneous transforms as mat3 (translate * rotate * scale), inverted to map pixels into a
// shape's local space, plus a mat3 colour matrix (hue rotation about the grey axis).
in vec2 v_uv;
uniform float u_time;
out vec4 frag_color;

mat3 translate(vec2 t) { return mat3(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, t.x, t.y, 1.0); }
mat3 rotate(float a) {
    float c = cos(a), s = sin(a);
    return mat3(c, s, 0.0, -s, c, 0.0, 0.0, 0.0, 1.0);
}
mat3 scale(vec2 s) { return mat3(s.x, 0.0, 0.0, 0.0, s.y, 0.0, 0.0, 0.0, 1.0); }

mat3 hue(float a) {
    vec3 k = vec3(0.57735);
    float c = cos(a), s = sin(a);
    mat3 cross_k = mat3(0.0, k.z, -k.y, -k.z, 0.0, k.x, k.y, -k.x, 0.0);
    return c * mat3(1.0) + s * cross_k + (1.0 - c) * outerProduct(k, k);
}

void main() {
    mat3 model = translate(vec2(0.5, 0.5)) * rotate(0.5 + u_time * 0.2) * scale(vec2(0.35, 0.2));
    vec2 local = (inverse(model) * vec3(v_uv, 1.0)).xy;
    float box = 1.0 - smoothstep(0.9, 1.0, max(abs(local.x), abs(local.y)));
    vec3 base = vec3(v_uv, 0.5 + 0.5 * local.x);
    vec3 c = hue(box * 2.0 + 0.5) * base;
    frag_color = vec4(clamp(c, 0.0, 1.0), 1.0);
}
