#version 330 core
out vec4 fragColor;
void main() {
    gl_FragCoord = vec4(1.0);
    fragColor = vec4(1.0);
}
