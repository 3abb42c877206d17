#version 330 core
float g = 1.0;
float bump() {
    g = g + 10.0;
    return g;
}
float pair(float a, float b) {
    return a * 100.0 + b;
}
void main() {
    // Left to right: the first operand reads g before bump() changes it.
    float x = g + bump();
    float y = pair(g, bump());
    gl_Position = vec4(x, y, g, 1.0);
}
