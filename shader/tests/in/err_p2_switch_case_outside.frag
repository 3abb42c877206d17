#pragma chrisos profile 2
uniform int m;
out vec4 c;
void main() {
    c = vec4(0.0);
    case 1:
        c = vec4(1.0);
}
