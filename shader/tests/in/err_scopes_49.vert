#version 330 core
float g = 0.0;
void f7() {
    {{{{{ g = g + 1.0; }}}}}
}
void f6() {
    {{{{{ f7(); }}}}}
}
void f5() {
    {{{{{ f6(); }}}}}
}
void f4() {
    {{{{{ f5(); }}}}}
}
void f3() {
    {{{{{ f4(); }}}}}
}
void f2() {
    {{{{{ f3(); }}}}}
}
void f1() {
    {{{{{ f2(); }}}}}
}
void main() {
    {{{{{ f1(); }}}}}
    gl_Position = vec4(g);
}
