#version 330 core
float main() {
    gl_Position = vec4(1.0);
    return 1.0;
}
