#pragma chrisos profile 2
in vec2 uv;
out vec4 color;
float shade(float x);
vec3 tint(vec3, float);
void main() {
    color = vec4(tint(vec3(uv, 0.5), shade(uv.x)), 1.0);
}
float shade(float x) { return x * 0.5; }
vec3 tint(vec3 c, float s) { return c * s; }
