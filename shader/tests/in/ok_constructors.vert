#version 330 core
in vec4 p;
uniform mat4 m4;
uniform float f;
void main() {
    float a = float(3);
    int i = int(-2.7);
    int j = int(f);
    float g = float(j);
    bool b = bool(f);
    vec2 v2 = vec2(f);
    vec3 v3 = vec3(p);
    vec4 v4 = vec4(v3, 1.0);
    vec4 w4 = vec4(f, v2, 2.0);
    ivec2 iv = ivec2(p.xy);
    mat3 d3 = mat3(1.0);
    mat4 d4 = mat4(f);
    mat3 c3 = mat3(v3, v3, vec3(0.0, 0.0, 1.0));
    mat3 s3 = mat3(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, f, 0.0, 1.0);
    mat3 t3 = mat3(m4);
    mat4 t4 = mat4(t3);
    vec3 r = d3 * v3 + c3 * v3 + s3 * v3;
    gl_Position = d4 * t4 * vec4(r, a) + w4 + vec4(float(i), g, float(iv.x), 0.0);
    if (b) { gl_Position = v4; }
}
