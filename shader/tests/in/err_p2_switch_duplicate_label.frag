#pragma chrisos profile 2
uniform int m;
out vec4 c;
void main() {
    switch (m) {
    case 1:
        c = vec4(1.0);
        break;
    case 2:
    case 1:
        c = vec4(0.5);
    }
}
