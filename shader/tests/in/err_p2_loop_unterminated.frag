#pragma chrisos profile 2
out vec4 color;
void main() {
    float x = 0.0;
    while (x < 3.0 {
        x += 1.0;
    }
    color = vec4(x);
}
