#pragma chrisos profile 2
uniform float f;
out vec4 c;
void main() {
    switch (f) {
    case 1:
        c = vec4(1.0);
        break;
    }
}
