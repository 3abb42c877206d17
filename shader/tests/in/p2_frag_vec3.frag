#pragma chrisos profile 2
// A vec3 colour output: the missing alpha is written as 0 (as Mesa writes it).
in vec3 v_color;
out vec3 o_color;
void main() {
    o_color = v_color;
}
