#version 330 core
float f1(float x) {
    return f2(x) + 1.0;
}
float f2(float x) {
    return f3(x) + 1.0;
}
float f3(float x) {
    return f4(x) + 1.0;
}
float f4(float x) {
    return f5(x) + 1.0;
}
float f5(float x) {
    return f6(x) + 1.0;
}
float f6(float x) {
    return f7(x) + 1.0;
}
float f7(float x) {
    return x;
}
void main() {
    gl_Position = vec4(f1(0.0));
}
