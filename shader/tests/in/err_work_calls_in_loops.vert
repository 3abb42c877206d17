#version 330 core
void f0() {
    for (int i = 0; i < 8; i++) { }
}
void f1() {
    for (int i = 0; i < 8; i++) { f0(); f0(); f0(); f0(); }
}
void f2() {
    for (int i = 0; i < 8; i++) { f1(); f1(); f1(); f1(); }
}
void f3() {
    for (int i = 0; i < 8; i++) { f2(); f2(); f2(); f2(); }
}
void f4() {
    for (int i = 0; i < 8; i++) { f3(); f3(); f3(); f3(); }
}
void f5() {
    for (int i = 0; i < 8; i++) { f4(); f4(); f4(); f4(); }
}
void f6() {
    for (int i = 0; i < 8; i++) { f5(); f5(); f5(); f5(); }
}
void main() {
    for (int i = 0; i < 8; i++) { f6(); f6(); f6(); f6(); }
    gl_Position = vec4(0.0);
}
