#pragma chrisos profile 2
out vec4 color;
void main() {
    float x = 0.0;
    do { x += 1.0; } (x < 4.0);
    color = vec4(x);
}
