#pragma chrisos profile 2
uniform int n;
out vec4 c;
void stop() {
    c.x += 1.0;
    break;
}
void main() {
    c = vec4(0.0);
    for (int i = 0; i < n; i++) {
        stop();
    }
}
