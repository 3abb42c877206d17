#pragma chrisos profile 2
out vec4 color;
void main() {
    color = vec4(1.0);
    break;
}
