#pragma chrisos profile 2
in vec3 pos;
out vec4 v;
float luma(vec3 c) { return dot(c, vec3(0.299, 0.587, 0.114)); }
float luma(vec4 c) { return luma(c.rgb) * c.a; }
float pick(float a) { return 1.0; }
float pick(int a) { return 2.0; }
float pick(vec2 a, float b) { return 3.0; }
void main() {
    v = vec4(luma(pos), luma(vec4(pos, 0.5)), pick(1) + pick(1.0), pick(vec2(1.0), 2));
    gl_Position = vec4(pos, 1.0);
}
