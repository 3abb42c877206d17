#version 330 core
void main() {
    switch (1) { }
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
