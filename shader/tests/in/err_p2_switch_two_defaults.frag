#pragma chrisos profile 2
uniform int m;
out vec4 c;
void main() {
    switch (m) {
    default:
        c = vec4(1.0);
        break;
    default:
        c = vec4(0.0);
    }
}
