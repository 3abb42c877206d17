#pragma chrisos profile 2
out vec4 c;
void main() {
    float dot = 1.0;
    c = vec4(dot(vec2(dot), vec2(1.0)));
}
