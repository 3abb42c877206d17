#pragma chrisos profile 2
uniform int m;
out vec4 c;
void main() {
    c = vec4(0.0);
    for (int i = 0; i < m; i++) {
        switch (i) {
        case 0:
            c.x += 1.0;
        case 1:
            c.y += 1.0;
            break;
        case 3:
            continue;
        default:
            c.z += 1.0;
        }
        c.w += 0.25;
    }
}
