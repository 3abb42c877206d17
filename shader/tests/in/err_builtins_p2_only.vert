// Profile 1 has no floor(), step() or mod(): they stay unknown functions there.
void main() {
    gl_Position = vec4(floor(1.5), step(0.5, 1.0), 0.0, 1.0);
}
