#version 330 core
uniform float u;
float hits = 0.0;
bool touch() {
    hits = hits + 1.0;
    return true;
}
void main() {
    bool a = u > 0.5 && touch();
    bool b = u > 0.5 || touch();
    gl_Position = vec4(hits, float(a), float(b), 1.0);
}
