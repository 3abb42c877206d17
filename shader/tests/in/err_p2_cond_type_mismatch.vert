#pragma chrisos profile 2
in vec3 pos;
void main() {
    float k = pos.x;
    gl_Position = vec4(k > 0.0 ? pos : vec2(1.0), 1.0);
}
