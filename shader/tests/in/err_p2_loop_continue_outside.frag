#pragma chrisos profile 2
out vec4 color;
void main() {
    if (color.x > 0.0) continue;
    color = vec4(1.0);
}
