#version 330
// Interpolated colour, alpha kept; components outside [0, 1] are clamped by the target.
in vec4 v_color;
out vec4 frag_color;

void main() {
    frag_color = v_color;
}
