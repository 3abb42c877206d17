#pragma chrisos profile 2
struct Light { vec3 pos; vec3 color; float k; };
const int N = 2;
uniform Light lights[N + 1];
uniform vec3 offsets[4];
uniform sampler2D tex[2];
in vec2 uv;
in vec3 w[2];
out vec4 color;
const float WEIGHTS[3] = float[3](0.25, 0.5, 0.25);
const vec3 PAL[] = vec3[](vec3(1.0), vec3(0.5));
float sum(float a[3]) { return a[0] + a[1] + a[2]; }
float[3] twice(float a[3]) { return float[3](a[0] * 2.0, a[1] * 2.0, a[2] * 2.0); }
void main() {
    vec3 c = vec3(0.0);
    for (int i = 0; i < lights.length(); ++i) {
        c += lights[i].color * lights[i].k * offsets[i];
    }
    Light ls[2];
    ls[0] = lights[0];
    ls[1].color = vec3(1.0, 0.0, 0.0);
    float f[3] = WEIGHTS;
    f[1] = 2.0;
    if (f == WEIGHTS) c = vec3(0.0);
    c += texture(tex[1], uv).rgb * sum(f) + PAL[1] + w[0] + w[1] + ls[1].color;
    color = vec4(c, 1.0);
}
