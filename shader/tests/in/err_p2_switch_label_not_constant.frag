#pragma chrisos profile 2
uniform int m;
uniform int k;
out vec4 c;
void main() {
    switch (m) {
    case k:
        c = vec4(1.0);
    }
}
