#version 330 core
out vec4 fragColor;
void main() {
    fragColor = vec4(gl_FragCoord.xy / 128.0, 0.0, 1.0);
}
