#pragma chrisos profile 2
uniform uint m;
out vec4 c;
void main() {
    switch (m) {
    case 1:
        c = vec4(1.0);
    }
}
