#version 330 core
// line comment
/* block
   comment */ in vec4 p; // trailing
void main() {
    /* inline */ gl_Position = p; // done
}
