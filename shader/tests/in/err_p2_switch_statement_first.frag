#pragma chrisos profile 2
uniform int m;
out vec4 c;
void main() {
    switch (m) {
        c = vec4(0.0);
    case 0:
        c = vec4(1.0);
    }
}
