#pragma chrisos profile 2
uniform int n;
out vec4 c;
float find(float x) {
    for (int i = 0; i < n; i++) {
        if (float(i) * 0.5 > x)
            return float(i);
    }
    return -1.0;
}
void main() {
    c = vec4(find(1.2));
    while (c.x < 10.0) {
        c.x += 1.0;
        if (c.x > 5.0) {
            c.y = 1.0;
            return;
        }
    }
    c.z = 1.0;
}
